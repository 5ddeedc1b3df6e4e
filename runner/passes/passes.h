/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_PASSES_H
#define __RUNNER_PASSES_H

#include <sys/types.h>
#include "bench.h"

/*
 * The sampler (passes/sampler.c): opens every row and measures them in
 * rounds until each is known well enough. -EINTR when a signal ended it.
 */
int sampler_run(const struct bench_family *fam, const struct run_settings *rs,
		struct bench_rows *rows);
/* --prog-stats: one more sample of each row with a figure */
int sampler_prog_stats(const struct bench_family *fam,
		       const struct run_settings *rs, struct bench_rows *rows);
/* --profile: profiled units of each row with a figure, and its base */
int sampler_profile(const struct bench_family *fam,
		    const struct run_settings *rs, struct bench_rows *rows);
/* closes the opened rows and frees them */
void sampler_close(const struct bench_family *fam, struct bench_rows *rows);

/* passes/profile.c: --profile's clock, its samples named, its output */

/* a sample of the workers' CPUs every this many ns of CPU time: 10 kHz */
#define PROFILE_PERIOD_NS	100000ull
/* the symbols the summary shows per row, by the ns they explain */
#define PROFILE_TOP		8
/* the symbols a row's JSON holds at most */
#define PROFILE_JSON_TOP	32

/* what a profiled sample is of: the row, or its base */
enum profile_arm { ARM_ROW, ARM_BASE, NR_ARMS };

struct ksyms;

/* one symbol's samples in each arm */
struct profile_symbol {
	char *name;
	__u64 samples[NR_ARMS];
};

/* the profile of one row and its base: the runner's, behind its state */
struct row_profile {
	struct outcome out;		/* ok, or why there is none */
	bool has_base;
	int units;			/* profiled units that counted */
	int dropped;			/* profiled samples not undisturbed */
	struct outcome last_dropped;	/* why the last of them was */
	/* the workers' samples, and of them in user space */
	__u64 samples[NR_ARMS];
	__u64 user[NR_ARMS];
	/* samples on the workers' CPUs of other tasks, and of idle */
	__u64 other[NR_ARMS];
	__u64 idle[NR_ARMS];
	__u64 lost;			/* records the kernel dropped */
	__u64 throttled;		/* times the kernel stopped the clock */
	/* the workers' kernel addresses, until profile_finish() names them */
	__u64 *ip[NR_ARMS];
	size_t nr_ip[NR_ARMS], cap_ip[NR_ARMS];
	struct ksyms *ksyms;		/* kallsyms, read while attached */
	/* named: by samples, most first */
	struct profile_symbol *sym;
	int nr_sym;
};

/* the perf events of the run's CPUs, one each, and their rings */
struct profiler {
	int nr;
	int *cpu;
	int *fd;
	void **ring;
	size_t ring_len;
};

/*
 * A software clock per CPU of @cpus, disabled, each with its ring. 0, or
 * -1 with @out saying why (skipped: what the kernel refused).
 */
int profiler_open(struct profiler *p, const struct cpu_list *cpus,
		  struct outcome *out);
/* the clocks run from here */
void profiler_start(struct profiler *p);
/*
 * The clocks stop, their rings read: with @keep, the samples on @cpus of
 * the tasks @tids (@nr: the workers) go to @prof's @arm, the rest counted
 * as other tasks' or idle
 */
void profiler_stop(struct profiler *p, struct row_profile *prof,
		   enum profile_arm arm, const pid_t *tids, int nr,
		   const struct cpu_list *cpus, bool keep);
void profiler_close(struct profiler *p);

/*
 * Reads kallsyms at @path for @prof, the row's programs attached: 0, or -1
 * with the profile's outcome saying why not (hidden, unreadable)
 */
int profile_symbols_at(struct row_profile *prof, const char *path);
/* one record of a ring into @prof's @arm, as profiler_stop() takes it */
void profile_take(struct row_profile *prof, enum profile_arm arm,
		  const pid_t *tids, int nr, const void *rec);
/* names the kept addresses, sums them per symbol, frees the addresses */
void profile_finish(struct row_profile *prof);
void profile_free(struct row_profile *prof);

/* the workers' samples of @arm in symbol @i, as a share of the arm's */
double profile_share(const struct row_profile *prof, int i,
		     enum profile_arm arm);

struct json_t;
/* the row's "profile" object, or null when it was not profiled */
struct json_t *profile_json(const struct bench_row *row);
/* the profiles' tables, after the summary: nothing without --profile */
void print_profiles(const struct bench_rows *rows);

#endif /* __RUNNER_PASSES_H */
