/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_proc.c: how a task runs, read by the worker pool's own files
 * (bench_workers.c, bench_watchdog.c, bench_quiet.c) and by no family:
 * what a family may call of the pool is in bench_workers.h.
 */
#ifndef __BENCH_PROC_H
#define __BENCH_PROC_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

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

#endif /* __BENCH_PROC_H */
