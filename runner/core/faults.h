/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Faults the tests inject (BENCH_TEST_FAULT), to prove that each check
 * bites. One table for the runner, the families and their BPF programs:
 * a kind's number is what a program is handed. In the test build only
 * (make testing: -DBENCH_TESTING); elsewhere run_fault() is a constant
 * none and the compiler drops the faults. Plain C: BPF includes it too.
 */
#ifndef __BENCH_FAULTS_H
#define __BENCH_FAULTS_H

/*
 * X(KIND, number, BENCH_TEST_FAULT's name), in the order --help says
 * them; what each does: Documentation/tests.rst
 */
#define BENCH_FAULTS(X)							\
	X(MISS_ODD, 1, "miss-odd")					\
	X(MISS_CPU, 2, "miss-cpu=")					\
	X(UNCOUNTED, 3, "uncounted")					\
	X(MISS_ONE, 4, "miss-one")					\
	X(WRONG_KEY, 5, "wrong-key")					\
	X(FILL_ALL, 6, "fill-all")					\
	X(DROP_ALL, 7, "drop-all")					\
	X(EMPTY_MAP, 8, "empty-map")					\
	X(EXTRA_ODD, 9, "extra-odd")					\
	X(WRONG_VALUE, 10, "wrong-value")				\
	X(EXTRA_PUSH, 11, "extra-push")					\
	X(SHORT_OPS, 15, "short-ops")					\
	X(SLOW_BASE, 13, "slow-base")					\
	X(BASE_HOOKED, 14, "base-hooked")				\
	X(PACE_CHANGE, 18, "pace-change")				\
	X(MISS_RARE, 12, "miss-rare")					\
	X(MEMCG_OUTSIDE, 16, "memcg-outside")				\
	X(SHORT_FILL, 17, "short-fill")					\
	X(SHORT_CHURN, 19, "short-churn")				\
	X(STRAY_DELETE, 20, "stray-delete")				\
	X(SLOW_SETUP, 24, "slow-setup")					\
	X(STUCK_SETUP, 25, "stuck-setup")				\
	X(ENDLESS_LOOP, 26, "endless-loop")				\
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
