// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench_stats, bench_json and bench_compare against values
 * computed by hand. Prints one "ok - " or "not ok - " line per check, as
 * tests/lib.sh does, and exits 1 when any failed.
 *
 *   stats_test			every check
 *   stats_test --emit-json	a results document, for python3's json
 *   stats_test --compare A B [PCT]	bench_compare(), exiting as the
 *				programs' --compare does: 2 on an error
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "bench_compare.h"
#include "bench_json.h"
#include "bench_stats.h"

#define ARRAY_LEN(a)	((int)(sizeof(a) / sizeof((a)[0])))

static int nr_failed;

static void __attribute__((format(printf, 2, 3)))
check(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		nr_failed++;
}

/* within @tol of @want, relative when @want is not near zero */
static bool near(double got, double want, double tol)
{
	double scale = fabs(want) > 1 ? fabs(want) : 1;

	return fabs(got - want) <= tol * scale;
}

#define check_near(got, want, tol, what) \
	check(near(got, want, tol), "%s = %.12g (want %.12g)", what, \
	      (double)(got), (double)(want))

/* ---- statistics ---- */

static void test_summary(void)
{
	/* sum 40, mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32 */
	static const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct sample_stats s;

	stats_compute(x, ARRAY_LEN(x), &s);
	check(s.n == 8, "n = %d (want 8)", s.n);
	check_near(s.mean, 5, 1e-12, "mean of 2 4 4 4 5 5 7 9");
	/* sample stddev sqrt(32 / 7), not the population's sqrt(32 / 8) = 2 */
	check_near(s.stddev, sqrt(32.0 / 7), 1e-12, "sample stddev");
	check_near(s.cv, sqrt(32.0 / 7) / 5, 1e-12, "cv");
	check(s.min == 2 && s.max == 9, "min %g max %g (want 2 9)", s.min, s.max);
	check_near(s.median, 4.5, 1e-12, "median (even n)");
	/* |x - 4.5| = 2.5 .5 .5 .5 .5 .5 2.5 4.5: median .5 */
	check_near(s.mad, 0.5, 1e-12, "MAD");
	check(stats_noisy(&s), "cv 0.43 is noisy");

	stats_compute((const double[]){ 3 }, 1, &s);
	check(s.n == 1 && s.mean == 3 && s.stddev == 0 && s.median == 3 &&
	      s.mad == 0, "n = 1: mean 3, stddev 0, median 3, MAD 0");
	check(!stats_noisy(&s), "n = 1 is not called noisy");
	stats_compute(x, 0, &s);
	check(s.n == 0 && isnan(s.mean) && isnan(s.stddev), "n = 0: NAN");

	/* mean 100, squared deviations 1+0+1: stddev 1, cv 1% */
	stats_compute((const double[]){ 99, 100, 101 }, 3, &s);
	check(s.cv == 0.01 && !stats_noisy(&s), "cv 1%% is not noisy (%g)", s.cv);
}

static void test_outliers(void)
{
	/*
	 * median 10; |x - 10| = 0 .1 .1 .2 .2 0 d: MAD .1, so a deviation d
	 * has z = 0.6745 d / 0.1: 33.7 for 15, 4.05 for 10.6, 3.37 for 10.5,
	 * 1.35 for 10.2.
	 */
	double x[] = { 10, 10.1, 9.9, 10.2, 9.8, 10, 15 };
	bool out[7];
	int nr;

	nr = stats_outliers(x, 7, out);
	check(nr == 1 && out[6] && !out[3], "15 is the one outlier (%d)", nr);
	x[6] = 10.6;
	nr = stats_outliers(x, 7, out);
	check(nr == 1 && out[6], "10.6 (z 4.05) is an outlier");
	x[6] = 10.5;
	nr = stats_outliers(x, 7, out);
	check(nr == 0 && !out[6], "10.5 (z 3.37) is not an outlier");
	x[6] = 9.4;
	nr = stats_outliers(x, 7, out);
	check(nr == 1 && out[6], "9.4 (z -4.05) is an outlier too");

	/* median 5, |x - 5| = 0 0 0 0 4: MAD 0, no scale, nothing flagged */
	nr = stats_outliers((const double[]){ 5, 5, 5, 5, 9 }, 5, out);
	check(nr == 0 && !out[4], "MAD 0 flags nothing");
}

static void test_ns_overhead(void)
{
	static const double rate[] = { 1e6, 2e6, 4e6 };
	struct sample_stats mode = { .n = 5, .mean = 100, .stddev = 3 };
	struct sample_stats base = { .n = 5, .mean = 80, .stddev = 4 };
	struct sample_stats s;
	struct overhead o;
	double ns[3];
	int err;

	err = stats_ns_per_event(rate, 3, ns);
	stats_compute(ns, 3, &s);
	/* (1000 + 500 + 250) / 3, not 1e9 / mean rate = 428.57 */
	check(!err && ns[0] == 1000 && ns[1] == 500 && ns[2] == 250,
	      "ns per event is 1e9 / rate per sample");
	check_near(s.mean, 1750.0 / 3, 1e-12, "mean ns over samples");
	err = stats_ns_per_event((const double[]){ 1e6, 0 }, 2, ns);
	check(err == -EINVAL && isnan(ns[1]), "rate 0 is -EINVAL");

	/* 100 - 80 = 20, sqrt(3^2 + 4^2) = 5, 20 / 80 = 25% */
	stats_overhead(&mode, &base, &o);
	check_near(o.value, 20, 1e-12, "overhead");
	check_near(o.uncertainty, 5, 1e-12, "propagated uncertainty");
	check_near(o.pct, 25, 1e-12, "overhead in % of base");
}

static void test_t_distribution(void)
{
	/* I_0.5(2, 3) = sum_{j=2..4} C(4, j) / 2^4 = (6 + 4 + 1) / 16 */
	check_near(incbeta(0.5, 2, 3), 0.6875, 1e-12, "I_0.5(2, 3)");
	/* one degree of freedom is Cauchy: p = 1 - 2 atan(t) / pi */
	check_near(student_t_p2(2, 1), 1 - 2 * atan(2) / M_PI, 1e-10,
		   "p(t=2, df=1)");
	/* two: p = 1 - t / sqrt(t^2 + 2) */
	check_near(student_t_p2(2, 2), 1 - 2 / sqrt(6), 1e-10, "p(t=2, df=2)");
	/* critical values from any t table */
	check_near(student_t_p2(2.228, 10), 0.05, 2e-3, "p(t=2.228, df=10)");
	check_near(student_t_p2(-2.228, 10), 0.05, 2e-3, "p(t=-2.228, df=10)");
	check_near(student_t_p2(4.032, 5), 0.01, 2e-4, "p(t=4.032, df=5)");
	check_near(student_t_p2(2.042, 30), 0.05, 2e-3, "p(t=2.042, df=30)");
	check_near(student_t_p2(12.706, 1), 0.05, 1e-3, "p(t=12.706, df=1)");
	check_near(student_t_p2(1.959964, 1e7), 0.05, 1e-5, "p(t=1.96, df=1e7)");
	check(student_t_p2(0, 7) == 1, "p(t=0) = 1");
	check(student_t_p2(INFINITY, 7) == 0, "p(t=inf) = 0");
	check(isnan(student_t_p2(1, 0)), "df 0 gives NAN");
}

static void test_welch(void)
{
	/*
	 * a = 1..5: mean 3, s^2 = 10/4 = 2.5, s^2/n = 0.5
	 * b = 3 5 7 9 11: mean 7, s^2 = 40/4 = 10, s^2/n = 2
	 * t = 4 / sqrt(2.5) = 2.529822128
	 * df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 = 5.882352941
	 * p = 0.045464619 by Simpson integration of the t density
	 */
	static const double a[] = { 1, 2, 3, 4, 5 };
	static const double b[] = { 3, 5, 7, 9, 11 };
	/*
	 * c = 1 2 3, d = 4 5 6: s^2/n = 1/3 each, t = 3 / sqrt(2/3),
	 * t^2 = 13.5, df = (2/3)^2 / (2 (1/3)^2 / 2) = 4, and with four
	 * degrees of freedom p = 1 - 3/4 x (1 - t^2 / 12u), u = 1 + t^2/4,
	 * x = t / sqrt(u): 0.021311641
	 */
	static const double c[] = { 1, 2, 3 }, d[] = { 4, 5, 6 };
	struct sample_stats sa, sb;
	struct welch w;
	double t2 = 13.5, u = 1 + t2 / 4;

	stats_compute(a, 5, &sa);
	stats_compute(b, 5, &sb);
	check(!welch_test(&sa, &sb, &w) && w.decidable, "welch on 5 + 5 samples");
	check_near(w.t, 4 / sqrt(2.5), 1e-12, "welch t");
	check_near(w.df, 6.25 / 1.0625, 1e-12, "welch df");
	check_near(w.p, 0.0454646189709, 1e-8, "welch p");
	check(stats_verdict(&sa, &sb, 0.05, true, NULL) == V_FASTER,
	      "b higher at p 0.045: faster at 95%%");
	check(stats_verdict(&sa, &sb, 0.01, true, NULL) == V_NO_CHANGE,
	      "... but no significant change at 99%%");
	check(stats_verdict(&sa, &sb, 0.05, false, NULL) == V_SLOWER,
	      "higher cost: slower");
	check(stats_verdict(&sb, &sa, 0.05, true, NULL) == V_SLOWER,
	      "b lower rate: slower");

	stats_compute(c, 3, &sa);
	stats_compute(d, 3, &sb);
	welch_test(&sa, &sb, &w);
	check_near(w.df, 4, 1e-12, "welch df, equal variances");
	check_near(w.p, 1 - 0.75 * sqrt(t2 / u) * (1 - t2 / (12 * u)), 1e-10,
		   "welch p, df 4 closed form");
}

static void test_verdict_degenerate(void)
{
	static const double x[] = { 3, 3, 3 }, y[] = { 4, 4, 4 };
	struct sample_stats sa, sb;
	struct welch w;

	stats_compute(x, 3, &sa);
	stats_compute(x, 3, &sb);
	check(stats_verdict(&sa, &sb, 0.05, true, &w) == V_NO_CHANGE &&
	      w.p == 1, "stddev 0 both, equal means: no change, p 1");
	stats_compute(y, 3, &sb);
	check(stats_verdict(&sa, &sb, 0.05, true, &w) == V_FASTER &&
	      w.p == 0, "stddev 0 both, different means: significant");
	stats_compute(y, 1, &sb);
	check(stats_verdict(&sa, &sb, 0.05, true, &w) == V_NO_CHANGE &&
	      !w.decidable, "one sample: cannot tell, no significant change");
	check(!strcmp(verdict_name(V_NO_CHANGE), "no significant change") &&
	      !strcmp(verdict_name(V_FASTER), "faster") &&
	      !strcmp(verdict_name(V_SLOWER), "slower"), "verdict names");
}

/* ---- JSON ---- */

/* characters that must be escaped, and UTF-8 that must not be */
static const char tricky[] = "q\"b\\s/ \b\f\n\r\t \x01\x1f\x7f µs ✓ \xf0\x9f\x98\x80";

static char *write_doc(void (*fn)(struct json_writer *), int *destroy_ret)
{
	struct json_writer *w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	w = jsonw_new(f);
	fn(w);
	*destroy_ret = jsonw_destroy(w);
	fclose(f);
	return buf;
}

static void doc_layout(struct json_writer *w)
{
	jsonw_start_object(w);
	jsonw_uint_field(w, "a", 1);
	jsonw_name(w, "b");
	jsonw_start_array(w);
	jsonw_bool(w, true);
	jsonw_null(w);
	jsonw_end_array(w);
	jsonw_name(w, "c");
	jsonw_start_object(w);
	jsonw_end_object(w);
	jsonw_name(w, "d");
	jsonw_start_array(w);
	jsonw_end_array(w);
	jsonw_end_object(w);
}

static const double doubles[] = {
	0.1, 1.0 / 3, 3.6e6, 1e300, 5e-324, -0.0, -123.456, 2.5e-7,
};

static void doc_values(struct json_writer *w)
{
	int i;

	jsonw_start_object(w);
	jsonw_string_field(w, "tricky", tricky);
	jsonw_string_field(w, "bad_utf8", "a\xff" "b\xc0\xaf" "c");
	jsonw_string_field(w, "nothing", NULL);
	jsonw_name(w, "doubles");
	jsonw_start_array(w);
	for (i = 0; i < ARRAY_LEN(doubles); i++)
		jsonw_double(w, doubles[i]);
	jsonw_end_array(w);
	jsonw_double_field(w, "nan", NAN);
	jsonw_double_field(w, "inf", -INFINITY);
	jsonw_uint_field(w, "u64max", 18446744073709551615ULL);
	jsonw_int_field(w, "neg", -5);
	jsonw_bool_field(w, "no", false);
	jsonw_null_field(w, "null");
	jsonw_end_object(w);
}

static void doc_unbalanced(struct json_writer *w)
{
	jsonw_start_object(w);
	jsonw_start_array(w);
	jsonw_end_array(w);
}

static void test_writer_layout(void)
{
	static const char want[] =
		"{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ],\n"
		"  \"c\": {},\n  \"d\": []\n}\n";
	char *doc;
	int ret;

	doc = write_doc(doc_layout, &ret);
	check(doc && !ret && !strcmp(doc, want),
	      "pretty layout: 2-space indent, commas, {} and []");
	if (doc && strcmp(doc, want))
		printf("# got:\n%s", doc);
	free(doc);
	doc = write_doc(doc_unbalanced, &ret);
	check(ret == -EINVAL, "an open object is reported by jsonw_destroy");
	free(doc);
}

/* jansson, as --compare reads them; integers as doubles, as it does */
static json_t *read_doc(const char *doc, json_error_t *err)
{
	return json_loads(doc, JSON_DECODE_INT_AS_REAL, err);
}

static const char *get_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static void test_round_trip(void)
{
	json_t *root = NULL, *v, *e;
	json_error_t err = { .text = "" };
	bool same = true;
	char *doc;
	size_t i;
	int ret;

	doc = write_doc(doc_values, &ret);
	root = doc ? read_doc(doc, &err) : NULL;
	check(root && !ret, "writer output parses (%s)", err.text);
	if (!root)
		goto out;
	check(get_str(root, "tricky") && !strcmp(get_str(root, "tricky"), tricky),
	      "escaped string reads back the same");
	check(strstr(doc, "\\u0001") && strstr(doc, "\\u001f") &&
	      strstr(doc, "q\\\"b\\\\s") && strstr(doc, "\\b\\f\\n\\r\\t"),
	      "quote, backslash and control characters escaped");
	check(get_str(root, "bad_utf8") &&
	      !strcmp(get_str(root, "bad_utf8"),
		      "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd" "c"),
	      "invalid UTF-8 becomes U+FFFD");
	v = json_object_get(root, "doubles");
	check(json_array_size(v) == ARRAY_LEN(doubles),
	      "array of %d doubles", ARRAY_LEN(doubles));
	json_array_foreach(v, i, e)
		same &= json_is_real(e) &&
			json_real_value(e) == doubles[i] &&
			signbit(json_real_value(e)) == signbit(doubles[i]);
	check(same, "doubles read back bit-exact");
	check(strstr(doc, "0.1,") && strstr(doc, "3600000,"),
	      "shortest exact form: 0.1, not 0.10000000000000001");
	check(json_is_null(json_object_get(root, "nan")) &&
	      json_is_null(json_object_get(root, "inf")),
	      "NAN and inf written as null");
	check(json_is_null(json_object_get(root, "nothing")), "NULL string is null");
	check(strstr(doc, "\"u64max\": 18446744073709551615"), "u64 max");
	check(json_number_value(json_object_get(root, "neg")) == -5,
	      "negative int");
	check(json_is_false(json_object_get(root, "no")), "false");
out:
	json_decref(root);
	free(doc);
}

/* ---- compare ---- */

struct row_spec {
	const char *name;
	const char *variant;
	const char *status;
	const char *reason;
	const double *samples;
	int n;
};

struct ctx_spec {
	const char *kernel;
	int online_cpus;
};

static const struct ctx_spec ctx_host = { "6.1.0-18-amd64", 2 };

static void write_row(struct json_writer *w, const struct row_spec *r)
{
	struct sample_stats s;
	int i;

	stats_compute(r->samples, r->n, &s);
	jsonw_start_object(w);
	jsonw_string_field(w, "name", r->name);
	jsonw_string_field(w, "variant", r->variant);
	jsonw_string_field(w, "status", r->status);
	jsonw_string_field(w, "reason", r->reason);
	jsonw_string_field(w, "unit", "events/s");
	jsonw_name(w, "samples");
	jsonw_start_array(w);
	for (i = 0; i < r->n; i++)
		jsonw_double(w, r->samples[i]);
	jsonw_end_array(w);
	jsonw_double_field(w, "mean", s.mean);
	jsonw_double_field(w, "stddev", s.stddev);
	jsonw_null_field(w, "overhead_ns");
	jsonw_end_object(w);
}

static void write_context(struct json_writer *w, const struct ctx_spec *c)
{
	jsonw_name(w, "context");
	jsonw_start_object(w);
	jsonw_string_field(w, "kernel_release", c->kernel);
	jsonw_string_field(w, "kernel_build", "#1 SMP PREEMPT_DYNAMIC");
	jsonw_string_field(w, "cpu_model", "Test CPU \"quoted\" @ 2.0GHz");
	jsonw_int_field(w, "online_cpus", c->online_cpus);
	jsonw_string_field(w, "cpus_used", "0-1");
	jsonw_string_field(w, "libbpf_version", "1.1");
	jsonw_null_field(w, "attach_method");
	jsonw_uint_field(w, "count", 100000);
	jsonw_null_field(w, "duration_s");
	jsonw_int_field(w, "repeat", 5);
	jsonw_int_field(w, "warmup", 1);
	jsonw_string_field(w, "timestamp", "2026-11-30T05:10:00Z");
	jsonw_end_object(w);
}

static int write_results(const char *path, const struct ctx_spec *c,
			 const struct row_spec *rows, int nr)
{
	struct json_writer *w;
	FILE *f;
	int i, ret;

	f = fopen(path, "w");
	if (!f)
		return -errno;
	w = jsonw_new(f);
	jsonw_start_object(w);
	jsonw_string_field(w, "schema", BENCH_SCHEMA);
	jsonw_string_field(w, "tool", "test_overhead");
	jsonw_string_field(w, "version", "test");
	write_context(w, c);
	jsonw_name(w, "results");
	jsonw_start_array(w);
	for (i = 0; i < nr; i++)
		write_row(w, &rows[i]);
	jsonw_end_array(w);
	jsonw_end_object(w);
	ret = jsonw_destroy(w);
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

static char tmpdir[] = "/tmp/stats_test.XXXXXX";
static char path_a[64], path_b[64];
static char *cmp_out;
static char cmp_err[512];

/* runs the compare with stdout and stderr kept in cmp_out and cmp_err */
static int run_compare(const char *a, const char *b, double pct)
{
	size_t len = 0;
	FILE *out, *err;
	int saved, ret;
	ssize_t n;

	free(cmp_out);
	cmp_out = NULL;
	cmp_err[0] = '\0';
	out = open_memstream(&cmp_out, &len);
	err = tmpfile();
	if (!out || !err)
		return -ENOMEM;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	ret = bench_compare_to(out, a, b, pct);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	fclose(out);
	rewind(err);
	n = fread(cmp_err, 1, sizeof(cmp_err) - 1, err);
	cmp_err[n > 0 ? n : 0] = '\0';
	fclose(err);
	return ret;
}

/* the table row of @name @variant in cmp_out ends with @verdict */
static bool row_says(const char *name, const char *variant,
		     const char *verdict)
{
	char head[64];
	const char *line, *eol;

	snprintf(head, sizeof(head), "  %-11s %-13s ", name, variant);
	line = cmp_out ? strstr(cmp_out, head) : NULL;
	if (!line)
		return false;
	eol = strchr(line, '\n');
	line = strstr(line, verdict);
	return line && (!eol || line < eol);
}

static const double base_s[] = { 3.60e6, 3.62e6, 3.58e6, 3.61e6, 3.59e6 };
/* 8.3% below base_s, stddev 0.016e6: t about -30 */
static const double slow_s[] = { 3.30e6, 3.32e6, 3.28e6, 3.31e6, 3.29e6 };
/* stddev 0.79e6 for a delta of 0.05e6 */
static const double wide_a[] = { 3.6e6, 2.6e6, 4.6e6, 3.1e6, 4.1e6 };
static const double wide_b[] = { 3.65e6, 2.65e6, 4.65e6, 3.15e6, 4.15e6 };

static int pair(const struct row_spec *a, int nr_a, const struct row_spec *b,
		int nr_b, const struct ctx_spec *ctx_b)
{
	int ret;

	ret = write_results(path_a, &ctx_host, a, nr_a);
	if (!ret)
		ret = write_results(path_b, ctx_b, b, nr_b);
	return ret;
}

#define ROW(n, v, s)	{ n, v, "ok", NULL, s, ARRAY_LEN(s) }

static void test_compare_verdicts(void)
{
	struct row_spec a[] = {
		ROW("base", "task_rename", base_s),
		ROW("kprobe", "task_rename", base_s),
		ROW("raw_tp", "task_rename", slow_s),
		ROW("fentry", "task_rename", wide_a),
	};
	struct row_spec b[] = {
		ROW("base", "task_rename", base_s),	/* identical */
		ROW("kprobe", "task_rename", slow_s),	/* slower */
		ROW("raw_tp", "task_rename", base_s),	/* faster */
		ROW("fentry", "task_rename", wide_b),	/* +1.3%, spread 22% */
	};
	int ret;

	check(!pair(a, 4, b, 4, &ctx_host), "result files written");
	ret = run_compare(path_a, path_b, -1);
	check(ret == 0, "compare exits 0 (%d)", ret);
	check(row_says("base", "task_rename", "no significant change"),
	      "identical samples: no significant change");
	check(row_says("kprobe", "task_rename", "slower"),
	      "clearly lower rate: slower");
	check(row_says("raw_tp", "task_rename", "faster"),
	      "clearly higher rate: faster");
	check(row_says("fentry", "task_rename", "no significant change") &&
	      row_says("fentry", "task_rename", "noisy"),
	      "small delta, huge spread: no significant change, noisy");
	check(row_says("kprobe", "task_rename", "-8.33%"), "delta in %%");
	check(cmp_out && !strstr(cmp_out, "context differs") &&
	      !strstr(cmp_out, "only in"), "same context, same rows: nothing named");
	if (nr_failed && cmp_out)
		printf("# %s", cmp_out);

	ret = run_compare(path_a, path_b, 5);
	check(ret == 1 && strstr(cmp_out, "regression: 1 row"),
	      "--fail-on-regression 5: 8.3%% slower fails (%d)", ret);
	ret = run_compare(path_a, path_b, 10);
	check(ret == 0, "--fail-on-regression 10: 8.3%% slower passes (%d)", ret);
}

static void test_compare_wide_regression(void)
{
	struct row_spec a[] = { ROW("kprobe", "task_rename", wide_b) };
	struct row_spec b[] = { ROW("kprobe", "task_rename", wide_a) };
	int ret;

	/* 1.3% slower on the means but not significant: never a regression */
	pair(a, 1, b, 1, &ctx_host);
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0 && row_says("kprobe", "task_rename", "no significant"),
	      "--fail-on-regression 0: insignificant slowdown passes (%d)", ret);

	a[0].samples = slow_s;
	b[0].samples = base_s;
	pair(a, 1, b, 1, &ctx_host);
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0 && row_says("kprobe", "task_rename", "faster"),
	      "--fail-on-regression 0: a speed-up passes (%d)", ret);
}

static void test_compare_rows_context(void)
{
	static const double one[] = { 3.6e6 };
	struct row_spec a[] = {
		ROW("base", "task_rename", base_s),
		ROW("kprobe", "task_rename", base_s),
		ROW("fexit", "task_rename", base_s),
		ROW("raw_tp", "task_rename", one),
	};
	struct row_spec b[] = {
		ROW("base", "task_rename", base_s),
		ROW("fentry", "task_rename", base_s),
		{ "fexit", "task_rename", "skipped", "no BTF for \"x\"", NULL, 0 },
		ROW("raw_tp", "task_rename", one),
	};
	struct ctx_spec other = { "6.1.0-20-amd64", 4 };
	int ret;

	pair(a, 4, b, 4, &other);
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0, "compare with missing rows exits 0 (%d)", ret);
	check(cmp_out && strstr(cmp_out, "only in A (") &&
	      strstr(cmp_out, "): kprobe task_rename\n"), "row only in A named");
	check(cmp_out && strstr(cmp_out, "only in B (") &&
	      strstr(cmp_out, "): fentry task_rename\n"), "row only in B named");
	check(cmp_out && strstr(cmp_out, "not compared: fexit task_rename: A ok"
				" in events/s, B skipped (no BTF for \"x\")"),
	      "row skipped in B named with its reason");
	check(row_says("raw_tp", "task_rename", "cannot tell"),
	      "one sample each: cannot tell");
	check(cmp_out && strstr(cmp_out, "context differs: online_cpus: A 2, B 4"),
	      "online CPU mismatch named");
	check(cmp_out && strstr(cmp_out, "kernel differs (expected when comparing"
				" kernels): kernel_release: A 6.1.0-18-amd64, B"
				" 6.1.0-20-amd64"), "kernel difference named");
	if (nr_failed && cmp_out)
		printf("# %s", cmp_out);
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -EIO : 0;
}

static void expect_compare_error(const char *text, int want, const char *msg)
{
	int ret;

	write_text(path_b, text);
	ret = run_compare(path_a, path_b, 5);
	check(ret == want && strstr(cmp_err, msg) &&
	      strchr(cmp_err, '\n') == cmp_err + strlen(cmp_err) - 1,
	      "compare error %d, one line \"%s\"", ret, msg);
}

static void test_compare_errors(void)
{
	struct row_spec a[] = { ROW("base", "task_rename", base_s) };
	char missing[80];
	int ret;

	write_results(path_a, &ctx_host, a, 1);
	expect_compare_error("{ \"schema\": \"bpf-bench/1\",\n  \"results\": [ }",
			     -EINVAL, "line 2, column 16: unexpected token near '}'");
	expect_compare_error("{ \"schema\": \"bpf-bench/2\", \"context\": {},"
			     " \"results\": [] }", -EINVAL,
			     "\"schema\" is \"bpf-bench/2\", expected \"bpf-bench/1\"");
	expect_compare_error("[]", -EINVAL, "\"schema\" is missing");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {} }",
			     -EINVAL, "a \"results\" array");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"results\": [ { \"name\": \"a\", \"variant\": "
			     "\"b\", \"status\": \"ok\", \"unit\": \"events/s\","
			     " \"samples\": [ 1, null ] } ] }", -EINVAL,
			     "results[0] (a b): an ok row needs a non-empty");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"results\": [ { \"name\": \"a\", \"variant\": "
			     "\"b\", \"status\": \"lost\" } ] }", -EINVAL,
			     "results[0] (a b): status is none of ok, skipped, failed, disturbed");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"context\": {}, \"results\": [] }", -EINVAL,
			     "line 1, column 51: duplicate object key near '\"context\"'");
	snprintf(missing, sizeof(missing), "%s/missing.json", tmpdir);
	ret = run_compare(path_a, missing, -1);
	check(ret == -ENOENT && strstr(cmp_err, "No such file"),
	      "missing file: -ENOENT (%d)", ret);
	/* a valid empty file compares, with nothing to say */
	write_text(path_b, "{ \"schema\": \"bpf-bench/1\", \"context\": {},"
		   " \"results\": [] }");
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0 && !cmp_err[0] && strstr(cmp_out, "only in A"),
	      "empty results compare: exit 0, row only in A (%d)", ret);
}

/* ---- compare: identities, limits and hostile files ---- */

#define SAMPLES_BASE	"[ 3.60e6, 3.62e6, 3.58e6, 3.61e6, 3.59e6 ]"
#define SAMPLES_SLOW	"[ 3.30e6, 3.32e6, 3.28e6, 3.31e6, 3.29e6 ]"
/* results[] members as JSON text; @extra goes in as it is */
#define JROW(name, variant, extra, samples)				\
	"{ \"name\": \"" name "\", \"variant\": \"" variant "\"" extra	\
	", \"status\": \"ok\", \"unit\": \"events/s\", \"samples\": "	\
	samples " }"
#define JSTATUS(name, variant, status, reason)				\
	"{ \"name\": \"" name "\", \"variant\": \"" variant "\", "	\
	"\"status\": \"" status "\", \"reason\": \"" reason "\" }"

/* a results file around @rows, the members of results[] */
static int write_rows(const char *path, const char *rows)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "{ \"schema\": \"bpf-bench/1\", \"tool\": \"map_perf_test\","
		" \"context\": {}, \"results\": [ %s ] }\n", rows);
	return fclose(f) ? -EIO : 0;
}

static int compare_rows_text(const char *rows_a, const char *rows_b)
{
	write_rows(path_a, rows_a);
	write_rows(path_b, rows_b);
	return run_compare(path_a, path_b, -1);
}

static bool out_has(const char *s)
{
	return cmp_out && strstr(cmp_out, s);
}

static void test_compare_params(void)
{
	int ret;

	ret = compare_rows_text(
		JROW("hash", "kprobe", ", \"params\": { \"entries\": 1024, \"key_size\": 16 }", SAMPLES_BASE) ","
		JROW("hash", "kprobe", ", \"params\": { \"entries\": 4096 }", SAMPLES_BASE) ","
		JROW("hash", "kprobe", "", SAMPLES_BASE) ","
		JROW("lru", "kprobe", ", \"params\": { \"cpus\": \"0-1\" }", SAMPLES_BASE),
		JROW("hash", "kprobe", ", \"params\": { \"key_size\": 16, \"entries\": 1024 }", SAMPLES_SLOW) ","
		JROW("hash", "kprobe", ", \"params\": { \"entries\": 4096.0 }", SAMPLES_BASE) ","
		JROW("lru", "kprobe", ", \"params\": { \"cpus\": \"0,1\" }", SAMPLES_BASE) ","
		JROW("lru", "kprobe", ", \"params\": null", SAMPLES_BASE));
	check(ret == 0, "compare with params exits 0 (%d): %s", ret, cmp_err);
	check(row_says("hash", "kprobe [entries=1024,key_size=16]", "slower"),
	      "params in any order are one row, shown sorted");
	check(row_says("hash", "kprobe [entries=4096]", "no significant change"),
	      "4096 and 4096.0 are the same param");
	check(out_has("only in A (") && out_has("): hash kprobe\n"),
	      "the row without params is another row");
	check(out_has("): lru kprobe [cpus=0-1]\n") &&
	      out_has("): lru kprobe [cpus=0\\,1]\n") &&
	      out_has("only in B (") && out_has("): lru kprobe\n"),
	      "different params: different rows; ',' in a value escaped; null params are none");
	if (nr_failed && cmp_out)
		printf("# %s", cmp_out);

	write_rows(path_b, JROW("hash", "kprobe", ", \"params\": { \"a\": true }", SAMPLES_BASE));
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EINVAL && strstr(cmp_err, "results[0] (hash kprobe): \"params\" members must be numbers or strings"),
	      "a boolean param is refused (%d)", ret);
	write_rows(path_b, JROW("hash", "kprobe", ", \"params\": [ 1 ]", SAMPLES_BASE));
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EINVAL && strstr(cmp_err, "\"params\" must be an object"),
	      "params that are not an object are refused (%d)", ret);
}

static void test_compare_dups_disturbed(void)
{
	int ret;

	/* the first of a duplicated identity counts: slow, then base */
	ret = compare_rows_text(
		JROW("base", "getpgid", "", SAMPLES_SLOW) ","
		JROW("base", "getpgid", "", SAMPLES_BASE) ","
		JROW("base", "getpgid", "", SAMPLES_BASE) ","
		JROW("kprobe", "getpgid", "", SAMPLES_BASE),
		JROW("base", "getpgid", "", SAMPLES_SLOW) ","
		JSTATUS("kprobe", "getpgid", "disturbed", "a CPU was busy") ","
		JSTATUS("kprobe", "getpgid", "failed", "later"));
	check(ret == 0 && !cmp_err[0], "duplicates are no error (%d): %s", ret,
	      cmp_err);
	check(row_says("base", "getpgid", "no significant change"),
	      "a duplicate identity: the first row counts");
	check(out_has("duplicate in A (") &&
	      out_has("): base getpgid: results[0] kept, 2 later rows ignored\n"),
	      "duplicates in A noted once");
	check(out_has("duplicate in B (") &&
	      out_has("): kprobe getpgid: results[1] kept, 1 later row ignored\n"),
	      "duplicates in B noted once");
	check(out_has("not compared: kprobe getpgid: A ok in events/s, B disturbed (a CPU was busy)\n"),
	      "a disturbed row is listed, not judged");
	check(!strstr(cmp_out, "only in"), "duplicates are not \"only in\"");
	if (nr_failed && cmp_out)
		printf("# %s", cmp_out);
}

static void test_compare_escapes(void)
{
	char long_row[1024], want[80];
	bool clean = true;
	const char *c;
	int ret;

	ret = compare_rows_text(
		JROW("evil\\n\\u001b[2J", "x\\u009by\\u202ez", "", SAMPLES_BASE) ","
		JSTATUS("r", "v", "failed", "line\\rover\\u007f"),
		JSTATUS("r", "v", "skipped", "tab\\there") ","
		JSTATUS("\\u00b5s \\u2713", "v", "failed", "x"));
	check(ret == 0, "hostile names compare (%d): %s", ret, cmp_err);
	for (c = cmp_out; c && *c; c++)
		clean &= (unsigned char)*c >= 0x20 && *c != 0x7f ? true : *c == '\n';
	check(clean, "no control byte but newlines in the output");
	check(out_has("): evil\\x0a\\x1b[2J x\\xc2\\x9by\\xe2\\x80\\xaez\n"),
	      "newline, escape, C1 CSI and bidi override shown as \\xNN");
	check(out_has("A failed (line\\x0dover\\x7f), B skipped (tab\\x09here)"),
	      "reasons escaped too");
	check(out_has("): \xc2\xb5s \xe2\x9c\x93 v\n"), "printable UTF-8 kept as it is");
	if (nr_failed && cmp_out)
		printf("# %s", cmp_out);

	memset(want, 'n', 60);
	strcpy(want + 60, "...");
	snprintf(long_row, sizeof(long_row), JSTATUS("%0500d", "v", "failed", "x"), 0);
	memset(strchr(long_row, '0'), 'n', 500);
	write_rows(path_a, long_row);
	ret = run_compare(path_a, path_a, -1);
	check(ret == 0 && out_has(want) && !out_has("nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"),
	      "a 500-byte name is cut to 60 and \"...\" (%d)", ret);

	write_text(path_b, "{ \"schema\": \"bpf-bench/1\\u001b[2J\", \"context\": {}, \"results\": [] }");
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EINVAL && strstr(cmp_err, "\"schema\" is \"bpf-bench/1\\x1b[2J\"") &&
	      !strchr(cmp_err, '\x1b'), "a bad schema is escaped in the error (%d)", ret);
}

/* a file of @size bytes, none on disk: only its size is ever looked at */
static int sparse_file(const char *path, off_t size)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (ftruncate(fileno(f), size))
		ret = -errno;
	fclose(f);
	return ret;
}

/* results[] of @n copies of @row, in the file of @path */
static int repeat_rows(const char *path, const char *row, int n)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		return -errno;
	fputs("{ \"schema\": \"bpf-bench/1\", \"context\": {}, \"results\": [", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", row);
	fputs("] }\n", f);
	return fclose(f) ? -EIO : 0;
}

static void test_compare_limits(void)
{
	char row[2048];
	int ret, i, n;

	write_rows(path_a, JROW("a", "b", "", SAMPLES_BASE));
	sparse_file(path_b, JSON_MAX_FILE_SIZE + 1);
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EFBIG && strstr(cmp_err, "b.json: 16777217 bytes, larger than 16 MiB: refused\n") &&
	      strchr(cmp_err, '\n') == cmp_err + strlen(cmp_err) - 1,
	      "a file over 16 MiB is refused in one line (%d)", ret);

	/* 101 samples: MAX_REPEAT is 100 */
	n = snprintf(row, sizeof(row), "{ \"name\": \"a\", \"variant\": \"b\", "
		     "\"status\": \"ok\", \"unit\": \"events/s\", \"samples\": [ 1");
	for (i = 1; i <= 100; i++)
		n += snprintf(row + n, sizeof(row) - n, ", %d", i + 1);
	snprintf(row + n, sizeof(row) - n, " ] }");
	write_rows(path_b, row);
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EINVAL && strstr(cmp_err, "results[0] (a b): 101 samples, at most 100\n"),
	      "101 samples are refused, naming the row (%d)", ret);

	repeat_rows(path_b, "{\"name\":\"a\",\"variant\":\"b\",\"status\":\"skipped\"}",
		    COMPARE_MAX_ROWS + 1);
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EFBIG && strstr(cmp_err, "100001 results rows, at most 100000\n"),
	      "100001 rows are refused (%d)", ret);

	/* "{}" costs jansson some 200 bytes of memory for its 3 bytes */
	repeat_rows(path_b, "{}", 100000);
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EFBIG && strstr(cmp_err, "needs more than 32 times its size in memory to read: refused\n"),
	      "a file that would take 75 times its size in memory is refused (%d)", ret);
	/* while plain rows, as small as they come, are read */
	repeat_rows(path_b, JROW("a", "b", "", "[1]"), 60000);
	ret = run_compare(path_a, path_b, -1);
	check(ret == 0 && out_has("results[0] kept, 59999 later rows ignored"),
	      "60000 small rows are read within the memory bound (%d)", ret);
}

static void test_compare(void)
{
	if (!mkdtemp(tmpdir)) {
		check(false, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path_a, sizeof(path_a), "%s/a.json", tmpdir);
	snprintf(path_b, sizeof(path_b), "%s/b.json", tmpdir);
	test_compare_verdicts();
	test_compare_wide_regression();
	test_compare_rows_context();
	test_compare_errors();
	test_compare_params();
	test_compare_dups_disturbed();
	test_compare_escapes();
	test_compare_limits();
	unlink(path_a);
	unlink(path_b);
	rmdir(tmpdir);
	free(cmp_out);
}

/* ---- modes ---- */

/* a results document with ok, skipped and failed rows and every escape */
static int emit_json(void)
{
	struct json_writer *w = jsonw_new(stdout);
	struct row_spec rows[] = {
		ROW("base", "task_rename", base_s),
		{ "fentry", "task_rename", "skipped", "no BTF: \"x\"\n", NULL, 0 },
		{ "kprobe", "urandom_read", "failed", tricky, NULL, 0 },
	};
	int i;

	jsonw_start_object(w);
	jsonw_string_field(w, "schema", BENCH_SCHEMA);
	jsonw_string_field(w, "tool", "test_overhead");
	jsonw_string_field(w, "version", "test");
	write_context(w, &ctx_host);
	jsonw_string_field(w, "tricky", tricky);
	jsonw_double_field(w, "tenth", 0.1);
	jsonw_double_field(w, "nan", NAN);
	jsonw_name(w, "results");
	jsonw_start_array(w);
	for (i = 0; i < ARRAY_LEN(rows); i++)
		write_row(w, &rows[i]);
	jsonw_end_array(w);
	jsonw_end_object(w);
	return jsonw_destroy(w) ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret;

	bench_init("stats_test");
	if (argc == 2 && !strcmp(argv[1], "--emit-json"))
		return emit_json();
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--compare")) {
		ret = bench_compare(argv[2], argv[3],
				    argc == 5 ? atof(argv[4]) : -1);
		return ret < 0 ? 2 : ret;
	}

	test_summary();
	test_outliers();
	test_ns_overhead();
	test_t_distribution();
	test_welch();
	test_verdict_degenerate();
	test_writer_layout();
	test_round_trip();
	test_compare();
	printf("# stats_test: %d failed\n", nr_failed);
	return nr_failed ? 1 : 0;
}
