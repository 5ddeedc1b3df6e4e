// SPDX-License-Identifier: GPL-2.0
/*
 * --profile: the pass after the run that profiles each row with a
 * figure, and its base: units run as the figures' were, each sample
 * under the software clock (bench_profile_clock.c), none of them counted.
 *
 * Apart from the run loop (bench_sampler.c), whose figures it never
 * touches, and from the profiler itself (bench_profile_clock.c,
 * bench_profile_ksyms.c, bench_profile_report.c), which knows nothing
 * of sessions: this file is what joins the two, above the
 * sampler's layers (bench_sampler_int.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include "passes/passes.h"
#include "sample/sample.h"
#include "core/core.h"
#include "workers/workers.h"

/* a row's profiled samples stop at this many of the workers' per arm... */
#define PROFILE_SAMPLES		4000
/* ...or after this long, or this many units */
#define PROFILE_BUDGET_NS	2000000000ull
#define PROFILE_MAX_UNITS	100

static bool profile_enough(const struct row_profile *prof, __u64 spent)
{
	return (prof->samples[ARM_ROW] >= PROFILE_SAMPLES &&
		(!prof->has_base || prof->samples[ARM_BASE] >= PROFILE_SAMPLES)) ||
	       spent >= PROFILE_BUDGET_NS || prof->units >= PROFILE_MAX_UNITS ||
	       prof->out.status != ST_OK || bench_interrupted();
}

/*
 * One sample under the profiler: its samples count only when it ran
 * undisturbed; one that failed ends the profile, saying why
 */
static void profiled_sample(const struct bench_family *fam,
			    struct session *sess, struct profiler *p,
			    enum profile_arm arm, __u64 count)
{
	struct row_profile *prof = sess->row->state->profile;
	struct sample s;
	bool ok;

	profiler_start(p);
	if (arm == ARM_BASE)
		base_sample_run(fam, sess, count, &s, 0);
	else
		row_sample_run(fam, sess, count, &s, 1, true);
	ok = s.out.status == ST_OK;
	profiler_stop(p, prof, arm, sess->pool->pid, sess->pool->nr,
		      sess->row->cpus, ok);
	/*
	 * a disturbed row sample stays attached for a try again
	 * (row_sample_run()); the next sample here is the base's
	 */
	if (arm != ARM_BASE && !row_stays_attached(sess->row))
		session_detach(fam, sess);
	if (!ok) {
		prof->dropped++;
		prof->last_dropped = s.out;
	}
	if (s.out.status == ST_FAILED || s.out.status == ST_SKIPPED)
		prof->out = s.out;
}

/*
 * Units of the row's base and the row, as the figures' were, each sample
 * profiled; none gives a figure, none counts. kallsyms is read once the
 * row's programs are attached, their JIT images and trampolines in it.
 */
static int profile_session(const struct bench_family *fam,
			   const struct run_settings *rs,
			   struct bench_row *row, struct sampler_pass *pass,
			   struct profiler *p)
{
	struct row_profile *prof = row->state->profile;
	struct session sess = { .row = row, .rs = rs, .pass = pass };
	__u64 count = row_sample_count(fam, rs, row), base_count = 0;
	__u64 start = now_ns();

	if (row_has_base(row)) {
		sess.base = row->base;
		base_count = base_sample_count(fam, rs, row->base, count);
	}
	prof->has_base = sess.base;
	if (session_start(fam, &sess, &prof->out))
		goto out;
	while (!profile_enough(prof, now_ns() - start)) {
		if (sess.base)
			profiled_sample(fam, &sess, p, ARM_BASE, base_count);
		if (prof->out.status != ST_OK ||
		    session_attach(fam, &sess, &prof->out) ||
		    (!prof->ksyms && profile_symbols(prof)))
			break;
		profiled_sample(fam, &sess, p, ARM_ROW, count);
		if (sess.base && prof->out.status == ST_OK)
			profiled_sample(fam, &sess, p, ARM_BASE, base_count);
		if (!row_stays_attached(row))
			session_detach(fam, &sess);
		prof->units++;
	}
out:
	session_end(fam, &sess);
	profile_finish(prof);
	return bench_interrupted() ? -EINTR : 0;
}

/* rows with a figure; a base only where no row of the run feeds it */
static bool profile_wanted(const struct bench_rows *rows,
			   const struct bench_row *row)
{
	return row_has_figure(row) && (row->runs_prog || !base_is_fed(rows, row));
}

int sampler_profile(const struct bench_family *fam,
		    const struct run_settings *rs, struct bench_rows *rows)
{
	struct sampler_pass pass = {};
	struct outcome why = {};
	struct profiler p;
	bool open;
	int i, err = 0;

	open = !profiler_open(&p, &rs->cpus, &why);
	for (i = 0; !err && i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (!profile_wanted(rows, row))
			continue;
		row->state->profile = calloc(1, sizeof(*row->state->profile));
		if (!row->state->profile) {
			err = -ENOMEM;
			break;
		}
		if (open)
			err = profile_session(fam, rs, row, &pass, &p);
		else
			row->state->profile->out = why;
	}
	if (open)
		profiler_close(&p);
	sampler_pass_end(&pass);
	return err;
}
