/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_watchdog.c's watch over a pool's workers, for the pool
 * (bench_workers.c) alone: no family includes it. What others call of the
 * watchdog (task_stuck(), child_wait(), child_kill(), pool_well(), ...)
 * is in bench_workers.h.
 */
#ifndef __BENCH_WATCHDOG_H
#define __BENCH_WATCHDOG_H

#include <stdbool.h>
#include "bench_workers.h"

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

#endif /* __BENCH_WATCHDOG_H */
