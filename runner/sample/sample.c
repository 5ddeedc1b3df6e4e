// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions and their samples: one pool of workers for a row and its
 * base, the row's programs attached and detached in it, and one sample
 * of the row or of its base, each timed into the row's phases, then its
 * counts read and judged.
 *
 * The sampler's lowest layers: the pool a row keeps from one session to
 * the next, the attach and detach of its programs, and at the run's end
 * the detach of those that stayed, all at once; above them a sample,
 * what the workers ran once, its buffers kept from one to the next. The
 * units (unit.c) arrange samples and pace them: they call down to these,
 * never these up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "sample/sample.h"

/* ---- a row and its base ---- */

/* the row is measured against a base that can run */
bool row_has_base(const struct bench_row *row)
{
	return row->base && row->base != row &&
	       row->base->out.status == ST_OK;
}

/* the row's programs stay attached through its units and base samples */
bool row_stays_attached(const struct bench_row *row)
{
	return row->links == LINKS_PER_RUN || row->links == LINKS_THROUGH_BASE ||
	       (row->links == LINKS_PER_SESSION && !row_has_base(row));
}

/* does a measured row feed @base's samples? */
bool base_is_fed(const struct bench_rows *rows,
		 const struct bench_row *base)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (row != base && row->base == base && row->runs_prog &&
		    row->out.status == ST_OK)
			return true;
	}
	return false;
}

/* ---- a session: one pool of workers for a row and its base ---- */

/*
 * A row's workers. Forking and pinning them, each setting up its events,
 * then killing and reaping them, took more of a row's session than its
 * samples did; so a row's pool is kept from one session to the next,
 * and released again while it is as it was forked (pool_well()), until
 * the row is done. Not for a row loaded afresh each session: the hit
 * slots the workers read are in the load's memory.
 */
struct row_pool {
	struct worker_pool pool;	/* running while its go is mapped */
	/*
	 * the row's hit slots, per worker: the workers read their forked
	 * copy, so these stay as they are while the pool lives
	 */
	const volatile __u64 **slots;
	const struct bench_row *base;	/* the base arm it was forked for */
	int base_trigger;		/* the base's index in the pool */
};

/*
 * What each worker reads around its loop: its CPU's slot of each
 * program, then, where the family counts them apart, of each program's
 * runs for other tasks (see struct sample's @window)
 */
static void hit_window(const struct bench_family *fam,
		       const struct bench_row *row,
		       const volatile __u64 **slots, struct hit_window *win)
{
	int w, c, cpu, nr = row->nr_counters;
	int stride = fam->foreign_slot ? 2 * nr : nr;

	win->nr = row->runs_prog ? stride : 0;
	win->slot = slots;
	for (w = 0; w < row->cpus->nr && win->nr; w++) {
		cpu = row->cpus->cpu[w];
		for (c = 0; c < nr; c++) {
			slots[w * stride + c] = fam->hit_slot(row, c, cpu);
			if (fam->foreign_slot)
				slots[w * stride + nr + c] =
					fam->foreign_slot(row, c, cpu);
		}
	}
}

static void time_link(double *times, int *nr, __u64 ns)
{
	if (*nr < MAX_SAMPLES)
		times[(*nr)++] = ns;
}

/* the time since @t0 into the row's @phase; returns now, the next's t0 */
static __u64 phase_add(struct bench_row *row, enum row_phase phase, __u64 t0)
{
	__u64 now = now_ns();

	row->state->phase_ns[phase] += now - t0;
	return now;
}

static bool pool_running(const struct row_pool *rp)
{
	return rp && rp->pool.go;
}

/* the row's workers killed and reaped, their slots freed */
void row_pool_stop(struct row_pool *rp)
{
	if (!rp)
		return;
	if (pool_running(rp))
		pool_stop(&rp->pool);
	free(rp->slots);
	rp->slots = NULL;
	rp->base = NULL;
}

/*
 * The row's workers stopped, timed into its stop phase: the ns it took,
 * for the row's time where no session holds it
 */
__u64 row_pool_end(struct bench_row *row)
{
	struct row_pool *rp = row->state->pool;
	__u64 t0 = now_ns();
	bool running = pool_running(rp);

	row_pool_stop(rp);
	return running ? phase_add(row, PHASE_STOP, t0) - t0 : 0;
}

/* workers forked for the session, pinned and waiting: 0, or -1 */
static int pool_fork(const struct bench_family *fam, struct session *sess,
		     struct row_pool *rp, struct outcome *out)
{
	const struct trigger *triggers[POOL_MAX_TRIGGERS];
	struct bench_row *row = sess->row;
	struct hit_window win = {};
	__u64 t0 = now_ns();
	int nr = 1, err;

	triggers[0] = row->trigger;
	rp->base_trigger = 0;
	if (sess->base && sess->base->trigger != row->trigger) {
		triggers[nr] = sess->base->trigger;
		rp->base_trigger = nr++;
	}
	rp->base = sess->base;
	rp->slots = calloc((size_t)2 * row->nr_counters * row->cpus->nr,
			   sizeof(*rp->slots));
	if (!rp->slots) {
		outcome_set(out, ST_FAILED, "out of memory");
		return -1;
	}
	hit_window(fam, row, rp->slots, &win);
	err = pool_start(&rp->pool, sess->rs, row->cpus, triggers, nr,
			 sess->rs->duration * 1e9, &win, out);
	phase_add(row, PHASE_FORK, t0);
	if (err)
		return -1;
	/* attached in an earlier session: the new workers are the row's */
	if (row->state->attached && fam->workers) {
		struct bench_workers workers = {
			rp->pool.nr, rp->pool.cpu, rp->pool.pid
		};

		fam->workers(row, &workers);
	}
	return 0;
}

/*
 * The session's workers: the row's kept ones, when they are as they were
 * forked and for the same base, else forked afresh. Its programs, kept
 * attached, filter by the same pids then.
 */
int session_start(const struct bench_family *fam, struct session *sess,
		  struct outcome *out)
{
	struct row_state *st = sess->row->state;
	struct row_pool *rp;

	sess->started_ns = now_ns();
	if (!st->pool)
		st->pool = calloc(1, sizeof(*st->pool));
	rp = st->pool;
	if (!rp) {
		outcome_set(out, ST_FAILED, "out of memory");
		return -ENOMEM;
	}
	sess->pool = &rp->pool;
	if (pool_running(rp) && rp->base == sess->base &&
	    pool_well(&rp->pool)) {
		phase_add(sess->row, PHASE_FORK, sess->started_ns);
	} else {
		/* stopped, frozen, moved, dead: a new pool runs the samples */
		row_pool_end(sess->row);
		if (pool_fork(fam, sess, rp, out))
			return -1;
	}
	sess->base_trigger = rp->base_trigger;
	return 0;
}

/* 0, or -1 with @out saying why; detach is due either way */
int session_attach(const struct bench_family *fam,
		   struct session *sess, struct outcome *out)
{
	struct bench_workers workers = {
		sess->pool->nr, sess->pool->cpu, sess->pool->pid
	};
	struct bench_row *row = sess->row;
	__u64 t0 = now_ns(), took;
	int err;

	enum attached_for span = row->links == LINKS_PER_RUN ? ATTACHED_RUN :
				 row_stays_attached(row) ? ATTACHED_SESSION :
				 ATTACHED_SAMPLES;

	if (row->state->attached || !row->runs_prog)
		return 0;
	/* the longest it stayed, for the JSON */
	if (span > row->state->attached_for)
		row->state->attached_for = span;
	err = fam->attach(row, &workers, out);
	took = now_ns() - t0;
	time_link(row->state->attach_ns, &row->state->nr_attach, took);
	row->state->phase_ns[PHASE_ATTACH] += took;
	row->state->attached = true;
	return err || bench_interrupted() ? -1 : 0;
}

/* the ns it took, 0 when nothing was attached */
static __u64 row_detach(const struct bench_family *fam, struct bench_row *row)
{
	struct row_state *st = row->state;
	__u64 t0 = now_ns(), took;

	if (!st->attached)
		return 0;
	fam->detach(row);
	took = now_ns() - t0;
	time_link(st->detach_ns, &st->nr_detach, took);
	st->attached = false;
	return took;
}

void session_detach(const struct bench_family *fam,
		    struct session *sess)
{
	if (sess->row->state->attached)
		sess->detaches++;
	sess->row->state->phase_ns[PHASE_DETACH] += row_detach(fam, sess->row);
}

/* the stop rules' verdict, which session_end() asks as the run loop does */
enum row_stop row_stop_reason(const struct run_settings *rs,
			      const struct bench_row *row)
{
	const struct row_state *st = row->state;

	return units_enough(st->unit, st->unit_round, st->nr_units,
			    st->paired, st->spent_ns, rs);
}

/* will the row have another session? (as row_wants_session() will say) */
static bool row_goes_on(const struct session *sess)
{
	const struct bench_row *row = sess->row;

	return row->out.status == ST_OK && !bench_interrupted() &&
	       row_stop_reason(sess->rs, row) == STOP_NOT;
}

/*
 * Detaches what is attached, but a row's own links while it goes on, and
 * stops the workers but those kept for the row's next session: on any
 * way out
 */
void session_end(const struct bench_family *fam, struct session *sess)
{
	struct bench_row *row = sess->row;

	if (row->links != LINKS_PER_RUN || row->out.status != ST_OK)
		session_detach(fam, sess);
	row->state->spent_ns += now_ns() - sess->started_ns;
	/* kept for the row's next session while it has one */
	if (!sess->keep || !row_goes_on(sess))
		row->state->spent_ns += row_pool_end(row);
}

/* ---- the run's end: links that stayed, detached at once ---- */

struct detacher {
	pthread_t thread;
	const struct bench_family *fam;
	struct bench_row *row;
	bool started;
};

/* a row's detach at the end of the run, outside its sessions */
static void row_detach_end(const struct bench_family *fam,
			   struct bench_row *row)
{
	row->state->detach_end_ns += row_detach(fam, row);
}

static void *detacher_main(void *arg)
{
	struct detacher *d = arg;

	row_detach_end(d->fam, d->row);
	return NULL;
}

/*
 * The rows whose links stayed through the run, detached at once: each
 * detach of a uprobe waits for RCU grace periods (75-100 ms on a cloud
 * VM), and waits that run side by side end together. A row whose thread
 * cannot start is detached here.
 */
void detach_all(const struct bench_family *fam,
		struct bench_rows *rows)
{
	struct detacher *d = calloc(rows->nr, sizeof(*d));
	int i;

	for (i = 0; i < rows->nr; i++) {
		if (!rows->row[i].state->attached)
			continue;
		if (!d) {
			row_detach_end(fam, &rows->row[i]);
			continue;
		}
		d[i] = (struct detacher){ .fam = fam, .row = &rows->row[i] };
		d[i].started = !pthread_create(&d[i].thread, NULL,
					       detacher_main, &d[i]);
		if (!d[i].started)
			row_detach_end(fam, &rows->row[i]);
	}
	for (i = 0; d && i < rows->nr; i++)
		if (d[i].started)
			pthread_join(d[i].thread, NULL);
	free(d);
}

/* ---- a sample: its buffers, the kernel's skips ---- */

static __u64 deadline_ns(const struct run_settings *rs,
			 const struct bench_row *row)
{
	__u64 expected = rs->duration ? rs->duration * 1e9 :
			 row->state->last_wall_ns;

	/* unknown the first time: the workers' watch still catches a hang */
	return expected ? 5000000000ull + 10 * expected : 0;
}

/* a buffer of at least @n elements of @size, kept from call to call */
static void *grow(void **buf, size_t *cap, size_t n, size_t size)
{
	if (n > *cap) {
		free(*buf);
		*cap = n;
		*buf = calloc(n, size);
		if (!*buf)
			*cap = 0;
	}
	if (*buf)
		memset(*buf, 0, n * size);
	return *buf;
}

void sampler_pass_end(struct sampler_pass *pass)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pass->bufs); i++) {
		free(pass->bufs[i].res);
		free(pass->bufs[i].hits);
		free(pass->bufs[i].skips);
		free(pass->bufs[i].window);
		memset(&pass->bufs[i], 0, sizeof(pass->bufs[i]));
	}
	settle_release(&pass->quiet);
}

static int sample_buffers(struct sample *s, const struct bench_family *fam,
			  struct session *sess, int which)
{
	struct sample_bufs *b = &sess->pass->bufs[which];
	const struct bench_row *row = sess->row;
	size_t nr = row->nr_counters, workers = row->cpus->nr;

	memset(s, 0, sizeof(*s));
	s->res = grow(&b->res, &b->res_nr, workers, sizeof(*s->res));
	s->hits = grow(&b->hits, &b->hits_nr, nr * nr_cpus_possible(),
		       sizeof(*s->hits));
	s->kernel_skips = grow(&b->skips, &b->skips_nr, nr, sizeof(__u64));
	s->window = grow(&b->window, &b->window_nr, 2 * nr * workers,
			 sizeof(__u64));
	if (!s->res || !s->hits || !s->kernel_skips || !s->window) {
		outcome_set(&s->out, ST_FAILED, "out of memory");
		return -ENOMEM;
	}
	s->nr_workers = workers;
	s->nr_cpus = nr_cpus_possible();
	s->place = which;
	/* the layout hit_window() gives the workers */
	s->window_foreign = fam->foreign_slot && row->runs_prog;
	return 0;
}

/*
 * The runs the kernel skipped of each of the row's programs because the
 * program was already running on that CPU (an interrupt's event nested
 * in it): its recursion_misses. Called twice per sample: with @before
 * right before the workers are released (after settle(), which may wait
 * a quarter second), storing each program's total in @skips; then after
 * the last worker is done, replacing it with what was added since, so
 * that only skips during the loops can excuse a shortfall. Kernels
 * before 5.12 keep no such count; for kprobe programs it is kept from
 * 6.7.
 */
static void read_kernel_skips(const struct bench_family *fam,
			      const struct bench_row *row, struct sample *s,
			      bool before)
{
	struct bpf_prog_info info;
	__u32 len;
	int fds[64], i, n;

	n = !fam->prog_fds ? 0 :
	    fam->prog_fds(row, fds, row->nr_counters < 64 ? row->nr_counters : 64);
	for (i = 0; i < n; i++) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fds[i], &info, &len))
			continue;
		s->kernel_skips[i] = info.recursion_misses -
				     (before ? 0 : s->kernel_skips[i]);
		/* the first program's runs the kernel's stats timed */
		if (i)
			continue;
		if (before)
			s->stats_runs = info.run_cnt;
		else
			s->stats_runs = info.run_cnt - s->stats_runs;
	}
}

/* ---- samples of a session ---- */

/* the slowest worker's loop */
__u64 sample_wall(const struct sample *s)
{
	__u64 wall = 0;
	int i;

	for (i = 0; i < s->nr_workers; i++)
		if (s->res[i].elapsed_ns > wall)
			wall = s->res[i].elapsed_ns;
	return wall;
}

/*
 * A sample's pool_run(), begun at @t0, into the row's phases: its loops
 * (the slowest worker's) and the rest; returns now
 */
static __u64 phase_run(struct bench_row *row, const struct sample *s,
		       bool ran, __u64 t0)
{
	__u64 now = now_ns(), loops = ran ? sample_wall(s) : 0;

	if (loops > now - t0)
		loops = now - t0;
	row->state->phase_ns[PHASE_LOOPS] += loops;
	row->state->phase_ns[PHASE_RUN] += now - t0 - loops;
	return now;
}

/* would sample_judge_disturbed() say so, from the workers' own report? */
static bool workers_disturbed(const struct sample *s)
{
	struct sample probe = *s;

	sample_judge_disturbed(&probe);
	return probe.out.status == ST_DISTURBED;
}

/*
 * The wait for quiet before a sample's go (settle()), but right after an
 * undisturbed sample of its unit with nothing detached since: the
 * kernel's threads were quiet through that one, and nothing has given
 * them work since but the workers' wake-ups and an attach, which does its
 * work before it returns (a grace period it waits for included). A
 * detach leaves work behind, the RCU callbacks that free its link: after
 * one, the wait is due. A uprobe row's unit waits once, not three times
 * (about a millisecond each: 15% of a default test_overhead run went to
 * these waits, 7.4% now, with no more samples disturbed). The sample is
 * judged as any: a thread that runs in it all the same makes it
 * disturbed. 0: it did not wait.
 */
static __u64 sample_settle(struct session *sess)
{
	bool quiet = sess->quiet_after == sess->detaches + 1;

	/* whatever this sample meets, the next one waits unless it says */
	sess->quiet_after = 0;
	return quiet ? 0 : settle(&sess->pass->quiet, sess->row->cpus);
}

/* the sample's end: is the next one's wait for quiet due? */
static void sample_quiet(struct session *sess, const struct sample *s,
			 int detaches)
{
	if (s->out.status == ST_OK)
		sess->quiet_after = detaches + 1;
}

/*
 * One sample of the session's row, attached for it unless it stays so:
 * the timed run, then the counts, verified per CPU inside the workers'
 * loops, then by the family.
 */
void row_sample_run(const struct bench_family *fam,
		    struct session *sess, __u64 count,
		    struct sample *s, int which, bool last)
{
	struct bench_row *row = sess->row;
	int err, detaches;
	__u64 t;

	if (sample_buffers(s, fam, sess, which))
		return;
	if (session_attach(fam, sess, &s->out))
		return;
	t = now_ns();
	s->settle_ns = sample_settle(sess);
	detaches = sess->detaches;
	t = phase_add(row, PHASE_QUIET, t);
	if (row->runs_prog)
		read_kernel_skips(fam, row, s, true);
	t = phase_add(row, PHASE_READS, t);
	err = pool_run(sess->pool, 0, count, s->res, s->window,
		       deadline_ns(sess->rs, row), &s->out);
	t = phase_run(row, s, !err, t);
	row->state->samples_run++;
	if (row->runs_prog)
		read_kernel_skips(fam, row, s, false);
	phase_add(row, PHASE_READS, t);
	if (err)
		return;
	/*
	 * A disturbed sample stays attached for its try again, as a unit's
	 * row samples do (each judged by what was added in it alone):
	 * attaching anew right after a detach waits for an RCU grace period
	 * (a tracepoint's 1-0-1 transition, synchronize_rcu() under
	 * tracepoint_add_func(): 10-20 ms on a 2-CPU VM, where a third of
	 * map_perf_test's attaches came so)
	 */
	if (last && !row_stays_attached(row) && !workers_disturbed(s))
		session_detach(fam, sess);
	t = now_ns();
	sample_measure(s);
	row->state->last_wall_ns = sample_wall(s);
	/* taken every sample: the next one's hits start here */
	err = row->runs_prog && fam->collect(row, s);
	t = phase_add(row, PHASE_READS, t);
	s->unverified = sample_judge_moved(s);
	if (!err && !s->unverified && row->runs_prog &&
	    run_fault(sess->rs)->kind != BENCH_FAULT_UNCOUNTED)
		sample_verify(row, s);
	if (row->runs_prog && s->out.status == ST_OK && fam->verify)
		fam->verify(row, s);
	if (s->out.status == ST_OK)
		sample_judge_disturbed(s);
	phase_add(row, PHASE_CHECKS, t);
	sample_quiet(sess, s, detaches);
}

/*
 * One sample of the base's events in the row's session. The row's
 * programs are detached, or never see these events: each worker's loop
 * must leave their counts on its CPU as they were. Where they stay
 * attached (their base calls an unprobed twin), a hit is the base
 * reaching them: the row fails. Where they were just detached, it is a
 * detach not yet done: the kernel releases a link when the last
 * reference to it goes, and whoever reads our /proc/PID/fd just then
 * (bpftool, lsof, a test's watcher) holds one for a moment: the sample
 * is disturbed, and its unit runs again.
 */
void base_sample_run(const struct bench_family *fam,
		     struct session *sess, __u64 count,
		     struct sample *s, int which)
{
	struct bench_row *row = sess->row;
	enum test_fault_kind fault;
	int w, c, err, detaches;
	__u64 hits, t;

	if (sample_buffers(s, fam, sess, which))
		return;
	t = now_ns();
	s->settle_ns = sample_settle(sess);
	detaches = sess->detaches;
	t = phase_add(row, PHASE_QUIET, t);
	/*
	 * the test faults slow-base: a base dearer than its row, by half;
	 * pace-change: a unit's second base so
	 */
	fault = run_fault(sess->rs)->kind;
	sess->pool->loops = fault == BENCH_FAULT_SLOW_BASE ||
			   (fault == BENCH_FAULT_PACE_CHANGE && which) ? 2 : 1;
	err = pool_run(sess->pool, sess->base_trigger, count, s->res,
		       s->window, deadline_ns(sess->rs, row), &s->out);
	t = phase_run(row, s, !err, t);
	sess->pool->loops = 1;
	if (err)
		return;
	sample_measure(s);
	if (sample_judge_moved(s))
		goto checked;
	for (w = 0; w < s->nr_workers && row->runs_prog; w++) {
		for (c = 0; c < row->nr_counters; c++) {
			hits = sample_in_loop(s, row->nr_counters, w, c, false) +
			       sample_in_loop(s, row->nr_counters, w, c, true);
			if (!hits)
				continue;
			outcome_set(&s->out, row->state->attached ? ST_FAILED :
				    ST_DISTURBED,
				    "program %d counted %llu hits on CPU %d in a base sample, where %s",
				    c + 1, hits, s->res[w].cpu,
				    row->state->attached ?
				    "the row's events alone may reach it" :
				    "it was detached (a reference to its link held up the detach)");
			goto checked;
		}
	}
	sample_judge_disturbed(s);
checked:
	phase_add(row, PHASE_CHECKS, t);
	sample_quiet(sess, s, detaches);
}
