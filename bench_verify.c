// SPDX-License-Identifier: GPL-2.0
/*
 * What a sample is worth: its figures from the workers' results, its
 * verification against the programs' per-CPU counts, whether it ran
 * undisturbed, and when a row has enough of them. Pure functions of what
 * the runner gathered, so the unit tests can try every case.
 */
#include <math.h>
#include "bench_runner.h"

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

void sample_measure(struct sample *s)
{
	double ns_sum = 0;
	int i;

	s->events = 0;
	s->rate = 0;
	for (i = 0; i < s->nr_workers; i++) {
		const struct worker_result *r = &s->res[i];
		double ns = r->elapsed_ns ? r->elapsed_ns : 1;

		s->events += r->events;
		s->rate += r->events * 1e9 / ns;
		ns_sum += ns / r->events;
	}
	s->ns_per_event = ns_sum / s->nr_workers;
}

/*
 * Hits beyond a worker's events inside its loop can only be another
 * task's, one that ran on the CPU while the worker was off it: it could
 * have made at most what the worker makes in as much CPU time (twice
 * that, for margin; the worker's CPU time per event, not its wall time,
 * which the other task's share stretches). An interrupt's events add a
 * few: one in a thousand, and 16. Anything beyond that fires for
 * something the worker did not do: a program on the wrong hook, or a
 * count that is not its own.
 */
static __u64 foreign_allowance(const struct worker_result *r, unsigned int k)
{
	__u64 off = r->elapsed_ns > r->cpu_ns ? r->elapsed_ns - r->cpu_ns : 0;
	__u64 on = r->cpu_ns ? r->cpu_ns : r->elapsed_ns;
	double per_event = r->events ? (double)on / r->events : 0;
	__u64 others = per_event > 0 ? 2 * k * (__u64)(off / per_event) : 0;

	return others + k * r->events / 1000 + 16;
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

/*
 * Every program must have counted, inside each worker's loop on its CPU,
 * every event that worker made: a sum over CPUs could be made up by
 * another process's events elsewhere, and hits before the go or during
 * the detach by events that are not the worker's. What the programs saw
 * in the loops beyond that is foreign; what they saw outside, only shown.
 */
void sample_verify(const struct bench_row *row, struct sample *s)
{
	unsigned int k = row->hits_per_event ?: 1;
	__u64 expected, total, in, win, need, short_by;
	int c, w, cpu, nr = row->nr_counters, first_short, first_over;
	const __u64 *hits;

	for (c = 0; c < nr; c++) {
		hits = sample_hits(s, c);
		total = expected = short_by = in = 0;
		first_short = first_over = -1;
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			total += hits[cpu];
		for (w = 0; w < s->nr_workers; w++) {
			win = s->window[w * nr + c];
			need = k * s->res[w].events;
			expected += need;
			in += win;
			if (win < need) {
				short_by += need - win;
				if (first_short < 0)
					first_short = w;
			} else if (!row->fires_elsewhere && first_over < 0 &&
				   win - need > foreign_allowance(&s->res[w], k)) {
				first_over = w;
			}
		}
		/* the loops are inside attach..detach: a count that says
		 * otherwise is not the programs' */
		if (in > total) {
			outcome_set(&s->out, ST_FAILED,
				    "program %d counted %llu hits in the workers' loops but %llu in all",
				    c + 1, in, total);
			return;
		}
		/*
		 * The kernel skips a program that an interrupt's event
		 * would re-enter on its CPU, and counts it: a shortfall
		 * within what it counted while the workers ran is the
		 * kernel's doing, not a miss.
		 */
		if (first_short >= 0 && short_by > s->kernel_skips[c]) {
			w = first_short;
			verify_failed(row, s, c, w, s->window[w * nr + c],
				      s->kernel_skips[c] ?
				      " (more than the kernel says it skipped)" :
				      "");
			return;
		}
		if (first_over >= 0) {
			w = first_over;
			verify_failed(row, s, c, w, s->window[w * nr + c],
				      ": more than other tasks' time on the CPU explains (the wrong hook?)");
			return;
		}
		if (c == 0) {
			s->counted = total;
			s->in_window = in;
			s->skipped = short_by;
			s->foreign = in + short_by - expected;
		}
	}
}

bool sample_judge_moved(struct sample *s)
{
	int w;

	for (w = 0; w < s->nr_workers; w++) {
		const struct worker_result *r = &s->res[w];

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
	}
	return false;
}

void sample_judge_disturbed(struct sample *s)
{
	int w;

	if (sample_judge_moved(s))
		return;
	for (w = 0; w < s->nr_workers; w++) {
		const struct worker_result *r = &s->res[w];
		double share = r->elapsed_ns ?
			       (double)r->cpu_ns / r->elapsed_ns : 1;

		if (r->nvcsw) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d slept or was stopped %ld time(s) in its loop",
				    r->cpu, r->nvcsw);
			return;
		}
		if (share < MIN_CPU_SHARE ||
		    r->run_delay_ns > MAX_DELAY_SHARE * r->elapsed_ns) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d ran %.0f%% of its wall time and waited %.0f us for its CPU: preempted or throttled",
				    r->cpu, 100 * share, r->run_delay_ns / 1e3);
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
