/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What map_perf_test's BPF programs and its user space must agree on: the
 * test numbers (upstream's test_flags bits) and names, the per-test
 * counters the programs keep, and the magic address the connect() tests
 * carry.
 * Include <linux/types.h> (user space) or vmlinux.h (BPF) first.
 */
#ifndef __MAP_PERF_TEST_H
#define __MAP_PERF_TEST_H

/*
 * X(ID, -t name): each test's id, in upstream's numbering (test t is
 * selected by test_flags bit 1 << t), with its name, which is also its
 * programs' suffix (map_perf_test_kern.c). The table of tests, by id,
 * is maps/tests.c. A new test is a line here and its entry there.
 */
#define MAP_TESTS(X)							\
	X(HASH_PREALLOC, "hash_prealloc")				\
	X(PERCPU_HASH_PREALLOC, "percpu_hash_prealloc")			\
	X(HASH_KMALLOC, "hash_kmalloc")					\
	X(PERCPU_HASH_KMALLOC, "percpu_hash_kmalloc")			\
	X(LRU_HASH_PREALLOC, "lru_hash_prealloc")			\
	X(NOCOMMON_LRU_HASH_PREALLOC, "nocommon_lru_hash_prealloc")	\
	X(LPM_KMALLOC, "lpm_kmalloc")					\
	X(HASH_LOOKUP, "hash_lookup")					\
	X(ARRAY_LOOKUP, "array_lookup")					\
	X(INNER_LRU_HASH_PREALLOC, "inner_lru_hash_prealloc")		\
	X(LRU_HASH_LOOKUP, "lru_hash_lookup")				\
	/* beyond upstream: the other map kinds, same flag numbering */	\
	X(BLOOM_LOOKUP, "bloom_lookup")					\
	X(BLOOM_UPDATE, "bloom_update")					\
	X(QUEUE_PUSH_POP, "queue_push_pop")				\
	X(STACK_PUSH_POP, "stack_push_pop")				\
	X(TASK_STORAGE, "task_storage")					\
	X(RINGBUF_RESERVE, "ringbuf_reserve")				\
	X(RINGBUF_OUTPUT, "ringbuf_output")				\
	X(PERFBUF_OUTPUT, "perfbuf_output")				\
	/* no program: the workers' bpf() calls on a map user space made */ \
	X(SYS_HASH_LOOKUP, "sys_hash_lookup")				\
	X(SYS_HASH_UPDATE, "sys_hash_update")				\
	X(SYS_HASH_DELETE, "sys_hash_delete")				\
	X(SYS_ARRAY_LOOKUP, "sys_array_lookup")				\
	X(SYS_ARRAY_UPDATE, "sys_array_update")				\
	X(BATCH_HASH_LOOKUP, "batch_hash_lookup")			\
	X(BATCH_HASH_UPDATE, "batch_hash_update")			\
	X(BATCH_ARRAY_LOOKUP, "batch_array_lookup")			\
	X(BATCH_ARRAY_UPDATE, "batch_array_update")

#define MAP_TEST_ENUM(id, name)	id,
enum map_test_id {
	MAP_TESTS(MAP_TEST_ENUM)
	NR_TESTS,
};
#undef MAP_TEST_ENUM

/* one per test and CPU, added to once per program run */
struct map_perf_counters {
	__u64 calls;		/* runs for a worker's syscall: user space
				 * sums them from the call slots */
	__u64 lookups;
	__u64 found;		/* lookups that found what the test expects */
	__u64 updates;
	__u64 update_fails;
	__u64 foreign;		/* runs for the syscall of another process */
	__u64 seen;		/* the test fault's own count */
	__u64 negatives;	/* bloom: lookups of keys known to be absent */
	__u64 false_pos;	/* bloom: of them, the ones that hit */
	__u64 dropped;		/* ring/perf buffer: records that found no room */
	__u64 sum;		/* queue/stack: values pushed less values popped */
	__u64 seq;		/* ring/perf buffer: records tried on this CPU */
	__u64 ops;		/* the map operations the runs made, as the
				 * test's ops count them */
};

/*
 * The runs for a worker's syscall, per CPU, a cache line each, in .bss:
 * mapped memory each worker reads right before and after its loop.
 */
struct map_perf_slot {
	__u64 calls;
	__u64 pad[7];
};

/* CPUs the worker table covers; a power of two, checked at run time */
#define MAP_PERF_MAX_CPUS	1024

/* the test faults of the runner's BENCH_TEST_FAULT, same numbers */
enum map_perf_fault {
	MAP_FAULT_NONE,
	MAP_FAULT_MISS_ODD,
	MAP_FAULT_MISS_CPU,
	MAP_FAULT_UNCOUNTED,
	MAP_FAULT_MISS_ONE,	/* the runner's: one program of several */
	MAP_FAULT_WRONG_KEY,	/* look up keys that are not there */
	MAP_FAULT_FILL_ALL,	/* the runner's: user space's fills */
	MAP_FAULT_DROP_ALL,	/* ring/perf buffers: drop every record */
	MAP_FAULT_EMPTY_MAP,	/* the runner's: user space empties a map */
	MAP_FAULT_EXTRA_ODD,	/* test_overhead's programs only */
	MAP_FAULT_WRONG_VALUE,	/* the runner's: user space's bpf() writes */
	MAP_FAULT_EXTRA_PUSH,	/* queue/stack: push a value never counted */
	/* 12 to 14 are the runner's alone */
	MAP_FAULT_SHORT_OPS = 15,	/* the hash stress skips a delete */
};

/* set in .rodata before load */
struct map_perf_config {
	__s64 syscall_nr;	/* raw_tp sees every syscall: the test's own */
	__u64 pidns_dev;	/* the workers' pid namespace, when not the */
	__u64 pidns_ino;	/* initial one: tgids are compared in it */
	__u32 use_pidns;
	__u32 fault;
	__u32 fault_cpu;
	__u32 key_size;		/* hash and LPM keys; 0: the 4-byte default */
	__u32 set_size;		/* bloom: keys 0 .. set_size - 1 were pushed */
	__u32 record_size;	/* ring/perf buffer records, in bytes */
	__u32 wakeup;		/* ring buffer: WAKEUP_* or every Nth record */
	__u32 unused;
};

/* records a program submits per syscall, and each record's start */
#define RECORDS_PER_CALL	16
struct map_perf_record {
	__u32 cpu;
	__u32 test;
	__u64 seq;		/* the producing CPU's count of records tried */
};

#define MIN_RECORD_SIZE		((__u32)sizeof(struct map_perf_record))
#define MAX_RECORD_SIZE		4096
/* hash keys and LPM keys (prefix length + data) of a --key-size */
#define MAX_KEY_SIZE		256

/* ring buffer wake-ups: cfg.wakeup, any other value N: every Nth record */
#define WAKEUP_POLL		0	/* BPF_RB_NO_WAKEUP: the consumer polls */
#define WAKEUP_EVERY		1	/* BPF_RB_FORCE_WAKEUP on each record */
#define WAKEUP_ADAPTIVE		0xffffffffu	/* flags 0: the kernel decides */

/* operations per run of the bloom, queue, stack and task storage tests */
#define BLOOM_OPS		32	/* lookups: half present, half absent */
#define QUEUE_OPS		16	/* pushes, then as many pops */
#define TASK_STORAGE_OPS	32

/*
 * connect(-1, &sin6, sizeof(sin6)) fails with EBADF before the kernel
 * looks at the address, so the address is free to carry the test:
 * s6_addr16[0..1] the magic, s6_addr16[2] the case, s6_addr32[3] a key.
 */
#define CONNECT_MAGIC0		0xdead
#define CONNECT_MAGIC1		0xbeef

enum connect_case {
	CASE_LRU_HASH,
	CASE_NOCOMMON_LRU_HASH,
	CASE_INNER_LRU_HASH,
	CASE_LRU_HASH_LOOKUP,
};

/* the LPM test looks up 192.168.0.1/32, which user space maps to 128 */
#define LPM_ADDR		{ 192, 168, 0, 1 }
#define LPM_VALUE		128

/* HASH_LOOKUP and ARRAY_LOOKUP look up this key: every map holds key 0 */
#define LOOKUP_KEY		0

#ifndef __bpf__
/*
 * User space's arithmetic of what the programs must find, pure so the unit
 * tests can check it.
 */

/* does the prefix @bits/@data contain the IPv4 address @addr? */
static inline bool lpm_covers(__u32 bits, const __u8 *data, const __u8 *addr)
{
	__u32 i;

	for (i = 0; i < bits / 8; i++)
		if (data[i] != addr[i])
			return false;
	return bits % 8 == 0 || !((data[i] ^ addr[i]) & (0xff00 >> (bits % 8)));
}

/*
 * LRU_HASH_LOOKUP: a worker walks the windows of 32 keys in order, one a
 * syscall, wrapping around. @before[w] is how many keys the windows below
 * w kept; the hits its @events lookups must make are every full pass's
 * plus those of the windows the last pass reached.
 */
static inline __u64 kept_hits(const __u64 *before, __u32 nr_windows,
			      __u64 events)
{
	return events / nr_windows * before[nr_windows] +
	       before[events % nr_windows];
}

/* bytes a record of @size takes in a BPF ring buffer: an 8-byte header */
static inline __u64 ringbuf_record_bytes(__u32 size)
{
	return (8 + (__u64)size + 7) & ~7ull;
}

/*
 * In a perf buffer: the sample's 8-byte header, then the raw data's 4-byte
 * size and the data, padded to 8 bytes.
 */
static inline __u64 perfbuf_record_bytes(__u32 size)
{
	return 8 + ((4 + (__u64)size + 7) & ~7ull);
}

/*
 * Records of @record bytes that a buffer of @bytes takes before one is
 * dropped, with nobody consuming: both kinds keep a byte free.
 */
static inline __u64 buffer_holds(__u64 bytes, __u64 record)
{
	return bytes ? (bytes - 1) / record : 0;
}
#endif

#endif /* __MAP_PERF_TEST_H */
