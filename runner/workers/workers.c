// SPDX-License-Identifier: GPL-2.0
/*
 * The workers: one process per CPU, pinned, set up, and released together
 * on an explicit go, once per run of the pool: a row's samples reuse its
 * workers. Each times its own loop and reports how undisturbed it ran:
 * its CPU time against its wall time, and where it ended up. The parent
 * watches them while it waits (bench_watchdog.c), so no run waits
 * forever.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <linux/futex.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "workers/workers.h"
#include "core/core.h"
#ifdef BENCH_TESTING
#endif

/* how often the parent looks at its waiting workers */
#define WATCH_MS		200
/*
 * A run's deadline before any sample has said how long one takes: this
 * plus RUN_NS_PER_EVENT per event (or ten times -d's duration), far
 * beyond any event's cost, emulated ones too: a worker that runs yet
 * never ends. One frozen or stalled is caught long before (see
 * workers_stuck()). A worker's set-up has SETUP_LIMIT_NS.
 */
#define RUN_DEADLINE_NS		(5 * 1000000000ull)
#define RUN_NS_PER_EVENT	100000ull
#define SETUP_LIMIT_NS		(60 * 1000000000ull)
/*
 * With a duration the worker runs the loop in chunks and reads the clock
 * between them: often enough to stop on time, rarely enough (a vDSO call
 * per DURATION_CHUNK calls) not to disturb what is measured.
 */
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
 * The go: the parent sets the run's count, then bumps @gen and wakes
 * every worker waiting on it at once. Shared memory, not a pipe, so that
 * one pool can be released again for each of a row's samples.
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
 * fork() copies no page tables of file mappings: a worker's first calls
 * fault in libc's text and data and the vDSO, and two workers faulting
 * the same page at the go wait on its lock, a sleep that makes the sample
 * look disturbed (seen with perf: folio_lock under __vdso_clock_gettime).
 * Fault in everything readable now, outside the measured loop, but
 * private anonymous memory, whose page tables fork() copied: a read would
 * only map the zero page where the parent never wrote (33 MB of a full
 * map_perf_test's: half a session's fork time); with @writable, all.
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
 * The programs' hits on this CPU, into the pool's shared window: @at 0
 * right before the loop, 1 right after. Plain loads of the skeletons'
 * mapped counters: nothing the measured program notices.
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

/*
 * Reads one message, watching the workers meanwhile: the others keep the
 * pipe open, so a dead or stuck worker shows only there.
 */
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
	if (err) {
		if (child_fd >= 0)
			close(child_fd);
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

	/*
	 * every worker killed first: they die side by side, and the waits
	 * below overlap, one wait for the pool rather than one a worker
	 */
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
