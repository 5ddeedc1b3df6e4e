/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every test_overhead BPF program shares: a hit count into this
 * CPU's slot of a global array, the cheapest count the runner can still
 * check per CPU (no map lookup, no atomics), apart for the CPU's worker
 * and for any other task; the run's configuration, read from the same
 * slot, so that a run touches that one line of data and no other (see
 * struct hit_slot). The reads of the renamed task are the body upstream's
 * kprobe program had.
 */
#ifndef __OVERHEAD_KERN_H
#define __OVERHEAD_KERN_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "test_overhead.h"

#define COMM_LEN 16

struct hit_slot slots[OVERHEAD_MAX_CPUS] = {};

/* this CPU's slot: its count, and the run's configuration */
static __always_inline struct hit_slot *this_slot(void)
{
	return &slots[bpf_get_smp_processor_id() & (OVERHEAD_MAX_CPUS - 1)];
}

/* the task this run is for: its tgid, in the workers' pid namespace */
static __always_inline __u32 current_tgid(const struct overhead_config *cfg)
{
	struct bpf_pidns_info ns;

	if (!cfg->use_pidns)
		return bpf_get_current_pid_tgid() >> 32;
	if (bpf_get_ns_current_pid_tgid(cfg->pidns_dev, cfg->pidns_ino, &ns,
					sizeof(ns)))
		return 0;
	return ns.tgid;
}

/*
 * A run for the CPU's worker is a hit; one for any other task is
 * foreign, counted apart so that it can never stand in for a hit the
 * program missed. Each worker is pinned: one compare does it.
 */
static __always_inline void count_hit(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct hit_slot *slot = &slots[cpu & (OVERHEAD_MAX_CPUS - 1)];
#ifdef BENCH_TESTING
	const struct overhead_config *cfg = &slot->cfg;

	/* make bench's reference: the program without its count */
	if (cfg->fault == FAULT_UNCOUNTED)
		return;
#endif
	if (current_tgid(&slot->cfg) != slot->tgid) {
		slot->foreign++;
		return;
	}
#ifdef BENCH_TESTING
	/* the test build's faults */
	if (cfg->fault == FAULT_MISS_ODD && (slot->seen++ & 1))
		return;
	if (cfg->fault == FAULT_MISS_CPU && cpu == cfg->fault_cpu)
		return;
	if (cfg->fault == FAULT_MISS_RARE && !(slot->seen++ & 1023))
		return;
	if (cfg->fault == FAULT_EXTRA_ODD && (slot->seen++ & 1))
		slot->hits++;
#endif
	slot->hits++;
}

/*
 * The reads upstream's kprobe program made: pid, old and new comm and
 * signal->oom_score_adj. Results are unused; the helper calls still run.
 */
static __always_inline void observe_rename(struct task_struct *task,
					   const char *newcomm)
{
	char oldc[COMM_LEN], newc[COMM_LEN];
	short oom_score_adj;
	pid_t pid;

	pid = BPF_CORE_READ(task, pid);
	bpf_core_read(oldc, sizeof(oldc), &task->comm);
	bpf_probe_read_kernel(newc, sizeof(newc), newcomm);
	oom_score_adj = BPF_CORE_READ(task, signal, oom_score_adj);
	(void)pid;
	(void)oom_score_adj;
}

/* --body reads: every mode; --body upstream: only where upstream read */
static __always_inline bool reads(bool upstream_reads)
{
	const struct overhead_config *cfg = &this_slot()->cfg;

	return cfg->body == BODY_READS ||
	       (cfg->body == BODY_UPSTREAM && upstream_reads);
}

char _license[] SEC("license") = "GPL";

#endif /* __OVERHEAD_KERN_H */
