// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel and the machine allow: CPUs, privileges, tracefs, the
 * kernel's config and BTF, cgroup quotas, and the lock that keeps two runs
 * from measuring each other. Every answer comes from asking the kernel,
 * never from a version table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <zlib.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench_kernel.h"
#include "bench_cpus.h"
#include "bench_msg.h"
#include "bench_workers.h"
#include "bench_util.h"

/* ---- CPUs ---- */

int nr_cpus_possible(void)
{
	static int nr;

	if (!nr)
		nr = libbpf_num_possible_cpus();
	return nr;
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

