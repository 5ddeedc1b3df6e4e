// SPDX-License-Identifier: GPL-2.0
/*
 * What a sample is worth: its figures from the workers' results, its
 * verification against the programs' per-CPU counts, whether it ran
 * undisturbed, and when a row has enough of them. Pure functions of what
 * the runner gathered, so the unit tests can try every case.
 */
#include <math.h>
#include <string.h>
#include "sample/sample.h"

/*
 * A worker that had its CPU for less than this share of its loop's wall
 * time, or waited on its run queue for more than MAX_DELAY_SHARE of it,
 * or slept at all, was stopped, throttled or preempted: its sample is
 * disturbed. Measured here: quiet samples stay above 0.986 with under
 * 0.1 ms of run-queue delay; a busy loop on the CPU gives 0.50, a 20%
 * cgroup quota 0.2, SIGSTOP a voluntary switch.
 */
#define MIN_CPU_SHARE		0.97
#define MAX_DELAY_SHARE		0.03
/*
 * Time the host took from the worker's CPU (steal, /proc/stat's) beyond
 * this share of the loop's wall time makes the sample disturbed. Where
 * the kernel accounts steal apart (CONFIG_PARAVIRT_TIME_ACCOUNTING) it
 * leaves the worker's CPU time too; elsewhere the worker is billed for
 * it, and only this check sees it. /proc/stat counts it in ticks of
 * 10 ms: in a loop under a third of a second one tick is too much.
 */
#define MAX_STEAL_SHARE		0.03
/*
 * The kernel's skips of a program (an interrupt's event nested in it)
 * excuse a shortfall, but the figure then lacks those runs' cost, and the
 * skips are counted over every CPU: beyond one event in a thousand of a
 * program's, the sample is disturbed. None were seen here in quiet runs.
 */
#define MAX_EXCUSED_SHARE	0.001

void sample_measure(struct sample *s)
{
	double ns_sum = 0;
	int i;

	s->events = 0;
	s->rate = 0;
	s->steal_ns = 0;
	for (i = 0; i < s->nr_workers; i++) {
		const struct worker_result *r = &s->res[i];
		double ns = r->elapsed_ns ? r->elapsed_ns : 1;

		s->events += r->events;
		s->steal_ns += r->steal_ns;
		s->rate += r->events * 1e9 / ns;
		ns_sum += ns / r->events;
	}
	s->ns_per_event = ns_sum / s->nr_workers;
}

/*
 * An interrupt's event runs as whatever task it interrupted: inside the
 * worker's loop it counts as the worker's. One in a thousand events, and
 * 16, are allowed for that.
 */
static __u64 interrupt_allowance(const struct worker_result *r, unsigned int k)
{
	return k * r->events / 1000 + 16;
}

/*
 * Other tasks' runs inside a worker's loop: they ran on the CPU while the
 * worker was off it, so they could have made at most what the worker
 * makes in as much CPU time (twice that, for margin; the worker's CPU
 * time per event, not its wall time, which the other task's share
 * stretches), and interrupts a few. Anything beyond that fires for
 * something nobody did: a program on the wrong hook.
 */
static __u64 foreign_allowance(const struct worker_result *r, unsigned int k)
{
	__u64 off = r->elapsed_ns > r->cpu_ns ? r->elapsed_ns - r->cpu_ns : 0;
	__u64 on = r->cpu_ns ? r->cpu_ns : r->elapsed_ns;
	double per_event = r->events ? (double)on / r->events : 0;
	__u64 others = per_event > 0 ? 2 * k * (__u64)(off / per_event) : 0;

	return others + interrupt_allowance(r, k);
}

static void verify_failed(const struct bench_row *row, struct sample *s,
			  int c, int w, __u64 hits, const char *why)
{
	int cpu = s->res[w].cpu;
	__u64 need = (__u64)(row->hits_per_event ?: 1) * s->res[w].events;
	char prog[48] = "program";

	if (row->nr_counters > 1)
		snprintf(prog, sizeof(prog), "program %d of %d", c + 1,
			 row->nr_counters);
	outcome_set(&s->out, ST_FAILED,
		    "%s counted %llu hits on CPU %d in the worker's loop for %llu events there%s",
		    prog, hits, cpu, need, why);
}

__u64 sample_in_loop(const struct sample *s, int nr, int w, int c,
		     bool foreign)
{
	int stride = s->window_foreign ? 2 * nr : nr;

	if (foreign && !s->window_foreign)
		return 0;
	return s->window[w * stride + (foreign ? nr : 0) + c];
}

/* what one program counted inside the workers' loops */
struct window_count {
	__u64 expected, in, short_by, beyond;
	int first_short, first_over;
	bool over_foreign;	/* other tasks' runs, not the worker's */
};

static void window_count(const struct bench_row *row, const struct sample *s,
			 int c, struct window_count *wc)
{
	unsigned int k = row->hits_per_event ?: 1;
	int w, nr = row->nr_counters;
	__u64 win, foreign, need, extra;

	memset(wc, 0, sizeof(*wc));
	wc->first_short = wc->first_over = -1;
	for (w = 0; w < s->nr_workers; w++) {
		const struct worker_result *r = &s->res[w];

		win = sample_in_loop(s, nr, w, c, false);
		foreign = sample_in_loop(s, nr, w, c, true);
		need = k * r->events;
		extra = win > need ? win - need : 0;
		wc->expected += need;
		wc->in += win;
		wc->beyond += extra + foreign;
		if (win < need) {
			wc->short_by += need - win;
			if (wc->first_short < 0)
				wc->first_short = w;
		}
		if (row->fires_elsewhere || wc->first_over >= 0)
			continue;
		if (extra > interrupt_allowance(r, k)) {
			wc->first_over = w;
		} else if (extra + foreign > foreign_allowance(r, k)) {
			wc->first_over = w;
			wc->over_foreign = true;
		}
	}
}

/*
 * Every program must have counted, inside each worker's loop on its CPU,
 * every event that worker made, and only the worker's own runs count: a
 * sum over CPUs could be made up by another process's events elsewhere,
 * hits before the go or during the detach by events that are not the
 * worker's, and another task's runs on the worker's CPU by its own
 * events. What the programs ran in the loops beyond that (other tasks',
 * interrupts') is foreign; what they saw outside, only shown.
 */
void sample_verify(const struct bench_row *row, struct sample *s)
{
	int c, w, cpu, nr = row->nr_counters;
	struct window_count wc;
	const __u64 *hits;
	__u64 total, foreign;
	char why[96];
	size_t n;

	for (c = 0; c < nr; c++) {
		hits = sample_hits(s, c);
		total = 0;
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			total += hits[cpu];
		window_count(row, s, c, &wc);
		/* the loops are inside attach..detach: a count that says
		 * otherwise is not the programs' */
		if (wc.in > total) {
			outcome_set(&s->out, ST_FAILED,
				    "program %d counted %llu hits in the workers' loops but %llu in all",
				    c + 1, wc.in, total);
			return;
		}
		/*
		 * The kernel skips a program that an interrupt's event
		 * would re-enter on its CPU, and counts it: a shortfall
		 * within what it counted while the workers ran is the
		 * kernel's doing, not a miss.
		 */
		w = wc.first_short;
		if (w >= 0 && wc.short_by > s->kernel_skips[c]) {
			foreign = sample_in_loop(s, nr, w, c, true);
			snprintf(why, sizeof(why), "%s", s->kernel_skips[c] ?
				 " (more than the kernel says it skipped)" : "");
			n = strlen(why);
			if (foreign)
				snprintf(why + n, sizeof(why) - n,
					 ", besides %llu runs for other tasks",
					 foreign);
			verify_failed(row, s, c, w, sample_in_loop(s, nr, w, c, false),
				      why);
			return;
		}
		w = wc.first_over;
		if (w >= 0 && wc.over_foreign) {
			outcome_set(&s->out, ST_FAILED,
				    "program %d ran %llu times for other tasks on CPU %d in the worker's loop: more than their time on the CPU explains (the wrong hook?)",
				    c + 1, sample_in_loop(s, nr, w, c, true),
				    s->res[w].cpu);
			return;
		}
		if (w >= 0) {
			verify_failed(row, s, c, w, sample_in_loop(s, nr, w, c, false),
				      ": more than its events and interrupts explain (the wrong hook?)");
			return;
		}
		/* excused, but the figure is short of those runs' cost */
		if (wc.expected &&
		    (double)wc.short_by / wc.expected > s->excused_share)
			s->excused_share = (double)wc.short_by / wc.expected;
		if (c == 0) {
			s->counted = total;
			s->in_window = wc.in;
			s->skipped = wc.short_by;
			s->foreign = wc.beyond;
		}
	}
}

bool sample_judge_moved(struct sample *s)
{
	int w;

	for (w = 0; w < s->nr_workers; w++) {
		const struct worker_result *r = &s->res[w];

		if (r->repin_err) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d was moved off its CPU and cannot be pinned to it again: %s",
				    r->cpu, strerror(-r->repin_err));
			return true;
		}
		if (r->unpinned) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d was moved off its CPU: its affinity was changed (CPU hotplug, cpuset)",
				    r->cpu);
			return true;
		}
		if (r->end_cpu != r->cpu) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d was moved off its CPU (ended on CPU %d)",
				    r->cpu, r->end_cpu);
			return true;
		}
		/* and back, within the loop: its end state does not show it */
		if (r->migrations) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d was moved off its CPU and back in its loop (%ld migrations)",
				    r->cpu, r->migrations);
			return true;
		}
	}
	return false;
}

/*
 * Who took a worker's time that it did not run: its wait on the run queue
 * is another task's or a throttle's; what it neither ran nor waited is
 * the host's (steal, where the kernel accounts it apart from the task's
 * time, as under KVM) or interrupts' (with IRQ_TIME_ACCOUNTING), to the
 * nanosecond, where /proc/stat's steal comes in ticks.
 */
static const char *time_taken_by(const struct worker_result *r)
{
	__u64 unseen = r->elapsed_ns > r->cpu_ns + r->run_delay_ns ?
		       r->elapsed_ns - r->cpu_ns - r->run_delay_ns : 0;

	if (r->run_delay_ns > MAX_DELAY_SHARE * r->elapsed_ns ||
	    r->run_delay_ns >= unseen)
		return "preempted or throttled";
	return "the rest was not the worker's to run: the host's (steal) or interrupts'";
}

void sample_judge_disturbed(struct sample *s)
{
	int w;

	if (sample_judge_moved(s))
		return;
	if (s->excused_share > MAX_EXCUSED_SHARE) {
		outcome_set(&s->out, ST_DISTURBED,
			    "the kernel skipped a program for %.2f%% of its events in the loops (nested in an interrupt's run): more than %.1f%% is no figure of the program's cost",
			    100 * s->excused_share, 100 * MAX_EXCUSED_SHARE);
		return;
	}
	for (w = 0; w < s->nr_workers; w++) {
		const struct worker_result *r = &s->res[w];
		double share = r->elapsed_ns ?
			       (double)r->cpu_ns / r->elapsed_ns : 1;

		/*
		 * the worker's own count first: exact, where the host's
		 * steal comes in ticks of 10 ms and is the CPU's (a stopped
		 * worker's sample in CI also read 3 ticks in its 943 ms)
		 */
		if (r->nvcsw) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d slept or was stopped %ld time(s) in its loop",
				    r->cpu, r->nvcsw);
			return;
		}
		if (r->steal_ns > MAX_STEAL_SHARE * r->elapsed_ns) {
			outcome_set(&s->out, ST_DISTURBED,
				    "the host took %.2f ms of CPU %d's time (steal) in the worker's %.1f ms loop",
				    r->steal_ns / 1e6, r->cpu,
				    r->elapsed_ns / 1e6);
			return;
		}
		if (share < MIN_CPU_SHARE ||
		    r->run_delay_ns > MAX_DELAY_SHARE * r->elapsed_ns) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d ran %.0f%% of its wall time and waited %.0f us for its CPU: %s",
				    r->cpu, 100 * share, r->run_delay_ns / 1e3,
				    time_taken_by(r));
			return;
		}
	}
}

bool units_precise(const double *unit, const int *round, int n,
		   bool overhead, const struct run_settings *rs)
{
	double mean[MAX_UNITS];
	struct sample_stats st;
	double want;
	int nr;

	nr = stats_cluster_means(unit, round, n < MAX_UNITS ? n : MAX_UNITS,
				 mean);
	if (nr < 2)
		return false;
	stats_compute(mean, nr, &st);
	want = rs->precision * fabs(st.mean);
	if (overhead && want < MIN_PRECISION_NS)
		want = MIN_PRECISION_NS;
	return stats_ci_half(&st, 0.05) <= want;
}

enum row_stop units_enough(const double *unit, const int *round, int n,
			   bool overhead, __u64 spent_ns,
			   const struct run_settings *rs)
{
	if (rs->repeat)
		return n >= rs->repeat ? STOP_REPEAT : STOP_NOT;
	if (n >= rs->max_units)
		return STOP_MAX;
	/*
	 * too few units for a useful interval: the budget twice over
	 * first, and never fewer than two, which an interval needs
	 */
	if (n < rs->min_units)
		return n >= 2 && spent_ns >= 2 * rs->row_budget_ns ?
		       STOP_BUDGET : STOP_NOT;
	if (units_precise(unit, round, n, overhead, rs))
		return STOP_PRECISE;
	return spent_ns >= rs->row_budget_ns ? STOP_BUDGET : STOP_NOT;
}

bool units_mostly_disturbed(int disturbed, int attempts)
{
	return 2 * disturbed > attempts;
}
