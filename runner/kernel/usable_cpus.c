// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's CPUs: how many the kernel may have (per-CPU data is
 * sized by it) and which this process may run its workers on, online
 * and in its affinity (its cpuset's). Apart from the lists of CPUs
 * (bench_cpus.c), which parse and print and ask the kernel nothing.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>
#include "kernel/kernel.h"
#include "core/core.h"

int nr_cpus_possible(void)
{
	int *nr = &probe_cache.nr_cpus_possible;

	if (!*nr)
		*nr = libbpf_num_possible_cpus();
	return *nr;
}

static int online_cpus(struct cpu_list *out)
{
	char buf[4096];
	FILE *f;
	int err;

	f = fopen("/sys/devices/system/cpu/online", "r");
	if (!f)
		return -errno;
	err = fgets(buf, sizeof(buf), f) ? parse_cpu_ranges(buf, out) : -EIO;
	fclose(f);
	return err;
}

int usable_cpus(struct cpu_list *out)
{
	struct cpu_list online = {};
	size_t size = CPU_ALLOC_SIZE(8192);
	cpu_set_t *set;
	int cpu, err;

	set = CPU_ALLOC(8192);
	if (!set)
		return -ENOMEM;
	if (sched_getaffinity(0, size, set)) {
		err = -errno;
		goto out;
	}
	/* without the online list, the affinity mask alone says it */
	if (online_cpus(&online))
		online.nr = -1;
	out->nr = 0;
	out->cpu = malloc(CPU_COUNT_S(size, set) * sizeof(int));
	err = out->cpu ? 0 : -ENOMEM;
	for (cpu = 0; !err && cpu < 8192; cpu++) {
		if (!CPU_ISSET_S(cpu, size, set))
			continue;
		if (online.nr < 0 || cpu_list_has(&online, cpu))
			out->cpu[out->nr++] = cpu;
	}
	if (!err && !out->nr)
		err = -ENODEV;
out:
	cpu_list_free(&online);
	CPU_FREE(set);
	return err;
}
