/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner shared by test_overhead and map_perf_test. Each program is a
 * family: its options, its rows, and the callbacks that load, attach and
 * verify one row's BPF programs. The runner owns everything else: the
 * command line, the pinned workers, rounds and sampling, the statistics,
 * JSON, --compare and the exit codes. It knows nothing about any single
 * benchmark.
 */
#ifndef __BENCH_H
#define __BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "bench_stats.h"

#define REASON_LEN	192
#define EXIT_USAGE	2
/* samples a row keeps at most, whatever -r asks */
#define MAX_SAMPLES	100
#define TOOL_VERSION	"2.0"

/* ---- messages: bench_msg.c ---- */

/* 0: -q, 1: default, 2: -v (libbpf's messages too) */
extern int verbosity;

void bench_init(const char *prog_name);
/* the one way to print an error: "prog: message" on stderr */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* notes about the environment, on stderr unless -q */
void pr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* @s with control characters as \xNN, for messages that quote input */
const char *printable(const char *s);

enum status { ST_OK, ST_SKIPPED, ST_FAILED, ST_DISTURBED };

struct outcome {
	enum status status;
	char reason[REASON_LEN];
};

void outcome_set(struct outcome *o, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "ok", "skipped", "FAILED", "disturbed" */
const char *status_name(enum status st);
/* the same in lower case, as JSON writes it */
const char *status_json(enum status st);

/* ---- command line: bench_cmdline.c, pure functions ---- */

struct cpu_list {
	int nr;
	int *cpu;
};

/*
 * Decimal, or hex with 0x: "010" is ten. No sign, no space. -EINVAL for
 * what is not a number, -ERANGE outside [min, max].
 */
int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out);
/* a decimal fraction in [min, max] */
int parse_double(const char *s, double min, double max, double *out);
/* "0,2-3": each CPU once; -EINVAL, -E2BIG */
int parse_cpu_ranges(const char *s, struct cpu_list *out);
/* "N" (the first N of @allowed) or a list, every CPU in @allowed */
int parse_cpus(const char *s, const struct cpu_list *allowed,
	       struct cpu_list *out);
bool cpu_list_has(const struct cpu_list *cpus, int cpu);
void cpu_list_free(struct cpu_list *cpus);
/* "0-1,3" */
void format_cpus(const struct cpu_list *cpus, char *buf, size_t len);
int name_index(const char *name, const char *const *names, int nr);
/* "a,b": @mask[i] set for each; -1 with one line on a stranger */
int parse_name_list(const char *list, const char *what,
		    const char *const *names, int nr, bool *mask);
/* "1,2,4-8": each value once, ascending; -EINVAL, -ERANGE, -E2BIG */
int parse_u64_list(const char *s, __u64 min, __u64 max, __u64 *out,
		   int max_nr, int *nr);

/* ---- the kernel and the machine: bench_kernel.c ---- */

/* online CPUs this process may run on (cpuset, affinity) */
int usable_cpus(struct cpu_list *out);
/* root, or the capabilities BPF needs, in the initial user namespace */
int check_privileges(void);
/* mounts tracefs when it is missing, and says so */
int ensure_tracefs(void);
bool tracefs_mounted(void);
/* CONFIG_x: 1 =y/=m, 0 not set, -1 unknown */
int kernel_config(const char *option);
struct btf;
struct btf *kernel_btf(void);
bool btf_has_func(const char *name);
bool btf_has_typedef(const char *name);
/* whether the kernel's enum @type has @value: 1, 0, or -1 unknown (no BTF) */
int btf_enum_has(const char *type, const char *value);
/* notes a cgroup CPU quota smaller than @nr_cpus CPUs */
void warn_cpu_quota(int nr_cpus);
/*
 * One run of these tools at a time per machine: waits up to @wait_s for
 * the one that holds the lock, naming it. 0, or -1 said.
 */
int bench_lock(const char *tool, double wait_s);
/*
 * BPF links of others on @hook (a tracepoint or kernel function), as
 * "raw_tp link 12, ..." in @buf: how many, 0 when the kernel cannot say.
 */
int other_links_on(const char *hook, char *buf, size_t len);
/* the pid namespace's device and inode, and whether it is the initial one */
int pid_namespace(__u64 *dev, __u64 *ino, bool *initial);

/* ---- signals ---- */

/* SIGINT/SIGTERM/SIGHUP interrupt blocking waits instead of killing us */
void install_signal_handlers(void);
/* the signal that arrived, or 0 */
int bench_interrupted(void);
/* from now on a signal ends the run at once: only output is left */
void bench_writing_results(void);

/* ---- workers: bench_workers.c ---- */

struct trigger {
	const char *name;
	/* in the worker, pinned, before the start: e.g. opens a socket */
	int (*setup)(void **state);
	/* the timed loop: the syscall and nothing else */
	void (*run)(void *state, __u64 count);
	/* events one call makes (0 means 1): count / this calls are made */
	unsigned int events_per_call;
	/*
	 * The state setup and run start from: lets one trigger serve rows
	 * that differ by a parameter (a map, its size), since the worker is
	 * forked after the family last ran.
	 */
	void *arg;
};

struct worker_result {
	int cpu;
	int err;		/* 0, or -errno of the worker's set-up */
	bool pin_failed;	/* err came from pinning, not the trigger */
	__u64 events;
	__u64 elapsed_ns;	/* wall time of the loop */
	__u64 cpu_ns;		/* the worker's CPU time over the loop */
	long nvcsw;		/* voluntary context switches: it slept */
	long nivcsw;		/* involuntary ones: it was preempted */
	__u64 run_delay_ns;	/* time it waited on a run queue */
	int end_cpu;		/* where it ran at the end */
	bool unpinned;		/* its affinity was changed under it */
};

/*
 * Where the programs under test count their hits per CPU, in memory the
 * workers share with the parent (a skeleton's mmap'ed .bss): slot[w * nr
 * + c] is program c's count on worker w's CPU. Each worker reads its own
 * right before and right after its timed loop, so that only hits inside
 * the loop can verify its events.
 */
struct hit_window {
	int nr;				/* programs; 0: nothing to read */
	const volatile __u64 **slot;
};

struct worker_pool {
	int nr;
	int *cpu;
	pid_t *pid;
	int go_fd;		/* closing it releases every worker at once */
	int result_fd;
	volatile int *go;	/* shared: set just before the release */
	int nr_slots;		/* the window's programs */
	/* shared: [(w * nr_slots + c) * 2] before the loop, [+ 1] after */
	volatile __u64 *window;
	size_t window_len;
	__u64 started_ns;
};

/*
 * Forks one worker per CPU, pinned and set up, waiting for the go. Each
 * makes @count events, or runs @duration_ns when not 0, and reads the
 * hit slots of @win (NULL: none) around its loop.
 */
int pool_start(struct worker_pool *pool, const struct cpu_list *cpus,
	       const struct trigger *trigger, __u64 count, __u64 duration_ns,
	       const struct hit_window *win, struct outcome *out);

/*
 * Releases the workers and collects one result each, and into @hits
 * (NULL: not wanted) each program's hits within each worker's loop,
 * [w * nr + c] for the window's nr programs. A worker that dies, stays
 * stopped, makes no progress or outlives @deadline_ns (0: none) fails
 * the run, named in @out. -EINTR on a signal.
 */
int pool_run(struct worker_pool *pool, struct worker_result *res,
	     __u64 *hits, __u64 deadline_ns, struct outcome *out);
/* kills and reaps what is left; safe to call twice */
void pool_stop(struct worker_pool *pool);
/*
 * Waits, at most a quarter second, for the kernel threads (deferred work
 * of the last sample: RCU callbacks, kworkers, softirqs) to go quiet, so
 * that the workers are released into an idle machine. Returns the ns it
 * waited.
 */
__u64 settle(void);

__u64 now_ns(void);

/* ---- rows and samples ---- */

#define MAX_PARAMS	4

/* what else identifies a row, e.g. {"progs", 4} */
struct row_param {
	const char *key;
	long long value;
};

struct bench_row {
	/* set by the family */
	const char *name;		/* mode, or map test */
	const char *variant;		/* event, or attach method */
	struct row_param params[MAX_PARAMS];
	int nr_params;
	const struct cpu_list *cpus;	/* one worker on each */
	const struct trigger *trigger;
	__u64 count;			/* events per worker and sample */
	struct bench_row *base;		/* overhead is against this row */
	bool runs_prog;			/* false: nothing attached */
	int nr_counters;		/* programs each counting every event */
	unsigned int hits_per_event;	/* the kernel's hook fires this often */
	/*
	 * The programs fire for something besides the workers' events
	 * (--attach-time hooks many functions): hits beyond the events
	 * inside the workers' loops are expected, not a wrong hook.
	 */
	bool fires_elsewhere;
	void *priv;

	/* the runner's */
	struct outcome out;
	bool opened;
	bool done;			/* enough samples */
	int nr;				/* counted samples */
	double rate[MAX_SAMPLES];	/* events/s, all workers together */
	double ns[MAX_SAMPLES];		/* mean over workers of ns per event */
	double *worker_rate;		/* [sample * cpus->nr + worker] */
	double attach_ns[MAX_SAMPLES];
	double detach_ns[MAX_SAMPLES];
	double settle_ns[MAX_SAMPLES];	/* waited for the kernel to go quiet */
	__u64 last_wall_ns;		/* the last sample's, for its deadline */
	__u64 events;			/* over counted samples */
	__u64 hits;			/* the first program's, every CPU */
	__u64 hits_window;		/* of them, in the workers' loops */
	__u64 foreign;			/* in the loops, beyond the events */
	__u64 kernel_skipped;		/* events whose runs the kernel skipped */
	__u64 kernel_skips;		/* runs it says it skipped in the loops */
	/*
	 * every run the row's programs counted, all of them on every CPU,
	 * in every sample run (warm-up, run again, --prog-stats' too): what
	 * the kernel's own run count of the programs must match
	 */
	__u64 runs_counted;
	int retries;			/* samples run again as disturbed */
	__u64 retry_ns;			/* the time they took */
	double prog_ns;			/* --prog-stats: ns per program run */
	double prog_clock_ns;		/* of which the stats' clock reads */
	__u64 prog_runs, prog_hits;	/* in that pass */
	struct outcome prog_out;	/* why prog_ns is missing */
	char others[REASON_LEN];	/* other BPF links on the same hook */
};

struct sample {
	struct outcome out;
	struct worker_result *res;	/* one per worker */
	int nr_workers;
	__u64 events;
	double rate;
	double ns_per_event;
	__u64 *hits;			/* [counter * nr_cpus + cpu] */
	int nr_cpus;			/* possible CPUs */
	/* [worker * nr_counters + counter]: hits inside the worker's loop */
	__u64 *window;
	__u64 counted;			/* the first program's, every CPU */
	__u64 in_window;		/* of them, inside the workers' loops */
	/* per program: runs the kernel skipped while the workers ran */
	__u64 *kernel_skips;
	__u64 skipped;			/* the events those explain */
	__u64 foreign;			/* inside the loops, beyond the events */
	double attach_ns, detach_ns, settle_ns;
	const volatile __u64 **slots;	/* the workers' hit_window */
};

static inline __u64 *sample_hits(struct sample *s, int counter)
{
	return s->hits + (size_t)counter * s->nr_cpus;
}

struct bench_rows {
	struct bench_row *row;
	int nr;
	int cap;
};

struct bench_row *bench_add_row(struct bench_rows *rows, const char *name,
				const char *variant);
void row_add_param(struct bench_row *row, const char *key, long long value);
/* the parameter @key, or NULL */
const struct row_param *row_param(const struct bench_row *row,
				  const char *key);

/* ---- the family: one per program ---- */

/* where an option has a meaning; any other use is refused */
enum option_use {
	USE_SELECT,		/* runs, and --list: it selects rows */
	USE_RUN,		/* runs only */
	USE_ANY,		/* --compare and --list too */
};

/* an option of a family's own, for getopt and --help alike */
struct bench_option {
	const char *name;	/* long name */
	int key;		/* short option character, or a value > 0xff */
	const char *arg;	/* NULL: takes no value */
	const char *help;	/* lines of the help text, '\n'-separated */
	enum option_use use;
};

struct json_t;

struct bench_family {
	const char *name;
	const char *args;		/* the positional arguments */
	const char *about;		/* the help text's first lines */
	const struct bench_option *options;
	/* 0, or -1 after one line on stderr */
	int (*parse_option)(int key, const char *arg);
	int (*parse_args)(int argc, char **argv);
	/* the help text after the options: the family's tables */
	void (*usage_tables)(FILE *f);
	/* the rows selected; for --list (@listing) without probing the kernel */
	int (*setup)(struct bench_rows *rows, bool listing);
	/* --list: what a row needs and runs, into its JSON object */
	void (*list_row)(const struct bench_row *row, struct json_t *o);

	/* once per row, before its first sample: probe and load */
	int (*open)(struct bench_row *row, struct outcome *out);
	/* per sample, with the workers waiting */
	int (*attach)(struct bench_row *row, const struct worker_pool *pool,
		      struct outcome *out);
	void (*detach)(struct bench_row *row);
	/* the programs' per-CPU counts into s->hits, then zeroes them */
	int (*collect)(struct bench_row *row, struct sample *s);
	/*
	 * Where program @counter of an opened @row counts its hits on @cpu,
	 * in memory mapped before the workers are forked (a skeleton's
	 * .bss): the workers read it around their loops. Required for rows
	 * that run programs.
	 */
	const volatile __u64 *(*hit_slot)(const struct bench_row *row,
					  int counter, int cpu);
	/* checks of the family's own, after the runner's per-CPU check */
	void (*verify)(struct bench_row *row, struct sample *s);
	/* a sample that counts (no warm-up, not run again): what the
	 * family keeps of it joins the row's, as events and hits do */
	void (*count)(struct bench_row *row, const struct sample *s);
	/* the program fds, for --prog-stats; returns how many */
	int (*prog_fds)(const struct bench_row *row, int *fds, int max);
	void (*close)(struct bench_row *row);

	/* upstream's lines, the summary, and what JSON adds per row */
	void (*print_upstream)(const struct bench_rows *rows);
	void (*print_summary)(const struct bench_rows *rows);
	void (*json_context)(struct json_t *ctx);
	void (*json_row)(const struct bench_row *row, struct json_t *obj);
};

/* what the runner's command line decided */
struct run_settings {
	struct cpu_list cpus;
	__u64 count;		/* 0: each row's own */
	int repeat;		/* fixed samples; 0: until precise enough */
	int min_samples, max_samples;
	double precision;	/* wanted 95% half-interval, share of mean */
	int warmup;
	double duration;	/* seconds per sample; 0: a count */
	const char *json;
	bool prog_stats;
	bool list;
	const char *compare[2];
	double fail_on_regression;	/* percent; < 0: off */
	double lock_wait;	/* seconds to wait for another run */
};

extern struct run_settings bench_rs;

/*
 * Faults the tests inject through the environment (BENCH_TEST_FAULT=
 * miss-odd, miss-cpu=N, uncounted, miss-one, ...) to prove that
 * verification bites: a program that misses events must give FAILED.
 * They exist in the test build only (make testing: -DBENCH_TESTING, in
 * build/testing/), as the kernel's CONFIG_FAULT_INJECTION does. What make
 * builds reads no environment for them: its bench_fault is a constant
 * none, every test of it is constant, and the compiler drops the faults.
 */
enum bench_fault_kind {
	BENCH_FAULT_NONE,
	BENCH_FAULT_MISS_ODD,	/* programs count every other hit */
	BENCH_FAULT_MISS_CPU,	/* programs count nothing on one CPU */
	BENCH_FAULT_UNCOUNTED,	/* programs count nothing, unverified */
	BENCH_FAULT_MISS_ONE,	/* the last of a row's programs misses odd hits */
	BENCH_FAULT_WRONG_KEY,	/* map programs look up keys not there */
	BENCH_FAULT_FILL_ALL,	/* map fills put the keys in despite --miss */
	BENCH_FAULT_DROP_ALL,	/* ring/perf buffer programs drop every record */
	BENCH_FAULT_EMPTY_MAP,	/* lru_hash_lookup's map emptied after its fill */
	BENCH_FAULT_EXTRA_ODD,	/* programs count every other hit twice */
	BENCH_FAULT_WRONG_VALUE,	/* user space's bpf() writes another value */
	BENCH_FAULT_EXTRA_PUSH,	/* queue/stack programs push a value uncounted */
};

struct bench_fault {
	enum bench_fault_kind kind;
	int cpu;
	const char *name;
};

#ifdef BENCH_TESTING
extern struct bench_fault bench_fault;
#else
static const struct bench_fault bench_fault = { .kind = BENCH_FAULT_NONE };
#endif

/*
 * The fault program @i of a row's @nr counts with, in the numbers above:
 * miss-one makes the last one miss every other hit, the others none.
 */
static inline enum bench_fault_kind bench_fault_of(int i, int nr)
{
	if (bench_fault.kind != BENCH_FAULT_MISS_ONE)
		return bench_fault.kind;
	return i == nr - 1 ? BENCH_FAULT_MISS_ODD : BENCH_FAULT_NONE;
}

/*
 * Positional arguments that stand for -c and -n: each may be given one
 * way only. -1 after one line on stderr.
 */
int bench_cpus_arg(const char *s, const char *what);
int bench_count_arg(const char *s, __u64 max, const char *what);

int bench_main(const struct bench_family *fam, int argc, char **argv);

/* ---- a sample's worth: bench_verify.c, pure functions ---- */

/* events, rate and ns per event from the workers' results */
void sample_measure(struct sample *s);
/*
 * Inside every worker's loop, on its CPU, each of the row's programs
 * counted at least hits_per_event times the worker's events, and not
 * more than the time other tasks had that CPU can explain: the rest of
 * the loop's hits is foreign. Hits outside the loops never count. A
 * shortfall the kernel's own count of skipped runs in the loops explains
 * is noted in s->skipped; any other, or hits no task can explain, make
 * s->out FAILED, naming the CPU.
 */
void sample_verify(const struct bench_row *row, struct sample *s);
/* s->out disturbed when a worker did not have its CPU to itself */
void sample_judge_disturbed(struct sample *s);
/*
 * -r N reached, or --max-samples, or the mean of the rates @x known to
 * --precision (the JSON's ci95 against its mean)
 */
bool enough_samples(const double *x, int n, const struct run_settings *rs);
/* "  name      help", the help's further lines indented alike */
void print_help_item(FILE *f, const char *head, const char *help);

/* ---- the summary: bench_report.c ---- */

struct row_summary {
	struct sample_stats rate, ns;
	int outliers;
	bool has_overhead;
	struct overhead overhead;
	double ratio;		/* ns per event against base's; NAN: no base */
	double foreign_share;	/* foreign hits among all hits */
};

/* a row with a figure to show: ok, with samples */
bool row_has_figure(const struct bench_row *row);
void row_summarize(const struct bench_row *row, struct row_summary *s);
/* "noisy (CV 7.1%), 1 outlier, foreign hits 3%", or "" */
void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len);
/* the body: ns in the program per run, without the stats' clock reads */
double row_prog_body(const struct bench_row *row);
/* " [progs=4]", or "" */
void format_params(const struct bench_row *row, char *buf, size_t len);
/* the median over samples of one worker's events per second */
double worker_median_rate(const struct bench_row *row, int worker);
/* the median of attach or detach ns, NAN without samples */
double row_median(const double *x, int n);
/*
 * Skipped rows by reason. A kernel that cannot run a mode skips each of
 * its rows for one reason, and modes of one kind for the same reason but
 * their names ("fentry refused by this kernel", "fexit refused ..."): the
 * summary says each such reason once, for a group of rows. --json and
 * --list keep every row with its own reason.
 */
struct skip_group {
	int first;			/* index of its first row */
	int nr;				/* rows in it */
	bool modes;			/* of more than one mode */
	char reason[REASON_LEN];	/* without a mode's name */
};

/* a row's mode: test_overhead's name, map_perf_test's variant */
typedef const char *(*row_mode_fn)(const struct bench_row *row);

/* @reason without @mode's name where it names it: the group's key */
void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len);
/*
 * The groups of the skipped rows @in selects (NULL: every row), in the
 * order of their first rows; how many, or -ENOMEM. Free *@groups.
 */
int skip_groups(const struct bench_rows *rows, const bool *in,
		row_mode_fn mode, struct skip_group **groups);
/* what the group says: one mode's own words, or several modes' shared ones */
const char *skip_group_reason(const struct bench_rows *rows,
			      const struct skip_group *g);
/* whether row @i is in group @g */
bool skip_group_has(const struct bench_rows *rows, const struct skip_group *g,
		    row_mode_fn mode, int i);
/*
 * "kprobe, kretprobe (10 rows)", "tracepoint urandom_read" for one row,
 * of the rows @in selects (NULL: every row); @mode_of gives the words
 * the modes are named by ("w/KPROBE", ...), NULL their names
 */
void skip_group_label(const struct bench_rows *rows, const bool *in,
		      const struct skip_group *g, row_mode_fn mode,
		      row_mode_fn mode_of, char *buf, size_t len);
/*
 * The summary's lines for the skipped rows: a heading, then one line per
 * group, "  <label>: <reason>". Nothing when no row was skipped.
 */
void print_skip_groups(const struct bench_rows *rows, row_mode_fn mode);
/* one updating line on stderr when it is a terminal */
void progress(int done, int total, const struct bench_row *row, int round);
void progress_end(void);

/* ---- kept from the sample runner for families' use ---- */

/* possible CPUs, as the kernel numbers per-CPU data */
int nr_cpus_possible(void);

#endif /* __BENCH_H */
