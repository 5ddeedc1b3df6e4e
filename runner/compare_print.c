// SPDX-License-Identifier: GPL-2.0
/*
 * The compare's table: the files and their differences, a line per row
 * compared, the rows not compared, left out or duplicated, and the
 * summary lines (all of stdout but with --json -).
 */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include "bench_stats.h"
#include "bench_util.h"
#include "compare.h"

/* what the table calls them */
static const char *const quantity_shown[NR_QUANTITIES] = {
	"overhead", "ns/event",
};

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

/* a string of @obj, shown, or "?" */
static const char *field_text(const json_t *obj, const char *key, char *buf,
			      size_t len)
{
	const char *s = get_string(obj, key);

	return s ? shown(buf, len, s) : "?";
}

static void print_headers(FILE *out, const struct compare *c)
{
	char path[LONG_SHOWN], tool[NAME_SHOWN], kernel[NAME_SHOWN];
	char when[NAME_SHOWN], key[NAME_SHOWN];
	const struct bench_file *f;
	const struct side *s;
	int i;

	for (s = c->side; s < c->side + 2; s++)
		for (f = s->files; f < s->files + s->nr_files; f++)
			fprintf(out, "%s: %s (%s, kernel %s, %s)\n", s->label,
				shown(path, sizeof(path), f->path),
				field_text(f->context, "tool", tool, sizeof(tool)),
				field_text(f->context, "kernel_release", kernel,
					   sizeof(kernel)),
				field_text(f->context, "timestamp", when,
					   sizeof(when)));
	fprintf(out, "Welch's t-test of B's units against A's, each side's files pooled (a round's\n"
		"units as one), at %.0f%% confidence; a change within %g%% of A or %g ns is none.\n"
		"Figures are costs in ns (the overhead over the base, or ns per event without\n"
		"a base): higher is slower.\n", (1 - COMPARE_ALPHA) * 100,
		c->args->threshold_pct, COMPARE_FLOOR_NS);
	if (!c->args->nr_ignore)
		return;
	fprintf(out, "Rows matched ignoring the params");
	for (i = 0; i < c->args->nr_ignore; i++)
		fprintf(out, "%s %s", i ? "," : "",
			shown(key, sizeof(key), c->args->ignore[i]));
	fputc('\n', out);
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
			fprintf(out, "context differs within %s: %s: %s %s, %s %s\n",
				d->within, d->key,
				shown(path[0], LONG_SHOWN, d->f[0]->path), t[0],
				shown(path[1], LONG_SHOWN, d->f[1]->path), t[1]);
		else
			fprintf(out, "%s: %s: A %s, B %s\n", d->expected ?
				"kernel differs (expected when comparing kernels)" :
				"context differs", d->key, t[0], t[1]);
	}
}

/* @s right-aligned in @width columns: "±" is two bytes and one column */
static void print_cell(FILE *out, const char *s, int width)
{
	int cols = 0;
	const char *p;

	for (p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	fprintf(out, " %*s%s", width > cols ? width - cols : 0, "", s);
}

/*
 * "22.11 ± 0.65 (8)": a side's mean, its interval and its observations,
 * "(3 runs)" where they are whole runs
 */
static void side_cell(char *buf, size_t len, const struct sample_stats *st,
		      double ci95, bool by_run)
{
	const char *what = by_run ? " runs" : "";

	if (!st->n)
		snprintf(buf, len, "- (0)");
	else if (isnan(ci95))
		snprintf(buf, len, "%.2f (%d%s)", st->mean, st->n, what);
	else
		snprintf(buf, len, "%.2f ± %.2f (%d%s)", st->mean, ci95, st->n,
			 what);
}

static const char *quantity_name(const char *quantity)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known_quantities); i++)
		if (!strcmp(quantity, known_quantities[i]))
			return quantity_shown[i];
	return "?";
}

#define SIDE_WIDTH	22
#define DELTA_WIDTH	16

static void print_table_head(FILE *out)
{
	fprintf(out, "\n  %-11s %-13s %-8s", "name", "variant", "figure");
	print_cell(out, "A ns ± 95% (units)", SIDE_WIDTH);
	print_cell(out, "B ns ± 95% (units)", SIDE_WIDTH);
	print_cell(out, "B-A ns ± 95%", DELTA_WIDTH);
	fprintf(out, " %8s %8s  %s\n", "change", "p", "verdict");
}

static void print_entry(FILE *out, const struct entry *e)
{
	char cell[64], pct[16], p[16];
	struct label l;

	row_label(e->a->rows[0], &l);
	fprintf(out, "  %-11s %-13s %-8s", l.name, l.variant,
		quantity_name(e->a->quantity));
	side_cell(cell, sizeof(cell), &e->st_a, e->ci95_a, e->by_run);
	print_cell(out, cell, SIDE_WIDTH);
	side_cell(cell, sizeof(cell), &e->st_b, e->ci95_b, e->by_run);
	print_cell(out, cell, SIDE_WIDTH);
	if (isnan(e->delta))
		snprintf(cell, sizeof(cell), "-");
	else if (isnan(e->delta_ci95))
		snprintf(cell, sizeof(cell), "%+.2f", e->delta);
	else
		snprintf(cell, sizeof(cell), "%+.2f ± %.2f", e->delta,
			 e->delta_ci95);
	print_cell(out, cell, DELTA_WIDTH);
	snprintf(pct, sizeof(pct), isnan(e->delta_pct) ? "-" : "%+.2f%%",
		 e->delta_pct);
	if (!e->w.decidable || isnan(e->w.p))
		snprintf(p, sizeof(p), "-");
	else if (e->w.p < 1e-4)
		snprintf(p, sizeof(p), "<0.0001");
	else
		snprintf(p, sizeof(p), "%.4f", e->w.p);
	fprintf(out, " %8s %8s  %s", pct, p, e->w.decidable ?
		verdict_name(e->v) : "cannot tell");
	if (!e->w.decidable)
		fprintf(out, " (fewer than 2 units in %s)",
			e->st_a.n < 2 && e->st_b.n < 2 ? "A and B" :
			e->st_a.n < 2 ? "A" : "B");
	fputc('\n', out);
}

static void print_entries(FILE *out, const struct compare *c)
{
	char reason[REASON_LEN_MAX];
	const struct entry *e;
	struct label l;

	print_table_head(out);
	for (e = c->entries; e < c->entries + c->nr_entries; e++)
		if (e->why == WHY_NONE)
			print_entry(out, e);
	if (!c->nr_compared)
		fprintf(out, "  (no row has units to compare on both sides)\n");
	for (e = c->entries; e < c->entries + c->nr_entries; e++) {
		if (e->why == WHY_NONE)
			continue;
		row_label((e->a ? e->a : e->b)->rows[0], &l);
		if (e->why == WHY_ONLY_A || e->why == WHY_ONLY_B)
			fprintf(out, "only in %s: %s %s\n", e->a ? "A" : "B",
				l.name, l.variant);
		else
			fprintf(out, "not compared: %s %s: %s\n", l.name,
				l.variant,
				entry_reason(e, reason, sizeof(reason)));
	}
}

/* the rows of a side's files its pools left out, beside pooled ones */
static void print_left_out(FILE *out, const struct side *s)
{
	char path[LONG_SHOWN], state[STATE_LEN];
	const struct group *g;
	const struct row *r;
	struct label l;
	int i;

	for (g = s->groups; g < s->groups + s->nr_groups; g++) {
		if (!g->nr_pooled)
			continue;
		for (i = 0; i < g->nr; i++) {
			r = g->rows[i];
			if (poolable(r))
				continue;
			fprintf(out, "left out of %s: %s %s in %s: %s\n",
				s->label, row_label(r, &l)->name, l.variant,
				shown(path, sizeof(path), s->files[r->file].path),
				row_state(r, state, sizeof(state)));
		}
	}
}

static void print_dups(FILE *out, const struct side *s)
{
	char path[LONG_SHOWN];
	const struct bench_file *f;
	const struct row *r;
	struct label l;

	for (f = s->files; f < s->files + s->nr_files; f++)
		for (r = f->rows; r < f->rows + f->nr; r++)
			if (r->nr_dups)
				fprintf(out, "duplicate in %s (%s): %s %s: results[%d] kept, %d later row%s ignored\n",
					s->label, shown(path, sizeof(path), f->path),
					row_label(r, &l)->name, l.variant,
					r->index, r->nr_dups,
					r->nr_dups > 1 ? "s" : "");
}

void print_compare(FILE *out, const struct compare *c)
{
	int nr_not = c->nr_entries - c->nr_compared;

	print_headers(out, c);
	print_context(out, c);
	print_entries(out, c);
	print_left_out(out, &c->side[SIDE_A]);
	print_left_out(out, &c->side[SIDE_B]);
	print_dups(out, &c->side[SIDE_A]);
	print_dups(out, &c->side[SIDE_B]);
	if (c->nr_bases)
		fprintf(out, "base rows: B at %+.1f%% of A (median of %d): the machine's speed or the kernel's own paths\n",
			c->base_shift_pct, c->nr_bases);
	if (threshold_widened(c))
		fprintf(out, "threshold: %g%% + %d x %.1f%%, the base rows' shift (overheads move further than bases), for rows of single runs\n",
			c->args->threshold_pct, SHIFT_WEIGHT,
			fabs(c->base_shift_pct));
	fprintf(out, "%d row%s compared: %d slower, %d faster, %d no significant change, %d cannot tell; %d not compared\n",
		c->nr_compared, c->nr_compared == 1 ? "" : "s",
		c->nr_verdicts[V_SLOWER], c->nr_verdicts[V_FASTER],
		c->nr_verdicts[V_NO_CHANGE], c->nr_cannot_tell, nr_not);
	if (c->nr_regressions)
		fprintf(out, "regression: %d row%s significantly slower by more than %g%%\n",
			c->nr_regressions, c->nr_regressions > 1 ? "s" : "",
			c->args->fail_on_regression);
}
