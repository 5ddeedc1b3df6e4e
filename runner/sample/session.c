// SPDX-License-Identifier: GPL-2.0
/*
 * A session: one pool of workers for a row and its base, and the row's
 * programs attached and detached in it.
 *
 * The sampler's lowest layer: the pool a row keeps from one session to
 * the next, the attach and detach of its programs timed into its phases,
 * and at the run's end the detach of those that stayed, all at once.
 * Apart from the samples and units that run in a session
 * (bench_sample.c, bench_unit.c): they call down to it, never it up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "sample/sample.h"
#include "core/core.h"
#include "workers/workers.h"

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
__u64 phase_add(struct bench_row *row, enum row_phase phase, __u64 t0)
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
