/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's interfaces between its own files: the run's state, the
 * checks of the machine before a run, signals, and what a sample is worth.
 * No family includes it: what a family needs is in bench.h.
 */
#ifndef __BENCH_RUNNER_H
#define __BENCH_RUNNER_H

#include "bench.h"
#include "bench_workers.h"

#define EXIT_USAGE	2
#define TOOL_VERSION	"2.0"

/* the command line's settings: bench_main.c's, handed to the families */
extern struct run_settings bench_rs;

/* ---- messages: bench_msg.c ---- */

void bench_init(const char *prog_name);
/* a status in lower case, as JSON writes it */
const char *status_json(enum status st);

/* ---- the command line: bench_cmdline.c, pure functions ---- */

/* a decimal fraction in [min, max] */
int parse_double(const char *s, double min, double max, double *out);
/* "0,2-3": each CPU once; -EINVAL, -E2BIG */
int parse_cpu_ranges(const char *s, struct cpu_list *out);
/* "N" (the first N of @allowed) or a list, every CPU in @allowed */
int parse_cpus(const char *s, const struct cpu_list *allowed,
	       struct cpu_list *out);
bool cpu_list_has(const struct cpu_list *cpus, int cpu);
void cpu_list_free(struct cpu_list *cpus);

/* ---- the machine, before a run: bench_kernel.c ---- */

/* online CPUs this process may run on (cpuset, affinity) */
int usable_cpus(struct cpu_list *out);
/* root, or the capabilities BPF needs, in the initial user namespace */
int check_privileges(void);
/* mounts tracefs when it is missing, and says so */
int ensure_tracefs(void);
/* notes a cgroup CPU quota smaller than @nr_cpus CPUs */
void warn_cpu_quota(int nr_cpus);
/*
 * One run of these tools at a time per machine: waits up to @wait_s for
 * the one that holds the lock, naming it. 0, or -1 said.
 */
int bench_lock(const char *tool, double wait_s);

/* ---- signals: bench_msg.c ---- */

/* SIGINT/SIGTERM/SIGHUP interrupt blocking waits instead of killing us */
void install_signal_handlers(void);
/* the signal that arrived, or 0 */
int bench_interrupted(void);
/* from now on a signal ends the run at once: only output is left */
void bench_writing_results(void);

/* ---- a sample's worth: bench_verify.c, pure functions ---- */

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

/* ---- the sampler: bench_sampler.c ---- */

/* a row's overhead need not be known closer than this, in ns per event */
#define MIN_PRECISION_NS	1.0

/*
 * Opens every row and measures them in rounds until each is known well
 * enough (see bench_sampler.c). -EINTR when a signal ended it.
 */
int sampler_run(const struct bench_family *fam, struct bench_rows *rows);
/* --prog-stats: one more sample of each row with a figure */
int sampler_prog_stats(const struct bench_family *fam, struct bench_rows *rows);
/* closes the opened rows and frees them */
void sampler_close(const struct bench_family *fam, struct bench_rows *rows);

/* ---- the summary: bench_report.c ---- */

/* @reason without @mode's name where it names it: the group's key */
void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len);
/*
 * One updating line on stderr when it is a terminal: row @done of @total
 * in @round (-1: loading it), its unit @unit
 */
void progress(int done, int total, const struct bench_row *row, int round,
	      int unit);
void progress_end(void);

#endif /* __BENCH_RUNNER_H */
