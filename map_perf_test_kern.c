// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's BPF side: one body per test, doing that test's map work,
 * and for each body one entry point per attach method (<method>_<test>),
 * so that every method does exactly the same work and differs only in how
 * it finds the worker's syscall. The runner loads one entry point per run.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "map_perf_test.h"

/*
 * Layouts the kernel fixes for user space (UAPI, a tracepoint's format),
 * read as plain structs: vmlinux.h marks its types for CO-RE, and a
 * relocated access costs each load a search of the kernel's BTF (12 ms a
 * load against 2.4 without, measured on 6.18), and a row loads afresh
 * for each session. Only the connect tests' pt_regs, whose layout is the
 * arch's, keep CO-RE.
 */
struct pidns_ids {		/* struct bpf_pidns_info */
	__u32 pid;
	__u32 tgid;
};

struct raw_tp_ctx {		/* struct bpf_raw_tracepoint_args */
	__u64 args[2];		/* sys_enter: regs, id */
};

struct sys_enter_record {	/* syscalls:sys_enter_*'s format */
	__u64 common;		/* type, flags, preempt count, pid */
	__s64 syscall_nr;
	__u64 args[6];		/* each argument widened to 8 bytes */
};

struct sin6 {			/* struct sockaddr_in6 */
	__u16 family;
	__u16 port;
	__u32 flowinfo;
	__u8 addr[16];
	__u32 scope_id;
};

#define MAX_ENTRIES	1000
#define MAX_NR_CPUS	1024
/* what a full ring or perf buffer answers; vmlinux.h has no errno.h */
#define EAGAIN		11
#define ENOSPC		28

/*
 * ---- the maps: upstream's names, which num_map_entries resizes ----
 * The hash maps' keys are sized, not typed: --key-size changes them.
 */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(long));
	__uint(max_entries, MAX_ENTRIES);
} hash_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(long));
	__uint(max_entries, MAX_ENTRIES);
} percpu_hash_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(long));
	__uint(max_entries, MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} hash_map_alloc SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(long));
	__uint(max_entries, MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} percpu_hash_map_alloc SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, 10000);
} lru_hash_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, 10000);
	__uint(map_flags, BPF_F_NO_COMMON_LRU);
} nocommon_lru_hash_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(key_size, 8);
	__uint(value_size, sizeof(long));
	__uint(max_entries, 10000);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} lpm_trie_map_alloc SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, MAX_ENTRIES);
} array_map SEC(".maps");

/*
 * The template of the per-CPU inner maps. User space creates one per
 * worker CPU on that CPU's NUMA node and puts it in the CPU's slot.
 */
struct inner_lru {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, MAX_ENTRIES);
	__uint(map_flags, BPF_F_NUMA_NODE);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, MAX_NR_CPUS);
	__type(key, __u32);
	__array(values, struct inner_lru);
} array_of_lru_hashs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, MAX_ENTRIES);
} lru_hash_lookup_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_TESTS);
	__type(key, __u32);
	__type(value, struct map_perf_counters);
} counters SEC(".maps");

/* ---- the other map kinds ---- */

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__type(value, __u32);
	__uint(max_entries, MAX_ENTRIES);
} bloom_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__type(value, __u64);
	__uint(max_entries, 16384);
} queue_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__type(value, __u64);
	__uint(max_entries, 16384);
} stack_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} task_storage_map SEC(".maps");

/* 1 MiB: records of every producer CPU in one ring */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} ringbuf_map SEC(".maps");

/* one perf buffer per CPU; libbpf sizes it to the possible CPUs */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perfbuf_map SEC(".maps");

/* wide keys (--key-size) and records are built here: too big for the stack */
struct key_buf {
	__u8 b[MAX_KEY_SIZE];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct key_buf);
} key_bufs SEC(".maps");

struct record_buf {
	__u8 b[MAX_RECORD_SIZE];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct record_buf);
} record_bufs SEC(".maps");

/* ---- set by user space ---- */

const volatile struct map_perf_config cfg = { .syscall_nr = -1 };
/* the tgid of the worker pinned to each CPU, written before each sample */
__u32 worker_tgid[MAP_PERF_MAX_CPUS] = {};
/* each CPU's runs for its worker, read by the worker around its loop */
struct map_perf_slot call_slots[MAP_PERF_MAX_CPUS] = {};

static __always_inline void count_call(void)
{
	call_slots[bpf_get_smp_processor_id() & (MAP_PERF_MAX_CPUS - 1)].calls++;
}

/* ---- shared by every test ---- */

/*
 * Other processes must neither touch the maps nor count as events. Each
 * worker is pinned, so one compare against this CPU's worker does it.
 */
static __always_inline bool from_worker(void)
{
	__u32 cpu = bpf_get_smp_processor_id() & (MAP_PERF_MAX_CPUS - 1);
	struct pidns_ids ns;
	__u32 tgid;

	if (cfg.use_pidns) {
		/* in a container: the workers' pids are the namespace's */
		if (bpf_get_ns_current_pid_tgid(cfg.pidns_dev, cfg.pidns_ino,
						(void *)&ns, sizeof(ns)))
			return false;
		tgid = ns.tgid;
	} else {
		tgid = bpf_get_current_pid_tgid() >> 32;
	}
	return tgid && tgid == worker_tgid[cpu];
}

/* a run for the test's syscall from another process: shown, not used */
static __always_inline void count_foreign(__u32 test)
{
	struct map_perf_counters *c = bpf_map_lookup_elem(&counters, &test);

	if (c)
		c->foreign++;
}

/* false when the test fault wants this run left out of the counts */
static __always_inline bool counted(struct map_perf_counters *c)
{
#ifdef BENCH_TESTING
	/* the test build's faults; frozen .rodata: the verifier drops
	 * every branch not taken */
	if (cfg.fault == MAP_FAULT_UNCOUNTED)
		return false;
	if (cfg.fault == MAP_FAULT_MISS_ODD && (c->seen++ & 1))
		return false;
	if (cfg.fault == MAP_FAULT_MISS_CPU &&
	    bpf_get_smp_processor_id() == cfg.fault_cpu)
		return false;
#endif
	return true;
}

/*
 * once per run, after the timed map work: a per-CPU slot, no atomics;
 * @ops the map operations the run made, as its test's ops count them
 */
static __always_inline void count(__u32 test, __u32 lookups, __u32 found,
				  __u32 updates, __u32 update_fails, __u32 ops)
{
	struct map_perf_counters *c = bpf_map_lookup_elem(&counters, &test);

	if (!c || !counted(c))
		return;
	count_call();
	c->lookups += lookups;
	c->found += found;
	c->updates += updates;
	c->update_fails += update_fails;
	c->ops += ops;
}

/* ---- the bodies: one per test, upstream's work ---- */

/*
 * The test build's faults wrong-key: keys the fill never put in;
 * drop-all: ring and perf buffer records dropped as if there were no
 * room; extra-push: a queue or stack value no count knows of; and
 * short-ops: a hash stress run that skips its last delete, one map
 * operation fewer than the test's ops
 */
#ifdef BENCH_TESTING
#define FAULT_KEY_SHIFT		(cfg.fault == MAP_FAULT_WRONG_KEY ? 0x100000 : 0)
#define FAULT_DROP_ALL		(cfg.fault == MAP_FAULT_DROP_ALL)
#define FAULT_EXTRA_PUSH	(cfg.fault == MAP_FAULT_EXTRA_PUSH)
#define FAULT_SHORT_OPS		(cfg.fault == MAP_FAULT_SHORT_OPS)
#else
#define FAULT_KEY_SHIFT		0
#define FAULT_DROP_ALL		false
#define FAULT_EXTRA_PUSH	false
#define FAULT_SHORT_OPS		false
#endif

/*
 * @key as the map's key: itself, or with --key-size its first 4 bytes in
 * a zeroed per-CPU buffer of the size asked. The default is decided by
 * the verifier (frozen .rodata): upstream's work stays as it was.
 */
static __always_inline void *wide_key(__u32 *key)
{
	__u32 zero = 0;
	__u32 *buf;

	if (!cfg.key_size)
		return key;
	buf = bpf_map_lookup_elem(&key_bufs, &zero);
	if (buf)
		*buf = *key;
	return buf;
}

/*
 * 10 x (update, lookup, delete) of the calling thread's own key; the
 * delete follows the lookup's hit, and every lookup must hit
 */
static __always_inline void stress_hash(void *map, __u32 test)
{
	__u32 key = bpf_get_current_pid_tgid();
	__u32 found = 0, fails = 0, ops = 0;
	long init_val = 1;
	long *value;
	void *k;
	int i;

	k = wide_key(&key);
	if (!k) {
		count(test, 0, 0, 1, 1, 0);
		return;
	}
	for (i = 0; i < 10; i++) {
		if (bpf_map_update_elem(map, k, &init_val, BPF_ANY))
			fails++;
		value = bpf_map_lookup_elem(map, k);
		ops += 2;
		if (value) {
			found++;
			if (FAULT_SHORT_OPS && i == 9)
				break;
			bpf_map_delete_elem(map, k);
			ops++;
		}
	}
	count(test, 10, found, 10, fails, ops);
}

static __always_inline void hash_prealloc(void)
{
	stress_hash(&hash_map, HASH_PREALLOC);
}

static __always_inline void percpu_hash_prealloc(void)
{
	stress_hash(&percpu_hash_map, PERCPU_HASH_PREALLOC);
}

static __always_inline void hash_kmalloc(void)
{
	stress_hash(&hash_map_alloc, HASH_KMALLOC);
}

static __always_inline void percpu_hash_kmalloc(void)
{
	stress_hash(&percpu_hash_map_alloc, PERCPU_HASH_KMALLOC);
}

/* one update with a random key: a full LRU map evicts, it must not fail */
static __always_inline void stress_lru(void *map, __u32 test)
{
	__u32 key = bpf_get_prandom_u32();
	long val = 1;
	int err;

	err = bpf_map_update_elem(map, &key, &val, BPF_ANY);
	count(test, 0, 0, 1, err != 0, 1);
}

static __always_inline void lru_hash_prealloc(__u32 key)
{
	stress_lru(&lru_hash_map, LRU_HASH_PREALLOC);
}

static __always_inline void nocommon_lru_hash_prealloc(__u32 key)
{
	stress_lru(&nocommon_lru_hash_map, NOCOMMON_LRU_HASH_PREALLOC);
}

/* the same in this CPU's own inner map; a missing one is a failed update */
static __always_inline void inner_lru_hash_prealloc(__u32 key)
{
	__u32 cpu = bpf_get_smp_processor_id();
	void *inner = bpf_map_lookup_elem(&array_of_lru_hashs, &cpu);

	if (!inner) {
		count(INNER_LRU_HASH_PREALLOC, 0, 0, 1, 1, 0);
		return;
	}
	stress_lru(inner, INNER_LRU_HASH_PREALLOC);
}

/*
 * In the unrolled lookup loops below, barrier_var() makes clang add up the
 * hits as it goes: left alone it keeps every lookup's result until the end
 * and runs out of BPF stack.
 */

/*
 * --key-size K: the address in the first of K - 4 data bytes, the rest
 * zero, looked up at its full length, 8 * (K - 4) bits.
 */
static __always_inline void lpm_wide(void)
{
	const __u8 addr[4] = LPM_ADDR;
	__u32 zero = 0, found = 0, ops = 0;
	long *value;
	__u8 *key;
	int i;

	key = bpf_map_lookup_elem(&key_bufs, &zero);
	if (!key) {
		count(LPM_KMALLOC, 32, 0, 0, 0, 0);
		return;
	}
	*(__u32 *)key = 8 * (cfg.key_size - 4);
	__builtin_memcpy(key + 4, addr, sizeof(addr));
#pragma clang loop unroll(full)
	for (i = 0; i < 32; i++) {
		value = bpf_map_lookup_elem(&lpm_trie_map_alloc, key);
		found += value && *value == LPM_VALUE;
		barrier_var(found);
		ops++;
	}
	count(LPM_KMALLOC, 32, found, 0, 0, ops);
}

/* 32 lookups of 192.168.0.1/32; a hit is the /32's own value */
static __always_inline void lpm_kmalloc(void)
{
	union {
		__u32 b32[2];
		__u8 b8[8];
	} key;
	const __u8 addr[4] = LPM_ADDR;
	__u32 found = 0, ops = 0;
	long *value;
	int i;

	if (cfg.key_size) {
		lpm_wide();
		return;
	}
	key.b32[0] = 32;
	__builtin_memcpy(&key.b8[4], addr, sizeof(addr));
	if (FAULT_KEY_SHIFT)
		key.b8[4] ^= 0x80;	/* 64.168.0.1: not the /32 put in */
#pragma clang loop unroll(full)
	for (i = 0; i < 32; i++) {
		value = bpf_map_lookup_elem(&lpm_trie_map_alloc, &key);
		found += value && *value == LPM_VALUE;
		barrier_var(found);
		ops++;
	}
	count(LPM_KMALLOC, 32, found, 0, 0, ops);
}

static __always_inline void lookup64(void *map, __u32 test)
{
	__u32 key = LOOKUP_KEY + FAULT_KEY_SHIFT, found = 0, ops = 0;
	void *k = wide_key(&key);
	int i;

	if (!k) {
		count(test, 64, 0, 0, 0, 0);
		return;
	}
#pragma clang loop unroll(full)
	for (i = 0; i < 64; i++) {
		found += bpf_map_lookup_elem(map, k) != NULL;
		barrier_var(found);
		ops++;
	}
	count(test, 64, found, 0, 0, ops);
}

static __always_inline void hash_lookup(void)
{
	lookup64(&hash_map, HASH_LOOKUP);
}

static __always_inline void array_lookup(void)
{
	lookup64(&array_map, ARRAY_LOOKUP);
}

/* 32 consecutive keys from the one the worker put in the address */
static __always_inline void lru_hash_lookup(__u32 key)
{
	__u32 found = 0, ops = 0;
	int i;

	key += FAULT_KEY_SHIFT;
#pragma clang loop unroll(full)
	for (i = 0; i < 32; i++) {
		if (bpf_map_lookup_elem(&lru_hash_lookup_map, &key))
			found++;
		barrier_var(found);
		key++;
		ops++;
	}
	count(LRU_HASH_LOOKUP, 32, found, 0, 0, ops);
}


/* ---- the other map kinds' bodies ---- */

/* the counters for what else a run did; the test fault applies alike */
static __always_inline void count_more(__u32 test,
				       const struct map_perf_counters *d)
{
	struct map_perf_counters *c = bpf_map_lookup_elem(&counters, &test);

	if (!c || !counted(c))
		return;
	count_call();
	c->lookups += d->lookups;
	c->found += d->found;
	c->updates += d->updates;
	c->update_fails += d->update_fails;
	c->negatives += d->negatives;
	c->false_pos += d->false_pos;
	c->dropped += d->dropped;
	c->sum += d->sum;
	c->ops += d->ops;
}

/*
 * Half the lookups of keys user space pushed (0 .. set_size - 1), which
 * must all hit: a bloom filter has no false negatives. Half of keys it
 * never pushed: their hits are the false positives.
 */
static __always_inline void bloom_lookup(void)
{
	struct map_perf_counters d = {};
	__u32 key;
	int i;

	for (i = 0; i < BLOOM_OPS / 2; i++) {
		key = bpf_get_prandom_u32() % cfg.set_size;
		d.found += !bpf_map_peek_elem(&bloom_map, &key);
		key = cfg.set_size + (bpf_get_prandom_u32() >> 2);
		d.false_pos += !bpf_map_peek_elem(&bloom_map, &key);
		d.ops += 2;
	}
	d.lookups = d.negatives = BLOOM_OPS / 2;
	count_more(BLOOM_LOOKUP, &d);
}

/* keys already in the set again: the filter's bits stay as they were */
static __always_inline void bloom_update(void)
{
	__u32 key, fails = 0, ops = 0;
	int i;

	for (i = 0; i < BLOOM_OPS; i++) {
		key = bpf_get_prandom_u32() % cfg.set_size;
		fails += bpf_map_push_elem(&bloom_map, &key, BPF_ANY) != 0;
		ops++;
	}
	count(BLOOM_UPDATE, 0, 0, BLOOM_OPS, fails, ops);
}

/*
 * QUEUE_OPS pushes, then as many pops: never more pops than pushes so
 * far, on any CPU, so no pop may find the map empty. Pushed values less
 * popped ones must come to 0 over every CPU once the map is empty.
 */
static __always_inline void push_pop(void *map, __u32 test)
{
	struct map_perf_counters d = {};
	__u64 v, cpu = bpf_get_smp_processor_id();
	int i;

	/*
	 * extra-push: a zero, under the stack's values, before the queue's;
	 * no op of the test's, and in no count
	 */
	if (FAULT_EXTRA_PUSH) {
		v = 0;
		bpf_map_push_elem(map, &v, 0);
	}
	for (i = 0; i < QUEUE_OPS; i++) {
		v = cpu << 32 | (bpf_get_prandom_u32() | 1);
		if (bpf_map_push_elem(map, &v, 0))
			d.update_fails++;
		else
			d.sum += v;
		d.ops++;
	}
	for (i = 0; i < QUEUE_OPS; i++) {
		d.ops++;
		if (bpf_map_pop_elem(map, &v))
			continue;
		d.found++;
		d.sum -= v;
	}
	d.updates = d.lookups = QUEUE_OPS;
	count_more(test, &d);
}

static __always_inline void queue_push_pop(void)
{
	push_pop(&queue_map, QUEUE_PUSH_POP);
}

static __always_inline void stack_push_pop(void)
{
	push_pop(&stack_map, STACK_PUSH_POP);
}

/* the current task's storage, created by the first run on each task */
static __always_inline void task_storage(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 found = 0, ops = 0;
	__u64 *v;
	int i;

	for (i = 0; i < TASK_STORAGE_OPS; i++) {
		v = bpf_task_storage_get(&task_storage_map, task, 0,
					 BPF_LOCAL_STORAGE_GET_F_CREATE);
		ops++;
		if (v) {
			found++;
			(*v)++;
		}
	}
	count(TASK_STORAGE, TASK_STORAGE_OPS, found, 0, 0, ops);
}

/* the ring buffer's wake-up for the record numbered @seq on its CPU */
static __always_inline __u64 rb_flags(__u64 seq)
{
	if (cfg.wakeup == WAKEUP_ADAPTIVE)
		return 0;
	if (cfg.wakeup == WAKEUP_POLL)
		return BPF_RB_NO_WAKEUP;
	if (cfg.wakeup == WAKEUP_EVERY)
		return BPF_RB_FORCE_WAKEUP;
	return (seq + 1) % cfg.wakeup ? BPF_RB_NO_WAKEUP : BPF_RB_FORCE_WAKEUP;
}

/* the per-CPU counters this CPU numbers its records by */
static __always_inline struct map_perf_counters *record_counter(__u32 test)
{
	return bpf_map_lookup_elem(&counters, &test);
}

/*
 * RECORDS_PER_CALL records, each reserved in the ring, stamped with its
 * CPU and number, and submitted; a full ring drops it, counted. Every
 * record is thus produced = consumed + dropped, checked by user space.
 */
static __always_inline void ringbuf_reserve(void)
{
	struct map_perf_counters d = {}, *c = record_counter(RINGBUF_RESERVE);
	__u32 cpu = bpf_get_smp_processor_id();
	struct map_perf_record *r;
	__u64 seq;
	int i;

	if (!c)
		return;
	for (i = 0; i < RECORDS_PER_CALL; i++) {
		seq = c->seq++;
		r = FAULT_DROP_ALL ? NULL :
		    bpf_ringbuf_reserve(&ringbuf_map, cfg.record_size, 0);
		/* a record tried: drop-all's pretended full ring too */
		d.ops++;
		if (!r) {
			d.dropped++;
			continue;
		}
		r->cpu = cpu;
		r->test = RINGBUF_RESERVE;
		r->seq = seq;
		bpf_ringbuf_submit(r, rb_flags(seq));
	}
	d.updates = RECORDS_PER_CALL;
	count_more(RINGBUF_RESERVE, &d);
}

/* a record of cfg.record_size bytes in this CPU's buffer, stamped */
static __always_inline struct map_perf_record *record(__u32 test)
{
	__u32 zero = 0;
	struct map_perf_record *r = bpf_map_lookup_elem(&record_bufs, &zero);

	if (r) {
		r->cpu = bpf_get_smp_processor_id();
		r->test = test;
	}
	return r;
}

/*
 * RECORDS_PER_CALL records copied out: into the ring by
 * bpf_ringbuf_output(), or into this CPU's perf buffer, whose wake-ups are
 * the perf event's. @perf is a constant: each caller keeps its one helper.
 */
static __always_inline void output_records(__u32 test, void *ctx, bool perf)
{
	struct map_perf_counters d = {}, *c = record_counter(test);
	struct map_perf_record *r = record(test);
	long err;
	int i;

	if (!c || !r)
		return;
	for (i = 0; i < RECORDS_PER_CALL; i++) {
		r->seq = c->seq++;
		if (FAULT_DROP_ALL)
			err = perf ? -ENOSPC : -EAGAIN;
		else if (perf)
			err = bpf_perf_event_output(ctx, &perfbuf_map,
						    BPF_F_CURRENT_CPU, r,
						    cfg.record_size);
		else
			err = bpf_ringbuf_output(&ringbuf_map, r,
						 cfg.record_size,
						 rb_flags(r->seq));
		/* a record tried: drop-all's pretended full buffer too */
		d.ops++;
		/* no room: the ring says EAGAIN, the perf buffer ENOSPC */
		if (err == (perf ? -ENOSPC : -EAGAIN))
			d.dropped++;
		else if (err)
			d.update_fails++;
	}
	d.updates = RECORDS_PER_CALL;
	count_more(test, &d);
}

static __always_inline void ringbuf_output(void)
{
	output_records(RINGBUF_OUTPUT, NULL, false);
}

static __always_inline void perfbuf_output(void *ctx)
{
	output_records(PERFBUF_OUTPUT, ctx, true);
}

/* ---- connect(): the test case and key are in the address ---- */

/* true when this connect() carries @tcase; *key is then its key */
static __always_inline bool connect_case(const struct sockaddr *uaddr,
					 long addrlen, __u16 tcase, __u32 *key)
{
	union {
		__u16 dst6[8];
		struct {
			__u16 magic0;
			__u16 magic1;
			__u16 tcase;
			__u16 unused16;
			__u32 unused32;
			__u32 key;
		};
	} p;
	const struct sin6 *in6 = (const void *)uaddr;

	if (addrlen != sizeof(*in6))
		return false;
	if (bpf_probe_read_user(p.dst6, sizeof(p.dst6), in6->addr))
		return false;
	if (p.magic0 != CONNECT_MAGIC0 || p.magic1 != CONNECT_MAGIC1 ||
	    p.tcase != tcase)
		return false;
	*key = p.key;
	return true;
}

/* ---- the entry points: <method>_<test> for each attach method ---- */

/*
 * A syscall test; every target (the syscall, its function, its tracepoint)
 * is set at run time. Only the worker check comes before the body.
 */
#define SYSCALL_TEST(test, id)						\
static __always_inline void test##_run(void)				\
{									\
	if (from_worker())						\
		test();							\
	else								\
		count_foreign(id);					\
}									\
									\
SEC("?ksyscall")							\
int BPF_KPROBE(kprobe_##test)	/* no arguments to unwrap */		\
{									\
	test##_run();							\
	return 0;							\
}									\
									\
SEC("?fentry")								\
int BPF_PROG(fentry_##test)						\
{									\
	test##_run();							\
	return 0;							\
}									\
									\
SEC("?tracepoint")							\
int tracepoint_##test(void *ctx)					\
{									\
	test##_run();							\
	return 0;							\
}									\
									\
SEC("?raw_tp")								\
int raw_tp_##test(struct raw_tp_ctx *ctx)				\
{									\
	if (ctx->args[1] == cfg.syscall_nr)				\
		test##_run();						\
	return 0;							\
}

/* the same for a body that needs the program's context */
#define SYSCALL_CTX_TEST(test, id)					\
static __always_inline void test##_run(void *ctx)			\
{									\
	if (from_worker())						\
		test(ctx);						\
	else								\
		count_foreign(id);					\
}									\
									\
SEC("?ksyscall")							\
int BPF_KPROBE(kprobe_##test)						\
{									\
	test##_run(ctx);						\
	return 0;							\
}									\
									\
SEC("?fentry")								\
int BPF_PROG(fentry_##test)						\
{									\
	test##_run(ctx);						\
	return 0;							\
}									\
									\
SEC("?tracepoint")							\
int tracepoint_##test(void *ctx)					\
{									\
	test##_run(ctx);						\
	return 0;							\
}									\
									\
SEC("?raw_tp")								\
int raw_tp_##test(struct raw_tp_ctx *ctx)				\
{									\
	if (ctx->args[1] == cfg.syscall_nr)				\
		test##_run(ctx);					\
	return 0;							\
}

/*
 * A connect() test: each method finds the address argument its own way,
 * fentry through the pt_regs of the arch's __<arch>_sys_connect stub.
 */
#define CONNECT_TEST(test, tcase, id)					\
static __always_inline void test##_run(const struct sockaddr *uaddr,	\
				       long addrlen)			\
{									\
	__u32 key;							\
									\
	if (!from_worker())						\
		count_foreign(id);					\
	else if (connect_case(uaddr, addrlen, tcase, &key))		\
		test(key);						\
}									\
									\
SEC("?ksyscall")							\
int BPF_KSYSCALL(kprobe_##test, int fd, struct sockaddr *uaddr,		\
		 int addrlen)						\
{									\
	test##_run(uaddr, addrlen);					\
	return 0;							\
}									\
									\
SEC("?fentry")								\
int BPF_PROG(fentry_##test, struct pt_regs *regs)			\
{									\
	test##_run((void *)PT_REGS_PARM2_CORE_SYSCALL(regs),		\
		   PT_REGS_PARM3_CORE_SYSCALL(regs));			\
	return 0;							\
}									\
									\
SEC("?tracepoint")							\
int tracepoint_##test(struct sys_enter_record *ctx)			\
{									\
	test##_run((void *)ctx->args[1], ctx->args[2]);			\
	return 0;							\
}									\
									\
SEC("?raw_tp")								\
int raw_tp_##test(struct raw_tp_ctx *ctx)				\
{									\
	struct pt_regs *regs = (void *)ctx->args[0];			\
									\
	if (ctx->args[1] == cfg.syscall_nr)				\
		test##_run((void *)PT_REGS_PARM2_CORE_SYSCALL(regs),	\
			   PT_REGS_PARM3_CORE_SYSCALL(regs));		\
	return 0;							\
}

SYSCALL_TEST(hash_prealloc, HASH_PREALLOC)
SYSCALL_TEST(percpu_hash_prealloc, PERCPU_HASH_PREALLOC)
SYSCALL_TEST(hash_kmalloc, HASH_KMALLOC)
SYSCALL_TEST(percpu_hash_kmalloc, PERCPU_HASH_KMALLOC)
CONNECT_TEST(lru_hash_prealloc, CASE_LRU_HASH, LRU_HASH_PREALLOC)
CONNECT_TEST(nocommon_lru_hash_prealloc, CASE_NOCOMMON_LRU_HASH,
	     NOCOMMON_LRU_HASH_PREALLOC)
SYSCALL_TEST(lpm_kmalloc, LPM_KMALLOC)
SYSCALL_TEST(hash_lookup, HASH_LOOKUP)
SYSCALL_TEST(array_lookup, ARRAY_LOOKUP)
CONNECT_TEST(inner_lru_hash_prealloc, CASE_INNER_LRU_HASH,
	     INNER_LRU_HASH_PREALLOC)
CONNECT_TEST(lru_hash_lookup, CASE_LRU_HASH_LOOKUP, LRU_HASH_LOOKUP)
SYSCALL_TEST(bloom_lookup, BLOOM_LOOKUP)
SYSCALL_TEST(bloom_update, BLOOM_UPDATE)
SYSCALL_TEST(queue_push_pop, QUEUE_PUSH_POP)
SYSCALL_TEST(stack_push_pop, STACK_PUSH_POP)
SYSCALL_TEST(task_storage, TASK_STORAGE)
SYSCALL_TEST(ringbuf_reserve, RINGBUF_RESERVE)
SYSCALL_TEST(ringbuf_output, RINGBUF_OUTPUT)
SYSCALL_CTX_TEST(perfbuf_output, PERFBUF_OUTPUT)

char _license[] SEC("license") = "GPL";
