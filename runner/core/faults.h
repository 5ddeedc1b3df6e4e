/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Faults the tests inject through the environment, to prove that each
 * check bites: a program that misses events must give FAILED. One table
 * for the runner, the families and their BPF programs: a kind's number
 * is what the runner hands a program in its configuration, and its name
 * is what BENCH_TEST_FAULT takes (miss-cpu=N with the CPU). They exist
 * in the test build only (make testing: -DBENCH_TESTING, in
 * build/testing/), as the kernel's CONFIG_FAULT_INJECTION does. What make
 * builds reads no environment for them: there run_fault() is a constant
 * none, every test of it is constant, and the compiler drops the faults.
 *
 * Plain C, no libc: the BPF programs include it too.
 */
#ifndef __BENCH_FAULTS_H
#define __BENCH_FAULTS_H

/* X(KIND, number, BENCH_TEST_FAULT's name), in the order --help says them */
#define BENCH_FAULTS(X)							\
	/* programs count every other hit */				\
	X(MISS_ODD, 1, "miss-odd")					\
	/* programs count nothing on one CPU */				\
	X(MISS_CPU, 2, "miss-cpu=")					\
	/* programs count nothing, unverified */			\
	X(UNCOUNTED, 3, "uncounted")					\
	/* the last of a row's programs misses odd hits */		\
	X(MISS_ONE, 4, "miss-one")					\
	/* map programs look up keys not there */			\
	X(WRONG_KEY, 5, "wrong-key")					\
	/* map fills put the keys in despite --miss */			\
	X(FILL_ALL, 6, "fill-all")					\
	/* ring/perf buffer programs drop every record */		\
	X(DROP_ALL, 7, "drop-all")					\
	/* a map that keeps what its fill put in is emptied after it */	\
	X(EMPTY_MAP, 8, "empty-map")					\
	/* programs count every other hit twice */			\
	X(EXTRA_ODD, 9, "extra-odd")					\
	/* user space's bpf() writes another value */			\
	X(WRONG_VALUE, 10, "wrong-value")				\
	/* queue/stack programs push a value uncounted */		\
	X(EXTRA_PUSH, 11, "extra-push")					\
	/* hash stress programs do 29 of their 30 map ops */	\
	X(SHORT_OPS, 15, "short-ops")					\
	/* base samples run their loop twice */				\
	X(SLOW_BASE, 13, "slow-base")					\
	/* base calls the first row's copy */				\
	X(BASE_HOOKED, 14, "base-hooked")				\
	/* a unit's second base sample runs its loop twice */		\
	X(PACE_CHANGE, 18, "pace-change")				\
	/* programs miss 1 worker's run in 1024 */			\
	X(MISS_RARE, 12, "miss-rare")					\
	/* --memory makes its maps outside the row's memory cgroup */	\
	X(MEMCG_OUTSIDE, 16, "memcg-outside")				\
	/* --memory's fills leave their last element out */		\
	X(SHORT_FILL, 17, "short-fill")					\
	/* --memory's churns leave their first cycle's last add out */	\
	X(SHORT_CHURN, 19, "short-churn")				\
	/* --memory's churns delete key N, never put in, not N - 1 */	\
	X(STRAY_DELETE, 20, "stray-delete")				\
	/* workers, the --memory creator, consumers: 0.5 s to start */	\
	X(SLOW_SETUP, 24, "slow-setup")					\
	/* workers sleep for good in their set-up */			\
	X(STUCK_SETUP, 25, "stuck-setup")				\
	/* workers run their first loop for ever */			\
	X(ENDLESS_LOOP, 26, "endless-loop")				\
	/* the sampler's first allocation fails (ENOMEM) */		\
	X(NO_MEMORY, 29, "no-memory")

#define BENCH_FAULT_ENUM(kind, nr, name)	BENCH_FAULT_##kind = nr,
enum test_fault_kind {
	BENCH_FAULT_NONE,
	BENCH_FAULTS(BENCH_FAULT_ENUM)
};
#undef BENCH_FAULT_ENUM

/* each kind's number once, all below 32: one bit each */
#define BENCH_FAULT_BIT(kind, nr, name)	| (1u << (nr))
#define BENCH_FAULT_ONE(kind, nr, name)	+ 1
_Static_assert(__builtin_popcount(0 BENCH_FAULTS(BENCH_FAULT_BIT)) ==
	       0 BENCH_FAULTS(BENCH_FAULT_ONE) &&
	       !((0 BENCH_FAULTS(BENCH_FAULT_BIT)) & 1),
	       "every test fault has a number of its own, and none is 0");
#undef BENCH_FAULT_BIT
#undef BENCH_FAULT_ONE

#endif /* __BENCH_FAULTS_H */
