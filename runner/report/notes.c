// SPDX-License-Identifier: GPL-2.0
/*
 * What is said of rows beside their figures: each row's caveats (a mark
 * in the table, a sentence with -v and in the JSON), the legend of the
 * marks under the table, the reasons of rows that failed or were
 * disturbed, and the runs the kernel skipped, excused. Apart from the
 * figures they qualify (bench_row_summary.c), which they read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/core.h"
#include "rows/rows.h"
#include "report/report.h"
#include "workers/workers.h"

/* ---- a row's caveats: a mark each in the table, a sentence in -v, JSON ---- */

/*
 * The marks, in the order of the notes and of the legend, each with what
 * the legend says of the rows that have it: "16 rows" comes first
 */
enum mark_id {
	MARK_BELOW, MARK_BUDGET, MARK_MAX_UNITS, MARK_STATS, MARK_NOISY,
	MARK_OUTLIERS, MARK_FOREIGN, MARK_KERNEL_SKIPPED, MARK_RETRIED,
	MARK_SETTLE, MARK_PROG_STATS, MARK_HOOK, NR_MARKS
};

_Static_assert(NR_MARKS <= ROW_NOTES_MAX, "a row's notes fit ROW_NOTES_MAX");

static const char mark_char[NR_MARKS] = {
	[MARK_BELOW] = '<', [MARK_BUDGET] = 'b', [MARK_MAX_UNITS] = 'm',
	[MARK_STATS] = 's', [MARK_NOISY] = 'n', [MARK_OUTLIERS] = 'o',
	[MARK_FOREIGN] = 'f', [MARK_KERNEL_SKIPPED] = 'k',
	[MARK_RETRIED] = 'r', [MARK_SETTLE] = 'w', [MARK_PROG_STATS] = 'p',
	[MARK_HOOK] = 'h',
};

/* sets note @id of @notes (@nr so far, room for NR_MARKS) */
static void note(struct row_note *notes, int *nr, enum mark_id id,
		 const char *fmt, ...)
{
	va_list ap;

	notes[*nr].mark = mark_char[id];
	va_start(ap, fmt);
	vsnprintf(notes[*nr].text, sizeof(notes[*nr].text), fmt, ap);
	va_end(ap);
	(*nr)++;
}

int row_note_list(const struct bench_row *row, const struct row_summary *s,
		  struct row_note notes[ROW_NOTES_MAX])
{
	const struct row_state *st = row->state;
	int again = st->retries + st->base_retries, nr = 0;

	if (s->below_base)
		note(notes, &nr, MARK_BELOW,
		     "faster than base by %.1f ± %.1f ns: the measurement is biased",
		     -s->overhead.value, s->overhead.ci95);
	if (s->imprecise)
		note(notes, &nr, st->stop == STOP_BUDGET ? MARK_BUDGET :
		     MARK_MAX_UNITS,
		     "stopped short of --precision (%s) after %d units",
		     row_stop_name(st->stop), st->nr_units);
	if (st->stats_runs)
		note(notes, &nr, MARK_STATS,
		     "the kernel's BPF run-time stats were on: %llu of its runs timed, each dearer by two clock reads",
		     st->stats_runs);
	if (stats_noisy(&s->ns))
		note(notes, &nr, MARK_NOISY, "noisy (CV of ns/event %.1f%%)",
		     100 * s->ns.cv);
	if (s->outliers)
		note(notes, &nr, MARK_OUTLIERS, "%d outlier%s", s->outliers,
		     s->outliers > 1 ? "s" : "");
	if (s->foreign_share > FOREIGN_NOISY)
		note(notes, &nr, MARK_FOREIGN,
		     "noisy: %.1f%% of the loops' hits were other processes'",
		     100 * s->foreign_share);
	if (st->kernel_skipped)
		note(notes, &nr, MARK_KERNEL_SKIPPED,
		     "the kernel skipped the program for %llu event(s) of the %llu runs it says it skipped in the loops: re-entry from an interrupt",
		     st->kernel_skipped, st->kernel_skips);
	if (again)
		note(notes, &nr, MARK_RETRIED,
		     "%d disturbed unit%s or sample%s run again", again,
		     again > 1 ? "s" : "", again > 1 ? "s" : "");
	if (row_settle_capped(row))
		note(notes, &nr, MARK_SETTLE,
		     "the kernel threads on its CPUs were still busy at the go of %d of %d samples (after %.0f ms)",
		     row_settle_capped(row), st->nr, SETTLE_MAX_NS / 1e6);
	if (st->prog_out.status != ST_OK)
		note(notes, &nr, MARK_PROG_STATS, "no prog stats: %s",
		     st->prog_out.reason);
	if (row->others[0])
		note(notes, &nr, MARK_HOOK, "other programs on the hook: %s",
		     row->others);
	return nr;
}

void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len)
{
	struct row_note notes[ROW_NOTES_MAX];
	size_t off = 0;
	int i, nr;

	buf[0] = '\0';
	nr = row_note_list(row, s, notes);
	for (i = 0; i < nr && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				notes[i].text);
}

void row_marks(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len)
{
	struct row_note notes[ROW_NOTES_MAX];
	int i, nr;

	nr = row_note_list(row, s, notes);
	for (i = 0; i < nr && (size_t)i + 1 < len; i++)
		buf[i] = notes[i].mark;
	buf[i] = '\0';
}

/* how many rows of the table (ok, with a figure) have each mark */
static void count_marks(const struct bench_rows *rows, int *count)
{
	struct row_note notes[ROW_NOTES_MAX];
	struct row_summary s;
	int i, k, m, nr;

	memset(count, 0, NR_MARKS * sizeof(*count));
	for (i = 0; i < rows->nr; i++) {
		if (!row_has_figure(&rows->row[i]))
			continue;
		row_summarize(&rows->row[i], &s);
		nr = row_note_list(&rows->row[i], &s, notes);
		for (k = 0; k < nr; k++)
			for (m = 0; m < NR_MARKS; m++)
				count[m] += notes[k].mark == mark_char[m];
	}
}

/* the legend's words for mark @m, after "16 rows " */
static void legend_text(const struct run_settings *rs, enum mark_id m,
			char *buf, size_t len)
{
	switch (m) {
	case MARK_BELOW:
		snprintf(buf, len, "measured faster than the base: a biased figure, never a cheaper program");
		break;
	case MARK_BUDGET:
		snprintf(buf, len, "stopped at the row budget (%g s) before ±%g%%: --budget buys more",
			 rs->row_budget_ns / 1e9, 100 * rs->precision);
		break;
	case MARK_MAX_UNITS:
		snprintf(buf, len, "stopped at %d units before ±%g%%: --max-units buys more",
			 rs->max_units, 100 * rs->precision);
		break;
	case MARK_STATS:
		snprintf(buf, len, "ran with the kernel's BPF run-time stats on: their clock reads are in the figure");
		break;
	case MARK_NOISY:
		snprintf(buf, len, "varied by more than %g%% (CV of ns per event) from sample to sample",
			 100 * NOISY_CV);
		break;
	case MARK_OUTLIERS:
		snprintf(buf, len, "had outlying samples, kept in the figure");
		break;
	case MARK_FOREIGN:
		snprintf(buf, len, "had more than %g%% of the loops' hits from other processes, never counted as ours",
			 100 * FOREIGN_NOISY);
		break;
	case MARK_KERNEL_SKIPPED:
		snprintf(buf, len, "had program runs the kernel skipped, nested in an interrupt (Excused, below)");
		break;
	case MARK_RETRIED:
		snprintf(buf, len, "had disturbed units or samples, run again");
		break;
	case MARK_SETTLE:
		snprintf(buf, len, "had a go after %.0f ms of waiting for busy kernel threads on their CPUs",
			 SETTLE_MAX_NS / 1e6);
		break;
	case MARK_PROG_STATS:
		snprintf(buf, len, "got no --prog-stats figure");
		break;
	case MARK_HOOK:
		snprintf(buf, len, "shared the hook with other BPF programs");
		break;
	default:
		buf[0] = '\0';
	}
}

void print_legend(const struct run_settings *rs, const struct bench_rows *rows)
{
	int count[NR_MARKS], m, said = 0;
	char text[256];

	count_marks(rows, count);
	for (m = 0; m < NR_MARKS; m++) {
		if (!count[m])
			continue;
		legend_text(rs, m, text, sizeof(text));
		printf_folded("%-6s %c %3d row%s %s", said++ ? "" : "Notes:",
			      mark_char[m], count[m], count[m] > 1 ? "s" : "",
			      text);
	}
	if (said && rs->verbosity < 2)
		printf_folded("%-6s   -v gives each row's notes in full, --json too",
			      "");
}

void print_reasons(const struct bench_rows *rows)
{
	char name[256];
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (row->out.status != ST_DISTURBED &&
		    row->out.status != ST_FAILED)
			continue;
		format_row_name(row, name, sizeof(name));
		printf_folded("%s: %s: %s", name, status_name(row->out.status),
			      row->out.reason);
	}
}

void print_row_notes(const struct bench_rows *rows,
		     void (*more)(const struct bench_row *row, char *buf,
				  size_t len))
{
	char name[256], notes[REASON_LEN + 512], extra[512];
	struct row_summary s;
	bool any = false;
	size_t n;
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (!row_has_figure(row))
			continue;
		row_summarize(row, &s);
		row_notes(row, &s, notes, sizeof(notes));
		extra[0] = '\0';
		if (more)
			more(row, extra, sizeof(extra));
		if (!notes[0] && !extra[0])
			continue;
		n = strlen(notes);
		if (extra[0])
			snprintf(notes + n, sizeof(notes) - n, "%s%s",
				 n ? ", " : "", extra);
		if (!any)
			printf("Each row's notes:\n");
		any = true;
		format_row_name(row, name, sizeof(name));
		printf_folded("  %s: %s", name, notes);
	}
}

/* ---- runs the kernel skipped, excused ---- */

void excused_line(const struct bench_rows *rows, char *buf, size_t len)
{
	__u64 excused = 0, events = 0;
	int i, nr = 0;

	buf[0] = '\0';
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (!row->state->kernel_skipped)
			continue;
		excused += row->state->kernel_skipped;
		events += row->state->events * (row->hits_per_event ?: 1);
		nr++;
	}
	if (nr)
		snprintf(buf, len,
			 "Excused: the kernel skipped %llu of the %llu program runs the events make, in %d row%s (nested in an interrupt's run): those runs' cost is not in the figures",
			 excused, events, nr, nr > 1 ? "s" : "");
}

void print_excused(const struct bench_rows *rows)
{
	char line[256];

	excused_line(rows, line, sizeof(line));
	if (line[0])
		printf_folded("%s", line);
}
