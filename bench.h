/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The family API: what a program the runner runs (a family) implements and
 * may call; the one runner header a family includes. What each field and
 * callback means: "The family API" in Documentation/runner.rst.
 */
#ifndef __BENCH_H
#define __BENCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "core/faults.h"
#include "stats/stats.h"
#define REASON_LEN	192
#define SAMPLE_PLACES	6	/* of a unit's samples, B R ... R B: @place */
/* the runner's, opaque to a family; libbpf's */
struct cmdline; struct pool_go; struct row_state; struct attach_refusals; struct run_settings;
struct table; struct attach_kind; struct json_t; struct bpf_map;

/* ---- small helpers: core/util.c ---- */
#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's own, not in libc's errno.h */
#endif
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
__u64 now_ns(void);			/* CLOCK_MONOTONIC, ns */
typedef int (*line_fn)(char *line, void *ctx);	/* 0 reads on; else returned */
int for_each_line(const char *path, line_fn fn, void *ctx);
int read_file_u64(const char *path, __u64 *v);
int self_cgroup(const char *controller, char *path, size_t len);	/* NULL: v2 */
struct cgroup_mount { char mnt[PATH_MAX]; char root[PATH_MAX]; };	/* its root in it */
int cgroup_mount(const char *controller, struct cgroup_mount *m);
int cgroup_dir(const struct cgroup_mount *m, const char *path, char *dir, size_t len);
int task_cgroup_dir(pid_t pid, const char *controller, char *dir, size_t len);
/* @dir/@name has @word (after @key on its line; @key NULL: anywhere) */
bool file_has_word(const char *dir, const char *name, const char *key, const char *word);
const char *task_frozen(pid_t pid);	/* what freezes @pid, or NULL */

/* ---- messages and signals: core/msg.c ---- */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *printable(const char *s);	/* control characters as \xNN */
int bench_interrupted(void);		/* the signal that ends the run, or 0 */
enum status { ST_OK, ST_SKIPPED, ST_FAILED, ST_DISTURBED };
struct outcome { enum status status; char reason[REASON_LEN]; };	/* and why */
void outcome_set(struct outcome *o, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *status_name(enum status st);

/* ---- options and arguments: core/util.c, cli/ ---- */
struct cpu_list { int nr; int *cpu; };
int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out);
void format_cpus(const struct cpu_list *cpus, char *buf, size_t len);
int name_index(const char *name, const char *const *names, int nr);
int parse_name_list(const char *list, const char *what,
		    const char *const *names, int nr, bool *mask);
int parse_u64_list(const char *s, __u64 min, __u64 max, __u64 *out, int max_nr, int *nr);
void print_help_item(FILE *f, const char *head, const char *help);
int bench_cpus_arg(struct cmdline *cl, const char *s, const char *what);
int bench_count_arg(struct cmdline *cl, const char *s, __u64 max, const char *what);
void bench_positional_as(struct cmdline *cl, int key, const char *what);

/* ---- what the kernel allows: kernel/ ---- */
int btf_struct_has(const char *type, const char *member); /* 1, 0, -1 */
int other_links_on(const char *hook, char *buf, size_t len);
int pid_namespace(__u64 *dev, __u64 *ino, bool *initial);
int nr_cpus_possible(void);
void format_bpf_jit(char *buf, size_t len);	/* the JIT, for a header */
int probe_map(struct bpf_map *map, struct outcome *out);
int traceable_functions(int nr, const char ***syms, struct outcome *out);
int usdt_note_find(const char *path, const char *provider, const char *name, __u64 *pc, int *nr);

/* ---- the workers, and a family's own workers and children: workers/ ---- */
struct trigger {
	const char *name;			/* the event's, e.g. "task_rename" */
	int (*setup)(void **state);		/* in the worker; may be NULL */
	void (*run)(void *state, __u64 count);	/* the timed loop */
	unsigned int events_per_call;		/* 0 means 1 */
	void *arg;				/* *state before setup() */
};
struct worker_result {
	int cpu;
	int err;		/* 0, or -errno of the worker's set-up */
	bool pin_failed;	/* err came from pinning, not the trigger */
	__u64 events;
	__u64 elapsed_ns;	/* wall time of the loop */
	__u64 cpu_ns;		/* the worker's CPU time over the loop */
	long nvcsw, nivcsw;	/* context switches: it slept; it was preempted */
	__u64 run_delay_ns;	/* time it waited on a run queue */
	__u64 steal_ns;		/* the host took from its CPU */
	int end_cpu;		/* where it ran at the end */
	bool unpinned;		/* its affinity was changed under it */
	int repin_err;		/* -errno: pinning it again failed */
	long migrations;	/* times it moved between CPUs in its loop */
};
struct bench_workers { int nr; const int *cpu; const pid_t *pid; };	/* forked, waiting */
struct hit_window { int nr; const volatile __u64 **slot; };	/* [w * nr + c]; nr 0: none */
struct worker_pool {
	int nr;
	int *cpu;
	pid_t *pid;
	int result_fd;
	struct pool_go *go;	/* shared: each run's count and release */
	int nr_slots;		/* the window's programs */
	volatile __u64 *window;	/* shared: [(w * nr_slots + c) * 2], [+ 1] */
	size_t window_len;
	__u64 started_ns;
	__u64 duration_ns;	/* each run's, or 0: a count */
	unsigned int loops;	/* the test build's slow-base; 0 is 1 */
};
int pool_start(struct worker_pool *pool, const struct run_settings *rs, const struct cpu_list *cpus,
	       const struct trigger *const *triggers, int nr_triggers, __u64 duration_ns,
	       const struct hit_window *win, struct outcome *out);
int pool_run(struct worker_pool *pool, int trigger, __u64 count, struct worker_result *res,
	     __u64 *hits, __u64 deadline_ns, struct outcome *out);
void pool_stop(struct worker_pool *pool);	/* safe to call twice */
int pin_to_cpu(int cpu);
void prefault_mappings(bool writable);
bool child_defaults(pid_t parent);	/* false: @parent gone, exit */
/* a child the parent waits on, watched: task_stuck() */
struct task_watch {
	__u64 since_ns;		/* watched since */
	__u64 stopped_since;	/* 0: not stopped or frozen */
	__u64 stalled_since;	/* since when it had next to no CPU */
	__u64 cpu_ns;		/* its CPU time then */
};
void task_watch_init(struct task_watch *t);
int task_stuck(struct task_watch *t, pid_t pid, __u64 deadline_ns, char *why, size_t len);
int child_wait(pid_t pid, int *status, __u64 limit_ns);
int child_kill(pid_t pid);
void thaw_out(pid_t pid);

/* ---- rows, samples and the run's settings ---- */
#define MAX_PARAMS	4
struct row_param { const char *key; long long value; };	/* e.g. {"progs", 4} */
/* how long a row's programs stay attached: its "attached_for" */
enum row_links {
	LINKS_PER_SAMPLE,	/* around each sample: the default */
	LINKS_PER_SESSION,	/* through a session's samples */
	LINKS_THROUGH_BASE,	/* through its base samples too */
	LINKS_PER_RUN,		/* from its first session to the run's end */
};
struct bench_row {
	/* -- set by the family's setup() -- */
	const char *name, *variant;	/* mode and event, or test and method */
	struct row_param params[MAX_PARAMS];	/* row_add_param() */
	int nr_params;
	const struct cpu_list *cpus;	/* one worker on each */
	const struct trigger *trigger;
	__u64 count;			/* events per worker and sample */
	struct bench_row *base;		/* overhead is against this row */
	bool runs_prog;			/* false: nothing attached */
	int nr_counters;		/* programs each counting every event */
	bool fires_elsewhere;		/* hits beyond the events expected */
	enum row_links links;		/* how long its programs stay attached */
	bool unpaced;			/* runs its own @count every sample */
	bool reload;			/* loaded afresh each session */
	bool measured_in_open;		/* open() is its whole measurement */
	void *priv;			/* the family's alone */
	struct outcome out;		/* set in setup(): it cannot run */
	/* -- set by the family's open(), when it knows them -- */
	unsigned int hits_per_event;	/* the kernel's hook fires this often */
	char others[REASON_LEN];	/* other BPF links on the same hook */
	__u64 runs_counted;		/* collect() adds: the kernel's must match */
	struct row_state *state;	/* the runner's, opaque */
};
/* one run of a row's workers, the runner's; lives until the next sample */
struct sample {
	struct outcome out;		/* verify() may make it FAILED */
	struct worker_result *res;	/* one per worker */
	int nr_workers;
	__u64 events;
	double rate, ns_per_event;
	__u64 *hits;			/* collect()'s: sample_hits() */
	int nr_cpus;			/* possible CPUs */
	__u64 *window;			/* hits inside each worker's loop */
	bool window_foreign;		/* @window has other tasks' runs too */
	__u64 counted;			/* the first program's, every CPU */
	__u64 in_window;		/* of them, inside the workers' loops */
	__u64 *kernel_skips;		/* per program: runs the kernel skipped */
	__u64 stats_runs;		/* runs the kernel's run-time stats timed */
	__u64 skipped;			/* the events those explain */
	double excused_share;		/* the largest share of hits excused */
	__u64 foreign;			/* other tasks' runs: verify() adds */
	double settle_ns;
	__u64 steal_ns;			/* the host's, workers' CPUs */
	bool unverified;		/* a worker moved: nothing to verify */
	int place;			/* in its unit, below SAMPLE_PLACES */
};
/* program @counter's hits, one per possible CPU: what collect() fills */
static inline __u64 *sample_hits(struct sample *s, int counter)
{
	return s->hits + (size_t)counter * s->nr_cpus;
}
struct bench_rows {		/* the run's rows, in setup()'s order */
	struct bench_row *row;
	int nr, cap;
	struct attach_refusals *refused;	/* the runner's */
};
/* a zeroed row but for @name and @variant; may move the rows */
struct bench_row *bench_add_row(struct bench_rows *rows, const char *name, const char *variant);
void row_add_param(struct bench_row *row, const char *key, long long value);
const struct row_param *row_param(const struct bench_row *row, const char *key);
struct test_fault { enum test_fault_kind kind; int cpu; const char *name; }; /* miss-cpu=N */
/* what the command line decided; it does not change once setup() runs */
struct run_settings {
	struct cpu_list cpus;	/* every worker's CPU; empty for --list */
	__u64 count;		/* 0: each row's own */
	int repeat;		/* fixed units; 0: until precise enough */
	int min_units, max_units;
	double precision;	/* wanted 95% half-interval, a share */
	__u64 row_budget_ns;	/* a row's time, short of --precision */
	int warmup;		/* uncounted units per session */
	double duration;	/* seconds per sample; 0: a count */
	const char *json;
	bool ktap;		/* --ktap: KTAP on stdout, not the summary */
	bool prog_stats;
	bool profile;		/* --profile: a profiling pass after the run */
	bool list;		/* --list: rows are listed, nothing runs */
	double lock_wait;	/* seconds to wait for another run */
	int verbosity;		/* 0: -q, 1: default, 2: -v */
	bool paste;		/* --format short: one line a row */
	void *ctx;		/* the family's own: bench_main()'s @ctx */
	struct test_fault fault;	/* the test build's: run_fault() */
};
/* the run's test fault; none, and a constant, in what make builds */
static inline const struct test_fault *run_fault(const struct run_settings *rs)
{
#ifdef BENCH_TESTING
	return &rs->fault;
#else
	static const struct test_fault none = { .kind = BENCH_FAULT_NONE };

	return &none;
#endif
}
/* program @i of @nr's fault: miss-one makes the last one miss-odd */
static inline enum test_fault_kind prog_fault(const struct run_settings *rs, int i, int nr)
{
	enum test_fault_kind kind = run_fault(rs)->kind;

	if (kind != BENCH_FAULT_MISS_ONE)
		return kind;
	return i == nr - 1 ? BENCH_FAULT_MISS_ODD : BENCH_FAULT_NONE;
}

/* ---- the family: one per program ---- */
/* an option's @ways: the ways of running it applies to (cli/cli.h: enum bench_way) */
#define IN_RUN		(1u << 0)	/* the rows measured: the default */
#define IN_OWN		(1u << 1)	/* the family's own way (@own_way) */
#define IN_LIST		(1u << 2)	/* --list */
#define IN_LIST_OWN	(1u << 3)	/* --list with the family's own way */
struct bench_option {
	const char *name;	/* long name */
	int key;		/* short option character, or a value > 0xff */
	const char *arg;	/* NULL: takes no value */
	const char *help;	/* lines of the help text, '\n'-separated */
	unsigned int ways;	/* IN_*: the ways it applies to */
};
/* a program the runner runs; [opt]: may be NULL, the runner's default then */
struct bench_family {
	const char *name, *args, *about;	/* "tool"; the usage line's; --help's */
	const struct bench_option *options;	/* zero-ended; may be NULL */
	int own_way;				/* key of the WAY_OWN option */
	const char *const *own_way_takes;	/* runner options it takes */
	bool paced;				/* samples may be shortened */
	/* the command line; parse_option() is required with @options */
	int (*parse_option)(void *ctx, int key, const char *arg);
	int (*parse_args)(void *ctx, struct cmdline *cl, int argc, char **argv); /* [opt] */
	void (*usage_tables)(FILE *f);					/* [opt] */
	/* the rows: which a run measures, and --list */
	int (*setup)(const struct run_settings *rs, struct bench_rows *rows);
	void (*list_row)(const struct bench_row *row, struct json_t *o);	/* [opt] */
	void (*list_doc)(struct json_t *root);				/* [opt] */
	/* a row's programs, loaded and freed */
	int (*open)(const struct run_settings *rs, struct bench_row *row, struct outcome *out);
	void (*close)(struct bench_row *row);
	/* around the samples: the links */
	int (*attach)(struct bench_row *row, const struct bench_workers *w, struct outcome *out);
	void (*workers)(struct bench_row *row, const struct bench_workers *w);	/* [opt] */
	void (*detach)(struct bench_row *row);
	/* a sample's counts and their checks */
	const volatile __u64 *(*hit_slot)(const struct bench_row *row, int counter, int cpu);
	const volatile __u64 *(*foreign_slot)(const struct bench_row *row, int counter,
					      int cpu);			/* [opt] */
	int (*collect)(struct bench_row *row, struct sample *s);
	void (*verify)(const struct bench_row *row, struct sample *s);		/* [opt] */
	void (*count)(const struct bench_row *row, const struct sample *s);	/* [opt] */
	int (*prog_fds)(const struct bench_row *row, int *fds, int max);	/* [opt] */
	/* the results, once, after the last sample */
	void (*print_upstream)(const struct run_settings *rs,
			       const struct bench_rows *rows);		/* [opt] */
	void (*print_summary)(const struct run_settings *rs, const struct bench_rows *rows);
	void (*json_context)(const struct run_settings *rs, struct json_t *ctx); /* [opt] */
	void (*json_row)(const struct bench_rows *rows, const struct bench_row *row,
			 struct json_t *obj);				/* [opt] */
};
int bench_main(const struct bench_family *fam, void *ctx, int argc, char **argv); /* exit status */

/* ---- the family's summary: rows/, report/ ---- */
struct row_summary {
	struct sample_stats rate, ns;	/* over its samples */
	int outliers;
	struct sample_stats units;	/* the figure over its units' rounds */
	double ci95;			/* half its 95% interval; NAN below 2 */
	int nr_units;			/* the units counted */
	bool has_overhead;
	struct overhead overhead;
	struct overhead share;		/* the overhead as % of the base */
	double ratio;		/* ns per event against base's; NAN: no base */
	double foreign_share;	/* foreign hits among all hits */
	bool imprecise;		/* stopped short of --precision */
	bool below_base;	/* the overhead's interval lies below zero */
};
bool row_has_figure(const struct bench_row *row);	/* ok, with samples */
void row_summarize(const struct bench_row *row, struct row_summary *s);
void print_legend(const struct run_settings *rs, const struct bench_rows *rows);
void print_reasons(const struct bench_rows *rows);
void print_row_notes(const struct bench_rows *rows,	/* -v; @more may be NULL */
		     void (*more)(const struct bench_row *row, char *buf, size_t len));
struct row_figure {		/* as its family shows it: @value ± @ci95 @unit */
	double value, ci95;
	bool sign;		/* an overhead: its sign shown */
	double share_pct;	/* of its base; NAN: none shown */
	const char *unit;
};
typedef void (*row_figure_fn)(const struct bench_row *row, const struct row_summary *s,
			      struct row_figure *f);
void print_short(const struct run_settings *rs, const struct bench_rows *rows,
		 row_figure_fn figure);	/* --format short */
void print_table(struct table *t, bool verbose);
double row_prog_body(const struct bench_row *row);
void format_hits(const struct bench_row *row, char *buf, size_t len);
void format_params(const struct bench_row *row, char *buf, size_t len);
const char *format_or_dash(char *buf, size_t len, int prec, double v);
double worker_median_rate(const struct bench_row *row, int worker);
double row_attach_median(const struct bench_row *row);	/* NAN: none */
double row_detach_median(const struct bench_row *row);
double row_prog_ns(const struct bench_row *row);	/* --prog-stats */
struct skip_group {		/* skipped rows, by reason: report/summary.c */
	int first, nr;			/* its first row's index, its rows */
	bool modes;			/* of more than one mode */
	char reason[REASON_LEN];	/* without a mode's name */
};
typedef const char *(*row_mode_fn)(const struct bench_row *row);
int skip_groups(const struct bench_rows *rows, const bool *in,
		row_mode_fn mode, struct skip_group **groups);
const char *skip_group_reason(const struct bench_rows *rows, const struct skip_group *g);
bool skip_group_has(const struct bench_rows *rows, const struct skip_group *g,
		    row_mode_fn mode, int i);
void skip_group_label(const struct bench_rows *rows, const bool *in, const struct skip_group *g,
		      row_mode_fn mode, row_mode_fn mode_of, char *buf, size_t len);
void print_skip_groups(const struct bench_rows *rows, row_mode_fn mode);
void print_excused(const struct bench_rows *rows);
/* the summary's table: report/summary.c */
struct table_col {
	const char *head;
	bool left;		/* left-aligned; else right */
	int drop;		/* 0: always shown; highest goes first */
	bool glue;		/* one space after the one before, its heading */
};
struct table {
	const struct table_col *col;
	int nr_cols, nr_rows, cap;
	char **cell;		/* [row * nr_cols + col], NULL: empty */
	bool oom;		/* a cell was lost: said under the table */
};
void table_init(struct table *t, const struct table_col *col, int nr_cols);
void table_set(struct table *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void table_free(struct table *t);
void printf_folded(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the summary's columns both programs have, first; a family's after */
enum { SUMMARY_NAME, SUMMARY_VARIANT, SUMMARY_FIGURE, SUMMARY_CI, SUMMARY_SHARE,
       SUMMARY_VERDICT, SUMMARY_NOTES, SUMMARY_RATE, SUMMARY_RATE_SD, NR_SUMMARY_COLS };
#define SUMMARY_COLUMNS(name, variant, figure, rate)			\
	[SUMMARY_NAME] = { name, .left = true },			\
	[SUMMARY_VARIANT] = { variant, .left = true },			\
	[SUMMARY_FIGURE] = { figure },					\
	[SUMMARY_CI] = { "", .left = true, .glue = true },		\
	[SUMMARY_SHARE] = { "vs base", .drop = 2 },			\
	[SUMMARY_VERDICT] = { "verdict", .left = true },		\
	[SUMMARY_NOTES] = { "notes", .left = true, .drop = 3 },		\
	[SUMMARY_RATE] = { rate, .drop = 4 },				\
	[SUMMARY_RATE_SD] = { "", .left = true, .glue = true }
/* @row on a new line of @t: the line, or -1 for a row without a figure */
int summary_row(const struct run_settings *rs, struct table *t, const struct bench_row *row,
		const char *name, const char *variant, bool checked, row_figure_fn figure,
		struct row_summary *s);
const char *libbpf_version_text(void);	/* "1.4", for a run's header */

/* ---- JSON, --list and the attach kinds: core/output.c, cli/cmdline.c, attach/ ---- */
struct json_t *json_number(double v);	/* null for NAN, infinities */
void list_kind(struct json_t *o, const struct attach_kind *kind, const char *extra_need);
#include "attach/attach.h"
#endif /* __BENCH_H */
