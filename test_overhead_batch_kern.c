// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel trigger of the kernel-batch event: each BPF_PROG_TEST_RUN
 * of this program calls a cheap helper args[0] times, and the programs
 * under test hook the helper's kernel function, so no syscall is made
 * per event.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define MAX_BATCH 1000

SEC("raw_tp")
int kernel_batch_driver(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 n = ctx->args[0];
	int i;

	for (i = 0; i < MAX_BATCH && i < n; i++)
		bpf_get_numa_node_id();	/* the attach point */
	return 0;
}

char _license[] SEC("license") = "GPL";
