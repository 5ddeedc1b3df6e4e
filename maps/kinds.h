/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_perf_test's map kinds whose tests have another shape than a program
 * on a syscall: the consumer that drains a ring or perf buffer on a CPU
 * of its own (maps/consumer.c), and map operations the workers make
 * themselves through the bpf syscall (maps/syscall.c).
 */
#ifndef __MAPS_KINDS_H
#define __MAPS_KINDS_H

#include <stdbool.h>
#include <linux/types.h>
#include "bench.h"

/* ---- the consumer ---- */

enum consumer_kind { CONSUME_RINGBUF, CONSUME_PERFBUF };

/* what one sample's consumer saw; per-CPU arrays of nr_cpus_possible() */
struct consumer_counts {
	__u64 *consumed;	/* records by the CPU that produced them */
	__u64 *last_seq;	/* the last record's number, per CPU */
	__u64 bad;		/* records of another size, test or CPU */
	__u64 out_of_order;	/* numbered at or below the one before */
	__u64 lost;		/* perf buffer: the kernel's lost records */
	__u64 first_ns, last_ns;	/* when the first and last came */
	__u64 cpu_ns;		/* the consumer thread's CPU time */
	__u64 wakeups;		/* polls that returned records */
};

struct consumer;

/*
 * A consumer of @map_fd's records of @record_size bytes from @test.
 * @wakeup: WAKEUP_POLL makes it poll without sleeping; otherwise it
 * sleeps until woken (a perf buffer is woken every @wakeup records).
 * @fault: the run's test fault (run_fault()), which its thread obeys.
 */
struct consumer *consumer_new(enum consumer_kind kind, int map_fd,
			      __u32 test, __u32 record_size, __u32 wakeup,
			      enum test_fault_kind fault, struct outcome *out);
/* zeroes the counts and starts draining on @cpu */
int consumer_start(struct consumer *c, int cpu, struct outcome *out);
/*
 * Once the producers are done: drains what is left and stops; its counts
 * since the start are then consumer_counts()' and consumer_error()'s,
 * until the next stop
 */
void consumer_stop(struct consumer *c);
bool consumer_running(const struct consumer *c);
const struct consumer_counts *consumer_counts(const struct consumer *c);
/*
 * How many records the buffer takes with nobody consuming: the ring, which
 * every CPU shares, or one CPU's perf buffer.
 */
__u64 consumer_holds(const struct consumer *c);
/* 0, or the -errno a poll of the last run stopped failed with */
int consumer_error(const struct consumer *c);
/* what went wrong, once consumer_error() says something did */
const char *consumer_failed(struct consumer *c);
void consumer_free(struct consumer *c);

/* ---- map operations through the bpf syscall ---- */

enum sys_op {
	SYS_LOOKUP,		/* one lookup per call, value checked */
	SYS_UPDATE,		/* one update of a key that is there */
	SYS_DELETE,		/* delete a key, put it back: 2 ops */
	SYS_BATCH_LOOKUP,	/* a dump of the whole map per call */
	SYS_BATCH_UPDATE,	/* the whole map written in one call */
};

/* per CPU, shared with the forked workers: what their calls achieved */
struct sys_slot {
	__u64 ok;		/* operations that did what was asked */
	__u64 bad;		/* failed, or returned the wrong thing */
	__u64 pad[6];		/* a cache line each */
};

/* what a worker needs; it lives in the row, copied by fork */
struct sys_ctx {
	__u32 map_id;
	enum sys_op op;
	__u32 entries;
	__u32 key_size;
	const struct cpu_list *cpus;	/* the row's: a worker's key range */
	struct sys_slot *slots;		/* MAP_SHARED, one per possible CPU */
	enum test_fault_kind fault;	/* the test build's, from open */
	int fault_cpu;			/* miss-cpu=N's CPU */
};

/* the value every key k holds, put there by the fill and the updates */
static inline __u64 sys_value(__u32 k)
{
	return (k + 1) * 0x9e3779b97f4a7c15ull;
}

/* the worker's trigger: setup opens the map by id, run makes the calls */
int sys_setup(void **state);
void sys_run(void *state, __u64 count);

/*
 * Creates the map (@type, @key_size, 8-byte values, @entries) and fills
 * it with keys 0 .. entries - 1 (their values as @fault has them);
 * batch operations are probed first.
 * The fd, or -1 with @out saying why: skipped when the kernel cannot.
 */
int sys_map_create(enum bpf_map_type type, enum sys_op op, __u32 key_size,
		   __u32 entries, enum test_fault_kind fault,
		   struct outcome *out);
/* after a sample: are keys 0 .. entries - 1 there, each with its value? */
int sys_map_check(int fd, enum bpf_map_type type, __u32 key_size,
		  __u32 entries, struct outcome *out);

#endif /* __MAPS_KINDS_H */
