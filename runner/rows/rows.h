/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_ROWS_H
#define __RUNNER_ROWS_H

#include "bench.h"

/* what the runner keeps of a row, through its @state, which no family reads */

/* samples a row keeps at most: its own, and a base row its rows' too */
#define MAX_SAMPLES	512
/* units a row takes at most, whatever -r asks */
#define MAX_UNITS	200

/* why a row's sampling ended */
enum row_stop {
	STOP_NOT,		/* it has not */
	STOP_PRECISE,		/* its interval is within --precision */
	STOP_REPEAT,		/* -r N: N units */
	STOP_MAX,		/* --max-units, short of --precision */
	STOP_BUDGET,		/* --budget spent, short of --precision */
	STOP_FED,		/* a base row: its rows stopped */
};

/* "precise", "budget", ...: why its sampling ended */
const char *row_stop_name(enum row_stop stop);
/* counted samples whose go came after settle()'s longest wait */
int row_settle_capped(const struct bench_row *row);
/* how long a row's programs stayed attached, at most */
enum attached_for {
	ATTACHED_NEVER,
	ATTACHED_SAMPLES,	/* around its row samples alone */
	ATTACHED_SESSION,	/* through its sessions' units */
	ATTACHED_RUN,		/* from its first session to the run's end */
};

/* what the runner did in a row's sessions, each timed (the JSON's time_ns) */
enum row_phase {
	PHASE_FORK,		/* the sessions' workers forked, waiting */
	PHASE_ATTACH,		/* attach() */
	PHASE_DETACH,		/* detach(), in the sessions */
	PHASE_QUIET,		/* each sample's wait for quiet before the go */
	PHASE_LOOPS,		/* the workers' timed loops: the slowest's */
	PHASE_RUN,		/* the go, the wake-ups and results, besides */
	PHASE_READS,		/* the counts collected, the kernel's skips */
	PHASE_CHECKS,		/* each sample verified and judged */
	PHASE_STOP,		/* the workers stopped and reaped */
	NR_PHASES
};

struct row_pool;
struct attach_kind;
/*
 * Kinds this kernel refuses whatever the target: the first row of one
 * finds it by probing, the later ones say the same without loading
 * anything. The run's: struct bench_rows owns it, each row's state
 * points at it.
 */
#define MAX_REFUSED	32
struct attach_refusals {
	int nr;
	struct {
		const struct attach_kind *kind;
		struct outcome why;
	} e[MAX_REFUSED];
};

struct row_state {
	bool opened;
	int loads;			/* times open() succeeded */
	__u32 *prog_ids;		/* every load's programs, in order */
	int nr_prog_ids;
	bool attached;			/* its programs are */
	enum attached_for attached_for;
	enum row_stop stop;		/* why its sampling ended */
	int nr;				/* counted samples */
	double rate[MAX_SAMPLES];	/* events/s, all workers together */
	double ns[MAX_SAMPLES];		/* mean over workers of ns per event */
	double *worker_rate;		/* [sample * cpus->nr + worker] */
	/*
	 * Units (sample/unit.c): with a base, the row's sample between
	 * two of its base's, @unit its ns per event less theirs; without,
	 * one sample, @unit its ns per event. A base row's units are those
	 * of the rows measured against it, @unit their base samples' mean.
	 */
	int nr_units;
	bool paired;			/* its units hold its base's samples */
	bool fed;			/* a base: its rows' units are its own */
	double unit[MAX_UNITS];
	double unit_ns[MAX_UNITS];	/* the row's ns per event in it */
	double unit_base_ns[MAX_UNITS];	/* its base samples' mean; NAN */
	int unit_round[MAX_UNITS];	/* the round it ran in */
	__u64 unit_count[MAX_UNITS];	/* events per worker of its sample */
	bool unit_retry[MAX_UNITS];	/* run again for a disturbed one */
	int sessions;			/* rounds it had a session in */
	/* its workers, kept from one session to the next; NULL: none yet */
	struct row_pool *pool;
	int attempts;			/* units run, retries included */
	/* its samples run: pacing, -w, retries, --prog-stats' too */
	int samples_run;
	int disturbed_units;		/* of them, disturbed */
	struct outcome last_disturbed;	/* the last one's reason */
	__u64 spent_ns;			/* in its sessions */
	__u64 phase_ns[NR_PHASES];	/* of it, in each phase */
	__u64 loops_counted_ns;		/* of PHASE_LOOPS, its figures' samples' */
	__u64 load_ns;			/* open(), outside the sessions */
	__u64 detach_end_ns;		/* detach() at the run's end, so */
	double session_ns;		/* a session's cost besides its units */
	double unit_ns_spent;		/* what a unit takes, retries aside */
	/*
	 * what a unit costs besides its samples' loops (attach, detach,
	 * waits for quiet, the go and results), and its share of its
	 * session's cost besides its units (forking or looking the workers
	 * over, a reload): the fixed cost its samples are sized by
	 * (sample/unit.c)
	 */
	double unit_fixed_ns;
	double session_share_ns;
	__u64 disturbed_unit_ns;	/* the shortest disturbed unit's time */
	double attach_ns[MAX_SAMPLES];	/* each attach(), the first 100 */
	double detach_ns[MAX_SAMPLES];
	int nr_attach, nr_detach;
	double settle_ns[MAX_SAMPLES];	/* waited for the kernel to go quiet */
	__u64 steal_ns;			/* the host's, counted samples */
	__u64 last_wall_ns;		/* the last sample's, for its deadline */
	__u64 paced_count;		/* @count for this machine's pace */
	__u64 events;			/* over counted samples */
	__u64 hits;			/* the first program's, every CPU */
	__u64 hits_window;		/* of them, in the workers' loops */
	/* per worker, over counted samples: its events, its own hits in them */
	__u64 *worker_events, *worker_hits_window;
	__u64 foreign;			/* in the loops, beyond the events */
	__u64 kernel_skipped;		/* events whose runs the kernel skipped */
	__u64 kernel_skips;		/* runs it says it skipped in the loops */
	/*
	 * runs of its first program, in counted samples, that the kernel's
	 * BPF run-time stats timed: each paid for two clock reads more
	 */
	__u64 stats_runs;
	int retries;			/* units, row samples run again as disturbed */
	int base_retries;		/* base samples run again so */
	__u64 retry_ns;			/* the time they took */
	double prog_ns;			/* --prog-stats: ns per program run */
	double prog_clock_ns;		/* of which the stats' clock reads */
	__u64 prog_runs, prog_hits;	/* in that pass */
	struct outcome prog_out;	/* why prog_ns is missing */
	struct row_profile *profile;	/* --profile's; NULL: not profiled */
	struct attach_refusals *refused;	/* the run's, bench_rows' */
};

/* "raw_tp task_rename [progs=4]": a row as KTAP and --profile name it */
void format_row_name(const struct bench_row *row, char *buf, size_t len);
/*
 * Why the policy setup() gave @row is none the runner can follow, or
 * NULL: checked for every row before anything runs
 */
const char *row_policy_wrong(const struct bench_row *row);

#endif /* __RUNNER_ROWS_H */
