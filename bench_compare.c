// SPDX-License-Identifier: GPL-2.0
/*
 * Compares two results files. The schema, "bpf-bench/1", as written by
 * test_overhead and map_perf_test with --json:
 *
 * {
 *   "schema": "bpf-bench/1",
 *   "tool": "test_overhead",		(or "map_perf_test")
 *   "version": "...",
 *   "context": {
 *     "kernel_release": "...",		uname -r
 *     "kernel_build": "...",		uname -v
 *     "cpu_model": "...",
 *     "online_cpus": 2,
 *     "cpus_used": "0-1",
 *     "libbpf_version": "1.1",
 *     "attach_method": null | "kprobe",
 *     "count": 1000000 | null,		events per worker
 *     "duration_s": null | 5,		instead of a count
 *     "repeat": 5,
 *     "warmup": 1,
 *     "timestamp": "2026-11-30T05:10:00Z"
 *   },
 *   "results": [ {
 *     "name": "kprobe", "variant": "task_rename",
 *     "status": "ok" | "skipped" | "failed",
 *     "reason": null | "...",
 *     "unit": "events/s",
 *     "samples": [ 3.6e6, ... ],	one per counted repeat
 *     "outliers": [ false, ... ],	flagged, never dropped
 *     "mean": ..., "stddev": ..., "min": ..., "max": ..., "cv": ...,
 *     "ns_per_event": { "mean": ..., "stddev": ... },
 *     "overhead_ns": { "value": ..., "uncertainty": ... } | null,
 *     "overhead_pct": ... | null,
 *     "hits": ..., "events": ...,
 *     "prog_ns_per_run": ... | null
 *   }, ... ]
 * }
 *
 * A row is keyed by (name, variant), at most once per file. What the
 * compare requires: "schema", the "context" object, the "results" array,
 * each row's "name", "variant" and "status", and for an "ok" row a "unit"
 * that is a rate (".../s") and a non-empty "samples" array of numbers.
 * Everything a verdict rests on comes from the samples, never from the
 * summary figures beside them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_compare.h"
#include "bench_json.h"
#include "bench_stats.h"

struct row {
	const char *name;
	const char *variant;
	const char *status;
	const char *reason;	/* may be NULL */
	const char *unit;
	struct sample_stats st;
	bool matched;		/* present in the other file */
};

struct bench_file {
	const char *path;
	struct json_value *root;
	const struct json_value *context;
	struct row *rows;
	int nr;
};

/* context fields that make two runs measure different things */
static const char *const context_mismatch[] = {
	"cpu_model", "online_cpus", "cpus_used", "attach_method",
	"count", "duration_s",
};
/* context fields expected to differ when the point is comparing kernels */
static const char *const context_kernel[] = {
	"kernel_release", "kernel_build",
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static int row_samples(const struct json_value *samples, struct row *r)
{
	const struct json_value *v;
	double *x;
	int i = 0;

	if (!samples || samples->type != JSON_ARRAY || !samples->nr)
		return -EINVAL;
	x = malloc(samples->nr * sizeof(*x));
	if (!x)
		return -ENOMEM;
	json_for_each(v, samples) {
		if (v->type != JSON_NUMBER) {
			free(x);
			return -EINVAL;
		}
		x[i++] = v->number;
	}
	stats_compute(x, i, &r->st);
	free(x);
	return 0;
}

static bool is_rate(const char *unit)
{
	size_t len = unit ? strlen(unit) : 0;

	return len > 2 && !strcmp(unit + len - 2, "/s");
}

/* one results[] entry; @why says what is wrong with it */
static int load_row(const struct json_value *v, struct row *r,
		    const char **why)
{
	int err;

	*why = "not an object";
	if (v->type != JSON_OBJECT)
		return -EINVAL;
	r->name = json_get_string(v, "name");
	r->variant = json_get_string(v, "variant");
	r->status = json_get_string(v, "status");
	r->reason = json_get_string(v, "reason");
	r->unit = json_get_string(v, "unit");
	*why = "needs string \"name\", \"variant\" and \"status\"";
	if (!r->name || !r->variant || !r->status)
		return -EINVAL;
	*why = "status is none of ok, skipped, failed";
	if (strcmp(r->status, "skipped") && strcmp(r->status, "failed") &&
	    strcmp(r->status, "ok"))
		return -EINVAL;
	if (strcmp(r->status, "ok"))
		return 0;
	*why = "an ok row needs a rate \"unit\" such as \"events/s\"";
	if (!is_rate(r->unit))
		return -EINVAL;
	*why = "an ok row needs a non-empty \"samples\" array of numbers";
	err = row_samples(json_get(v, "samples"), r);
	if (err == -ENOMEM)
		*why = "out of memory";
	return err;
}

static struct row *find_row(const struct bench_file *f, const char *name,
			    const char *variant)
{
	int i;

	for (i = 0; i < f->nr; i++)
		if (!strcmp(f->rows[i].name, name) &&
		    !strcmp(f->rows[i].variant, variant))
			return &f->rows[i];
	return NULL;
}

static int load_rows(struct bench_file *f, const struct json_value *results)
{
	const struct json_value *v;
	const char *why;
	int err;

	f->rows = calloc(results->nr ? results->nr : 1, sizeof(*f->rows));
	if (!f->rows) {
		pr_err("%s: out of memory", f->path);
		return -ENOMEM;
	}
	json_for_each(v, results) {
		struct row *r = &f->rows[f->nr];

		err = load_row(v, r, &why);
		if (err) {
			pr_err("%s: results[%d]: %s", f->path, f->nr, why);
			return err;
		}
		if (find_row(f, r->name, r->variant)) {
			pr_err("%s: results[%d]: %s %s appears twice", f->path,
			       f->nr, r->name, r->variant);
			return -EINVAL;
		}
		f->nr++;
	}
	return 0;
}

static int load_file(struct bench_file *f)
{
	const struct json_value *results;
	char err[JSON_ERR_LEN];
	const char *schema;
	int ret;

	ret = json_parse_file(f->path, &f->root, err, sizeof(err));
	if (ret) {
		pr_err("%s: %s", f->path, err);
		return ret;
	}
	schema = json_get_string(f->root, "schema");
	if (!schema || strcmp(schema, BENCH_SCHEMA)) {
		pr_err("%s: not a results file: \"schema\" is %s%s%s, expected \"%s\"",
		       f->path, schema ? "\"" : "", schema ? schema : "missing",
		       schema ? "\"" : "", BENCH_SCHEMA);
		return -EINVAL;
	}
	f->context = json_get(f->root, "context");
	results = json_get(f->root, "results");
	if (!f->context || f->context->type != JSON_OBJECT ||
	    !results || results->type != JSON_ARRAY) {
		pr_err("%s: needs a \"context\" object and a \"results\" array",
		       f->path);
		return -EINVAL;
	}
	return load_rows(f, results);
}

static void free_file(struct bench_file *f)
{
	free(f->rows);
	json_free(f->root);
}

/* a context value as text, for equality and for display */
static const char *value_text(const struct json_value *v, char *buf,
			      size_t len)
{
	if (!v)
		return "(missing)";
	switch (v->type) {
	case JSON_NULL:
		return "null";
	case JSON_BOOL:
		return v->boolean ? "true" : "false";
	case JSON_NUMBER:
		snprintf(buf, len, "%.15g", v->number);
		return buf;
	case JSON_STRING:
		return v->string;
	default:
		return json_type_name(v->type);
	}
}

/* prints "@prefix: key: A x, B y" when the two differ */
static void diff_field(FILE *out, const char *prefix, const char *key,
		       const struct json_value *a, const struct json_value *b)
{
	char buf_a[32], buf_b[32];
	const char *ta = value_text(a, buf_a, sizeof(buf_a));
	const char *tb = value_text(b, buf_b, sizeof(buf_b));

	if (strcmp(ta, tb))
		fprintf(out, "%s: %s: A %s, B %s\n", prefix, key, ta, tb);
}

static void diff_context(FILE *out, const struct bench_file *a,
			 const struct bench_file *b)
{
	size_t i;

	diff_field(out, "context differs", "tool", json_get(a->root, "tool"),
		   json_get(b->root, "tool"));
	for (i = 0; i < ARRAY_LEN(context_mismatch); i++)
		diff_field(out, "context differs", context_mismatch[i],
			   json_get(a->context, context_mismatch[i]),
			   json_get(b->context, context_mismatch[i]));
	for (i = 0; i < ARRAY_LEN(context_kernel); i++)
		diff_field(out, "kernel differs (expected when comparing kernels)",
			   context_kernel[i],
			   json_get(a->context, context_kernel[i]),
			   json_get(b->context, context_kernel[i]));
}

static void print_header(FILE *out, const char *label,
			 const struct bench_file *f)
{
	const char *tool = json_get_string(f->root, "tool");
	const char *kernel = json_get_string(f->context, "kernel_release");
	const char *when = json_get_string(f->context, "timestamp");

	fprintf(out, "%s: %s (%s, kernel %s, %s)\n", label, f->path,
		tool ? tool : "?", kernel ? kernel : "?", when ? when : "?");
}

#define CELL_WIDTH	19

/* "3.612 ± 0.021", in millions */
static void mean_sd(char *buf, size_t len, const struct sample_stats *s)
{
	snprintf(buf, len, "%.3f ± %.3f", s->mean / 1e6, s->stddev / 1e6);
}

/* compares one row; true when it is a regression beyond @fail_pct */
static bool compare_row(FILE *out, const struct row *a, const struct row *b,
			double fail_pct)
{
	struct welch w;
	char p[16], cell_a[48], cell_b[48];
	enum verdict v;
	double delta;

	v = stats_verdict(&a->st, &b->st, COMPARE_ALPHA, true, &w);
	delta = a->st.mean != 0 ? 100 * (b->st.mean - a->st.mean) / a->st.mean
				: NAN;
	if (!w.decidable)
		snprintf(p, sizeof(p), "-");
	else if (w.p < 1e-4)
		snprintf(p, sizeof(p), "<0.0001");
	else
		snprintf(p, sizeof(p), "%.4f", w.p);

	mean_sd(cell_a, sizeof(cell_a), &a->st);
	mean_sd(cell_b, sizeof(cell_b), &b->st);
	/* widths count bytes: one more for the two bytes of "±" */
	fprintf(out, "  %-11s %-13s %*s %*s %+8.2f%% %8s  %s", a->name,
		a->variant, CELL_WIDTH + 1, cell_a, CELL_WIDTH + 1, cell_b,
		delta, p, verdict_name(v));
	if (!w.decidable)
		fprintf(out, " (fewer than 2 samples: cannot tell)");
	else if (stats_noisy(&a->st) || stats_noisy(&b->st))
		fprintf(out, " (noisy: CV > %.0f%%)", NOISY_CV * 100);
	fputc('\n', out);
	return fail_pct >= 0 && v == V_SLOWER && -delta > fail_pct;
}

static bool comparable(const struct row *a, const struct row *b)
{
	return !strcmp(a->status, "ok") && !strcmp(b->status, "ok") &&
	       !strcmp(a->unit, b->unit);
}

/* the rows in both files and ok in both; returns how many regressed */
static int compare_rows(FILE *out, struct bench_file *a, struct bench_file *b,
			double fail_pct)
{
	int i, compared = 0, regressed = 0;
	struct row *rb;

	fprintf(out, "\n  %-11s %-13s %*s %*s %9s %8s  %s\n", "name",
		"variant", CELL_WIDTH, "A (M/s)", CELL_WIDTH, "B (M/s)",
		"delta", "p", "verdict");
	for (i = 0; i < a->nr; i++) {
		rb = find_row(b, a->rows[i].name, a->rows[i].variant);
		if (!rb)
			continue;
		a->rows[i].matched = rb->matched = true;
		if (!comparable(&a->rows[i], rb))
			continue;
		regressed += compare_row(out, &a->rows[i], rb, fail_pct);
		compared++;
	}
	if (!compared)
		fprintf(out, "  (no row is ok in both files)\n");
	return regressed;
}

static void print_status(FILE *out, const char *label, const struct row *r)
{
	fprintf(out, "%s %s", label, r->status);
	if (strcmp(r->status, "ok"))
		fprintf(out, " (%s)", r->reason ? r->reason : "no reason given");
	else
		fprintf(out, " in %s", r->unit);
}

/* rows in both files that could not be compared, and rows in one only */
static void print_unmatched(FILE *out, const struct bench_file *a,
			    const struct bench_file *b)
{
	const struct row *ra, *rb;
	int i;

	for (i = 0; i < a->nr; i++) {
		ra = &a->rows[i];
		rb = find_row(b, ra->name, ra->variant);
		if (!rb || comparable(ra, rb))
			continue;
		fprintf(out, "not compared: %s %s: ", ra->name, ra->variant);
		print_status(out, "A", ra);
		print_status(out, ", B", rb);
		fputc('\n', out);
	}
	for (i = 0; i < a->nr; i++)
		if (!a->rows[i].matched)
			fprintf(out, "only in A (%s): %s %s\n", a->path,
				a->rows[i].name, a->rows[i].variant);
	for (i = 0; i < b->nr; i++)
		if (!b->rows[i].matched)
			fprintf(out, "only in B (%s): %s %s\n", b->path,
				b->rows[i].name, b->rows[i].variant);
}

int bench_compare_to(FILE *out, const char *file_a, const char *file_b,
		     double fail_on_regression_pct)
{
	struct bench_file a = { .path = file_a }, b = { .path = file_b };
	int ret, regressed;

	ret = load_file(&a);
	if (ret)
		goto cleanup;
	ret = load_file(&b);
	if (ret)
		goto cleanup;

	print_header(out, "A", &a);
	print_header(out, "B", &b);
	fprintf(out, "Welch's t-test at %.0f%% confidence; more events/s is faster\n",
		(1 - COMPARE_ALPHA) * 100);
	diff_context(out, &a, &b);
	regressed = compare_rows(out, &a, &b, fail_on_regression_pct);
	print_unmatched(out, &a, &b);
	if (regressed) {
		fprintf(out, "regression: %d row(s) significantly slower by more than %g%%\n",
			regressed, fail_on_regression_pct);
		ret = 1;
	}
cleanup:
	free_file(&a);
	free_file(&b);
	return ret;
}

int bench_compare(const char *file_a, const char *file_b,
		  double fail_on_regression_pct)
{
	return bench_compare_to(stdout, file_a, file_b,
				fail_on_regression_pct);
}
