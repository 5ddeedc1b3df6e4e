// SPDX-License-Identifier: GPL-2.0
/*
 * What a run asks of the machine around its workers: one run at a time
 * (the lock), a word on a CPU quota, and the wait for quiet before a go.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "kernel/kernel.h"
#include "workers/workers.h"
#include "core/core.h"

/* ---- the wait for quiet ---- */

/*
 * What the previous sample left (RCU callbacks of freed programs,
 * kworkers, ksoftirqd) runs in kernel threads on the workers' CPUs: a
 * worker released into it loses its CPU. Before the go, wait until they
 * have been quiet for SETTLE_QUIET_NS, or SETTLE_MAX_NS. A thread bound
 * to the workers' CPUs counts whenever it runs, one that may run anywhere
 * when it last ran on one of them, one bound elsewhere never; each
 * thread's time apart, so that one gone or new adds nothing.
 */
#define SETTLE_QUIET_NS		500000ull
/* their CPU time in that window, at most this share of one CPU */
#define SETTLE_BUSY_SHARE	0.02
/* every thread is looked at afresh this often: affinities change */
#define SETTLE_RESCAN_NS	1000000000ull
#define PF_KTHREAD		0x00200000

struct kthread {
	pid_t pid;
	int fd;			/* its /proc/<pid>/schedstat */
	int stat_fd;		/* its stat, where it ran; -1: bound */
	__u64 runtime;		/* at the last read */
};

static void kthread_close(struct kthread *k)
{
	if (k->fd >= 0)
		close(k->fd);
	if (k->stat_fd >= 0)
		close(k->stat_fd);
	k->fd = k->stat_fd = -1;
}

static void kthreads_close(struct kthread_set *ks)
{
	while (ks->nr > 0)
		kthread_close(&ks->k[--ks->nr]);
	ks->nr_seen = 0;
}

/* field @n (1: the pid) of /proc/<pid>/stat's text @buf, from its state on */
static const char *stat_field(const char *buf, int n)
{
	const char *p = strrchr(buf, ')');

	/* the name may hold spaces and parentheses: fields 3 on follow it */
	for (p = p ? p + 2 : NULL; p && n > 3; n--) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	return p;
}

static bool is_kthread(int stat_fd)
{
	char buf[512];
	const char *f;

	if (read_text(stat_fd, buf, sizeof(buf)))
		return false;
	f = stat_field(buf, 9);	/* flags */
	return f && (strtoul(f, NULL, 10) & PF_KTHREAD);
}

/* the CPU it last ran on, field 39, or -1 */
static int last_cpu(int stat_fd)
{
	char buf[512];
	const char *f;

	if (read_text(stat_fd, buf, sizeof(buf)))
		return -1;
	f = stat_field(buf, 39);
	return f ? atoi(f) : -1;
}

bool settle_counts(const cpu_set_t *allowed, const cpu_set_t *workers,
		   bool *bound)
{
	cpu_set_t both;

	CPU_AND(&both, allowed, workers);
	*bound = CPU_EQUAL(&both, allowed);
	return CPU_COUNT(&both) > 0;
}

static int pid_cmp(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

/* among the first @nr pids seen, which are sorted */
static bool seen(const struct kthread_set *ks, pid_t pid, int nr)
{
	return nr && bsearch(&pid, ks->seen, nr, sizeof(pid_t), pid_cmp);
}

static void *grow_array(void *a, int *cap, size_t size)
{
	int n = *cap ? 2 * *cap : 128;
	void *grown = realloc(a, n * size);

	if (grown)
		*cap = n;
	return grown;
}

/* a kernel thread of @pid, when it may run on the workers' CPUs */
static void kthread_add(struct kthread_set *ks, pid_t pid)
{
	struct kthread k = { .pid = pid, .fd = -1, .stat_fd = -1 };
	char path[64];
	cpu_set_t allowed;
	bool bound;
	void *grown;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	k.stat_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (k.stat_fd < 0 || !is_kthread(k.stat_fd) ||
	    sched_getaffinity(pid, sizeof(allowed), &allowed) ||
	    !settle_counts(&allowed, &ks->cpus, &bound))
		goto skip;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	k.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (k.fd < 0)
		goto skip;
	if (bound) {
		close(k.stat_fd);
		k.stat_fd = -1;
	}
	if (ks->nr == ks->cap) {
		grown = grow_array(ks->k, &ks->cap, sizeof(k));
		if (!grown)
			goto skip;
		ks->k = grown;
	}
	ks->k[ks->nr++] = k;
	return;
skip:
	kthread_close(&k);
}

/* the kernel threads that may run on @cpus: the pids not seen yet */
static void kthreads_update(struct kthread_set *ks, const cpu_set_t *cpus,
			    __u64 now)
{
	int nr_before, i;
	struct dirent *d;
	pid_t pid;
	DIR *dir;
	void *grown;

	if (!CPU_EQUAL(cpus, &ks->cpus) ||
	    now - ks->scanned_ns > SETTLE_RESCAN_NS) {
		kthreads_close(ks);
		ks->cpus = *cpus;
		ks->scanned_ns = now;
	}
	nr_before = ks->nr_seen;
	dir = opendir("/proc");
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		pid = atoi(d->d_name);
		if (seen(ks, pid, nr_before))
			continue;
		if (ks->nr_seen == ks->cap_seen) {
			grown = grow_array(ks->seen, &ks->cap_seen,
					   sizeof(pid_t));
			if (!grown)
				break;
			ks->seen = grown;
		}
		ks->seen[ks->nr_seen++] = pid;
		kthread_add(ks, pid);
	}
	if (dir)
		closedir(dir);
	if (ks->nr_seen > nr_before)
		qsort(ks->seen, ks->nr_seen, sizeof(pid_t), pid_cmp);
	/* the time of those just added counts from here */
	for (i = 0; i < ks->nr; i++)
		if (!ks->k[i].runtime)
			ks->k[i].runtime = ~0ull;
}

__u64 settle_delta(__u64 before, __u64 after)
{
	/* a thread first read now, or gone and its pid reused: nothing */
	return before == ~0ull || after < before ? 0 : after - before;
}

/* the kernel threads' CPU time on the workers' CPUs since the last call */
static __u64 kthreads_busy(struct kthread_set *ks)
{
	unsigned long long ns;
	__u64 sum = 0, delta;
	char buf[96];
	int i, cpu;

	for (i = 0; i < ks->nr; i++) {
		struct kthread *k = &ks->k[i];

		if (k->fd < 0 || read_text(k->fd, buf, sizeof(buf)) ||
		    sscanf(buf, "%llu", &ns) != 1) {
			kthread_close(k);	/* gone */
			continue;
		}
		delta = settle_delta(k->runtime, ns);
		k->runtime = ns;
		if (delta && k->stat_fd >= 0) {
			cpu = last_cpu(k->stat_fd);
			if (cpu < 0 || cpu >= CPU_SETSIZE ||
			    !CPU_ISSET(cpu, &ks->cpus))
				delta = 0;
		}
		sum += delta;
	}
	return sum;
}

__u64 settle(struct kthread_set *ks, const struct cpu_list *cpus)
{
	const struct timespec quiet = { 0, SETTLE_QUIET_NS };
	__u64 start = now_ns(), busy;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < cpus->nr; i++)
		if (cpus->cpu[i] >= 0 && cpus->cpu[i] < CPU_SETSIZE)
			CPU_SET(cpus->cpu[i], &set);
	kthreads_update(ks, &set, start);
	kthreads_busy(ks);
	do {
		nanosleep(&quiet, NULL);
		busy = kthreads_busy(ks);
	} while (busy > SETTLE_BUSY_SHARE * SETTLE_QUIET_NS &&
		 now_ns() - start < SETTLE_MAX_NS && !bench_interrupted());
	return now_ns() - start;
}

void settle_release(struct kthread_set *ks)
{
	kthreads_close(ks);
	free(ks->k);
	free(ks->seen);
	memset(ks, 0, sizeof(*ks));
}

/* ---- one run at a time: two runs would measure each other ---- */

static const char *lock_path(void)
{
	struct stat st;

	return !stat("/run/lock", &st) && S_ISDIR(st.st_mode) ?
	       "/run/lock/bpf-overhead-bench.lock" :
	       "/tmp/bpf-overhead-bench.lock";
}

/* "test_overhead (pid 123)" from the lock file, whoever wrote it, escaped */
static void lock_holder(int fd, char *buf, size_t len)
{
	char text[64] = "";
	ssize_t n;
	int pid;
	char tool[32];

	n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	if (sscanf(text, "%d %31s", &pid, tool) == 2)
		snprintf(buf, len, "%s (pid %d)", printable(tool), pid);
	else
		snprintf(buf, len, "another run");
}

static void lock_claim(int fd, const char *tool)
{
	char text[64];
	int n;

	n = snprintf(text, sizeof(text), "%d %s\n", getpid(), tool);
	if (ftruncate(fd, 0) || pwrite(fd, text, n, 0) != n)
		return;	/* the lock holds; only its label is missing */
}

/*
 * The lock file, a regular file: never opened through a link planted
 * there (O_NOFOLLOW), nor waiting on a FIFO (O_NONBLOCK). The fd, or
 * -errno said.
 */
static int lock_open(const char *path)
{
	const int how = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDWR | O_CREAT | how, 0644);
	/* made by root: flock() needs no write access, only the label does */
	if (fd < 0 && errno == EACCES)
		fd = open(path, O_RDONLY | how);
	if (fd < 0) {
		err = -errno;
		if (!lstat(path, &st) && !S_ISREG(st.st_mode))
			goto not_regular;
		pr_err("cannot open the lock %s: %s", path, strerror(-err));
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		pr_err("cannot open the lock %s: %s", path, strerror(-err));
		goto fail;
	}
	if (S_ISREG(st.st_mode))
		return fd;
not_regular:
	err = -EINVAL;
	pr_err("the lock %s is %s, not a regular file: refused (remove it if no run of these tools made it)",
	       path, file_kind(st.st_mode));
fail:
	if (fd >= 0)
		close(fd);
	return err;
}

int bench_lock(const char *tool, double wait_s)
{
	const char *path = lock_path();
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	char holder[160];
	__u64 deadline;
	bool said = false;
	int fd, err;

	fd = lock_open(path);
	if (fd < 0)
		return fd;
	deadline = now_ns() + wait_s * 1e9;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			err = -errno;
			pr_err("cannot lock %s: %s", path, strerror(-err));
			goto fail;
		}
		lock_holder(fd, holder, sizeof(holder));
		err = -EINTR;
		if (bench_interrupted())
			goto fail;
		err = -EBUSY;
		if (now_ns() >= deadline) {
			pr_err("%s is running and holds %s: not waiting longer than %g s (--lock-wait)",
			       holder, path, wait_s);
			goto fail;
		}
		if (!said)
			pr_note("waiting for %s to finish: runs on one machine must not overlap",
				holder);
		said = true;
		nanosleep(&tick, NULL);
	}
	lock_claim(fd, tool);
	/* held until exit: the kernel drops it with the last fd */
	return 0;
fail:
	close(fd);
	return err;
}

/* ---- a cgroup's cpu.max that allows less than the run's workers ---- */

#define CGROUP_PATH_LEN	4096

/* CPUs' worth of time cpu.max in @dir allows, or 0 for no limit */
static double cgroup_cpu_limit(const char *dir)
{
	char path[4200], quota[32];
	unsigned long long period;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpu.max", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fscanf(f, "%31s %llu", quota, &period);
	fclose(f);
	if (n != 2 || !strcmp(quota, "max") || !period)
		return 0;
	return strtod(quota, NULL) / period;
}

void warn_cpu_quota(int nr_cpus)
{
	char dir[CGROUP_PATH_LEN], *slash;
	double limit, tightest = 0;

	if (self_cgroup(NULL, dir, sizeof(dir)))
		return;
	/* a quota anywhere above us applies as well */
	for (;;) {
		limit = cgroup_cpu_limit(dir);
		if (limit && (!tightest || limit < tightest))
			tightest = limit;
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	if (tightest && tightest < nr_cpus)
		pr_note("the cgroup's cpu.max allows %.2f CPUs of time for %d workers: throttled samples will be marked disturbed",
			tightest, nr_cpus);
}
