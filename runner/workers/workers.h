/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_WORKERS_H
#define __RUNNER_WORKERS_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include <stdbool.h>
#include "bench.h"

/*
 * The worker pool's side the runner alone uses: workers/workers.c,
 * workers/watchdog.c, workers/quiet.c. The pool itself and the watch over
 * children, which a family may use for workers and children of its own,
 * are in bench.h.
 */


/* a pool's workers make a row's events and its base's, when they differ */
#define POOL_MAX_TRIGGERS	2

/* ---- the watch over children: workers/watchdog.c ---- */

/*
 * Whether a pool kept from an earlier run can be released again as it is:
 * each worker still there and waiting for the go, neither stopped nor
 * frozen, pinned to its CPU alone, scheduled as the caller is and in its
 * cgroups, as it was forked; and nothing unread from any of them. Reaps
 * a worker that ended. A pool that is not is to be stopped and forked
 * afresh: a sample's watch would only fail what a new pool runs.
 */
bool pool_well(struct worker_pool *pool);

/* ---- the wait for quiet: workers/quiet.c ---- */

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

/*
 * workers/proc.c: how a task runs, read by the worker pool's own files
 * (workers/workers.c, workers/watchdog.c, workers/quiet.c) and by no family:
 * what a family may call of the pool is in workers/workers.h.
 */


/* the calling worker's own, read around its loop */
__u64 thread_cpu_ns(void);
void context_switches(long *voluntary, long *involuntary);
__u64 run_delay_ns(void);
/*
 * A /proc file the worker reads around each loop: opened once, read from
 * its start into a buffer of its own, as much of it as is needed
 */
struct proc_text {
	int fd;
	char *buf;
	size_t len;
};

/* what a worker reads of itself around each loop, opened once: its own */
struct worker_texts {
	/* the time the host took from its CPU (steal): its line of /proc/stat */
	struct proc_text stat;
	__u64 ns_per_tick;
	/* its own scheduler statistics: how often it moved */
	struct proc_text sched;
};

/* opens what steal_ns() and migrations() read, in a worker on @cpu */
void worker_texts_open(struct worker_texts *t, int cpu);
__u64 steal_ns(struct worker_texts *t, int cpu);
long long migrations(struct worker_texts *t);

/* another task's */
struct proc_state {
	char state;		/* /proc/<pid>/stat's: R, S, D, T, ... */
	__u64 cpu_ns;		/* /proc/<pid>/schedstat's time on a CPU */
};

/* the open file @fd's text, from its start, into @buf: 0 or -EIO */
int read_text(int fd, char *buf, size_t len);
/* /proc/@pid/@name's text into @buf: 0, or -errno */
int read_proc_text(pid_t pid, const char *name, char *buf, size_t len);
/* @pid's state and CPU time: 0, or -errno (it is gone) */
int read_proc_state(pid_t pid, struct proc_state *ps);

/*
 * workers/watchdog.c's watch over a pool's workers, for the pool
 * (workers/workers.c) alone: no family includes it. What others call of the
 * watchdog (task_stuck(), child_wait(), child_kill(), pool_well(), ...)
 * is in workers/workers.h.
 */


/* a pool's workers watched while the parent waits for their messages */
struct watch {
	struct task_watch *task;	/* each worker's */
	bool *reported;		/* its message came: it waits for us now */
};

/* for @nr workers, none reported yet: 0, or -ENOMEM */
int watch_init(struct watch *w, int nr);
void watch_free(struct watch *w);
bool workers_stuck(struct worker_pool *pool, struct watch *w,
		   __u64 deadline_ns, struct outcome *out);
bool reap_dead_workers(struct worker_pool *pool, bool block,
		       struct outcome *out);

#endif /* __RUNNER_WORKERS_H */
