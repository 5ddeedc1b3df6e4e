/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_WORKERS_H
#define __RUNNER_WORKERS_H

#include <sched.h>
#include "bench.h"

/*
 * The worker pool's side the runner alone uses: workers/workers.c, the
 * pool and the watch over children, and workers/machine.c, the lock, the
 * CPU quota and the wait for quiet. The pool itself and the watch over
 * children, which a family may use for workers and children of its own,
 * are in bench.h.
 */

/* a pool's workers make a row's events and its base's, when they differ */
#define POOL_MAX_TRIGGERS	2

/* ---- the pool and the watch over children: workers/workers.c ---- */

/*
 * Whether a pool kept from an earlier run can be released again as it is:
 * each worker still there and waiting for the go, neither stopped nor
 * frozen, pinned to its CPU alone, scheduled as the caller is and in its
 * cgroups, as it was forked; and nothing unread from any of them. Reaps
 * a worker that ended. A pool that is not is to be stopped and forked
 * afresh: a sample's watch would only fail what a new pool runs.
 */
bool pool_well(struct worker_pool *pool);

/* the open file @fd's text, from its start, into @buf: 0 or -EIO */
int read_text(int fd, char *buf, size_t len);

/* ---- the wait for quiet: workers/machine.c ---- */

/*
 * Waits, at most SETTLE_MAX_NS, for the kernel threads that run on the
 * workers' CPUs @cpus (deferred work of the last sample: RCU callbacks,
 * kworkers, softirqs) to go quiet, so that the workers are released into
 * an idle machine. Returns the ns it waited: SETTLE_MAX_NS or more when
 * they never did.
 */
#define SETTLE_MAX_NS		250000000ull

struct kthread;

/*
 * The kernel threads settle() watches, with their open schedstat files:
 * the caller's, kept from one wait to the next (rescanned now and then),
 * zeroed to start; settle_release() closes and frees it
 */
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
