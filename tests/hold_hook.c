// SPDX-License-Identifier: GPL-2.0
/*
 * hold_hook TRACEPOINT: another program on a hook the tools measure, as a
 * second tracer would attach one. Attaches a counting raw_tp program to
 * TRACEPOINT, says "attached", and holds it until killed.
 */
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "test_overhead.h"
#include "test_overhead_raw_tp_kern.skel.h"

int main(int argc, char **argv)
{
	struct test_overhead_raw_tp_kern *skel;
	struct bpf_link *link;

	if (argc != 2) {
		fprintf(stderr, "usage: hold_hook TRACEPOINT\n");
		return 2;
	}
	skel = test_overhead_raw_tp_kern__open();
	if (!skel)
		return 1;
	bpf_program__set_autoload(skel->progs.raw_tp_count, true);
	if (test_overhead_raw_tp_kern__load(skel))
		return 1;
	link = bpf_program__attach_raw_tracepoint(skel->progs.raw_tp_count,
						  argv[1]);
	if (!link)
		return 1;
	printf("attached\n");
	fflush(stdout);
	pause();
	return 0;
}
