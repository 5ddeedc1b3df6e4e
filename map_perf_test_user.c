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
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <jansson.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_attach.h"
#include "bench_report.h"
#include "map_perf_test.h"
#include "map_perf_test_kern.skel.h"

#define DEFAULT_COUNT	50000ull
#define MAX_COUNT	10000000000ull
#define MAX_MAP_ENTRIES	(1u << 24)
#define LPM_PREFIXES	512	/* random prefixes around the /32 */
#define LRU_LOOKUP_SPAN	32	/* keys one LRU_HASH_LOOKUP event looks up */

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

/*
 * LRU_HASH_LOOKUP's keys are 0 .. range - 1, as upstream: 32, or
 * num_map_entries when larger. Set before the workers fork.
 */
static __u32 lru_lookup_range = LRU_LOOKUP_SPAN;

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
 * worker is a process of its own, forked with the key at 0.
 */
static void lru_hash_lookup_run(void *state, __u64 count)
{
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

/* one row's loaded object and what its verification needs */
struct map_row {
	const struct map_test *test;
	const struct attach_method *method;
	struct map_perf_test_kern *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	const char *hooked;
	struct map_def inner;
	__u32 entries;		/* the kernel's max_entries of the test's map */
	enum hits hits;
	struct map_perf_counters c;	/* the last sample's, every CPU */
	__u64 lookups, found;	/* over every verified sample */
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
	int (*fill)(struct map_row *r);
	bool miss;		/* --miss applies */
};

#define SKEL_MAP(name)	offsetof(struct map_perf_test_kern, maps.name)
#define SKEL_PROG(name)	offsetof(struct map_perf_test_kern, progs.name)
#define METHOD_PROGS(test)						\
	{ SKEL_PROG(kprobe_##test), SKEL_PROG(fentry_##test),		\
	  SKEL_PROG(tracepoint_##test), SKEL_PROG(raw_tp_##test) }

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

static struct {
	bool tests_given;
	bool test_on[NR_TESTS];
	__u64 flags;		/* 0: every test */
	bool methods_given;
	bool method_on[4];
	bool entries_given;
	__u32 entries;		/* 0: every map keeps its own size */
	bool miss;
} opt;

static int fill_hash_lookup(struct map_row *r)
{
	__u32 key = LOOKUP_KEY;
	long val = 1;

	if (opt.miss)
		return 0;
	return bpf_map__update_elem(r->skel->maps.hash_map, &key, sizeof(key),
				    &val, sizeof(val), BPF_ANY);
}

struct lpm_key {
	__u32 prefixlen;
	__u8 data[4];
};

/*
 * 512 random prefixes, then 192.168.0.1/32 -> 128, in the LPM trie the
 * program searches. Under --miss, no prefix at all contains the address.
 * The same seed every run: every run searches the same trie.
 */
static int fill_lpm(struct map_row *r)
{
	const __u8 addr[4] = LPM_ADDR;
	int fd = bpf_map__fd(r->skel->maps.lpm_trie_map_alloc);
	struct lpm_key key;
	__u32 n = 0;
	long value = 0;
	int i;

	srand(1);
	while (n < LPM_PREFIXES && n < r->entries - !opt.miss) {
		key.prefixlen = rand() % 33;
		for (i = 0; i < 4; i++)
			key.data[i] = rand() & 0xff;
		if (opt.miss && lpm_covers(key.prefixlen, key.data, addr))
			continue;
		if (bpf_map_update_elem(fd, &key, &value, BPF_ANY))
			return -errno;
		n++;
	}
	if (opt.miss)
		return 0;
	key.prefixlen = 32;
	memcpy(key.data, addr, sizeof(addr));
	value = LPM_VALUE;
	return bpf_map_update_elem(fd, &key, &value, BPF_ANY) ? -errno : 0;
}

/*
 * Filling an LRU map up to its size evicts some of the keys already in
 * it: each CPU takes free nodes in batches and evicts to complete a batch.
 * Lookups evict nothing, so the keys still there after the run are those
 * the fill kept, and each worker, walking the windows of 32 keys in order
 * (lru_hash_lookup_run), must have found what the windows it looked up
 * hold. The count of each worker is known only then: -d decides it.
 */
static int expect_kept_keys(int fd, const struct worker_result *res, int nr,
			    __u64 *min_found)
{
	__u32 nr_windows = lru_lookup_range / LRU_LOOKUP_SPAN, w, i, key;
	__u64 *before;	/* before[w]: keys kept in the windows below w */
	long val;
	int k;

	before = calloc(nr_windows + 1, sizeof(*before));
	if (!before)
		return -ENOMEM;
	for (w = 0; w < nr_windows; w++) {
		before[w + 1] = before[w];
		for (i = 0; i < LRU_LOOKUP_SPAN; i++) {
			key = w * LRU_LOOKUP_SPAN + i;
			before[w + 1] += !bpf_map_lookup_elem(fd, &key, &val);
		}
	}
	*min_found = 0;
	for (k = 0; k < nr; k++)
		*min_found += kept_hits(before, nr_windows, res[k].events);
	free(before);
	return 0;
}

static int fill_lru_hash_lookup(struct map_row *r)
{
	int fd = bpf_map__fd(r->skel->maps.lru_hash_lookup_map);
	__u32 key;
	long val = 1;

	if (opt.miss)
		return 0;
	for (key = 0; key < lru_lookup_range; key++)
		if (bpf_map_update_elem(fd, &key, &val, BPF_NOEXIST))
			return -errno;
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
static int fill_inner_lru(struct map_row *r)
{
	int outer = bpf_map__fd(r->skel->maps.array_of_lru_hashs);
	const struct map_def *def = &r->inner;
	int i, fd, err = 0;
	__u32 cpu;

	for (i = 0; !err && i < bench_rs.cpus.nr; i++) {
		LIBBPF_OPTS(bpf_map_create_opts, mopts,
			    .map_flags = def->flags,
			    .numa_node = cpu_node(bench_rs.cpus.cpu[i]));

		cpu = bench_rs.cpus.cpu[i];
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

static const struct map_test tests[NR_TESTS] = {
	[HASH_PREALLOC] = {
		.name = "hash_prealloc", .line = "hash_map_perf pre-alloc",
		.ops = 30, SYSCALL_EVENT(getuid), .map = SKEL_MAP(hash_map),
		.prog = METHOD_PROGS(hash_prealloc),
	},
	[PERCPU_HASH_PREALLOC] = {
		.name = "percpu_hash_prealloc",
		.line = "percpu_hash_map_perf pre-alloc",
		.ops = 30, SYSCALL_EVENT(geteuid),
		.map = SKEL_MAP(percpu_hash_map),
		.prog = METHOD_PROGS(percpu_hash_prealloc),
	},
	[HASH_KMALLOC] = {
		.name = "hash_kmalloc", .line = "hash_map_perf kmalloc",
		.ops = 30, SYSCALL_EVENT(getgid),
		.map = SKEL_MAP(hash_map_alloc),
		.prog = METHOD_PROGS(hash_kmalloc),
	},
	[PERCPU_HASH_KMALLOC] = {
		.name = "percpu_hash_kmalloc",
		.line = "percpu_hash_map_perf kmalloc",
		.ops = 30, SYSCALL_EVENT(getegid),
		.map = SKEL_MAP(percpu_hash_map_alloc),
		.prog = METHOD_PROGS(percpu_hash_kmalloc),
	},
	[LRU_HASH_PREALLOC] = {
		.name = "lru_hash_prealloc",
		.line = "lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(lru_hash_run),
		.map = SKEL_MAP(lru_hash_map),
		.prog = METHOD_PROGS(lru_hash_prealloc),
	},
	[NOCOMMON_LRU_HASH_PREALLOC] = {
		.name = "nocommon_lru_hash_prealloc",
		.line = "nocommon_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(nocommon_lru_hash_run),
		.map = SKEL_MAP(nocommon_lru_hash_map),
		.prog = METHOD_PROGS(nocommon_lru_hash_prealloc),
	},
	[LPM_KMALLOC] = {
		.name = "lpm_kmalloc", .line = "lpm_perf kmalloc",
		.ops = 32, SYSCALL_EVENT(gettid),
		.map = SKEL_MAP(lpm_trie_map_alloc),
		.prog = METHOD_PROGS(lpm_kmalloc),
		.fill = fill_lpm, .miss = true,
	},
	[HASH_LOOKUP] = {
		.name = "hash_lookup", .line = "hash_lookup",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getpgid),
		.map = SKEL_MAP(hash_map), .prog = METHOD_PROGS(hash_lookup),
		.fill = fill_hash_lookup, .miss = true,
	},
	[ARRAY_LOOKUP] = {
		.name = "array_lookup", .line = "array_lookup",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getppid),
		.map = SKEL_MAP(array_map), .prog = METHOD_PROGS(array_lookup),
	},
	[INNER_LRU_HASH_PREALLOC] = {
		.name = "inner_lru_hash_prealloc",
		.line = "inner_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(inner_lru_hash_run),
		.map = SKEL_MAP(array_of_lru_hashs),
		.prog = METHOD_PROGS(inner_lru_hash_prealloc),
		.fill = fill_inner_lru,
	},
	[LRU_HASH_LOOKUP] = {
		.name = "lru_hash_lookup",
		.line = "lru_hash_lookup_perf pre-alloc",
		.ops = 32, CONNECT_EVENT(lru_hash_lookup_run),
		.map = SKEL_MAP(lru_hash_lookup_map),
		.prog = METHOD_PROGS(lru_hash_lookup),
		.fill = fill_lru_hash_lookup, .miss = true,
	},
};

/* ---- attach methods ---- */

struct attach_method {
	const char *name;	/* -a name */
	const struct attach_kind *kind;
};

/* -a auto tries them in this order: upstream's kprobes first */
static const struct attach_method methods[] = {
	{ "kprobe", &kind_ksyscall },
	{ "fentry", &kind_fentry },
	{ "tracepoint", &kind_tracepoint },
	{ "raw_tp", &kind_raw_tp },
};
#define NR_METHODS ((int)(sizeof(methods) / sizeof(methods[0])))

/* ---- options ---- */

enum {
	OPT_MISS = 0x200,
};

static const struct bench_option options[] = {
	{ "tests", 't', "LIST", "tests to run, comma-separated (default: all)",
	  USE_SELECT },
	{ "entries", 'E', "N", "resize the tests' maps to N entries (0: keep sizes)",
	  USE_SELECT },
	{ "attach", 'a', "LIST",
	  "how the programs see the syscalls: kprobe (ksyscall,\n"
	  "as upstream), fentry, tracepoint (sys_enter_<name>),\n"
	  "raw_tp (sys_enter), a list of them, all, or auto\n"
	  "(default): the first of them that works here", USE_SELECT },
	{ "miss", OPT_MISS, NULL,
	  "look up absent keys on purpose (lpm_kmalloc,\n"
	  "hash_lookup, lru_hash_lookup): every lookup must miss", USE_SELECT },
	{}
};

static const char *test_names[NR_TESTS];

static int parse_entries(const char *s, const char *what)
{
	__u64 v;

	if (opt.entries_given) {
		pr_err("give the map size once: num_map_entries or -E");
		return -1;
	}
	if (parse_u64(s, 0, MAX_MAP_ENTRIES, &v)) {
		pr_err("bad %s '%s': 0 (keep each map's size) to %u", what,
		       printable(s), MAX_MAP_ENTRIES);
		return -1;
	}
	opt.entries = v;
	opt.entries_given = true;
	return 0;
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
		return parse_entries(arg, "map entries");
	case 'a':
		return parse_methods(arg);
	case OPT_MISS:
		opt.miss = true;
		return 0;
	}
	return -1;
}

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
	    (argc > 2 && parse_entries(argv[2], "num_map_entries")) ||
	    (argc > 3 && bench_count_arg(argv[3], MAX_COUNT, "max_cnt")))
		return -1;
	for (t = 0; opt.miss && opt.tests_given && t < NR_TESTS; t++) {
		if (opt.test_on[t] && !tests[t].miss) {
			pr_err("--miss applies to lpm_kmalloc, hash_lookup and lru_hash_lookup, not %s",
			       tests[t].name);
			return -1;
		}
	}
	if (opt.entries > lru_lookup_range)
		lru_lookup_range = opt.entries;
	return 0;
}

static void usage_tables(FILE *f)
{
	int t;

	fprintf(f,
"\ntest_flags (upstream-compatible; default: all): bit 1<<N selects test N:\n");
	for (t = 0; t < NR_TESTS; t++)
		fprintf(f, "  %2d  0x%03x  %-28s %s, %u map op%s\n", t, 1u << t,
			tests[t].name, tests[t].syscall, tests[t].ops,
			tests[t].ops > 1 ? "s" : "");
	fprintf(f, "nr_cpus: as -c N; num_map_entries: as -E; max_cnt: as -n.\n");
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
static int open_test(struct map_row *r, struct outcome *out);

static int pick_method(struct outcome *none)
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
		err = open_test(&r, &out);
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

/* the syscall with nothing attached, once per syscall the tests make */
static struct bench_row *base_row(struct bench_rows *rows, int t)
{
	struct bench_row *row;
	int i;

	for (i = 0; i < rows->nr; i++)
		if (!rows->row[i].runs_prog &&
		    !strcmp(rows->row[i].variant, tests[t].syscall))
			return &rows->row[i];
	row = bench_add_row(rows, "base", tests[t].syscall);
	if (!row)
		return NULL;
	row->cpus = &bench_rs.cpus;
	row->trigger = &tests[t].trigger;
	row->count = DEFAULT_COUNT;
	return row;
}

static struct bench_row *add_test_row(struct bench_rows *rows, int t, int m,
				      struct outcome *why)
{
	struct bench_row *row;
	struct map_row *r;

	r = calloc(1, sizeof(*r));
	row = bench_add_row(rows, tests[t].name,
			    m >= 0 ? methods[m].name : "auto");
	if (!r || !row)
		return NULL;
	r->test = &tests[t];
	r->method = m >= 0 ? &methods[m] : NULL;
	row->priv = r;
	row->cpus = &bench_rs.cpus;
	row->trigger = &tests[t].trigger;
	row->count = DEFAULT_COUNT;
	row->runs_prog = true;
	if (m < 0)
		row->out = *why;
	return row;
}

static int setup(struct bench_rows *rows, bool listing)
{
	struct outcome none = {};
	int t, m, i, picked = -1;

	/* a listing probes nothing: auto lists every method */
	if (!listing && !opt.methods_given)
		picked = pick_method(&none);
	/* base rows first: every test's overhead is against one */
	for (t = 0; t < NR_TESTS; t++)
		if (test_selected(t) && !base_row(rows, t))
			return -ENOMEM;
	for (m = 0; m < NR_METHODS; m++) {
		bool on = opt.methods_given ? opt.method_on[m] :
			  listing || m == picked;

		for (t = 0; on && t < NR_TESTS; t++)
			if (test_selected(t) && !add_test_row(rows, t, m, &none))
				return -ENOMEM;
	}
	/* no method works: every test says why, as a row of its own */
	for (t = 0; !listing && picked < 0 && !opt.methods_given &&
	     t < NR_TESTS; t++)
		if (test_selected(t) && !add_test_row(rows, t, -1, &none))
			return -ENOMEM;
	if (rows->nr == 0) {
		pr_err("nothing selected: test_flags, -t and --miss leave no test");
		return -EINVAL;
	}
	/* the rows are all in: point each test at its syscall's base */
	for (i = 0; i < rows->nr; i++) {
		struct map_row *r = rows->row[i].priv;

		if (r)
			rows->row[i].base = base_row(rows, r->test - tests);
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
	int t, err;

	for (t = 0; t < NR_TESTS; t++)
		if (tests[t].map != r->test->map)
			bpf_map__set_autocreate(skel_map(r->skel, tests[t].map),
						false);
	err = probe_map(map, out);
	if (err)
		return err;
	/* a map of maps: its inner maps are what grows */
	if (bpf_map__inner_map(map))
		return set_inner_template(map, opt.entries, &r->inner, out);
	if (opt.entries && bpf_map__set_max_entries(map, opt.entries)) {
		outcome_set(out, ST_FAILED, "cannot resize %s",
			    bpf_map__name(map));
		return -EINVAL;
	}
	return 0;
}

static void configure(struct map_perf_config *cfg, const struct map_test *t)
{
	bool initial = true;

	cfg->syscall_nr = t->nr;
	if (!pid_namespace(&cfg->pidns_dev, &cfg->pidns_ino, &initial))
		cfg->use_pidns = !initial;
	cfg->fault = bench_fault_of(0, 1);
	cfg->fault_cpu = bench_fault.cpu;
}

/* opens the test's object for its method, sets it up, loads it */
static int open_test(struct map_row *r, struct outcome *out)
{
	int err;

	r->inner.tmpl_fd = -1;
	r->skel = map_perf_test_kern__open();
	if (!r->skel) {
		outcome_set(out, ST_FAILED, "opening the BPF object: %s",
			    strerror(errno));
		return -errno;
	}
	configure(&r->skel->rodata->cfg, r->test);
	r->prog = skel_prog(r->skel, r->test->prog[r->method - methods]);
	err = setup_maps(r, out);
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
static int fill_map(struct map_row *r, struct outcome *out)
{
	struct bpf_map *map = skel_map(r->skel, r->test->map);
	int err = 0;

	r->hits = opt.miss && r->test->miss ? HITS_NONE : HITS_ALL;
	/* a map of maps: the fill learns the kernel's size of its inner maps */
	if (!r->inner.max_entries)
		err = kernel_max_entries(bpf_map__fd(map), &r->entries);
	if (!err && r->test->fill)
		err = r->test->fill(r);
	if (err)
		outcome_set(out, ST_FAILED, "filling %s: %s",
			    bpf_map__name(map), strerror(-err));
	else if (verbosity > 1)
		pr_note("%s: %s has max_entries %u", r->test->name,
			bpf_map__name(map), r->entries);
	return err;
}

static int open_row(struct bench_row *row, struct outcome *out)
{
	struct map_row *r = row->priv;
	int err;

	if (nr_cpus_possible() > MAP_PERF_MAX_CPUS) {
		outcome_set(out, ST_FAILED,
			    "%d possible CPUs: the worker table covers %d",
			    nr_cpus_possible(), MAP_PERF_MAX_CPUS);
		return -E2BIG;
	}
	err = open_test(r, out);
	if (!err)
		err = fill_map(r, out);
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

static int attach_row(struct bench_row *row, const struct worker_pool *pool,
		      struct outcome *out)
{
	struct map_row *r = row->priv;
	int i, err;

	/* the programs act for these processes only, each on its CPU */
	memset(r->skel->bss->worker_tgid, 0,
	       sizeof(r->skel->bss->worker_tgid));
	for (i = 0; i < pool->nr; i++)
		r->skel->bss->worker_tgid[pool->cpu[i]] = pool->pid[i];
	err = zero_counters(r);
	if (err) {
		outcome_set(out, ST_FAILED, "zeroing the counters: %s",
			    strerror(-err));
		return err;
	}
	r->link = attach_link(r->method->kind, r->prog, &r->test->target,
			      r->hooked, out);
	return r->link ? 0 : -ENOENT;
}

static void detach_row(struct bench_row *row)
{
	struct map_row *r = row->priv;

	bpf_link__destroy(r->link);
	r->link = NULL;
}

/* the counters per CPU: calls into s->hits, the sums into r->c */
static int collect(struct bench_row *row, struct sample *s)
{
	struct map_row *r = row->priv;
	int ncpu = s->nr_cpus, cpu, err;
	struct map_perf_counters *v;
	__u32 key = r->test - tests;

	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	err = bpf_map__lookup_elem(r->skel->maps.counters, &key, sizeof(key),
				   v, ncpu * sizeof(*v), 0);
	memset(&r->c, 0, sizeof(r->c));
	for (cpu = 0; !err && cpu < ncpu; cpu++) {
		sample_hits(s, 0)[cpu] = v[cpu].calls;
		r->c.calls += v[cpu].calls;
		r->c.lookups += v[cpu].lookups;
		r->c.found += v[cpu].found;
		r->c.updates += v[cpu].updates;
		r->c.update_fails += v[cpu].update_fails;
		r->c.foreign += v[cpu].foreign;
	}
	free(v);
	if (err)
		outcome_set(&s->out, ST_FAILED, "cannot read the counters: %s",
			    strerror(-err));
	return err;
}

/* beyond one run per syscall: the outcomes the test expects */
static void verify(struct bench_row *row, struct sample *s)
{
	struct map_row *r = row->priv;
	struct map_perf_counters *c = &r->c;
	__u64 min_found = 0;
	int err = 0;

	/* filtered out by the programs: shown beside the hits */
	s->foreign += c->foreign;
	if (r->hits == HITS_KEPT)
		err = expect_kept_keys(bpf_map__fd(skel_map(r->skel, r->test->map)),
				       s->res, s->nr_workers, &min_found);
	if (err)
		outcome_set(&s->out, ST_FAILED, "cannot read the kept keys: %s",
			    strerror(-err));
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
	if (s->out.status == ST_OK) {
		r->lookups += c->lookups;
		r->found += c->found;
	}
}

static int prog_fds(const struct bench_row *row, int *fds, int max)
{
	const struct map_row *r = row->priv;

	fds[0] = bpf_program__fd(r->prog);
	return 1;
}

static void close_row(struct bench_row *row)
{
	struct map_row *r = row->priv;

	bpf_link__destroy(r->link);
	map_perf_test_kern__destroy(r->skel);
	r->link = NULL;
	r->skel = NULL;
}

/* ---- output ---- */

/* upstream's line for each worker: the median of its samples */
static void print_upstream(const struct bench_rows *rows)
{
	int i, w;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];
		const struct map_row *r = row->priv;

		if (!r)
			continue;	/* base rows have no upstream line */
		if (!row_has_figure(row)) {
			printf("%s: %s: %s\n", r->test->name,
			       status_name(row->out.status), row->out.reason);
			continue;
		}
		for (w = 0; w < row->cpus->nr; w++)
			printf("%d:%s %.0f %s per sec\n", row->cpus->cpu[w],
			       r->test->line, worker_median_rate(row, w) *
			       (r->test->per_lookup ? r->test->ops : 1),
			       r->test->per_lookup ? "lookups" : "events");
	}
}

static void print_row(const struct bench_row *row)
{
	const struct map_row *r = row->priv;
	char nsop[32] = "-", ratio[16] = "-", calls[48] = "-", entries[16] = "-";
	char notes[REASON_LEN + 128];
	struct row_summary s;

	printf("  %-26s %-10s %-9s ", row->name, row->variant,
	       status_name(row->out.status));
	if (!row_has_figure(row)) {
		printf("%s\n", row->out.reason);
		return;
	}
	row_summarize(row, &s);
	if (r && s.has_overhead)
		snprintf(nsop, sizeof(nsop), "%.2f ± %.2f",
			 s.overhead.value / r->test->ops,
			 s.overhead.uncertainty / r->test->ops);
	if (r && r->lookups)
		snprintf(ratio, sizeof(ratio), "%.3f",
			 (double)r->found / r->lookups);
	if (r) {
		snprintf(calls, sizeof(calls), "%llu/%llu", row->hits,
			 row->events);
		snprintf(entries, sizeof(entries), "%u", r->entries);
	}
	row_notes(row, &s, notes, sizeof(notes));
	printf("%8.3fM ± %-7.3f %10.3fM %16s %6s %8s %21s%s%s",
	       s.rate.mean / 1e6, s.rate.stddev / 1e6,
	       s.rate.mean * (r ? r->test->ops : 0) / 1e6, nsop, ratio,
	       entries, calls, notes[0] ? "  " : "", notes);
	if (!isnan(row->prog_ns))
		printf("  prog %.1f ns/run", row_prog_body(row));
	printf("\n");
}

static void print_summary(const struct bench_rows *rows)
{
	char cpus[256];
	struct utsname uts;
	int i;

	uname(&uts);
	format_cpus(&bench_rs.cpus, cpus, sizeof(cpus));
	printf("\nSummary: %d worker(s) on CPU %s, ", bench_rs.cpus.nr, cpus);
	if (opt.entries)
		printf("maps resized to %u entries, ", opt.entries);
	printf("%s%skernel %s\n", opt.miss ? "--miss, " : "",
	       bench_fault.kind ? "UNVERIFIED (a test fault is injected), " : "",
	       uts.release);
	printf("  %-26s %-10s %-9s %-19s %11s %16s %6s %8s %21s\n", "test",
	       "attach", "status", "syscalls/s mean ± sd", "map ops/s",
	       "ns/op ± sd", "hits", "entries", "calls/syscalls");
	for (i = 0; i < rows->nr; i++)
		print_row(&rows->row[i]);
	if (verbosity < 1)
		return;
	printf("ns/op: ns per map operation, the syscall's own cost (its base row) taken out;\n"
	       "map ops/s: operations per second with the syscall's cost in; hits: share of\n"
	       "lookups that found their key; calls/syscalls: program runs against syscalls made\n");
	if (bench_rs.prog_stats)
		printf("prog: ns inside the program per run, by the kernel's run-time stats in a pass of\n"
		       "their own, less their clock reads (measured on an empty program)\n");
}

static void json_context(json_t *ctx)
{
	json_object_set_new(ctx, "entries", opt.entries ?
			    json_integer(opt.entries) : json_null());
	json_object_set_new(ctx, "miss", json_boolean(opt.miss));
	if (bench_fault.kind)
		json_object_set_new(ctx, "fault", json_string(bench_fault.name));
}

static void json_row(const struct bench_row *row, json_t *o)
{
	const struct map_row *r = row->priv;
	struct row_summary s;
	json_t *nsop;

	if (!r)
		return;
	json_object_set_new(o, "attach_method", r->method ?
			    json_string(r->method->name) : json_null());
	json_object_set_new(o, "ops_per_event", json_integer(r->test->ops));
	json_object_set_new(o, "lookups", json_integer(r->lookups));
	json_object_set_new(o, "found", json_integer(r->found));
	json_object_set_new(o, "entries", json_integer(r->entries));
	if (!row_has_figure(row))
		return;
	row_summarize(row, &s);
	if (!s.has_overhead) {
		json_object_set_new(o, "ns_per_op", json_null());
		return;
	}
	nsop = json_object();
	json_object_set_new(nsop, "value",
			    json_real(s.overhead.value / r->test->ops));
	json_object_set_new(nsop, "uncertainty",
			    json_real(s.overhead.uncertainty / r->test->ops));
	json_object_set_new(o, "ns_per_op", nsop);
}

static void list_row(const struct bench_row *row, json_t *o)
{
	const struct map_row *r = row->priv;
	struct map_perf_test_kern *skel;

	if (!r)
		return;		/* a base row: nothing attached */
	json_object_set_new(o, "flag", json_integer(1ull << (r->test - tests)));
	json_object_set_new(o, "needs", needs_json(r->method->kind->needs, 4,
						   NULL));
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
	.open = open_row,
	.attach = attach_row,
	.detach = detach_row,
	.collect = collect,
	.verify = verify,
	.prog_fds = prog_fds,
	.close = close_row,
	.print_upstream = print_upstream,
	.print_summary = print_summary,
	.json_context = json_context,
	.json_row = json_row,
};

int main(int argc, char **argv)
{
	return bench_main(&map_perf_family, argc, argv);
}
