/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the sampler's files share with each other, and nothing else
 * includes: a family sees bench.h, bench_main.c bench_sampler.h. The
 * files are layers, each calling only those below it:
 *
 *   bench_sampler.c       the run loop: rounds of sessions of units
 *   bench_prog_stats.c    the --prog-stats pass, after the run
 *   bench_profile_pass.c  the --profile pass, after the run
 *   bench_unit.c          units: pacing, retries, their figures kept
 *   bench_sample.c        one sample of a row or its base
 *   bench_session.c       sessions: the kept pool, attach and detach
 */
#ifndef __BENCH_SAMPLER_INT_H
#define __BENCH_SAMPLER_INT_H

#include "bench_report.h"
#include "bench_row.h"
#include "bench_workers.h"

struct worker_pool;
struct sampler_pass;

/* ---- bench_session.c: sessions, the kept pool, attach and detach ---- */

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
__u64 phase_add(struct bench_row *row, enum row_phase phase, __u64 t0);
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

/* ---- bench_sample.c: one sample of a session ---- */

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

/* ---- bench_unit.c: units, their pacing and retries ---- */

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

#endif /* __BENCH_SAMPLER_INT_H */
