// SPDX-License-Identifier: GPL-2.0
/*
 * The text a reader sees: the summaries' layout, what is said of rows
 * beside their figures, skipped rows by reason, and the summary table.
 * Whole columns drop to fit a terminal, as perf's and bpftool's tables
 * keep their lines whole instead of letting the terminal wrap them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/libbpf_version.h>
#include <sys/ioctl.h>
#include "report/report.h"
#include "core/core.h"
#include "rows/rows.h"
#include "workers/workers.h"
#include "bench.h"
#include "kernel/kernel.h"

/* spaces between columns */
#define TABLE_SEP	2
/* the most columns a table has */
#define MAX_COLS	32

void table_init(struct table *t, const struct table_col *col, int nr_cols)
{
	memset(t, 0, sizeof(*t));
	t->col = col;
	t->nr_cols = nr_cols < MAX_COLS ? nr_cols : MAX_COLS;
}

int table_add_row(struct table *t)
{
	char **grown;
	int cap;

	if (t->nr_rows == t->cap) {
		cap = t->cap ? 2 * t->cap : 32;
		grown = realloc(t->cell, (size_t)cap * t->nr_cols * sizeof(*grown));
		if (!grown) {
			t->oom = true;
			return -1;
		}
		memset(grown + (size_t)t->cap * t->nr_cols, 0,
		       (size_t)(cap - t->cap) * t->nr_cols * sizeof(*grown));
		t->cell = grown;
		t->cap = cap;
	}
	return t->nr_rows++;
}

void table_set(struct table *t, int row, int col, const char *fmt, ...)
{
	char **cell;
	va_list ap;

	if (row < 0 || row >= t->nr_rows || col < 0 || col >= t->nr_cols)
		return;
	cell = &t->cell[(size_t)row * t->nr_cols + col];
	free(*cell);
	va_start(ap, fmt);
	if (vasprintf(cell, fmt, ap) < 0) {
		*cell = NULL;
		t->oom = true;
	}
	va_end(ap);
}

static const char *cell_of(const struct table *t, int row, int col)
{
	const char *s = t->cell[(size_t)row * t->nr_cols + col];

	return s ? s : "";
}

void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < (size_t)t->nr_rows * t->nr_cols; i++)
		free(t->cell[i]);
	free(t->cell);
	t->cell = NULL;
	t->nr_rows = t->cap = 0;
}

/* the columns of the bytes from @s to @end */
static int span_cols(const char *s, const char *end)
{
	int cols = 0;

	for (; s < end && *s; s++)
		cols += ((unsigned char)*s & 0xc0) != 0x80;
	return cols;
}

/* the columns @s takes on a terminal: UTF-8's continuation bytes take none */
static int text_cols(const char *s)
{
	return span_cols(s, s + strlen(s));
}

/* ---- layout ---- */

struct layout {
	int cw[MAX_COLS];	/* each column's cells' width */
	int w[MAX_COLS];	/* its width: a heading may widen it */
	bool shown[MAX_COLS];
	bool dropped_col[MAX_COLS];	/* to fit: not one without cells */
	int dropped;
};

/* whether column @c is glued to @head's group */
static bool in_group(const struct table *t, int head, int c)
{
	int k;

	for (k = head + 1; k <= c; k++)
		if (!t->col[k].glue)
			return false;
	return c >= head;
}

/* the width of the group column @c starts: it and the shown glued ones */
static int group_width(const struct table *t, const struct layout *l, int c)
{
	int k, w = l->w[c];

	for (k = c + 1; k < t->nr_cols && t->col[k].glue; k++)
		if (l->shown[k])
			w += 1 + l->w[k];
	return w;
}

/*
 * The shown columns' widths: their cells', a heading wider than its
 * group widening the group's first column
 */
static void widths(const struct table *t, struct layout *l)
{
	int c, head, gw;

	memcpy(l->w, l->cw, sizeof(l->w));
	for (c = 0; c < t->nr_cols; c++) {
		if (t->col[c].glue || !l->shown[c])
			continue;
		head = text_cols(t->col[c].head);
		gw = group_width(t, l, c);
		if (head > gw)
			l->w[c] += head - gw;
	}
}

/* the line's width, with @first columns for the first column */
static int line_width(const struct table *t, const struct layout *l,
		      int indent, int first)
{
	int c, w = indent, groups = 0;

	for (c = 0; c < t->nr_cols; c++) {
		if (!l->shown[c] || t->col[c].glue)
			continue;
		w += group_width(t, l, c) + (groups++ ? TABLE_SEP : 0);
		if (c == 0)
			w += first - l->w[0];
	}
	return w;
}

/* drops the column of the highest @drop, and what is glued to it */
static bool drop_one(const struct table *t, struct layout *l)
{
	int c, k, best = -1;

	for (c = 0; c < t->nr_cols; c++)
		if (l->shown[c] && t->col[c].drop &&
		    (best < 0 || t->col[c].drop > t->col[best].drop))
			best = c;
	if (best < 0)
		return false;	/* what is left is never cut */
	/* columns of one @drop go together: both sides' intervals */
	for (c = 0; c < t->nr_cols; c++) {
		if (!l->shown[c] || t->col[c].drop != t->col[best].drop)
			continue;
		l->dropped_col[c] = true;
		l->dropped++;
		for (k = c; k < t->nr_cols && in_group(t, c, k); k++)
			l->shown[k] = false;
	}
	return true;
}

static void layout(const struct table *t, int indent, int width,
		   int name_min, struct layout *l)
{
	int c, r, k, first, total;
	bool any;

	memset(l, 0, sizeof(*l));
	for (c = 0; c < t->nr_cols; c++) {
		l->shown[c] = true;
		for (r = 0; r < t->nr_rows; r++)
			if (text_cols(cell_of(t, r, c)) > l->cw[c])
				l->cw[c] = text_cols(cell_of(t, r, c));
	}
	/*
	 * a column that may drop, or has no heading, and has no cell is not
	 * shown (-v's, without -v); the others are, over no row at all too
	 */
	for (c = 0; c < t->nr_cols; c++) {
		if (t->col[c].glue || (!t->col[c].drop && t->col[c].head[0]))
			continue;
		for (k = c, any = false; k < t->nr_cols && in_group(t, c, k); k++)
			any = any || l->cw[k] > 0;
		for (k = c; k < t->nr_cols && in_group(t, c, k); k++)
			l->shown[k] = any && (k == c || l->cw[k] > 0);
	}
	for (;;) {
		widths(t, l);
		/* names wider than @name_min may go above their rows */
		first = name_min >= 0 && l->w[0] > name_min ? name_min : l->w[0];
		total = line_width(t, l, indent, first);
		if (!width || total <= width || !drop_one(t, l))
			break;
	}
	if (name_min < 0 || !width ||
	    line_width(t, l, indent, l->w[0]) <= width)
		return;
	/* the first column takes what the others leave, names wider go above */
	first = width - line_width(t, l, indent, 0);
	if (first < text_cols(t->col[0].head))
		first = text_cols(t->col[0].head);
	l->w[0] = text_cols(t->col[0].head);
	for (r = 0; r < t->nr_rows; r++)
		if (text_cols(cell_of(t, r, 0)) <= first &&
		    text_cols(cell_of(t, r, 0)) > l->w[0])
			l->w[0] = text_cols(cell_of(t, r, 0));
}

/* @s padded to @w columns, aligned, at @buf + *off */
static void put(char *buf, size_t len, size_t *off, const char *s, int w,
		bool left)
{
	int pad = w - text_cols(s);

	if (pad < 0)
		pad = 0;
	if (*off < len)
		*off += snprintf(buf + *off, len - *off, "%*s%s%*s",
				 left ? 0 : pad, "", s, left ? pad : 0, "");
}

/* row @r's shown cells, or the headings (@r < 0), after @off bytes */
static void put_cells(const struct table *t, const struct layout *l, int r,
		      bool blank_first, char *buf, size_t len, size_t off)
{
	int c, groups = 0;

	for (c = 0; c < t->nr_cols; c++) {
		/* a heading spans its glued columns */
		if (!l->shown[c] || (r < 0 && t->col[c].glue))
			continue;
		if (!t->col[c].glue && groups++)
			put(buf, len, &off, "", TABLE_SEP, true);
		else if (t->col[c].glue)
			put(buf, len, &off, "", 1, true);
		if (r < 0) {
			put(buf, len, &off, t->col[c].head,
			    group_width(t, l, c), t->col[c].left);
			continue;
		}
		put(buf, len, &off, c == 0 && blank_first ? "" : cell_of(t, r, c),
		    l->w[c], t->col[c].left);
	}
}

int table_print(const struct table *t, FILE *f, int indent, int width,
		int name_min)
{
	size_t len = 4096, off;
	struct layout l;
	bool above;
	char *buf;
	int r;

	buf = malloc(len);
	if (!buf)
		return 0;
	layout(t, indent, width, name_min, &l);
	for (r = -1; r < t->nr_rows; r++) {
		off = snprintf(buf, len, "%*s", indent, "");
		/* text to paste: a name too wide has its own line */
		above = r >= 0 && text_cols(cell_of(t, r, 0)) > l.w[0];
		if (above)
			fprintf(f, "%*s%s\n", indent, "", cell_of(t, r, 0));
		put_cells(t, &l, r, above, buf, len, off);
		buf[len - 1] = '\0';
		/* without its trailing spaces */
		for (off = strlen(buf); off > 0 && buf[off - 1] == ' '; off--)
			;
		fprintf(f, "%.*s\n", (int)off, buf);
	}
	if (t->oom)
		fprintf(f, "%*s(out of memory: cells or rows left out; --json has them)\n",
			indent, "");
	free(buf);
	return l.dropped;
}

static void fold_printf(FILE *f, int width, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fold_vprintf(f, width, fmt, ap);
	va_end(ap);
}

void table_print_fitted(const struct table *t, FILE *f, int width,
			int name_min)
{
	char buf[256] = "";
	struct layout l;
	size_t off = 0;
	int c;

	if (!table_print(t, f, 2, width, name_min))
		return;
	layout(t, 2, width, name_min, &l);
	for (c = 0; c < t->nr_cols && off < sizeof(buf); c++)
		if (l.dropped_col[c] && t->col[c].head[0])
			off += snprintf(buf + off, sizeof(buf) - off, "%s%s",
					off ? ", " : "", t->col[c].head);
	fold_printf(f, text_width(), "  (left out to fit %d columns: %s)",
		    width, buf);
}

/* ---- widths ---- */

/* stdout's terminal's columns; 0 when it is none */
static int terminal_columns(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) ||
	    !ws.ws_col)
		return 0;
	return ws.ws_col;
}

int table_width(bool verbose)
{
	int cols = terminal_columns();

	return cols ? cols : verbose ? 0 : TEXT_WIDTH;
}

int text_width(void)
{
	int cols = terminal_columns();

	return cols && cols < TEXT_WIDTH ? cols : TEXT_WIDTH;
}

/* ---- sentences ---- */

/*
 * @text on @f, folded between words to @width columns: the lines after
 * the first one indented four spaces more than @text is. A word wider
 * than a line is never cut.
 */
static void fold_text(FILE *f, int width, const char *text)
{
	int indent = strspn(text, " "), hang = indent + 4, col, words, cols;
	const char *p = text + indent, *word_end, *next;
	bool first = true;

	if (!*p) {
		fprintf(f, "%s\n", text);
		return;
	}
	while (*p) {
		/* one line: as many words as fit, at least one */
		col = first ? indent : hang;
		fprintf(f, "%*s", col, "");
		first = false;
		for (words = 0; *p; p = next, words++) {
			word_end = p + strcspn(p, " ");
			next = word_end + strspn(word_end, " ");
			cols = span_cols(p, word_end);
			if (words && col + 1 + cols > width)
				break;
			fprintf(f, "%s%.*s", words ? " " : "",
				(int)(word_end - p), p);
			col += (words ? 1 : 0) + cols;
		}
		fputc('\n', f);
	}
}

void fold_vprintf(FILE *f, int width, const char *fmt, va_list ap)
{
	char *text, *line, *nl;

	if (vasprintf(&text, fmt, ap) < 0)
		return;
	/* a text of several lines is folded line by line */
	for (line = text; line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (nl || *line)
			fold_text(f, width, line);
	}
	free(text);
}

void printf_folded(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fold_vprintf(stdout, text_width(), fmt, ap);
	va_end(ap);
}

/* ---- figures ---- */

/*
 * The decimals, 0 to 2, that @digits significant digits of @v take;
 * @none for 0 or no number
 */
static int decimals(double v, int digits, int none)
{
	int d;

	if (!(fabs(v) > 0) || !isfinite(v))
		return none;
	d = digits - 1 - (int)floor(log10(fabs(v)));
	return d < 0 ? 0 : d > 2 ? 2 : d;
}

void format_estimate(double value, double ci95, bool sign, char *value_buf,
		     size_t vlen, char *ci_buf, size_t clen)
{
	bool has_ci = isfinite(ci95);
	/* two significant digits of the interval; a figure alone, three */
	int d = has_ci ? decimals(ci95, 2, 2) : decimals(value, 3, 1);
	char ci[32];

	if (!isfinite(value)) {
		snprintf(value_buf, vlen, "-");
		if (ci_buf)
			snprintf(ci_buf, clen, "%s", "");
		return;
	}
	if (has_ci)
		snprintf(ci, sizeof(ci), "± %.*f", d, ci95);
	else
		snprintf(ci, sizeof(ci), "± -");
	if (ci_buf) {
		snprintf(value_buf, vlen, sign ? "%+.*f" : "%.*f", d, value);
		snprintf(ci_buf, clen, "%s", ci);
	} else {
		snprintf(value_buf, vlen, sign ? "%+.*f %s" : "%.*f %s", d,
			 value, ci);
	}
}

void format_share(double pct, char *buf, size_t len)
{
	if (!isfinite(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.*f%%", fabs(pct) < 9.95 ? 1 : 0, pct);
}

/* ---- a row's caveats: its marks, and their sentences for -v and JSON ---- */

/* the marks, in the order of the notes and of the legend */
enum mark_id {
	MARK_BELOW, MARK_BUDGET, MARK_MAX_UNITS, MARK_STATS, MARK_NOISY,
	MARK_OUTLIERS, MARK_FOREIGN, MARK_KERNEL_SKIPPED, MARK_RETRIED,
	MARK_SETTLE, MARK_PROG_STATS, MARK_HOOK, NR_MARKS
};

_Static_assert(NR_MARKS <= ROW_NOTES_MAX, "a row's notes fit ROW_NOTES_MAX");

/* each mark, and the legend's words for it after "16 rows " */
static const struct {
	char c;
	const char *legend;
} marks[NR_MARKS] = {
	[MARK_BELOW] = { '<', "measured faster than the base: a biased figure, never a cheaper program" },
	[MARK_BUDGET] = { 'b', "stopped at the row budget (%g s) before ±%g%%: --budget buys more" },
	[MARK_MAX_UNITS] = { 'm', "stopped at %d units before ±%g%%: --max-units buys more" },
	[MARK_STATS] = { 's', "ran with the kernel's BPF run-time stats on: their clock reads are in the figure" },
	[MARK_NOISY] = { 'n', "varied by more than %g%% (CV of ns per event) from sample to sample" },
	[MARK_OUTLIERS] = { 'o', "had outlying samples, kept in the figure" },
	[MARK_FOREIGN] = { 'f', "had more than %g%% of the loops' hits from other processes, never counted as ours" },
	[MARK_KERNEL_SKIPPED] = { 'k', "had program runs the kernel skipped, nested in an interrupt (Excused, below)" },
	[MARK_RETRIED] = { 'r', "had disturbed units or samples, run again" },
	[MARK_SETTLE] = { 'w', "had a go after %.0f ms of waiting for busy kernel threads on their CPUs" },
	[MARK_PROG_STATS] = { 'p', "got no --prog-stats figure" },
	[MARK_HOOK] = { 'h', "shared the hook with other BPF programs" },
};

/* sets note @id of @notes (@nr so far, room for NR_MARKS) */
static void note(struct row_note *notes, int *nr, enum mark_id id,
		 const char *fmt, ...)
{
	va_list ap;

	notes[*nr].mark = marks[id].c;
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

/* "bnr": the notes' marks, or "" */
static void row_marks(const struct bench_row *row,
		      const struct row_summary *s, char *buf, size_t len)
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
				count[m] += notes[k].mark == marks[m].c;
	}
}

/* the legend's words for mark @m, its figures filled in */
static void legend_text(const struct run_settings *rs, enum mark_id m,
			char *buf, size_t len)
{
	const char *fmt = marks[m].legend;

	switch (m) {
	case MARK_BUDGET:
		snprintf(buf, len, fmt, rs->row_budget_ns / 1e9,
			 100 * rs->precision);
		break;
	case MARK_MAX_UNITS:
		snprintf(buf, len, fmt, rs->max_units, 100 * rs->precision);
		break;
	case MARK_NOISY:
		snprintf(buf, len, fmt, 100 * NOISY_CV);
		break;
	case MARK_FOREIGN:
		snprintf(buf, len, fmt, 100 * FOREIGN_NOISY);
		break;
	case MARK_SETTLE:
		snprintf(buf, len, fmt, SETTLE_MAX_NS / 1e6);
		break;
	default:
		snprintf(buf, len, "%s", fmt);
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
			      marks[m].c, count[m], count[m] > 1 ? "s" : "",
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

/* ---- skipped rows, by reason: the summary says each reason once ---- */

void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len)
{
	size_t n = strlen(mode), off = 0;
	const char *p = reason;

	/* "fentry refused by ..." and "(kprobe_multi link: ...)": dropped */
	while (*p && off + 1 < len) {
		if ((p == reason || !word_char(p[-1])) &&
		    !strncmp(p, mode, n) && p[n] == ' ') {
			p += n + 1;
			continue;
		}
		buf[off++] = *p++;
	}
	buf[off] = '\0';
}

bool skip_group_has(const struct bench_rows *rows, const struct skip_group *g,
		    row_mode_fn mode, int i)
{
	char reason[REASON_LEN];

	if (rows->row[i].out.status != ST_SKIPPED)
		return false;
	skip_reason(rows->row[i].out.reason, mode(&rows->row[i]), reason,
		    sizeof(reason));
	return !strcmp(reason, g->reason);
}

int skip_groups(const struct bench_rows *rows, const bool *in,
		row_mode_fn mode, struct skip_group **groups)
{
	struct skip_group *g = NULL, *grown;
	char reason[REASON_LEN];
	int i, k, nr = 0;

	for (i = 0; i < rows->nr; i++) {
		if (rows->row[i].out.status != ST_SKIPPED || (in && !in[i]))
			continue;
		skip_reason(rows->row[i].out.reason, mode(&rows->row[i]),
			    reason, sizeof(reason));
		for (k = 0; k < nr && strcmp(g[k].reason, reason); k++)
			;
		if (k == nr) {
			grown = realloc(g, (nr + 1) * sizeof(*g));
			if (!grown) {
				free(g);
				return -ENOMEM;
			}
			g = grown;
			g[nr].first = i;
			g[nr].nr = 0;
			g[nr].modes = false;
			snprintf(g[nr++].reason, REASON_LEN, "%s", reason);
		}
		g[k].nr++;
		if (strcmp(mode(&rows->row[i]), mode(&rows->row[g[k].first])))
			g[k].modes = true;
	}
	*groups = g;
	return nr;
}

const char *skip_group_reason(const struct bench_rows *rows,
			      const struct skip_group *g)
{
	/* "no tracepoint ..." of a tracepoint row keeps its word */
	return g->modes ? g->reason : rows->row[g->first].out.reason;
}

/* the row's column that is not its mode: an event, or a map test */
static const char *row_other(const struct bench_row *row, row_mode_fn mode)
{
	return mode(row) == row->name ? row->variant : row->name;
}

void skip_group_label(const struct bench_rows *rows, const bool *in,
		      const struct skip_group *g, row_mode_fn mode,
		      row_mode_fn mode_of, char *buf, size_t len)
{
	const struct bench_row *first = &rows->row[g->first];
	const char *other = row_other(first, mode), *seen[32];
	char params[64];
	int i, k, nr_seen = 0;
	size_t off = 0;

	if (g->nr == 1 && !mode_of) {
		format_params(first, params, sizeof(params));
		snprintf(buf, len, "%s %s%s", first->name, first->variant,
			 params);
		return;
	}
	buf[0] = '\0';
	for (i = g->first; i < rows->nr && off < len; i++) {
		const struct bench_row *row = &rows->row[i];

		if ((in && !in[i]) || !skip_group_has(rows, g, mode, i))
			continue;
		if (other && strcmp(row_other(row, mode), other))
			other = NULL;
		/* each mode once, where it first comes */
		for (k = 0; k < nr_seen && strcmp(seen[k], mode(row)); k++)
			;
		if (k < nr_seen)
			continue;
		if (nr_seen < 32)
			seen[nr_seen++] = mode(row);
		off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
				(mode_of ?: mode)(row));
	}
	if (other && off < len)
		off += snprintf(buf + off, len - off, " %s", other);
	if (g->nr > 1 && off < len)
		snprintf(buf + off, len - off, " (%d rows)", g->nr);
}

void print_skip_groups(const struct bench_rows *rows, row_mode_fn mode)
{
	struct skip_group *g;
	char label[256];
	int i, nr, skipped = 0;

	nr = skip_groups(rows, NULL, mode, &g);
	for (i = 0; i < nr; i++)
		skipped += g[i].nr;
	if (nr > 0)
		printf("Skipped (%d row%s; --json gives each its reason):\n",
		       skipped, skipped > 1 ? "s" : "");
	for (i = 0; i < nr; i++) {
		skip_group_label(rows, NULL, &g[i], mode, NULL, label,
				 sizeof(label));
		printf_folded("  %s: %s", label, skip_group_reason(rows, &g[i]));
	}
	if (nr > 0)
		free(g);
	else if (nr < 0)
		printf("Skipped: some rows (out of memory to list them; --json has them)\n");
}

/* ---- the summary table, and the short form to paste ---- */

/*
 * The CPU a reason names ("... on CPU 1 ...", "CPU 0: ..."): every check
 * that fails a row on one CPU says so in those words. -1 for none.
 */
static int reason_cpu(const char *reason)
{
	const char *p;

	for (p = strstr(reason, "CPU "); p; p = strstr(p + 1, "CPU "))
		if ((p == reason || !word_char(p[-1])) && p[4] >= '0' &&
		    p[4] <= '9')
			return atoi(p + 4);
	return -1;
}

/*
 * What the checks say of a row, for the table: "verified" (ok, and its
 * counts were checked: @checked), "ok" (nothing to check: a base),
 * "disturbed", "FAILED CPU 1" (the CPU its reason names, if one)
 */
static void row_verdict(const struct run_settings *rs,
			const struct bench_row *row, bool checked, char *buf,
			size_t len)
{
	int cpu;

	switch (row->out.status) {
	case ST_OK:
		/* a test fault may have changed what the checks saw */
		snprintf(buf, len, "%s", !checked ? "ok" :
			 run_fault(rs)->kind ? "unverified" : "verified");
		break;
	case ST_FAILED:
		cpu = reason_cpu(row->out.reason);
		if (cpu >= 0)
			snprintf(buf, len, "FAILED CPU %d", cpu);
		else
			snprintf(buf, len, "FAILED");
		break;
	default:
		snprintf(buf, len, "%s", status_name(row->out.status));
	}
}

int summary_row(const struct run_settings *rs, struct table *t,
		const struct bench_row *row, const char *name,
		const char *variant, bool checked, row_figure_fn figure,
		struct row_summary *s)
{
	char a[64], b[64];
	struct row_figure f;
	int i = table_add_row(t);

	table_set(t, i, SUMMARY_NAME, "%s", name);
	table_set(t, i, SUMMARY_VARIANT, "%s", variant);
	row_verdict(rs, row, checked, a, sizeof(a));
	table_set(t, i, SUMMARY_VERDICT, "%s", a);
	if (!row_has_figure(row)) {
		table_set(t, i, SUMMARY_FIGURE, "-");
		return -1;
	}
	row_summarize(row, s);
	figure(row, s, &f);
	format_estimate(f.value, f.ci95, f.sign, a, sizeof(a), b, sizeof(b));
	table_set(t, i, SUMMARY_FIGURE, "%s", a);
	table_set(t, i, SUMMARY_CI, "%s", b);
	format_share(f.share_pct, a, sizeof(a));
	/* -v: the share's interval, to the share's own decimals */
	if (rs->verbosity > 1 && isfinite(f.share_pct) &&
	    isfinite(s->share.ci95))
		snprintf(a + strlen(a), sizeof(a) - strlen(a), " ± %.*f",
			 fabs(f.share_pct) < 9.95 ? 1 : 0, s->share.ci95);
	/* a row whose base has no figure has no overhead either */
	table_set(t, i, SUMMARY_SHARE, "%s", !s->has_overhead && row->base &&
		  row->base != row ? "no base" : a);
	row_marks(row, s, a, sizeof(a));
	table_set(t, i, SUMMARY_NOTES, "%s", a);
	if (rs->verbosity > 1) {
		table_set(t, i, SUMMARY_RATE, "%.3fM", s->rate.mean / 1e6);
		table_set(t, i, SUMMARY_RATE_SD, "± %.3fM",
			  s->rate.stddev / 1e6);
	}
	return i;
}

/* a line of text to paste: on two, "name :" then the rest, when too wide */
static void short_line(const char *name, int pad, const char *rest)
{
	int cols = text_cols(name);

	if (cols + 3 + text_cols(rest) > PASTE_WIDTH)
		printf("%s :\n    %s\n", name, rest);
	else
		printf("%s%*s : %s\n", name, pad > cols ? pad - cols : 0, "",
		       rest);
}

/* names wider than this are not padded to the others' width */
#define SHORT_NAME_PAD	30

void print_short(const struct run_settings *rs, const struct bench_rows *rows,
		 row_figure_fn figure)
{
	char name[256], rest[256], value[64], share[32];
	struct row_summary s;
	struct row_figure f;
	int i, pad = 0, cols;

	for (i = 0; i < rows->nr; i++) {
		if (rows->row[i].out.status == ST_SKIPPED)
			continue;
		format_row_name(&rows->row[i], name, sizeof(name));
		cols = text_cols(name);
		if (cols > pad && cols <= SHORT_NAME_PAD)
			pad = cols;
	}
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (row->out.status == ST_SKIPPED)
			continue;
		format_row_name(row, name, sizeof(name));
		if (!row_has_figure(row)) {
			row_verdict(rs, row, false, value, sizeof(value));
			snprintf(rest, sizeof(rest), "%s, no figure", value);
			short_line(name, pad, rest);
			continue;
		}
		row_summarize(row, &s);
		figure(row, &s, &f);
		format_estimate(f.value, f.ci95, f.sign, value, sizeof(value),
				NULL, 0);
		format_share(f.share_pct, share, sizeof(share));
		snprintf(rest, sizeof(rest), isfinite(f.share_pct) ?
			 "%s %s (%s of base)" : "%s %s", value, f.unit, share);
		short_line(name, pad, rest);
	}
}

void print_table(struct table *t, bool verbose)
{
	table_print_fitted(t, stdout, table_width(verbose), NAMES_WHOLE);
}

/* one string the families print as it is (bench.h): asked once, kept */
const char *libbpf_version_text(void)
{
	char *text = probe_cache.libbpf_version;
	size_t len = sizeof(probe_cache.libbpf_version);
	unsigned int major = libbpf_major_version();
	unsigned int minor = libbpf_minor_version();

	if (text[0])
		return text;
	if (major == LIBBPF_MAJOR_VERSION && minor == LIBBPF_MINOR_VERSION)
		snprintf(text, len, "%u.%u", major, minor);
	else
		snprintf(text, len, "%u.%u (built against %u.%u)",
			 major, minor, LIBBPF_MAJOR_VERSION,
			 LIBBPF_MINOR_VERSION);
	return text;
}
