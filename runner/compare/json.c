// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts of a compare as JSON (--compare --json FILE), as
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
 *		the figure the verdict tested: an overhead row's share of
 *		its base where every pooled row of both sides has shares
 *		(then its ns' change past threshold_ns too), else the
 *		quantity; delta, delta_ci95, delta_pct and p stay the ns'
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
#include <jansson.h>
#include <math.h>
#include <string.h>
#include "bench.h"
#include "stats/stats.h"
#include "core/core.h"
#include "compare/compare.h"

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
			 "n", st->n, "mean", json_number(st->mean),
			 "ci95", json_number(ci95));
}

static json_t *share_side_json(const struct sample_stats *st, double ci95)
{
	return json_pack("{s:i, s:o, s:o}", "n", st->n,
			 "mean", json_number(st->mean),
			 "ci95", json_number(ci95));
}

/* the share of the base's change: an overhead row's verdict rests on it */
static json_t *share_json(const struct share_change *sh)
{
	if (!sh->has)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
		"a", share_side_json(&sh->st_a, sh->ci95_a),
		"b", share_side_json(&sh->st_b, sh->ci95_b),
		"delta", json_number(sh->delta),
		"delta_ci95", json_number(sh->delta_ci95),
		"delta_pct", json_number(sh->delta_pct),
		"p", sh->w.decidable ? json_number(sh->w.p) : json_null(),
		"verdict", sh->w.decidable ? verdict_name(sh->v) :
			   "cannot tell");
}

static json_t *entry_json(const struct entry *e)
{
	json_t *o = identity_json(e->a->rows[0]);

	json_object_update_new(o, json_pack(
		"{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:f, s:b, s:b}",
		"quantity", e->a->quantity,
		/* what one observation of the test is */
		"observation", e->by_run ? "run" : "round",
		"a", side_json(e->a, &e->st_a, e->ci95_a),
		"b", side_json(e->b, &e->st_b, e->ci95_b),
		"delta", json_number(e->delta),
		"delta_ci95", json_number(e->delta_ci95),
		"delta_pct", json_number(e->delta_pct),
		"p", e->w.decidable ? json_number(e->w.p) : json_null(),
		"verdict", entry_decidable(e) ? verdict_name(e->v) :
			   "cannot tell",
		"threshold_pct", e->threshold_pct,
		"within_threshold", e->within_threshold,
		"regression", e->regression));
	json_object_set_new(o, "verdict_on", json_string(e->on_share ?
			    "overhead_share" : e->a->quantity));
	json_object_set_new(o, "share", share_json(&e->share));
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
	json_object_set_new(root, "base_shift", !c->nr_bases ? json_null() :
			    json_pack("{s:i, s:f, s:b, s:i}", "rows", c->nr_bases,
				      "median_pct", c->base_shift_pct,
				      "widens_threshold", threshold_widened(c),
				      "weight", SHIFT_WEIGHT));
	return root;
}

/*
 * The file --json names, opened once the inputs are read (a bad input
 * leaves it untouched) but before the table is printed (a bad path gives
 * one line, not a table and an error): a temporary file beside it, which
 * the caller renames into place (bench_output.c); "-" is @out
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
