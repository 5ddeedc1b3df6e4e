// SPDX-License-Identifier: GPL-2.0
/*
 * What the worker pool's files read of how a task runs. A worker reads
 * itself around its loop, never inside: its CPU time, context switches,
 * run-queue delay, the host's steal on its CPU and its migrations. The
 * watchdog and the kept pool's check read another task: /proc/<pid>/stat's
 * state, schedstat's CPU time, any /proc/<pid> file's text. Apart from the
 * pool, the watchdog and the wait for quiet so that each reads /proc one
 * way and none needs another for it: a leaf.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include "workers/workers.h"
#include "core/core.h"

__u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void context_switches(long *voluntary, long *involuntary)
{
	struct rusage ru = {};

	getrusage(RUSAGE_THREAD, &ru);
	*voluntary = ru.ru_nvcsw;
	*involuntary = ru.ru_nivcsw;
}

/* ns this thread waited on a run queue: schedstat's second field */
__u64 run_delay_ns(void)
{
	unsigned long long on_cpu, delay = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &on_cpu, &delay) != 2)
		delay = 0;
	fclose(f);
	return delay;
}

static void proc_text_open(struct proc_text *t, const char *path, size_t len)
{
	t->len = len;
	t->buf = malloc(len);
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
}

/* its text, or NULL */
static const char *proc_text_read(struct proc_text *t)
{
	ssize_t n;

	if (t->fd < 0 || !t->buf)
		return NULL;
	n = pread(t->fd, t->buf, t->len - 1, 0);
	if (n <= 0)
		return NULL;
	t->buf[n] = '\0';
	return t->buf;
}

/*
 * /proc/stat: only the lines up to the worker's CPU's are needed. USER_HZ
 * ticks: 10 ms as a rule.
 */
void worker_texts_open(struct worker_texts *t, int cpu)
{
	long hz = sysconf(_SC_CLK_TCK);

	t->ns_per_tick = 1000000000ull / (hz > 0 ? hz : 100);
	proc_text_open(&t->stat, "/proc/stat", 4096 + 160 * ((size_t)cpu + 2));
	proc_text_open(&t->sched, "/proc/thread-self/sched", 16384);
}

/* 0 when it cannot be read: no steal is then seen */
__u64 steal_ns(struct worker_texts *t, int cpu)
{
	const char *text = proc_text_read(&t->stat);
	unsigned long long ticks;

	if (!text || proc_stat_steal(text, cpu, &ticks))
		return 0;
	return ticks * t->ns_per_tick;
}

/*
 * -1 when the kernel does not say: /proc/<pid>/sched needed
 * CONFIG_SCHED_DEBUG until it became unconditional
 */
long long migrations(struct worker_texts *t)
{
	const char *text = proc_text_read(&t->sched);
	unsigned long long n;

	if (!text || sched_nr_migrations(text, &n))
		return -1;
	return n;
}

/* ---- another task's ---- */

int read_text(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

/* /proc/@pid/@name's text into @buf */
int read_proc_text(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];
	int fd, err;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = read_text(fd, buf, len);
	close(fd);
	return err;
}

int read_proc_state(pid_t pid, struct proc_state *ps)
{
	unsigned long long cpu_ns;
	char buf[512], *p;
	int err;

	err = read_proc_text(pid, "stat", buf, sizeof(buf));
	if (err)
		return err;
	/* the name may hold spaces and parentheses: skip to its end */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%c", &ps->state) != 1)
		return -EIO;
	err = read_proc_text(pid, "schedstat", buf, sizeof(buf));
	if (err)
		return err;
	if (sscanf(buf, "%llu", &cpu_ns) != 1)
		return -EIO;
	ps->cpu_ns = cpu_ns;
	return 0;
}
