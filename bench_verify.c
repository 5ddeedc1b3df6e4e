// SPDX-License-Identifier: GPL-2.0
/*
 * What a sample is worth: its figures from the workers' results, its
 * verification against the programs' per-CPU counts, whether it ran
 * undisturbed, and when a row has enough of them. Pure functions of what
 * the runner gathered, so the unit tests can try every case.
 */
#include <math.h>
#include "bench.h"

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
 * Every program must have counted, on each worker's CPU, every event that
 * worker made: a sum over CPUs could be made up by another process's
 * events elsewhere. What the programs saw beyond that is foreign.
 */
void sample_verify(const struct bench_row *row, struct sample *s)
{
	unsigned int k = row->hits_per_event ?: 1;
	__u64 expected, total, *hits, need, short_by;
	int c, w, cpu, first_short;

	for (c = 0; c < row->nr_counters; c++) {
		hits = sample_hits(s, c);
		total = expected = short_by = 0;
		first_short = -1;
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			total += hits[cpu];
		for (w = 0; w < s->nr_workers; w++) {
			cpu = s->res[w].cpu;
			need = k * s->res[w].events;
			expected += need;
			if (hits[cpu] >= need)
				continue;
			short_by += need - hits[cpu];
			if (first_short < 0)
				first_short = w;
		}
		/*
		 * The kernel skips a program that an interrupt's event
		 * would re-enter on its CPU, and counts it: a shortfall
		 * within that count is the kernel's doing, not a miss.
		 */
		if (first_short >= 0 && short_by > s->kernel_skips[c]) {
			w = first_short;
			cpu = s->res[w].cpu;
			need = k * s->res[w].events;
			if (row->nr_counters > 1)
				outcome_set(&s->out, ST_FAILED,
					    "program %d of %d counted %llu hits on CPU %d for %llu events there",
					    c + 1, row->nr_counters, hits[cpu],
					    cpu, need);
			else
				outcome_set(&s->out, ST_FAILED,
					    "program counted %llu hits on CPU %d for %llu events there%s",
					    hits[cpu], cpu, need,
					    s->kernel_skips[c] ?
					    " (more than the kernel says it skipped)" :
					    "");
			return;
		}
		if (c == 0) {
			s->counted = total;
			s->skipped = short_by;
			s->foreign = total + short_by - expected;
		}
	}
}

void sample_judge_disturbed(struct sample *s)
{
	int w;

	for (w = 0; w < s->nr_workers; w++) {
		const struct worker_result *r = &s->res[w];
		double share = r->elapsed_ns ?
			       (double)r->cpu_ns / r->elapsed_ns : 1;

		if (r->unpinned) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d was moved off its CPU: its affinity was changed (CPU hotplug, cpuset)",
				    r->cpu);
			return;
		}
		if (r->end_cpu != r->cpu) {
			outcome_set(&s->out, ST_DISTURBED,
				    "worker on CPU %d was moved off its CPU (ended on CPU %d)",
				    r->cpu, r->end_cpu);
			return;
		}
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

bool enough_samples(const double *x, int n, const struct run_settings *rs)
{
	struct sample_stats st;

	if (rs->repeat)
		return n >= rs->repeat;
	if (n >= rs->max_samples)
		return true;
	if (n < rs->min_samples)
		return false;
	stats_compute(x, n, &st);
	return stats_ci_half(&st, 0.05) <= rs->precision * st.mean;
}
