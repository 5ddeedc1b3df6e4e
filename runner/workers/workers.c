// SPDX-License-Identifier: GPL-2.0
/*
 * The workers: one process per CPU, pinned, released together on a go
 * for each of a row's samples; each times its own loop and reports how
 * undisturbed it ran. The parent watches them, and other children, while
 * it waits, so that no run waits for ever.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "workers/workers.h"
#include "core/core.h"

/* ---- how a task runs: a worker reads itself around its loop ---- */

/* a /proc file a worker reads around each loop, opened once */
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

/* another task's */
struct proc_state {
	char state;		/* /proc/<pid>/stat's: R, S, D, T, ... */
	__u64 cpu_ns;		/* /proc/<pid>/schedstat's time on a CPU */
};

static __u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void context_switches(long *voluntary, long *involuntary)
{
	struct rusage ru = {};

	getrusage(RUSAGE_THREAD, &ru);
	*voluntary = ru.ru_nvcsw;
	*involuntary = ru.ru_nivcsw;
}

/* ns this thread waited on a run queue: schedstat's second field */
static __u64 run_delay_ns(void)
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

int read_text(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

/* its text, or NULL */
static const char *proc_text_read(struct proc_text *t)
{
	if (t->fd < 0 || !t->buf || read_text(t->fd, t->buf, t->len))
		return NULL;
	return t->buf;
}

/* /proc/stat: only the lines up to the worker's CPU's are needed */
static void worker_texts_open(struct worker_texts *t, int cpu)
{
	long hz = sysconf(_SC_CLK_TCK);

	t->ns_per_tick = 1000000000ull / (hz > 0 ? hz : 100);
	proc_text_open(&t->stat, "/proc/stat", 4096 + 160 * ((size_t)cpu + 2));
	proc_text_open(&t->sched, "/proc/thread-self/sched", 16384);
}

/* 0 when it cannot be read: no steal is then seen */
static __u64 steal_ns(struct worker_texts *t, int cpu)
{
	const char *text = proc_text_read(&t->stat);
	unsigned long long ticks;

	if (!text || proc_stat_steal(text, cpu, &ticks))
		return 0;
	return ticks * t->ns_per_tick;
}

/* -1 when the kernel does not say (CONFIG_SCHED_DEBUG, once) */
static long long migrations(struct worker_texts *t)
{
	const char *text = proc_text_read(&t->sched);
	unsigned long long n;

	if (!text || sched_nr_migrations(text, &n))
		return -1;
	return n;
}

/* ---- another task's ---- */

/* /proc/@pid/@name's text into @buf */
static int read_proc_text(pid_t pid, const char *name, char *buf, size_t len)
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

static int read_proc_state(pid_t pid, struct proc_state *ps)
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

/* ---- the watch over children ---- */

/* a pool's workers watched while the parent waits for their messages */
struct watch {
	struct task_watch *task;	/* each worker's */
	bool *reported;		/* its message came: it waits for us now */
};

/* a worker stopped this long fails the sample */
#define STOPPED_LIMIT_NS	(2 * 1000000000ull)
/*
 * and one that gets less than this share of a CPU for this long, by the
 * scheduler's ns: ticks land in a task that runs 1 ms a second at random
 */
#define STALLED_LIMIT_NS	(5 * 1000000000ull)
#define STALLED_SHARE		0.005

static const char *state_name(char st)
{
	switch (st) {
	case 'T':
		return "stopped (T)";
	case 't':
		return "stopped by a tracer (t)";
	case 'D':
		return "in uninterruptible sleep (D)";
	case 'Z':
		return "dead (Z)";
	case 'S':
		return "sleeping (S)";
	default:
		return "running (R)";
	}
}

/*
 * What keeps a task without progress from running: stopped (T, t) or a
 * cgroup's freezer (v1: D; v2: S, a sleep like any other); NULL: nothing
 */
static const char *held_by(pid_t pid, char state, bool progress)
{
	if (state == 'T' || state == 't')
		return state_name(state);
	if (progress || (state != 'S' && state != 'D'))
		return NULL;
	return task_frozen(pid);
}

void task_watch_init(struct task_watch *t)
{
	memset(t, 0, sizeof(*t));
	t->since_ns = t->stalled_since = now_ns();
}

int task_stuck(struct task_watch *t, pid_t pid, __u64 deadline_ns,
	       char *why, size_t len)
{
	struct proc_state ps;
	__u64 now = now_ns();
	const char *held;
	bool progress;

	if (read_proc_state(pid, &ps))
		return 0;	/* gone: its end is the news */
	progress = ps.cpu_ns - t->cpu_ns >
		   STALLED_SHARE * (now - t->stalled_since);
	held = held_by(pid, ps.state, progress);
	if (!held)
		t->stopped_since = 0;
	else if (!t->stopped_since)
		t->stopped_since = now;
	if (progress) {
		t->cpu_ns = ps.cpu_ns;
		t->stalled_since = now;
	}
	if (t->stopped_since && now - t->stopped_since > STOPPED_LIMIT_NS) {
		snprintf(why, len, "stayed %s for %llu s", held,
			 STOPPED_LIMIT_NS / 1000000000);
		return -ETIMEDOUT;
	}
	if (!t->stopped_since && now - t->stalled_since > STALLED_LIMIT_NS) {
		snprintf(why, len,
			 "got no CPU time to speak of for %llu s (under %.1f%%), %s",
			 STALLED_LIMIT_NS / 1000000000, 100 * STALLED_SHARE,
			 state_name(ps.state));
		return -ETIMEDOUT;
	}
	if (deadline_ns && now > deadline_ns) {
		snprintf(why, len, "ran past its deadline (%.1f s), %s",
			 (deadline_ns - t->since_ns) / 1e9,
			 state_name(ps.state));
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * True, @out saying why, when a worker whose message is due is stuck: one
 * that sent its message sleeps until the next go
 */
static bool workers_stuck(struct worker_pool *pool, struct watch *w,
			  __u64 deadline_ns, struct outcome *out)
{
	char why[REASON_LEN - 64];
	int i;

	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] <= 0 || w->reported[i] ||
		    !task_stuck(&w->task[i], pool->pid[i], deadline_ns, why,
				sizeof(why)))
			continue;
		outcome_set(out, ST_FAILED, "worker on CPU %d (pid %d) %s",
			    pool->cpu[i], pool->pid[i], why);
		return true;
	}
	return false;
}

/*
 * Reaps workers that exited; true, @out naming it, when one died before
 * its result (they exit 0 only after it). @block: they are going.
 */
static bool reap_dead_workers(struct worker_pool *pool, bool block,
			      struct outcome *out)
{
	bool dead = false;
	int i, status;

	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] <= 0 ||
		    waitpid(pool->pid[i], &status, block ? 0 : WNOHANG) !=
		    pool->pid[i])
			continue;
		pool->pid[i] = 0;
		if (dead)
			continue;	/* the first death is the news */
		if (WIFSIGNALED(status)) {
			outcome_set(out, ST_FAILED,
				    "worker on CPU %d died: %s", pool->cpu[i],
				    strsignal(WTERMSIG(status)));
			dead = true;
		} else if (WEXITSTATUS(status)) {
			outcome_set(out, ST_FAILED,
				    "worker on CPU %d exited with status %d",
				    pool->cpu[i], WEXITSTATUS(status));
			dead = true;
		}
	}
	return dead;
}

static int watch_init(struct watch *w, int nr)
{
	int i;

	w->task = calloc(nr, sizeof(*w->task));
	w->reported = calloc(nr, sizeof(bool));
	if (!w->task || !w->reported)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		task_watch_init(&w->task[i]);
	return 0;
}

static void watch_free(struct watch *w)
{
	free(w->task);
	free(w->reported);
}

/* a process's /proc/@pid/cgroup text, the same as ours? */
static bool same_cgroups(pid_t pid)
{
	char ours[4096], theirs[4096];

	return !read_proc_text(getpid(), "cgroup", ours, sizeof(ours)) &&
	       !read_proc_text(pid, "cgroup", theirs, sizeof(theirs)) &&
	       !strcmp(ours, theirs);
}

/* worker @i as it was forked: there, waiting, pinned, scheduled as we are */
static bool worker_well(struct worker_pool *pool, int i)
{
	struct sched_param ours, theirs;
	struct proc_state ps;
	pid_t pid = pool->pid[i];
	cpu_set_t set;
	int status;

	if (pid <= 0)
		return false;
	/* ended: reaped now, so that pool_stop() waits for it no more */
	if (waitpid(pid, &status, WNOHANG) == pid) {
		pool->pid[i] = 0;
		return false;
	}
	/* waiting for the go: S, or R right after its last result */
	if (read_proc_state(pid, &ps) || (ps.state != 'S' && ps.state != 'R') ||
	    task_frozen(pid))
		return false;
	if (sched_getaffinity(pid, sizeof(set), &set) ||
	    CPU_COUNT(&set) != 1 || !CPU_ISSET(pool->cpu[i], &set))
		return false;
	if (sched_getscheduler(pid) != sched_getscheduler(0) ||
	    sched_getparam(pid, &theirs) || sched_getparam(0, &ours) ||
	    theirs.sched_priority != ours.sched_priority)
		return false;
	return same_cgroups(pid);
}

bool pool_well(struct worker_pool *pool)
{
	struct pollfd pfd = { .fd = pool->result_fd, .events = POLLIN };
	int i;

	if (!pool->go || !pool->nr)
		return false;
	for (i = 0; i < pool->nr; i++)
		if (!worker_well(pool, i))
			return false;
	/* between runs no worker has anything to say */
	return poll(&pfd, 1, 0) == 0;
}

int child_wait(pid_t pid, int *status, __u64 limit_ns)
{
	struct pollfd pfd = { .events = POLLIN };
	__u64 start = now_ns(), spent;
	int ms, ret = -ETIMEDOUT;
	pid_t got;

	/* readable once it has ended; without pidfds (before 5.3), ticks */
	pfd.fd = syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		got = waitpid(pid, status, WNOHANG);
		if (got == pid || (got < 0 && errno == ECHILD)) {
			ret = 0;
			break;
		}
		spent = now_ns() - start;
		if (spent >= limit_ns)
			break;
		ms = (limit_ns - spent + 999999) / 1000000;
		if (pfd.fd >= 0)
			poll(&pfd, 1, ms);
		else
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
	return ret;
}

void thaw_out(pid_t pid)
{
	char dir[PATH_MAX + 16];
	char text[16];
	ssize_t n;
	int fd;

	if (!task_frozen(pid) || task_cgroup_dir(0, "freezer", dir, PATH_MAX))
		return;
	strcat(dir, "/cgroup.procs");
	fd = open(dir, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	snprintf(text, sizeof(text), "%d", pid);
	/* refused: it ends once thawed, the kill is pending */
	n = write(fd, text, strlen(text));
	(void)n;
	close(fd);
}

/* a child dead of SIGKILL goes within this; a frozen one is thawed */
#define KILL_WAIT_NS		(1000000000ull)

int child_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	if (!child_wait(pid, NULL, KILL_WAIT_NS))
		return 0;
	thaw_out(pid);
	if (!child_wait(pid, NULL, KILL_WAIT_NS))
		return 0;
	pr_note("child %d does not die of SIGKILL (%s): it ends once it can",
		pid, task_frozen(pid) ?: "held in the kernel");
	return -EBUSY;
}

/* how often the parent looks at its waiting workers */
#define WATCH_MS		200
/*
 * A run's deadline before any sample said how long one takes: this plus
 * RUN_NS_PER_EVENT an event (or ten times -d's), far beyond any event's
 * cost; one frozen or stalled is caught long before.
 */
#define RUN_DEADLINE_NS		(5 * 1000000000ull)
#define RUN_NS_PER_EVENT	100000ull
#define SETUP_LIMIT_NS		(60 * 1000000000ull)
/* with -d, calls between two reads of the clock: a vDSO call is cheap */
#define DURATION_CHUNK		1000

enum { MSG_READY, MSG_DONE };

struct worker_msg {
	int type;
	struct worker_result res;
};

/* ---- the worker ---- */

struct worker_args {
	const struct run_settings *rs;	/* the run's: its test fault */
	int cpu;
	int index;		/* the worker's place in the pool */
	int result_fd;
	struct pool_go *go;	/* the pool's, shared */
	pid_t parent;
	/* the pool's triggers: each run makes one of them */
	const struct trigger *const *triggers;
	int nr_triggers;
	__u64 duration_ns;
	const struct hit_window *win;
	volatile __u64 *window;	/* the pool's, shared */
};

static void worker_send(int fd, int type, const struct worker_result *res)
{
	struct worker_msg msg = { .type = type, .res = *res };

	/* smaller than PIPE_BUF, so workers' messages never interleave */
	if (write(fd, &msg, sizeof(msg)) != sizeof(msg))
		_exit(1);
}

static __u64 run_for(const struct trigger *trigger, void *state,
		     __u64 start, __u64 duration_ns)
{
	__u64 calls = 0;

	do {
		trigger->run(state, DURATION_CHUNK);
		calls += DURATION_CHUNK;
	} while (now_ns() - start < duration_ns);
	return calls;
}

/* the BPF objects and links the parent holds are not the worker's */
static void close_other_fds(int keep)
{
	/* best effort: kernels before 5.9 lack close_range */
	close_range(3, keep - 1, 0);
	close_range(keep + 1, ~0U, 0);
}

/*
 * The go: the parent sets the run's count, bumps @gen and wakes every
 * worker at once; shared memory, released again for each sample
 */
struct pool_go {
	__u32 gen;		/* bumped once per run; the futex word */
	__u32 trigger;		/* the trigger this run makes */
	__u64 count;		/* events per worker in this run */
#ifdef BENCH_TESTING
	__u32 loops;		/* the test fault slow-base: loops per run */
#endif
};

static long futex(__u32 *word, int op, __u32 val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/* a worker: waits until @go's generation is past @seen; returns it */
static __u32 wait_go(struct pool_go *go, __u32 seen)
{
	__u32 gen;

	while ((gen = __atomic_load_n(&go->gen, __ATOMIC_ACQUIRE)) == seen)
		futex(&go->gen, FUTEX_WAIT, seen);
	return gen;
}

/* the parent: releases every waiting worker for one more run */
static void release(struct pool_go *go)
{
	__atomic_add_fetch(&go->gen, 1, __ATOMIC_RELEASE);
	futex(&go->gen, FUTEX_WAKE, INT_MAX);
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* 5.14; older kernels say EINVAL */
#endif

/*
 * fork() copies no page tables of file mappings: two workers faulting the
 * same page of libc or the vDSO at the go wait on its lock (perf:
 * folio_lock under __vdso_clock_gettime). Fault in everything readable
 * now but private anonymous memory, whose page tables fork() copied (a
 * read maps only the zero page: 33 MB of map_perf_test's); @writable: all.
 */
static bool private_anon(const char *line)
{
	int path = 0;

	if (sscanf(line, "%*s %*s %*s %*s %*s %n", &path) < 0 || !path)
		return false;
	line += path;
	return !*line || *line == '\n' || !strncmp(line, "[heap]", 6) ||
	       !strncmp(line, "[stack]", 7);
}

static int prefault_mapping(char *line, void *writable)
{
	unsigned long lo, hi;
	char perms[8];

	if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r')
		return 0;
	if (!*(bool *)writable && perms[3] == 'p' && private_anon(line))
		return 0;
	if (*(bool *)writable && perms[1] == 'w' && perms[3] == 'p')
		madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
	else
		madvise((void *)lo, hi - lo, MADV_POPULATE_READ);
	return 0;
}

void prefault_mappings(bool writable)
{
	for_each_line("/proc/self/maps", prefault_mapping, &writable);
}

static void prefault(struct worker_texts *texts)
{
	long v, i;

	prefault_mappings(false);
	/* the vDSO, and every call made around the loop, once */
	now_ns();
	thread_cpu_ns();
	context_switches(&v, &i);
	run_delay_ns();
	steal_ns(texts, sched_getcpu());
	migrations(texts);
}

/*
 * The programs' hits on this CPU into the pool's window, @at 0 before the
 * loop, 1 after: plain loads of the mapped counters, unnoticed
 */
static void read_hits(const struct worker_args *a, int at)
{
	int c, nr = a->win ? a->win->nr : 0;

	for (c = 0; c < nr; c++)
		a->window[(a->index * nr + c) * 2 + at] =
			*a->win->slot[a->index * nr + c];
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

bool child_defaults(pid_t parent)
{
	child_signal_actions();
	/* a parent killed with SIGKILL must not leave the child behind... */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* ...even one that died before the signal was armed */
	return getppid() == parent;
}

/* still allowed on its own CPU alone, as pinned? */
static bool still_pinned(int cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	return CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set);
}

/* one timed loop of @count events of @trigger, reported to the parent */
static void worker_run(const struct worker_args *a, struct worker_texts *texts,
		       const struct trigger *trigger, void *state, __u64 count)
{
	unsigned int per_call = trigger->events_per_call ?: 1;
	__u64 calls = (count + per_call - 1) / per_call;
	struct worker_result res = { .cpu = a->cpu };
	__u64 start, cpu0, delay0, steal0, steal1;
	long vol0, invol0, vol1, invol1;
	long long moves0, moves1;

	/* moved in an earlier run, which was disturbed: start this one pinned */
	if (!still_pinned(a->cpu))
		res.repin_err = pin_to_cpu(a->cpu);
	/* how undisturbed the loop ran, read around it, never inside */
	steal0 = steal_ns(texts, a->cpu);
	moves0 = migrations(texts);
	delay0 = run_delay_ns();
	context_switches(&vol0, &invol0);
	cpu0 = thread_cpu_ns();
	read_hits(a, 0);
	start = now_ns();
	if (a->duration_ns)
		calls = run_for(trigger, state, start, a->duration_ns);
	else
		trigger->run(state, calls);
#ifdef BENCH_TESTING
	/* slow-base: the loop again, its events not counted */
	for (unsigned int l = 1; l < a->go->loops; l++)
		trigger->run(state, calls);
	while (run_fault(a->rs)->kind == BENCH_FAULT_ENDLESS_LOOP)
		trigger->run(state, calls);
#endif
	res.elapsed_ns = now_ns() - start;
	read_hits(a, 1);
	res.cpu_ns = thread_cpu_ns() - cpu0;
	context_switches(&vol1, &invol1);
	res.nvcsw = vol1 - vol0;
	res.nivcsw = invol1 - invol0;
	res.run_delay_ns = run_delay_ns() - delay0;
	res.end_cpu = sched_getcpu();
	res.unpinned = !still_pinned(a->cpu);
	moves1 = migrations(texts);
	res.migrations = moves0 >= 0 && moves1 > moves0 ? moves1 - moves0 : 0;
	steal1 = steal_ns(texts, a->cpu);
	res.steal_ns = steal1 > steal0 ? steal1 - steal0 : 0;
	res.events = calls * per_call;
	worker_send(a->result_fd, MSG_DONE, &res);
}

static void __attribute__((noreturn)) worker_main(const struct worker_args *a)
{
	struct worker_result res = { .cpu = a->cpu };
	void *state[POOL_MAX_TRIGGERS];
	struct worker_texts texts;
	__u32 seen = 0, t;

	if (!child_defaults(a->parent))
		_exit(1);
	close_other_fds(a->result_fd);

	res.err = pin_to_cpu(a->cpu);
	res.pin_failed = res.err;
	for (t = 0; t < (__u32)a->nr_triggers; t++) {
		state[t] = a->triggers[t]->arg;
		if (!res.err && a->triggers[t]->setup)
			res.err = a->triggers[t]->setup(&state[t]);
	}
	worker_texts_open(&texts, a->cpu);
	prefault(&texts);
#ifdef BENCH_TESTING
	if (run_fault(a->rs)->kind == BENCH_FAULT_SLOW_SETUP)
		nanosleep(&(struct timespec){ .tv_nsec = 500000000 }, NULL);
	while (run_fault(a->rs)->kind == BENCH_FAULT_STUCK_SETUP)
		pause();
#endif
	worker_send(a->result_fd, MSG_READY, &res);
	/* the message says what went wrong: this is not a death */
	if (res.err)
		_exit(0);

	for (;;) {
		/* pool_stop() kills the workers: they wait for nothing else */
		seen = wait_go(a->go, seen);
		t = a->go->trigger < (__u32)a->nr_triggers ? a->go->trigger : 0;
		worker_run(a, &texts, a->triggers[t], state[t], a->go->count);
	}
}

/* ---- the pool ---- */

static int worker_index(const struct worker_pool *pool, int cpu)
{
	int i;

	for (i = 0; i < pool->nr; i++)
		if (pool->cpu[i] == cpu)
			return i;
	return -1;
}

/* one message, the workers watched meanwhile: the others keep the pipe open */
static int pool_recv(struct worker_pool *pool, struct worker_msg *msg,
		     struct watch *w, __u64 deadline_ns, struct outcome *out)
{
	struct pollfd pfd = { .fd = pool->result_fd, .events = POLLIN };
	ssize_t n;
	int ret, idx;

	for (;;) {
		if (bench_interrupted())
			return -EINTR;
		ret = poll(&pfd, 1, WATCH_MS);
		if (ret < 0 && errno != EINTR) {
			ret = -errno;
			outcome_set(out, ST_FAILED, "watching the workers: %s",
				    strerror(-ret));
			return ret;
		}
		if (ret <= 0) {
			if (reap_dead_workers(pool, false, out))
				return -ECHILD;
			if (workers_stuck(pool, w, deadline_ns, out))
				return -ETIMEDOUT;
			continue;
		}
		n = read(pool->result_fd, msg, sizeof(*msg));
		if (n == sizeof(*msg)) {
			idx = worker_index(pool, msg->res.cpu);
			if (idx >= 0)
				w->reported[idx] = true;
			return 0;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* end of file: every worker is gone, some without a result */
		if (!reap_dead_workers(pool, true, out))
			outcome_set(out, ST_FAILED,
				    "a worker exited without its result");
		return -ECHILD;
	}
}

static int pool_fail(struct worker_pool *pool, int err)
{
	pool_stop(pool);
	return err;
}

/* @child_fd: the workers' end, result's write end */
static int pool_alloc(struct worker_pool *pool, int nr, int nr_slots,
		      int *child_fd)
{
	void *window = NULL, *go;
	int result[2];

	memset(pool, 0, sizeof(*pool));
	pool->result_fd = -1;
	pool->cpu = calloc(nr, sizeof(*pool->cpu));
	pool->pid = calloc(nr, sizeof(*pool->pid));
	go = mmap(NULL, sizeof(*pool->go), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pool->go = go == MAP_FAILED ? NULL : go;
	if (nr_slots) {
		pool->nr_slots = nr_slots;
		pool->window_len = sizeof(__u64) * 2 * nr_slots * nr;
		window = mmap(NULL, pool->window_len, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		pool->window = window == MAP_FAILED ? NULL : window;
	}
	if (!pool->cpu || !pool->pid || !pool->go ||
	    (nr_slots && !pool->window))
		return -ENOMEM;
	if (pipe2(result, O_CLOEXEC))
		return -errno;
	pool->result_fd = result[0];
	*child_fd = result[1];
	return 0;
}

int pool_start(struct worker_pool *pool, const struct run_settings *rs,
	       const struct cpu_list *cpus,
	       const struct trigger *const *triggers, int nr_triggers,
	       __u64 duration_ns, const struct hit_window *win,
	       struct outcome *out)
{
	struct worker_args a = {
		.rs = rs, .parent = getpid(), .triggers = triggers,
		.nr_triggers = nr_triggers, .duration_ns = duration_ns,
		.win = win && win->nr ? win : NULL,
	};
	struct worker_msg msg;
	struct watch w = {};
	int child_fd = -1, i, err;

	err = pool_alloc(pool, cpus->nr, a.win ? win->nr : 0, &child_fd);
	/* @child_fd is set when it succeeds alone: nothing to close */
	if (err) {
		outcome_set(out, ST_FAILED, "starting workers: %s",
			    strerror(-err));
		return pool_fail(pool, err);
	}
	a.result_fd = child_fd;
	a.go = pool->go;
	pool->duration_ns = duration_ns;
	a.window = pool->window;
	/* what is buffered must not be printed again by every child */
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < cpus->nr; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			err = -errno;
			break;
		}
		if (pid == 0) {
			close(pool->result_fd);
			a.cpu = cpus->cpu[i];
			a.index = i;
			worker_main(&a);
		}
		pool->cpu[i] = cpus->cpu[i];
		pool->pid[i] = pid;
		pool->nr++;
	}
	close(a.result_fd);
	if (err) {
		outcome_set(out, ST_FAILED, "forking workers: %s",
			    strerror(-err));
		return pool_fail(pool, err);
	}

	err = watch_init(&w, pool->nr);
	pool->started_ns = now_ns();
	for (i = 0; !err && i < pool->nr; i++) {
		err = pool_recv(pool, &msg, &w,
				pool->started_ns + SETUP_LIMIT_NS, out);
		if (err || !msg.res.err)
			continue;
		err = msg.res.err;
		outcome_set(out, ST_FAILED, "worker on CPU %d: %s: %s",
			    msg.res.cpu, msg.res.pin_failed ?
			    "cannot pin to its CPU" : "set-up failed",
			    strerror(-err));
	}
	watch_free(&w);
	return err ? pool_fail(pool, err) : 0;
}

/* each worker's hits of each program within its loop, by worker index */
static void window_hits(const struct worker_pool *pool, __u64 *hits)
{
	const volatile __u64 *v = pool->window;
	int i, n = pool->nr * pool->nr_slots;

	for (i = 0; i < n; i++)
		hits[i] = v[2 * i + 1] - v[2 * i];
}

/* a run's deadline when the caller knows none yet (its first) */
static __u64 first_deadline_ns(const struct worker_pool *pool, __u64 count)
{
	if (pool->duration_ns)
		return RUN_DEADLINE_NS + 10 * pool->duration_ns;
	return RUN_DEADLINE_NS + count * RUN_NS_PER_EVENT;
}

int pool_run(struct worker_pool *pool, int trigger, __u64 count,
	     struct worker_result *res, __u64 *hits, __u64 deadline_ns,
	     struct outcome *out)
{
	struct worker_msg msg;
	struct watch w = {};
	int i, idx, err;

	/* stopped by a run that failed or was cut short: nothing to release */
	if (!pool->go) {
		outcome_set(out, ST_FAILED, "the workers are gone");
		return -ECHILD;
	}
	err = watch_init(&w, pool->nr);
	if (err) {
		watch_free(&w);
		outcome_set(out, ST_FAILED, "running workers: %s",
			    strerror(-err));
		return pool_fail(pool, err);
	}
	pool->go->count = count;
	pool->go->trigger = trigger;
#ifdef BENCH_TESTING
	pool->go->loops = pool->loops ?: 1;
#endif
	pool->started_ns = now_ns();
	if (!deadline_ns)
		deadline_ns = first_deadline_ns(pool, count);
	deadline_ns += pool->started_ns;
	release(pool->go);
	for (i = 0; !err && i < pool->nr; i++) {
		err = pool_recv(pool, &msg, &w, deadline_ns, out);
		if (err)
			break;
		idx = worker_index(pool, msg.res.cpu);
		if (idx < 0 || msg.type != MSG_DONE) {
			outcome_set(out, ST_FAILED, "a worker's message is garbled");
			err = -EPROTO;
			break;
		}
		res[idx] = msg.res;
	}
	watch_free(&w);
	if (err)
		return pool_fail(pool, err);
	if (hits && pool->window)
		window_hits(pool, hits);
	return 0;
}

void pool_stop(struct worker_pool *pool)
{
	int i;

	/* every worker killed first: one wait for the pool, not one each */
	for (i = 0; i < pool->nr; i++)
		if (pool->pid[i] > 0)
			kill(pool->pid[i], SIGKILL);
	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] <= 0)
			continue;
		child_kill(pool->pid[i]);
		pool->pid[i] = 0;
	}
	if (pool->result_fd >= 0)
		close(pool->result_fd);
	pool->result_fd = -1;
	if (pool->go)
		munmap((void *)pool->go, sizeof(*pool->go));
	pool->go = NULL;
	if (pool->window)
		munmap((void *)pool->window, pool->window_len);
	pool->window = NULL;
	pool->nr_slots = 0;
	free(pool->cpu);
	free(pool->pid);
	pool->cpu = NULL;
	pool->pid = NULL;
	pool->nr = 0;
}
