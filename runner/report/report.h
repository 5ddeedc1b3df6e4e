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
 * The summaries' layout (report/summary.c): tables whose columns are as
 * wide as their cells and drop out, in an order each table gives, to fit
 * a terminal; sentences folded to the width; a figure and its interval.
 * What a family fills a table with (struct table, table_set(), ...) is
 * in bench.h.
 */

/* what a line of the summaries may take, on a wider terminal or none */
#define TEXT_WIDTH	100
/* what text to paste (--format short) takes: a commit message's lines */
#define PASTE_WIDTH	72

/* a new row of empty cells: its index (a lost row's cells are dropped) */
int table_add_row(struct table *t);
/*
 * Where a row's name may go when the table is too wide for it with every
 * column it may drop dropped: NAMES_WHOLE, nowhere (a summary: a line a
 * row, which may then be wider); NAMES_ABOVE, on a line of its own, the
 * row's cells under it; or a number N: there already while the columns
 * that may drop leave N columns for the names (text to paste keeps its
 * intervals, and its lines within PASTE_WIDTH)
 */
#define NAMES_WHOLE	(-1)
#define NAMES_ABOVE	(1 << 20)
#define PASTE_NAME_MIN	16
/*
 * The table on @f, each line @indent spaces in, its columns dropped until
 * it fits @width (0: no limit), its names as @name_min says. Returns how
 * many columns it dropped.
 */
int table_print(const struct table *t, FILE *f, int indent, int width,
		int name_min);
/* "vs base, notes": the headings of the columns table_print() dropped */
void table_dropped(const struct table *t, int indent, int width,
		   int name_min, char *buf, size_t len);

/*
 * How wide the summaries' tables may be: stdout's terminal's columns, or
 * on no terminal TEXT_WIDTH (0, no limit, when @verbose: -v's columns
 * are for files too)
 */
int table_width(bool verbose);
/* how wide sentences are folded: TEXT_WIDTH, or a narrower terminal's */
int text_width(void);
/* vfprintf() to @f, each line of the text folded to @width */
void fold_vprintf(FILE *f, int width, const char *fmt, va_list ap);

/*
 * "+182 ± 52", "12.10 ± 0.24": @value with as many decimals as the two
 * significant digits of @ci95 take (0 to 2), with a sign when @sign;
 * into @value_buf, and "± @ci95" into @ci_buf ("± -" without an interval:
 * NAN, one observation). @ci_buf may be NULL: then both go in @value_buf.
 */
void format_estimate(double value, double ci95, bool sign, char *value_buf,
		     size_t vlen, char *ci_buf, size_t clen);
/* "+14%", "+5.3%", "-": a share in percent, with its sign */
void format_share(double pct, char *buf, size_t len);

/* report/results_json.c: --ktap, and the --json results file it reads */

/*
 * --ktap: KTAP version 1, one test point per row with its figure or
 * reason, and kselftest's "# Totals" line
 */
void write_ktap(const struct bench_family *fam,
		const struct run_settings *rs,
		const struct bench_rows *rows, FILE *f);
/*
 * --ktap of a run that ended before its rows' test points: the whole
 * test skipped ("1..0 # SKIP reason": the machine cannot run it now), or
 * "Bail out! reason" (a failure), as kselftest.h ends a test early
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

/*
 * Skipped rows by reason (report/summary.c). The groups a family's summary
 * uses (skip_groups(), print_skip_groups(), ...) are in bench.h.
 */

/* @reason without @mode's name where it names it: the group's key */
void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len);

/*
 * A caveat of a row's figure: its mark in the summary's notes column
 * ('b': stopped at its budget short of --precision, 'n': noisy, ...;
 * the legend under the table says what each means and how many rows
 * have it) and its sentence, for -v and --json
 */
#define ROW_NOTES_MAX	16
struct row_note {
	char mark;
	char text[REASON_LEN + 64];
};

/* the caveats of a row with a figure, in the legend's order: how many */
int row_note_list(const struct bench_row *row, const struct row_summary *s,
		  struct row_note notes[ROW_NOTES_MAX]);
/*
 * "noisy (CV of ns/event 7.1%), 1 outlier, foreign hits 3%", or "": the
 * notes' sentences, the CV of what the ± is of
 */
void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len);
/* "bnr": the notes' marks, or "" */
void row_marks(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len);
/*
 * What the checks say of a row, for the table: "verified" (ok, and its
 * counts were checked: @checked), "ok" (nothing to check: a base),
 * "disturbed", "FAILED CPU 1" (the CPU its reason names, if one)
 */
void row_verdict(const struct run_settings *rs, const struct bench_row *row,
		 bool checked, char *buf, size_t len);
/*
 * The summary's line for the events whose program runs the kernel
 * skipped, excused, into @buf: how many of how many, in how many rows;
 * "" when none. Such rows still exit 0: the line says what they lack.
 */
void excused_line(const struct bench_rows *rows, char *buf, size_t len);

#endif /* __RUNNER_REPORT_H */
