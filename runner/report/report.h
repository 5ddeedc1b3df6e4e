/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_REPORT_H
#define __RUNNER_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bench.h"

/* the "schema" value of every results file, writers and readers alike */
#define BENCH_SCHEMA		"bpf-bench/1"

/*
 * The summaries' layout (report/summary.c): tables whose columns drop out
 * to fit a terminal, sentences folded to the width, a figure and its
 * interval. What a family fills a table with is in bench.h.
 */

/* what a line of the summaries may take, on a wider terminal or none */
#define TEXT_WIDTH	100
/* what text to paste (--format short) takes: a commit message's lines */
#define PASTE_WIDTH	72

/* a new row of empty cells: its index (a lost row's cells are dropped) */
int table_add_row(struct table *t);
/*
 * Where a row's name goes when the table is too wide with every column it
 * may drop dropped: NAMES_WHOLE, nowhere (a line a row, which may then be
 * wider); NAMES_ABOVE, on a line of its own above its cells; or N: there
 * already while the other columns leave N columns for the names
 */
#define NAMES_WHOLE	(-1)
#define NAMES_ABOVE	(1 << 20)
#define PASTE_NAME_MIN	16
/*
 * The table on @f, each line @indent spaces in, its columns dropped until
 * it fits @width (0: no limit), its names as @name_min says: how many
 * columns it dropped
 */
int table_print(const struct table *t, FILE *f, int indent, int width,
		int name_min);
/* table_print() 2 spaces in, then the headings of the columns it dropped */
void table_print_fitted(const struct table *t, FILE *f, int width,
			int name_min);

/* stdout's terminal's columns, or TEXT_WIDTH (0, no limit, for -v's) */
int table_width(bool verbose);
/* how wide sentences are folded: TEXT_WIDTH, or a narrower terminal's */
int text_width(void);
/* vfprintf() to @f, each line of the text folded to @width */
void fold_vprintf(FILE *f, int width, const char *fmt, va_list ap);

/*
 * "+182 ± 52", "12.10 ± 0.24": @value to the decimals two significant
 * digits of @ci95 take, signed when @sign, into @value_buf, "± @ci95" ("±
 * -" for NAN) into @ci_buf, or into @value_buf too when @ci_buf is NULL
 */
void format_estimate(double value, double ci95, bool sign, char *value_buf,
		     size_t vlen, char *ci_buf, size_t clen);
/* "+14%", "+5.3%", "-": a share in percent, with its sign */
void format_share(double pct, char *buf, size_t len);

/* --ktap: KTAP version 1, a test point a row, kselftest's "# Totals" */
void write_ktap(const struct bench_family *fam,
		const struct run_settings *rs,
		const struct bench_rows *rows, FILE *f);
/*
 * --ktap of a run that ended before its rows: as kselftest.h ends a test
 * early, skipped ("1..0 # SKIP reason") or "Bail out! reason"
 */
void write_ktap_early(FILE *f, bool skip, const char *reason);

/*
 * the --json results file of a run; @started_ns: when it got the lock,
 * which the context's run_ns counts from (0: null, not known)
 */
int write_results(const struct bench_family *fam,
		  const struct run_settings *rs,
		  const struct bench_rows *rows, __u64 started_ns, FILE *f);
struct json_t;
/* a row's parameters as an object, for --list's rows too */
struct json_t *params_json(const struct bench_row *row);

/* @reason without @mode's name where it names it: a skip group's key */
void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len);

/*
 * A caveat of a row's figure: its mark in the summary's notes column,
 * which the legend under the table explains, and its sentence (-v, --json)
 */
#define ROW_NOTES_MAX	16
struct row_note {
	char mark;
	char text[REASON_LEN + 64];
};

/* the caveats of a row with a figure, in the legend's order: how many */
int row_note_list(const struct bench_row *row, const struct row_summary *s,
		  struct row_note notes[ROW_NOTES_MAX]);
/* "noisy (CV of ns/event 7.1%), 1 outlier", or "": the notes' sentences */
void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len);
/*
 * The summary's line for the program runs the kernel skipped, excused:
 * how many of how many, in how many rows; "" when none
 */
void excused_line(const struct bench_rows *rows, char *buf, size_t len);

#endif /* __RUNNER_REPORT_H */
