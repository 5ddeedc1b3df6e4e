/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the families use of the runner's report: the summary table's
 * columns and lines (bench_summary.c), list_kind() for --list
 * (bench_list.c), the progress line (bench_progress.c). A row's figures
 * and notes are in bench.h (bench_row_summary.c, bench_notes.c); the
 * runner's own writers have their headers: bench_results_json.h,
 * bench_ktap.h, bench_list.h.
 */
#ifndef __BENCH_REPORT_H
#define __BENCH_REPORT_H

#include <stdio.h>
#include "bench.h"
/* json_number() and json_text(), for the families' JSON writers */
#include "bench_json.h"

/*
 * The summary table's columns both programs have, first: the row's name
 * and variant, its figure ± its interval, its share of its base, its
 * verdict, its notes' marks, and with -v its rate ± stddev. A family's
 * own come after them.
 */
enum {
	SUMMARY_NAME, SUMMARY_VARIANT, SUMMARY_FIGURE, SUMMARY_CI,
	SUMMARY_SHARE, SUMMARY_VERDICT, SUMMARY_NOTES, SUMMARY_RATE,
	SUMMARY_RATE_SD, NR_SUMMARY_COLS
};

/*
 * Their entries of a table's columns (bench_table.h), with the headings
 * the family gives them. On a narrower terminal the rate goes first (a
 * family's -v columns come before it, of higher @drop), then the notes,
 * then the share of the base; the others stay.
 */
#define SUMMARY_COLUMNS(name, variant, figure, rate)			\
	[SUMMARY_NAME] = { name, .left = true },			\
	[SUMMARY_VARIANT] = { variant, .left = true },			\
	[SUMMARY_FIGURE] = { figure },					\
	[SUMMARY_CI] = { "", .left = true, .glue = true },		\
	[SUMMARY_SHARE] = { "vs base", .drop = 2 },			\
	[SUMMARY_VERDICT] = { "verdict", .left = true },		\
	[SUMMARY_NOTES] = { "notes", .left = true, .drop = 3 },		\
	[SUMMARY_RATE] = { rate, .drop = 4 },				\
	[SUMMARY_RATE_SD] = { "", .left = true, .glue = true }

struct table;
/*
 * @row on a new line of @t, a summary table: its @name and @variant,
 * what @figure makes of it, its verdict (@checked: its counts are checked,
 * see row_verdict()), its marks, and with -v its rate. Returns the line,
 * and fills @s, when the row has a figure; -1 without one.
 */
int summary_row(const struct run_settings *rs, struct table *t,
		const struct bench_row *row, const char *name,
		const char *variant, bool checked, row_figure_fn figure,
		struct row_summary *s);

struct json_t;
struct attach_kind;
/*
 * What --list says of a row's attach kind: the config options it needs
 * (and @extra_need), what the libbpf built against lacks of it, why a
 * kernel with that config may still lack it, and whether it is a BPF
 * trampoline, which a kernel may refuse at load whatever its config.
 */
void list_kind(struct json_t *o, const struct attach_kind *kind,
	       const char *extra_need);
/*
 * The libbpf these binaries run, "1.4", for a run's header; a dynamic
 * build meeting another libbpf than its headers' says both.
 */
const char *libbpf_version_text(void);

/*
 * One updating line on stderr when it is a terminal: row @done of @total
 * in @round (-1: loading it), its unit @unit
 */
void progress(int done, int total, const struct bench_row *row, int round,
	      int unit);
void progress_end(void);

#endif /* __BENCH_REPORT_H */
