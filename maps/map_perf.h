/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_perf_test's own interfaces between its files: the tests table's
 * types, the kinds of map test (what each fills, verifies and reports),
 * the options, and what each file of maps/ offers the others. The
 * table of tests is maps/tests.c; the family and its callbacks are
 * map_perf_test_user.c.
 */
#ifndef __MAPS_MAP_PERF_H
#define __MAPS_MAP_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include <linux/types.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "map_perf_test.h"
#include "maps/kinds.h"
#include "map_perf_test_kern.skel.h"

#define DEFAULT_COUNT	50000ull
#define MAX_MAP_ENTRIES	(1u << 24)
#define LRU_LOOKUP_SPAN	32	/* keys one LRU_HASH_LOOKUP event looks up */
/* values a sweep option takes at most */
#define MAX_SWEEP	32
#define DEFAULT_RECORD_SIZE	64
/* the user-space maps' size when --entries does not say */
#define SYS_ENTRIES	1000

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
	SHAPE_PROG,		/* 0: a kind that names none */
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
	__u64 ops;		/* the map operations the programs counted */
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
	/*
	 * each place's last verified sample's (a unit's samples are counted
	 * once it is done), and those of the samples that count
	 */
	struct map_totals last[SAMPLE_PLACES], total;
	/* ring and perf buffers: the consumer */
	struct consumer *consumer;
	/* user-space operations: the map, and the workers' counts */
	int sys_fd;
	struct sys_ctx sys;
	struct map_perf_counters *pc;	/* the last sample's, per CPU */
	/*
	 * per CPU, the counts as the last sample left them: the programs
	 * may stay attached over several samples (a unit's), and each
	 * sample is judged by what was added in it alone
	 */
	struct map_perf_counters *taken;
};

/*
 * A kind of map test: what its map needs before the runs, what its
 * samples must show beyond the counts every test's do, and what its rows
 * report of their own. Each test's table entry names its kind; a new test
 * of an existing kind is its entry and its BPF program.
 */
struct map_kind {
	enum test_shape shape;
	/* after load, before the workers start: the map's contents */
	int (*fill)(const struct run_settings *rs, struct map_row *r);
	/* a sample whose counts passed the common checks (a program's) */
	void (*verify)(struct map_row *r, struct sample *s);
	/*
	 * the row's own counts and figures (@figure: it has them) in its
	 * JSON, and its figures in the summary's notes
	 */
	void (*json)(const struct map_row *r, bool figure, json_t *o);
	void (*notes)(const struct map_row *r, char *buf, size_t len,
		      size_t off);
};

struct map_test {
	/* -t name, and its programs' suffix */
	const char *name;
	/* what each syscall does: --list --json, and map_perf_test(8) (make docs) */
	const char *help;
	/* upstream's line for each worker: "<cpu>:<line> <n> <unit> per sec" */
	const char *line;
	bool per_lookup;	/* the line counts lookups, not events */
	unsigned int ops;	/* map operations per event */
	struct trigger trigger;
	const char *syscall;	/* the base row it is measured against */
	long nr;		/* the syscall number, raw_tp's filter */
	bool reads_regs;	/* its programs read pt_regs: CO-RE */
	struct attach_target target;
	size_t map;		/* the map it uses, which -E resizes */
	size_t prog[4];		/* its program for each attach method */
	const struct map_kind *kind;
	bool miss;		/* --miss applies */
	unsigned int takes;	/* TAKES_*: the sweeps that apply */
	__u32 min_key_size;	/* --key-size below it: no row */
	bool record_bufs;	/* its program builds records in record_bufs */
	/* helpers probed for the method's program type before load */
	struct helper {
		enum bpf_func_id id;
		const char *name;
	} helpers[3];
	/*
	 * events per worker and sample, 0: DEFAULT_COUNT; at most: the
	 * runner paces a sample down to about 3 ms at the row's pace
	 * (SAMPLE_TARGET_NS), as -n's help says, never below a 64th of
	 * it (PACE_MIN_SHARE, runner/sample/unit.c). A short sample is
	 * as precise over a row's samples, and one
	 * that an interruption spoils costs less to run again
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

static inline struct bpf_map *skel_map(const struct map_perf_test_kern *skel,
				       size_t off)
{
	return *(struct bpf_map **)((char *)skel + off);
}

static inline struct bpf_program *
skel_prog(const struct map_perf_test_kern *skel, size_t off)
{
	return *(struct bpf_program **)((char *)skel + off);
}

static inline bool has_consumer(const struct map_test *test)
{
	return test->kind->shape == SHAPE_RINGBUF ||
	       test->kind->shape == SHAPE_PERFBUF;
}

/* a test's name, with its NUL, at most */
#define MAP_TEST_NAME_MAX	32

/* the table of tests, maps/tests.c's, by enum map_test_id */
extern const struct map_test tests[];

/* ---- the kinds (maps/kinds.c) ---- */

extern const struct map_kind map_kind_prog, map_kind_hash_lookup,
	map_kind_lpm, map_kind_inner_lru, map_kind_lru_hash_lookup,
	map_kind_bloom_lookup, map_kind_bloom_update, map_kind_push_pop,
	map_kind_ringbuf, map_kind_perfbuf, map_kind_syscall;

/* ---- attach methods ---- */

struct attach_method {
	const char *name;	/* -a name */
	const struct attach_kind *kind;
};

#define NR_METHODS	4
extern const struct attach_method methods[NR_METHODS];

/* ---- options (maps/options.c parses their values) ---- */

/* a list option's values, ascending, each once */
struct sweep {
	bool given;
	int nr;
	__u64 v[MAX_SWEEP];
};

/* --memory's map kinds: maps/memory.c's mem_kinds[] */
#define NR_MEM_KINDS	14

struct map_options {
	bool tests_given;
	bool test_on[NR_TESTS];
	__u64 flags;		/* 0: every test */
	bool methods_given;
	bool method_on[NR_METHODS];
	struct sweep entries;	/* none given: every map keeps its size */
	struct sweep key_size;
	struct sweep wakeup;
	struct sweep record_size;
	bool scale;
	bool miss;
	bool memory;		/* --memory: memory rows, nothing else */
	bool mem_kind_on[NR_MEM_KINDS];	/* --memory's kinds */
};

/* the CPUs map_perf_test's rows run on at most */
#define MAP_MAX_CPUS	1024

/*
 * map_perf_test's own state, main()'s: bench_main()'s @ctx, which the
 * callbacks that take the run's settings reach as @rs->ctx. The options,
 * and what the rows of a run share.
 */
struct map_ctx {
	struct map_options opt;
	/* what -a auto picked, for the JSON's context; -1 before or without */
	int auto_picked;
	/* the CPU lists rows run on: the first n of the selected CPUs */
	struct cpu_list prefix_cpus[MAP_MAX_CPUS];
};

static inline struct map_ctx *map_ctx(const struct run_settings *rs)
{
	return rs->ctx;
}

static inline const struct map_options *
map_opts(const struct run_settings *rs)
{
	return &map_ctx(rs)->opt;
}

int parse_entries(struct sweep *e, const char *s, const char *what,
		  bool list);
int parse_sweep(const char *s, const char *what, __u64 min, __u64 max,
		__u64 step, struct sweep *sw);
int parse_wakeup(struct sweep *sw, const char *arg);

/* ---- what every worker repeats (maps/triggers.c) ---- */

void getuid_run(void *state, __u64 count);
void geteuid_run(void *state, __u64 count);
void getgid_run(void *state, __u64 count);
void getegid_run(void *state, __u64 count);
void gettid_run(void *state, __u64 count);
void getpgid_run(void *state, __u64 count);
void getppid_run(void *state, __u64 count);
int connect_setup(void **state);
void lru_hash_run(void *state, __u64 count);
void nocommon_lru_hash_run(void *state, __u64 count);
void inner_lru_hash_run(void *state, __u64 count);
void lru_hash_lookup_run(void *state, __u64 count);

/* ---- rows (maps/rows.c) ---- */

bool test_selected(const struct map_options *opt, int t);
int pick_method(const struct run_settings *rs, struct outcome *none);
void make_prefixes(struct map_ctx *mc, const struct cpu_list *selected);
struct bench_row *base_row(const struct run_settings *rs,
			   struct bench_rows *rows, int t,
			   const struct cpu_list *cpus);
int add_test_rows(const struct run_settings *rs, struct bench_rows *rows,
		  int t, int m, struct outcome *why, bool all);
int add_base_rows(const struct run_settings *rs, struct bench_rows *rows,
		  bool all);
void note_skipped_sizes(const struct map_options *opt);
bool rows_possible(const struct map_options *opt);

/* ---- one row's program (maps/load.c) ---- */

int open_test(const struct run_settings *rs, const struct bench_row *row,
	      struct map_row *r, struct outcome *out);
int open_consumer(const struct run_settings *rs, struct map_row *r,
		  struct outcome *out);

/* ---- fills (maps/fill.c) ---- */

int fill_map(const struct run_settings *rs, struct map_row *r,
	     struct outcome *out);
int fill_hash_lookup(const struct run_settings *rs, struct map_row *r);
int fill_bloom(const struct run_settings *rs, struct map_row *r);
int fill_lpm(const struct run_settings *rs, struct map_row *r);
int fill_lru_hash_lookup(const struct run_settings *rs, struct map_row *r);
int fill_inner_lru(const struct run_settings *rs, struct map_row *r);

/* ---- a row of bpf() calls (maps/sys_row.c) ---- */

int open_sys(const struct run_settings *rs, struct bench_row *row,
	     struct outcome *out);
void collect_sys(struct map_row *r, struct sample *s);
void close_sys(struct map_row *r);

/* ---- verification (maps/verify.c) ---- */

void verify(const struct bench_row *row, struct sample *s);
void verify_records(struct map_row *r, struct sample *s);
void verify_empty(struct map_row *r, struct sample *s);
void verify_sys(struct map_row *r, struct sample *s);

/* ---- output (maps/report.c) ---- */

void print_upstream(const struct run_settings *rs,
		    const struct bench_rows *rows);
void print_summary(const struct run_settings *rs,
		   const struct bench_rows *rows);
void json_context(const struct run_settings *rs, json_t *ctx);
void json_row(const struct bench_rows *rows, const struct bench_row *row,
	      json_t *o);
void list_row(const struct bench_row *row, json_t *o);
void json_sys(const struct map_row *r, bool figure, json_t *o);
void json_bloom(const struct map_row *r, bool figure, json_t *o);
void json_records(const struct map_row *r, bool figure, json_t *o);
void notes_bloom(const struct map_row *r, char *buf, size_t len, size_t off);
void notes_records(const struct map_row *r, char *buf, size_t len,
		   size_t off);

#endif /* __MAPS_MAP_PERF_H */
