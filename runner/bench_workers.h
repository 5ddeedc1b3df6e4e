/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The worker pool: bench_workers.c. The runner starts one per row and
 * runs it once per sample; a family may start one of its own outside the
 * samples, as test_overhead counts the fib lookups per datagram before
 * its first fib row. With it what the pool's other files offer the
 * runner and the families: the watch over children (bench_watchdog.c)
 * and the wait for quiet before a go (bench_quiet.c).
 */
#ifndef __BENCH_WORKERS_H
#define __BENCH_WORKERS_H

#include <sched.h>
#include "bench.h"

/*
 * Where the programs under test count their hits per CPU, in memory the
 * workers share with the parent (a skeleton's mmap'ed .bss): slot[w * nr
 * + c] is program c's count on worker w's CPU. Each worker reads its own
 * right before and right after its timed loop, so that only hits inside
 * the loop can verify its events.
 */
struct hit_window {
	int nr;				/* programs; 0: nothing to read */
	const volatile __u64 **slot;
};

struct pool_go;

struct worker_pool {
	int nr;
	int *cpu;
	pid_t *pid;
	int result_fd;
	struct pool_go *go;	/* shared: each run's count and release */
	int nr_slots;		/* the window's programs */
	/* shared: [(w * nr_slots + c) * 2] before the loop, [+ 1] after */
	volatile __u64 *window;
	size_t window_len;
	__u64 started_ns;
	__u64 duration_ns;	/* each run's, or 0: a count */
	/* the test build's slow-base: loops the next run makes; 0 is 1 */
	unsigned int loops;
};

/* a pool's workers make a row's events and its base's, when they differ */
#define POOL_MAX_TRIGGERS	2

/*
 * Forks one worker per CPU, pinned, with each of @triggers set up,
 * waiting for a go. In each run each makes the run's count of events of
 * the run's trigger, or runs @duration_ns when not 0, and reads the hit
 * slots of @win (NULL: none) around its loop. On failure, with @out
 * saying why, nothing is left running.
 */
int pool_start(struct worker_pool *pool, const struct cpu_list *cpus,
	       const struct trigger *const *triggers, int nr_triggers,
	       __u64 duration_ns, const struct hit_window *win,
	       struct outcome *out);

/*
 * One run: releases the workers for @count events each of trigger
 * @trigger (an index into pool_start()'s @triggers) and collects one
 * result each, and into @hits (NULL: not wanted) each program's hits
 * within each worker's loop, [w * nr + c] for the window's nr programs.
 * The workers then wait for the next run. A worker that dies, stays
 * stopped or frozen, makes no progress or outlives @deadline_ns (0: one
 * from @count or the duration, far beyond any event's cost) fails the
 * run, named in @out, and stops the pool. -EINTR on a signal.
 */
int pool_run(struct worker_pool *pool, int trigger, __u64 count,
	     struct worker_result *res, __u64 *hits, __u64 deadline_ns,
	     struct outcome *out);
/* kills and reaps the workers; safe to call twice */
void pool_stop(struct worker_pool *pool);
/* the calling thread allowed on @cpu alone; -errno */
int pin_to_cpu(int cpu);
/*
 * Every readable mapping faulted in, page tables with it; @writable: a
 * private writable one copied too, as a write would. After it a child
 * faults in nothing it touches again.
 */
void prefault_mappings(bool writable);
/*
 * A forked child's first call: SIGINT, SIGTERM and SIGHUP back to their
 * default, and SIGKILL when @parent (the thread that forked it) dies.
 * False when @parent is already gone: the child is to exit.
 */
bool child_defaults(pid_t parent);

/* ---- the watch over children: bench_watchdog.c ---- */

/*
 * A child the parent waits on, watched so that no wait is for ever:
 * task_stuck() says when it is stuck
 */
struct task_watch {
	__u64 since_ns;		/* watched since */
	__u64 stopped_since;	/* 0: not stopped or frozen */
	__u64 stalled_since;	/* since when it had next to no CPU */
	__u64 cpu_ns;		/* its CPU time then */
};

void task_watch_init(struct task_watch *t);
/*
 * Whether the task @pid, which has work to do and nothing to wait for,
 * is stuck: stopped or frozen by a cgroup (v1 freezer, v2 cgroup.freeze)
 * for 2 s, or given next to no CPU time for 5 s (asleep or not), or
 * still at it at @deadline_ns (0: none). -ETIMEDOUT with @why (@len
 * bytes) saying how, else 0. Called every few hundred ms while waiting.
 */
int task_stuck(struct task_watch *t, pid_t pid, __u64 deadline_ns,
	       char *why, size_t len);
/*
 * Whether a pool kept from an earlier run can be released again as it is:
 * each worker still there and waiting for the go, neither stopped nor
 * frozen, pinned to its CPU alone, scheduled as the caller is and in its
 * cgroups, as it was forked; and nothing unread from any of them. Reaps
 * a worker that ended. A pool that is not is to be stopped and forked
 * afresh: a sample's watch would only fail what a new pool runs.
 */
bool pool_well(struct worker_pool *pool);
/*
 * Waits at most @limit_ns for the child @pid to end, and reaps it (its
 * wait status in *@status, when not NULL): 0, or -ETIMEDOUT
 */
int child_wait(pid_t pid, int *status, __u64 limit_ns);
/*
 * SIGKILL to the child @pid, and it reaped: 0. One the cgroup v1 freezer
 * holds (SIGKILL waits for a thaw there) is moved back to our own freezer
 * cgroup, which thaws it; -EBUSY, said, when it lives on all the same.
 */
int child_kill(pid_t pid);
/*
 * A task the v1 freezer holds, moved back to the freezer cgroup we are
 * in: moving thaws it, and a SIGKILL pending ends it (cgroup v2's freeze
 * lets a SIGKILL through). Nothing for one that is not frozen.
 */
void thaw_out(pid_t pid);

/* ---- the wait for quiet: bench_quiet.c ---- */

/*
 * Waits, at most SETTLE_MAX_NS, for the kernel threads that run on the
 * workers' CPUs @cpus (deferred work of the last sample: RCU callbacks,
 * kworkers, softirqs) to go quiet, so that the workers are released into
 * an idle machine. Returns the ns it waited: SETTLE_MAX_NS or more when
 * they never did.
 */
#define SETTLE_MAX_NS		250000000ull
__u64 settle(const struct cpu_list *cpus);
/*
 * Whether a kernel thread allowed on @allowed matters to workers on
 * @workers: it may run there; *@bound when it runs nowhere else
 */
bool settle_counts(const cpu_set_t *allowed, const cpu_set_t *workers,
		   bool *bound);
/* a thread's CPU time between two reads, never wrapping: ~0 is unread */
__u64 settle_delta(__u64 before, __u64 after);

#endif /* __BENCH_WORKERS_H */
