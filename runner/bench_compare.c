// SPDX-License-Identifier: GPL-2.0
/*
 * Compares results files: the runs of side A (before) with those of side
 * B (after): here the command line's files, and the compare run from
 * them. Its parts, one job a file, share compare.h:
 *
 *   compare_read.c	reading and validating the results files (the
 *			schema read), where their contexts differ
 *   compare_text.c	a file's text made safe to print, what is said of
 *			rows not compared
 *   compare_pool.c	rows matched across files, units pooled by round,
 *			Welch's test and the verdict (the method)
 *
 * With --json, the verdicts as COMPARE_SCHEMA:
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
 *     "a": { "files": 2, "n": 8, "mean": 22.1, "ci95": 0.6 },
 *     "b": { ... },
 *     "delta": 2.0, "delta_ci95": 0.8,	B - A, ns
 *     "delta_pct": 9.0 | null,		of A's mean; null when it is <= 0
 *     "p": 0.0001 | null,
 *     "verdict": "slower" | "faster" | "no significant change" |
 *		  "cannot tell",
 *     "regression": false } ],
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
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_compare.h"
#include "bench_stats.h"
#include "bench_util.h"
#include "compare.h"

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

/* ---- the table ---- */

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

/* "22.11 ± 0.65 (8)": a side's mean, its interval and its units */
static void side_cell(char *buf, size_t len, const struct sample_stats *st,
		      double ci95)
{
	if (!st->n)
		snprintf(buf, len, "- (0)");
	else if (isnan(ci95))
		snprintf(buf, len, "%.2f (%d)", st->mean, st->n);
	else
		snprintf(buf, len, "%.2f ± %.2f (%d)", st->mean, ci95, st->n);
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
	side_cell(cell, sizeof(cell), &e->st_a, e->ci95_a);
	print_cell(out, cell, SIDE_WIDTH);
	side_cell(cell, sizeof(cell), &e->st_b, e->ci95_b);
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
	fprintf(out, "%d row%s compared: %d slower, %d faster, %d no significant change, %d cannot tell; %d not compared\n",
		c->nr_compared, c->nr_compared == 1 ? "" : "s",
		c->nr_verdicts[V_SLOWER], c->nr_verdicts[V_FASTER],
		c->nr_verdicts[V_NO_CHANGE], c->nr_cannot_tell, nr_not);
	if (c->nr_regressions)
		fprintf(out, "regression: %d row%s significantly slower by more than %g%%\n",
			c->nr_regressions, c->nr_regressions > 1 ? "s" : "",
			c->args->fail_on_regression);
}

/* ---- --json ---- */

/* NAN and infinities have no JSON spelling */
static json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* a path from the command line may be no UTF-8: jansson refuses that */
static json_t *json_text(const char *s)
{
	json_t *j = json_string(s);

	return j ? j : json_string(printable(s));
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

static json_t *side_json(const struct group *g, const struct sample_stats *st,
			 double ci95)
{
	return json_pack("{s:i, s:i, s:o, s:o}", "files", g->nr_pooled,
			 "n", st->n, "mean", json_num(st->mean),
			 "ci95", json_num(ci95));
}

static json_t *entry_json(const struct entry *e)
{
	json_t *o = identity_json(e->a->rows[0]);

	json_object_update_new(o, json_pack(
		"{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:b, s:b}",
		"quantity", e->a->quantity,
		"a", side_json(e->a, &e->st_a, e->ci95_a),
		"b", side_json(e->b, &e->st_b, e->ci95_b),
		"delta", json_num(e->delta),
		"delta_ci95", json_num(e->delta_ci95),
		"delta_pct", json_num(e->delta_pct),
		"p", e->w.decidable ? json_num(e->w.p) : json_null(),
		"verdict", e->w.decidable ? verdict_name(e->v) : "cannot tell",
		"within_threshold", e->within_threshold,
		"regression", e->regression));
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

static void left_out_json(json_t *a, const struct side *s)
{
	char state[STATE_LEN];
	const struct group *g;
	json_t *o;
	int i;

	for (g = s->groups; g < s->groups + s->nr_groups; g++) {
		if (!g->nr_pooled)
			continue;
		for (i = 0; i < g->nr; i++) {
			if (poolable(g->rows[i]))
				continue;
			o = file_row_json(s, g->rows[i]);
			json_object_set_new(o, "reason", json_string(
				row_state(g->rows[i], state, sizeof(state))));
			json_array_append_new(a, o);
		}
	}
}

static void dups_json(json_t *a, const struct side *s)
{
	const struct bench_file *f;
	const struct row *r;
	json_t *o;

	for (f = s->files; f < s->files + s->nr_files; f++)
		for (r = f->rows; r < f->rows + f->nr; r++) {
			if (!r->nr_dups)
				continue;
			o = file_row_json(s, r);
			json_object_update_new(o, json_pack("{s:i, s:i}",
				"kept", r->index, "ignored", r->nr_dups));
			json_array_append_new(a, o);
		}
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
	left_out_json(list, &c->side[SIDE_A]);
	left_out_json(list, &c->side[SIDE_B]);
	json_object_set_new(root, "left_out", list);
	list = json_array();
	dups_json(list, &c->side[SIDE_A]);
	dups_json(list, &c->side[SIDE_B]);
	json_object_set_new(root, "duplicates", list);
	return root;
}

/*
 * The file --json names, opened once the inputs are read (a bad input
 * leaves the file as it was) but before the table is printed (a bad path
 * gives one line, not a table and an error); "-" is @out
 */
int open_json(FILE *out, const char *path, FILE **f)
{
	int err;

	*f = out;
	if (!strcmp(path, "-"))
		return 0;
	*f = fopen(path, "w");
	if (*f)
		return 0;
	err = -errno;
	pr_err("cannot write %s: %s", printable(path), strerror(-err));
	return err;
}

/* the verdicts as JSON into @f, closed unless it is @out */
int write_json(FILE *out, FILE *f, const struct compare *c)
{
	const char *path = c->args->json;
	json_t *root = compare_json(c);
	int err = 0;

	errno = 0;
	if (!root ||
	    json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		       JSON_REAL_PRECISION(17)) ||
	    fputc('\n', f) == EOF || fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
	if (f != out && fclose(f) && !err)
		err = errno ? -errno : -EIO;
	if (err)
		pr_err("writing %s failed: %s", printable(path), strerror(-err));
	json_decref(root);
	return err;
}

/* ---- the command line ---- */

#define FILES_USAGE	"--compare A.json B.json, or --compare A1.json A2.json ... -- B1.json ..."

/* a word that ends --compare's files: an option, but not the "--" */
static bool is_option(const char *s)
{
	return s[0] == '-' && strcmp(s, "--");
}

/* @words, split at their "--" when there is one */
static int split_files(struct compare_args *c, const char **words, int nr)
{
	int i, sep = -1, side = SIDE_A;

	for (i = 0; i < nr; i++) {
		if (strcmp(words[i], "--"))
			continue;
		if (sep >= 0) {
			pr_err("--compare takes one -- between A's files and B's: " FILES_USAGE);
			return -1;
		}
		sep = i;
	}
	if (sep < 0 && nr != 2) {
		pr_err(nr < 2 ? "--compare needs two files: " FILES_USAGE :
		       "--compare with more than two files needs -- between A's and B's: " FILES_USAGE);
		return -1;
	}
	if (sep == 0 || sep == nr - 1) {
		pr_err("--compare needs a file on each side of --: " FILES_USAGE);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		if (i == sep || (sep < 0 && i == 1)) {
			side = SIDE_B;
			if (i == sep)
				continue;
		}
		if (c->nr_files[side] == COMPARE_MAX_FILES) {
			pr_err("--compare takes at most %d files a side",
			       COMPARE_MAX_FILES);
			return -1;
		}
		c->files[side][c->nr_files[side]++] = words[i];
	}
	return 0;
}

int compare_parse_files(struct compare_args *c, const char *first, int argc,
			char **argv, int *next)
{
	const char *words[2 * COMPARE_MAX_FILES + 2];
	int nr = 0;

	if (c->nr_files[SIDE_A]) {
		pr_err("give --compare once: " FILES_USAGE);
		return -1;
	}
	if (is_option(first)) {
		pr_err("--compare needs files, not '%s': " FILES_USAGE,
		       printable(first));
		return -1;
	}
	words[nr++] = first;
	while (*next < argc && !is_option(argv[*next])) {
		if (nr == ARRAY_SIZE(words)) {
			pr_err("--compare takes at most %d files a side",
			       COMPARE_MAX_FILES);
			return -1;
		}
		words[nr++] = argv[(*next)++];
	}
	return split_files(c, words, nr);
}

int compare_parse_ignore(struct compare_args *c, const char *list)
{
	const char *s = list, *comma;
	size_t len;

	do {
		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (!len) {
			pr_err("bad --ignore-param '%s': KEY[,KEY...], no key empty",
			       printable(list));
			return -1;
		}
		if (c->nr_ignore == COMPARE_MAX_PARAMS) {
			pr_err("--ignore-param: at most %d keys",
			       COMPARE_MAX_PARAMS);
			return -1;
		}
		/* kept until the program ends, as the command line is */
		c->ignore[c->nr_ignore] = strndup(s, len);
		if (!c->ignore[c->nr_ignore]) {
			pr_err("out of memory");
			return -1;
		}
		c->nr_ignore++;
		s = comma + 1;
	} while (comma);
	return 0;
}

/* ---- the compare ---- */

static int check_args(const struct compare_args *args)
{
	int i;

	for (i = SIDE_A; i <= SIDE_B; i++)
		if (args->nr_files[i] < 1 ||
		    args->nr_files[i] > COMPARE_MAX_FILES) {
			pr_err("--compare needs 1 to %d files a side",
			       COMPARE_MAX_FILES);
			return -EINVAL;
		}
	if (args->nr_ignore < 0 || args->nr_ignore > COMPARE_MAX_PARAMS) {
		pr_err("--ignore-param: at most %d keys", COMPARE_MAX_PARAMS);
		return -EINVAL;
	}
	return 0;
}

static int load(struct compare *c)
{
	struct ignored ig;
	int ret;

	sort_ignored(c->args, &ig);
	ret = load_side(c, SIDE_A, &ig);
	if (!ret)
		ret = load_side(c, SIDE_B, &ig);
	if (!ret)
		ret = index_side(&c->side[SIDE_A]);
	if (!ret)
		ret = index_side(&c->side[SIDE_B]);
	return ret;
}

int bench_compare_to(FILE *out, const struct compare_args *args)
{
	struct compare *c;
	FILE *json = NULL;
	int ret;

	ret = check_args(args);
	if (ret)
		return ret;
	/* two sides of COMPARE_MAX_FILES files: off the stack */
	c = calloc(1, sizeof(*c));
	if (!c) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	c->args = args;
	ret = load(c);
	if (!ret)
		ret = match_sides(c);
	if (!ret)
		ret = find_context_diffs(c);
	if (!ret && args->json)
		ret = open_json(out, args->json, &json);
	if (ret)
		goto cleanup;
	if (json != out)
		print_compare(out, c);
	if (json)
		ret = write_json(out, json, c);
	if (!ret && c->nr_regressions)
		ret = 1;
cleanup:
	free_side(&c->side[SIDE_A]);
	free_side(&c->side[SIDE_B]);
	free(c->entries);
	free(c->diffs);
	free(c);
	return ret;
}

int bench_compare(const struct compare_args *args)
{
	return bench_compare_to(stdout, args);
}
