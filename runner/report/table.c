// SPDX-License-Identifier: GPL-2.0
/*
 * The summaries' layout. A table's columns are as wide as their widest
 * cell; on a terminal narrower than the table, whole columns drop out in
 * the order the table gives (never a row's name, figure or verdict), as
 * perf's and bpftool's tables keep their lines whole instead of letting
 * the terminal wrap them. Sentences (reasons, the legend) fold between
 * words. A figure is shown to the precision its interval gives it.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "report/report.h"

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

int text_cols(const char *s)
{
	return span_cols(s, s + strlen(s));
}

/* ---- layout ---- */

struct layout {
	int cw[MAX_COLS];	/* each column's cells' width */
	int w[MAX_COLS];	/* its width: a heading may widen it */
	bool shown[MAX_COLS];
	bool dropped_col[MAX_COLS];	/* to fit: not one without cells */
	int sep;
	int total;		/* the line's columns, the indent's too */
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
		w += group_width(t, l, c) + (groups++ ? l->sep : 0);
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
	int c, r, k, first;
	bool any;

	memset(l, 0, sizeof(*l));
	l->sep = TABLE_SEP;
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
		l->total = line_width(t, l, indent, first);
		if (!width || l->total <= width || !drop_one(t, l))
			break;
	}
	l->total = line_width(t, l, indent, l->w[0]);
	if (name_min < 0 || !width || l->total <= width)
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
	l->total = line_width(t, l, indent, l->w[0]);
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

/* a line without its trailing spaces */
static void put_line(FILE *f, char *buf, size_t off)
{
	while (off > 0 && buf[off - 1] == ' ')
		off--;
	buf[off] = '\0';
	fprintf(f, "%s\n", buf);
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
			put(buf, len, &off, "", l->sep, true);
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
	char *buf;
	int r;

	buf = malloc(len);
	if (!buf)
		return 0;
	layout(t, indent, width, name_min, &l);
	for (r = -1; r < t->nr_rows; r++) {
		off = snprintf(buf, len, "%*s", indent, "");
		if (r >= 0 && text_cols(cell_of(t, r, 0)) > l.w[0]) {
			/* text to paste: a name too wide has its own line */
			fprintf(f, "%*s%s\n", indent, "", cell_of(t, r, 0));
			put_cells(t, &l, r, true, buf, len, off);
		} else {
			put_cells(t, &l, r, false, buf, len, off);
		}
		buf[len - 1] = '\0';
		put_line(f, buf, strlen(buf));
	}
	if (t->oom)
		fprintf(f, "%*s(out of memory: cells or rows left out; --json has them)\n",
			indent, "");
	free(buf);
	return l.dropped;
}

void table_dropped(const struct table *t, int indent, int width,
		   int name_min, char *buf, size_t len)
{
	struct layout l;
	size_t off = 0;
	int c;

	buf[0] = '\0';
	layout(t, indent, width, name_min, &l);
	for (c = 0; c < t->nr_cols && off < len; c++)
		if (l.dropped_col[c] && t->col[c].head[0])
			off += snprintf(buf + off, len - off, "%s%s",
					off ? ", " : "", t->col[c].head);
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

void fold_text(FILE *f, int width, const char *text)
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

/* the decimals two significant digits of @ci take, 0 to 2 */
static int ci_decimals(double ci)
{
	int d;

	if (!(ci > 0) || !isfinite(ci))
		return 2;
	d = 1 - (int)floor(log10(ci));
	return d < 0 ? 0 : d > 2 ? 2 : d;
}

/* a figure alone: three significant digits, 0 to 2 decimals */
static int value_decimals(double v)
{
	int d;

	if (!(fabs(v) > 0) || !isfinite(v))
		return 1;
	d = 2 - (int)floor(log10(fabs(v)));
	return d < 0 ? 0 : d > 2 ? 2 : d;
}

void format_estimate(double value, double ci95, bool sign, char *value_buf,
		     size_t vlen, char *ci_buf, size_t clen)
{
	bool has_ci = isfinite(ci95);
	int d = has_ci ? ci_decimals(ci95) : value_decimals(value);
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
