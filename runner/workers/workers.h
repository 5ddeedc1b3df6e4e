/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_WORKERS_H
#define __RUNNER_WORKERS_H

#include <sched.h>
#include "bench.h"

/* a pool's workers make a row's events and its base's, when they differ */
#define POOL_MAX_TRIGGERS	2

/* ---- the pool and the watch over children: workers/workers.c ---- */

/*
 * Whether a pool kept from an earlier run can be released again: each
 * worker there, waiting, pinned, scheduled and in the cgroups as it was
 * forked, nothing unread. Else it is to be forked afresh.
 */
bool pool_well(struct worker_pool *pool);

/* the open file @fd's text, from its start, into @buf: 0 or -EIO */
int read_text(int fd, char *buf, size_t len);

/* ---- the wait for quiet: workers/machine.c ---- */

/*
 * Waits, at most SETTLE_MAX_NS, for the kernel threads on the workers'
 * CPUs @cpus to go quiet: the ns it waited
 */
#define SETTLE_MAX_NS		250000000ull

struct kthread;

/* the kernel threads settle() watches, kept from one wait to the next */
struct kthread_set {
	int nr, cap;
	struct kthread *k;
	/* every pid looked at since the last full scan, ascending */
	pid_t *seen;
	int nr_seen, cap_seen;
	cpu_set_t cpus;		/* the workers' CPUs it was made for */
	__u64 scanned_ns;
};

__u64 settle(struct kthread_set *ks, const struct cpu_list *cpus);
void settle_release(struct kthread_set *ks);
/*
 * Whether a kernel thread allowed on @allowed matters to workers on
 * @workers: it may run there; *@bound when it runs nowhere else
 */
bool settle_counts(const cpu_set_t *allowed, const cpu_set_t *workers,
		   bool *bound);
/* a thread's CPU time between two reads, never wrapping: ~0 is unread */
__u64 settle_delta(__u64 before, __u64 after);

#endif /* __RUNNER_WORKERS_H */
