/* SPDX-License-Identifier: GPL-2.0 */
/* What a sample is worth: bench_verify.c, pure functions. */
#ifndef __BENCH_VERIFY_H
#define __BENCH_VERIFY_H

#include "bench.h"

/* a row's overhead need not be known closer than this, in ns per event */
#define MIN_PRECISION_NS	1.0

/*
 * What program @c of @nr counted inside worker @w's loop: the runs for
 * the worker, or with @foreign those for other tasks (0 where the family
 * does not count them apart)
 */
__u64 sample_in_loop(const struct sample *s, int nr, int w, int c,
		     bool foreign);

/* events, rate and ns per event from the workers' results */
void sample_measure(struct sample *s);
/*
 * Inside every worker's loop, on its CPU, each of the row's programs
 * counted at least hits_per_event times the worker's events, and not
 * more than the time other tasks had that CPU can explain: the rest of
 * the loop's hits is foreign. Hits outside the loops never count. A
 * shortfall the kernel's own count of skipped runs in the loops explains
 * is noted in s->skipped; any other, or hits no task can explain, make
 * s->out FAILED, naming the CPU.
 */
void sample_verify(const struct bench_row *row, struct sample *s);
/*
 * s->out disturbed, and true, when a worker was moved off its CPU (found
 * elsewhere at the end of its loop, or moved there and back within it:
 * the kernel's count of its migrations), or could not be pinned again
 * after an earlier move: its events ran partly elsewhere, so its CPU's
 * count can neither verify nor fail them
 */
bool sample_judge_moved(struct sample *s);
/*
 * s->out disturbed when a worker did not have its CPU to itself, or the
 * kernel's skips excused more than a thousandth of a program's events
 */
void sample_judge_disturbed(struct sample *s);
/*
 * Whether the 95% interval of the mean of @n units, each unit[i] of
 * round round[i] (the units of one round taken as one: their mean), is
 * within --precision of it, and, for an @overhead, at least
 * MIN_PRECISION_NS
 */
bool units_precise(const double *unit, const int *round, int n,
		   bool overhead, const struct run_settings *rs);
/*
 * Whether more than half of a row's @attempts at units were disturbed:
 * the units that survived are those the disturbance missed, and work the
 * event sends elsewhere lands in the others, so the figure would be
 * biased; the row gets none
 */
bool units_mostly_disturbed(int disturbed, int attempts);
/*
 * Why a row with @n units that took @spent_ns stops: -r N reached,
 * precise after --min-units, --max-units, or its --budget spent (twice
 * over while it has fewer than --min-units, and never below two units);
 * STOP_NOT while it goes on
 */
enum row_stop units_enough(const double *unit, const int *round, int n,
			   bool overhead, __u64 spent_ns,
			   const struct run_settings *rs);

#endif /* __BENCH_VERIFY_H */
