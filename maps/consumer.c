// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer of map_perf_test's ring and perf buffer tests: a thread of
 * the parent, pinned to a CPU no producer uses, draining the records with
 * libbpf's ring_buffer__* or perf_buffer__* while the workers' syscalls
 * make the programs produce them. Its work is outside the producers'
 * timing; it checks every record (size, test, CPU, number) and counts
 * them per producing CPU, so that user space can prove that every record
 * produced was consumed or dropped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "maps/kinds.h"
#include "map_perf_test.h"

/* pages of each CPU's perf buffer: 256 KiB with 4 KiB pages */
#define PERF_PAGES	64
/*
 * How long a sleeping consumer waits at most: consumer_stop() wakes it
 * at once through its eventfd, so this is only a bound.
 */
#define POLL_MS		1000

struct consumer {
	enum consumer_kind kind;
	__u32 test, record_size, wakeup;
	struct ring_buffer *rb;
	struct perf_buffer *pb;
	pthread_t thread;
	bool running;
	int cpu;
	int err;		/* the thread's: a poll that failed */
	pid_t tid;		/* the thread's, for its watchdog */
	bool stuck;		/* it would not end: it keeps what it uses */
	char why[128];		/* what went wrong since its start */
	atomic_bool stop;
	int stop_fd;		/* an eventfd: written to stop a sleeper */
	int nr_cpus;
	__u64 buffer_bytes;	/* the ring's, or one CPU's perf buffer's */
	struct consumer_counts counts;	/* the thread's, since its start */
	/* what the last stop left: counts and error, until the next stop */
	struct consumer_counts taken;
	int taken_err;
	/*
	 * and what it said: the next start clears @why at once (a unit's
	 * samples restart it between them), before anyone asked
	 */
	char taken_why[128];
	enum test_fault_kind fault;	/* the run's: slow-setup holds the thread */
};

static __u64 clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* one record, whichever buffer it came through */
static void take(struct consumer *c, const void *data, size_t size,
		 bool padded)
{
	const struct map_perf_record *r = data;
	struct consumer_counts *n = &c->counts;

	/* a perf sample's raw data is padded to keep 8-byte alignment */
	if (size < c->record_size ||
	    (padded ? size >= c->record_size + 8 : size != c->record_size) ||
	    r->test != c->test || r->cpu >= (__u32)c->nr_cpus) {
		n->bad++;
		return;
	}
	if (n->consumed[r->cpu] && r->seq <= n->last_seq[r->cpu])
		n->out_of_order++;
	n->consumed[r->cpu]++;
	n->last_seq[r->cpu] = r->seq;
}

static int ringbuf_sample(void *ctx, void *data, size_t size)
{
	take(ctx, data, size, false);
	return 0;
}

/* the perf buffer's records as the kernel writes them */
struct perf_raw_sample {
	struct perf_event_header header;
	__u32 size;
	char data[];
};

struct perf_lost {
	struct perf_event_header header;
	__u64 id;
	__u64 lost;
};

static enum bpf_perf_event_ret perf_event(void *ctx, int cpu,
					  struct perf_event_header *e)
{
	struct consumer *c = ctx;

	if (e->type == PERF_RECORD_SAMPLE) {
		struct perf_raw_sample *s = (void *)e;

		take(c, s->data, s->size, true);
	} else if (e->type == PERF_RECORD_LOST) {
		c->counts.lost += ((struct perf_lost *)e)->lost;
	} else {
		c->counts.bad++;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

/* records now, without sleeping: how many, or -errno */
static int consume_once(struct consumer *c)
{
	if (c->kind == CONSUME_RINGBUF)
		return ring_buffer__consume(c->rb);
	return perf_buffer__consume(c->pb);
}

/*
 * Sleeps until records wait or the consumer is stopped, then takes the
 * records. The buffer's own epoll fd is readable when one of its rings
 * is, so it is polled beside the stop's eventfd: the end of a sample
 * need not wait for a poll's timeout.
 */
static int poll_once(struct consumer *c)
{
	struct pollfd fds[2] = {
		{ .fd = c->kind == CONSUME_RINGBUF ?
			ring_buffer__epoll_fd(c->rb) :
			perf_buffer__epoll_fd(c->pb), .events = POLLIN },
		{ .fd = c->stop_fd, .events = POLLIN },
	};

	if (poll(fds, 2, POLL_MS) < 0)
		return -errno;
	if (!(fds[0].revents & POLLIN))
		return 0;	/* stopped, or the bound: the caller looks */
	return consume_once(c);
}

static __u64 total(const struct consumer *c)
{
	__u64 t = c->counts.bad;
	int i;

	for (i = 0; i < c->nr_cpus; i++)
		t += c->counts.consumed[i];
	return t;
}

/* one poll; when it brought records, when they came */
static int step(struct consumer *c, bool sleep)
{
	__u64 before = total(c), t0 = clock_ns(CLOCK_MONOTONIC);
	int err = sleep ? poll_once(c) : consume_once(c);

	if (err < 0 && err != -EINTR)
		return err;
	if (total(c) == before)
		return 0;
	if (!c->counts.first_ns)
		c->counts.first_ns = t0;
	c->counts.last_ns = clock_ns(CLOCK_MONOTONIC);
	c->counts.wakeups++;
	return 1;
}

static void *consume(void *arg)
{
	struct consumer *c = arg;
	bool sleep = c->wakeup != WAKEUP_POLL;
	__u64 cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	int ret = 0;

	__atomic_store_n(&c->tid, gettid(), __ATOMIC_RELEASE);
#ifdef BENCH_TESTING
	/* slow-setup: a window for a freeze */
	if (c->fault == BENCH_FAULT_SLOW_SETUP)
		nanosleep(&(struct timespec){ .tv_nsec = 500000000 }, NULL);
#endif
	while (ret >= 0 && !atomic_load(&c->stop))
		ret = step(c, sleep);
	/* the producers are done: what is left, without sleeping */
	while (ret >= 0 && (ret = step(c, false)) > 0)
		;
	c->err = ret < 0 ? ret : 0;
	c->counts.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return NULL;
}

static struct perf_buffer *perf_new(struct consumer *c, int map_fd)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		/* 0: woken only when half a buffer is waiting */
		.wakeup_events = c->wakeup == WAKEUP_POLL ? 0 : c->wakeup,
	};

	attr.size = sizeof(attr);
	return perf_buffer__new_raw(map_fd, PERF_PAGES, &attr, perf_event, c,
				    NULL);
}

struct consumer *consumer_new(enum consumer_kind kind, int map_fd,
			      __u32 test, __u32 record_size, __u32 wakeup,
			      enum test_fault_kind fault, struct outcome *out)
{
	struct consumer *c = calloc(1, sizeof(*c));
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int err;

	if (!c)
		goto nomem;
	c->stop_fd = -1;
	c->kind = kind;
	c->test = test;
	c->record_size = record_size;
	c->wakeup = wakeup;
	c->fault = fault;
	c->nr_cpus = nr_cpus_possible();
	c->counts.consumed = calloc(c->nr_cpus, sizeof(__u64));
	c->counts.last_seq = calloc(c->nr_cpus, sizeof(__u64));
	c->taken.consumed = calloc(c->nr_cpus, sizeof(__u64));
	c->taken.last_seq = calloc(c->nr_cpus, sizeof(__u64));
	if (!c->counts.consumed || !c->counts.last_seq ||
	    !c->taken.consumed || !c->taken.last_seq)
		goto nomem;
	c->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->stop_fd < 0) {
		outcome_set(out, ST_FAILED, "cannot make the consumer's eventfd: %s",
			    strerror(errno));
		consumer_free(c);
		return NULL;
	}
	if (kind == CONSUME_RINGBUF)
		c->rb = ring_buffer__new(map_fd, ringbuf_sample, c, NULL);
	else
		c->pb = perf_new(c, map_fd);
	if (!c->rb && !c->pb) {
		err = -errno;
		outcome_set(out, ST_FAILED, "cannot open the %s buffer: %s",
			    kind == CONSUME_RINGBUF ? "ring" : "perf",
			    strerror(-err));
		consumer_free(c);
		return NULL;
	}
	/* the ring's size is the map's; a perf buffer's, PERF_PAGES */
	if (kind == CONSUME_PERFBUF)
		c->buffer_bytes = (__u64)PERF_PAGES * sysconf(_SC_PAGESIZE);
	else if (!bpf_obj_get_info_by_fd(map_fd, &info, &len))
		c->buffer_bytes = info.max_entries;
	else
		goto info_failed;
	return c;
info_failed:
	outcome_set(out, ST_FAILED, "cannot read the ring buffer's size: %s",
		    strerror(errno));
	consumer_free(c);
	return NULL;
nomem:
	outcome_set(out, ST_FAILED, "out of memory");
	consumer_free(c);
	return NULL;
}

int consumer_start(struct consumer *c, int cpu, struct outcome *out)
{
	__u64 *consumed = c->counts.consumed, *last = c->counts.last_seq;
	sigset_t all, old;
	cpu_set_t set;
	int err;

	memset(consumed, 0, c->nr_cpus * sizeof(__u64));
	memset(last, 0, c->nr_cpus * sizeof(__u64));
	memset(&c->counts, 0, sizeof(c->counts));
	c->counts.consumed = consumed;
	c->counts.last_seq = last;
	c->err = 0;
	c->tid = 0;
	c->why[0] = '\0';
	c->cpu = cpu;
	atomic_store(&c->stop, false);
	/* the last stop's wake-up, read back */
	while (eventfd_read(c->stop_fd, &(eventfd_t){ 0 }) == 0)
		;
	/* signals stay the main thread's, which ends the run on them */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&c->thread, NULL, consume, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		outcome_set(out, ST_FAILED, "cannot start the consumer: %s",
			    strerror(err));
		return -err;
	}
	c->running = true;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(c->thread, sizeof(set), &set);
	if (err) {
		consumer_stop(c);
		outcome_set(out, ST_FAILED,
			    "cannot pin the consumer to CPU %d: %s", cpu,
			    strerror(err));
		return -err;
	}
	return 0;
}

/* the run's error, and the words for it, become what the stop left */
static void take_error(struct consumer *c)
{
	c->taken_err = c->err;
	memcpy(c->taken_why, c->why, sizeof(c->taken_why));
}

/* the run's counts become what consumer_counts() gives */
static void take_counts(struct consumer *c)
{
	struct consumer_counts *t = &c->taken;
	__u64 *consumed = t->consumed, *last = t->last_seq;
	size_t size = c->nr_cpus * sizeof(__u64);

	memcpy(consumed, c->counts.consumed, size);
	memcpy(last, c->counts.last_seq, size);
	*t = c->counts;
	t->consumed = consumed;
	t->last_seq = last;
	take_error(c);
}

/* the consumer ended within @ns: joined */
static bool joined_within(struct consumer *c, __u64 ns)
{
	struct timespec t;
	__u64 at = clock_ns(CLOCK_REALTIME) + ns;

	t.tv_sec = at / 1000000000;
	t.tv_nsec = at % 1000000000;
	return !pthread_timedjoin_np(c->thread, NULL, &t);
}

/* how long a stopped consumer has to end: it takes what is left */
#define STOP_WAIT_NS	(2 * 1000000000ull)

/*
 * Stopped, and joined; one that does not end (a cgroup v1 freezer holds
 * the thread: cgroup v2 moves whole processes) is thawed, and fails its
 * sample: it consumed nothing meanwhile
 */
void consumer_stop(struct consumer *c)
{
	pid_t tid;

	if (!c || !c->running)
		return;
	atomic_store(&c->stop, true);
	eventfd_write(c->stop_fd, 1);
	if (!joined_within(c, STOP_WAIT_NS)) {
		tid = __atomic_load_n(&c->tid, __ATOMIC_ACQUIRE);
		snprintf(c->why, sizeof(c->why),
			 "the consumer (thread %d) did not end when stopped: %s",
			 tid, (tid > 0 ? task_frozen(tid) : NULL) ?: "held");
		if (tid > 0)
			thaw_out(tid);
		c->stuck = !joined_within(c, STOP_WAIT_NS);
		/* after its own last word, when it ended */
		c->err = -ETIMEDOUT;
		if (c->stuck) {
			/* its counts stay the last taken; the error is new */
			take_error(c);
			return;
		}
	}
	c->running = false;
	take_counts(c);
}

bool consumer_running(const struct consumer *c)
{
	return c && c->running;
}

const char *consumer_failed(struct consumer *c)
{
	if (c->taken_err != -ETIMEDOUT || !c->taken_why[0])
		snprintf(c->taken_why, sizeof(c->taken_why),
			 "the consumer's poll failed: %s",
			 strerror(-c->taken_err));
	return c->taken_why;
}

const struct consumer_counts *consumer_counts(const struct consumer *c)
{
	return &c->taken;
}

__u64 consumer_holds(const struct consumer *c)
{
	return buffer_holds(c->buffer_bytes,
			    c->kind == CONSUME_RINGBUF ?
			    ringbuf_record_bytes(c->record_size) :
			    perfbuf_record_bytes(c->record_size));
}

int consumer_error(const struct consumer *c)
{
	return c->taken_err;
}

void consumer_free(struct consumer *c)
{
	if (!c)
		return;
	consumer_stop(c);
	if (c->stuck)
		return;	/* the thread still uses all of it */
	ring_buffer__free(c->rb);
	perf_buffer__free(c->pb);
	if (c->stop_fd >= 0)
		close(c->stop_fd);
	free(c->counts.consumed);
	free(c->counts.last_seq);
	free(c->taken.consumed);
	free(c->taken.last_seq);
	free(c);
}
