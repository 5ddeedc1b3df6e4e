// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler: how the rows of a run are measured (Documentation/
 * statistics.rst, "Units" and "Rounds", says why so).
 *
 * A row with a base is measured in units: a sample of its base, a sample
 * of the row, another of its base, back to back on the same workers, the
 * row's programs attached right before its sample and detached right
 * after (or, when they never see its base's events, through a session's
 * units). A row without a base is measured in units of one sample each.
 * Rows are visited in rounds: each round gives every row not yet known
 * well enough one session (a few units, on workers kept until the row is
 * done), so that its units spread over the run; a row stops once its
 * interval is within --precision, after --min-units; or at --max-units;
 * or when it spent its time budget.
 *
 * Here the run loop, top to bottom, then the passes after the run,
 * --profile's and --prog-stats'; what they call is below them (sample/).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "passes/passes.h"
#include "sample/sample.h"
#include "core/core.h"
#include "rows/rows.h"
#include "workers/workers.h"

/* what the units of one session should outweigh: its fork and attach */
#define SESSION_SHARE		1
/* a row's units per session at most */
#define MAX_SESSION_UNITS	8

/* ---- how many units a session has ---- */

/* units the row still wants; at least one */
static int units_wanted(const struct run_settings *rs,
			const struct bench_row *row)
{
	const struct row_state *st = row->state;
	int want;

	if (rs->repeat)
		want = rs->repeat - st->nr_units;
	else if (st->nr_units < rs->min_units)
		want = rs->min_units - st->nr_units;
	else
		want = 1;
	return want > 0 ? want : 1;
}

/*
 * Units per session: enough that they outweigh what the session costs
 * besides them (forking the workers, or looking the kept ones over;
 * attaching and detaching, when the row stays attached through its
 * units), as measured in its earlier sessions. The first session has one,
 * which also paces the row; but for a row that stays attached, whose
 * attach and detach are costs of the session, as many as it still wants.
 * With -r N, one a session: a round's units are one observation
 * (statistics.rst), and -r N's are N.
 */
static int session_units(const struct run_settings *rs,
			 const struct bench_row *row)
{
	const struct row_state *st = row->state;
	double fixed, unit, u;
	int want = units_wanted(rs, row);

	if (rs->repeat)
		return 1;
	if (!st->sessions)
		return row_stays_attached(row) && row->links != LINKS_PER_RUN ? want : 1;
	fixed = st->session_ns;
	unit = st->unit_ns_spent;
	if (row_stays_attached(row) && row->links != LINKS_PER_RUN)
		fixed += row_median(st->attach_ns, st->nr_attach) +
			 row_median(st->detach_ns, st->nr_detach);
	u = unit > 0 ? ceil(SESSION_SHARE * fixed / unit) : 1;
	if (!(u >= 1))
		u = 1;
	if (u > MAX_SESSION_UNITS)
		u = MAX_SESSION_UNITS;
	return u < want ? u : want;
}

/* ---- a row's session ---- */

/* the ids of the programs just loaded join the row's (its JSON's) */
static void note_prog_ids(const struct bench_family *fam,
			  struct bench_row *row)
{
	struct row_state *st = row->state;
	struct bpf_prog_info info;
	int fds[64], i, n;
	__u32 *ids, len;

	n = fam->prog_fds ? fam->prog_fds(row, fds, 64) : 0;
	ids = realloc(st->prog_ids,
		      (st->nr_prog_ids + (n > 0 ? n : 0) + 1) * sizeof(*ids));
	if (!ids)
		return;
	st->prog_ids = ids;
	for (i = 0; i < n; i++) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (fds[i] >= 0 && !bpf_obj_get_info_by_fd(fds[i], &info, &len))
			ids[st->nr_prog_ids++] = info.id;
	}
}

/* loads @row's programs: 0, or its outcome says why not */
static int row_open(const struct bench_family *fam,
		    const struct run_settings *rs, struct bench_row *row)
{
	struct row_state *st = row->state;
	__u64 t0 = now_ns();
	int err;

	err = fam->open(rs, row, &row->out);
	st->load_ns += now_ns() - t0;
	if (err)
		return -1;
	st->opened = true;
	st->loads++;
	note_prog_ids(fam, row);
	return 0;
}

/*
 * A row loaded afresh for each session (@reload): its first session
 * uses the load open_rows() made, each later one a new one
 */
static int row_reload(const struct bench_family *fam,
		      const struct run_settings *rs, struct bench_row *row)
{
	struct row_state *st = row->state;

	if (!row->reload || !st->opened || !st->sessions)
		return 0;
	fam->close(row);
	st->opened = false;
	return row_open(fam, rs, row);
}

/*
 * One session of @row: its workers, units first that count only for
 * failures (-w's, and in a paced row's first session one that paces it:
 * a short first unit is noisier, and its programs and workers cold),
 * then @units counted ones.
 */
static int row_session(const struct bench_family *fam,
		       const struct run_settings *rs, struct bench_row *row,
		       struct sampler_pass *pass, int index, int total,
		       int round)
{
	struct row_state *st = row->state;
	struct session sess = { .row = row, .rs = rs, .pass = pass,
				 .keep = !row->reload };
	int n, units = session_units(rs, row), err = 0;
	int uncounted = rs->warmup;
	__u64 t0 = now_ns(), in_units, fixed;

	if (row_paced(fam, rs, row) && !st->paced_count)
		uncounted++;
	if (row_has_base(row))
		sess.base = row->base;
	if (row_reload(fam, rs, row))
		return 0;
	/*
	 * A session that could not start: its reason is the row's, which
	 * is done; or a signal cut it short, and the run ends (tried again
	 * each round, it would be cut short again, for ever)
	 */
	if (session_start(fam, &sess, &row->out)) {
		session_end(fam, &sess);
		return bench_interrupted() ? -EINTR : 0;
	}
	st->sessions++;
	in_units = now_ns();
	for (n = 0; !err && row->out.status == ST_OK && n < uncounted + units;
	     n++) {
		progress(&pass->line, index, total, row, round, n);
		err = session_unit(fam, &sess, n >= uncounted, round);
	}
	in_units = now_ns() - in_units;
	session_end(fam, &sess);
	/*
	 * the session's wall time besides its units, for session_units(),
	 * and the share of it each of its @n units bore, for their samples
	 */
	fixed = now_ns() - t0 - in_units;
	st->session_ns = st->sessions > 1 ?
			 (st->session_ns + fixed) / 2 : fixed;
	if (n > 0)
		st->session_share_ns = st->session_ns / n;
	return err;
}

/* ---- the run ---- */

/* what the row keeps per worker: each sample's rate, its counts */
static int alloc_worker_rates(struct bench_rows *rows)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];
		struct row_state *st = row->state;
		size_t nr = row->cpus->nr;

		st->worker_rate = calloc((size_t)MAX_SAMPLES * nr,
					 sizeof(double));
		st->worker_events = calloc(nr, sizeof(__u64));
		st->worker_hits_window = calloc(nr, sizeof(__u64));
		if (!st->worker_rate || !st->worker_events ||
		    !st->worker_hits_window)
			return -ENOMEM;
	}
	return 0;
}

/* every row's programs, loaded for the run: a row that cannot says why */
static int open_rows(const struct bench_family *fam,
		     const struct run_settings *rs, struct bench_rows *rows,
		     struct sampler_pass *pass)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (bench_interrupted())
			return -EINTR;
		if (row->out.status != ST_OK || !row->runs_prog)
			continue;
		progress(&pass->line, i, rows->nr, row, -1, 0);
		row_open(fam, rs, row);
	}
	return 0;
}

/* a row the next round visits; base rows fed by others are not */
static bool row_wants_session(const struct run_settings *rs,
			      const struct bench_rows *rows,
			      struct bench_row *row)
{
	struct row_state *st = row->state;

	if (row->out.status != ST_OK || st->stop != STOP_NOT ||
	    row->measured_in_open)
		return false;
	if (!row->runs_prog && base_is_fed(rows, row))
		return false;
	st->stop = row_stop_reason(rs, row);
	return st->stop == STOP_NOT;
}

/* a row most of whose units were disturbed has no figure: see there */
static void judge_retries(struct bench_rows *rows)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (row->out.status != ST_OK ||
		    !units_mostly_disturbed(row->state->disturbed_units,
					    row->state->attempts))
			continue;
		outcome_set(&row->out, ST_DISTURBED,
			    "%d of its %d units were disturbed, the rest may be biased; the last: %s",
			    row->state->disturbed_units, row->state->attempts,
			    row->state->last_disturbed.reason);
	}
}

/* a base row fed by others stops with them, with its own reason */
static void stop_fed_bases(const struct run_settings *rs,
			   struct bench_rows *rows)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];
		struct row_state *st = row->state;

		if (row->out.status == ST_OK && st->stop == STOP_NOT &&
		    !row->runs_prog && base_is_fed(rows, row))
			st->stop = units_precise(st->unit, st->unit_round,
						 st->nr_units, st->paired,
						 rs) ?
				   STOP_PRECISE : STOP_FED;
	}
}

/*
 * The rows the next round visits, into @visit: how many. Those done have
 * their workers stopped.
 */
static int round_rows(const struct run_settings *rs, struct bench_rows *rows,
		      int *visit)
{
	int i, n = 0;

	for (i = 0; i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (row_wants_session(rs, rows, row))
			visit[n++] = i;
		else
			row->state->spent_ns += row_pool_end(row);
	}
	return n;
}

/*
 * Which of a round's @n rows it visits @k-th: the two halves of the table
 * in turn (0, h, 1, h + 1, ...). Neighbours in the table are alike (one
 * mode on each event; map tests on one hook): one right after another,
 * each one's attach waits out the grace period the last one's detach
 * began (a raw_tp on sys_enter: 10-15 ms); in turn with a row of another
 * kind, the wait passes in that row's session.
 */
static int visit_order(int k, int n)
{
	int half = (n + 1) / 2;

	return k % 2 ? half + k / 2 : k / 2;
}

int sampler_run(const struct bench_family *fam, const struct run_settings *rs,
		struct bench_rows *rows)
{
	/* its progress line erased before it returns, however it ends */
	struct sampler_pass pass = {};
	int i, k, n = 1, round, err, *visit;

	visit = calloc(rows->nr ?: 1, sizeof(*visit));
	if (run_fault(rs)->kind == BENCH_FAULT_NO_MEMORY) {
		free(visit);
		visit = NULL;
	}
	err = !visit ? -ENOMEM :
	      alloc_worker_rates(rows) ?: open_rows(fam, rs, rows, &pass);
	for (round = 0; !err && n; round++) {
		n = round_rows(rs, rows, visit);
		for (k = 0; !err && k < n; k++) {
			i = visit[visit_order(k, n)];
			err = row_session(fam, rs, &rows->row[i], &pass, i,
					  rows->nr, round);
		}
	}
	free(visit);
	for (i = 0; i < rows->nr; i++)
		rows->row[i].state->spent_ns += row_pool_end(&rows->row[i]);
	detach_all(fam, rows);
	stop_fed_bases(rs, rows);
	judge_retries(rows);
	progress_end(&pass.line);
	sampler_pass_end(&pass);
	return err;
}

void sampler_close(const struct bench_family *fam, struct bench_rows *rows)
{
	int i;

	/* no worker outlives the run, however it ends */
	for (i = 0; i < rows->nr; i++) {
		row_pool_stop(rows->row[i].state->pool);
		free(rows->row[i].state->pool);
	}
	detach_all(fam, rows);
	for (i = 0; i < rows->nr; i++) {
		if (rows->row[i].state->opened && rows->row[i].runs_prog)
			fam->close(&rows->row[i]);
		free(rows->row[i].state->worker_rate);
		free(rows->row[i].state->worker_events);
		free(rows->row[i].state->worker_hits_window);
		free(rows->row[i].state->prog_ids);
		profile_free(rows->row[i].state->profile);
		free(rows->row[i].state);
	}
	free(rows->row);
	rows->row = NULL;
	rows->nr = 0;
	free(rows->refused);
	rows->refused = NULL;
}

/*
 * ---- --profile: the pass after the run ----
 *
 * Units run as the figures' were, each sample under the software clock,
 * none of them counted: the run's figures are never touched.
 */

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
 * Units of the row's base and the row, each sample profiled; kallsyms is
 * read once the row's programs are attached, their JIT images in it
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
		    (!prof->ksyms &&
		     profile_symbols_at(prof, "/proc/kallsyms")))
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

/*
 * ---- --prog-stats: the kernel's BPF run-time stats ----
 *
 * One more sample of each row with a figure, in a session of its own: it
 * gives no figure of the row's, only the program's own ns per run.
 */

/* on while the returned fd is open; never through the sysctl */
static int prog_stats_enable(struct outcome *out)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		outcome_set(out, ST_SKIPPED,
			    "kernel cannot enable BPF run-time stats (BPF_ENABLE_STATS: %s)",
			    strerror(errno));
	return fd < 0 ? -errno : fd;
}

static int prog_run_totals(int fd, __u64 *run_time_ns, __u64 *run_cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*run_time_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}

/*
 * The stats' own clock reads per run, measured on an empty program.
 * The clock cost is a small difference of two means, so an interrupt in
 * the calibration would show as a body below zero: time it in blocks and
 * keep the quietest block, as an interrupt only ever adds time.
 */
#define CLOCK_BLOCKS 10
#define CLOCK_BLOCK_RUNS 2000

static int prog_stats_clock_cost(double *ns)
{
	/* r0 = 0; exit: a program that does nothing at all */
	const struct bpf_insn empty[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	__u64 time0 = 0, cnt0 = 0, time1 = 0, cnt1 = 0;
	double block, best = 0;
	__u64 args[1] = {};
	int fd, b, i, err = 0;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "stats_clock", "GPL",
			   empty, 2, NULL);
	if (fd < 0)
		return -errno;
	opts.ctx_in = args;
	opts.ctx_size_in = sizeof(args);
	for (b = 0; b < CLOCK_BLOCKS && !err; b++) {
		for (i = 0; i < CLOCK_BLOCK_RUNS && !err; i++)
			err = bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
		if (!err)
			err = prog_run_totals(fd, &time1, &cnt1);
		if (!err && cnt1 == cnt0)
			err = -ENODATA;
		if (err)
			break;
		block = (double)(time1 - time0) / (cnt1 - cnt0);
		if (b == 0 || block < best)
			best = block;
		time0 = time1;
		cnt0 = cnt1;
	}
	if (!err)
		*ns = best;
	close(fd);
	return err;
}

/*
 * One more sample of a row with the kernel's run-time stats on: the
 * program's ns per run, refused when it ran for much more than it
 * counted (other processes' events it filtered out dilute the mean).
 */
static int stats_sample(const struct bench_family *fam,
			const struct run_settings *rs, struct bench_row *row,
			struct sampler_pass *pass, double clock)
{
	struct row_state *st = row->state;
	struct session sess = { .row = row, .rs = rs, .pass = pass };
	__u64 t0 = 0, n0 = 0, t1 = 0, n1 = 0, spent = 0, start;
	struct sample s;
	int fd;

	/* a row verified by its own counts, with no program to time */
	if (!fam->prog_fds || fam->prog_fds(row, &fd, 1) < 1) {
		outcome_set(&st->prog_out, ST_SKIPPED,
			    "no BPF program runs in this row");
		return 0;
	}
	if (session_start(fam, &sess, &st->prog_out)) {
		session_end(fam, &sess);
		return bench_interrupted() ? -EINTR : 0;
	}
	/* an undisturbed sample only, found within the row's budget */
	do {
		start = now_ns();
		if (prog_run_totals(fd, &t0, &n0))
			t0 = n0 = 0;
		row_sample_run(fam, &sess, row_sample_count(fam, rs, row), &s,
			       1, true);
		/* detached first: the stats then hold every run of it */
		session_detach(fam, &sess);
		spent += now_ns() - start;
	} while (s.out.status == ST_DISTURBED && !bench_interrupted() &&
		 spent < retry_budget_ns(row));
	session_end(fam, &sess);
	if (bench_interrupted())
		return -EINTR;
	if (s.out.status != ST_OK) {
		st->prog_out = s.out;
		return 0;
	}
	if (prog_run_totals(fd, &t1, &n1) || n1 == n0) {
		outcome_set(&st->prog_out, ST_FAILED,
			    "the kernel's run-time stats counted no runs");
		return 0;
	}
	st->prog_runs = n1 - n0;
	st->prog_hits = s.counted;
	/* uncounted programs (the bench's reference) have no hits to compare */
	if (run_fault(rs)->kind != BENCH_FAULT_UNCOUNTED &&
	    st->prog_runs > s.counted + s.counted / 100 + 100) {
		outcome_set(&st->prog_out, ST_SKIPPED,
			    "diluted: %llu runs for %llu counted hits (other events filtered inside)",
			    st->prog_runs, s.counted);
		return 0;
	}
	st->prog_ns = (double)(t1 - t0) / st->prog_runs;
	st->prog_clock_ns = clock;
	return 0;
}

int sampler_prog_stats(const struct bench_family *fam,
		       const struct run_settings *rs, struct bench_rows *rows)
{
	struct sampler_pass pass = {};
	struct outcome why = {};
	double clock = NAN;
	int i, fd, err = 0;

	fd = prog_stats_enable(&why);
	/* without it the body keeps the clock reads, and JSON says null */
	if (fd >= 0 && prog_stats_clock_cost(&clock))
		clock = NAN;
	for (i = 0; !err && i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (!row_has_figure(row) || !row->runs_prog)
			continue;
		if (fd < 0)
			row->state->prog_out = why;
		else
			err = stats_sample(fam, rs, row, &pass, clock);
	}
	if (fd >= 0)
		close(fd);
	sampler_pass_end(&pass);
	return err;
}
