// SPDX-License-Identifier: GPL-2.0
/*
 * One sample of a session: of the row, attached for it unless it stays
 * so, or of its base; each timed into the row's phases, then its counts
 * read and judged.
 *
 * Apart from the units (bench_unit.c), which arrange samples and pace
 * them, and below them: a sample is what the workers ran once, its
 * buffers kept from one to the next.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "sample/sample.h"
#include "core/core.h"
#include "workers/workers.h"

/* ---- one sample ---- */

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
	if (!s->res || !s->hits || !s->kernel_skips || !s->window)
		return -ENOMEM;
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
		if (before)
			s->kernel_skips[i] = info.recursion_misses;
		else
			s->kernel_skips[i] = info.recursion_misses -
					     s->kernel_skips[i];
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

	if (sample_buffers(s, fam, sess, which)) {
		outcome_set(&s->out, ST_FAILED, "out of memory");
		return;
	}
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

	if (sample_buffers(s, fam, sess, which)) {
		outcome_set(&s->out, ST_FAILED, "out of memory");
		return;
	}
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
