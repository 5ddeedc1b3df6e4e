// SPDX-License-Identifier: GPL-2.0
/*
 * Units: a row's samples between two of its base's (or a row alone: its
 * sample), paced to the machine, disturbed ones run again within the
 * row's retry budget, and what a unit leaves in the rows: its figures
 * and counts.
 *
 * Apart from the run loop (passes/sampler.c), which decides how many
 * units a session has and when a row is done, and above the samples and
 * sessions (sample.c) it calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <string.h>
#include "sample/sample.h"

/*
 * A disturbed unit is run again while the row has spent less than this
 * on units run again (or RETRY_BUDGET_UNITS of its units' time, when that
 * is more): short interruptions are random, so a few more tries usually
 * find a clean moment. The budget is in the row's own units: where a
 * syscall is slow (a host that slows kernel work several times) a unit
 * takes longer, and a budget in seconds alone would allow it no try.
 */
#define RETRY_BUDGET_NS		(1000000000ull)
#define RETRY_BUDGET_UNITS	4
/*
 * What a sample's loop should take, whatever the machine's pace. On the
 * 2-vCPU cloud VM the pace of neighbouring windows differs by 3-5% at
 * any length from 0.5 to 160 ms: a longer sample is no quieter, so more
 * and shorter ones give a unit's mean more for its time (statistics.rst)
 */
#define SAMPLE_TARGET_NS	3000000ull
/*
 * A unit's samples take this share of its fixed cost, and a sample no
 * more than SAMPLE_MAX_NS: the longer a sample, the likelier a host's
 * interruption lands in it (see unit_sample_target_ns())
 */
#define FIXED_SHARE		0.9
#define SAMPLE_MAX_NS		40000000ull
/* a row's count is paced down to no less than this share of its own */
#define PACE_MIN_SHARE		64
/* a disturbed sample's tries in its unit: see sample_again() */
#define SAMPLE_TRIES		3
/*
 * A unit's two base samples further apart than this share of their mean
 * (and PACE_FLOOR_NS) saw the machine change its pace within the unit:
 * see unit_judge()
 */
#define PACE_CHANGE_SHARE	0.2
#define PACE_FLOOR_NS		5.0

/* ---- pacing ---- */

/*
 * A row's own count is sized for a fast machine; on a slower one its
 * samples would run far longer than a figure needs. Its first unit runs a
 * PACE_MIN_SHARE-th of its count; after it and each undisturbed unit, the
 * count is set to take about SAMPLE_TARGET_NS (or more, where the unit
 * costs more besides: unit_sample_target_ns()) at the row's pace
 * just seen: never more than the row's own count, never less than a
 * PACE_MIN_SHARE-th of it. A count or a duration the user gave is never
 * paced. A unit's base samples make the same count of events as its row
 * sample: each side then gets time in proportion to its cost, and a base
 * a thousand times cheaper (a bare call beside a uprobe) takes next to
 * none.
 */
bool row_paced(const struct bench_family *fam,
	       const struct run_settings *rs, const struct bench_row *row)
{
	return fam->paced && !row->unpaced && !rs->count && !rs->duration;
}

__u64 row_sample_count(const struct bench_family *fam,
		       const struct run_settings *rs,
		       const struct bench_row *row)
{
	if (rs->count)
		return rs->count;
	if (!row_paced(fam, rs, row))
		return row->count;
	return row->state->paced_count ?: row->count / PACE_MIN_SHARE ?: 1;
}

static void row_pace(const struct bench_family *fam,
		     const struct run_settings *rs, struct bench_row *row,
		     __u64 count, __u64 wall, double target)
{
	__u64 want, least = row->count / PACE_MIN_SHARE ?: 1;

	if (!row_paced(fam, rs, row) || !wall)
		return;
	want = (double)count * target / wall;
	if (want < least)
		want = least;
	row->state->paced_count = want < row->count ? want : row->count;
}

/* ---- retries ---- */

/*
 * RETRY_BUDGET_UNITS of a unit's time, at least RETRY_BUDGET_NS: before a
 * unit was kept, the shortest disturbed one stands for it
 */
__u64 retry_budget_ns(const struct bench_row *row)
{
	const struct row_state *st = row->state;
	double unit = st->unit_ns_spent ? st->unit_ns_spent :
		      st->disturbed_unit_ns;
	__u64 budget = RETRY_BUDGET_UNITS * unit;

	return budget < RETRY_BUDGET_NS ? RETRY_BUDGET_NS : budget;
}

/*
 * May a disturbed unit or sample of @row be run again, @spent ns into
 * retries besides those already in its retry_ns?
 */
static bool retry_allowed(const struct bench_row *row, __u64 spent)
{
	return row->state->retry_ns + spent < retry_budget_ns(row);
}

/* the shortest disturbed unit: the retry budget's unit until one is kept */
static void note_disturbed_unit(struct row_state *st, __u64 took)
{
	if (!st->disturbed_unit_ns || took < st->disturbed_unit_ns)
		st->disturbed_unit_ns = took;
}

/* ---- units ---- */

/* a unit: a base sample, the row's (one or more), another base sample */
struct unit {
	struct sample base[2];
	struct sample row[MAX_UNIT_ROW_SAMPLES];
	int nr_row;			/* row samples run */
	struct outcome out;		/* the worst of them */
	int row_retries;		/* its row samples run again */
	int base_retries;		/* its base samples run again */
	__u64 retry_ns;			/* the time they took */
};

/*
 * The unit's point is that its base samples, around its row's, see the
 * machine at one pace. Where the host slows a vCPU down it tells nothing
 * (no steal here, the workers stay on their CPUs), but the base samples
 * do: of 763 units of 5 default runs, every base pair but two agreed
 * within 15% (97% within 10%); those two ran 717 then 2243 ns and 210
 * then 660, and made a row's overhead -24.5 +- 127.7 ns.
 */
static bool pace_changed(const struct unit *u)
{
	double a = u->base[0].ns_per_event, b = u->base[1].ns_per_event;
	double apart = fabs(a - b);

	return apart > PACE_FLOOR_NS && apart > PACE_CHANGE_SHARE * (a + b) / 2;
}

/*
 * The unit's outcome: failed over skipped over disturbed over ok, the
 * first of each; an ok unit whose pace changed, disturbed
 */
static void unit_judge(struct unit *u)
{
	static const enum status worst[] = {
		ST_FAILED, ST_SKIPPED, ST_DISTURBED
	};
	const struct sample *s[MAX_UNIT_ROW_SAMPLES + 2];
	int i, n = 0;
	size_t k;

	s[n++] = &u->base[0];
	for (i = 0; i < u->nr_row; i++)
		s[n++] = &u->row[i];
	s[n++] = &u->base[1];
	u->out = (struct outcome){};
	for (k = 0; k < ARRAY_SIZE(worst); k++)
		for (i = 0; i < n; i++)
			if (s[i]->out.status == worst[k]) {
				u->out = s[i]->out;
				return;
			}
	if (pace_changed(u))
		outcome_set(&u->out, ST_DISTURBED,
			    "the machine's pace changed within a unit: its base ran %.1f, then %.1f ns per event",
			    u->base[0].ns_per_event, u->base[1].ns_per_event);
}

/* a sample that neither ran nor may go on: the unit ends at it */
static bool sample_ends_unit(const struct sample *s)
{
	return s->out.status == ST_FAILED || s->out.status == ST_SKIPPED ||
	       bench_interrupted();
}

/*
 * A base sample makes as many events as the row's, but no fewer than a
 * PACE_MIN_SHARE-th of what takes the base SAMPLE_TARGET_NS: a base a
 * thousand times cheaper than its row would otherwise run for a few
 * microseconds, and its own figure say little.
 */
__u64 base_sample_count(const struct bench_family *fam,
			const struct run_settings *rs,
			const struct bench_row *base, __u64 count)
{
	__u64 least = base->state->paced_count / PACE_MIN_SHARE;

	return row_paced(fam, rs, base) && count < least ? least : count;
}

/*
 * What attaching and detaching the row's programs costs a unit, as seen
 * so far: 0 where the row stays attached through its units, has not
 * been attached yet, or runs -r's units
 */
static double unit_toggle_ns(const struct run_settings *rs,
			     const struct bench_row *row)
{
	const struct row_state *st = row->state;

	if (rs->repeat || row_stays_attached(row) || !st->nr_attach ||
	    !st->nr_detach)
		return 0;
	return row_median(st->attach_ns, st->nr_attach) +
	       row_median(st->detach_ns, st->nr_detach);
}

/*
 * Row samples per unit: one, but where attaching and detaching cost more
 * than two samples (a tracepoint's detach waits for RCU grace periods,
 * 65-100 ms here), up to MAX_UNIT_ROW_SAMPLES in a row between the
 * unit's base samples, so that a unit's toggle buys more of the row's
 * time. Their mean time is still the base samples' mean time: a linear
 * drift still cancels. -r's units have one each.
 */
static int unit_row_samples(const struct run_settings *rs,
			    const struct bench_row *row)
{
	int m = unit_toggle_ns(rs, row) / (2 * SAMPLE_TARGET_NS);

	return m < 1 ? 1 : m > MAX_UNIT_ROW_SAMPLES ? MAX_UNIT_ROW_SAMPLES : m;
}

/*
 * What a unit's fixed cost is, as seen so far: its own besides its
 * samples' loops, and its share of its session's (0 before the first).
 * Not the session's for a row loaded afresh each session: there the
 * load is what varies (a map's memory: its units 943-1317 ns apart in
 * one run, their samples 3-5%), and what a session costs buys a new
 * one; a longer sample would buy nothing and spend loads.
 */
static double row_fixed_ns(const struct bench_row *row)
{
	const struct row_state *st = row->state;

	return st->unit_fixed_ns + (row->reload ? 0 : st->session_share_ns);
}

/*
 * What each of a unit's samples should take: FIXED_SHARE of the unit's
 * fixed cost F over its samples, SAMPLE_TARGET_NS at the least and
 * SAMPLE_MAX_NS at the most. A unit of k samples of T costs F + kT, and
 * its noise falls about as T^-0.48 where F is large (a tracepoint row's
 * units, 4 row samples between two base samples: 14-19% with samples of
 * 2-4 ms, 9% with 14 ms, 4-7% with 40 ms); so a unit spends about as
 * much time measuring as it costs besides (T about 0.3 F in B R B),
 * not a seventh of it, as samples of SAMPLE_TARGET_NS beside a 100-ms
 * detach did. Where F is small (a raw_tp row kept attached: 5 ms, a
 * map row's without its reload) this is SAMPLE_TARGET_NS.
 */
static double unit_sample_target_ns(const struct bench_row *row,
				    int samples)
{
	double target = FIXED_SHARE * row_fixed_ns(row) / samples;

	if (target < SAMPLE_TARGET_NS)
		return SAMPLE_TARGET_NS;
	return target > SAMPLE_MAX_NS ? SAMPLE_MAX_NS : target;
}

/* the time in the unit's samples' loops, its base samples' too */
static __u64 unit_loops_ns(const struct unit *u, bool base)
{
	__u64 ns = 0;
	int i;

	for (i = 0; i < u->nr_row; i++)
		ns += sample_wall(&u->row[i]);
	if (base)
		ns += sample_wall(&u->base[0]) + sample_wall(&u->base[1]);
	return ns;
}

/* the mean of the unit's row samples' ns per event */
static double unit_row_ns(const struct unit *u)
{
	double sum = 0;
	int i;

	for (i = 0; i < u->nr_row; i++)
		sum += u->row[i].ns_per_event;
	return u->nr_row ? sum / u->nr_row : NAN;
}

/*
 * Is the unit's sample @s, disturbed, to run again at once? An
 * interruption (the host's steal, another task's turn) is short beside a
 * unit: the next try of the sample alone usually finds the CPUs free,
 * and the unit keeps its other samples, and the pairing that is its
 * point. Within the row's retry budget, SAMPLE_TRIES tries at most
 * (sample_tries()); a sample still disturbed makes its unit so.
 */
static bool sample_again(struct session *sess, const struct sample *s,
			 const struct unit *u)
{
	return s->out.status == ST_DISTURBED && !bench_interrupted() &&
	       retry_allowed(sess->row, u->retry_ns);
}

/*
 * A base sample of the unit (@base) or a row sample: SAMPLE_TRIES tries
 * at most, each after the first when sample_again() says so, counted in
 * the unit's retries and their time. The unit's @last row sample
 * detaches after its run, but a disturbed one, whose next try comes at
 * once (row_sample_run()): once its tries are done.
 */
static void sample_tries(const struct bench_family *fam, struct session *sess,
			 __u64 count, struct unit *u, struct sample *s,
			 int which, bool base, bool last)
{
	int *retries = base ? &u->base_retries : &u->row_retries;
	__u64 start;
	int tries;

	for (tries = 0; tries < SAMPLE_TRIES; tries++) {
		if (tries) {
			if (!sample_again(sess, s, u))
				break;
			++*retries;
		}
		start = now_ns();
		if (base)
			base_sample_run(fam, sess, count, s, which);
		else
			row_sample_run(fam, sess, count, s, which, last);
		if (tries)
			u->retry_ns += now_ns() - start;
	}
	if (!base && last && !row_stays_attached(sess->row))
		session_detach(fam, sess);
}

/* B R... B: a sample that fails ends the unit at once */
static void unit_run(const struct bench_family *fam, struct session *sess,
		     struct unit *u)
{
	__u64 count = row_sample_count(fam, sess->rs, sess->row);
	__u64 base_count = base_sample_count(fam, sess->rs, sess->base, count);
	int i, m = unit_row_samples(sess->rs, sess->row);
	const struct sample *last;
	double target;

	memset(u, 0, sizeof(*u));
	sess->quiet_after = 0;
	sample_tries(fam, sess, base_count, u, &u->base[0], 0, true, false);
	last = &u->base[0];
	for (i = 0; i < m && !sample_ends_unit(last); i++) {
		sample_tries(fam, sess, count, u, &u->row[i], 1 + i, false,
			     i == m - 1);
		last = &u->row[u->nr_row++];
	}
	if (!sample_ends_unit(last))
		sample_tries(fam, sess, base_count, u, &u->base[1], 1 + m,
			     true, false);
	/* a row sample that failed may have left the programs attached */
	if (!row_stays_attached(sess->row))
		session_detach(fam, sess);
	unit_judge(u);
	/* a disturbed unit's wall time is not the machine's pace */
	if (u->out.status != ST_OK)
		return;
	target = unit_sample_target_ns(sess->row, m + 2);
	row_pace(fam, sess->rs, sess->row, count, sample_wall(last), target);
	row_pace(fam, sess->rs, sess->base, base_count,
		 sample_wall(&u->base[1]), SAMPLE_TARGET_NS);
}

/* a row alone: its sample is the unit */
static void plain_unit_run(const struct bench_family *fam,
			   struct session *sess, struct unit *u)
{
	__u64 count = row_sample_count(fam, sess->rs, sess->row);

	memset(u, 0, sizeof(*u));
	sess->quiet_after = 0;
	row_sample_run(fam, sess, count, &u->row[0], 1, true);
	/* a disturbed sample stayed attached for a try again: none here */
	if (!row_stays_attached(sess->row))
		session_detach(fam, sess);
	u->nr_row = 1;
	u->out = u->row[0].out;
	if (u->out.status == ST_OK)
		row_pace(fam, sess->rs, sess->row, count,
			 sample_wall(&u->row[0]),
			 unit_sample_target_ns(sess->row, 1));
}

/* ---- what a unit leaves in the rows ---- */

/* a sample's figures among @row's samples */
static void row_add_sample(struct bench_row *row, const struct sample *s)
{
	struct row_state *st = row->state;
	int i, n = st->nr, nw = s->nr_workers;

	if (n >= MAX_SAMPLES)
		return;
	st->rate[n] = s->rate;
	st->ns[n] = s->ns_per_event;
	st->settle_ns[n] = s->settle_ns;
	for (i = 0; i < nw; i++)
		st->worker_rate[n * nw + i] = s->res[i].events * 1e9 /
			(s->res[i].elapsed_ns ?: 1);
	st->nr++;
}

/* what a unit was, beside its figures */
struct unit_info {
	int round;
	__u64 count;		/* events per worker */
	bool retry;
};

static void row_add_unit(struct bench_row *row, double value, double ns,
			 double base_ns, const struct unit_info *info)
{
	struct row_state *st = row->state;
	int n = st->nr_units;

	if (n >= MAX_UNITS)
		return;
	st->unit[n] = value;
	st->unit_ns[n] = ns;
	st->unit_base_ns[n] = base_ns;
	st->unit_round[n] = info->round;
	st->unit_count[n] = info->count;
	st->unit_retry[n] = info->retry;
	st->nr_units++;
}

/* the counts of a verified sample, kept even when it was disturbed */
static void row_count(const struct bench_family *fam, struct bench_row *row,
		      const struct sample *s)
{
	struct row_state *st = row->state;
	int w;

	if (s->unverified || !s->res ||
	    (s->out.status != ST_OK && s->out.status != ST_DISTURBED))
		return;
	for (w = 0; w < s->nr_workers && st->worker_events; w++) {
		st->worker_events[w] += s->res[w].events;
		st->worker_hits_window[w] +=
			sample_in_loop(s, row->nr_counters, w, 0, false);
	}
	st->events += s->events;
	st->steal_ns += s->steal_ns;
	st->stats_runs += s->stats_runs;
	st->hits += s->counted;
	st->hits_window += s->in_window;
	st->foreign += s->foreign;
	st->kernel_skipped += s->skipped;
	st->kernel_skips += s->kernel_skips[0];
	if (fam->count && row->runs_prog)
		fam->count(row, s);
}

/* a counted unit's figures: the row's, and its base's samples */
static void unit_record(struct session *sess, const struct unit *u,
			const struct unit_info *info)
{
	struct bench_row *row = sess->row, *base = sess->base;
	struct unit_info base_info = *info;
	double row_ns = unit_row_ns(u), base_ns;
	int i;

	for (i = 0; i < u->nr_row; i++) {
		row_add_sample(row, &u->row[i]);
		row->state->loops_counted_ns += sample_wall(&u->row[i]);
	}
	if (!base) {
		row_add_unit(row, row_ns, row_ns, NAN, info);
		return;
	}
	base_ns = (u->base[0].ns_per_event + u->base[1].ns_per_event) / 2;
	/* its base samples ran in its session: their time is the row's */
	row->state->loops_counted_ns += sample_wall(&u->base[0]) +
					sample_wall(&u->base[1]);
	row->state->paired = true;
	row_add_unit(row, row_ns - base_ns, row_ns, base_ns, info);
	row_add_sample(base, &u->base[0]);
	row_add_sample(base, &u->base[1]);
	base_info.count = u->base[0].res[0].events;
	row_add_unit(base, base_ns, base_ns, NAN, &base_info);
	base->state->fed = true;
	base->state->events += u->base[0].events + u->base[1].events;
}

/* ---- a session's unit ---- */

/* what the unit that @took ns cost besides its @loops, for its samples */
static void note_unit_fixed(struct row_state *st, __u64 took, __u64 loops)
{
	double fixed = took > loops ? took - loops : 0;

	st->unit_fixed_ns = st->unit_fixed_ns ?
			    (st->unit_fixed_ns + fixed) / 2 : fixed;
}

/*
 * One unit of the session, run again while disturbed within the row's
 * budget. A unit that failed, or stayed disturbed, ends the row with its
 * reason. Counted units become figures; the counts of every verified
 * sample are kept.
 */
int session_unit(const struct bench_family *fam, struct session *sess,
		 bool counted, int round)
{
	struct bench_row *row = sess->row;
	__u64 start, took;
	struct unit u;
	int i, tries;

	for (tries = 0;; tries++) {
		start = now_ns();
		if (sess->base)
			unit_run(fam, sess, &u);
		else
			plain_unit_run(fam, sess, &u);
		took = now_ns() - start;
		/*
		 * a unit run again is retry time whole, the first its
		 * samples' tries again: into the row's budget at once, where
		 * the next try's samples see it
		 */
		row->state->retry_ns += tries ? took : u.retry_ns;
		row->state->retries += u.row_retries;
		row->state->base_retries += u.base_retries;
		row->state->attempts++;
		if (bench_interrupted())
			return -EINTR;
		if (u.out.status != ST_DISTURBED)
			break;
		row->state->disturbed_units++;
		row->state->last_disturbed = u.out;
		note_disturbed_unit(row->state, took - u.retry_ns);
		if (!retry_allowed(row, 0))
			break;
		row->state->retries++;
	}
	/* the last try's counts, disturbed or not, as its figures */
	for (i = 0; counted && i < u.nr_row; i++)
		row_count(fam, row, &u.row[i]);
	if (u.out.status != ST_OK) {
		row->out = u.out;
		return 0;
	}
	/* what a unit takes, its samples' tries again aside: retry time */
	took -= u.retry_ns;
	row->state->unit_ns_spent = row->state->unit_ns_spent ?
			     (row->state->unit_ns_spent + took) / 2 : took;
	note_unit_fixed(row->state, took, unit_loops_ns(&u, sess->base));
	if (counted) {
		struct unit_info info = {
			round, u.row[0].res[0].events, tries > 0
		};

		unit_record(sess, &u, &info);
	}
	return 0;
}
