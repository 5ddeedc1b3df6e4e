/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A/B comparison of results files: per row, the units of every file of a
 * side pooled, both sides' means with their 95% intervals, the difference
 * with its interval and a Welch's t-test verdict. The schema read is at
 * the top of compare_read.c, the one written at the top of compare_json.c.
 */
#ifndef __BENCH_COMPARE_H
#define __BENCH_COMPARE_H

#include <stdio.h>

/* the "schema" value of every results file, writers and readers alike */
#define BENCH_SCHEMA		"bpf-bench/1"
/* the "schema" of what --compare --json writes */
#define COMPARE_SCHEMA		"bpf-bench-compare/1"
/*
 * Runs of one build on a shared machine differ by more than each run's
 * interval says (make repro): a change within this many ns, or within
 * --threshold percent of A's figure (COMPARE_THRESHOLD_PCT), is called no
 * change, however significant
 */
#define COMPARE_FLOOR_NS	1.0
#define COMPARE_THRESHOLD_PCT	7.0
/* confidence of compare verdicts: 1 - alpha */
#define COMPARE_ALPHA		0.05

/*
 * What a results file may hold: it may come from anywhere, and reading it
 * must not take the machine down. Bigger files are refused in one line.
 */
#define JSON_MAX_FILE_SIZE	(16 << 20)
/* all the files of one compare together */
#define COMPARE_MAX_TOTAL_SIZE	(128 << 20)
#define COMPARE_MAX_ROWS	100000
/* members of one row's "params" */
#define COMPARE_MAX_PARAMS	64
/* the parse may allocate this many times the bytes read, plus the slack */
#define COMPARE_MEM_FACTOR	32
#define COMPARE_MEM_SLACK	(1 << 20)
/* files of one side */
#define COMPARE_MAX_FILES	64

enum compare_side { SIDE_A, SIDE_B };

/* what the command line asks of a compare */
struct compare_args {
	const char *files[2][COMPARE_MAX_FILES];	/* [SIDE_A], [SIDE_B] */
	int nr_files[2];
	/* params left out of a row's identity (--ignore-param) */
	const char *ignore[COMPARE_MAX_PARAMS];
	int nr_ignore;
	double fail_on_regression;	/* percent; < 0: off */
	/* a change within max(COMPARE_FLOOR_NS, this % of A) is none */
	double threshold_pct;
	const char *json;		/* the verdicts as JSON: a path, "-" */
	bool paste;			/* --format short: a table to paste */
};

/*
 * The files of --compare: @first (its value), then the words of @argv
 * from *@next on that are no option: "A B", or "A1 A2 ... -- B1 B2 ...".
 * Moves *@next past them. -1 with one pr_err() line when they are not
 * of that form.
 */
int compare_parse_files(struct compare_args *c, const char *first, int argc,
			char **argv, int *next);
/* --ignore-param KEY[,KEY...]; -1 with one pr_err() line */
int compare_parse_ignore(struct compare_args *c, const char *list);

/* what a compare returns besides 0 and -errno (see bench_compare()) */
#define COMPARE_REGRESSION	1
#define COMPARE_NOT_WRITTEN	1

struct output_file;
/*
 * Prints the comparison of side A (before) with side B (after) to stdout,
 * and with @c->json writes it as JSON into @json, opened here ("-": to
 * stdout, instead of the table), which the caller puts in place
 * (output_commit()) or discards. Returns 0; COMPARE_REGRESSION when
 * @c->fail_on_regression >= 0 and a row is significantly slower by more
 * than that percent; COMPARE_NOT_WRITTEN when the JSON could not be
 * written (said, @json discarded); -errno with one pr_err() line when
 * the input is bad: a file cannot be read, is not JSON, not a
 * BENCH_SCHEMA file or beyond the limits above (-EFBIG).
 */
int bench_compare(const struct compare_args *c, struct output_file *json);
/* the same, printing to @out */
int bench_compare_to(FILE *out, const struct compare_args *c,
		     struct output_file *json);

#endif /* __BENCH_COMPARE_H */
