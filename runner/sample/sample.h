/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_SAMPLE_H
#define __RUNNER_SAMPLE_H

#include "core/core.h"
#include "rows/rows.h"
#include "workers/workers.h"

/* a unit's row samples at most: B R ... R B (sample/unit.c) */
#define MAX_UNIT_ROW_SAMPLES	(SAMPLE_PLACES - 2)

/*
 * What the sampler's files share with each other, and nothing else
 * includes: a family sees bench.h, cli/main.c passes/passes.h. The
 * files are layers, each calling only those below it:
 *
 *   passes/sampler.c       the run loop: rounds of sessions of units;
 *                          the --profile and --prog-stats passes after it
 *   sample/unit.c          units: pacing, retries, their figures kept
 *   sample/sample.c        one sample of a row or its base, and below it
 *                          sessions: the kept pool, attach and detach
 */

struct worker_pool;
struct sampler_pass;

/* ---- sample/sample.c: sessions, the kept pool, attach and detach ---- */

/* one session of a row: its workers, and its base arm if it has one */
struct session {
	struct bench_row *row;		/* what is measured */
	struct bench_row *base;		/* its base arm; NULL: none */
	int base_trigger;		/* the base's index in the pool */
	struct worker_pool *pool;	/* the row's */
	const struct run_settings *rs;	/* the run's */
	struct sampler_pass *pass;	/* what the pass keeps across units */
	bool keep;			/* its workers, for the row's next */
	__u64 started_ns;
	int detaches;			/* its detaches */
	/*
	 * 1 + @detaches when the unit's last sample ran, undisturbed; 0: no
	 * such sample since the unit began (see sample_settle())
	 */
	int quiet_after;
};

bool row_has_base(const struct bench_row *row);
bool row_stays_attached(const struct bench_row *row);
bool base_is_fed(const struct bench_rows *rows,
		 const struct bench_row *base);
void row_pool_stop(struct row_pool *rp);
__u64 row_pool_end(struct bench_row *row);
int session_start(const struct bench_family *fam, struct session *sess,
		  struct outcome *out);
int session_attach(const struct bench_family *fam,
		   struct session *sess, struct outcome *out);
void session_detach(const struct bench_family *fam,
		    struct session *sess);
enum row_stop row_stop_reason(const struct run_settings *rs,
			      const struct bench_row *row);
void session_end(const struct bench_family *fam, struct session *sess);
void detach_all(const struct bench_family *fam,
		struct bench_rows *rows);

/* ---- sample/sample.c: one sample of a session ---- */

/* one set per arm of a unit: a row's sample and its base's live together */
struct sample_bufs {
	void *res, *hits, *skips, *window;
	size_t res_nr, hits_nr, skips_nr, window_nr;
};

/*
 * One pass of the sampler over the rows (the run's, --prog-stats',
 * --profile's), what it keeps from one sample to the next, zeroed to
 * start: the samples' buffers, one per place of a unit's samples, grown
 * only, so that no sample allocates in a run; the kernel threads the
 * wait for quiet watches; the run's progress line. The passer's, passed
 * in each session; sampler_pass_end() frees it.
 */
struct sampler_pass {
	struct sample_bufs bufs[SAMPLE_PLACES];
	struct kthread_set quiet;
	struct progress_line line;
};

void sampler_pass_end(struct sampler_pass *pass);
__u64 sample_wall(const struct sample *s);
void row_sample_run(const struct bench_family *fam,
		    struct session *sess, __u64 count,
		    struct sample *s, int which, bool last);
void base_sample_run(const struct bench_family *fam,
		     struct session *sess, __u64 count,
		     struct sample *s, int which);

/* ---- sample/unit.c: units, their pacing and retries ---- */

bool row_paced(const struct bench_family *fam,
	       const struct run_settings *rs, const struct bench_row *row);
__u64 row_sample_count(const struct bench_family *fam,
		       const struct run_settings *rs,
		       const struct bench_row *row);
__u64 base_sample_count(const struct bench_family *fam,
			const struct run_settings *rs,
			const struct bench_row *base, __u64 count);
__u64 retry_budget_ns(const struct bench_row *row);
int session_unit(const struct bench_family *fam, struct session *sess,
		 bool counted, int round);

/* ---- sample/verify.c: what a sample is worth, pure functions ---- */

/* a row's overhead need not be known closer than this, in ns per event */
#define MIN_PRECISION_NS	1.0

/*
 * What program @c of @nr counted inside worker @w's loop: the runs for
 * the worker, or with @foreign those for other tasks (0 where the family
 * does not count them apart)
 */
__u64 sample_in_loop(const struct sample *s, int nr, int w, int c,
		     bool foreign);

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
/*
 * s->out disturbed, and true, when a worker was moved off its CPU (found
 * elsewhere at the end of its loop, or moved there and back within it:
 * the kernel's count of its migrations), or could not be pinned again
 * after an earlier move: its events ran partly elsewhere, so its CPU's
 * count can neither verify nor fail them
 */
bool sample_judge_moved(struct sample *s);
/*
 * s->out disturbed when a worker did not have its CPU to itself, or the
 * kernel's skips excused more than a thousandth of a program's events
 */
void sample_judge_disturbed(struct sample *s);
/*
 * Whether the 95% interval of the mean of @n units, each unit[i] of
 * round round[i] (the units of one round taken as one: their mean), is
 * within --precision of it, and, for an @overhead, at least
 * MIN_PRECISION_NS
 */
bool units_precise(const double *unit, const int *round, int n,
		   bool overhead, const struct run_settings *rs);
/*
 * Whether more than half of a row's @attempts at units were disturbed:
 * the units that survived are those the disturbance missed, and work the
 * event sends elsewhere lands in the others, so the figure would be
 * biased; the row gets none
 */
bool units_mostly_disturbed(int disturbed, int attempts);
/*
 * Why a row with @n units that took @spent_ns stops: -r N reached,
 * precise after --min-units, --max-units, or its --budget spent (twice
 * over while it has fewer than --min-units, and never below two units);
 * STOP_NOT while it goes on
 */
enum row_stop units_enough(const double *unit, const int *round, int n,
			   bool overhead, __u64 spent_ns,
			   const struct run_settings *rs);

#endif /* __RUNNER_SAMPLE_H */
