// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's tests: an entry per id of MAP_TESTS (map_perf_test.h),
 * which gives each its name, indexed by enum map_test_id: what its
 * workers repeat, its map and programs (map_perf_test_kern.c), its kind
 * (maps/kinds.c: what it fills, verifies and reports), what it may be
 * swept over and its count.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include "bench.h"
#include "maps/map_perf.h"

/* each test's name, as MAP_TESTS gives it beside its id */
#define TEST_NAME(id, name)	[id] = name,
static const char names[NR_TESTS][MAP_TEST_NAME_MAX] = {
	MAP_TESTS(TEST_NAME)
};
#undef TEST_NAME

/* no name cut short of its NUL */
#define TEST_NAME_FITS(id, name)					\
	_Static_assert(sizeof(name) <= MAP_TEST_NAME_MAX,		\
		       "test " name ": name longer than MAP_TEST_NAME_MAX");
MAP_TESTS(TEST_NAME_FITS)
#undef TEST_NAME_FITS

/*
 * A test whose workers make syscall @sc. fentry tries the arch stub, then
 * __se_sys_<sc> and __do_sys_<sc> (SYSCALL_KFUNCS). raw_tp hooks
 * sys_enter and keeps the syscall's number.
 */
#define SYSCALL_EVENT(sc)						\
	.trigger = { #sc, NULL, sc##_run },				\
	.syscall = #sc,							\
	.nr = __NR_##sc,						\
	.target = {							\
		.kfunc = SYSCALL_KFUNCS(sc),				\
		.tp_category = "syscalls",				\
		.tp_name = "sys_enter_" #sc,				\
		.raw_tp_name = "sys_enter",				\
		.syscall = #sc,						\
	}

/*
 * a connect() test; its programs but tracepoint's read the arguments from
 * the syscall's pt_regs, whose layout CO-RE takes from the kernel's BTF
 */
#define CONNECT_EVENT(run)						\
	.trigger = { "connect", connect_setup, run },			\
	.syscall = "connect",						\
	.reads_regs = true,						\
	.nr = __NR_connect,						\
	.target = {							\
		.kfunc = SYSCALL_KFUNCS(connect),			\
		.tp_category = "syscalls",				\
		.tp_name = "sys_enter_connect",				\
		.raw_tp_name = "sys_enter",				\
		.syscall = "connect",					\
	}

/*
 * Map operations the workers make through the bpf syscall: the loop is
 * the trigger, and there is no syscall of a test to take out (no base
 * row). A batch call's events are the map's elements: its row sets them.
 */
#define SYS_TEST(id, type, op, u, nr_ops, cnt, h)			\
	[id] = {							\
		.name = names[id], .line = names[id], .unit = u,	\
		.ops = nr_ops,						\
		.help = h,						\
		.trigger = { "bpf", sys_setup, sys_run },		\
		.kind = &map_kind_syscall, .count = cnt,		\
		.sys_type = BPF_MAP_TYPE_##type, .sys_op = op,		\
		.takes = TAKES_ENTRIES |				\
			 (BPF_MAP_TYPE_##type == BPF_MAP_TYPE_HASH ?	\
			  TAKES_KEY_SIZE : 0),				\
	}

const struct map_test tests[] = {
	[HASH_PREALLOC] = {
		.name = names[HASH_PREALLOC], .line = "hash_map_perf pre-alloc",
		.help = "10 x (update, lookup, delete) in a HASH",
		.ops = 30, SYSCALL_EVENT(getuid), .map = SKEL_MAP(hash_map),
		.prog = METHOD_PROGS(hash_prealloc),
		.kind = &map_kind_prog,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 15000,
	},
	[PERCPU_HASH_PREALLOC] = {
		.name = names[PERCPU_HASH_PREALLOC],
		.help = "the same in a PERCPU_HASH",
		.line = "percpu_hash_map_perf pre-alloc",
		.ops = 30, SYSCALL_EVENT(geteuid),
		.map = SKEL_MAP(percpu_hash_map),
		.prog = METHOD_PROGS(percpu_hash_prealloc),
		.kind = &map_kind_prog,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 12000,
	},
	[HASH_KMALLOC] = {
		.name = names[HASH_KMALLOC], .line = "hash_map_perf kmalloc",
		.help = "HASH with BPF_F_NO_PREALLOC",
		.ops = 30, SYSCALL_EVENT(getgid),
		.map = SKEL_MAP(hash_map_alloc),
		.prog = METHOD_PROGS(hash_kmalloc),
		.kind = &map_kind_prog,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 14000,
	},
	[PERCPU_HASH_KMALLOC] = {
		.name = names[PERCPU_HASH_KMALLOC],
		.help = "PERCPU_HASH with BPF_F_NO_PREALLOC",
		.line = "percpu_hash_map_perf kmalloc",
		.ops = 30, SYSCALL_EVENT(getegid),
		.map = SKEL_MAP(percpu_hash_map_alloc),
		.prog = METHOD_PROGS(percpu_hash_kmalloc),
		.kind = &map_kind_prog,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 11000,
	},
	[LRU_HASH_PREALLOC] = {
		.name = names[LRU_HASH_PREALLOC],
		.help = "update of a random key in an LRU_HASH",
		.line = "lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(lru_hash_run),
		.map = SKEL_MAP(lru_hash_map),
		.prog = METHOD_PROGS(lru_hash_prealloc),
		.kind = &map_kind_prog,
		.takes = TAKES_ENTRIES,
	},
	[NOCOMMON_LRU_HASH_PREALLOC] = {
		.name = names[NOCOMMON_LRU_HASH_PREALLOC],
		.help = "the same with BPF_F_NO_COMMON_LRU",
		.line = "nocommon_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(nocommon_lru_hash_run),
		.map = SKEL_MAP(nocommon_lru_hash_map),
		.prog = METHOD_PROGS(nocommon_lru_hash_prealloc),
		.kind = &map_kind_prog,
		.takes = TAKES_ENTRIES,
	},
	[LPM_KMALLOC] = {
		.name = names[LPM_KMALLOC], .line = "lpm_perf kmalloc",
		.help = "32 lookups of 192.168.0.1/32 in a filled LPM trie",
		.ops = 32, SYSCALL_EVENT(gettid),
		.map = SKEL_MAP(lpm_trie_map_alloc),
		.prog = METHOD_PROGS(lpm_kmalloc),
		.kind = &map_kind_lpm, .miss = true,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		/* a 4-byte prefix length and at least a byte */
		.min_key_size = 5,
		.count = 20000,
	},
	[HASH_LOOKUP] = {
		.name = names[HASH_LOOKUP], .line = "hash_lookup",
		.help = "64 lookups of a key that is present",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(hash_map), .prog = METHOD_PROGS(hash_lookup),
		.kind = &map_kind_hash_lookup, .miss = true,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 15000,
	},
	[ARRAY_LOOKUP] = {
		.name = names[ARRAY_LOOKUP], .line = "array_lookup",
		.help = "64 ARRAY lookups",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getppid),
		.map = SKEL_MAP(array_map), .prog = METHOD_PROGS(array_lookup),
		.kind = &map_kind_prog,
		.takes = TAKES_ENTRIES,
	},
	[INNER_LRU_HASH_PREALLOC] = {
		.name = names[INNER_LRU_HASH_PREALLOC],
		.help = "an LRU_HASH per CPU in an ARRAY_OF_MAPS",
		.line = "inner_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(inner_lru_hash_run),
		.map = SKEL_MAP(array_of_lru_hashs),
		.prog = METHOD_PROGS(inner_lru_hash_prealloc),
		.kind = &map_kind_inner_lru, .takes = TAKES_ENTRIES,
	},
	[LRU_HASH_LOOKUP] = {
		.name = names[LRU_HASH_LOOKUP],
		.help = "32 lookups in a pre-filled LRU_HASH",
		.line = "lru_hash_lookup_perf pre-alloc",
		.ops = 32, CONNECT_EVENT(lru_hash_lookup_run),
		.map = SKEL_MAP(lru_hash_lookup_map),
		.prog = METHOD_PROGS(lru_hash_lookup),
		.kind = &map_kind_lru_hash_lookup, .miss = true,
		.takes = TAKES_ENTRIES,
		.count = 25000,
	},
	[BLOOM_LOOKUP] = {
		.name = names[BLOOM_LOOKUP], .line = "bloom_lookup",
		.help = "16 bpf_map_peek_elem of keys pushed (all must hit)\n"
			"and 16 of keys never pushed (the false positives,\n"
		"counted)",
		.unit = "lookups", .ops = BLOOM_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(bloom_map), .prog = METHOD_PROGS(bloom_lookup),
		.kind = &map_kind_bloom_lookup, .takes = TAKES_ENTRIES,
		.count = 15000,
	},
	[BLOOM_UPDATE] = {
		.name = names[BLOOM_UPDATE], .line = "bloom_update",
		.help = "32 bpf_map_push_elem of known keys",
		.unit = "updates", .ops = BLOOM_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(bloom_map), .prog = METHOD_PROGS(bloom_update),
		.kind = &map_kind_bloom_update, .takes = TAKES_ENTRIES,
		.count = 12000,
	},
	[QUEUE_PUSH_POP] = {
		.name = names[QUEUE_PUSH_POP], .line = "queue_push_pop",
		.help = "16 pushes then 16 pops in a QUEUE",
		.unit = "ops", .ops = 2 * QUEUE_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(queue_map),
		.prog = METHOD_PROGS(queue_push_pop),
		.kind = &map_kind_push_pop, .takes = TAKES_ENTRIES,
		.count = 10000,
	},
	[STACK_PUSH_POP] = {
		.name = names[STACK_PUSH_POP], .line = "stack_push_pop",
		.help = "the same in a STACK",
		.unit = "ops", .ops = 2 * QUEUE_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(stack_map),
		.prog = METHOD_PROGS(stack_push_pop),
		.kind = &map_kind_push_pop, .takes = TAKES_ENTRIES,
		.count = 8000,
	},
	[TASK_STORAGE] = {
		.name = names[TASK_STORAGE], .line = "task_storage_get",
		.help = "32 bpf_task_storage_get on the current task",
		.unit = "lookups", .ops = TASK_STORAGE_OPS,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(task_storage_map),
		.prog = METHOD_PROGS(task_storage),
		.kind = &map_kind_prog,
		.helpers = { HELPER(get_current_task_btf),
			     HELPER(task_storage_get) },
	},
	[RINGBUF_RESERVE] = {
		.name = names[RINGBUF_RESERVE], .line = "ringbuf reserve/submit",
		.help = "16 records, bpf_ringbuf_reserve and\n"
			"bpf_ringbuf_submit",
		.unit = "records", .ops = RECORDS_PER_CALL,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(ringbuf_map),
		.prog = METHOD_PROGS(ringbuf_reserve),
		.kind = &map_kind_ringbuf,
		.takes = TAKES_RECORDS, .count = 5000,
		.helpers = { HELPER(ringbuf_reserve), HELPER(ringbuf_submit) },
	},
	[RINGBUF_OUTPUT] = {
		.name = names[RINGBUF_OUTPUT], .line = "ringbuf output",
		.help = "16 records by bpf_ringbuf_output",
		.unit = "records", .ops = RECORDS_PER_CALL,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(ringbuf_map),
		.prog = METHOD_PROGS(ringbuf_output),
		.kind = &map_kind_ringbuf, .record_bufs = true,
		.takes = TAKES_RECORDS, .count = 5000,
		.helpers = { HELPER(ringbuf_output) },
	},
	[PERFBUF_OUTPUT] = {
		.name = names[PERFBUF_OUTPUT], .line = "perfbuf output",
		.help = "16 records by bpf_perf_event_output",
		.unit = "records", .ops = RECORDS_PER_CALL,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(perfbuf_map),
		.prog = METHOD_PROGS(perfbuf_output),
		.kind = &map_kind_perfbuf, .record_bufs = true,
		.takes = TAKES_RECORDS, .count = 5000,
		.helpers = { HELPER(perf_event_output) },
	},
	SYS_TEST(SYS_HASH_LOOKUP, HASH, SYS_LOOKUP, "lookups", 1, 20000,
		 "no program: one BPF_MAP_LOOKUP_ELEM of a HASH per\n"
		 "worker call"),
	SYS_TEST(SYS_HASH_UPDATE, HASH, SYS_UPDATE, "updates", 1, 20000,
		 "one BPF_MAP_UPDATE_ELEM of a key"),
	SYS_TEST(SYS_HASH_DELETE, HASH, SYS_DELETE, "deletes+updates", 2, 10000,
		 "delete a key and put it back (2 ops)"),
	SYS_TEST(SYS_ARRAY_LOOKUP, ARRAY, SYS_LOOKUP, "lookups", 1, 20000,
		 "one lookup in an ARRAY"),
	SYS_TEST(SYS_ARRAY_UPDATE, ARRAY, SYS_UPDATE, "updates", 1, 20000,
		 "one update in an ARRAY"),
	SYS_TEST(BATCH_HASH_LOOKUP, HASH, SYS_BATCH_LOOKUP,
		 "elements", 1, 200000,
		 "a full dump of the HASH by bpf_map_lookup_batch"),
	SYS_TEST(BATCH_HASH_UPDATE, HASH, SYS_BATCH_UPDATE,
		 "elements", 1, 200000,
		 "the whole HASH by bpf_map_update_batch"),
	SYS_TEST(BATCH_ARRAY_LOOKUP, ARRAY, SYS_BATCH_LOOKUP,
		 "elements", 1, 200000,
		 "a full dump of the ARRAY"),
	SYS_TEST(BATCH_ARRAY_UPDATE, ARRAY, SYS_BATCH_UPDATE,
		 "elements", 1, 200000,
		 "the whole ARRAY in one call"),
};

/* an entry for the last id too (a designated table ends at its last) */
_Static_assert(ARRAY_SIZE(tests) == NR_TESTS,
	       "tests[] has an entry for each id of MAP_TESTS");
/* test t is selected by test_flags bit 1 << t */
_Static_assert(NR_TESTS <= 64, "every test has its test_flags bit");
