// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test: how fast BPF programs operate on each map type. Every
 * worker repeats one syscall on its own CPU; a BPF program attached to that
 * syscall does the test's map work, for the workers' processes only, and
 * counts what it did. A figure is shown only when those counts prove the
 * work was done: the program ran once per syscall on every worker's CPU,
 * lookups found what they should, updates succeeded. The same syscall
 * with nothing attached is measured too, so that a map operation's cost
 * is shown without the syscall's.
 *
 * This file is the family: its tests, its attach methods, its options and
 * its output. The runner (bench_main.c) does the rest.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <jansson.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_attach.h"
#include "bench_map_probe.h"
#include "bench_report.h"
#include "bench_util.h"
#include "map_perf_test.h"
#include "map_perf_kinds.h"
#include "map_perf_test_kern.skel.h"

#define DEFAULT_COUNT	50000ull
#define MAX_COUNT	10000000000ull
#define MAX_MAP_ENTRIES	(1u << 24)
#define LPM_PREFIXES	512	/* random prefixes around the /32 */
#define LRU_LOOKUP_SPAN	32	/* keys one LRU_HASH_LOOKUP event looks up */
/* values a sweep option takes at most */
#define MAX_SWEEP	32
#define DEFAULT_RECORD_SIZE	64
/* the user-space maps' size when --entries does not say */
#define SYS_ENTRIES	1000

/* the arch's syscall stubs, what fentry attaches to */
#if defined(__x86_64__)
#define SYS_PREFIX "__x64_sys_"
#elif defined(__aarch64__)
#define SYS_PREFIX "__arm64_sys_"
#elif defined(__s390x__)
#define SYS_PREFIX "__s390x_sys_"
#elif defined(__riscv)
#define SYS_PREFIX "__riscv_sys_"
#else
#define SYS_PREFIX "sys_"
#endif

/* ---- triggers: what every worker repeats ---- */

static void syscall_loop(long nr, __u64 count)
{
	__u64 i;

	/* the 0 is getpgid's "self", ignored by the others */
	for (i = 0; i < count; i++)
		syscall(nr, 0);
}

#define SYSCALL_TRIGGER(sc)						\
static void sc##_run(void *state, __u64 count)				\
{									\
	syscall_loop(__NR_##sc, count);					\
}

SYSCALL_TRIGGER(getuid)
SYSCALL_TRIGGER(geteuid)
SYSCALL_TRIGGER(getgid)
SYSCALL_TRIGGER(getegid)
SYSCALL_TRIGGER(gettid)
SYSCALL_TRIGGER(getpgid)
SYSCALL_TRIGGER(getppid)

static void connect_addr(struct sockaddr_in6 *in6, __u16 tcase)
{
	memset(in6, 0, sizeof(*in6));
	in6->sin6_family = AF_INET6;
	in6->sin6_addr.s6_addr16[0] = CONNECT_MAGIC0;
	in6->sin6_addr.s6_addr16[1] = CONNECT_MAGIC1;
	in6->sin6_addr.s6_addr16[2] = tcase;
}

/* the tests need connect(-1) to fail early, not to reach the network */
static int connect_setup(void **state)
{
	struct sockaddr_in6 in6;

	connect_addr(&in6, CASE_LRU_HASH);
	if (!connect(-1, (struct sockaddr *)&in6, sizeof(in6)))
		return -EPROTO;
	return errno == EBADF ? 0 : -errno;
}

static void connect_loop(__u16 tcase, __u64 count)
{
	struct sockaddr_in6 in6;
	__u64 i;

	connect_addr(&in6, tcase);
	for (i = 0; i < count; i++)
		connect(-1, (struct sockaddr *)&in6, sizeof(in6));
}

#define CONNECT_TRIGGER(name, tcase)					\
static void name##_run(void *state, __u64 count)			\
{									\
	connect_loop(tcase, count);					\
}

CONNECT_TRIGGER(lru_hash, CASE_LRU_HASH)
CONNECT_TRIGGER(nocommon_lru_hash, CASE_NOCOMMON_LRU_HASH)
CONNECT_TRIGGER(inner_lru_hash, CASE_INNER_LRU_HASH)

/*
 * The next 32 keys each time, back to 0 before a span would pass the
 * range. The key outlives the call: with -d the loop comes in chunks, and
 * the walk must go on as in one call for the hits expected of it. Each
 * worker is a process of its own, forked with the key at 0. The range,
 * in @state, is the row's: 32 keys, or its map's size when larger (as
 * upstream); a base row has none.
 */
static void lru_hash_lookup_run(void *state, __u64 count)
{
	__u32 lru_lookup_range = state ? *(__u32 *)state : LRU_LOOKUP_SPAN;
	static __u32 key;
	struct sockaddr_in6 in6;
	__u64 i;

	connect_addr(&in6, CASE_LRU_HASH_LOOKUP);
	for (i = 0; i < count; i++) {
		in6.sin6_addr.s6_addr32[3] = key;
		connect(-1, (struct sockaddr *)&in6, sizeof(in6));
		key = key + 2 * LRU_LOOKUP_SPAN <= lru_lookup_range ?
		      key + LRU_LOOKUP_SPAN : 0;
	}
}

/* ---- the tests ---- */

/* what the lookups of a run must find */
enum hits {
	HITS_ALL,	/* every lookup hits */
	HITS_NONE,	/* --miss: every lookup misses */
	HITS_KEPT,	/* as many as the keys the fill kept allow */
};

/* an inner map's definition, kept before load: libbpf then drops it */
struct map_def {
	enum bpf_map_type type;
	__u32 key_size;
	__u32 value_size;
	__u32 max_entries;
	__u32 flags;
	int tmpl_fd;		/* the template given to libbpf, until load */
};

/* how a test runs, beyond a program on the workers' syscalls */
enum test_shape {
	SHAPE_PROG,
	SHAPE_RINGBUF,		/* and a consumer on a CPU of its own */
	SHAPE_PERFBUF,
	SHAPE_SYSCALL,		/* no program: the workers' own bpf() calls */
};

/* what a test's row may be swept over */
#define TAKES_ENTRIES	(1u << 0)
#define TAKES_KEY_SIZE	(1u << 1)
#define TAKES_RECORDS	(1u << 2)	/* --wakeup, --record-size */

/* what a row runs with, beyond its test and method: its params */
struct row_settings {
	__u32 entries;		/* 0: the map's own size */
	__u32 key_size;		/* 0: the map's own */
	__u32 wakeup;		/* WAKEUP_* or N */
	__u32 record_size;
	int consumer_cpu;	/* -1: none */
};

/* what the summary gives of a row beyond events and hits */
struct map_totals {
	__u64 lookups, found;
	/* bloom filters: lookups of absent keys, and their hits */
	__u64 negatives, false_pos;
	/* ring and perf buffers */
	__u64 produced, consumed, dropped, lost;
	double consume_ns, consumer_cpu_ns;
};

/* one row's loaded object and what its verification needs */
struct map_row {
	const struct map_test *test;
	const struct attach_method *method;
	struct row_settings set;
	struct trigger trig;	/* the test's, with this row's arg */
	__u32 lru_range;	/* LRU_HASH_LOOKUP's keys: 0 .. this - 1 */
	__u64 *lru_kept;	/* [w]: keys the fill kept below window w */
	struct map_perf_test_kern *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	const char *hooked;
	struct map_def inner;
	__u32 entries;		/* the kernel's max_entries of the test's map */
	enum hits hits;
	struct map_perf_counters c;	/* the last sample's, every CPU */
	/* the last verified sample's, and those of the samples that count */
	struct map_totals last, total;
	/* ring and perf buffers: the consumer */
	struct consumer *consumer;
	/* user-space operations: the map, and the workers' counts */
	int sys_fd;
	struct sys_ctx sys;
	struct map_perf_counters *pc;	/* the last sample's, per CPU */
};

struct map_test {
	/* -t name, and its programs' suffix */
	const char *name;
	/* upstream's line for each worker: "<cpu>:<line> <n> <unit> per sec" */
	const char *line;
	bool per_lookup;	/* the line counts lookups, not events */
	unsigned int ops;	/* map operations per event */
	struct trigger trigger;
	const char *syscall;	/* the base row it is measured against */
	long nr;		/* the syscall number, raw_tp's filter */
	struct attach_target target;
	size_t map;		/* the map it uses, which -E resizes */
	size_t prog[4];		/* its program for each attach method */
	/* fills the map after load, before the workers start */
	int (*fill)(const struct run_settings *rs, struct map_row *r);
	bool miss;		/* --miss applies */
	enum test_shape shape;
	unsigned int takes;	/* TAKES_*: the sweeps that apply */
	/* helpers probed for the method's program type before load */
	struct helper {
		enum bpf_func_id id;
		const char *name;
	} helpers[3];
	/*
	 * events per worker and sample, 0: DEFAULT_COUNT; about 0.05 s of
	 * them on the project's 2-CPU VM, as the runner's -n promises: a
	 * short sample is as precise over a row's samples, and one that
	 * an interruption spoils costs less to run again
	 */
	__u64 count;
	const char *unit;	/* upstream line's unit: ops times events */
	/* SHAPE_SYSCALL: the map made in user space and the operation */
	enum bpf_map_type sys_type;
	enum sys_op sys_op;
};

#define SKEL_MAP(name)	offsetof(struct map_perf_test_kern, maps.name)
#define HELPER(name)	{ BPF_FUNC_##name, "bpf_" #name }
#define SKEL_PROG(name)	offsetof(struct map_perf_test_kern, progs.name)
/* in the order of methods[] */
#define METHOD_PROGS(test)						\
	{ SKEL_PROG(kprobe_##test), SKEL_PROG(fentry_##test),		\
	  SKEL_PROG(raw_tp_##test), SKEL_PROG(tracepoint_##test) }

static struct bpf_map *skel_map(const struct map_perf_test_kern *skel,
				size_t off)
{
	return *(struct bpf_map **)((char *)skel + off);
}

static struct bpf_program *skel_prog(const struct map_perf_test_kern *skel,
				     size_t off)
{
	return *(struct bpf_program **)((char *)skel + off);
}

/* max_entries as the kernel has it, proof that a resize took effect */
static int kernel_max_entries(int fd, __u32 *entries)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*entries = info.max_entries;
	return 0;
}

/* a list option's values, ascending, each once */
struct sweep {
	bool given;
	int nr;
	__u64 v[MAX_SWEEP];
};

static struct {
	bool tests_given;
	bool test_on[NR_TESTS];
	__u64 flags;		/* 0: every test */
	bool methods_given;
	bool method_on[4];
	struct sweep entries;	/* none given: every map keeps its size */
	struct sweep key_size;
	struct sweep wakeup;
	struct sweep record_size;
	bool scale;
	bool miss;
} opt;

/*
 * The fills leave out what --miss looks up; the test fault fill-all puts
 * it in anyway, for the tests to see a --miss lookup that hits fail.
 */
static bool fill_absent(const struct run_settings *rs)
{
	return opt.miss && run_fault(rs)->kind != BENCH_FAULT_FILL_ALL;
}

/* key 0 of the map's key size: the first 4 bytes, the rest zero */
static int fill_hash_lookup(const struct run_settings *rs, struct map_row *r)
{
	struct bpf_map *map = r->skel->maps.hash_map;
	__u8 key[MAX_KEY_SIZE] = {};
	__u32 k = LOOKUP_KEY;
	long val = 1;

	if (fill_absent(rs))
		return 0;
	memcpy(key, &k, sizeof(k));
	return bpf_map__update_elem(map, key, bpf_map__key_size(map), &val,
				    sizeof(val), BPF_ANY);
}

/* bloom filters: keys 0 .. max_entries - 1, the set the program knows */
static int fill_bloom(const struct run_settings *rs, struct map_row *r)
{
	int fd = bpf_map__fd(r->skel->maps.bloom_map);
	__u32 k;

	for (k = 0; k < r->entries; k++)
		if (bpf_map_update_elem(fd, NULL, &k, BPF_ANY))
			return -errno;
	return 0;
}

/* with --key-size, the data is key_size - 4 bytes: IPv6 is 20 */
struct lpm_key {
	__u32 prefixlen;
	__u8 data[MAX_KEY_SIZE - 4];
};

/*
 * 512 random prefixes, then 192.168.0.1/32 -> 128, in the LPM trie the
 * program searches. Under --miss, no prefix at all contains the address.
 * The same seed every run: every run searches the same trie.
 */
static int fill_lpm(const struct run_settings *rs, struct map_row *r)
{
	const __u8 addr4[4] = LPM_ADDR;
	struct bpf_map *map = r->skel->maps.lpm_trie_map_alloc;
	__u32 data = bpf_map__key_size(map) - 4, n = 0;
	__u8 addr[MAX_KEY_SIZE - 4] = {};
	int fd = bpf_map__fd(map);
	struct lpm_key key = {};
	long value = 0;
	__u32 i;

	/* the program looks up the address followed by zeros */
	memcpy(addr, addr4, sizeof(addr4));
	srand(1);
	while (n < LPM_PREFIXES && n < r->entries - !fill_absent(rs)) {
		key.prefixlen = rand() % (8 * data + 1);
		for (i = 0; i < data; i++)
			key.data[i] = rand() & 0xff;
		if (fill_absent(rs) && lpm_covers(key.prefixlen, key.data, addr))
			continue;
		if (bpf_map_update_elem(fd, &key, &value, BPF_ANY))
			return -errno;
		n++;
	}
	if (fill_absent(rs))
		return 0;
	key.prefixlen = 8 * data;
	memcpy(key.data, addr, data);
	value = LPM_VALUE;
	return bpf_map_update_elem(fd, &key, &value, BPF_ANY) ? -errno : 0;
}

/*
 * Filling an LRU map up to its size evicts some of the keys already in
 * it: each CPU takes free nodes in batches and evicts to complete a batch.
 * What the fill kept is read once it is done, before any run. Lookups
 * evict nothing, so each worker, walking the windows of 32 keys in order
 * (lru_hash_lookup_run), must find what the windows it looks up held
 * then: never a bound from the map after the run, which a map emptied
 * meanwhile would bring down to nothing. @kept[w]: keys the windows below
 * w kept.
 */
static void read_kept_keys(int fd, __u32 nr_windows, __u64 *kept)
{
	__u32 w, i, key;
	long val;

	kept[0] = 0;
	for (w = 0; w < nr_windows; w++) {
		kept[w + 1] = kept[w];
		for (i = 0; i < LRU_LOOKUP_SPAN; i++) {
			key = w * LRU_LOOKUP_SPAN + i;
			kept[w + 1] += !bpf_map_lookup_elem(fd, &key, &val);
		}
	}
}

/* the hits the workers' lookups must make; -d decides their counts */
static __u64 kept_keys_hits(const struct map_row *r,
			    const struct worker_result *res, int nr)
{
	__u32 nr_windows = r->lru_range / LRU_LOOKUP_SPAN;
	__u64 hits = 0;
	int k;

	for (k = 0; k < nr; k++)
		hits += kept_hits(r->lru_kept, nr_windows, res[k].events);
	return hits;
}

static int fill_lru_hash_lookup(const struct run_settings *rs, struct map_row *r)
{
	int fd = bpf_map__fd(r->skel->maps.lru_hash_lookup_map);
	__u32 key, nr_windows = r->lru_range / LRU_LOOKUP_SPAN;
	long val = 1;

	if (fill_absent(rs))
		return 0;
	for (key = 0; key < r->lru_range; key++)
		if (bpf_map_update_elem(fd, &key, &val, BPF_NOEXIST))
			return -errno;
	free(r->lru_kept);
	r->lru_kept = calloc(nr_windows + 1, sizeof(*r->lru_kept));
	if (!r->lru_kept)
		return -ENOMEM;
	read_kept_keys(fd, nr_windows, r->lru_kept);
	/* the test build's fault empty-map: the keys gone before the runs */
	if (run_fault(rs)->kind == BENCH_FAULT_EMPTY_MAP)
		for (key = 0; key < r->lru_range; key++)
			bpf_map_delete_elem(fd, &key);
	r->hits = HITS_KEPT;
	return 0;
}

/* the NUMA node of @cpu from sysfs; 0 on kernels without NUMA */
static int cpu_node(int cpu)
{
	char path[64];
	struct dirent *d;
	int node = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "node%d", &node) == 1)
			break;
	closedir(dir);
	return node;
}

/* one inner LRU map per worker CPU, on that CPU's node, in its slot */
static int fill_inner_lru(const struct run_settings *rs, struct map_row *r)
{
	int outer = bpf_map__fd(r->skel->maps.array_of_lru_hashs);
	const struct map_def *def = &r->inner;
	int i, fd, err = 0;
	__u32 cpu;

	for (i = 0; !err && i < rs->cpus.nr; i++) {
		LIBBPF_OPTS(bpf_map_create_opts, mopts,
			    .map_flags = def->flags,
			    .numa_node = cpu_node(rs->cpus.cpu[i]));

		cpu = rs->cpus.cpu[i];
		fd = bpf_map_create(def->type, "inner_lru_hash", def->key_size,
				    def->value_size, def->max_entries, &mopts);
		if (fd < 0)
			return -errno;
		err = kernel_max_entries(fd, &r->entries);
		/* the outer map keeps its own reference */
		if (!err && bpf_map_update_elem(outer, &cpu, &fd, BPF_ANY))
			err = -errno;
		close(fd);
	}
	return err;
}

/*
 * A test whose workers make syscall @sc. fentry tries the arch stub, then
 * __do_sys_<sc>: SYSCALL_DEFINE0's stubs are aliases of it, the one name
 * with BTF. raw_tp hooks sys_enter and keeps the syscall's number.
 */
#define SYSCALL_EVENT(sc)						\
	.trigger = { #sc, NULL, sc##_run },				\
	.syscall = #sc,							\
	.nr = __NR_##sc,						\
	.target = {							\
		.kfunc = { SYS_PREFIX #sc, "__do_sys_" #sc },		\
		.tp_category = "syscalls",				\
		.tp_name = "sys_enter_" #sc,				\
		.raw_tp_name = "sys_enter",				\
		.syscall = #sc,						\
	}

/* a connect() test; fentry reads the arguments from the stub's pt_regs */
#define CONNECT_EVENT(run)						\
	.trigger = { "connect", connect_setup, run },			\
	.syscall = "connect",						\
	.nr = __NR_connect,						\
	.target = {							\
		.kfunc = { SYS_PREFIX "connect" },			\
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
#define SYS_TEST(n, type, op, u, nr_ops, cnt)				\
	{								\
		.name = n, .line = n, .unit = u, .ops = nr_ops,		\
		.trigger = { "bpf", sys_setup, sys_run },		\
		.shape = SHAPE_SYSCALL, .count = cnt,			\
		.sys_type = BPF_MAP_TYPE_##type, .sys_op = op,		\
		.takes = TAKES_ENTRIES |				\
			 (BPF_MAP_TYPE_##type == BPF_MAP_TYPE_HASH ?	\
			  TAKES_KEY_SIZE : 0),				\
	}

static const struct map_test tests[NR_TESTS] = {
	[HASH_PREALLOC] = {
		.name = "hash_prealloc", .line = "hash_map_perf pre-alloc",
		.ops = 30, SYSCALL_EVENT(getuid), .map = SKEL_MAP(hash_map),
		.prog = METHOD_PROGS(hash_prealloc),
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 15000,
	},
	[PERCPU_HASH_PREALLOC] = {
		.name = "percpu_hash_prealloc",
		.line = "percpu_hash_map_perf pre-alloc",
		.ops = 30, SYSCALL_EVENT(geteuid),
		.map = SKEL_MAP(percpu_hash_map),
		.prog = METHOD_PROGS(percpu_hash_prealloc),
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 12000,
	},
	[HASH_KMALLOC] = {
		.name = "hash_kmalloc", .line = "hash_map_perf kmalloc",
		.ops = 30, SYSCALL_EVENT(getgid),
		.map = SKEL_MAP(hash_map_alloc),
		.prog = METHOD_PROGS(hash_kmalloc),
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 14000,
	},
	[PERCPU_HASH_KMALLOC] = {
		.name = "percpu_hash_kmalloc",
		.line = "percpu_hash_map_perf kmalloc",
		.ops = 30, SYSCALL_EVENT(getegid),
		.map = SKEL_MAP(percpu_hash_map_alloc),
		.prog = METHOD_PROGS(percpu_hash_kmalloc),
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 11000,
	},
	[LRU_HASH_PREALLOC] = {
		.name = "lru_hash_prealloc",
		.line = "lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(lru_hash_run),
		.map = SKEL_MAP(lru_hash_map),
		.prog = METHOD_PROGS(lru_hash_prealloc),
		.takes = TAKES_ENTRIES,
	},
	[NOCOMMON_LRU_HASH_PREALLOC] = {
		.name = "nocommon_lru_hash_prealloc",
		.line = "nocommon_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(nocommon_lru_hash_run),
		.map = SKEL_MAP(nocommon_lru_hash_map),
		.prog = METHOD_PROGS(nocommon_lru_hash_prealloc),
		.takes = TAKES_ENTRIES,
	},
	[LPM_KMALLOC] = {
		.name = "lpm_kmalloc", .line = "lpm_perf kmalloc",
		.ops = 32, SYSCALL_EVENT(gettid),
		.map = SKEL_MAP(lpm_trie_map_alloc),
		.prog = METHOD_PROGS(lpm_kmalloc),
		.fill = fill_lpm, .miss = true,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 20000,
	},
	[HASH_LOOKUP] = {
		.name = "hash_lookup", .line = "hash_lookup",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(hash_map), .prog = METHOD_PROGS(hash_lookup),
		.fill = fill_hash_lookup, .miss = true,
		.takes = TAKES_ENTRIES | TAKES_KEY_SIZE,
		.count = 15000,
	},
	[ARRAY_LOOKUP] = {
		.name = "array_lookup", .line = "array_lookup",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getppid),
		.map = SKEL_MAP(array_map), .prog = METHOD_PROGS(array_lookup),
		.takes = TAKES_ENTRIES,
	},
	[INNER_LRU_HASH_PREALLOC] = {
		.name = "inner_lru_hash_prealloc",
		.line = "inner_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(inner_lru_hash_run),
		.map = SKEL_MAP(array_of_lru_hashs),
		.prog = METHOD_PROGS(inner_lru_hash_prealloc),
		.fill = fill_inner_lru, .takes = TAKES_ENTRIES,
	},
	[LRU_HASH_LOOKUP] = {
		.name = "lru_hash_lookup",
		.line = "lru_hash_lookup_perf pre-alloc",
		.ops = 32, CONNECT_EVENT(lru_hash_lookup_run),
		.map = SKEL_MAP(lru_hash_lookup_map),
		.prog = METHOD_PROGS(lru_hash_lookup),
		.fill = fill_lru_hash_lookup, .miss = true,
		.takes = TAKES_ENTRIES,
		.count = 25000,
	},
	[BLOOM_LOOKUP] = {
		.name = "bloom_lookup", .line = "bloom_lookup",
		.unit = "lookups", .ops = BLOOM_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(bloom_map), .prog = METHOD_PROGS(bloom_lookup),
		.fill = fill_bloom, .takes = TAKES_ENTRIES,
		.count = 15000,
	},
	[BLOOM_UPDATE] = {
		.name = "bloom_update", .line = "bloom_update",
		.unit = "updates", .ops = BLOOM_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(bloom_map), .prog = METHOD_PROGS(bloom_update),
		.fill = fill_bloom, .takes = TAKES_ENTRIES,
		.count = 12000,
	},
	[QUEUE_PUSH_POP] = {
		.name = "queue_push_pop", .line = "queue_push_pop",
		.unit = "ops", .ops = 2 * QUEUE_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(queue_map),
		.prog = METHOD_PROGS(queue_push_pop), .takes = TAKES_ENTRIES,
		.count = 10000,
	},
	[STACK_PUSH_POP] = {
		.name = "stack_push_pop", .line = "stack_push_pop",
		.unit = "ops", .ops = 2 * QUEUE_OPS, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(stack_map),
		.prog = METHOD_PROGS(stack_push_pop), .takes = TAKES_ENTRIES,
		.count = 8000,
	},
	[TASK_STORAGE] = {
		.name = "task_storage", .line = "task_storage_get",
		.unit = "lookups", .ops = TASK_STORAGE_OPS,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(task_storage_map),
		.prog = METHOD_PROGS(task_storage),
		.helpers = { HELPER(get_current_task_btf),
			     HELPER(task_storage_get) },
	},
	[RINGBUF_RESERVE] = {
		.name = "ringbuf_reserve", .line = "ringbuf reserve/submit",
		.unit = "records", .ops = RECORDS_PER_CALL,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(ringbuf_map),
		.prog = METHOD_PROGS(ringbuf_reserve), .shape = SHAPE_RINGBUF,
		.takes = TAKES_RECORDS, .count = 5000,
		.helpers = { HELPER(ringbuf_reserve), HELPER(ringbuf_submit) },
	},
	[RINGBUF_OUTPUT] = {
		.name = "ringbuf_output", .line = "ringbuf output",
		.unit = "records", .ops = RECORDS_PER_CALL,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(ringbuf_map),
		.prog = METHOD_PROGS(ringbuf_output), .shape = SHAPE_RINGBUF,
		.takes = TAKES_RECORDS, .count = 5000,
		.helpers = { HELPER(ringbuf_output) },
	},
	[PERFBUF_OUTPUT] = {
		.name = "perfbuf_output", .line = "perfbuf output",
		.unit = "records", .ops = RECORDS_PER_CALL,
		SYSCALL_EVENT(getpgid), .map = SKEL_MAP(perfbuf_map),
		.prog = METHOD_PROGS(perfbuf_output), .shape = SHAPE_PERFBUF,
		.takes = TAKES_RECORDS, .count = 5000,
		.helpers = { HELPER(perf_event_output) },
	},
	[SYS_HASH_LOOKUP] = SYS_TEST("sys_hash_lookup", HASH, SYS_LOOKUP,
				     "lookups", 1, 20000),
	[SYS_HASH_UPDATE] = SYS_TEST("sys_hash_update", HASH, SYS_UPDATE,
				     "updates", 1, 20000),
	[SYS_HASH_DELETE] = SYS_TEST("sys_hash_delete", HASH, SYS_DELETE,
				     "deletes+updates", 2, 10000),
	[SYS_ARRAY_LOOKUP] = SYS_TEST("sys_array_lookup", ARRAY, SYS_LOOKUP,
				      "lookups", 1, 20000),
	[SYS_ARRAY_UPDATE] = SYS_TEST("sys_array_update", ARRAY, SYS_UPDATE,
				      "updates", 1, 20000),
	[BATCH_HASH_LOOKUP] = SYS_TEST("batch_hash_lookup", HASH,
				       SYS_BATCH_LOOKUP, "elements", 1, 200000),
	[BATCH_HASH_UPDATE] = SYS_TEST("batch_hash_update", HASH,
				       SYS_BATCH_UPDATE, "elements", 1, 200000),
	[BATCH_ARRAY_LOOKUP] = SYS_TEST("batch_array_lookup", ARRAY,
					SYS_BATCH_LOOKUP, "elements", 1, 200000),
	[BATCH_ARRAY_UPDATE] = SYS_TEST("batch_array_update", ARRAY,
					SYS_BATCH_UPDATE, "elements", 1, 200000),
};

/* ---- attach methods ---- */

struct attach_method {
	const char *name;	/* -a name */
	const struct attach_kind *kind;
};

/*
 * -a auto tries them in this order: upstream's kprobes first, then the
 * syscall's function, then sys_enter. A syscall tracepoint is perf's own
 * hook on sys_enter, the syscall picked by a bitmap: raw_tp is the same
 * hook with the pick in the program, and comes first. Its link also
 * detaches at once, where closing a tracepoint's perf event waits for
 * the tracepoint's RCU grace periods (78 ms on a 2-CPU VM, for every
 * sample of every row). -a tracepoint still runs the tracepoints.
 */
static const struct attach_method methods[] = {
	{ "kprobe", &kind_ksyscall },
	{ "fentry", &kind_fentry },
	{ "raw_tp", &kind_raw_tp },
	{ "tracepoint", &kind_tracepoint },
};
#define NR_METHODS ((int)ARRAY_SIZE(methods))

/* ---- options ---- */

enum {
	OPT_MISS = 0x200,
	OPT_KEY_SIZE,
	OPT_SCALE,
	OPT_WAKEUP,
	OPT_RECORD_SIZE,
};

static const struct bench_option options[] = {
	{ "tests", 't', "LIST", "tests to run, comma-separated (default: all)",
	  USE_SELECT },
	{ "entries", 'E', "LIST",
	  "map sizes: each test with a map to size runs at\n"
	  "each, e.g. 1000,10000,100000 (0: keep sizes)", USE_SELECT },
	{ "key-size", OPT_KEY_SIZE, "LIST",
	  "key sizes in bytes (4 to 256) for the hash and\n"
	  "LPM tests, each run at each (LPM: 5 or more)", USE_RUN },
	{ "scale", OPT_SCALE, NULL,
	  "run each test on 1, 2, ... all the selected CPUs\n"
	  "and report the rate per CPU at each count", USE_RUN },
	{ "wakeup", OPT_WAKEUP, "LIST",
	  "ring/perf buffer wake-ups: every (each record),\n"
	  "poll (none: the consumer polls), N (every Nth\n"
	  "record), adaptive (ring buffer: the kernel's\n"
	  "default) (default: adaptive,every,64,poll)", USE_RUN },
	{ "record-size", OPT_RECORD_SIZE, "LIST",
	  "ring/perf buffer record sizes in bytes, 16 to\n"
	  "4096 in steps of 8 (default 64)", USE_RUN },
	{ "attach", 'a', "LIST",
	  "how the programs see the syscalls: kprobe (ksyscall,\n"
	  "as upstream), fentry, raw_tp (sys_enter),\n"
	  "tracepoint (sys_enter_<name>), a list of them, all,\n"
	  "or auto (default): the first of them that works here", USE_SELECT },
	{ "miss", OPT_MISS, NULL,
	  "look up absent keys on purpose (lpm_kmalloc,\n"
	  "hash_lookup, lru_hash_lookup): every lookup must miss", USE_SELECT },
	{}
};

static const char *test_names[NR_TESTS];

/* "0" keeps every map's size; a list sizes the maps, row by row */
static int parse_entries(const char *s, const char *what, bool list)
{
	struct sweep *e = &opt.entries;
	__u64 v;

	if (e->given) {
		pr_err("give the map size once: num_map_entries or -E");
		return -1;
	}
	e->given = true;
	if (!parse_u64(s, 0, 0, &v))
		return 0;	/* 0: keep sizes, as upstream */
	if (!list && !parse_u64(s, 1, MAX_MAP_ENTRIES, &v)) {
		e->v[e->nr++] = v;
		return 0;
	}
	if (list && !parse_u64_list(s, 1, MAX_MAP_ENTRIES, e->v, MAX_SWEEP,
				    &e->nr))
		return 0;
	pr_err("bad %s '%s': %s1 to %u%s", what, printable(s),
	       list ? "a list of sizes from " : "0 (keep each map's size) or ",
	       MAX_MAP_ENTRIES, list ? " (at most 32), or 0 to keep sizes" : "");
	return -1;
}

static int parse_sweep(const char *s, const char *what, __u64 min, __u64 max,
		       __u64 step, struct sweep *sw)
{
	int i;

	if (sw->given) {
		pr_err("give %s once", what);
		return -1;
	}
	sw->given = true;
	if (parse_u64_list(s, min, max, sw->v, MAX_SWEEP, &sw->nr))
		goto bad;
	for (i = 0; i < sw->nr; i++)
		if (sw->v[i] % step)
			goto bad;
	return 0;
bad:
	pr_err("bad %s '%s': a list of %llu to %llu%s, at most %d values",
	       what, printable(s), min, max,
	       step > 1 ? " in steps of 8" : "", MAX_SWEEP);
	return -1;
}

/* "poll", "every", "adaptive" or N: the order given, each once */
static int parse_wakeup(const char *arg)
{
	struct sweep *sw = &opt.wakeup;
	char *copy = strdup(arg), *tok, *save = NULL;
	__u64 v;
	int i;

	if (!copy || sw->given) {
		pr_err("give --wakeup once");
		free(copy);
		return -1;
	}
	sw->given = true;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "poll"))
			v = WAKEUP_POLL;
		else if (!strcmp(tok, "every"))
			v = WAKEUP_EVERY;
		else if (!strcmp(tok, "adaptive"))
			v = WAKEUP_ADAPTIVE;
		else if (parse_u64(tok, 1, 1u << 20, &v))
			goto bad;
		for (i = 0; i < sw->nr; i++)
			if (sw->v[i] == v)
				goto bad;
		if (sw->nr == MAX_SWEEP)
			goto bad;
		sw->v[sw->nr++] = v;
	}
	if (!sw->nr)
		goto bad;
	free(copy);
	return 0;
bad:
	pr_err("bad --wakeup '%s': a list of every, poll, adaptive or N (1 to 1048576: every Nth record), each once",
	       printable(arg));
	free(copy);
	return -1;
}

static int parse_methods(const char *s)
{
	const char *names[NR_METHODS];
	int i;

	opt.methods_given = strcmp(s, "auto");
	if (!opt.methods_given)
		return 0;
	if (!strcmp(s, "all")) {
		for (i = 0; i < NR_METHODS; i++)
			opt.method_on[i] = true;
		return 0;
	}
	for (i = 0; i < NR_METHODS; i++)
		names[i] = methods[i].name;
	return parse_name_list(s, "attach method", names, NR_METHODS,
			       opt.method_on);
}

static int parse_option(int key, const char *arg)
{
	int t;

	switch (key) {
	case 't':
		for (t = 0; t < NR_TESTS; t++)
			test_names[t] = tests[t].name;
		opt.tests_given = true;
		return parse_name_list(arg, "test", test_names, NR_TESTS,
				       opt.test_on);
	case 'E':
		return parse_entries(arg, "map entries", true);
	case OPT_KEY_SIZE:
		return parse_sweep(arg, "--key-size", 4, MAX_KEY_SIZE, 1,
				   &opt.key_size);
	case OPT_SCALE:
		opt.scale = true;
		return 0;
	case OPT_WAKEUP:
		return parse_wakeup(arg);
	case OPT_RECORD_SIZE:
		return parse_sweep(arg, "--record-size", MIN_RECORD_SIZE,
				   MAX_RECORD_SIZE, 8, &opt.record_size);
	case 'a':
		return parse_methods(arg);
	case OPT_MISS:
		opt.miss = true;
		return 0;
	}
	return -1;
}

static bool test_selected(int t);

static bool test_selected(int t);

/* the positional arguments, upstream's order; each given once */
static int parse_args(int argc, char **argv)
{
	int t;

	if (argc > 4) {
		pr_err("too many arguments (see --help)");
		return -1;
	}
	if (argc > 0 && parse_u64(argv[0], 1, ~0ull, &opt.flags)) {
		pr_err("bad test_flags '%s': a non-zero number such as 0x180",
		       printable(argv[0]));
		return -1;
	}
	if (opt.flags >> NR_TESTS) {
		pr_err("test_flags 0x%llx: bits 0x%llx select nothing (see --help)",
		       opt.flags, opt.flags & ~((1ull << NR_TESTS) - 1));
		return -1;
	}
	if ((argc > 1 && bench_cpus_arg(argv[1], "nr_cpus")) ||
	    (argc > 2 && parse_entries(argv[2], "num_map_entries", false)) ||
	    (argc > 3 && bench_count_arg(argv[3], MAX_COUNT, "max_cnt")))
		return -1;
	for (t = 0; opt.miss && opt.tests_given && t < NR_TESTS; t++) {
		if (opt.test_on[t] && !tests[t].miss) {
			pr_err("--miss applies to lpm_kmalloc, hash_lookup and lru_hash_lookup, not %s",
			       tests[t].name);
			return -1;
		}
	}
	/* a usage error, said before the lock, privileges or any probe */
	for (t = 0; t < NR_TESTS && !test_selected(t); t++)
		;
	if (t == NR_TESTS) {
		pr_err("nothing selected: test_flags, -t and --miss leave no test");
		return -1;
	}
	return 0;
}

static void usage_tables(FILE *f)
{
	int t;

	fprintf(f,
"\ntest_flags (upstream-compatible; default: all): bit 1<<N selects test N:\n");
	for (t = 0; t < NR_TESTS; t++)
		fprintf(f, "  %2d  0x%07x  %-26s %s, %u %s\n", t, 1u << t,
			tests[t].name, tests[t].syscall ?: "its own bpf() calls",
			tests[t].ops, tests[t].unit ?: tests[t].ops > 1 ?
			"map ops" : "map op");
	fprintf(f, "nr_cpus: as -c N; num_map_entries: as -E; max_cnt: as -n.\n");
	fprintf(f,
"\nOutput: upstream's lines (\"<cpu>:<test> <N> events per sec\" per worker,\n"
"its median over the samples) for upstream's tests, bits 0-10; for every test\n"
"when test_flags is given or with -v. Then the summary: a row per test and\n"
"method, and the skipped rows, one line per reason (--json has each row).\n"
"  ns/op      ns per map operation, the syscall's own cost (its base row)\n"
"             taken out (syscall rows: the bpf() call's whole cost per op)\n"
"  map ops/s  operations per second with the syscall's cost in (ring and\n"
"             perf buffers: records produced)\n"
"  hits       the share of lookups that found their key\n"
"  calls/syscalls  the workers' program runs (or checked bpf() results)\n"
"             inside their loops against the syscalls made\n"
"  [..]       the row's parameters (wakeup -1: adaptive, 0: poll, N: every\n"
"             Nth record)\n"
"  consumed   the consumer's records per second while they flowed, on its\n"
"             own CPU\n"
"  prog       --prog-stats: ns inside the program per run, by the kernel's\n"
"             run-time stats in a pass of their own, less their clock reads\n"
"             (measured on an empty program)\n");
}

/* ---- rows ---- */

static bool test_selected(int t)
{
	if (opt.tests_given && !opt.test_on[t])
		return false;
	if (opt.flags && !(opt.flags & (1ull << t)))
		return false;
	/* --miss alone keeps the tests it applies to */
	return !opt.miss || tests[t].miss;
}

/*
 * -a auto: the first method that loads array_lookup's program, the
 * lightest. A method that fails for a reason other than the kernel's
 * stops the search: a fallback must not hide a bug.
 */
static int open_test(const struct run_settings *rs, struct map_row *r,
		     struct outcome *out);

static int pick_method(const struct run_settings *rs, struct outcome *none)
{
	char why[4 * REASON_LEN];
	struct outcome out;
	struct map_row r;
	size_t off = 0;
	int m, err;

	why[0] = '\0';
	for (m = 0; m < NR_METHODS; m++) {
		memset(&r, 0, sizeof(r));
		memset(&out, 0, sizeof(out));
		r.test = &tests[ARRAY_LOOKUP];
		r.method = &methods[m];
		err = open_test(rs, &r, &out);
		map_perf_test_kern__destroy(r.skel);
		if (!err) {
			if (why[0])
				pr_note("auto attach: %s; using %s", why,
					methods[m].name);
			return m;
		}
		off += snprintf(why + off, off < sizeof(why) ? sizeof(why) - off : 0,
				"%s%s %s: %s", off ? "; " : "", methods[m].name,
				status_name(out.status), out.reason);
		if (out.status == ST_FAILED)
			break;
	}
	outcome_set(none, m < NR_METHODS ? ST_FAILED : ST_SKIPPED,
		    "no attach method works here: %.150s", why);
	return -1;
}

/*
 * The CPU lists rows run on: the first n of the selected CPUs, n = 1 ..
 * all. They share the selected list's array.
 */
static struct cpu_list *prefix_cpus;

static int make_prefixes(const struct cpu_list *selected)
{
	int n, nr = selected->nr;

	prefix_cpus = calloc(nr ?: 1, sizeof(*prefix_cpus));
	if (!prefix_cpus)
		return -ENOMEM;
	for (n = 1; n <= nr; n++)
		prefix_cpus[n - 1] = (struct cpu_list){ n, selected->cpu };
	return 0;
}

static bool has_consumer(const struct map_test *test)
{
	return test->shape == SHAPE_RINGBUF || test->shape == SHAPE_PERFBUF;
}

/*
 * How many workers each row of @test has: every selected CPU, or with
 * --scale 1, 2, ... of them; a buffer's consumer takes the last CPU.
 * The counts in @nr (ascending); how many there are.
 */
static int worker_counts(const struct cpu_list *selected,
			 const struct map_test *test, bool all, int *nr)
{
	int most = selected->nr - has_consumer(test), n, k = 0;

	if (all || most < 1)
		return 0;
	for (n = opt.scale ? 1 : most; n <= most; n++)
		nr[k++] = n;
	return k;
}

/* the syscall with nothing attached, once per syscall and worker count */
static struct bench_row *base_row(const struct run_settings *rs,
				  struct bench_rows *rows, int t,
				  const struct cpu_list *cpus)
{
	struct bench_row *row;
	int i;

	for (i = 0; i < rows->nr; i++)
		if (!rows->row[i].runs_prog && rows->row[i].cpus == cpus &&
		    !strcmp(rows->row[i].variant, tests[t].syscall))
			return &rows->row[i];
	row = bench_add_row(rows, "base", tests[t].syscall);
	if (!row)
		return NULL;
	row->cpus = cpus;
	row->trigger = &tests[t].trigger;
	row->count = DEFAULT_COUNT;
	/* a buffer's producers leave the consumer a CPU: their base too */
	if (opt.scale || cpus->nr != rs->cpus.nr)
		row_add_param(row, "cpus", cpus->nr);
	return row;
}

/* the row's parameters, in JSON and --compare: what tells its curve */
static void add_params(struct bench_row *row, const struct map_test *test,
		       const struct row_settings *set)
{
	if (set->entries)
		row_add_param(row, "entries", set->entries);
	if (set->key_size)
		row_add_param(row, "key_size", set->key_size);
	if (test->takes & TAKES_RECORDS) {
		/* adaptive as -1: the kernel's own choice, not a count */
		row_add_param(row, "wakeup", set->wakeup == WAKEUP_ADAPTIVE ?
			      -1 : (long long)set->wakeup);
		row_add_param(row, "record_size", set->record_size);
	}
	if (opt.scale)
		row_add_param(row, "cpus", row->cpus->nr);
}

static struct bench_row *add_test_row(struct bench_rows *rows, int t, int m,
				      struct outcome *why,
				      const struct row_settings *set,
				      const struct cpu_list *cpus)
{
	const struct map_test *test = &tests[t];
	struct bench_row *row;
	struct map_row *r;

	r = calloc(1, sizeof(*r));
	row = bench_add_row(rows, test->name, test->shape == SHAPE_SYSCALL ?
			    "syscall" : m >= 0 ? methods[m].name : "auto");
	if (!r || !row)
		return NULL;
	r->test = test;
	r->method = m >= 0 && test->shape != SHAPE_SYSCALL ? &methods[m] : NULL;
	r->set = *set;
	r->sys_fd = -1;
	r->trig = test->trigger;
	r->lru_range = set->entries > LRU_LOOKUP_SPAN ? set->entries :
		       LRU_LOOKUP_SPAN;
	r->trig.arg = test->shape == SHAPE_SYSCALL ? (void *)&r->sys :
		      (void *)&r->lru_range;
	if (test->shape == SHAPE_SYSCALL && test->sys_op >= SYS_BATCH_LOOKUP)
		r->trig.events_per_call = set->entries ?: SYS_ENTRIES;
	row->priv = r;
	row->cpus = cpus;
	row->trigger = &r->trig;
	row->count = test->count ?: DEFAULT_COUNT;
	/*
	 * A wake-up every few records costs a wake-up of the consumer each
	 * (every record: 140 us a syscall here, against 4 us with one every
	 * 64): fewer syscalls a sample, for about as long a sample
	 */
	if (has_consumer(test) && set->wakeup != WAKEUP_ADAPTIVE &&
	    set->wakeup != WAKEUP_POLL && set->wakeup < RECORDS_PER_CALL)
		row->count = row->count * set->wakeup / RECORDS_PER_CALL;
	/*
	 * How a buffer's consumer keeps up depends on how long it runs:
	 * paced samples (0.01 s) gave these rows 13-54% below their own
	 * counts' (wakeup 64 and adaptive; 4 alternating runs of paced and
	 * unpaced builds, 2026-12-02), beyond their spread. The other rows
	 * agreed within it.
	 */
	row->unpaced = has_consumer(test);
	/*
	 * Where the kernel puts a map's memory changes its speed: one load
	 * of percpu_hash_kmalloc measured 36.5 ns/op, another 99.6, in runs
	 * 20 s apart. A map loaded afresh each session makes a run's figure
	 * an average over loads (52.6-54.5 in 4 runs), and its interval
	 * shows their spread.
	 */
	row->reload = true;
	row->runs_prog = true;
	add_params(row, test, set);
	if (why && why->status != ST_OK)
		row->out = *why;
	return row;
}

/* a sweep's values, or the one default when it does not apply */
static const struct sweep *sweep_or(const struct sweep *sw, bool applies,
				    __u64 dflt, struct sweep *one)
{
	*one = (struct sweep){ .nr = 1, .v = { dflt } };
	return applies && sw->nr ? sw : one;
}

static const struct sweep default_wakeups = {
	.nr = 4, .v = { WAKEUP_ADAPTIVE, WAKEUP_EVERY, 64, WAKEUP_POLL },
};

/* whether a row of @test at @set can be made at all */
static bool row_applies(const struct map_test *test,
			const struct row_settings *set)
{
	/* the perf buffer's wake-ups are the perf event's: no adaptive */
	if (test->shape == SHAPE_PERFBUF && set->wakeup == WAKEUP_ADAPTIVE)
		return false;
	/* an LPM key is a 4-byte prefix length and at least a byte */
	return !(test - tests == LPM_KMALLOC && set->key_size &&
		 set->key_size < 5);
}

/* every row of test @t with method @m: one per value of each sweep */
static int add_test_rows(const struct run_settings *rs,
			 struct bench_rows *rows, int t, int m,
			 struct outcome *why, bool all)
{
	const struct map_test *test = &tests[t];
	struct sweep o1, o2, o3, o4;
	const struct sweep *E, *K, *W, *R;
	struct row_settings set = { .consumer_cpu = -1 };
	struct outcome alone = {};
	int e, k, w, r, c, nc, nr[1024];

	E = sweep_or(&opt.entries, !all && test->takes & TAKES_ENTRIES, 0, &o1);
	K = sweep_or(&opt.key_size, !all && test->takes & TAKES_KEY_SIZE, 0,
		     &o2);
	W = sweep_or(opt.wakeup.nr ? &opt.wakeup : &default_wakeups,
		     !all && test->takes & TAKES_RECORDS,
		     test->shape == SHAPE_PERFBUF ? WAKEUP_EVERY :
		     WAKEUP_ADAPTIVE, &o3);
	R = sweep_or(&opt.record_size, !all && test->takes & TAKES_RECORDS,
		     DEFAULT_RECORD_SIZE, &o4);
	nc = worker_counts(&rs->cpus, test, all, nr);
	if (has_consumer(test) && !all && rs->cpus.nr < 2)
		outcome_set(&alone, ST_SKIPPED,
			    "one CPU selected: the consumer needs one of its own beside the producers' (-c 2 or more)");
	if (has_consumer(test) && rs->cpus.nr >= 2)
		set.consumer_cpu = rs->cpus.cpu[rs->cpus.nr - 1];
	if (!nc) {
		/* --list, or a row that says why it cannot run */
		set.wakeup = W->v[0];
		set.record_size = R->v[0];
		return add_test_row(rows, t, m, alone.status ? &alone : why,
				    &set, &rs->cpus) ? 0 : -ENOMEM;
	}
	for (e = 0; e < E->nr; e++)
	for (k = 0; k < K->nr; k++)
	for (w = 0; w < W->nr; w++)
	for (r = 0; r < R->nr; r++)
	for (c = 0; c < nc; c++) {
		set.entries = E->v[e];
		set.key_size = K->v[k];
		set.wakeup = W->v[w];
		set.record_size = R->v[r];
		if (!row_applies(test, &set))
			continue;
		if (!add_test_row(rows, t, m, why, &set,
				  &prefix_cpus[nr[c] - 1]))
			return -ENOMEM;
	}
	return 0;
}

/* base rows first, for every worker count a test of a syscall uses */
static int add_base_rows(const struct run_settings *rs,
			 struct bench_rows *rows, bool all)
{
	int t, c, nc, nr[1024];

	for (t = 0; t < NR_TESTS; t++) {
		if (!test_selected(t) || tests[t].shape == SHAPE_SYSCALL)
			continue;
		nc = worker_counts(&rs->cpus, &tests[t], all, nr);
		if (!nc && !base_row(rs, rows, t, &rs->cpus))
			return -ENOMEM;
		for (c = 0; c < nc; c++)
			if (!base_row(rs, rows, t, &prefix_cpus[nr[c] - 1]))
				return -ENOMEM;
	}
	return 0;
}

static void note_skipped_sizes(void)
{
	int k;

	for (k = 0; k < opt.key_size.nr; k++)
		if (opt.key_size.v[k] < 5 && test_selected(LPM_KMALLOC))
			pr_note("--key-size %llu: lpm_kmalloc's keys need 5 bytes or more; it runs at the other sizes",
				opt.key_size.v[k]);
}

/* what auto picked, for the JSON's context; -1 before or without */
static int auto_picked = -1;

/* the method every test row uses, or -1 when rows differ */
static int context_method(void)
{
	int m, one = -1;

	if (!opt.methods_given)
		return auto_picked;
	for (m = 0; m < NR_METHODS; m++) {
		if (!opt.method_on[m])
			continue;
		if (one >= 0)
			return -1;
		one = m;
	}
	return one;
}

static int setup(const struct run_settings *rs, struct bench_rows *rows)
{
	struct outcome none = {};
	bool listing = rs->list;
	int t, m, i, err, picked = -1;

	if (rs->cpus.nr > 1024) {
		pr_err("%d CPUs: map_perf_test covers 1024", rs->cpus.nr);
		return -E2BIG;
	}
	if (make_prefixes(&rs->cpus))
		return -ENOMEM;
	/* a listing probes nothing: auto lists every method */
	if (!listing && !opt.methods_given)
		picked = auto_picked = pick_method(rs, &none);
	if (!listing)
		note_skipped_sizes();
	/* base rows first: every test's overhead is against one */
	err = add_base_rows(rs, rows, listing);
	for (m = 0; !err && m < NR_METHODS; m++) {
		bool on = opt.methods_given ? opt.method_on[m] :
			  listing || m == picked;

		for (t = 0; !err && on && t < NR_TESTS; t++)
			if (test_selected(t) && tests[t].shape != SHAPE_SYSCALL)
				err = add_test_rows(rs, rows, t, m, NULL,
						    listing);
	}
	/* no method works: every test says why, as a row of its own */
	for (t = 0; !err && !listing && picked < 0 && !opt.methods_given &&
	     t < NR_TESTS; t++)
		if (test_selected(t) && tests[t].shape != SHAPE_SYSCALL)
			err = add_test_rows(rs, rows, t, -1, &none, true);
	/* no program, no method: once */
	for (t = 0; !err && t < NR_TESTS; t++)
		if (test_selected(t) && tests[t].shape == SHAPE_SYSCALL)
			err = add_test_rows(rs, rows, t, -1, NULL, listing);
	if (err)
		return err;
	if (rows->nr == 0) {
		pr_err("nothing selected: test_flags, -t and --miss leave no test");
		return -EINVAL;
	}
	/* the rows are all in: point each test at its syscall's base */
	for (i = 0; i < rows->nr; i++) {
		struct map_row *r = rows->row[i].priv;

		if (r && r->test->shape != SHAPE_SYSCALL)
			rows->row[i].base = base_row(rs, rows, r->test - tests,
						     rows->row[i].cpus);
	}
	return 0;
}

/* ---- one row's program ---- */

/*
 * The template of a map of maps' inner maps, as ours: libbpf 1.1 cannot
 * resize its own (bpf_map__set_max_entries() on it crashes), and the fill
 * needs the definition after load, when libbpf has dropped its template.
 */
static int set_inner_template(struct bpf_map *outer, __u32 entries,
			      struct map_def *def, struct outcome *out)
{
	struct bpf_map *tmpl = bpf_map__inner_map(outer);
	LIBBPF_OPTS(bpf_map_create_opts, mopts);
	int fd, err;

	*def = (struct map_def) {
		.type = bpf_map__type(tmpl),
		.key_size = bpf_map__key_size(tmpl),
		.value_size = bpf_map__value_size(tmpl),
		.max_entries = entries ?: bpf_map__max_entries(tmpl),
		.flags = bpf_map__map_flags(tmpl),
		.tmpl_fd = -1,
	};
	mopts.map_flags = def->flags;
	fd = bpf_map_create(def->type, "inner_template", def->key_size,
			    def->value_size, def->max_entries, &mopts);
	if (fd < 0) {
		err = -errno;
		outcome_set(out, ST_FAILED, "creating %s's inner map: %s",
			    bpf_map__name(outer), strerror(-err));
		return err;
	}
	err = bpf_map__set_inner_map_fd(outer, fd);
	if (err) {
		close(fd);
		outcome_set(out, ST_FAILED, "cannot set %s's inner map: %s",
			    bpf_map__name(outer), strerror(-err));
		return err;
	}
	def->tmpl_fd = fd;
	return 0;
}

/*
 * Only the test's own map is created, resized as asked, once the kernel
 * is known to support its type and flags.
 */
static int setup_maps(struct map_row *r, struct outcome *out)
{
	struct bpf_map *map = skel_map(r->skel, r->test->map);
	__u32 entries = r->set.entries;
	int t, err;

	for (t = 0; t < NR_TESTS; t++)
		if (tests[t].shape != SHAPE_SYSCALL &&
		    tests[t].map != r->test->map)
			bpf_map__set_autocreate(skel_map(r->skel, tests[t].map),
						false);
	/* the buffers only the programs that build wide keys or records use */
	bpf_map__set_autocreate(r->skel->maps.key_bufs,
				r->test->takes & TAKES_KEY_SIZE);
	bpf_map__set_autocreate(r->skel->maps.record_bufs,
				r->test - tests == RINGBUF_OUTPUT ||
				r->test - tests == PERFBUF_OUTPUT);
	err = probe_map(map, out);
	if (err)
		return err;
	/* a map of maps: its inner maps are what grows */
	if (bpf_map__inner_map(map))
		return set_inner_template(map, entries, &r->inner, out);
	if ((entries && bpf_map__set_max_entries(map, entries)) ||
	    (r->set.key_size && bpf_map__set_key_size(map, r->set.key_size))) {
		outcome_set(out, ST_FAILED, "cannot resize %s",
			    bpf_map__name(map));
		return -EINVAL;
	}
	return 0;
}

/*
 * Can the method's program type call the test's helpers? Asked of the
 * kernel before load; a type it cannot be asked about (fentry's) is left
 * to the load.
 */
static int probe_helpers(struct map_row *r, struct outcome *out)
{
	enum bpf_prog_type type = bpf_program__type(r->prog);
	const struct helper *h;

	for (h = r->test->helpers; h < r->test->helpers + 3 && h->name; h++) {
		if (libbpf_probe_bpf_helper(type, h->id, NULL) != 0)
			continue;
		outcome_set(out, ST_SKIPPED,
			    "kernel offers no %s() to %s programs", h->name,
			    libbpf_bpf_prog_type_str(type) ?: "these");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* the BPF program's fault numbers are the runner's: map_perf_test.h */
_Static_assert((int)MAP_FAULT_MISS_ODD == (int)BENCH_FAULT_MISS_ODD &&
	       (int)MAP_FAULT_MISS_CPU == (int)BENCH_FAULT_MISS_CPU &&
	       (int)MAP_FAULT_UNCOUNTED == (int)BENCH_FAULT_UNCOUNTED &&
	       (int)MAP_FAULT_MISS_ONE == (int)BENCH_FAULT_MISS_ONE &&
	       (int)MAP_FAULT_WRONG_KEY == (int)BENCH_FAULT_WRONG_KEY &&
	       (int)MAP_FAULT_FILL_ALL == (int)BENCH_FAULT_FILL_ALL &&
	       (int)MAP_FAULT_DROP_ALL == (int)BENCH_FAULT_DROP_ALL &&
	       (int)MAP_FAULT_EMPTY_MAP == (int)BENCH_FAULT_EMPTY_MAP &&
	       (int)MAP_FAULT_EXTRA_ODD == (int)BENCH_FAULT_EXTRA_ODD &&
	       (int)MAP_FAULT_WRONG_VALUE == (int)BENCH_FAULT_WRONG_VALUE &&
	       (int)MAP_FAULT_EXTRA_PUSH == (int)BENCH_FAULT_EXTRA_PUSH,
	       "map_perf_test.h's faults are numbered as bench.h's");

static void configure(const struct run_settings *rs,
		      struct map_perf_config *cfg, const struct map_row *r)
{
	const struct map_test *t = r->test;
	bool initial = true;

	cfg->syscall_nr = t->nr;
	if (!pid_namespace(&cfg->pidns_dev, &cfg->pidns_ino, &initial))
		cfg->use_pidns = !initial;
	cfg->fault = prog_fault(rs, 0, 1);
	cfg->fault_cpu = run_fault(rs)->cpu;
	cfg->key_size = r->set.key_size;
	cfg->record_size = r->set.record_size;
	cfg->wakeup = r->set.wakeup;
	/* the bloom filter's known keys: as many as it is sized for */
	cfg->set_size = bpf_map__max_entries(r->skel->maps.bloom_map);
}

/* opens the test's object for its method, sets it up, loads it */
static int open_test(const struct run_settings *rs, struct map_row *r,
		     struct outcome *out)
{
	int err;

	r->inner.tmpl_fd = -1;
	r->skel = map_perf_test_kern__open();
	if (!r->skel) {
		outcome_set(out, ST_FAILED, "opening the BPF object: %s",
			    strerror(errno));
		return -errno;
	}
	r->prog = skel_prog(r->skel, r->test->prog[r->method - methods]);
	err = setup_maps(r, out);
	if (!err)
		err = probe_helpers(r, out);
	configure(rs, &r->skel->rodata->cfg, r);
	if (!err)
		err = attach_load(r->method->kind, r->skel->skeleton, r->prog,
				  &r->test->target, &r->hooked, out);
	/* loaded or not, the outer map has taken what it needs */
	if (r->inner.tmpl_fd >= 0)
		close(r->inner.tmpl_fd);
	r->inner.tmpl_fd = -1;
	return err;
}

/* the map's size as the kernel has it, and its contents for the test */
static int fill_map(const struct run_settings *rs, struct map_row *r,
		    struct outcome *out)
{
	struct bpf_map *map = skel_map(r->skel, r->test->map);
	int err = 0;

	r->hits = opt.miss && r->test->miss ? HITS_NONE : HITS_ALL;
	/* a map of maps: the fill learns the kernel's size of its inner maps */
	if (!r->inner.max_entries)
		err = kernel_max_entries(bpf_map__fd(map), &r->entries);
	if (!err && r->test->fill)
		err = r->test->fill(rs, r);
	if (err)
		outcome_set(out, ST_FAILED, "filling %s: %s",
			    bpf_map__name(map), strerror(-err));
	else if (rs->verbosity > 1)
		pr_note("%s: %s has max_entries %u", r->test->name,
			bpf_map__name(map), r->entries);
	return err;
}

/* ---- user-space operations: a map, no program ---- */

static int open_sys(const struct run_settings *rs, struct bench_row *row,
		    struct outcome *out)
{
	struct map_row *r = row->priv;
	const struct map_test *t = r->test;
	__u32 key_size = t->sys_type == BPF_MAP_TYPE_HASH && r->set.key_size ?
			 r->set.key_size : sizeof(__u32);
	size_t len = sizeof(struct sys_slot) * nr_cpus_possible();
	struct bpf_map_info info = {};
	__u32 info_len = sizeof(info);
	void *slots;

	r->entries = r->set.entries ?: SYS_ENTRIES;
	if ((t->sys_op == SYS_UPDATE || t->sys_op == SYS_DELETE) &&
	    r->entries < (__u32)row->cpus->nr) {
		outcome_set(out, ST_FAILED,
			    "%u entries for %d workers: each writer needs keys of its own",
			    r->entries, row->cpus->nr);
		return -EINVAL;
	}
	r->sys_fd = sys_map_create(t->sys_type, t->sys_op, key_size,
				   r->entries, run_fault(rs)->kind, out);
	if (r->sys_fd < 0)
		return -1;
	/* the workers' counts: shared with them, since they are forked */
	slots = mmap(NULL, len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED ||
	    bpf_obj_get_info_by_fd(r->sys_fd, &info, &info_len)) {
		outcome_set(out, ST_FAILED, "setting up the workers' map: %s",
			    strerror(errno));
		if (slots != MAP_FAILED)
			munmap(slots, len);
		return -1;
	}
	r->sys = (struct sys_ctx){
		.map_id = info.id, .op = t->sys_op, .entries = r->entries,
		.key_size = key_size, .cpus = row->cpus, .slots = slots,
		.fault = prog_fault(rs, 0, 1), .fault_cpu = run_fault(rs)->cpu,
	};
	return 0;
}

static void collect_sys(struct map_row *r, struct sample *s)
{
	int cpu;

	memset(&r->c, 0, sizeof(r->c));
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		sample_hits(s, 0)[cpu] = r->sys.slots[cpu].ok;
		r->c.calls += r->sys.slots[cpu].ok;
		r->c.update_fails += r->sys.slots[cpu].bad;
	}
}

/* every call did what it should, and the map holds what was put in */
static void verify_sys(struct map_row *r, struct sample *s)
{
	if (r->c.update_fails)
		outcome_set(&s->out, ST_FAILED,
			    "%llu calls failed or returned the wrong elements",
			    r->c.update_fails);
	else
		sys_map_check(r->sys_fd, r->test->sys_type, r->sys.key_size,
			      r->entries, &s->out);
}

static void close_sys(struct map_row *r)
{
	if (r->sys.slots)
		munmap(r->sys.slots,
		       sizeof(struct sys_slot) * nr_cpus_possible());
	if (r->sys_fd >= 0)
		close(r->sys_fd);
	r->sys.slots = NULL;
	r->sys_fd = -1;
}

/* ---- ring and perf buffers: the consumer ---- */

static int open_consumer(struct map_row *r, struct outcome *out)
{
	struct bpf_map *map = skel_map(r->skel, r->test->map);

	r->consumer = consumer_new(r->test->shape == SHAPE_RINGBUF ?
				   CONSUME_RINGBUF : CONSUME_PERFBUF,
				   bpf_map__fd(map), r->test - tests,
				   r->set.record_size, r->set.wakeup, out);
	return r->consumer ? 0 : -1;
}

/*
 * The records an empty buffer takes are never dropped, however slow the
 * consumer, and a sample starts with the buffer empty (the last one's
 * consumer drained it): of the RECORDS_PER_CALL records each of the
 * workers' events makes, as many as the buffer holds must have been
 * consumed. The bound comes from the events and the buffer's size alone,
 * never from the counts it checks: a program or buffer that drops records
 * it had room for, all of them included, fails.
 */
static bool records_kept(const struct map_row *r, struct sample *s,
			 const struct consumer_counts *n)
{
	__u64 holds = consumer_holds(r->consumer), made = 0, got = 0;
	int k, cpu;

	if (r->test->shape == SHAPE_RINGBUF) {
		/* one ring for every producer */
		for (k = 0; k < s->nr_workers; k++)
			made += s->res[k].events * RECORDS_PER_CALL;
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			got += n->consumed[cpu];
		if (got >= (made < holds ? made : holds))
			return true;
		outcome_set(&s->out, ST_FAILED,
			    "%llu of the %llu records the events made were consumed, fewer than the %llu an empty ring takes",
			    got, made, holds);
		return false;
	}
	/* a perf buffer per CPU */
	for (k = 0; k < s->nr_workers; k++) {
		cpu = s->res[k].cpu;
		made = s->res[k].events * RECORDS_PER_CALL;
		got = n->consumed[cpu];
		if (got >= (made < holds ? made : holds))
			continue;
		outcome_set(&s->out, ST_FAILED,
			    "CPU %d: %llu of the %llu records its events made were consumed, fewer than the %llu an empty perf buffer takes",
			    cpu, got, made, holds);
		return false;
	}
	return true;
}

/*
 * Every record produced on a CPU was consumed or dropped there, each
 * consumed once, in order, whole, and no fewer consumed than an empty
 * buffer takes; the consumer's rate and cost are kept.
 */
static void verify_records(struct map_row *r, struct sample *s,
			   const struct map_perf_counters *pc)
{
	const struct consumer_counts *n = consumer_counts(r->consumer);
	__u64 consumed = 0;
	int cpu;

	if (consumer_error(r->consumer)) {
		outcome_set(&s->out, ST_FAILED, "the consumer's poll failed: %s",
			    strerror(-consumer_error(r->consumer)));
		return;
	}
	if (n->bad || n->out_of_order) {
		outcome_set(&s->out, ST_FAILED,
			    "the consumer got %llu malformed and %llu out-of-order records",
			    n->bad, n->out_of_order);
		return;
	}
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		consumed += n->consumed[cpu];
		if (pc[cpu].updates == n->consumed[cpu] + pc[cpu].dropped)
			continue;
		outcome_set(&s->out, ST_FAILED,
			    "CPU %d produced %llu records: %llu consumed + %llu dropped do not add up",
			    cpu, pc[cpu].updates, n->consumed[cpu],
			    pc[cpu].dropped);
		return;
	}
	if (!records_kept(r, s, n))
		return;
	r->last.produced = r->c.updates;
	r->last.consumed = consumed;
	r->last.dropped = r->c.dropped;
	r->last.lost = n->lost;
	r->last.consume_ns = n->last_ns - n->first_ns;
	r->last.consumer_cpu_ns = n->cpu_ns;
}

/* ---- queue and stack: nothing left behind ---- */

static void verify_empty(struct map_row *r, struct sample *s)
{
	int fd = bpf_map__fd(skel_map(r->skel, r->test->map));
	__u64 v, left = 0;

	if (r->c.sum) {
		outcome_set(&s->out, ST_FAILED,
			    "the values popped are not those pushed (they differ by %lld)",
			    (long long)r->c.sum);
		return;
	}
	while (!bpf_map_lookup_and_delete_elem(fd, NULL, &v))
		left++;
	if (left)
		outcome_set(&s->out, ST_FAILED,
			    "%llu values were left in the map after the run",
			    left);
}

/* ---- every row ---- */

static int open_row(const struct run_settings *rs, struct bench_row *row,
		    struct outcome *out)
{
	struct map_row *r = row->priv;
	int err;

	if (nr_cpus_possible() > MAP_PERF_MAX_CPUS) {
		outcome_set(out, ST_FAILED,
			    "%d possible CPUs: the worker table covers %d",
			    nr_cpus_possible(), MAP_PERF_MAX_CPUS);
		return -E2BIG;
	}
	/* a refusal an earlier row found holds here: nothing to load */
	if (r->method && attach_refused(r->method->kind, out))
		return -EOPNOTSUPP;
	r->pc = calloc(nr_cpus_possible(), sizeof(*r->pc));
	if (!r->pc) {
		outcome_set(out, ST_FAILED, "out of memory");
		return -ENOMEM;
	}
	if (r->test->shape == SHAPE_SYSCALL) {
		err = open_sys(rs, row, out);
		if (err)
			close_sys(r);
		return err;
	}
	err = open_test(rs, r, out);
	if (!err)
		err = fill_map(rs, r, out);
	if (!err && has_consumer(r->test))
		err = open_consumer(r, out);
	/* ours attach only inside samples: any link there now is another's */
	if (!err)
		other_links_on(r->hooked, row->others, sizeof(row->others));
	if (err) {
		map_perf_test_kern__destroy(r->skel);
		r->skel = NULL;
	}
	return err;
}

static int zero_counters(struct map_row *r)
{
	size_t size = sizeof(struct map_perf_counters) * nr_cpus_possible();
	__u32 key = r->test - tests;
	void *zeros = calloc(1, size);
	int err;

	if (!zeros)
		return -ENOMEM;
	err = bpf_map__update_elem(r->skel->maps.counters, &key, sizeof(key),
				   zeros, size, BPF_ANY);
	free(zeros);
	return err;
}

static int attach_row(struct bench_row *row,
		      const struct bench_workers *workers, struct outcome *out)
{
	struct map_row *r = row->priv;
	int i, err;

	if (r->test->shape == SHAPE_SYSCALL) {
		memset(r->sys.slots, 0,
		       sizeof(struct sys_slot) * nr_cpus_possible());
		return 0;
	}
	/* the programs act for these processes only, each on its CPU */
	memset(r->skel->bss->worker_tgid, 0,
	       sizeof(r->skel->bss->worker_tgid));
	memset(r->skel->bss->call_slots, 0,
	       sizeof(r->skel->bss->call_slots));
	for (i = 0; i < workers->nr; i++)
		r->skel->bss->worker_tgid[workers->cpu[i]] = workers->pid[i];
	err = zero_counters(r);
	if (err) {
		outcome_set(out, ST_FAILED, "zeroing the counters: %s",
			    strerror(-err));
		return err;
	}
	/* draining before the first record can come */
	if (r->consumer &&
	    consumer_start(r->consumer, r->set.consumer_cpu, out))
		return -1;
	r->link = attach_link(r->method->kind, r->prog, &r->test->target,
			      r->hooked, out);
	return r->link ? 0 : -ENOENT;
}

static void detach_row(struct bench_row *row)
{
	struct map_row *r = row->priv;

	bpf_link__destroy(r->link);
	r->link = NULL;
	/* nothing produces now: the consumer takes the rest and stops */
	consumer_stop(r->consumer);
}

/* the counters per CPU: calls into s->hits, the sums into r->c */
static int collect(struct bench_row *row, struct sample *s)
{
	struct map_row *r = row->priv;
	int ncpu = s->nr_cpus, cpu, err;
	struct map_perf_counters *v = r->pc;
	__u32 key = r->test - tests;

	if (r->test->shape == SHAPE_SYSCALL) {
		collect_sys(r, s);
		return 0;
	}
	err = bpf_map__lookup_elem(r->skel->maps.counters, &key, sizeof(key),
				   v, ncpu * sizeof(*v), 0);
	memset(&r->c, 0, sizeof(r->c));
	for (cpu = 0; !err && cpu < ncpu; cpu++) {
		v[cpu].calls = r->skel->bss->call_slots[cpu].calls;
		sample_hits(s, 0)[cpu] = v[cpu].calls;
		r->c.calls += v[cpu].calls;
		r->c.lookups += v[cpu].lookups;
		r->c.found += v[cpu].found;
		r->c.updates += v[cpu].updates;
		r->c.update_fails += v[cpu].update_fails;
		r->c.foreign += v[cpu].foreign;
		r->c.negatives += v[cpu].negatives;
		r->c.false_pos += v[cpu].false_pos;
		r->c.dropped += v[cpu].dropped;
		r->c.sum += v[cpu].sum;
	}
	/* a run from another process is counted as foreign, not a call */
	row->runs_counted += r->c.calls + r->c.foreign;
	if (err)
		outcome_set(&s->out, ST_FAILED, "cannot read the counters: %s",
			    strerror(-err));
	return err;
}

/* beyond one run per syscall: the outcomes the test expects */
static void verify(const struct bench_row *row, struct sample *s)
{
	struct map_row *r = row->priv;
	struct map_perf_counters *c = &r->c;
	__u64 min_found = 0;

	if (r->test->shape == SHAPE_SYSCALL) {
		verify_sys(r, s);
		return;
	}
	/* filtered out by the programs: shown beside the hits */
	s->foreign += c->foreign;
	if (r->hits == HITS_KEPT)
		min_found = kept_keys_hits(r, s->res, s->nr_workers);
	if (c->update_fails && has_consumer(r->test))
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu records failed for another reason than a full buffer",
			    c->update_fails, c->updates);
	else if (c->update_fails)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu updates failed (max_entries %u, %d workers)",
			    c->update_fails, c->updates, r->entries,
			    s->nr_workers);
	else if (r->hits == HITS_ALL && c->found < c->lookups)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu lookups missed; all should hit",
			    c->lookups - c->found, c->lookups);
	else if (r->hits == HITS_NONE && c->found)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu lookups hit; --miss wants none",
			    c->found, c->lookups);
	else if (r->hits == HITS_KEPT && c->found < min_found)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu lookups hit; the keys kept make %llu",
			    c->found, c->lookups, min_found);
	else if (has_consumer(r->test))
		verify_records(r, s, r->pc);
	else if (r->test - tests == QUEUE_PUSH_POP ||
		 r->test - tests == STACK_PUSH_POP)
		verify_empty(r, s);
	r->last.lookups = c->lookups;
	r->last.found = c->found;
	r->last.negatives = c->negatives;
	r->last.false_pos = c->false_pos;
}

/*
 * A sample that counts (not a warm-up, not one run again): its totals
 * join the row's, as the runner's events and hits do.
 */
static void count(const struct bench_row *row, const struct sample *s)
{
	struct map_row *r = row->priv;
	struct map_totals *t = &r->total, *l = &r->last;

	t->lookups += l->lookups;
	t->found += l->found;
	t->negatives += l->negatives;
	t->false_pos += l->false_pos;
	t->produced += l->produced;
	t->consumed += l->consumed;
	t->dropped += l->dropped;
	t->lost += l->lost;
	t->consume_ns += l->consume_ns;
	t->consumer_cpu_ns += l->consumer_cpu_ns;
	memset(l, 0, sizeof(*l));
}

static const volatile __u64 *hit_slot(const struct bench_row *row,
				      int counter, int cpu)
{
	const struct map_row *r = row->priv;

	if (r->test->shape == SHAPE_SYSCALL)
		return &r->sys.slots[cpu].ok;
	return &r->skel->bss->call_slots[cpu].calls;
}

static int prog_fds(const struct bench_row *row, int *fds, int max)
{
	const struct map_row *r = row->priv;

	if (r->test->shape == SHAPE_SYSCALL)
		return 0;
	fds[0] = bpf_program__fd(r->prog);
	return 1;
}

static void close_row(struct bench_row *row)
{
	struct map_row *r = row->priv;

	consumer_free(r->consumer);
	r->consumer = NULL;
	close_sys(r);
	bpf_link__destroy(r->link);
	map_perf_test_kern__destroy(r->skel);
	free(r->pc);
	r->pc = NULL;
	free(r->lru_kept);
	r->lru_kept = NULL;
	r->link = NULL;
	r->skel = NULL;
}

/* ---- output ---- */

/* the unit of upstream's line, and how many of it one event makes */
static const char *line_unit(const struct map_test *t, unsigned int *mult)
{
	if (t->unit) {
		*mult = t->ops;
		return t->unit;
	}
	*mult = t->per_lookup ? t->ops : 1;
	return t->per_lookup ? "lookups" : "events";
}

/* a row's mode, as the runner groups skipped rows by: its method */
static const char *row_method(const struct bench_row *row)
{
	return row->variant;
}

/* upstream's eleven tests, all it ever printed */
static bool upstream_test(const struct map_test *t)
{
	return t - tests <= LRU_HASH_LOOKUP;
}

/*
 * Whose lines upstream's section has: upstream's tests; every row when
 * test_flags is given (upstream's words) or with -v. The other rows'
 * figures per worker are in --json.
 */
static bool upstream_line(const struct run_settings *rs,
			  const struct bench_row *row)
{
	const struct map_row *r = row->priv;

	return r && (opt.flags || rs->verbosity > 1 || upstream_test(r->test));
}

/*
 * upstream's line for each worker: the median of its samples. Skipped
 * rows are said once per reason, where the first of them comes.
 */
static void print_upstream(const struct run_settings *rs,
			   const struct bench_rows *rows)
{
	struct skip_group *g = NULL;
	bool *in, *said = NULL;
	char params[96], label[256];
	unsigned int mult;
	const char *unit;
	int i, k, w, nr;

	in = calloc(rows->nr ?: 1, sizeof(*in));
	for (i = 0; in && i < rows->nr; i++)
		in[i] = upstream_line(rs, &rows->row[i]);
	nr = in ? skip_groups(rows, in, row_method, &g) : -ENOMEM;
	said = nr > 0 ? calloc(nr, sizeof(*said)) : NULL;
	if (nr < 0 || (nr > 0 && !said)) {
		pr_err("out of memory: upstream's lines left out");
		goto out;
	}
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];
		const struct map_row *r = row->priv;

		if (!in[i])
			continue;	/* base rows have no upstream line */
		format_params(row, params, sizeof(params));
		for (k = 0; row->out.status == ST_SKIPPED && k < nr; k++)
			if (skip_group_has(rows, &g[k], row_method, i))
				break;
		if (row->out.status == ST_SKIPPED && k < nr) {
			if (said[k])
				continue;
			said[k] = true;
			if (g[k].nr > 1) {
				skip_group_label(rows, in, &g[k], row_method,
						 NULL, label, sizeof(label));
				printf("%s: %s: %s\n", label,
				       status_name(ST_SKIPPED),
				       skip_group_reason(rows, &g[k]));
				continue;
			}
		}
		if (!row_has_figure(row)) {
			printf("%s%s: %s: %s\n", r->test->name, params,
			       status_name(row->out.status), row->out.reason);
			continue;
		}
		unit = line_unit(r->test, &mult);
		for (w = 0; w < row->cpus->nr; w++)
			printf("%d:%s %.0f %s per sec%s\n", row->cpus->cpu[w],
			       r->test->line, worker_median_rate(row, w) * mult,
			       unit, params);
	}
out:
	free(said);
	free(g);
	free(in);
}

/* the consumer's rate while records flowed, and its CPU per record */
static double consumer_rate(const struct map_row *r)
{
	return r->total.consume_ns > 0 ? r->total.consumed * 1e9 / r->total.consume_ns : NAN;
}

static double consumer_ns_per_record(const struct map_row *r)
{
	return r->total.consumed ? r->total.consumer_cpu_ns / r->total.consumed : NAN;
}

/* what a row of the other map kinds adds to its notes */
static void kind_notes(const struct bench_row *row, char *buf, size_t len)
{
	const struct map_row *r = row->priv;
	size_t off = 0;

	format_params(row, buf, len);
	off = strlen(buf);
	if (off)	/* " [k=v]": the leading space is the table's */
		memmove(buf, buf + 1, off--);
	if (!r)
		return;
	if (r->total.negatives && off < len)
		off += snprintf(buf + off, len - off,
				"%sfalse positives %.2f%% of %llu",
				off ? ", " : "",
				100.0 * r->total.false_pos / r->total.negatives,
				r->total.negatives);
	if (has_consumer(r->test) && r->total.produced && off < len)
		snprintf(buf + off, len - off,
			 "%sconsumed %.3fM/s (%.0f ns CPU per record), dropped %llu of %llu",
			 off ? ", " : "", consumer_rate(r) / 1e6,
			 consumer_ns_per_record(r), r->total.dropped, r->total.produced);
}

static void print_row(const struct bench_row *row)
{
	const struct map_row *r = row->priv;
	char nsop[32] = "-", ratio[16] = "-", calls[48] = "-", entries[16] = "-";
	char notes[REASON_LEN + 128], more[256];
	struct row_summary s;

	printf("  %-26s %-10s %-9s ", row->name, row->variant,
	       status_name(row->out.status));
	kind_notes(row, more, sizeof(more));
	if (!row_has_figure(row)) {
		printf("%s%s%s\n", row->out.reason, more[0] ? "  " : "", more);
		return;
	}
	row_summarize(row, &s);
	/* the units' figure: the overhead, or the bpf() call alone */
	if (r && (s.has_overhead || r->test->shape == SHAPE_SYSCALL))
		snprintf(nsop, sizeof(nsop), "%.2f ± %.2f",
			 s.units.mean / r->test->ops, s.ci95 / r->test->ops);
	if (r && r->total.lookups)
		snprintf(ratio, sizeof(ratio), "%.3f",
			 (double)r->total.found / r->total.lookups);
	if (r) {
		format_hits(row, calls, sizeof(calls));
		snprintf(entries, sizeof(entries), "%u", r->entries);
	}
	row_notes(row, &s, notes, sizeof(notes));
	printf("%8.3fM ± %-7.3f %10.3fM %16s %6s %8s %21s%s%s%s%s",
	       s.rate.mean / 1e6, s.rate.stddev / 1e6,
	       s.rate.mean * (r ? r->test->ops : 0) / 1e6, nsop, ratio,
	       entries, calls, more[0] ? "  " : "", more,
	       notes[0] ? "  " : "", notes);
	if (!isnan(row_prog_ns(row)))
		printf("  prog %.1f ns/run", row_prog_body(row));
	printf("\n");
}

static void print_sweep(const char *what, const struct sweep *sw)
{
	int i;

	if (!sw->nr)
		return;
	printf("%s ", what);
	for (i = 0; i < sw->nr; i++)
		printf("%s%llu", i ? "," : "", sw->v[i]);
	printf(", ");
}

static void print_summary(const struct run_settings *rs,
			  const struct bench_rows *rows)
{
	char cpus[256];
	struct utsname uts;
	int i;

	uname(&uts);
	format_cpus(&rs->cpus, cpus, sizeof(cpus));
	printf("\nSummary: %d worker(s) on CPU %s, ", rs->cpus.nr, cpus);
	if (opt.entries.nr == 1)
		printf("maps resized to %llu entries, ", opt.entries.v[0]);
	else
		print_sweep("entries", &opt.entries);
	print_sweep("key sizes", &opt.key_size);
	if (opt.scale)
		printf("scaled over 1..%d CPUs, ", rs->cpus.nr);
	printf("%s%skernel %s, libbpf %s\n", opt.miss ? "--miss, " : "",
	       run_fault(rs)->kind ? "UNVERIFIED (a test fault is injected), " : "",
	       uts.release, libbpf_version_text());
	printf("  %-26s %-10s %-9s %-19s %11s %16s %6s %8s %21s\n", "test",
	       "attach", "status", "syscalls/s mean ± sd", "map ops/s",
	       "ns/op ± 95%", "hits", "entries", "calls/syscalls");
	/* the rows this kernel cannot run follow, said once per reason */
	for (i = 0; i < rows->nr; i++)
		if (rows->row[i].out.status != ST_SKIPPED)
			print_row(&rows->row[i]);
	print_row_counts(rows);
	print_skip_groups(rows, row_method);
	print_excused(rows);
}

static json_t *sweep_json(const struct sweep *sw)
{
	json_t *a;
	int i;

	if (!sw->nr)
		return json_null();
	if (sw->nr == 1)
		return json_integer(sw->v[0]);
	a = json_array();
	for (i = 0; i < sw->nr; i++)
		json_array_append_new(a, json_integer(sw->v[i]));
	return a;
}

static void json_context(const struct run_settings *rs, json_t *ctx)
{
	json_object_set_new(ctx, "entries", sweep_json(&opt.entries));
	json_object_set_new(ctx, "key_size", sweep_json(&opt.key_size));
	json_object_set_new(ctx, "scale", json_boolean(opt.scale));
	json_object_set_new(ctx, "records_per_call",
			    json_integer(RECORDS_PER_CALL));
	json_object_set_new(ctx, "miss", json_boolean(opt.miss));
	/* what auto picked, or the one method -a named; null for several */
	json_object_set_new(ctx, "attach_method", context_method() >= 0 ?
			    json_string(methods[context_method()].name) :
			    json_null());
	if (run_fault(rs)->kind)
		json_object_set_new(ctx, "fault",
				    json_string(run_fault(rs)->name));
}

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* what the other map kinds add: records, false positives, the rate per CPU */
static void json_kind(const struct bench_row *row, const struct map_row *r,
		      json_t *o)
{
	json_t *rec;

	if (r->test->shape == SHAPE_SYSCALL)
		json_object_set_new(o, "key_size", json_integer(r->sys.key_size));
	if (r->test - tests == BLOOM_LOOKUP) {
		json_object_set_new(o, "negative_lookups",
				    json_integer(r->total.negatives));
		json_object_set_new(o, "false_positives",
				    json_integer(r->total.false_pos));
	}
	if (has_consumer(r->test)) {
		rec = json_object();
		json_object_set_new(rec, "produced", json_integer(r->total.produced));
		json_object_set_new(rec, "consumed", json_integer(r->total.consumed));
		json_object_set_new(rec, "dropped", json_integer(r->total.dropped));
		json_object_set_new(rec, "lost_reported", json_integer(r->total.lost));
		json_object_set_new(o, "records", rec);
		json_object_set_new(o, "consumer_cpu",
				    json_integer(r->set.consumer_cpu));
		json_object_set_new(o, "consumer_rate",
				    number(consumer_rate(r)));
		json_object_set_new(o, "consumer_ns_per_record",
				    number(consumer_ns_per_record(r)));
	}
}

static void json_row(const struct bench_rows *rows,
		     const struct bench_row *row, json_t *o)
{
	const struct map_row *r = row->priv;
	struct row_summary s;
	json_t *nsop, *per;

	if (row_has_figure(row)) {
		/* each worker's share: what --scale's curve is made of */
		row_summarize(row, &s);
		per = json_object();
		json_object_set_new(per, "mean",
				    number(s.rate.mean / row->cpus->nr));
		json_object_set_new(per, "stddev",
				    number(s.rate.stddev / row->cpus->nr));
		json_object_set_new(o, "rate_per_cpu", per);
	}
	if (!r)
		return;
	json_object_set_new(o, "attach_method", r->method ?
			    json_string(r->method->name) : json_null());
	json_object_set_new(o, "ops_per_event", json_integer(r->test->ops));
	json_object_set_new(o, "lookups", json_integer(r->total.lookups));
	json_object_set_new(o, "found", json_integer(r->total.found));
	json_object_set_new(o, "entries", json_integer(r->entries));
	json_kind(row, r, o);
	if (!row_has_figure(row))
		return;
	if (!s.has_overhead && r->test->shape != SHAPE_SYSCALL) {
		json_object_set_new(o, "ns_per_op", json_null());
		return;
	}
	nsop = json_object();
	json_object_set_new(nsop, "value", number(s.units.mean / r->test->ops));
	json_object_set_new(nsop, "ci95", number(s.ci95 / r->test->ops));
	json_object_set_new(o, "ns_per_op", nsop);
}

static void list_row(const struct bench_row *row, json_t *o)
{
	const struct map_row *r = row->priv;
	struct map_perf_test_kern *skel;
	unsigned int mult;

	if (!r)
		return;		/* a base row: nothing attached */
	json_object_set_new(o, "flag", json_integer(1ull << (r->test - tests)));
	json_object_set_new(o, "line", json_string(r->test->line));
	json_object_set_new(o, "unit", json_string(line_unit(r->test, &mult)));
	json_object_set_new(o, "upstream", json_boolean(upstream_test(r->test)));
	if (!r->method) {
		/* bpf() calls of the workers': no program, no attach */
		json_object_set_new(o, "program", json_null());
		return;
	}
	list_kind(o, r->method->kind, NULL);
	/* opening needs no privileges: it only reads the ELF */
	skel = map_perf_test_kern__open();
	if (!skel)
		return;
	json_object_set_new(o, "program", json_string(bpf_program__name(
		skel_prog(skel, r->test->prog[r->method - methods]))));
	map_perf_test_kern__destroy(skel);
}

static const struct bench_family map_perf_family = {
	.name = "map_perf_test",
	.args = "[test_flags] [nr_cpus] [num_map_entries] [max_cnt]",
	.about = "Speed of BPF map operations, done by a BPF program on each worker's\n"
		 "syscalls, verified by the program's own counts on every worker's CPU.\n",
	.options = options,
	.parse_option = parse_option,
	.parse_args = parse_args,
	.usage_tables = usage_tables,
	.setup = setup,
	.list_row = list_row,
	.paced = true,
	.open = open_row,
	.attach = attach_row,
	.detach = detach_row,
	.collect = collect,
	.verify = verify,
	.count = count,
	.hit_slot = hit_slot,
	.prog_fds = prog_fds,
	.close = close_row,
	.print_upstream = print_upstream,
	.print_summary = print_summary,
	.json_context = json_context,
	.json_row = json_row,
};

/*
 * Every row keeps its object open until the end of the run, so that
 * --prog-stats can come back to it: with every method and map kind that is more
 * than a thousand fds (maps, programs, BTF, a consumer's perf events), past
 * the usual soft limit. The hard limit is what the machine allows.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	raise_fd_limit();
	return bench_main(&map_perf_family, argc, argv);
}
