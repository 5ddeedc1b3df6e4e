/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every test_overhead BPF program shares: a per-CPU hit counter, so the
 * runner can prove each program fired once per event, and the same small
 * body for every program that sees the renamed task, so that modes differ
 * only in how they are attached.
 */
#ifndef __OVERHEAD_KERN_H
#define __OVERHEAD_KERN_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#define COMM_LEN 16

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

static __always_inline void count_hit(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&hits, &zero);

	/* per-CPU slot: no other CPU writes it, a plain increment is enough */
	if (n)
		*n += 1;
}

/*
 * The reads upstream's kprobe program made: pid, old and new comm and
 * signal->oom_score_adj. Results are unused; the helper calls still run.
 */
static __always_inline void observe_rename(struct task_struct *task,
					   const char *newcomm)
{
	char oldc[COMM_LEN], newc[COMM_LEN];
	pid_t pid;
	short oom_score_adj;

	pid = BPF_CORE_READ(task, pid);
	bpf_core_read(oldc, sizeof(oldc), &task->comm);
	bpf_probe_read_kernel(newc, sizeof(newc), newcomm);
	oom_score_adj = BPF_CORE_READ(task, signal, oom_score_adj);
	(void)pid;
	(void)oom_score_adj;
	count_hit();
}

/*
 * raw_tp and tp_btf on sys_enter see every syscall of every process: keep
 * getpgid's. The syscall number is the architecture's ABI.
 */
#if defined(__TARGET_ARCH_x86)
#define NR_getpgid 121
#elif defined(__TARGET_ARCH_arm64)
#define NR_getpgid 155
#endif

#endif /* __OVERHEAD_KERN_H */
