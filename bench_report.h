/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Repeated samples and what is reported of them: each row (a mode and an
 * event, a map test and an attach method) gathers one sample per counted
 * round; the summary gives mean ± stddev, noise and outliers, overhead
 * against a base row with its uncertainty; --json writes it all down.
 * Shared by both programs, so the options are parsed here too.
 */
#ifndef __BENCH_REPORT_H
#define __BENCH_REPORT_H

#include <getopt.h>
#include "bench.h"
#include "bench_stats.h"

#define MAX_REPEAT	100
#define DEFAULT_REPEAT	5
#define TOOL_VERSION	"1.0"

/* the options both programs take, on top of their own */
struct run_settings {
	int repeat;		/* counted rounds */
	int warmup;		/* rounds run first and thrown away */
	double duration;	/* seconds per sample; 0: a fixed count */
	const char *json;	/* results file, "-" for stdout */
	bool prog_stats;	/* an extra pass with BPF run-time stats */
	const char *compare[2];	/* --compare A B: nothing is run */
	double fail_on_regression;	/* percent; < 0: off */
};

enum {
	OPT_JSON = 0x100,
	OPT_PROG_STATS,
	OPT_COMPARE,
	OPT_FAIL_ON_REGRESSION,
};

#define COMMON_SHORTOPTS "r:w:d:qv"
#define COMMON_LONGOPTS							\
	{ "repeat", required_argument, NULL, 'r' },			\
	{ "warmup", required_argument, NULL, 'w' },			\
	{ "duration", required_argument, NULL, 'd' },			\
	{ "json", required_argument, NULL, OPT_JSON },			\
	{ "prog-stats", no_argument, NULL, OPT_PROG_STATS },		\
	{ "compare", required_argument, NULL, OPT_COMPARE },		\
	{ "fail-on-regression", required_argument, NULL,		\
	  OPT_FAIL_ON_REGRESSION },					\
	{ "quiet", no_argument, NULL, 'q' },				\
	{ "verbose", no_argument, NULL, 'v' }

#define COMMON_USAGE							\
"  -r, --repeat N      counted rounds, interleaving every selection\n"	\
"                      (default 5; 1 keeps it quick)\n"		\
"  -w, --warmup N      rounds run first and not counted (default 0)\n"	\
"  -d, --duration S    seconds per sample instead of a fixed count\n"	\
"      --json FILE     every figure and sample as JSON (- for stdout)\n" \
"      --prog-stats    an extra pass with the kernel's BPF run-time\n"	\
"                      stats: ns inside the program per run\n"		\
"      --compare A B   compare two --json files: nothing is run\n"	\
"      --fail-on-regression PCT  with --compare: exit 1 when a row is\n" \
"                      significantly slower by more than PCT percent\n"

void run_settings_init(struct run_settings *rs);
/*
 * 1: handled, 0: not a common option, -1: a bad value, an unknown option
 * or a missing value (said on stderr). Give it getopt's ':' and '?' too:
 * the option string must start with ':'.
 */
int parse_common_option(int c, const char *arg, int argc, char **argv,
			struct run_settings *rs);
/* after getopt: options that only make sense together; --compare alone */
int check_common_options(const struct run_settings *rs, int argc);
/* --compare: the exit status */
int run_compare(const struct run_settings *rs);

struct bench_row {
	const char *name;		/* mode, or map test */
	const char *variant;		/* event, or attach method */
	const char *unit;		/* of the samples, e.g. "events/s" */
	bool selected;
	struct outcome out;
	int nr;				/* samples so far */
	double rate[MAX_REPEAT];	/* all workers together */
	double ns[MAX_REPEAT];		/* mean over workers, per event */
	__u64 events, hits;		/* over every counted sample */
	bool counts_hits;		/* a BPF program counted its hits */
	double prog_ns;			/* --prog-stats: ns per program run */
	double prog_clock_ns;		/* of which the stats' clock reads */
	struct outcome prog_out;	/* why prog_ns is missing */
	const struct bench_row *base;	/* overhead is against this row */
};

struct row_summary {
	struct sample_stats rate, ns;
	int outliers;
	bool has_overhead;
	struct overhead overhead;
};

/* ns the program's own work takes per run: the stats' clock reads out */
double row_prog_body(const struct bench_row *row);

/*
 * --prog-stats: one more sample of every runnable row that runs a program,
 * with the kernel's run-time stats on for the pass alone. @sample runs row
 * @i with them read into m->prog_ns (-EINTR when a signal came).
 */
typedef int (*stats_sample_fn)(void *ctx, int i, struct measurement *m);
int prog_stats_pass(struct bench_row *rows, int nr, stats_sample_fn sample,
		    void *ctx);

void row_init(struct bench_row *row, const char *name, const char *variant,
	      const char *unit);
/* one round's result: a sample, or the row's skip or failure */
void row_record(struct bench_row *row, const struct measurement *m);
/* a row still worth running: not skipped, not failed */
bool row_runnable(const struct bench_row *row);
void row_summarize(const struct bench_row *row, struct row_summary *s);
/* "noisy (CV 7.1%), 1 outlier", or "" */
void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len);

struct run_context {
	const char *tool;
	const struct cpu_list *cpus;
	const char *attach_method;	/* NULL when rows differ */
	__u64 count;			/* 0: each row's own default */
	const struct run_settings *rs;
};

int write_json(const struct run_context *ctx, const struct bench_row *rows,
	       int nr);

/* --json -: stdout holds the JSON alone, so no text goes there */
bool json_on_stdout(const struct run_settings *rs);
/* privileges (one line when missing), signal handlers, tracefs */
int bench_setup(void);
/* writes --json and gives the exit status: 1 for a failure or no result */
int bench_finish(const struct run_context *ctx, const struct bench_row *rows,
		 int nr);
/* after a signal: says so, and gives 128 + the signal */
int bench_exit_interrupted(void);

/* one updating line on stderr when it is a terminal */
void progress(int done, int total, const struct bench_row *row, int round,
	      int rounds);
void progress_end(void);

#endif /* __BENCH_REPORT_H */
