// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test: how fast BPF programs operate on each map type. Every
 * worker repeats one syscall on its own CPU; a BPF program attached to that
 * syscall does the test's map work, for the workers' processes only, and
 * counts what it did. A figure is shown only when those counts prove the
 * work was done: the program ran once per syscall, lookups found what they
 * should, updates succeeded.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_report.h"
#include "map_perf_test.h"
#include "map_perf_test_kern.skel.h"

#define DEFAULT_COUNT	100000ull
#define MAX_COUNT	10000000000ull
#define MAX_MAP_ENTRIES	(1u << 24)
#define LPM_PREFIXES	512	/* random prefixes around the /32 */
#define LRU_LOOKUP_SPAN	32	/* keys one LRU_HASH_LOOKUP event looks up */

_Static_assert(MAX_WORKERS == MAP_PERF_MAX_WORKERS,
	       "the BPF side's worker table must fit every worker");

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

/* ---- options ---- */

struct options {
	bool selected[NR_TESTS];
	struct cpu_list cpus;
	__u64 count;
	__u32 entries;		/* 0: every map keeps its own size */
	int method;		/* index in methods[], or METHOD_AUTO */
	bool miss;
	struct run_settings rs;
};

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

/* ---- filling the maps before the workers start ---- */

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

struct test_result {
	struct measurement m;
	struct map_perf_counters c;
	enum hits hits;
	__u64 min_found;	/* HITS_KEPT: the hits the kept keys allow */
	struct map_def inner;	/* the test's inner maps, if any */
	__u32 entries;		/* the kernel's max_entries of the test's map */
};

static int map_fd(struct bpf_object *obj, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);

	return map ? bpf_map__fd(map) : -ENOENT;
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

static int fill_hash_lookup(struct bpf_object *obj, const struct options *opt,
			    struct test_result *r)
{
	__u32 key = LOOKUP_KEY;
	long val = 1;

	if (opt->miss)
		return 0;
	return bpf_map_update_elem(map_fd(obj, "hash_map"), &key, &val,
				   BPF_ANY) ? -errno : 0;
}

struct lpm_key {
	__u32 prefixlen;
	__u8 data[4];
};

/* does @key's prefix contain @addr? */
static bool lpm_covers(const struct lpm_key *key, const __u8 *addr)
{
	__u32 bits = key->prefixlen, i;

	for (i = 0; i < bits / 8; i++)
		if (key->data[i] != addr[i])
			return false;
	return bits % 8 == 0 ||
	       !((key->data[i] ^ addr[i]) & (0xff00 >> (bits % 8)));
}

/*
 * 512 random prefixes, then 192.168.0.1/32 -> 128, in the LPM trie the
 * program searches. Under --miss, no prefix at all contains the address.
 * The same seed every run: every run searches the same trie.
 */
static int fill_lpm(struct bpf_object *obj, const struct options *opt,
		    struct test_result *r)
{
	const __u8 addr[4] = LPM_ADDR;
	int fd = map_fd(obj, "lpm_trie_map_alloc");
	struct lpm_key key;
	__u32 max = 0, n = 0;
	long value = 0;
	int err, i;

	err = fd < 0 ? fd : kernel_max_entries(fd, &max);
	if (err)
		return err;
	srand(1);
	while (n < LPM_PREFIXES && n < max - !opt->miss) {
		key.prefixlen = rand() % 33;
		for (i = 0; i < 4; i++)
			key.data[i] = rand() & 0xff;
		if (opt->miss && lpm_covers(&key, addr))
			continue;
		if (bpf_map_update_elem(fd, &key, &value, BPF_ANY))
			return -errno;
		n++;
	}
	if (opt->miss)
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
		*min_found += res[k].events / nr_windows * before[nr_windows] +
			      before[res[k].events % nr_windows];
	if (verbosity > 1 && before[nr_windows] < nr_windows * LRU_LOOKUP_SPAN)
		pr_note("lru_hash_lookup: LRU eviction during the fill kept %llu of the %u keys looked up",
			before[nr_windows], nr_windows * LRU_LOOKUP_SPAN);
	free(before);
	return 0;
}

static int fill_lru_hash_lookup(struct bpf_object *obj,
				const struct options *opt,
				struct test_result *r)
{
	int fd = map_fd(obj, "lru_hash_lookup_map");
	__u32 key;
	long val = 1;

	if (fd < 0 || opt->miss)
		return fd < 0 ? fd : 0;
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
static int fill_inner_lru(struct bpf_object *obj, const struct options *opt,
			  struct test_result *r)
{
	int i, fd, outer = map_fd(obj, "array_of_lru_hashs"), err = 0;
	const struct map_def *def = &r->inner;
	__u32 cpu;

	if (outer < 0)
		return outer;
	for (i = 0; !err && i < opt->cpus.nr; i++) {
		LIBBPF_OPTS(bpf_map_create_opts, mopts,
			    .map_flags = def->flags,
			    .numa_node = cpu_node(opt->cpus.cpu[i]));

		cpu = opt->cpus.cpu[i];
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

/* ---- the tests ---- */

struct map_test {
	/* -t name; its BPF programs are <method>_<name> */
	const char *name;
	/* upstream's line for each worker: "<cpu>:<line> <n> <unit> per sec" */
	const char *line;
	bool per_lookup;	/* the line counts lookups, not events */
	unsigned int ops;	/* map operations per event */
	struct trigger trigger;
	long nr;		/* the syscall number, raw_tp's filter */
	struct attach_target target;	/* raw_tp uses sys_enter instead */
	const char *map;	/* the map it uses, which -E resizes */
	/* fills the map after load, before the workers start */
	int (*fill)(struct bpf_object *obj, const struct options *opt,
		    struct test_result *r);
	bool miss;		/* --miss applies */
};

/*
 * A test whose workers make syscall @sc. fentry tries the arch stub, then
 * __do_sys_<sc>: SYSCALL_DEFINE0's stubs are aliases of it, the one name
 * with BTF.
 */
#define SYSCALL_EVENT(sc)						\
	.trigger = { #sc, NULL, sc##_run },				\
	.nr = __NR_##sc,						\
	.target = {							\
		.kfunc = { SYS_PREFIX #sc, "__do_sys_" #sc },		\
		.tp_category = "syscalls",				\
		.tp_name = "sys_enter_" #sc,				\
		.syscall = #sc,						\
	}

/* a connect() test; fentry reads the arguments from the stub's pt_regs */
#define CONNECT_EVENT(run)						\
	.trigger = { "connect", connect_setup, run },			\
	.nr = __NR_connect,						\
	.target = {							\
		.kfunc = { SYS_PREFIX "connect" },			\
		.tp_category = "syscalls",				\
		.tp_name = "sys_enter_connect",				\
		.syscall = "connect",					\
	}

static const struct map_test tests[NR_TESTS] = {
	[HASH_PREALLOC] = {
		.name = "hash_prealloc", .line = "hash_map_perf pre-alloc",
		.ops = 30, SYSCALL_EVENT(getuid), .map = "hash_map",
	},
	[PERCPU_HASH_PREALLOC] = {
		.name = "percpu_hash_prealloc",
		.line = "percpu_hash_map_perf pre-alloc",
		.ops = 30, SYSCALL_EVENT(geteuid), .map = "percpu_hash_map",
	},
	[HASH_KMALLOC] = {
		.name = "hash_kmalloc", .line = "hash_map_perf kmalloc",
		.ops = 30, SYSCALL_EVENT(getgid), .map = "hash_map_alloc",
	},
	[PERCPU_HASH_KMALLOC] = {
		.name = "percpu_hash_kmalloc",
		.line = "percpu_hash_map_perf kmalloc",
		.ops = 30, SYSCALL_EVENT(getegid),
		.map = "percpu_hash_map_alloc",
	},
	[LRU_HASH_PREALLOC] = {
		.name = "lru_hash_prealloc",
		.line = "lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(lru_hash_run), .map = "lru_hash_map",
	},
	[NOCOMMON_LRU_HASH_PREALLOC] = {
		.name = "nocommon_lru_hash_prealloc",
		.line = "nocommon_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(nocommon_lru_hash_run),
		.map = "nocommon_lru_hash_map",
	},
	[LPM_KMALLOC] = {
		.name = "lpm_kmalloc", .line = "lpm_perf kmalloc",
		.ops = 32, SYSCALL_EVENT(gettid), .map = "lpm_trie_map_alloc",
		.fill = fill_lpm, .miss = true,
	},
	[HASH_LOOKUP] = {
		.name = "hash_lookup", .line = "hash_lookup",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getpgid),
		.map = "hash_map", .fill = fill_hash_lookup, .miss = true,
	},
	[ARRAY_LOOKUP] = {
		.name = "array_lookup", .line = "array_lookup",
		.per_lookup = true, .ops = 64, SYSCALL_EVENT(getppid),
		.map = "array_map",
	},
	[INNER_LRU_HASH_PREALLOC] = {
		.name = "inner_lru_hash_prealloc",
		.line = "inner_lru_hash_map_perf pre-alloc",
		.ops = 1, CONNECT_EVENT(inner_lru_hash_run),
		.map = "array_of_lru_hashs", .fill = fill_inner_lru,
	},
	[LRU_HASH_LOOKUP] = {
		.name = "lru_hash_lookup",
		.line = "lru_hash_lookup_perf pre-alloc",
		.ops = 32, CONNECT_EVENT(lru_hash_lookup_run),
		.map = "lru_hash_lookup_map", .fill = fill_lru_hash_lookup,
		.miss = true,
	},
};

/* ---- attach methods ---- */

struct attach_method {
	const char *name;	/* -a name, and the BPF program prefix */
	enum attach_kind kind;
};

/* -a auto tries them in this order: upstream's kprobes first */
static const struct attach_method methods[] = {
	{ "kprobe", ATTACH_KSYSCALL },
	{ "fentry", ATTACH_FENTRY },
	{ "tracepoint", ATTACH_TRACEPOINT },
	{ "raw_tp", ATTACH_RAW_TP },
};
#define NR_METHODS ((int)(sizeof(methods) / sizeof(methods[0])))
#define METHOD_AUTO NR_METHODS

/* ---- options ---- */

static void usage(FILE *f)
{
	int t;

	fprintf(f,
"Usage: map_perf_test [options] [test_flags] [nr_cpus] [num_map_entries] [max_cnt]\n"
"       map_perf_test --compare A.json B.json [--fail-on-regression PCT]\n"
"Speed of BPF map operations, done by a BPF program on each worker's\n"
"syscalls and verified by the program's own counts.\n"
"\n"
"  -t, --tests LIST    tests to run, comma-separated (default: all)\n"
"  -c, --cpus N|LIST   N: the first N online CPUs; or a list like 0,2-3\n"
"                      (default: every online CPU), one worker each\n"
"  -n, --count N       syscalls per worker, test and sample (default %llu)\n"
"  -E, --entries N     resize the tests' maps to N entries (0: keep sizes)\n"
"  -a, --attach METHOD how the programs see the syscalls: kprobe (ksyscall,\n"
"                      as upstream), fentry, tracepoint (sys_enter_<name>),\n"
"                      raw_tp (sys_enter), or auto (default): the first of\n"
"                      them that works here\n"
"      --miss          look up absent keys on purpose (lpm_kmalloc,\n"
"                      hash_lookup, lru_hash_lookup): every lookup must miss\n"
COMMON_USAGE
"  -q, --quiet         only the summary\n"
"  -v, --verbose       the maps' sizes, and libbpf's messages too\n"
"  -h, --help          this text\n"
"\n"
"test_flags (upstream-compatible; default: all): bit 1<<N selects test N:\n",
		DEFAULT_COUNT);
	for (t = 0; t < NR_TESTS; t++)
		fprintf(f, "  %2d  0x%03x  %s\n", t, 1u << t, tests[t].name);
	fprintf(f,
"nr_cpus: as -c N; num_map_entries: as -E; max_cnt: as -n.\n"
"\n"
"Exit status: 0 when every selected test ran verified or was skipped for a\n"
"reason the kernel gives; 1 when one failed or none could run; 2 on a usage\n"
"error; 128+signal when interrupted. --compare: 0, or 1 for a regression\n"
"beyond --fail-on-regression.\n");
}

/* LIST of test names into @mask; -1 with a message on an unknown one */
static int parse_tests(const char *list, bool *mask)
{
	const char *names[NR_TESTS];
	int i;

	for (i = 0; i < NR_TESTS; i++)
		names[i] = tests[i].name;
	return parse_name_list(list, "test", names, NR_TESTS, mask);
}

static int parse_method(const char *s, int *method)
{
	const char *names[NR_METHODS + 1];
	int i;

	for (i = 0; i < NR_METHODS; i++)
		names[i] = methods[i].name;
	names[METHOD_AUTO] = "auto";
	*method = name_index(s, names, NR_METHODS + 1);
	if (*method >= 0)
		return 0;
	pr_err("unknown attach method '%s': kprobe, fentry, tracepoint, raw_tp or auto",
	       s);
	return -1;
}

static int parse_count(const char *s, __u64 *count)
{
	if (!parse_u64(s, 1, MAX_COUNT, count))
		return 0;
	pr_err("bad count '%s': 1 to %llu syscalls per worker", s, MAX_COUNT);
	return -1;
}

static int parse_entries(const char *s, __u32 *entries)
{
	__u64 v;

	if (!parse_u64(s, 0, MAX_MAP_ENTRIES, &v)) {
		*entries = v;
		return 0;
	}
	pr_err("bad map entries '%s': 0 (keep each map's size) to %u", s,
	       MAX_MAP_ENTRIES);
	return -1;
}

/* the positional arguments, upstream's order; each given once */
static int parse_positional(int argc, char **argv, struct options *opt,
			    const char **cpus, bool *entries_set,
			    bool *count_set, __u64 *flags)
{
	if (argc > 4) {
		pr_err("too many arguments (see --help)");
		return -1;
	}
	if (argc > 0 && parse_u64(argv[0], 1, ~0ull, flags)) {
		pr_err("bad test_flags '%s': a non-zero number such as 0x180",
		       argv[0]);
		return -1;
	}
	if (argc > 1) {
		if (*cpus) {
			pr_err("give the CPUs once: nr_cpus or -c");
			return -1;
		}
		*cpus = argv[1];
	}
	if (argc > 2) {
		if (*entries_set) {
			pr_err("give the map size once: num_map_entries or -E");
			return -1;
		}
		if (parse_entries(argv[2], &opt->entries))
			return -1;
	}
	if (argc > 3) {
		if (*count_set) {
			pr_err("give the count once: max_cnt or -n");
			return -1;
		}
		if (parse_count(argv[3], &opt->count))
			return -1;
	}
	return 0;
}

/* the option getopt stopped at: "-x" even inside "-qx" */
static int parse_options(int argc, char **argv, struct options *opt)
{
	/* after the common options' values */
	enum { OPT_MISS = OPT_FAIL_ON_REGRESSION + 1 };
	static const struct option longopts[] = {
		{ "tests", required_argument, NULL, 't' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'n' },
		{ "entries", required_argument, NULL, 'E' },
		{ "attach", required_argument, NULL, 'a' },
		{ "miss", no_argument, NULL, OPT_MISS },
		{ "help", no_argument, NULL, 'h' },
		COMMON_LONGOPTS,
		{},
	};
	bool test_on[NR_TESTS], entries_set = false, count_set = false;
	const char *cpus = NULL;
	__u64 flags = ~0ull;
	int c, t, any = 0;

	for (t = 0; t < NR_TESTS; t++)
		test_on[t] = true;
	opt->count = DEFAULT_COUNT;
	opt->method = METHOD_AUTO;
	run_settings_init(&opt->rs);

	opterr = 0;	/* one line of ours instead of getopt's two */
	while ((c = getopt_long(argc, argv, ":t:c:n:E:a:h" COMMON_SHORTOPTS,
				longopts, NULL)) != -1) {
		switch (parse_common_option(c, optarg, argc, argv, &opt->rs)) {
		case 1:
			continue;
		case -1:
			return -1;
		}
		switch (c) {
		case 't':
			if (parse_tests(optarg, test_on))
				return -1;
			break;
		case 'c':
			cpus = optarg;
			break;
		case 'n':
			if (parse_count(optarg, &opt->count))
				return -1;
			count_set = true;
			break;
		case 'E':
			if (parse_entries(optarg, &opt->entries))
				return -1;
			entries_set = true;
			break;
		case 'a':
			if (parse_method(optarg, &opt->method))
				return -1;
			break;
		case OPT_MISS:
			opt->miss = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -1;	/* getopt_long gives nothing else */
		}
	}
	if (check_common_options(&opt->rs, argc))
		return -1;
	if (opt->rs.compare[0])
		return 0;
	if (parse_positional(argc - optind, argv + optind, opt, &cpus,
			     &entries_set, &count_set, &flags))
		return -1;
	if (select_cpus(cpus, &opt->cpus))
		return -1;
	for (t = 0; t < NR_TESTS; t++)
		any |= opt->selected[t] = test_on[t] && (flags & (1ull << t));
	if (!any) {
		pr_err("nothing selected: test_flags and -t leave no test");
		return -1;
	}
	if (opt->entries > lru_lookup_range)
		lru_lookup_range = opt->entries;
	return 0;
}

/* ---- one run: load, fill, release the workers, verify ---- */

/* the workers, and for raw_tp the syscall, the programs are to act for */
static int set_rodata(struct bpf_object *obj, const struct worker_pool *pool,
		      long nr)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".rodata");
	struct map_perf_test_kern__rodata ro;
	const void *init;
	size_t size;
	int i;

	/* the section is the struct without its tail padding */
	init = map ? bpf_map__initial_value(map, &size) : NULL;
	if (!init || size > sizeof(ro))
		return -ENOENT;
	memset(&ro, 0, sizeof(ro));
	memcpy(&ro, init, size);
	ro.syscall_nr = nr;
	ro.nr_workers = pool ? pool->nr : 0;
	for (i = 0; i < (int)ro.nr_workers; i++) {
		ro.worker_tgid[i] = pool->pid[i];
		if (!i || ro.worker_tgid[i] < ro.tgid_min)
			ro.tgid_min = ro.worker_tgid[i];
		if (ro.worker_tgid[i] > ro.tgid_max)
			ro.tgid_max = ro.worker_tgid[i];
	}
	return bpf_map__set_initial_value(map, &ro, size);
}

/* is @name some test's map? */
static bool is_test_map(const char *name)
{
	int t;

	for (t = 0; t < NR_TESTS; t++)
		if (!strcmp(tests[t].map, name))
			return true;
	return false;
}

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
static int setup_maps(struct bpf_object *obj, const struct map_test *t,
		      __u32 entries, struct map_def *inner, struct outcome *out)
{
	struct bpf_map *map;
	int err;

	bpf_object__for_each_map(map, obj) {
		if (!is_test_map(bpf_map__name(map)))
			continue;
		if (strcmp(bpf_map__name(map), t->map)) {
			bpf_map__set_autocreate(map, false);
			continue;
		}
		err = probe_map(map, out);
		if (err)
			return err;
		/* a map of maps: its inner maps are what grows */
		if (bpf_map__inner_map(map)) {
			err = set_inner_template(map, entries, inner, out);
			if (err)
				return err;
		} else if (entries && bpf_map__set_max_entries(map, entries)) {
			outcome_set(out, ST_FAILED, "cannot resize %s",
				    bpf_map__name(map));
			return -EINVAL;
		}
	}
	return 0;
}

/* opens <method>_<test>, sets it up for @pool's workers, loads, attaches */
static int attach_test(struct bpf_run *run, const struct options *opt,
		       const struct map_test *t, int method,
		       const struct worker_pool *pool, struct map_def *inner,
		       struct outcome *out)
{
	const struct attach_method *am = &methods[method];
	struct attach_target target = t->target;
	const void *elf;
	char prog[64];
	size_t size;
	int err;

	inner->tmpl_fd = -1;
	elf = map_perf_test_kern__elf_bytes(&size);
	snprintf(prog, sizeof(prog), "%s_%s", am->name, t->name);
	err = bpf_run_open(run, elf, size, "map_perf_test_kern", prog, out);
	if (err)
		return err;
	err = set_rodata(run->obj, pool, t->nr);
	if (err) {
		outcome_set(out, ST_FAILED, "no .rodata in the BPF object");
		return err;
	}
	err = setup_maps(run->obj, t, opt->entries, inner, out);
	if (am->kind == ATTACH_RAW_TP)
		target.tp_name = "sys_enter";
	if (!err)
		err = bpf_run_attach(run, am->kind, &target, out);
	/* loaded or not, the outer map has taken what it needs */
	if (inner->tmpl_fd >= 0)
		close(inner->tmpl_fd);
	inner->tmpl_fd = -1;
	return err;
}

/* the map's size as the kernel has it, and its contents for the test */
static int prepare_map(struct bpf_run *run, const struct options *opt,
		       const struct map_test *t, struct test_result *r)
{
	struct bpf_map *map = bpf_object__find_map_by_name(run->obj, t->map);
	int err;

	r->hits = opt->miss && t->miss ? HITS_NONE : HITS_ALL;
	err = map ? 0 : -ENOENT;
	if (!err && t->fill)
		err = t->fill(run->obj, opt, r);
	if (err) {
		outcome_set(&r->m.out, ST_FAILED, "filling %s: %s", t->map,
			    strerror(-err));
		return err;
	}
	/* a map of maps: the fill had the kernel's size of its inner maps */
	if (!r->inner.max_entries)
		kernel_max_entries(bpf_map__fd(map), &r->entries);
	if (verbosity > 1)
		pr_note("%s: %s has max_entries %u", t->name, t->map,
			r->entries);
	return 0;
}

/* what one sample of a test needs from the runner */
struct map_sample {
	const struct options *opt;
	int test;
	int method;
	struct test_result *r;
};

static int sample_prepare(void *ctx, const struct worker_pool *pool,
			  struct bpf_run *run, struct outcome *out)
{
	struct map_sample *s = ctx;
	const struct map_test *t = &tests[s->test];

	if (attach_test(run, s->opt, t, s->method, pool, &s->r->inner, out))
		return -1;
	return prepare_map(run, s->opt, t, s->r);
}

/* the counts must prove the work: one run per syscall, expected outcomes */
static void sample_verify(void *ctx, struct bpf_run *run,
			  struct measurement *m, const struct worker_result *res)
{
	struct map_sample *s = ctx;
	struct bpf_map *map = bpf_object__find_map_by_name(run->obj,
							   "counters");
	struct test_result *r = s->r;
	struct map_perf_counters *c = &r->c;
	struct outcome *out = &m->out;
	int fd, err;

	err = map ? percpu_sum_fields(map, s->test, (__u64 *)c,
				      sizeof(*c) / sizeof(__u64)) : -ENOENT;
	if (err) {
		outcome_set(out, ST_FAILED, "cannot read the counters: %s",
			    strerror(-err));
		return;
	}
	/* what the row reports as hits: the program's runs */
	m->hits = c->calls;
	if (r->hits == HITS_KEPT) {
		fd = map_fd(run->obj, tests[s->test].map);
		err = fd < 0 ? fd : expect_kept_keys(fd, res, m->nr_workers,
						     &r->min_found);
	}
	if (err)
		outcome_set(out, ST_FAILED, "cannot read the kept keys: %s",
			    strerror(-err));
	else if (c->calls < m->events)
		outcome_set(out, ST_FAILED,
			    "program ran %llu times for %llu syscalls",
			    c->calls, m->events);
	else if (c->update_fails)
		outcome_set(out, ST_FAILED,
			    "%llu of %llu updates failed (max_entries %u, %d workers)",
			    c->update_fails, c->updates, r->entries,
			    m->nr_workers);
	else if (r->hits == HITS_ALL && c->found < c->lookups)
		outcome_set(out, ST_FAILED,
			    "%llu of %llu lookups missed; all should hit",
			    c->lookups - c->found, c->lookups);
	else if (r->hits == HITS_NONE && c->found)
		outcome_set(out, ST_FAILED,
			    "%llu of %llu lookups hit; --miss wants none",
			    c->found, c->lookups);
	else if (r->hits == HITS_KEPT && c->found < r->min_found)
		outcome_set(out, ST_FAILED,
			    "%llu of %llu lookups hit; the keys kept make %llu",
			    c->found, c->lookups, r->min_found);
}

static const struct sample_ops map_ops = {
	.prepare = sample_prepare,
	.verify = sample_verify,
};

/*
 * One sample of one test. With @prog_stats the kernel's counters of the
 * program's run time are read too (they are on only for that pass).
 */
static int run_one(const struct options *opt, int test, int method,
		   bool prog_stats, struct test_result *r,
		   struct worker_result *res)
{
	struct map_sample s = { opt, test, method, r };
	struct sample_spec spec = {
		.cpus = &opt->cpus,
		.trigger = &tests[test].trigger,
		.count = opt->count,
		.duration_ns = opt->rs.duration * 1e9,
		.prog_stats = prog_stats,
	};

	memset(r, 0, sizeof(*r));
	return run_sample(&spec, &map_ops, &s, &r->m, res);
}

/*
 * -a auto: the first method that loads and attaches array_lookup's
 * program, the lightest, for no worker. @why gets the rejected methods'
 * reasons. A method that fails for a reason other than the kernel's stops
 * the search: a fallback must not hide a bug. -1 with @none saying why
 * when no method is left.
 */
static int pick_method(const struct options *opt, char *why, size_t len,
		       struct outcome *none)
{
	struct map_def inner;
	struct outcome out;
	struct bpf_run run;
	size_t off = 0;
	int i, err;

	why[0] = '\0';
	for (i = 0; i < NR_METHODS; i++) {
		memset(&out, 0, sizeof(out));
		err = attach_test(&run, opt, &tests[ARRAY_LOOKUP], i, NULL,
				  &inner, &out);
		bpf_run_close(&run);
		if (!err || bench_interrupted())
			return err ? -1 : i;
		if (off < len)
			off += snprintf(why + off, len - off, "%s%s %s: %s",
					off ? "; " : "", methods[i].name,
					status_name(out.status), out.reason);
		if (out.status == ST_FAILED) {
			outcome_set(none, ST_FAILED, "auto attach: %s: %s",
				    methods[i].name, out.reason);
			return -1;
		}
	}
	outcome_set(none, ST_SKIPPED,
		    "no attach method works on this kernel (see \"auto attach tried\")");
	return -1;
}

/* ---- output ---- */

/* "100000 syscalls" or "0.05 s": what one sample is */
static void format_sample(const struct options *opt, char *buf, size_t len)
{
	if (opt->rs.duration)
		snprintf(buf, len, "%g s", opt->rs.duration);
	else
		snprintf(buf, len, "%llu syscalls", opt->count);
}

static void print_header(const struct options *opt, int method,
			 const char *why)
{
	char cpus[256], sample[64];

	format_cpus(&opt->cpus, cpus, sizeof(cpus));
	format_sample(opt, sample, sizeof(sample));
	printf("map_perf_test: %d worker(s) on CPU %s, %s per worker and sample, ",
	       opt->cpus.nr, cpus, sample);
	if (opt->entries)
		printf("maps resized to %u entries, ", opt->entries);
	else
		printf("maps at their own sizes, ");
	printf("attach by %s%s%s\n", method >= 0 ? methods[method].name :
	       "none", opt->method == METHOD_AUTO ? " (auto)" : "",
	       opt->miss ? ", --miss" : "");
	/* each rejected method and why: "<method> <status>: <reason>" */
	if (why[0])
		printf("auto attach tried: %s\n", why);
}

static void print_workers(const struct map_test *t, const struct test_result *r,
			  const struct worker_result *res)
{
	const char *unit = t->per_lookup ? "lookups" : "events";
	unsigned int mult = t->per_lookup ? t->ops : 1;
	double ns;
	int i;

	if (r->m.out.status != ST_OK) {
		printf("%s: %s: %s\n", t->name, status_name(r->m.out.status),
		       r->m.out.reason);
		return;
	}
	/* upstream's line, so that scripts grepping for it keep working */
	for (i = 0; i < r->m.nr_workers; i++) {
		ns = res[i].elapsed_ns ? res[i].elapsed_ns : 1;
		printf("%d:%s %lld %s per sec\n", res[i].cpu, t->line,
		       (long long)(res[i].events * 1e9 * mult / ns), unit);
	}
}

/* what a row gathers beyond its samples, over its counted rounds */
struct map_counts {
	__u64 lookups;
	__u64 found;
	__u32 entries;		/* the kernel's max_entries of the map */
};

static void counts_record(struct map_counts *mc, const struct test_result *r)
{
	mc->lookups += r->c.lookups;
	mc->found += r->c.found;
	mc->entries = r->entries;
}

/* " prog 41.2 ns/run", or why there is no such figure */
static void format_prog(const struct bench_row *row, char *buf, size_t len)
{
	if (!isnan(row->prog_ns))
		snprintf(buf, len, "  prog %.1f ns/run", row_prog_body(row));
	else if (row->prog_out.status == ST_FAILED)
		snprintf(buf, len, "  prog stats FAILED: %s",
			 row->prog_out.reason);
	else
		buf[0] = '\0';	/* a skip is among the notes */
}

static void print_row(const struct bench_row *row, const struct map_test *t,
		      const struct map_counts *mc)
{
	char ratio[16] = "-", prog[REASON_LEN + 32], notes[REASON_LEN + 64];
	struct row_summary s;

	printf("  %-26s %-10s %-8s ", row->name, row->variant,
	       status_name(row->out.status));
	if (row->out.status != ST_OK) {
		printf("%s\n", row->out.reason);
		return;
	}
	row_summarize(row, &s);
	if (mc->lookups)
		snprintf(ratio, sizeof(ratio), "%.3f",
			 (double)mc->found / mc->lookups);
	format_prog(row, prog, sizeof(prog));
	row_notes(row, &s, notes, sizeof(notes));
	printf("%8.3fM ± %-6.3f %9.3fM %7.1f %6s %8u %llu/%llu%s%s%s\n",
	       s.rate.mean / 1e6, s.rate.stddev / 1e6,
	       s.rate.mean * t->ops / 1e6, s.ns.mean / t->ops, ratio,
	       mc->entries, row->hits, row->events, prog,
	       notes[0] ? "  " : "", notes);
}

static void print_summary(const struct options *opt, const char *method,
			  const struct bench_row *rows,
			  const struct map_counts *counts)
{
	char cpus[256], sample[64];
	struct utsname uts;
	int t;

	uname(&uts);
	format_cpus(&opt->cpus, cpus, sizeof(cpus));
	format_sample(opt, sample, sizeof(sample));
	printf("\nSummary: %d worker(s) on CPU %s, %s per worker and sample, %d sample(s)%s, attach %s, kernel %s\n",
	       opt->cpus.nr, cpus, sample, opt->rs.repeat,
	       opt->rs.warmup ? " after warm-up" : "", method, uts.release);
	printf("  %-26s %-10s %-8s %-18s %10s %7s %6s %8s %s\n", "test",
	       "attach", "status", "events/s mean ± sd", "ops/s", "ns/op",
	       "hits", "entries", "calls/syscalls");
	for (t = 0; t < NR_TESTS; t++)
		if (rows[t].selected)
			print_row(&rows[t], &tests[t], &counts[t]);
	if (verbosity < 1)
		return;
	printf("ns/op: the syscall and its program, per map operation; hits: share of lookups that found their key\n");
	if (opt->rs.prog_stats)
		printf("prog: ns inside the program per run, by the kernel's run-time stats in a pass of\n"
		       "their own, less their clock reads (measured on an empty program)\n");
}

/* ---- the run ---- */

/* --json -: stdout holds the JSON alone */
static bool text_off;

static void init_rows(const struct options *opt, int method,
		      struct bench_row *rows)
{
	const char *variant = method >= 0 ? methods[method].name : "auto";
	int t;

	for (t = 0; t < NR_TESTS; t++) {
		row_init(&rows[t], tests[t].name, variant, "events/s");
		rows[t].selected = opt->selected[t];
		/* hits: the program's runs, against the syscalls made */
		rows[t].counts_hits = true;
	}
}

/* no method to run with: every selected test gets @why */
static void none_ran(const struct outcome *why, struct bench_row *rows)
{
	int t;

	for (t = 0; t < NR_TESTS; t++)
		rows[t].out = *why;
}

/*
 * Rounds of every selected test, so that drift hits every test alike; the
 * warm-up rounds count only for skips and failures.
 */
static int run_rounds(const struct options *opt, int method,
		      struct bench_row *rows, struct map_counts *counts)
{
	static struct worker_result res[MAX_WORKERS];
	struct test_result r;
	int rounds = opt->rs.warmup + opt->rs.repeat;
	int i, t, done, total = 0;

	for (t = 0; t < NR_TESTS; t++)
		total += rows[t].selected;
	for (i = 0; i < rounds; i++) {
		bool counted = i >= opt->rs.warmup;

		done = 0;
		for (t = 0; t < NR_TESTS; t++) {
			if (!rows[t].selected)
				continue;
			progress(done++, total, &rows[t], i, rounds);
			if (!row_runnable(&rows[t]))
				continue;
			if (run_one(opt, t, method, false, &r, res))
				return -EINTR;
			if (counted || r.m.out.status != ST_OK)
				row_record(&rows[t], &r.m);
			if (counted && r.m.out.status == ST_OK)
				counts_record(&counts[t], &r);
			if (!counted || verbosity < 1 || text_off)
				continue;
			progress_end();
			print_workers(&tests[t], &r, res);
			fflush(stdout);
		}
	}
	progress_end();
	return 0;
}

struct stats_ctx {
	const struct options *opt;
	int method;
};

/* --prog-stats: test @t again, with the kernel's run-time stats read */
static int stats_sample(void *ctx, int t, struct measurement *m)
{
	static struct worker_result res[MAX_WORKERS];
	const struct stats_ctx *c = ctx;
	struct test_result r;
	int err;

	err = run_one(c->opt, t, c->method, true, &r, res);
	*m = r.m;
	return err;
}

int main(int argc, char **argv)
{
	static struct bench_row rows[NR_TESTS];
	static struct map_counts counts[NR_TESTS];
	struct run_context ctx = { .tool = "map_perf_test" };
	struct options opt = {};
	struct outcome none = {};
	char why[4 * REASON_LEN];
	int method;

	bench_init("map_perf_test");
	if (parse_options(argc, argv, &opt))
		return EXIT_USAGE;
	if (opt.rs.compare[0])
		return run_compare(&opt.rs);
	text_off = json_on_stdout(&opt.rs);
	if (bench_setup())
		return 1;

	why[0] = '\0';
	method = opt.method;
	if (method == METHOD_AUTO)
		method = pick_method(&opt, why, sizeof(why), &none);
	if (bench_interrupted())
		goto interrupted;
	if (verbosity > 0 && !text_off)
		print_header(&opt, method, why);
	else if (method < 0)
		pr_err("auto attach tried: %s", why);

	init_rows(&opt, method, rows);
	if (method < 0)
		none_ran(&none, rows);
	else if (run_rounds(&opt, method, rows, counts))
		goto interrupted;
	/* a pass of its own: the run-time stats cost something themselves */
	if (method >= 0 && opt.rs.prog_stats &&
	    prog_stats_pass(rows, NR_TESTS, stats_sample,
			    &(struct stats_ctx){ &opt, method }))
		goto interrupted;
	if (!text_off)
		print_summary(&opt, method >= 0 ? methods[method].name : "none",
			      rows, counts);

	ctx.cpus = &opt.cpus;
	ctx.attach_method = method >= 0 ? methods[method].name : NULL;
	ctx.count = opt.count;
	ctx.rs = &opt.rs;
	return bench_finish(&ctx, rows, NR_TESTS);

interrupted:
	return bench_exit_interrupted();
}
