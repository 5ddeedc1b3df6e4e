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
 * What a results file may hold: it may come from anywhere, and reading it
 * must not take the machine down. Bigger files are refused in one line.
 */
#define JSON_MAX_FILE_SIZE	(16 << 20)
#define COMPARE_MAX_ROWS	100000
/* members of one row's "params" */
#define COMPARE_MAX_PARAMS	64
/* the parse may allocate this many times the bytes read, plus the slack */
#define COMPARE_MEM_FACTOR	32
#define COMPARE_MEM_SLACK	(1 << 20)

/*
 * Prints the comparison of @file_a (before) with @file_b (after) to
 * stdout. Returns 0, or 1 when @fail_on_regression_pct >= 0 and a row is
 * significantly slower by more than that percent; -errno with one pr_err()
 * line when a file cannot be read, is not JSON, not a BENCH_SCHEMA file or
 * beyond the limits above (-EFBIG). Samples beyond MAX_REPEAT in a row
 * are an error too.
 */
int bench_compare(const char *file_a, const char *file_b,
		  double fail_on_regression_pct);
/* the same, printing to @out */
int bench_compare_to(FILE *out, const char *file_a, const char *file_b,
		     double fail_on_regression_pct);

#endif /* __BENCH_COMPARE_H */
