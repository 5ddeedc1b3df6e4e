/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A/B comparison of two results files: per row, both means with their
 * spread, the delta and a Welch's t-test verdict. The schema is written
 * down at the top of bench_compare.c.
 */
#ifndef __BENCH_COMPARE_H
#define __BENCH_COMPARE_H

#include <stdio.h>

/* the "schema" value of every results file, writers and readers alike */
#define BENCH_SCHEMA		"bpf-bench/1"
/* confidence of compare verdicts: 1 - alpha */
#define COMPARE_ALPHA		0.05

/*
 * Prints the comparison of @file_a (before) with @file_b (after) to
 * stdout. Returns 0, or 1 when @fail_on_regression_pct >= 0 and a row is
 * significantly slower by more than that percent; -errno with one pr_err()
 * line when a file cannot be read, is not JSON or not a BENCH_SCHEMA file.
 */
int bench_compare(const char *file_a, const char *file_b,
		  double fail_on_regression_pct);
/* the same, printing to @out */
int bench_compare_to(FILE *out, const char *file_a, const char *file_b,
		     double fail_on_regression_pct);

#endif /* __BENCH_COMPARE_H */
