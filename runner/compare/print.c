// SPDX-License-Identifier: GPL-2.0
/*
 * What a compare says: the table (the files and their differences, a line
 * per row compared, the rows not compared, left out or duplicated, the
 * summary lines: all of stdout but with --json -), what is said of a row
 * not compared, and the verdicts as JSON (--compare --json FILE), as
 * COMPARE_SCHEMA:
 *
 * {
 *   "schema": "bpf-bench-compare/1",
 *   "alpha": 0.05,
 *   "files": { "A": [ "a1.json", ... ], "B": [ ... ] },
 *   "ignored_params": [ "progs" ],
 *   "fail_on_regression_pct": null | 5,
 *   "summary": { "compared": 3, "slower": 1, "faster": 0,
 *		  "no_change": 1, "cannot_tell": 1, "not_compared": 2,
 *		  "regressions": 1 },
 *   "context_differences": [ { "key": "online_cpus",
 *     "within": null | "A" | "B",	null: between the sides
 *     "expected": false,		true: a kernel's, between sides
 *     "values": [ { "side": "A", "file": "...", "value": 2 }, ... ] } ],
 *   "rows": [ {				one per identity in both
 *     "name": "raw_tp", "variant": "getpgid",
 *     "params": "progs=4",		the identity's, "" for none
 *     "quantity": "overhead_ns",
 *     "observation": "round" | "run",	a file's round, or a whole file
 *     "a": { "files": 2, "n": 8, "mean": 22.1, "ci95": 0.6 },
 *     "b": { ... },
 *     "delta": 2.0, "delta_ci95": 0.8,	B - A, ns
 *     "delta_pct": 9.0 | null,		of A's mean; null when it is <= 0
 *     "p": 0.0001 | null,		the ns' test's
 *     "verdict": "slower" | "faster" | "no significant change" |
 *		  "cannot tell",		the test verdict_on names
 *     "threshold_pct": 7, "within_threshold": false,	of that figure
 *     "regression": false,		slower by more than the
 *					fail_on_regression_pct of it
 *     "verdict_on": "overhead_share" | "overhead_ns" | "ns_per_event",
 *		the figure the verdict tested; delta to p stay the ns'
 *     "share": null | {			an overhead row's share of its
 *       "a": { "n": 8, "mean": 35.2, "ci95": 1.1 },	base, in %
 *       "b": { ... },
 *       "delta": 0.4, "delta_ci95": 1.5,	B - A, points of %
 *       "delta_pct": 1.1 | null,		of A's share
 *       "p": 0.6 | null,
 *       "verdict": "no significant change" } } ],	the share's own:
 *					the row's on overhead_share
 *   "not_compared": [ { "name", "variant", "params",
 *     "kind": "only_in_a" | "only_in_b" | "not_ok" | "no_units" |
 *	       "unknown_quantity" | "quantity_mixed" | "quantity_differs",
 *     "reason": "..." } ],		as the table says it
 *   "left_out": [ { "side", "file", "name", "variant", "params",
 *		     "reason" } ],	rows of a file not pooled
 *   "duplicates": [ { "side", "file", "name", "variant", "params",
 *		       "kept": 0, "ignored": 2 } ]
 * }
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "core/core.h"
#include "compare/compare.h"

/* what became of a row the pool did not take, shown */
static const char *row_state(const struct row *r, char *buf, size_t len)
{
	char status[NAME_SHOWN], text[LONG_SHOWN];

	if (!r->ok)
		snprintf(buf, len, "%s (%s)",
			 shown(status, sizeof(status), r->status),
			 r->reason ? shown(text, sizeof(text), r->reason) :
				     "no reason given");
	else if (!r->quantity)
		snprintf(buf, len, "ok, without units (a file from before units were written)");
	else if (!r->units.n)
		snprintf(buf, len, "ok, no units (units.values is empty)");
	else if (!poolable(r))
		snprintf(buf, len, "ok, units of '%s', no cost this compare knows",
			 shown(text, NAME_SHOWN, r->quantity));
	else
		snprintf(buf, len, "ok, %d units of %s", r->units.n,
			 shown(text, NAME_SHOWN, r->quantity));
	return buf;
}

/* a side's pool of an identity, or why it has none */
static const char *group_state(const struct group *g, char *buf, size_t len)
{
	char q[NAME_SHOWN], other[NAME_SHOWN];
	const struct row *r;
	int i;

	if (g->mixed) {
		for (i = 0; i < g->nr; i++) {
			r = g->rows[i];
			if (poolable(r) && strcmp(r->quantity, g->quantity))
				break;
		}
		snprintf(buf, len, "units of %s in one file, of %s in another",
			 shown(q, sizeof(q), g->quantity),
			 shown(other, sizeof(other), g->rows[i]->quantity));
	} else if (g->nr_pooled) {
		snprintf(buf, len, "ok, %d units of %s from %d file%s",
			 g->pool.n, shown(q, sizeof(q), g->quantity),
			 g->nr_pooled, g->nr_pooled > 1 ? "s" : "");
	} else {
		row_state(g->rows[0], buf, len);
	}
	return buf;
}

/* why an entry got no verdict, as the table and the JSON say it */
static const char *entry_reason(const struct entry *e, char *buf,
				size_t len)
{
	char a[STATE_LEN], b[STATE_LEN];

	if (e->why == WHY_ONLY_A || e->why == WHY_ONLY_B)
		snprintf(buf, len, "only in %s", e->a ? "A" : "B");
	else
		snprintf(buf, len, "A %s; B %s",
			 group_state(e->a, a, sizeof(a)),
			 group_state(e->b, b, sizeof(b)));
	return buf;
}

/* a context value as text, for display */
static const char *value_text(const json_t *v, char *buf, size_t len)
{
	if (!v)
		return "(missing)";
	switch (json_typeof(v)) {
	case JSON_NULL:
		return "null";
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_INTEGER:
	case JSON_REAL:
		snprintf(buf, len, "%.15g", json_number_value(v));
		return buf;
	case JSON_STRING:
		return shown(buf, len, json_string_value(v));
	case JSON_ARRAY:
		return "array";
	default:
		return "object";
	}
}

/* a line of text, folded to text_width(), or to paste to PASTE_WIDTH */
static void __attribute__((format(printf, 3, 4)))
fold_line(FILE *out, const struct compare *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fold_vprintf(out, c->args->paste ? PASTE_WIDTH : text_width(), fmt, ap);
	va_end(ap);
}

/* a string of @obj, shown, or "?" */
static const char *field_text(const json_t *obj, const char *key, char *buf,
			      size_t len)
{
	const char *s = get_string(obj, key);

	return s ? shown(buf, len, s) : "?";
}

/* what any_compared() asks of the compared rows */
enum any { ANY_SHARE, ANY_ON_SHARE, ANY_WIDENED };

/*
 * Whether a compared row has its share of the base on both sides
 * (ANY_SHARE), a verdict that rests on it (ANY_ON_SHARE), or a threshold
 * that took the base rows' shift in (ANY_WIDENED)
 */
static bool any_compared(const struct compare *c, enum any what)
{
	const struct entry *e;

	for (e = c->entries; e < c->entries + c->nr_entries; e++)
		if (e->why == WHY_NONE &&
		    (what == ANY_SHARE ? e->has_share :
		     what == ANY_ON_SHARE ? e->on_share :
		     e->threshold_pct != c->args->threshold_pct))
			return true;
	return false;
}

static void print_headers(FILE *out, const struct compare *c)
{
	char path[LONG_SHOWN], tool[NAME_SHOWN], kernel[NAME_SHOWN];
	char when[NAME_SHOWN], key[NAME_SHOWN], keys[1024];
	const struct bench_file *f;
	const struct side *s;
	size_t off;
	int i;

	for (s = c->side; s < c->side + 2; s++)
		for (f = s->files; f < s->files + s->nr_files; f++)
			fold_line(out, c, "%s: %s (%s, kernel %s, %s)", s->label,
				  shown(path, sizeof(path), f->path),
				  field_text(f->context, "tool", tool, sizeof(tool)),
				  field_text(f->context, "kernel_release", kernel,
					     sizeof(kernel)),
				  field_text(f->context, "timestamp", when,
					     sizeof(when)));
	fold_line(out, c, "Welch's t-test of B's units against A's, each side's files pooled (a round's units as one), at %.0f%% confidence; a change within %g%% of A or %g ns is none.",
		  (1 - COMPARE_ALPHA) * 100, c->args->threshold_pct,
		  COMPARE_FLOOR_NS);
	fold_line(out, c, "Figures are costs in ns per event, a base row's own, any other row's overhead over its base (+): higher is slower.");
	if (any_compared(c, ANY_SHARE))
		fold_line(out, c, "share: how an overhead's share of its base changed, of A's share (each unit's overhead over its own base).");
	if (any_compared(c, ANY_ON_SHARE))
		fold_line(out, c, "Verdicts on overhead rows: their share of the base, where both sides have it (a change within %g%% of A's share, or within %g ns, is none); on base rows: their ns.",
			  c->args->threshold_pct, COMPARE_FLOOR_NS);
	if (!c->args->nr_ignore)
		return;
	for (i = 0, off = 0; i < c->args->nr_ignore && off < sizeof(keys); i++)
		off += snprintf(keys + off, sizeof(keys) - off, "%s %s",
				i ? "," : "",
				shown(key, sizeof(key), c->args->ignore[i]));
	fold_line(out, c, "Rows matched ignoring the params%s", keys);
}

static void print_context(FILE *out, const struct compare *c)
{
	char path[2][LONG_SHOWN], text[2][NAME_SHOWN];
	const struct ctx_diff *d;
	const char *t[2];
	int j;

	for (d = c->diffs; d < c->diffs + c->nr_diffs; d++) {
		for (j = 0; j < 2; j++)
			t[j] = value_text(json_object_get(d->f[j]->context,
							  d->key),
					  text[j], NAME_SHOWN);
		if (d->within)
			fold_line(out, c, "context differs within %s: %s: %s %s, %s %s",
				  d->within, d->key,
				  shown(path[0], LONG_SHOWN, d->f[0]->path), t[0],
				  shown(path[1], LONG_SHOWN, d->f[1]->path), t[1]);
		else
			fold_line(out, c, "%s: %s: A %s, B %s", d->expected ?
				  "kernel differs (expected when comparing kernels)" :
				  "context differs", d->key, t[0], t[1]);
	}
}

/* what the table calls a verdict */
static const char *entry_verdict(const struct entry *e)
{
	const struct change *j = judged(e);

	if (!j->w.decidable)
		return "cannot tell";
	return j->v == V_SLOWER ? "slower" : j->v == V_FASTER ? "faster" :
	       "no change";
}

/*
 * The table's columns. The row, A, B, the change and the verdict stay
 * whatever the terminal; on a narrower one (or past TEXT_WIDTH) the
 * others go, the highest @drop first: an overhead's share of its base's
 * change (which the verdict line above the table names when a verdict
 * rests on it), -v's units, p, then B - A.
 */
enum {
	COL_ROW, COL_A, COL_A_CI, COL_B, COL_B_CI, COL_DELTA, COL_DELTA_CI,
	COL_CHANGE, COL_SHARE, COL_P, COL_VERDICT, COL_UNITS, NR_COLS
};

static const struct table_col columns[NR_COLS] = {
	[COL_ROW] = { "row", .left = true },
	[COL_A] = { "A ns ± 95%" },
	[COL_A_CI] = { "", .left = true, .glue = true },
	[COL_B] = { "B ns ± 95%" },
	[COL_B_CI] = { "", .left = true, .glue = true },
	[COL_DELTA] = { "B-A ± 95%", .drop = 2 },
	[COL_DELTA_CI] = { "", .left = true, .glue = true },
	[COL_CHANGE] = { "change" },
	[COL_SHARE] = { "share", .drop = 5 },
	[COL_P] = { "p", .drop = 3 },
	[COL_VERDICT] = { "verdict", .left = true },
	[COL_UNITS] = { "units A/B", .drop = 4 },
};

/*
 * Text to paste (--format short), at most PASTE_WIDTH columns: the row,
 * A, B, the change and the verdict; the intervals go first when the
 * lines would be wider, then a row's name takes a line of its own
 */
static const struct table_col paste_columns[NR_COLS] = {
	[COL_ROW] = { "row", .left = true },
	[COL_A] = { "A" },
	[COL_A_CI] = { "", .left = true, .glue = true, .drop = 1 },
	[COL_B] = { "B" },
	[COL_B_CI] = { "", .left = true, .glue = true, .drop = 1 },
	[COL_DELTA] = { "" },
	[COL_DELTA_CI] = { "", .glue = true },
	[COL_CHANGE] = { "change" },
	[COL_SHARE] = { "" },
	[COL_P] = { "" },
	[COL_VERDICT] = { "verdict", .left = true },
	[COL_UNITS] = { "" },
};

/* "+182" and "± 52" of a side, an overhead with its sign */
static void side_cells(struct table *t, int i, int col,
		       const struct sample_stats *st, double ci95, bool sign)
{
	char value[32], ci[32];

	if (!st->n) {
		table_set(t, i, col, "-");
		return;
	}
	format_estimate(st->mean, ci95, sign, value, sizeof(value), ci,
			sizeof(ci));
	table_set(t, i, col, "%s", value);
	table_set(t, i, col + 1, "%s", ci);
}

static void add_entry(struct table *t, const struct entry *e, bool paste)
{
	char a[32], b[32];
	bool overhead = !strcmp(e->a->quantity, "overhead_ns");
	struct label l;
	int i = table_add_row(t);

	row_shown(e->a->rows[0], &l);
	table_set(t, i, COL_ROW, "%s %s", l.name, l.variant);
	side_cells(t, i, COL_A, &e->ns.st_a, e->ns.ci95_a, overhead);
	side_cells(t, i, COL_B, &e->ns.st_b, e->ns.ci95_b, overhead);
	format_share(e->ns.delta_pct, a, sizeof(a));
	table_set(t, i, COL_CHANGE, "%s", a);
	table_set(t, i, COL_VERDICT, "%s", entry_verdict(e));
	if (paste)
		return;
	if (isnan(e->ns.delta)) {
		table_set(t, i, COL_DELTA, "-");
	} else {
		format_estimate(e->ns.delta, e->ns.delta_ci95, true, a, sizeof(a),
				b, sizeof(b));
		table_set(t, i, COL_DELTA, "%s", a);
		table_set(t, i, COL_DELTA_CI, "%s", b);
	}
	/* the share of the base's change, of A's share: overhead rows */
	if (e->has_share) {
		format_share(e->share.delta_pct, a, sizeof(a));
		table_set(t, i, COL_SHARE, "%s", a);
	}
	if (!e->ns.w.decidable || isnan(e->ns.w.p))
		table_set(t, i, COL_P, "-");
	else if (e->ns.w.p < 1e-4)
		table_set(t, i, COL_P, "<0.0001");
	else
		table_set(t, i, COL_P, "%.4f", e->ns.w.p);
	if (verbosity > 1)
		table_set(t, i, COL_UNITS, "%d/%d%s", e->ns.st_a.n,
			  e->ns.st_b.n, e->by_run ? " runs" : "");
}

/* the compared rows' table, to fit stdout's terminal, or to paste */
static void print_verdicts(FILE *out, const struct compare *c)
{
	bool paste = c->args->paste;
	int width = paste ? PASTE_WIDTH : table_width(verbosity > 1);
	int names = paste ? PASTE_NAME_MIN : NAMES_ABOVE;
	const struct entry *e;
	struct table t;
	struct label l;

	table_init(&t, paste ? paste_columns : columns, NR_COLS);
	for (e = c->entries; e < c->entries + c->nr_entries; e++)
		if (e->why == WHY_NONE)
			add_entry(&t, e, paste);
	/* a row's name too wide for the terminal goes above its figures */
	if (paste)
		table_print(&t, out, 0, width, names);
	else
		table_print_fitted(&t, out, width, names);
	table_free(&t);
	for (e = c->entries; !paste && e < c->entries + c->nr_entries; e++) {
		if (e->why != WHY_NONE || judged(e)->w.decidable)
			continue;
		row_shown(e->a->rows[0], &l);
		fold_line(out, c, "cannot tell: %s %s: fewer than 2 units in %s",
			  l.name, l.variant, e->ns.st_a.n < 2 && e->ns.st_b.n < 2 ?
			  "A and B" : e->ns.st_a.n < 2 ? "A" : "B");
	}
}

/* ---- the rows not compared ---- */

/* groups of rows skipped alike made at most; the others said one by one */
#define SKIP_GROUPS_MAX	64
#define SKIP_MODES_MAX	32

/*
 * Rows skipped on both sides for one reason, their mode's name aside
 * ("fentry refused by ...", "fexit refused by ..."): said once, as a run
 * says its skipped rows
 */
struct skip_both {
	char reason[LONG_SHOWN];	/* shown, its mode's name out */
	const struct entry *first;
	int nr;
	const char *mode[SKIP_MODES_MAX];	/* each once, in order */
	int nr_modes;
	bool one_other;		/* its rows share the first's other half */
};

/* a row's mode: test_overhead's name, map_perf_test's variant */
static const char *row_mode(const struct compare *c, const struct row *r)
{
	const char *tool = get_string(c->side[SIDE_A].files[0].context,
				      "tool");

	return tool && !strcmp(tool, "map_perf_test") ? r->variant : r->name;
}

/* the half of a row's name that is not its mode: an event, a test */
static const char *row_other(const struct compare *c, const struct row *r)
{
	return row_mode(c, r) == r->name ? r->variant : r->name;
}

/*
 * @e's reason without its mode's name, shown, if both sides skipped it
 * alike; else false
 */
static bool skipped_alike(const struct compare *c, const struct entry *e,
			  char *buf, size_t len)
{
	char a[LONG_SHOWN], b[LONG_SHOWN];
	const struct row *ra, *rb;

	if (e->why != WHY_NOT_OK || e->a->nr_pooled || e->b->nr_pooled)
		return false;
	ra = e->a->rows[0];
	rb = e->b->rows[0];
	if (strcmp(ra->status, "skipped") || strcmp(rb->status, "skipped") ||
	    !ra->reason || !rb->reason)
		return false;
	skip_reason(ra->reason, row_mode(c, ra), a, sizeof(a));
	skip_reason(rb->reason, row_mode(c, rb), b, sizeof(b));
	if (strcmp(a, b))
		return false;
	shown(buf, len, a);
	return true;
}

static void skip_both_add(const struct compare *c, struct skip_both *g,
			  const struct entry *e)
{
	const struct row *r = e->a->rows[0], *first = g->first->a->rows[0];
	int k;

	g->nr++;
	g->one_other = g->one_other &&
		       !strcmp(row_other(c, r), row_other(c, first));
	for (k = 0; k < g->nr_modes && strcmp(g->mode[k], row_mode(c, r)); k++)
		;
	if (k == g->nr_modes && k < SKIP_MODES_MAX)
		g->mode[g->nr_modes++] = row_mode(c, r);
}

/*
 * "fentry, fexit (22 rows)", "tracepoint urandom_read": the group's
 * modes, and the other half of their names where they share it
 */
static void skip_both_line(FILE *out, const struct compare *c,
			   const struct skip_both *g)
{
	const struct row *first = g->first->a->rows[0];
	char label[1024], text[NAME_SHOWN], reason[LONG_SHOWN];
	size_t off = 0;
	int k;

	for (k = 0; k < g->nr_modes && off < sizeof(label); k++)
		off += snprintf(label + off, sizeof(label) - off, "%s%s",
				k ? ", " : "",
				shown(text, sizeof(text), g->mode[k]));
	if (g->one_other && off < sizeof(label))
		off += snprintf(label + off, sizeof(label) - off, " %s",
				shown(text, sizeof(text), row_other(c, first)));
	if (g->nr > 1 && off < sizeof(label))
		snprintf(label + off, sizeof(label) - off, " (%d rows)", g->nr);
	/* one mode's reason keeps its name: "no tracepoint ..." */
	fold_line(out, c, "skipped in A and B: %s: %s", label, g->nr_modes > 1 ?
		  g->reason : shown(reason, sizeof(reason), first->reason));
}

/*
 * The groups of the entries skipped alike (@gof: each entry's, -1 for
 * none), printed: how many
 */
static int print_skipped_both(FILE *out, const struct compare *c, int *gof)
{
	struct skip_both *g = calloc(SKIP_GROUPS_MAX, sizeof(*g));
	char reason[LONG_SHOWN];
	int i, k, nr = 0;

	for (i = 0; i < c->nr_entries; i++) {
		gof[i] = -1;
		if (!g || !skipped_alike(c, &c->entries[i], reason,
					 sizeof(reason)))
			continue;
		for (k = 0; k < nr && strcmp(g[k].reason, reason); k++)
			;
		if (k == SKIP_GROUPS_MAX)
			continue;	/* said on its own */
		if (k == nr) {
			snprintf(g[k].reason, sizeof(g[k].reason), "%s",
				 reason);
			g[k].first = &c->entries[i];
			g[k].one_other = true;
			nr++;
		}
		skip_both_add(c, &g[k], &c->entries[i]);
		gof[i] = k;
	}
	for (k = 0; k < nr; k++)
		skip_both_line(out, c, &g[k]);
	free(g);
	return nr;
}

static void print_entries(FILE *out, const struct compare *c)
{
	int *gof = calloc(c->nr_entries ?: 1, sizeof(*gof));
	char reason[REASON_LEN_MAX];
	const struct entry *e;
	struct label l;

	fputc('\n', out);
	print_verdicts(out, c);
	if (!c->nr_compared)
		fprintf(out, "  (no row has units to compare on both sides)\n");
	/* without memory for the groups, every row is said on its own */
	if (gof)
		print_skipped_both(out, c, gof);
	for (e = c->entries; e < c->entries + c->nr_entries; e++) {
		if (e->why == WHY_NONE || (gof && gof[e - c->entries] >= 0))
			continue;
		row_shown((e->a ? e->a : e->b)->rows[0], &l);
		if (e->why == WHY_ONLY_A || e->why == WHY_ONLY_B)
			fold_line(out, c, "only in %s: %s %s", e->a ? "A" : "B",
				  l.name, l.variant);
		else
			fold_line(out, c, "not compared: %s %s: %s", l.name,
				  l.variant,
				  entry_reason(e, reason, sizeof(reason)));
	}
	free(gof);
}

/* what names a row in every list: its identity as the compare has it */
static json_t *identity_json(const struct row *r)
{
	return json_pack("{s:s, s:s, s:s}", "name", r->name,
			 "variant", r->variant, "params", r->params);
}

/* a row of a side's file: which side and file, and its identity */
static json_t *file_row_json(const struct side *s, const struct row *r)
{
	json_t *o = json_pack("{s:s, s:o}", "side", s->label,
			      "file", json_text(s->files[r->file].path));

	json_object_update_new(o, identity_json(r));
	return o;
}

/*
 * The rows of the sides' files their pools left out, beside pooled ones:
 * printed to @out, or with @a appended to it
 */
static void left_out(FILE *out, const struct compare *c, json_t *a)
{
	char path[LONG_SHOWN], state[STATE_LEN];
	const struct group *g;
	const struct side *s;
	const struct row *r;
	struct label l;
	json_t *o;
	int i;

	for (s = c->side; s < c->side + 2; s++)
		for (g = s->groups; g < s->groups + s->nr_groups; g++)
			for (i = 0; g->nr_pooled && i < g->nr; i++) {
				r = g->rows[i];
				if (poolable(r))
					continue;
				row_state(r, state, sizeof(state));
				if (!a) {
					fold_line(out, c, "left out of %s: %s %s in %s: %s",
						  s->label, row_shown(r, &l)->name, l.variant,
						  shown(path, sizeof(path), s->files[r->file].path),
						  state);
					continue;
				}
				o = file_row_json(s, r);
				json_object_set_new(o, "reason", json_string(state));
				json_array_append_new(a, o);
			}
}

/* the rows of the sides' files duplicated: printed, or appended to @a */
static void dups(FILE *out, const struct compare *c, json_t *a)
{
	const struct bench_file *f;
	const struct side *s;
	char path[LONG_SHOWN];
	const struct row *r;
	struct label l;
	json_t *o;

	for (s = c->side; s < c->side + 2; s++)
		for (f = s->files; f < s->files + s->nr_files; f++)
			for (r = f->rows; r < f->rows + f->nr; r++) {
				if (!r->nr_dups)
					continue;
				if (!a) {
					fold_line(out, c, "duplicate in %s (%s): %s %s: results[%d] kept, %d later row%s ignored",
						  s->label, shown(path, sizeof(path), f->path),
						  row_shown(r, &l)->name, l.variant,
						  r->index, r->nr_dups,
						  r->nr_dups > 1 ? "s" : "");
					continue;
				}
				o = file_row_json(s, r);
				json_object_update_new(o, json_pack("{s:i, s:i}",
					"kept", r->index, "ignored", r->nr_dups));
				json_array_append_new(a, o);
			}
}

/* the line that counts the verdicts */
static void print_counts(FILE *out, const struct compare *c)
{
	int nr_not = c->nr_entries - c->nr_compared;

	fold_line(out, c, "%d row%s compared: %d slower, %d faster, %d no significant change, %d cannot tell; %d not compared",
		  c->nr_compared, c->nr_compared == 1 ? "" : "s",
		  c->nr_verdicts[V_SLOWER], c->nr_verdicts[V_FASTER],
		  c->nr_verdicts[V_NO_CHANGE], c->nr_cannot_tell, nr_not);
	if (c->nr_regressions)
		fold_line(out, c, "regression: %d row%s significantly slower by more than %g%%",
			  c->nr_regressions, c->nr_regressions > 1 ? "s" : "",
			  c->args->fail_on_regression);
}

/* --format short: the table to paste, its legend and the counts */
static void print_paste(FILE *out, const struct compare *c)
{
	fold_line(out, c, "ns per event, ± 95%%: a base row's cost, any other row's overhead (+)");
	if (any_compared(c, ANY_ON_SHARE))
		fold_line(out, c, "verdicts on overhead rows: their share of the base");
	print_verdicts(out, c);
	print_counts(out, c);
}

void print_compare(FILE *out, const struct compare *c)
{
	if (c->args->paste) {
		print_paste(out, c);
		return;
	}
	print_headers(out, c);
	print_context(out, c);
	print_entries(out, c);
	left_out(out, c, NULL);
	dups(out, c, NULL);
	if (c->nr_bases)
		fold_line(out, c, "base rows: B at %+.1f%% of A (median of %d): the machine's speed or the kernel's own paths",
			  c->base_shift_pct, c->nr_bases);
	if (any_compared(c, ANY_WIDENED))
		fold_line(out, c, "threshold: %g%% + %d x %.1f%%, the base rows' shift (overheads move further than bases), for rows of single runs",
			  c->args->threshold_pct, SHIFT_WEIGHT,
			  fabs(c->base_shift_pct));
	print_counts(out, c);
}

/* ---- --compare --json ---- */

static const char *const why_kinds[] = {
	[WHY_NONE] = "compared",
	[WHY_ONLY_A] = "only_in_a",
	[WHY_ONLY_B] = "only_in_b",
	[WHY_NOT_OK] = "not_ok",
	[WHY_NO_UNITS] = "no_units",
	[WHY_UNKNOWN_QUANTITY] = "unknown_quantity",
	[WHY_QUANTITY_MIXED] = "quantity_mixed",
	[WHY_QUANTITY_DIFFERS] = "quantity_differs",
};

/* a side's pool of @ch: of how many files, when @g is given */
static json_t *side_json(const struct group *g, const struct sample_stats *st,
			 double ci95)
{
	json_t *o = g ? json_pack("{s:i}", "files", g->nr_pooled) :
			json_object();

	json_object_update_new(o, json_pack("{s:i, s:o, s:o}", "n", st->n,
					    "mean", json_number(st->mean),
					    "ci95", json_number(ci95)));
	return o;
}

static const char *verdict_text(const struct change *ch)
{
	return ch->w.decidable ? verdict_name(ch->v) : "cannot tell";
}

/* both sides of @ch, B - A and p; each side's files from @a and @b */
static json_t *change_json(const struct change *ch, const struct group *a,
			   const struct group *b)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
		"a", side_json(a, &ch->st_a, ch->ci95_a),
		"b", side_json(b, &ch->st_b, ch->ci95_b),
		"delta", json_number(ch->delta),
		"delta_ci95", json_number(ch->delta_ci95),
		"delta_pct", json_number(ch->delta_pct),
		"p", ch->w.decidable ? json_number(ch->w.p) : json_null());
}

static json_t *entry_json(const struct entry *e)
{
	json_t *o = identity_json(e->a->rows[0]), *share = json_null();
	const struct change *j = judged(e);

	/* the share of the base's change: an overhead row's verdict rests on it */
	if (e->has_share) {
		share = change_json(&e->share, NULL, NULL);
		json_object_set_new(share, "verdict",
				    json_string(verdict_text(&e->share)));
	}
	json_object_update_new(o, json_pack("{s:s, s:s}",
		"quantity", e->a->quantity,
		/* what one observation of the test is */
		"observation", e->by_run ? "run" : "round"));
	json_object_update_new(o, change_json(&e->ns, e->a, e->b));
	json_object_update_new(o, json_pack("{s:s, s:f, s:b, s:b, s:s, s:o}",
		"verdict", verdict_text(j),
		"threshold_pct", e->threshold_pct,
		"within_threshold", j->within_threshold,
		"regression", e->regression,
		"verdict_on", e->on_share ? "overhead_share" : e->a->quantity,
		"share", share));
	return o;
}

static json_t *not_compared_json(const struct entry *e)
{
	json_t *o = identity_json((e->a ? e->a : e->b)->rows[0]);
	char reason[REASON_LEN_MAX];

	json_object_update_new(o, json_pack("{s:s, s:s}",
		"kind", why_kinds[e->why],
		"reason", entry_reason(e, reason, sizeof(reason))));
	return o;
}

static void entries_json(json_t *root, const struct compare *c)
{
	json_t *rows = json_array(), *not = json_array();
	const struct entry *e;

	for (e = c->entries; e < c->entries + c->nr_entries; e++)
		json_array_append_new(e->why ? not : rows, e->why ?
				      not_compared_json(e) : entry_json(e));
	json_object_set_new(root, "rows", rows);
	json_object_set_new(root, "not_compared", not);
}

static json_t *member_json(const struct ctx_diff *d, int i)
{
	json_t *v = json_object_get(d->f[i]->context, d->key);

	return json_pack("{s:s, s:o, s:O}", "side", d->side[i],
			 "file", json_text(d->f[i]->path),
			 "value", v ? v : json_null());
}

static json_t *context_json(const struct compare *c)
{
	json_t *a = json_array();
	const struct ctx_diff *d;

	for (d = c->diffs; d < c->diffs + c->nr_diffs; d++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:b, s:[o, o]}",
			"key", d->key,
			"within", d->within ? json_string(d->within) :
					      json_null(),
			"expected", d->expected,
			"values", member_json(d, 0), member_json(d, 1)));
	return a;
}

static json_t *files_json(const struct side *s)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < s->nr_files; i++)
		json_array_append_new(a, json_text(s->files[i].path));
	return a;
}

static json_t *compare_json(const struct compare *c)
{
	const struct compare_args *args = c->args;
	json_t *root, *ignored = json_array(), *list;
	int i;

	for (i = 0; i < args->nr_ignore; i++)
		json_array_append_new(ignored, json_text(args->ignore[i]));
	root = json_pack("{s:s, s:f, s:f, s:f, s:{s:o, s:o}, s:o, s:o,"
			 " s:{s:i, s:i, s:i, s:i, s:i, s:i, s:i}, s:o}",
		"schema", COMPARE_SCHEMA,
		"alpha", COMPARE_ALPHA,
		"threshold_pct", args->threshold_pct,
		"threshold_ns", COMPARE_FLOOR_NS,
		"files", "A", files_json(&c->side[SIDE_A]),
			 "B", files_json(&c->side[SIDE_B]),
		"ignored_params", ignored,
		"fail_on_regression_pct", args->fail_on_regression >= 0 ?
			json_real(args->fail_on_regression) : json_null(),
		"summary",
			"compared", c->nr_compared,
			"slower", c->nr_verdicts[V_SLOWER],
			"faster", c->nr_verdicts[V_FASTER],
			"no_change", c->nr_verdicts[V_NO_CHANGE],
			"cannot_tell", c->nr_cannot_tell,
			"not_compared", c->nr_entries - c->nr_compared,
			"regressions", c->nr_regressions,
		"context_differences", context_json(c));
	if (!root)
		return NULL;
	entries_json(root, c);
	list = json_array();
	left_out(NULL, c, list);
	json_object_set_new(root, "left_out", list);
	list = json_array();
	dups(NULL, c, list);
	json_object_set_new(root, "duplicates", list);
	json_object_set_new(root, "base_shift", !c->nr_bases ? json_null() :
		json_pack("{s:i, s:f, s:b, s:i}", "rows", c->nr_bases,
			  "median_pct", c->base_shift_pct,
			  "widens_threshold", any_compared(c, ANY_WIDENED),
			  "weight", SHIFT_WEIGHT));
	return root;
}

/*
 * The file --json names, opened once the inputs are read (a bad input
 * leaves it untouched) but before the table is printed (a bad path gives
 * one line, not a table and an error); "-" is @out
 */
int open_json(FILE *out, const char *path, struct output_file *f)
{
	if (!strcmp(path, "-")) {
		output_borrow(f, out);
		return 0;
	}
	return output_open(f, path);
}

/*
 * The verdicts as JSON into @f: 0, or -errno after one line, @f then
 * discarded. What reaches a file is checked when it is put in place,
 * what reaches @out where @out is flushed.
 */
int write_json(struct output_file *f, const struct compare *c)
{
	json_t *root = compare_json(c);
	int err = 0;

	errno = 0;
	if (!root ||
	    json_dumpf(root, f->f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		       JSON_REAL_PRECISION(17)) ||
	    fputc('\n', f->f) == EOF)
		err = errno ? -errno : -EIO;
	if (err) {
		pr_err("writing %s failed: %s", printable(f->path),
		       strerror(-err));
		output_discard(f);
	}
	json_decref(root);
	return err;
}
