// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench_stats, bench_parse, bench_cpus, bench_cmdline,
 * bench_msg, bench_compare and the uprobe targets' nop check against
 * values computed by hand. Prints one "ok - " or "not ok - " line per
 * check, as tests/lib.sh does, and exits 1 when any failed. The
 * results documents it compares are written by report/results_json.c's own
 * write_results(), so that their schema is the programs'.
 *
 *   stats_test			every check
 *   stats_test --write-results FILE	a results document written by
 *				report/results_json.c's writer, for python3's json
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
#include <sys/wait.h>
#include <linux/perf_event.h>
#include "cli/cli.h"
#include "core/core.h"
#include "kernel/kernel.h"
#include "passes/passes.h"
#include "sample/sample.h"
#include "workers/workers.h"
#include "compare/compare.h"
#include "report/report.h"
#include "rows/rows.h"
#include "stats/stats.h"
#include "map_perf_test.h"
#include "uprobe_targets.h"

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

	stats_compute(x, ARRAY_SIZE(x), &s);
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

/* a figure the JSON has not (null, NAN) is "-", never "nan" */
static void test_format_or_dash(void)
{
	char buf[24];

	check(!strcmp(format_or_dash(buf, sizeof(buf), 1, NAN), "-"),
	      "format_or_dash: no figure is '-' (%s)", buf);
	check(!strcmp(format_or_dash(buf, sizeof(buf), 2, 81.424), "81.42"),
	      "format_or_dash: a figure to its precision (%s)", buf);
}

static void test_ns_overhead(void)
{
	struct overhead o;

	/*
	 * units 18, 20, 22: mean 20, sd 2, t(0.975, 2) = 4.3027 over
	 * sqrt(3); 20 against a base of 80 is 25%
	 */
	stats_overhead((const double[]){ 18, 20, 22 }, 3, 80, &o);
	check_near(o.value, 20, 1e-12, "overhead: the units' mean");
	check_near(o.ci95, 4.302653 * 2 / sqrt(3), 1e-5,
		   "overhead: Student's t over the units");
	check(o.n == 3, "overhead: its units");
	check_near(o.pct, 25, 1e-12, "overhead in % of base");
	stats_overhead((const double[]){ 20 }, 1, 80, &o);
	check(isnan(o.ci95), "overhead: one unit has no interval");
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

static void test_t_quantile(void)
{
	/* two-sided 5% critical values from any t table, to 7 digits */
	static const struct { double df, t; } table[] = {
		{ 1, 12.7062047 }, { 2, 4.3026527 }, { 4, 2.7764451 },
		{ 9, 2.2621572 }, { 30, 2.0422725 },
	};
	/* {1, 2, 3, 4, 5}: mean 3, stddev sqrt(10 / 4), sqrt(n) = sqrt(5) */
	static const double x[] = { 1, 2, 3, 4, 5 };
	struct sample_stats s;
	char what[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		snprintf(what, sizeof(what), "t quantile p=0.05 df=%g",
			 table[i].df);
		check_near(student_t_quantile(0.05, table[i].df), table[i].t,
			   1e-7, what);
	}
	check_near(student_t_quantile(0.01, 4), 4.6040949, 1e-7,
		   "t quantile p=0.01 df=4");
	check_near(student_t_quantile(0.05, 1e7), 1.9599640, 1e-6,
		   "t quantile p=0.05 df=1e7 (normal)");
	check_near(student_t_p2(student_t_quantile(0.05, 5.88), 5.88), 0.05,
		   1e-9, "p2(quantile(0.05, df=5.88)) = 0.05");
	check(isnan(student_t_quantile(0, 4)) && isnan(student_t_quantile(1, 4)) &&
	      isnan(student_t_quantile(0.05, 0)) &&
	      isnan(student_t_quantile(NAN, 4)),
	      "quantile outside (0, 1) or df 0: NAN");

	stats_compute(x, 5, &s);
	/* 2.7764451 x sqrt(2.5) / sqrt(5) = 2.7764451 x sqrt(0.5) */
	check_near(stats_ci_half(&s, 0.05), 2.7764451 * sqrt(0.5), 1e-7,
		   "95% CI half-width of 1 2 3 4 5");
	check_near(stats_ci_half(&s, 0.01), 4.6040949 * sqrt(0.5), 1e-7,
		   "99% CI half-width of 1 2 3 4 5");
	/* {1, 3}: stddev sqrt(2), / sqrt(2): the df=1 quantile itself */
	stats_compute((const double[]){ 1, 3 }, 2, &s);
	check_near(stats_ci_half(&s, 0.05), 12.7062047, 1e-7,
		   "95% CI half-width of 1 3");
	stats_compute((const double[]){ 4, 4, 4 }, 3, &s);
	check(stats_ci_half(&s, 0.05) == 0, "no spread: CI half-width 0");
	stats_compute(x, 1, &s);
	check(isnan(stats_ci_half(&s, 0.05)), "one sample: CI half-width NAN");
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

/* ---- the runner's pure helpers: core/util.c, core/msg.c ---- */

/* parse_u64(@s, @min, @max) gives @want_err, and @want_val when 0 */
static void u64_case(const char *s, __u64 min, __u64 max, int want_err,
		     __u64 want_val)
{
	__u64 v = 12345;
	int err;

	err = parse_u64(s, min, max, &v);
	if (want_err)
		check(err == want_err && v == 12345,
		      "parse_u64(\"%s\", %llu, %llu) is %d, *out untouched (%d)",
		      printable(s), (unsigned long long)min,
		      (unsigned long long)max, want_err, err);
	else
		check(!err && v == want_val,
		      "parse_u64(\"%s\") = %llu (%d, %llu)", printable(s),
		      (unsigned long long)want_val, err, (unsigned long long)v);
}

static void test_parse_u64(void)
{
	static const char *const invalid[] = {
		"", " 5", "\t5", "+5", "-1", "5 ", "5\n", "1e6", "0x", "0x ",
		"0x-1", "0xg", "x5", "1.0", "1,000", "one",
	};
	const __u64 max = ~0ULL;
	__u64 v;
	size_t i;

	u64_case("0", 0, max, 0, 0);
	u64_case("42", 0, max, 0, 42);
	u64_case("010", 0, max, 0, 10);
	u64_case("0x10", 0, max, 0, 16);
	u64_case("0XfF", 0, max, 0, 255);
	u64_case("0x0", 0, max, 0, 0);
	u64_case("18446744073709551615", 0, max, 0, max);
	u64_case("0xffffffffffffffff", 0, max, 0, max);
	for (i = 0; i < ARRAY_SIZE(invalid); i++)
		u64_case(invalid[i], 0, max, -EINVAL, 0);
	check(parse_u64(NULL, 0, max, &v) == -EINVAL, "parse_u64(NULL) is -EINVAL");
	/* a number, but too big: outside [min, max] like any other */
	u64_case("18446744073709551616", 0, max, -ERANGE, 0);
	u64_case("0x10000000000000000", 0, max, -ERANGE, 0);
	u64_case("99999999999999999999999", 0, max, -ERANGE, 0);
	/* bounds are inclusive */
	u64_case("1", 1, 10, 0, 1);
	u64_case("10", 1, 10, 0, 10);
	u64_case("0", 1, 10, -ERANGE, 0);
	u64_case("11", 1, 10, -ERANGE, 0);
	u64_case("0xb", 1, 10, -ERANGE, 0);
	/* strtoull(base 16) takes a "0x" of its own after ours */
	check(parse_u64("0x0x5", 0, max, &v) == -EINVAL,
		  "parse_u64(\"0x0x5\") is -EINVAL (one 0x prefix, not two)");
}

static void double_case(const char *s, double min, double max, int want_err,
			double want_val)
{
	double v = 12345;
	int err;

	err = parse_double(s, min, max, &v);
	if (want_err)
		check(err == want_err && v == 12345,
		      "parse_double(\"%s\", %g, %g) is %d, *out untouched (%d)",
		      printable(s), min, max, want_err, err);
	else
		check(!err && v == want_val, "parse_double(\"%s\") = %g (%d, %g)",
		      printable(s), want_val, err, v);
}

static void test_parse_double(void)
{
	static const char *const invalid[] = {
		"", "-1", " 1", "+1", "nan", "NAN", "inf", "1x", "1 ", "1\n",
		".", "1e", "1,5", "-0",
	};
	double v;
	size_t i;

	double_case("0.5", 0, 1, 0, 0.5);
	double_case(".5", 0, 1, 0, 0.5);
	double_case("5.", 0, 10, 0, 5);
	double_case("7", 0, 10, 0, 7);
	double_case("0", 0, 10, 0, 0);
	double_case("10", 0, 10, 0, 10);
	double_case("0.01", 0.01, 100, 0, 0.01);
	double_case("0.009", 0.01, 100, -ERANGE, 0);
	double_case("100.5", 0.01, 100, -ERANGE, 0);
	for (i = 0; i < ARRAY_SIZE(invalid); i++)
		double_case(invalid[i], 0, 1e6, -EINVAL, 0);
	check(parse_double(NULL, 0, 1, &v) == -EINVAL,
	      "parse_double(NULL) is -EINVAL");
	/* strtod reads hex floats: 0x10 is 16, 0x1p3 is 8 */
	check(parse_double("0x10", 0, 1e6, &v) == -EINVAL,
		  "parse_double(\"0x10\") is -EINVAL (\"a decimal fraction\")");
}

/* parse_cpu_ranges(@s) gives @want ("" for an error) */
static void cpu_ranges_case(const char *s, int want_err, const char *want)
{
	struct cpu_list l = { .nr = -1 };
	char buf[256];
	int err;

	err = parse_cpu_ranges(s, &l);
	format_cpus(&l, buf, sizeof(buf));
	if (want_err)
		check(err == want_err && !l.nr && !l.cpu,
		      "parse_cpu_ranges(\"%s\") is %d, list empty (%d, \"%s\")",
		      printable(s), want_err, err, buf);
	else
		check(!err && !strcmp(buf, want),
		      "parse_cpu_ranges(\"%s\") = %s (%d, \"%s\")", printable(s),
		      want, err, buf);
	cpu_list_free(&l);
}

static void test_parse_cpu_ranges(void)
{
	static const char *const invalid[] = {
		"", "\n", "3-1", "0,0", "0-2,1", "1-", "-1", "1-2-3", "a",
		" 1", "1 ", "1,2 ", "+1", "0-8192", "8192",
	};
	struct cpu_list l;
	bool in_order;
	char *big;
	int i, err, n;

	cpu_ranges_case("0", 0, "0");
	cpu_ranges_case("0,2-3", 0, "0,2-3");
	cpu_ranges_case("0-1\n", 0, "0-1");
	cpu_ranges_case("3,1", 0, "3,1");
	cpu_ranges_case("5-5", 0, "5");
	cpu_ranges_case("8191", 0, "8191");
	for (i = 0; i < (int)ARRAY_SIZE(invalid); i++)
		cpu_ranges_case(invalid[i], -EINVAL, "");
	/* the newline ends the string: what follows it is never read */
	err = parse_cpu_ranges("0-1\n5", &l);
	check(err == -EINVAL,
		  "parse_cpu_ranges(\"0-1\\n5\") is -EINVAL, not 0-1 (%d)", err);
	if (!err)
		cpu_list_free(&l);

	err = parse_cpu_ranges("0,2-3", &l);
	check(!err && l.nr == 3 && l.cpu[0] == 0 && l.cpu[1] == 2 &&
	      l.cpu[2] == 3, "\"0,2-3\" is 0 2 3, in that order");
	check(cpu_list_has(&l, 2) && !cpu_list_has(&l, 1), "cpu_list_has");
	cpu_list_free(&l);
	check(!l.nr && !l.cpu, "cpu_list_free empties the list");

	/* every CPU the kernel can have, as a range and one by one */
	err = parse_cpu_ranges("0-8191", &l);
	in_order = !err && l.nr == 8192;
	for (i = 0; in_order && i < l.nr; i++)
		in_order = l.cpu[i] == i;
	check(in_order, "\"0-8191\": 8192 CPUs in order (%d, %d)", err, l.nr);
	cpu_list_free(&l);
	big = malloc(8192 * 6);
	if (!big)
		return;
	for (i = 0, n = 0; i < 8192; i++)
		n += sprintf(big + n, "%s%d", i ? "," : "", 8191 - i);
	err = parse_cpu_ranges(big, &l);
	check(!err && l.nr == 8192 && l.cpu[0] == 8191 && l.cpu[8191] == 0,
	      "8192 CPUs listed one by one, %d bytes (%d)", n, err);
	cpu_list_free(&l);
	strcpy(big + n, ",0");
	check(parse_cpu_ranges(big, &l) == -EINVAL && !l.cpu,
	      "... and with one of them twice at the end: -EINVAL");
	free(big);
}

static void test_parse_cpus(void)
{
	int allowed_cpu[] = { 2, 3, 5, 8 };
	const struct cpu_list allowed = { ARRAY_SIZE(allowed_cpu), allowed_cpu };
	struct cpu_list l = {};
	char buf[64];
	int err;

	err = parse_cpus("2", &allowed, &l);
	check(!err && l.nr == 2 && l.cpu[0] == 2 && l.cpu[1] == 3,
	      "count 2 of 2,3,5,8: the first two, 2 and 3 (%d)", err);
	cpu_list_free(&l);
	err = parse_cpus("4", &allowed, &l);
	format_cpus(&l, buf, sizeof(buf));
	check(!err && !strcmp(buf, "2-3,5,8"), "count 4: all of them (%s)", buf);
	cpu_list_free(&l);
	check(parse_cpus("5", &allowed, &l) == -ERANGE,
	      "count 5 of 4 allowed: -ERANGE");
	check(parse_cpus("0", &allowed, &l) == -ERANGE, "count 0: -ERANGE");
	err = parse_cpus("3,5", &allowed, &l);
	check(!err && l.nr == 2 && l.cpu[0] == 3 && l.cpu[1] == 5,
	      "list 3,5 of allowed CPUs (%d)", err);
	cpu_list_free(&l);
	err = parse_cpus("2-3", &allowed, &l);
	check(!err && l.nr == 2 && l.cpu[0] == 2 && l.cpu[1] == 3,
	      "range 2-3 of allowed CPUs (%d)", err);
	cpu_list_free(&l);
	err = parse_cpus("3-3", &allowed, &l);
	check(!err && l.nr == 1 && l.cpu[0] == 3, "3-3 is CPU 3 (%d)", err);
	cpu_list_free(&l);
	check(parse_cpus("2,4", &allowed, &l) == -ERANGE && !l.cpu,
	      "list naming CPU 4, not allowed: -ERANGE");
	check(parse_cpus("2-5", &allowed, &l) == -ERANGE && !l.cpu,
	      "range over CPU 4, not allowed: -ERANGE");
	check(parse_cpus("2,2", &allowed, &l) == -EINVAL,
	      "list naming CPU 2 twice: -EINVAL");
	check(parse_cpus("", &allowed, &l) != 0, "empty: an error");
}

static void test_format_cpus(void)
{
	static const char *const lists[] = {
		"0-3,5,7-8", "0", "0-1", "1,3,5", "4095-4096,8191",
	};
	int cpu[] = { 0, 1, 2, 3, 5, 7, 8 };
	struct cpu_list l = { ARRAY_SIZE(cpu), cpu };
	char buf[64], small[5];
	size_t i;
	int err;

	format_cpus(&l, buf, sizeof(buf));
	check(!strcmp(buf, "0-3,5,7-8"), "format_cpus 0 1 2 3 5 7 8 = %s", buf);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		err = parse_cpu_ranges(lists[i], &l);
		format_cpus(&l, buf, sizeof(buf));
		check(!err && !strcmp(buf, lists[i]),
		      "\"%s\" round trip (%s)", lists[i], buf);
		cpu_list_free(&l);
	}
	l.nr = 0;
	strcpy(buf, "x");
	format_cpus(&l, buf, sizeof(buf));
	check(!buf[0], "no CPUs: \"\"");
	l.cpu = cpu;
	l.nr = ARRAY_SIZE(cpu);
	memset(small, 'x', sizeof(small));
	format_cpus(&l, small, sizeof(small));
	check(memchr(small, '\0', sizeof(small)) && !strncmp(small, "0-3,5", 4),
	      "a short buffer: cut, NUL-terminated (%.*s)", (int)sizeof(small),
	      small);
}

static void u64_list_case(const char *s, __u64 min, __u64 max, int max_nr,
			  int want_err, const char *want)
{
	char buf[256] = "";
	__u64 v[16];
	int nr = -1, err, i, off = 0;

	err = parse_u64_list(s, min, max, v, max_nr, &nr);
	for (i = 0; !err && i < nr; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%llu",
				i ? " " : "", (unsigned long long)v[i]);
	if (want_err)
		check(err == want_err, "parse_u64_list(\"%s\", %llu, %llu, %d) is %d (%d)",
		      printable(s), (unsigned long long)min,
		      (unsigned long long)max, max_nr, want_err, err);
	else
		check(!err && !strcmp(buf, want),
		      "parse_u64_list(\"%s\") = %s (%d, \"%s\")", printable(s),
		      want, err, buf);
}

static void test_parse_u64_list(void)
{
	__u64 v[4];
	int err, nr;

	u64_list_case("1,2,4-8", 0, 100, 16, 0, "1 2 4 5 6 7 8");
	u64_list_case("8,4-6,1", 0, 100, 16, 0, "1 4 5 6 8");
	u64_list_case("0x10,010", 0, 100, 16, 0, "10 16");
	u64_list_case("7", 0, 100, 16, 0, "7");
	u64_list_case("1-16", 1, 16, 16, 0,
		      "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16");
	u64_list_case("1,1", 0, 100, 16, -EINVAL, "");
	u64_list_case("1-3,2", 0, 100, 16, -EINVAL, "");
	u64_list_case("", 0, 100, 16, -EINVAL, "");
	u64_list_case("1,x", 0, 100, 16, -EINVAL, "");
	u64_list_case("1-", 0, 100, 16, -EINVAL, "");
	u64_list_case("1 ,2", 0, 100, 16, -EINVAL, "");
	u64_list_case("0,5", 1, 100, 16, -ERANGE, "");
	u64_list_case("99-101", 1, 100, 16, -ERANGE, "");
	u64_list_case("3-1", 1, 100, 16, -ERANGE, "");
	u64_list_case("1-17", 1, 100, 16, -E2BIG, "");
	u64_list_case("1,2,3", 1, 100, 2, -E2BIG, "");
	u64_list_case("0-18446744073709551615", 0, ~0ULL, 16, -E2BIG, "");
	/* lo++ past U64_MAX wraps to 0 and the range goes on from there */
	err = parse_u64_list("18446744073709551615", 0, ~0ULL, v, 4, &nr);
	check(!err && nr == 1 && v[0] == ~0ULL,
		  "\"18446744073709551615\" alone is one value (%d, %d)", err, nr);
	err = parse_u64_list("18446744073709551614-18446744073709551615", 0,
			     ~0ULL, v, 4, &nr);
	check(!err && nr == 2,
		  "a range ending at U64_MAX is two values, not a wrap to 0 (%d, %d)",
		  err, nr);
}

/* runs @fn with stderr kept in @err; returns what it returns */
static int with_stderr(int (*fn)(void *), void *arg, char *err, size_t len)
{
	FILE *f = tmpfile();
	int saved, ret;
	size_t n;

	err[0] = '\0';
	if (!f)
		return fn(arg);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(f), STDERR_FILENO);
	ret = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	n = fread(err, 1, len - 1, f);
	err[n] = '\0';
	fclose(f);
	return ret;
}

static const char *const fruit[] = { "apple", "pear", "plum" };

struct name_list_call {
	const char *list;
	bool mask[ARRAY_SIZE(fruit)];
};

static int call_name_list(void *arg)
{
	struct name_list_call *c = arg;

	return parse_name_list(c->list, "fruit", fruit, ARRAY_SIZE(fruit),
			       c->mask);
}

static bool one_line(const char *s)
{
	return s[0] && strchr(s, '\n') == s + strlen(s) - 1;
}

static void test_parse_name_list(void)
{
	struct name_list_call c = { .list = "plum,apple" };
	char err[512];
	int ret;

	ret = with_stderr(call_name_list, &c, err, sizeof(err));
	check(!ret && c.mask[0] && !c.mask[1] && c.mask[2] && !err[0],
	      "\"plum,apple\": mask 1 0 1, nothing said (%d)", ret);
	c.list = "pear";
	memset(c.mask, 1, sizeof(c.mask));
	ret = with_stderr(call_name_list, &c, err, sizeof(err));
	check(!ret && !c.mask[0] && c.mask[1] && !c.mask[2],
	      "\"pear\": mask 0 1 0, the rest cleared (%d)", ret);
	c.list = "pear,pear";
	ret = with_stderr(call_name_list, &c, err, sizeof(err));
	check(!ret && c.mask[1], "a name twice is that name (%d)", ret);
	c.list = "pear,kiwi\x1b[2J";
	ret = with_stderr(call_name_list, &c, err, sizeof(err));
	check(ret == -1 && one_line(err) &&
	      strstr(err, "unknown fruit 'kiwi\\x1b[2J'"),
	      "unknown name: -1, one line naming it escaped (%d: %.*s)", ret,
	      (int)strcspn(err, "\n"), err);
	c.list = "Apple";
	ret = with_stderr(call_name_list, &c, err, sizeof(err));
	check(ret == -1 && one_line(err), "names are case-sensitive (%d)", ret);
	c.list = "";
	ret = with_stderr(call_name_list, &c, err, sizeof(err));
	check(ret == -1 && one_line(err) && strstr(err, "empty fruit list"),
	      "empty list: -1, one line (%d: %.*s)", ret,
	      (int)strcspn(err, "\n"), err);
	c.list = ",";
	ret = with_stderr(call_name_list, &c, err, sizeof(err));
	check(ret == -1 && one_line(err), "\",\": -1, one line (%d)", ret);
	check(name_index("plum", fruit, ARRAY_SIZE(fruit)) == 2 &&
	      name_index("fig", fruit, ARRAY_SIZE(fruit)) == -1, "name_index");
}

static void test_printable(void)
{
	char long_s[1000];
	const char *p;

	check(!strcmp(printable("plain text, 100% ok"), "plain text, 100% ok"),
	      "plain text unchanged");
	/* non-ASCII is escaped too: C1 controls (U+009B) hide there */
	p = printable("\xc2\x9b" "2J");
	check(!strcmp(p, "\\xc2\\x9b2J"), "C1 control escaped (%s)", p);
	check(!strcmp(printable(""), ""), "empty string");
	p = printable("a\nb\tc\x1b[2J\x7f\x01");
	check(!strcmp(p, "a\\x0ab\\x09c\\x1b[2J\\x7f\\x01"),
	      "control bytes and DEL become \\xNN (%s)", p);
	memset(long_s, '\n', sizeof(long_s) - 1);
	long_s[sizeof(long_s) - 1] = '\0';
	p = printable(long_s);
	check(strlen(p) < 256 && (strlen(p) - 3) % 4 == 0 &&
	      !strcmp(p + strlen(p) - 3, "...") && !strchr(p, '\n'),
	      "a long string is cut short with ..., never mid-escape (%zu)",
	      strlen(p));
	/* U+009B is CSI to a terminal, as \x1b[ is; compare's shown() escapes it */
	p = printable("x\xc2\x9by");
	check(!strstr(p, "\xc2\x9b"),
		  "printable() escapes the C1 control U+009B (CSI)");
	check(!strcmp(status_name(ST_FAILED), "FAILED") &&
	      !strcmp(status_json(ST_FAILED), "failed") &&
	      !strcmp(status_name(ST_DISTURBED), "disturbed") &&
	      !strcmp(status_json(ST_SKIPPED), "skipped") &&
	      !strcmp(status_name(ST_OK), "ok"), "status names");
}

static void test_outcome(void)
{
	struct outcome o = {};
	char big[400];

	outcome_set(&o, ST_SKIPPED, "no %s: %d", "BTF", 7);
	check(o.status == ST_SKIPPED && !strcmp(o.reason, "no BTF: 7"),
	      "outcome_set formats its reason");
	memset(big, 'r', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	outcome_set(&o, ST_FAILED, "%s", big);
	check(o.status == ST_FAILED && strlen(o.reason) == REASON_LEN - 1,
	      "a long reason is cut to %d bytes", REASON_LEN - 1);
}

static void test_cmdline(void)
{
	test_parse_u64();
	test_parse_double();
	test_parse_cpu_ranges();
	test_parse_cpus();
	test_format_cpus();
	test_parse_u64_list();
	test_parse_name_list();
	test_printable();
	test_outcome();
}

/* ---- sample/verify.c: what a sample is worth ---- */

static int cpus01[] = { 0, 1 };
static struct cpu_list two_cpus = { 2, cpus01 };

/* a sample of two workers on CPUs 0 and 1, 1000 events each in 1 ms */
static __u64 no_skips[2];

static void two_workers(struct sample *s, struct worker_result *res,
			__u64 *hits, int nr_cpus)
{
	int i;

	memset(s, 0, sizeof(*s));
	memset(res, 0, 2 * sizeof(*res));
	for (i = 0; i < 2; i++) {
		res[i].cpu = res[i].end_cpu = i;
		res[i].events = 1000;
		res[i].elapsed_ns = 1000000;
		res[i].cpu_ns = 999000;
	}
	s->res = res;
	s->nr_workers = 2;
	s->hits = hits;
	s->nr_cpus = nr_cpus;
	memset(no_skips, 0, sizeof(no_skips));
	s->kernel_skips = no_skips;
}

static void test_sample_measure(void)
{
	struct worker_result res[2];
	struct sample s;
	__u64 hits[4] = {};

	two_workers(&s, res, hits, 4);
	res[1].elapsed_ns = 2000000;
	sample_measure(&s);
	check(s.events == 2000, "measure: events add up (%llu)", s.events);
	check(near(s.rate, 1.5e6, 1e-9), "measure: rates add up (%g)", s.rate);
	check(near(s.ns_per_event, 1500, 1e-9),
	      "measure: ns/event is the mean of the workers' (%g)",
	      s.ns_per_event);
}

/*
 * @hits_in: each program's count on CPUs 0-3, attach to detach;
 * @window_in: each worker's loop's, [worker * counters + program], or
 * NULL for the same as its CPU's whole count; @foreign_in: the runs for
 * other tasks in each worker's loop, likewise, or NULL when the programs
 * do not count them apart
 */
static void foreign_window_case(const char *name, int counters,
				unsigned int k, const __u64 *hits_in,
				const __u64 *window_in,
				const __u64 *foreign_in, __u64 skips,
				bool elsewhere, __u64 off1_ns, enum status want,
				const char *reason_has, __u64 want_foreign)
{
	struct bench_row row = {
		.cpus = &two_cpus, .nr_counters = counters,
		.hits_per_event = k, .fires_elsewhere = elsewhere,
	};
	int w, c, stride = foreign_in ? 2 * counters : counters;
	struct worker_result res[2];
	__u64 hits[8], window[8];
	struct sample s;

	memcpy(hits, hits_in, sizeof(hits));
	two_workers(&s, res, hits, 4);
	/* worker 1 was off its CPU for @off1_ns of its loop */
	if (off1_ns)
		res[1].cpu_ns = res[1].elapsed_ns - off1_ns;
	for (w = 0; w < 2; w++) {
		for (c = 0; c < counters; c++) {
			window[w * stride + c] = window_in ?
				window_in[w * counters + c] : hits[c * 4 + w];
			if (foreign_in)
				window[w * stride + counters + c] =
					foreign_in[w * counters + c];
		}
	}
	s.window = window;
	s.window_foreign = foreign_in;
	no_skips[0] = skips;
	sample_measure(&s);
	sample_verify(&row, &s);
	check(s.out.status == want &&
	      (!reason_has || strstr(s.out.reason, reason_has)) &&
	      (want != ST_OK || s.foreign == want_foreign),
	      "verify: %s (%s; foreign %llu)", name,
	      s.out.status == ST_OK ? "ok" : s.out.reason, s.foreign);
}

static void verify_window_case(const char *name, int counters,
			       unsigned int k, const __u64 *hits_in,
			       const __u64 *window_in, __u64 skips,
			       bool elsewhere, __u64 off1_ns, enum status want,
			       const char *reason_has, __u64 want_foreign)
{
	foreign_window_case(name, counters, k, hits_in, window_in, NULL,
			    skips, elsewhere, off1_ns, want, reason_has,
			    want_foreign);
}

static void verify_case(const char *name, int counters, unsigned int k,
			const __u64 *hits_in, __u64 skips, enum status want,
			const char *reason_has, __u64 want_foreign)
{
	verify_window_case(name, counters, k, hits_in, NULL, skips, false, 0,
			   want, reason_has, want_foreign);
}

static void test_sample_verify(void)
{
	const __u64 exact[8] = { 1000, 1000 };
	const __u64 extra[8] = { 1000, 1300, 0, 7 };
	const __u64 extra_in[2] = { 1000, 1010 };
	const __u64 short0[8] = { 999, 100000 };
	const __u64 short2[8] = { 998, 1000 };
	const __u64 triple[8] = { 3000, 3001 };
	const __u64 two_ok[8] = { 1000, 1000, 0, 0, 1000, 1000 };
	const __u64 two_short[8] = { 1000, 1000, 0, 0, 1000, 999 };
	const __u64 outside[8] = { 1010, 1010 };
	const __u64 short_in[2] = { 990, 1000 };
	const __u64 wrong_hook[8] = { 2000, 2000 };
	const __u64 too_many_in[2] = { 2000, 2000 };
	const __u64 stolen_in[2] = { 1000, 1100 };
	const __u64 exact_in[2] = { 1000, 1000 };
	const __u64 stolen_foreign[2] = { 0, 100 };
	const __u64 shared_foreign[2] = { 0, 2000 };
	const __u64 covered_in[2] = { 990, 1000 };
	const __u64 covering_foreign[2] = { 10, 0 };

	verify_case("exact counts", 1, 1, exact, 0, ST_OK, NULL, 0);
	verify_window_case("hits beyond the events, in the loop and outside",
			   1, 1, extra, extra_in, 0, false, 0, ST_OK, NULL, 10);
	verify_case("one CPU short fails though the sum is over", 1, 1, short0, 0,
		    ST_FAILED, "on CPU 0 in the worker's loop for 1000", 0);
	verify_case("three hits an event, covered", 1, 3, triple, 0, ST_OK, NULL,
		    1);
	verify_case("three hits an event, one short", 1, 3, exact, 0, ST_FAILED,
		    "for 3000 events", 0);
	verify_case("two programs, both covering", 2, 1, two_ok, 0, ST_OK, NULL,
		    0);
	verify_case("a shortfall the kernel's skips explain", 1, 1, short0, 1,
		    ST_FAILED, "the wrong hook", 0);
	verify_case("a shortfall the kernel's skips explain, CPU 1 exact", 1, 1,
		    short2, 2, ST_OK, NULL, 0);
	verify_case("a shortfall beyond the kernel's skips", 1, 1, short0, 0,
		    ST_FAILED, "on CPU 0 in the worker's loop for 1000 events there", 0);
	verify_case("the kernel's skips counted, but too few", 1, 1, short2, 1,
		    ST_FAILED, "more than the kernel says it skipped", 0);
	verify_case("two programs, the second short on CPU 1", 2, 1,
		    two_short, 0, ST_FAILED, "program 2 of 2 counted 999 hits on CPU 1",
		    0);
	verify_window_case("hits outside the loops never cover a shortfall in them",
			   1, 1, outside, short_in, 0, false, 0, ST_FAILED,
			   "counted 990 hits on CPU 0 in the worker's loop", 0);
	verify_window_case("twice the events in the loops: the wrong hook",
			   1, 1, wrong_hook, too_many_in, 0, false, 0, ST_FAILED,
			   "more than its events and interrupts explain", 0);
	verify_window_case("twice the events, where the programs fire elsewhere too",
			   1, 1, wrong_hook, too_many_in, 0, true, 0, ST_OK, NULL,
			   2000);
	verify_window_case("more in the loops than in all is no count of ours",
			   1, 1, exact, too_many_in, 0, true, 0, ST_FAILED,
			   "in the workers' loops but", 0);
	/* 100 us off the CPU: another task's 100 events of 1 us, twice */
	foreign_window_case("other tasks' runs their time explains", 1, 1,
			    exact, exact_in, stolen_foreign, 0, false, 100000,
			    ST_OK, NULL, 100);
	/*
	 * two other tasks making the same event had two thirds of CPU 1:
	 * in 666 us, at the worker's own 334 ns an event, 2000 events
	 */
	foreign_window_case("other tasks' runs of tasks that shared the CPU, each as fast as the worker",
			    1, 1, exact, exact_in, shared_foreign, 0, false,
			    666000, ST_OK, NULL, 2000);
	foreign_window_case("other tasks' runs beyond the other tasks' time",
			    1, 1, exact, exact_in, stolen_foreign, 0, false,
			    30000, ST_FAILED, "more than their time", 0);
	/* the worker's own runs beyond its events: others' time is no help */
	foreign_window_case("the worker's own hits beyond its events and interrupts",
			    1, 1, stolen_in, stolen_in, stolen_foreign, 0,
			    false, 100000, ST_FAILED, "events and interrupts", 0);
	/* another task's runs on CPU 0 can never make up for a miss */
	foreign_window_case("other tasks' runs never cover a shortfall",
			    1, 1, exact, covered_in, covering_foreign, 0,
			    false, 0, ST_FAILED,
			    "counted 990 hits on CPU 0 in the worker's loop for 1000", 0);
}

/*
 * A shortfall the kernel's skips excuse: verified, then judged, so that
 * an excused share beyond a thousandth makes the sample disturbed
 */
static void excused_case(const char *name, const __u64 *hits_in,
			 __u64 skips, enum status want, const char *reason_has)
{
	struct bench_row row = {
		.cpus = &two_cpus, .nr_counters = 1, .hits_per_event = 1,
	};
	struct worker_result res[2];
	__u64 hits[8], window[2];
	struct sample s;

	memcpy(hits, hits_in, sizeof(hits));
	two_workers(&s, res, hits, 4);
	window[0] = hits[0];
	window[1] = hits[1];
	s.window = window;
	no_skips[0] = skips;
	sample_measure(&s);
	sample_verify(&row, &s);
	if (s.out.status == ST_OK)
		sample_judge_disturbed(&s);
	check(s.out.status == want &&
	      (!reason_has || strstr(s.out.reason, reason_has)),
	      "excused: %s (%s)", name,
	      s.out.status == ST_OK ? "ok" : s.out.reason);
}

static void test_excused(void)
{
	const __u64 two_short[8] = { 998, 1000 };
	const __u64 three_short[8] = { 997, 1000 };

	excused_case("2 events of 2000 the kernel skipped are ok", two_short, 2,
		     ST_OK, NULL);
	excused_case("3 of 2000: more than a thousandth, disturbed", three_short,
		     3, ST_DISTURBED, "skipped a program for 0.15% of its events");
	excused_case("3 of 2000 with 2 skips: failed", three_short, 2,
		     ST_FAILED, "more than the kernel says it skipped");
}

static void disturbed_case(const char *name, void (*spoil)(struct worker_result *),
			   enum status want, const char *reason_has)
{
	struct worker_result res[2];
	__u64 hits[4] = {};
	struct sample s;

	two_workers(&s, res, hits, 4);
	if (spoil)
		spoil(&res[1]);
	sample_judge_disturbed(&s);
	check(s.out.status == want &&
	      (!reason_has || strstr(s.out.reason, reason_has)),
	      "disturbed: %s (%s)", name,
	      s.out.status == ST_OK ? "ok" : s.out.reason);
}

static void share_96(struct worker_result *r)
{
	r->cpu_ns = 960000;
}

static void share_97(struct worker_result *r)
{
	r->cpu_ns = 970000;
}

static void share_96_waited(struct worker_result *r)
{
	r->cpu_ns = 960000;
	r->run_delay_ns = 30000;
}

static void slept(struct worker_result *r)
{
	r->nvcsw = 1;
}

static void preempted(struct worker_result *r)
{
	r->nivcsw = 4;	/* a tick's preemption, with no delay: quiet */
	r->run_delay_ns = 20000;
}

static void waited(struct worker_result *r)
{
	r->run_delay_ns = 40000;	/* 4% of the loop */
}

static void moved(struct worker_result *r)
{
	r->end_cpu = 0;
}

static void unpinned(struct worker_result *r)
{
	r->unpinned = true;
}

static void hopped(struct worker_result *r)
{
	r->migrations = 2;	/* off its CPU and back */
}

static void repin_failed(struct worker_result *r)
{
	r->repin_err = -EINVAL;
}

static void test_nr_migrations(void)
{
	static const char text[] =
		"test_overhead (1234, #threads: 1)\n"
		"-------------------------------------------------------------------\n"
		"se.exec_start                                :       1768.245170\n"
		"se.nr_migrations_cold                        :                    9\n"
		"se.nr_migrations                             :                    3\n"
		"nr_switches                                  :                    1\n";
	unsigned long long n = 0;
	int err;

	err = sched_nr_migrations(text, &n);
	check(!err && n == 3, "migrations: se.nr_migrations, not a longer name (%llu)",
	      n);
	err = sched_nr_migrations("nr_switches : 1\n", &n);
	check(err == -ENOENT, "migrations: none said, none known");
}

static void stolen(struct worker_result *r)
{
	r->steal_ns = 40000;	/* 4% of the loop */
}

static void little_stolen(struct worker_result *r)
{
	r->steal_ns = 30000;
}

static void test_proc_stat_steal(void)
{
	static const char text[] =
		"cpu  47805 0 47514 231169 593 0 6475 26 0 0\n"
		"cpu0 22361 0 23623 117410 81 0 3322 11 0 0\n"
		"cpu1 25444 0 23890 113758 512 0 3153 15 0 0\n"
		"cpu10 1 2 3 4 5 6 7 99 0 0\n"
		"cpu11 1 2 3 4 5 6 7\n"
		"cpu12 1 2 3 4 5 6 7 42";
	unsigned long long ticks = 0;
	int err;

	err = proc_stat_steal(text, 1, &ticks);
	check(!err && ticks == 15, "steal: CPU 1's is its line's 8th field (%llu)",
	      ticks);
	err = proc_stat_steal(text, 10, &ticks);
	check(!err && ticks == 99, "steal: cpu10 is not cpu1 (%llu)", ticks);
	check(proc_stat_steal(text, 2, &ticks) == -ENOENT,
	      "steal: no line for CPU 2");
	check(proc_stat_steal(text, 11, &ticks) == -ENOENT &&
	      proc_stat_steal(text, 12, &ticks) == -ENOENT,
	      "steal: a line without it, or cut short, says nothing");
}

static void test_sample_disturbed(void)
{
	disturbed_case("quiet workers are ok", NULL, ST_OK, NULL);
	disturbed_case("97% of the wall time is ok", share_97, ST_OK, NULL);
	disturbed_case("96% of the wall time is not", share_96, ST_DISTURBED,
		       "ran 96%");
	disturbed_case("96% without a wait: the host's or interrupts'",
		       share_96, ST_DISTURBED,
		       "waited 0 us for its CPU: the rest was not the worker's to run: the host's (steal)");
	disturbed_case("96% with the rest waited: another task's", share_96_waited,
		       ST_DISTURBED, "waited 30 us for its CPU: preempted or throttled");
	disturbed_case("a voluntary switch (SIGSTOP, a sleep)", slept,
		       ST_DISTURBED, "slept or was stopped");
	disturbed_case("a little preemption and delay is ok", preempted, ST_OK,
		       NULL);
	disturbed_case("4% of run-queue delay is not", waited, ST_DISTURBED,
		       "waited 40 us");
	disturbed_case("ending on another CPU", moved, ST_DISTURBED,
		       "moved off its CPU");
	disturbed_case("affinity changed under it", unpinned, ST_DISTURBED,
		       "its affinity was changed");
	disturbed_case("moved off its CPU and back in its loop", hopped,
		       ST_DISTURBED, "and back in its loop (2 migrations)");
	disturbed_case("cannot be pinned again", repin_failed, ST_DISTURBED,
		       "cannot be pinned to it again: Invalid argument");
	test_nr_migrations();
	disturbed_case("the host's steal above 3%", stolen, ST_DISTURBED,
		       "the host took 0.04 ms of CPU 1's time (steal)");
	disturbed_case("the host's steal within 3% is ok", little_stolen, ST_OK,
		       NULL);
	test_proc_stat_steal();
}

static void test_excused_line(void)
{
	struct row_state st[3] = {
		{ .events = 1000, .kernel_skipped = 1 },
		{ .events = 5000 },
		{ .events = 1000, .kernel_skipped = 2 },
	};
	struct bench_row row[3] = {
		{ .hits_per_event = 1, .state = &st[0] },
		{ .hits_per_event = 1, .state = &st[1] },
		{ .hits_per_event = 2, .state = &st[2] },
	};
	struct bench_rows rows = { .row = row, .nr = 3, .cap = 3 };
	char line[256];

	excused_line(&rows, line, sizeof(line));
	check(strstr(line, "skipped 3 of the 3000 program runs") &&
	      strstr(line, "in 2 rows"),
	      "excused: the summary says how many runs were excused (%s)", line);
	st[0].kernel_skipped = st[2].kernel_skipped = 0;
	excused_line(&rows, line, sizeof(line));
	check(!line[0], "excused: nothing said when nothing was (%s)", line);
}

/*
 * A pool stopped by a sample that failed or was cut short runs nothing:
 * --profile's next sample of a session a signal ended used it (a NULL
 * go). In a child: a crash is a failed check, not a lost one.
 */
static void test_pool_stopped(void)
{
	struct worker_result res;
	struct worker_pool pool;
	struct outcome out = {};
	int status = -1;
	pid_t pid;

	memset(&pool, 0, sizeof(pool));
	pool.result_fd = -1;
	pool_stop(&pool);
	pid = fork();
	if (!pid)
		_exit(pool_run(&pool, 0, 1000, &res, NULL, 0, &out) < 0 &&
		      out.status == ST_FAILED ? 0 : 1);
	if (pid > 0)
		waitpid(pid, &status, 0);
	check(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status),
	      "pool: a stopped pool runs nothing, and says so (status %#x)",
	      status);
}

static void nop_run(void *state, __u64 count)
{
	(void)state;
	(void)count;
}

/* until worker @pid's state is @want (a /proc/PID/stat letter), 2 s at most */
static bool worker_state(pid_t pid, char want)
{
	char path[64], buf[512], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 2000; i++) {
		FILE *f = fopen(path, "r");

		buf[0] = '\0';
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		p = strrchr(buf, ')');
		if (p && p[1] && p[2] == want)
			return true;
		usleep(1000);
	}
	return false;
}

/*
 * A pool kept from one session to the next runs again only as it was
 * forked: one whose worker is stopped, or has died, is not well. In a
 * child, so that no worker outlives a failed check.
 */
static void test_pool_well(void)
{
	const struct trigger nop = { "nop", NULL, nop_run, 1, NULL };
	const struct trigger *triggers[] = { &nop };
	int cpu = sched_getcpu() > 0 ? sched_getcpu() : 0;
	struct cpu_list one = { 1, &cpu };
	struct worker_result res;
	struct worker_pool pool;
	struct outcome out = {};
	int status = -1, bad = 0;
	pid_t pid, w;

	/* what is buffered is the parent's to print, not the child's too */
	fflush(stdout);
	pid = fork();
	if (!pid) {
		if (pool_start(&pool, &(struct run_settings){}, &one,
			       triggers, 1, 0, NULL, &out))
			_exit(10);
		bad |= !pool_well(&pool);
		bad |= pool_run(&pool, 0, 10, &res, NULL, 0, &out) ? 2 : 0;
		bad |= !worker_state(pool.pid[0], 'S') || !pool_well(&pool) ? 4 : 0;
		w = pool.pid[0];
		kill(w, SIGSTOP);
		bad |= !worker_state(w, 'T') || pool_well(&pool) ? 8 : 0;
		kill(w, SIGCONT);
		bad |= !worker_state(w, 'S') || !pool_well(&pool) ? 16 : 0;
		kill(w, SIGKILL);
		bad |= !worker_state(w, 'Z') || pool_well(&pool) ? 32 : 0;
		bad |= pool.pid[0] ? 64 : 0;	/* reaped */
		pool_stop(&pool);
		bad |= pool_well(&pool) ? 128 : 0;
		_exit(bad);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	check(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status),
	      "pool: a kept pool is well as forked, not with a worker stopped or dead (status %#x)",
	      status);
}

static void test_settle(void)
{
	struct row_state st = { .nr = 3, .settle_ns = { 2e6, 250e6, 4e6 } };
	struct bench_row row = { .state = &st };
	cpu_set_t workers, allowed;
	char notes[512];
	struct row_summary s = {};
	bool bound = false;

	CPU_ZERO(&workers);
	CPU_SET(0, &workers);
	CPU_SET(1, &workers);
	CPU_ZERO(&allowed);
	CPU_SET(1, &allowed);
	check(settle_counts(&allowed, &workers, &bound) && bound,
	      "settle: a kernel thread bound to a worker's CPU counts, always");
	CPU_ZERO(&allowed);
	CPU_SET(2, &allowed);
	check(!settle_counts(&allowed, &workers, &bound),
	      "settle: one bound to another CPU does not");
	CPU_SET(0, &allowed);
	check(settle_counts(&allowed, &workers, &bound) && !bound,
	      "settle: one that may run anywhere counts where it ran");
	check(settle_delta(1000, 1500) == 500 &&
	      settle_delta(1500, 1000) == 0 && settle_delta(~0ull, 1000) == 0,
	      "settle: a thread's time never wraps, a new one's counts from its first read");
	check(row_settle_capped(&row) == 1, "settle: 1 of 3 samples waited the cap");
	row_notes(&row, &s, notes, sizeof(notes));
	check(strstr(notes, "still busy at the go of 1 of 3 samples (after 250 ms)") != NULL,
	      "settle: the notes say when the wait hit its cap (%s)", notes);
}

static void test_labels(void)
{
	/*
	 * two workers: their rates add up to the same each sample while
	 * one's ns/event swings, so the mean of ns/event (what the ± is of)
	 * varies by 10%, the rate not at all
	 */
	struct row_state st = {
		.nr = 3, .rate = { 2e6, 2e6, 2e6 }, .ns = { 900, 1100, 1000 },
		.events = 3000, .hits = 3010, .hits_window = 2990,
	};
	struct bench_row row = { .hits_per_event = 1, .state = &st };
	struct row_summary s;
	char buf[512];

	row_summarize(&row, &s);
	row_notes(&row, &s, buf, sizeof(buf));
	check(strstr(buf, "noisy (CV of ns/event 10.0%)") != NULL,
	      "labels: noisy is the CV of ns/event, not of the rate (%s)", buf);
	format_hits(&row, buf, sizeof(buf));
	check(!strcmp(buf, "2990/3000"),
	      "labels: hits/expected are the loops' hits, not those outside too (%s)",
	      buf);
}

/* the policies setup() may give a row, and those the runner refuses */
static void test_row_policy(void)
{
	struct bench_row per_run = { .runs_prog = true, .links = LINKS_PER_RUN };
	struct bench_row reload = { .runs_prog = true, .reload = true,
				    .links = LINKS_PER_SESSION };
	struct bench_row memory = { .runs_prog = true, .measured_in_open = true };
	struct bench_row both = per_run, open_only = memory;
	const char *why;

	check(!row_policy_wrong(&per_run) && !row_policy_wrong(&reload) &&
	      !row_policy_wrong(&memory),
	      "row policy: links per run, a reload per session, a measurement in open");
	both.reload = true;
	why = row_policy_wrong(&both);
	check(why && strstr(why, "reload"),
	      "row policy: a reload with links per run refused (%s)", why ?: "none");
	open_only.runs_prog = false;
	why = row_policy_wrong(&open_only);
	check(why && strstr(why, "runs_prog"),
	      "row policy: measured in open without runs_prog refused (%s)",
	      why ?: "none");
}

static void test_units_enough(void)
{
	struct run_settings rs = { .min_units = 4, .max_units = 10,
				   .precision = 0.03,
				   .row_budget_ns = 1000000000ull };
	const double flat[10] = { 100, 100, 100, 100 };
	/* a 95% interval of +-0.65 on 10: 6.5%, but below the 1-ns floor */
	const double small[4] = { 9.5, 10.5, 10.0, 10.0 };
	/* +-1.6 on 20: beyond 3% and beyond 1 ns */
	const double wide[10] = { 19, 21, 20, 20, 19, 21, 20, 20, 19, 21 };
	/* +-0.62 on 200 ns per event without a base: within 3% */
	const double alone[4] = { 199.5, 200.5, 200, 200 };
	/* every unit a round of its own */
	const int rounds[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	/*
	 * 10 units in 2 rounds: round means 19.5 and 20.5, so +-6.4 over
	 * two observations, not +-0.4 over ten
	 */
	const double pairs[10] = { 19.4, 19.6, 19.5, 19.4, 19.6,
				   20.4, 20.6, 20.5, 20.4, 20.6 };
	const int two[10] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	double mean[10];

	check(units_enough(flat, rounds, 3, true, 0, &rs) == STOP_NOT,
	      "enough: never under --min-units");
	check(units_enough(flat, rounds, 4, true, 0, &rs) == STOP_PRECISE,
	      "enough: 4 identical units");
	check(units_enough(small, rounds, 4, true, 0, &rs) == STOP_PRECISE,
	      "enough: an overhead known to 1 ns, though not to 3%%");
	check(units_enough(wide, rounds, 4, true, 0, &rs) == STOP_NOT,
	      "enough: not while it is wide");
	check(units_enough(wide, rounds, 4, true, rs.row_budget_ns, &rs) ==
	      STOP_BUDGET, "enough: stops short when its budget is spent");
	check(units_enough(wide, rounds, 3, true, rs.row_budget_ns, &rs) == STOP_NOT &&
	      units_enough(wide, rounds, 3, true, 2 * rs.row_budget_ns, &rs) ==
	      STOP_BUDGET,
	      "enough: under --min-units the budget counts twice");
	check(units_enough(wide, rounds, 1, true, 10 * rs.row_budget_ns, &rs) ==
	      STOP_NOT, "enough: never under two units, whatever the budget");
	check(units_enough(wide, rounds, 10, true, 0, &rs) == STOP_MAX,
	      "enough: at --max-units");
	check(units_enough(alone, rounds, 4, false, 0, &rs) == STOP_PRECISE,
	      "enough: a row without a base, to 3%% of its ns per event");
	check(!units_precise(flat, rounds, 1, true, &rs),
	      "precise: one unit has no interval");
	check(!units_precise(pairs, two, 10, true, &rs) &&
	      units_precise(pairs, rounds, 10, true, &rs),
	      "precise: a round's units are one observation");
	check(stats_cluster_means(pairs, two, 10, mean) == 2 &&
	      fabs(mean[0] - 19.5) < 1e-9 && fabs(mean[1] - 20.5) < 1e-9,
	      "cluster means: one per round, in order");
	check(units_mostly_disturbed(6, 11) && !units_mostly_disturbed(5, 10) &&
	      !units_mostly_disturbed(0, 4),
	      "disturbed: most units disturbed leave no figure, half do not");
	rs.repeat = 4;
	check(units_enough(flat, rounds, 3, true, 0, &rs) == STOP_NOT &&
	      units_enough(wide, rounds, 4, true, 0, &rs) == STOP_REPEAT,
	      "enough: -r 4 is exactly 4, precise or not");
}

static void test_map_arithmetic(void)
{
	const __u8 addr[4] = { 192, 168, 0, 1 };
	const __u8 net[4] = { 192, 168, 0, 0 }, other[4] = { 192, 169, 0, 0 };
	const __u8 half[4] = { 192, 168, 0, 0x81 };
	/* windows of 32 keys: 32, 20 and 32 of them kept */
	const __u64 before[4] = { 0, 32, 52, 84 };

	check(lpm_covers(16, net, addr), "lpm: 192.168/16 holds 192.168.0.1");
	check(!lpm_covers(16, other, addr), "lpm: 192.169/16 does not");
	check(lpm_covers(0, other, addr), "lpm: /0 holds everything");
	check(lpm_covers(24, net, addr) && !lpm_covers(32, net, addr),
	      "lpm: /24 holds it, 192.168.0.0/32 does not");
	check(!lpm_covers(25, half, addr) && lpm_covers(25, net, addr),
	      "lpm: a /25 compares the first bit of the last byte");
	check(!lpm_covers(32, half, addr), "lpm: /32 wants every bit");
	check(kept_hits(before, 3, 0) == 0, "lru: no lookups, no hits");
	check(kept_hits(before, 3, 2) == 52, "lru: two windows, 32 + 20 kept");
	check(kept_hits(before, 3, 3) == 84, "lru: a full pass");
	check(kept_hits(before, 3, 7) == 2 * 84 + 32,
	      "lru: two passes and one window (%llu)", kept_hits(before, 3, 7));
	/* a ring record: 8-byte header, data 8-aligned */
	check(ringbuf_record_bytes(16) == 24 && ringbuf_record_bytes(20) == 32 &&
	      ringbuf_record_bytes(64) == 72, "ring: 16, 20, 64 bytes take 24, 32, 72");
	/* a perf sample: 8-byte header, then the 4-byte size and data, 8-aligned */
	check(perfbuf_record_bytes(16) == 32 && perfbuf_record_bytes(20) == 32 &&
	      perfbuf_record_bytes(64) == 80, "perf: 16, 20, 64 bytes take 32, 32, 80");
	/* a byte stays free: 1 MiB of 72 is 14563.5, of 64 one short of 16384 */
	check(buffer_holds(1 << 20, 72) == 14563 && buffer_holds(1 << 20, 64) == 16383 &&
	      buffer_holds(256 << 10, 80) == 3276 && buffer_holds(0, 80) == 0,
	      "buffers: an empty 1 MiB ring takes 14563 records of 72 bytes, 16383 of 64");
}

/* ---- the USDT probe site's check: this architecture's nops ---- */

struct nop_case {
	unsigned char b[NOP_MAX_BYTES];
	size_t size;
	enum uprobe_target_state want;
	const char *what;
};

static void test_nop_check(void)
{
	static const struct nop_case cases[] = {
#if defined(__x86_64__)
		{ { 0x90 }, 1, UPROBE_TARGET_OK, "nop" },
		{ { 0x66, 0x90 }, 2, UPROBE_TARGET_OK, "xchg %ax,%ax" },
		{ { 0x0f, 0x1f, 0x00 }, 3, UPROBE_TARGET_OK, "nopl (%rax)" },
		{ { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 5, UPROBE_TARGET_OK,
		  "nopl 0x0(%rax,%rax,1)" },
		{ { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 }, 10,
		  UPROBE_TARGET_OK, "cs nopw 0x0(%rax,%rax,1)" },
		{ { 0xcc, 0x90 }, 2, UPROBE_TARGET_BUSY, "int3" },
		{ { 0xf3, 0x90 }, 2, UPROBE_TARGET_WRONG, "pause" },
		{ { 0x55 }, 1, UPROBE_TARGET_WRONG, "push %rbp" },
		{ { 0x0f, 0x1f, 0x08 }, 3, UPROBE_TARGET_WRONG, "0f 1f /1" },
		{ { 0x0f, 0x1f }, 2, UPROBE_TARGET_WRONG, "0f 1f cut short" },
#elif defined(__aarch64__)
		{ { 0x1f, 0x20, 0x03, 0xd5 }, 4, UPROBE_TARGET_OK, "nop" },
		{ { 0xa0, 0x00, 0x20, 0xd4 }, 4, UPROBE_TARGET_BUSY, "brk #0x5" },
		{ { 0xfd, 0x7b, 0xbf, 0xa9 }, 4, UPROBE_TARGET_WRONG,
		  "stp x29, x30, [sp, #-16]!" },
		{ { 0x1f, 0x20, 0x03 }, 3, UPROBE_TARGET_WRONG, "a nop cut short" },
#endif
	};
	enum uprobe_target_state st;
	char why[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		why[0] = '\0';
		st = uprobe_nop_check(cases[i].b, cases[i].size, "the site", why,
				      sizeof(why));
		check(st == cases[i].want &&
		      (st != UPROBE_TARGET_BUSY || strstr(why, "another uprobe")) &&
		      (st != UPROBE_TARGET_WRONG || strstr(why, "not a nop")),
		      "nop check: %s: %d (want %d) %s", cases[i].what, st,
		      cases[i].want, why);
	}
	if (!ARRAY_SIZE(cases)) {
		st = uprobe_nop_check("\0", 1, "the site", why, sizeof(why));
		check(st == UPROBE_TARGET_NONE, "nop check: none here: %s", why);
	}
}

static void test_verify(void)
{
	test_sample_measure();
	test_sample_verify();
	test_sample_disturbed();
	test_units_enough();
	test_excused();
	test_excused_line();
	test_settle();
	test_pool_stopped();
	test_pool_well();
	test_labels();
	test_row_policy();
	test_map_arithmetic();
	test_nop_check();
}

/* ---- compare: results files as report/results_json.c writes them ---- */

struct row_spec {
	const char *name;
	const char *variant;
	enum status status;
	const char *reason;
	/* the units' figures: overheads when paired, else ns per event */
	const double *units;
	int n;
	bool paired;
	const char *param;	/* one param, e.g. "progs", or NULL */
	long long param_value;
};

struct ctx_spec {
	const char *kernel;
	int online_cpus;
};

static const struct ctx_spec ctx_host = { "6.1.0-18-amd64", 2 };

/*
 * What the runner's command line would have decided, for the real
 * writer's context: -r 5 over the default count on CPUs 0-1.
 */
static int cpus_used[] = { 0, 1 };
static struct run_settings spec_rs = {
	.cpus = { ARRAY_SIZE(cpus_used), cpus_used },
	.count = 100000,
	.repeat = 5,
	.warmup = 1,
};

/* kernel/machine.c's, not linked: the machine's CPUs never reach a document */
int usable_cpus(struct cpu_list *out)
{
	out->nr = 0;
	out->cpu = NULL;
	return 0;
}

/* kernel/machine.c's: the JIT's settings unknown, as on a machine without */
void bpf_jit_read(struct bpf_jit_state *j)
{
	*j = (struct bpf_jit_state){ -1, -1, -1, -1 };
}

/* the context of the document being written */
static const struct ctx_spec *written_ctx;

/* the context as @written_ctx says, in the writer's keys only */
static void fake_context(const struct run_settings *rs, json_t *ctx)
{
	json_object_update_existing_new(ctx, json_pack(
		"{s:s, s:s, s:i}",
		"kernel_release", written_ctx->kernel,
		"cpu_model", "Test CPU \"quoted\" @ 2.0GHz",
		"online_cpus", written_ctx->online_cpus));
}

static const struct bench_family fake_family = {
	.name = "test_overhead",
	.json_context = fake_context,
};

/* a paired unit's base: ns per event */
#define SPEC_BASE_NS	60.0

/*
 * A row as the runner leaves it after its units: each unit one sample of
 * the row, between base samples of SPEC_BASE_NS when paired
 */
static void spec_row(const struct row_spec *r, struct bench_row *row,
		     struct row_state *st)
{
	int i;

	memset(row, 0, sizeof(*row));
	memset(st, 0, sizeof(*st));
	row->state = st;
	row->name = r->name;
	row->variant = r->variant;
	if (r->param)
		row_add_param(row, r->param, r->param_value);
	row->cpus = &spec_rs.cpus;
	row->out.status = r->status;
	snprintf(row->out.reason, sizeof(row->out.reason), "%s",
		 r->reason ?: "");
	if (r->status != ST_OK)
		return;
	st->nr = st->nr_units = r->n;
	st->paired = r->paired;
	st->stop = STOP_REPEAT;
	for (i = 0; i < r->n; i++) {
		st->unit[i] = r->units[i];
		st->unit_ns[i] = r->units[i] + (r->paired ? SPEC_BASE_NS : 0);
		st->unit_base_ns[i] = r->paired ? SPEC_BASE_NS : NAN;
		st->unit_round[i] = i;
		st->ns[i] = st->unit_ns[i];
		st->rate[i] = 1e9 / st->unit_ns[i];
	}
	st->events = 100000ULL * r->n;
}

/* @rows written by report/results_json.c's write_results() into @path */
static int write_doc(const char *path, const struct ctx_spec *c,
		     const struct row_spec *rows, int nr)
{
	struct bench_rows br = { .nr = nr };
	struct row_state *st;
	FILE *f;
	int ret, i;

	br.row = calloc(nr, sizeof(*br.row));
	st = calloc(nr, sizeof(*st));
	f = fopen(path, "w");
	if (!br.row || !st || !f) {
		ret = -errno;
		goto out;
	}
	for (i = 0; i < nr; i++)
		spec_row(&rows[i], &br.row[i], &st[i]);
	written_ctx = c;
	ret = write_results(&fake_family, &spec_rs, &br, 0, f);
out:
	if (f && fclose(f) && !ret)
		ret = -EIO;
	free(br.row);
	free(st);
	return ret;
}

static char tmpdir[] = "/tmp/stats_test.XXXXXX";
static char path_a[64], path_b[64], path_a2[64], path_a3[64], path_b2[64];
static char path_json[64];
static char *cmp_out;
static char cmp_err[512];
/* what the last compare wrote with --json; NULL when it wrote nothing */
static json_t *cmp_json;

/*
 * Runs the compare with --json into path_json, read back into cmp_json,
 * and its stdout and stderr kept in cmp_out and cmp_err
 */
static int run_compare_args(struct compare_args *args)
{
	struct output_file json;
	size_t len = 0;
	FILE *out, *err;
	int saved, ret;
	ssize_t n;

	free(cmp_out);
	cmp_out = NULL;
	cmp_err[0] = '\0';
	json_decref(cmp_json);
	cmp_json = NULL;
	unlink(path_json);
	args->json = path_json;
	out = open_memstream(&cmp_out, &len);
	err = tmpfile();
	if (!out || !err)
		return -ENOMEM;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	ret = bench_compare_to(out, args, &json);
	/* as bench_main() does: the verdicts put in place when all is said */
	if (ret < 0)
		output_discard(&json);
	else if (output_commit(&json))
		ret = COMPARE_NOT_WRITTEN;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	fclose(out);
	rewind(err);
	n = fread(cmp_err, 1, sizeof(cmp_err) - 1, err);
	cmp_err[n > 0 ? n : 0] = '\0';
	fclose(err);
	cmp_json = json_load_file(path_json, JSON_REJECT_DUPLICATES, NULL);
	return ret;
}

/* the compare of one file a side */
static int run_compare(const char *a, const char *b, double pct)
{
	struct compare_args args = {
		.files = { { a }, { b } },
		.nr_files = { 1, 1 },
		.fail_on_regression = pct,
	};

	return run_compare_args(&args);
}

static bool out_has(const char *s)
{
	return cmp_out && strstr(cmp_out, s);
}

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key)) ?: "";
}

/* a number of @o's, NAN when it is none (null, or missing) */
static double jnum(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* the member of the compare's @list that names this row */
static const json_t *jfind(const char *list, const char *name,
			   const char *variant, const char *params)
{
	const json_t *o;
	size_t i;

	json_array_foreach(json_object_get(cmp_json, list), i, o)
		if (!strcmp(jstr(o, "name"), name) &&
		    !strcmp(jstr(o, "variant"), variant) &&
		    !strcmp(jstr(o, "params"), params))
			return o;
	return NULL;
}

/* the verdict on a row without params; "" when it has none */
static const char *verdict_of(const char *name, const char *variant)
{
	return jstr(jfind("rows", name, variant, ""), "verdict");
}

/* why a row got no verdict: its "kind"; "" when it was compared */
static const char *kind_of(const char *name, const char *variant,
			   const char *params)
{
	return jstr(jfind("not_compared", name, variant, params), "kind");
}

static int jsummary(const char *key)
{
	return jnum(json_object_get(cmp_json, "summary"), key);
}

static void show_compare(void)
{
	if (nr_failed && cmp_out)
		printf("# %s# %s", cmp_out, cmp_err);
}

/* overhead units, ns: mean 22, variance 0.1 */
static const double ov[] = { 22.0, 22.4, 21.6, 22.2, 21.8 };
/* the same, 5 ns higher, and 3 ns lower */
static const double ov_up5[] = { 27.0, 27.4, 26.6, 27.2, 26.8 };
static const double ov_down3[] = { 19.0, 19.4, 18.6, 19.2, 18.8 };
/* mean 22, stddev 7.9; and the same 0.5 ns higher */
static const double wide[] = { 22, 12, 32, 17, 27 };
static const double wide_up[] = { 22.5, 12.5, 32.5, 17.5, 27.5 };
/* and 3 ns higher: beyond the threshold (2% or 1 ns), t = 0.6 */
static const double wide_up3[] = { 25, 15, 35, 20, 30 };
/* a base row's units: its ns per event */
static const double base_units[] = { 60.0, 60.3, 59.7, 60.1, 59.9 };
/* Student's t for 95% at 4 and 8 degrees of freedom */
#define T95_4	2.7764451052
#define T95_8	2.3060041350

static int pair(const struct row_spec *a, int nr_a, const struct row_spec *b,
		int nr_b, const struct ctx_spec *ctx_b)
{
	int ret;

	ret = write_doc(path_a, &ctx_host, a, nr_a);
	if (!ret)
		ret = write_doc(path_b, ctx_b, b, nr_b);
	return ret;
}

#define OVH(n, v, u)	{ n, v, ST_OK, NULL, u, ARRAY_SIZE(u), true, NULL, 0 }
#define NSE(n, v, u)	{ n, v, ST_OK, NULL, u, ARRAY_SIZE(u), false, NULL, 0 }

static void test_compare_verdicts(void)
{
	struct row_spec a[] = {
		NSE("base", "getpgid", base_units),
		OVH("kprobe", "getpgid", ov),
		OVH("raw_tp", "getpgid", ov),
		OVH("fentry", "getpgid", wide),
	};
	struct row_spec b[] = {
		NSE("base", "getpgid", base_units),	/* identical */
		OVH("kprobe", "getpgid", ov_up5),	/* slower */
		OVH("raw_tp", "getpgid", ov_down3),	/* faster */
		OVH("fentry", "getpgid", wide_up),	/* +0.5 ns, spread 7.9 */
	};
	const json_t *kp;
	int ret;

	check(!pair(a, 4, b, 4, &ctx_host), "result files written");
	ret = run_compare(path_a, path_b, -1);
	check(ret == 0 && cmp_json, "compare exits 0 and writes its JSON (%d)",
	      ret);
	check(!strcmp(jstr(cmp_json, "schema"), COMPARE_SCHEMA) &&
	      jnum(cmp_json, "alpha") == COMPARE_ALPHA,
	      "the JSON's schema is " COMPARE_SCHEMA ", alpha 0.05");
	check(!strcmp(verdict_of("base", "getpgid"), "no significant change"),
	      "identical units: no significant change");
	check(!strcmp(verdict_of("kprobe", "getpgid"), "slower"),
	      "units 5 ns higher: slower");
	check(!strcmp(verdict_of("raw_tp", "getpgid"), "faster"),
	      "units 3 ns lower: faster");
	check(!strcmp(verdict_of("fentry", "getpgid"), "no significant change"),
	      "0.5 ns shift in units spread 7.9 ns: no significant change");
	kp = jfind("rows", "kprobe", "getpgid", "");
	check_near(jnum(kp, "delta"), 5, 1e-9, "slower row's delta, ns");
	/* se = sqrt(0.1 / 5 + 0.1 / 5) = 0.2, at 8 degrees of freedom */
	check_near(jnum(kp, "delta_ci95"), T95_8 * 0.2, 1e-6,
		   "its 95% interval: Welch's t at 8 df times 0.2");
	check_near(jnum(kp, "delta_pct"), 500.0 / 22, 1e-9,
		   "its change in % of A's 22 ns");
	check(jnum(kp, "p") < 1e-4 && !strcmp(jstr(kp, "quantity"), "overhead_ns"),
	      "its p < 0.0001, of overhead_ns");
	check(jnum(json_object_get(kp, "a"), "n") == 5 &&
	      jnum(json_object_get(kp, "b"), "n") == 5 &&
	      near(jnum(json_object_get(kp, "a"), "mean"), 22, 1e-12) &&
	      near(jnum(json_object_get(kp, "a"), "ci95"),
		   T95_4 * sqrt(0.1 / 5), 1e-6),
	      "each side's n, mean and 95%% interval");
	check(!strcmp(jstr(jfind("rows", "base", "getpgid", ""), "quantity"),
		      "ns_per_event") &&
	      jnum(jfind("rows", "base", "getpgid", ""), "p") == 1,
	      "a row without a base: ns_per_event, p 1 for identical units");
	check(jsummary("compared") == 4 && jsummary("slower") == 1 &&
	      jsummary("faster") == 1 && jsummary("no_change") == 2 &&
	      jsummary("not_compared") == 0,
	      "summary: 4 compared, 1 slower, 1 faster, 2 no change");
	check(!json_array_size(json_object_get(cmp_json, "context_differences")) &&
	      !json_array_size(json_object_get(cmp_json, "not_compared")),
	      "same context, same rows: no difference, nothing left out");
	show_compare();

	ret = run_compare(path_a, path_b, 20);
	check(ret == 1 && jsummary("regressions") == 1 &&
	      json_is_true(json_object_get(jfind("rows", "kprobe", "getpgid", ""),
					   "regression")),
	      "--fail-on-regression 20: 22.7%% slower fails (%d)", ret);
	ret = run_compare(path_a, path_b, 25);
	check(ret == 0 && jsummary("regressions") == 0,
	      "--fail-on-regression 25: 22.7%% slower passes (%d)", ret);
}

/* the 3 ns shift in units spread 7.9 ns, of a row judged on its ns */
static void check_wide_base(void)
{
	struct row_spec a[] = { NSE("base", "getpgid", wide) };
	struct row_spec b[] = { NSE("base", "getpgid", wide_up3) };
	int ret;

	pair(a, 1, b, 1, &ctx_host);
	ret = run_compare(path_a, path_b, -1);
	check(ret == 0 && !strcmp(verdict_of("base", "getpgid"),
				  "no significant change") &&
	      !strcmp(jstr(jfind("rows", "base", "getpgid", ""), "verdict_on"),
		      "ns_per_event") &&
	      !json_is_true(json_object_get(jfind("rows", "base", "getpgid", ""),
					    "within_threshold")),
	      "3 ns shift in a base row's units spread 7.9 ns, beyond the threshold: no significant change (%d)",
	      ret);
}

static void test_compare_wide_regression(void)
{
	struct row_spec a[] = { OVH("kprobe", "getpgid", wide) };
	struct row_spec b[] = { OVH("kprobe", "getpgid", wide_up) };
	int ret;

	/* 2.3% slower on the means but not significant: never a regression */
	pair(a, 1, b, 1, &ctx_host);
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0 && !strcmp(verdict_of("kprobe", "getpgid"),
				  "no significant change"),
	      "--fail-on-regression 0: insignificant slowdown passes (%d)", ret);

	/*
	 * 3 ns (14%) higher, beyond the threshold, in units as spread: the
	 * significance test alone says no change (t 0.6, p 0.57), so that a
	 * verdict from the delta, or at any p, would say slower. On an
	 * overhead row, its share of its base (the same 14%) is tested; on
	 * a base row, its ns
	 */
	b[0].units = wide_up3;
	pair(a, 1, b, 1, &ctx_host);
	ret = run_compare(path_a, path_b, -1);
	check(ret == 0 && !strcmp(verdict_of("kprobe", "getpgid"),
				  "no significant change") &&
	      !strcmp(jstr(jfind("rows", "kprobe", "getpgid", ""), "verdict_on"),
		      "overhead_share") &&
	      !json_is_true(json_object_get(jfind("rows", "kprobe", "getpgid", ""),
					    "within_threshold")),
	      "3 ns shift in an overhead's units spread 7.9 ns, its share alike: no significant change (%d)",
	      ret);
	check_wide_base();

	a[0].units = ov_up5;
	b[0].units = ov;
	pair(a, 1, b, 1, &ctx_host);
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0 && !strcmp(verdict_of("kprobe", "getpgid"), "faster"),
	      "--fail-on-regression 0: a speed-up passes (%d)", ret);

	/* an overhead of 0 or less has no percent: any rise is beyond it */
	a[0].units = (const double[]){ -0.2, 0.2, 0.1, -0.1, 0 };
	b[0].units = ov;
	pair(a, 1, b, 1, &ctx_host);
	ret = run_compare(path_a, path_b, 1000);
	check(ret == 1 && isnan(jnum(jfind("rows", "kprobe", "getpgid", ""),
				     "delta_pct")),
	      "--fail-on-regression 1000: slower from an overhead of 0 fails, no %% (%d)",
	      ret);
}

/*
 * A pool past what a double holds (the reader refuses such values, so
 * straight into compare/read.c): no verdict, never "no significant change"
 */
static void test_compare_overflow(void)
{
	struct row ra = { .name = "raw_tp", .variant = "getpgid", .params = "",
			  .status = "ok", .ok = true, .quantity = "overhead_ns" };
	struct row rb = ra;
	struct compare_args args = { .nr_files = { 1, 1 },
				     .fail_on_regression = 0,
				     .threshold_pct = COMPARE_THRESHOLD_PCT };
	struct compare c = { .args = &args };
	json_t *huge = json_pack("[f, f, f, f]", 1e308, 1e308, -1e308, 1e308);
	json_t *plain = json_pack("[f, f, f, f]", 20.0, 21.0, 22.0, 23.0);
	int i;

	pool_values(plain, NULL, &ra.units);
	pool_values(huge, NULL, &rb.units);
	c.side[SIDE_A] = (struct side){ .label = "A", .nr_files = 1 };
	c.side[SIDE_B] = (struct side){ .label = "B", .nr_files = 1 };
	c.side[SIDE_A].files[0] = (struct bench_file){ .path = "a", .rows = &ra, .nr = 1 };
	c.side[SIDE_B].files[0] = (struct bench_file){ .path = "b", .rows = &rb, .nr = 1 };
	if (index_side(&c.side[SIDE_A]) || index_side(&c.side[SIDE_B]) ||
	    match_sides(&c)) {
		check(false, "compare: pools of 1e308 could not be set up");
		return;
	}
	check(c.nr_compared == 1 && c.nr_cannot_tell == 1 &&
	      !c.nr_verdicts[V_NO_CHANGE] && !c.entries[0].ns.w.decidable &&
	      !c.nr_regressions,
	      "compare: units of 1e308, 1e308, -1e308, 1e308 pool past a double: cannot tell, never no significant change (%d compared, %d cannot tell, %d no change)",
	      c.nr_compared, c.nr_cannot_tell, c.nr_verdicts[V_NO_CHANGE]);
	for (i = 0; i < 2; i++) {
		free(c.side[i].sorted);
		free(c.side[i].groups);
	}
	free(c.entries);
	json_decref(huge);
	json_decref(plain);
}

/* A from three files (the third's row disturbed), B from two */
static void test_compare_pooling(void)
{
	struct row_spec a1[] = { OVH("kprobe", "getpgid", ov) };
	struct row_spec a2[] = { OVH("kprobe", "getpgid", ov) };
	struct row_spec a3[] = { { .name = "kprobe", .variant = "getpgid",
				   .status = ST_DISTURBED,
				   .reason = "CPU 1 was busy" } };
	struct row_spec b[] = { OVH("kprobe", "getpgid", ov_up5) };
	struct row_spec b2[] = { OVH("kprobe", "getpgid", ov_up5) };
	double b2_units[ARRAY_SIZE(ov_up5)];
	struct ctx_spec four = { "6.1.0-18-amd64", 4 };
	struct compare_args args = {
		.files = { { path_a, path_a2, path_a3 }, { path_b } },
		.nr_files = { 3, 1 },
		.fail_on_regression = -1,
	};
	const json_t *kp, *lo, *d;
	int ret;

	/* ov split: its first 3 units in one file, its last 2 in another */
	a1[0].n = 3;
	a2[0].units = ov + 3;
	a2[0].n = 2;
	write_doc(path_a, &ctx_host, a1, 1);
	write_doc(path_a2, &four, a2, 1);
	write_doc(path_a3, &ctx_host, a3, 1);
	write_doc(path_b, &ctx_host, b, 1);
	ret = run_compare_args(&args);
	kp = jfind("rows", "kprobe", "getpgid", "");
	check(ret == 0 && jnum(json_object_get(kp, "a"), "n") == 5 &&
	      jnum(json_object_get(kp, "a"), "files") == 2,
	      "A's units pooled from the two files that have it ok (%d)", ret);
	/* 3 + 2 units pooled are ov: as one file of them */
	check(near(jnum(json_object_get(kp, "a"), "mean"), 22, 1e-12) &&
	      near(jnum(json_object_get(kp, "a"), "ci95"),
		   T95_4 * sqrt(0.1 / 5), 1e-6) &&
	      near(jnum(kp, "delta_ci95"), T95_8 * 0.2, 1e-6) &&
	      !strcmp(jstr(kp, "verdict"), "slower"),
	      "pooled units give the mean, interval and verdict of one file of them");
	lo = json_array_get(json_object_get(cmp_json, "left_out"), 0);
	check(json_array_size(json_object_get(cmp_json, "left_out")) == 1 &&
	      !strcmp(jstr(lo, "side"), "A") &&
	      !strcmp(jstr(lo, "file"), path_a3) &&
	      strstr(jstr(lo, "reason"), "disturbed (CPU 1 was busy)"),
	      "the disturbed row of A's third file is left out, named");
	d = json_array_get(json_object_get(cmp_json, "context_differences"), 0);
	check(json_array_size(json_object_get(cmp_json, "context_differences")) == 1 &&
	      !strcmp(jstr(d, "key"), "online_cpus") &&
	      !strcmp(jstr(d, "within"), "A") &&
	      jnum(json_array_get(json_object_get(d, "values"), 1), "value") == 4,
	      "files of A from machines of 2 and 4 CPUs: the difference within A listed");
	check(out_has("context differs within A: online_cpus: "),
	      "... and in the table");
	show_compare();

	/*
	 * B twice as big: another run of the same units but the last, 1e-9
	 * ns higher (the same units are the same run, refused below). Two
	 * runs or more on both sides: a run is an observation, its units'
	 * mean (A's: 22.0 and 22.0)
	 */
	memcpy(b2_units, ov_up5, sizeof(b2_units));
	b2_units[4] += 1e-9;
	b2[0].units = b2_units;
	write_doc(path_b2, &ctx_host, b2, 1);
	args.files[SIDE_B][1] = path_b2;
	args.nr_files[SIDE_B] = 2;
	ret = run_compare_args(&args);
	kp = jfind("rows", "kprobe", "getpgid", "");
	check(ret == 0 && jnum(json_object_get(kp, "b"), "n") == 2 &&
	      jnum(json_object_get(kp, "b"), "files") == 2 &&
	      jnum(json_object_get(kp, "a"), "n") == 2 &&
	      !strcmp(jstr(kp, "observation"), "run") &&
	      near(jnum(kp, "delta"), 5, 1e-9),
	      "two files of B, two of A: a run an observation, the same delta (%d)",
	      ret);

	/* one file twice on a side would count its units twice */
	args.files[SIDE_B][1] = path_b;
	ret = run_compare_args(&args);
	check(ret == -EINVAL && strstr(cmp_err, "given twice for B") &&
	      !cmp_json, "a file given twice for B is refused (%d)", ret);
	/* and so would another file of the same run */
	write_doc(path_b2, &ctx_host, b, 1);
	args.files[SIDE_B][1] = path_b2;
	ret = run_compare_args(&args);
	check(ret == -EINVAL && strstr(cmp_err, "the run of ") &&
	      strstr(cmp_err, "given twice for B") && !cmp_json,
	      "a copy of B's run given as another run of B is refused (%d)",
	      ret);
}

static void test_compare_rows_context(void)
{
	static const double one[] = { 22 };
	struct row_spec a[] = {
		NSE("base", "getpgid", base_units),
		OVH("kprobe", "getpgid", ov),
		OVH("fexit", "getpgid", ov),
		OVH("raw_tp", "getpgid", one),
	};
	struct row_spec b[] = {
		NSE("base", "getpgid", base_units),
		OVH("fentry", "getpgid", ov),
		{ .name = "fexit", .variant = "getpgid", .status = ST_SKIPPED,
		  .reason = "no BTF for \"x\"" },
		OVH("raw_tp", "getpgid", ov),
	};
	struct ctx_spec other = { "6.1.0-20-amd64", 4 };
	const json_t *d, *raw;
	size_t i;
	int ret, found = 0;

	pair(a, 4, b, 4, &other);
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0, "compare with missing rows exits 0 (%d)", ret);
	check(!strcmp(kind_of("kprobe", "getpgid", ""), "only_in_a"),
	      "row only in A listed");
	check(!strcmp(kind_of("fentry", "getpgid", ""), "only_in_b"),
	      "row only in B listed");
	check(!strcmp(kind_of("fexit", "getpgid", ""), "not_ok") &&
	      strstr(jstr(jfind("not_compared", "fexit", "getpgid", ""), "reason"),
		     "B skipped (no BTF for \"x\")"),
	      "row skipped in B listed with its reason");
	raw = jfind("rows", "raw_tp", "getpgid", "");
	check(!strcmp(jstr(raw, "verdict"), "cannot tell") &&
	      json_is_null(json_object_get(raw, "p")) &&
	      isnan(jnum(raw, "delta_ci95")),
	      "one unit in A: cannot tell, no p, no interval");
	json_array_foreach(json_object_get(cmp_json, "context_differences"), i, d) {
		if (!strcmp(jstr(d, "key"), "online_cpus") &&
		    json_is_null(json_object_get(d, "within")) &&
		    json_is_false(json_object_get(d, "expected")))
			found |= 1;
		if (!strcmp(jstr(d, "key"), "kernel_release") &&
		    json_is_true(json_object_get(d, "expected")))
			found |= 2;
	}
	check(found == 3, "CPU count difference listed, kernel difference as expected");
	check(out_has("kernel differs (expected when comparing kernels): kernel_release: A 6.1.0-18-amd64, B 6.1.0-20-amd64"),
	      "... and both in the table");
	show_compare();
}

/* ---- compare: rows as JSON text ---- */

#define VALUES_OV	"[ 22.0, 22.4, 21.6, 22.2, 21.8 ]"
#define VALUES_UP5	"[ 27.0, 27.4, 26.6, 27.2, 26.8 ]"
#define UNITS(q, values) "{ \"quantity\": \"" q "\", \"values\": " values " }"
#define UNITS_OV	UNITS("overhead_ns", VALUES_OV)
#define UNITS_UP5	UNITS("overhead_ns", VALUES_UP5)
/* results[] members as JSON text; @extra goes in as it is */
#define JROW(name, variant, extra, units)				\
	"{ \"name\": \"" name "\", \"variant\": \"" variant "\"" extra	\
	", \"status\": \"ok\", \"units\": " units " }"
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

static void test_compare_quantities(void)
{
	struct compare_args args = {
		.files = { { path_a, path_a2 }, { path_b } },
		.nr_files = { 2, 1 },
		.fail_on_regression = -1,
	};
	int ret;

	ret = compare_rows_text(
		JROW("q", "v", "", UNITS_OV) ","
		"{ \"name\": \"old\", \"variant\": \"v\", \"status\": \"ok\","
		" \"unit\": \"events/s\", \"samples\": [ 1e6, 1.1e6 ] }" ","
		JROW("odd", "v", "", UNITS("events_per_s", VALUES_OV)) ","
		JROW("few", "v", "", UNITS("overhead_ns", "[ 22 ]")) ","
		JROW("none", "v", "", UNITS("overhead_ns", "[]")),
		JROW("q", "v", "", UNITS("ns_per_event", VALUES_UP5)) ","
		"{ \"name\": \"old\", \"variant\": \"v\", \"status\": \"ok\","
		" \"unit\": \"events/s\", \"samples\": [ 1e6, 1.1e6 ] }" ","
		JROW("odd", "v", "", UNITS("events_per_s", VALUES_UP5)) ","
		JROW("few", "v", "", UNITS_UP5) ","
		JROW("none", "v", "", UNITS_UP5));
	check(ret == 0 && !cmp_err[0], "rows of other quantities compare (%d): %s",
	      ret, cmp_err);
	check(!strcmp(kind_of("q", "v", ""), "quantity_differs") &&
	      strstr(jstr(jfind("not_compared", "q", "v", ""), "reason"),
		     "A ok, 5 units of overhead_ns from 1 file; B ok, 5 units of ns_per_event"),
	      "overhead_ns in A, ns_per_event in B: not compared, both named");
	check(!strcmp(kind_of("old", "v", ""), "no_units"),
	      "an ok row without units (a file from before them): not compared");
	check(!strcmp(kind_of("odd", "v", ""), "unknown_quantity"),
	      "units of a quantity no cost known: not compared");
	check(!strcmp(verdict_of("few", "v"), "cannot tell"),
	      "one unit on a side: cannot tell");
	/* an ok row that measured nothing is no run of 0 ns (issue 44) */
	check(!strcmp(kind_of("none", "v", ""), "no_units"),
	      "no unit on a side (units.values []): not compared, no units");
	check(out_has("  few v ") &&
	      out_has("cannot tell: few v: fewer than 2 units in A\n"),
	      "... and the table says why");
	show_compare();

	/* A's two files disagree on the quantity of a row */
	write_rows(path_a, JROW("m", "v", "", UNITS_OV));
	write_rows(path_a2, JROW("m", "v", "", UNITS("ns_per_event", VALUES_OV)));
	write_rows(path_b, JROW("m", "v", "", UNITS_OV));
	ret = run_compare_args(&args);
	check(ret == 0 && !strcmp(kind_of("m", "v", ""), "quantity_mixed"),
	      "A's files of two quantities for a row: not compared (%d)", ret);
	show_compare();
}

static void test_compare_ignore_param(void)
{
	struct compare_args args = {
		.files = { { path_a }, { path_b } },
		.nr_files = { 1, 1 },
		.fail_on_regression = -1,
	};
	const json_t *dup;
	int ret;

	write_rows(path_a,
		   JROW("hash", "kprobe", ", \"params\": { \"progs\": 1, \"entries\": 1024 }", UNITS_OV) ","
		   JROW("lru", "kprobe", ", \"params\": { \"progs\": 1 }", UNITS_OV) ","
		   JROW("lru", "kprobe", ", \"params\": { \"progs\": 2 }", UNITS_UP5));
	write_rows(path_b,
		   JROW("hash", "kprobe", ", \"params\": { \"progs\": 2, \"entries\": 1024 }", UNITS_UP5) ","
		   JROW("lru", "kprobe", ", \"params\": { \"progs\": 3 }", UNITS_OV));
	ret = run_compare_args(&args);
	check(ret == 0 && !strcmp(kind_of("hash", "kprobe", "entries=1024,progs=1"), "only_in_a") &&
	      !strcmp(kind_of("hash", "kprobe", "entries=1024,progs=2"), "only_in_b"),
	      "--progs 1 against --progs 2: other rows (%d)", ret);

	check(!compare_parse_ignore(&args, "progs"), "--ignore-param progs parsed");
	ret = run_compare_args(&args);
	check(ret == 0 && !strcmp(jstr(jfind("rows", "hash", "kprobe", "entries=1024"),
				       "verdict"), "slower") &&
	      !strcmp(json_string_value(json_array_get(json_object_get(cmp_json,
			"ignored_params"), 0)) ?: "", "progs"),
	      "--ignore-param progs: --progs 1 against --progs 2 are one row, slower (%d)",
	      ret);
	dup = json_array_get(json_object_get(cmp_json, "duplicates"), 0);
	check(!strcmp(verdict_of("lru", "kprobe"), "no significant change") &&
	      !strcmp(jstr(dup, "side"), "A") && !strcmp(jstr(dup, "name"), "lru") &&
	      jnum(dup, "kept") == 1 && jnum(dup, "ignored") == 1,
	      "--ignore-param progs: two rows of A then collide, the first counts, the other a duplicate");
	check(out_has("Rows matched ignoring the params progs\n"),
	      "the table says which params were ignored");
	show_compare();
	free((char *)args.ignore[0]);
}

/* the words of --compare, through compare_parse_files() */
struct files_call {
	struct compare_args *c;
	int argc;
	const char **argv;
	int *next;
};

static int call_parse_files(void *arg)
{
	struct files_call *f = arg;

	return compare_parse_files(f->c, f->argv[0], f->argc,
				   (char **)f->argv, f->next);
}

static int parse_files(struct compare_args *c, int argc, const char **argv,
		       int *next)
{
	struct files_call f = { c, argc, argv, next };

	memset(c, 0, sizeof(*c));
	*next = 1;
	return with_stderr(call_parse_files, &f, cmp_err, sizeof(cmp_err));
}

struct ignore_call {
	struct compare_args *c;
	const char *list;
};

static int call_parse_ignore(void *arg)
{
	struct ignore_call *i = arg;

	return compare_parse_ignore(i->c, i->list);
}

/* --ignore-param @list; its error, if any, in cmp_err */
static int parse_ignore(struct compare_args *c, const char *list)
{
	struct ignore_call i = { c, list };

	return with_stderr(call_parse_ignore, &i, cmp_err, sizeof(cmp_err));
}

/* @argv is refused with one line that says @msg */
static void files_refused(int argc, const char **argv, const char *msg)
{
	struct compare_args c;
	int next;

	check(parse_files(&c, argc, argv, &next) == -1 && strstr(cmp_err, msg) &&
	      strchr(cmp_err, '\n') == cmp_err + strlen(cmp_err) - 1,
	      "--compare %s ...: one line, \"%s\"", argv[0], msg);
}

static void test_compare_args(void)
{
	const char *two[] = { "a.json", "b.json", "-q" };
	const char *pooled[] = { "a1", "a2", "--", "b1", "b2", "b3" };
	const char *many[COMPARE_MAX_FILES + 3];
	struct compare_args c;
	int next, i;

	check(!parse_files(&c, 3, two, &next) && c.nr_files[SIDE_A] == 1 &&
	      c.nr_files[SIDE_B] == 1 && !strcmp(c.files[SIDE_B][0], "b.json") &&
	      next == 2, "--compare A B -q: one file a side, -q left to getopt");
	check(!parse_files(&c, 6, pooled, &next) && c.nr_files[SIDE_A] == 2 &&
	      c.nr_files[SIDE_B] == 3 && !strcmp(c.files[SIDE_A][1], "a2") &&
	      !strcmp(c.files[SIDE_B][0], "b1") && next == 6,
	      "--compare A1 A2 -- B1 B2 B3: two files for A, three for B");
	files_refused(1, (const char *[]){ "a" }, "--compare needs two files");
	files_refused(3, (const char *[]){ "a", "b", "c" },
		      "more than two files needs -- between A's and B's");
	files_refused(2, (const char *[]){ "a", "--" },
		      "needs a file on each side of --");
	files_refused(2, (const char *[]){ "--", "b" },
		      "needs a file on each side of --");
	files_refused(5, (const char *[]){ "a", "--", "b", "--", "c" },
		      "takes one -- between A's files and B's");
	files_refused(1, (const char *[]){ "-x" }, "needs files, not '-x'");
	for (i = 0; i <= COMPARE_MAX_FILES; i++)
		many[i] = "a";
	many[i++] = "--";
	many[i++] = "b";
	files_refused(i, many, "at most 64 files a side");

	memset(&c, 0, sizeof(c));
	check(!parse_ignore(&c, "progs,cpus") && c.nr_ignore == 2 &&
	      !strcmp(c.ignore[1], "cpus"), "--ignore-param progs,cpus: two keys");
	check(parse_ignore(&c, "a,,b") == -1 &&
	      strstr(cmp_err, "bad --ignore-param 'a,,b': KEY[,KEY...], no key empty") &&
	      parse_ignore(&c, "") == -1, "--ignore-param: an empty key refused");
	for (i = 0; i < c.nr_ignore; i++)
		free((char *)c.ignore[i]);
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
	      strchr(cmp_err, '\n') == cmp_err + strlen(cmp_err) - 1 &&
	      !cmp_json && !cmp_out[0],
	      "compare error %d, one line \"%s\", no output", ret, msg);
}

static void test_compare_errors(void)
{
	struct row_spec a[] = { NSE("base", "getpgid", base_units) };
	char missing[80];
	int ret;

	write_doc(path_a, &ctx_host, a, 1);
	expect_compare_error("{ \"schema\": \"bpf-bench/1\",\n  \"results\": [ }",
			     -EINVAL, "line 2, column 16: unexpected token near '}'");
	expect_compare_error("{ \"schema\": \"bpf-bench/2\", \"context\": {},"
			     " \"results\": [] }", -EINVAL,
			     "\"schema\" is \"bpf-bench/2\", expected \"bpf-bench/1\"");
	expect_compare_error("[]", -EINVAL, "\"schema\" is missing");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {} }",
			     -EINVAL, "a \"results\" array");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"results\": [ " JROW("a", "b", "",
			     UNITS("overhead_ns", "[ 1, null ]")) " ] }", -EINVAL,
			     "results[0] (a b): an ok row's \"units\" needs a \"quantity\" string and a \"values\" array of numbers");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"results\": [ " JROW("a", "b", "",
			     "{ \"values\": [ 1 ] }") " ] }", -EINVAL,
			     "results[0] (a b): an ok row's \"units\" needs a \"quantity\"");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"results\": [ " JROW("a", "b", "", "[ 1 ]") " ] }",
			     -EINVAL, "results[0] (a b): \"units\" must be an object");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"results\": [ { \"name\": \"a\", \"variant\": "
			     "\"b\", \"status\": \"lost\" } ] }", -EINVAL,
			     "results[0] (a b): status is none of ok, skipped, failed, disturbed");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": {},"
			     " \"context\": {}, \"results\": [] }", -EINVAL,
			     "line 1, column 51: duplicate object key near '\"context\"'");
	/* a run made with a test fault: its ok rows may be unverified */
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": "
			     "{ \"fault\": \"uncounted\" }, \"results\": [] }",
			     -EINVAL, "made with the test fault 'uncounted' (context.fault)");
	expect_compare_error("{ \"schema\": \"bpf-bench/1\", \"context\": "
			     "{ \"fault\": 1 }, \"results\": [] }",
			     -EINVAL, "context.fault is set");
	snprintf(missing, sizeof(missing), "%s/missing.json", tmpdir);
	ret = run_compare(path_a, missing, -1);
	check(ret == -ENOENT && strstr(cmp_err, "No such file"),
	      "missing file: -ENOENT (%d)", ret);
	/* a valid empty file compares, with nothing to say */
	write_text(path_b, "{ \"schema\": \"bpf-bench/1\", \"context\": {},"
		   " \"results\": [] }");
	ret = run_compare(path_a, path_b, 0);
	check(ret == 0 && !cmp_err[0] &&
	      !strcmp(kind_of("base", "getpgid", ""), "only_in_a"),
	      "empty results compare: exit 0, row only in A (%d)", ret);
}

/* ---- compare: identities, limits and hostile files ---- */

static void test_compare_params(void)
{
	int ret;

	ret = compare_rows_text(
		JROW("hash", "kprobe", ", \"params\": { \"entries\": 1024, \"key_size\": 16 }", UNITS_OV) ","
		JROW("hash", "kprobe", ", \"params\": { \"entries\": 4096 }", UNITS_OV) ","
		JROW("hash", "kprobe", "", UNITS_OV) ","
		JROW("lru", "kprobe", ", \"params\": { \"cpus\": \"0-1\" }", UNITS_OV),
		JROW("hash", "kprobe", ", \"params\": { \"key_size\": 16, \"entries\": 1024 }", UNITS_UP5) ","
		JROW("hash", "kprobe", ", \"params\": { \"entries\": 4096.0 }", UNITS_OV) ","
		JROW("lru", "kprobe", ", \"params\": { \"cpus\": \"0,1\" }", UNITS_OV) ","
		JROW("lru", "kprobe", ", \"params\": null", UNITS_OV));
	check(ret == 0, "compare with params exits 0 (%d): %s", ret, cmp_err);
	check(!strcmp(jstr(jfind("rows", "hash", "kprobe", "entries=1024,key_size=16"),
			   "verdict"), "slower"),
	      "params in any order are one row, sorted");
	check(!strcmp(jstr(jfind("rows", "hash", "kprobe", "entries=4096"),
			   "verdict"), "no significant change"),
	      "4096 and 4096.0 are the same param");
	check(!strcmp(kind_of("hash", "kprobe", ""), "only_in_a"),
	      "the row without params is another row");
	check(!strcmp(kind_of("lru", "kprobe", "cpus=0-1"), "only_in_a") &&
	      !strcmp(kind_of("lru", "kprobe", "cpus=0\\,1"), "only_in_b") &&
	      !strcmp(kind_of("lru", "kprobe", ""), "only_in_b"),
	      "different params: different rows; ',' in a value escaped; null params are none");
	check(out_has("only in A: lru kprobe [cpus=0-1]\n"),
	      "the table names a row with its params");
	show_compare();

	write_rows(path_b, JROW("hash", "kprobe", ", \"params\": { \"a\": true }", UNITS_OV));
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EINVAL && strstr(cmp_err, "results[0] (hash kprobe): \"params\" members must be numbers or strings"),
	      "a boolean param is refused (%d)", ret);
	write_rows(path_b, JROW("hash", "kprobe", ", \"params\": [ 1 ]", UNITS_OV));
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EINVAL && strstr(cmp_err, "\"params\" must be an object"),
	      "params that are not an object are refused (%d)", ret);
}

static void test_compare_dups_disturbed(void)
{
	const json_t *d;
	size_t i;
	int ret, found = 0;

	/* the first of a duplicated identity counts: slow, then base */
	ret = compare_rows_text(
		JROW("base", "getpgid", "", UNITS_UP5) ","
		JROW("base", "getpgid", "", UNITS_OV) ","
		JROW("base", "getpgid", "", UNITS_OV) ","
		JROW("kprobe", "getpgid", "", UNITS_OV),
		JROW("base", "getpgid", "", UNITS_UP5) ","
		JSTATUS("kprobe", "getpgid", "disturbed", "a CPU was busy") ","
		JSTATUS("kprobe", "getpgid", "failed", "later"));
	check(ret == 0 && !cmp_err[0], "duplicates are no error (%d): %s", ret,
	      cmp_err);
	check(!strcmp(verdict_of("base", "getpgid"), "no significant change"),
	      "a duplicate identity: the first row counts");
	json_array_foreach(json_object_get(cmp_json, "duplicates"), i, d) {
		if (!strcmp(jstr(d, "side"), "A") && jnum(d, "kept") == 0 &&
		    jnum(d, "ignored") == 2)
			found |= 1;
		if (!strcmp(jstr(d, "side"), "B") && jnum(d, "kept") == 1 &&
		    jnum(d, "ignored") == 1)
			found |= 2;
	}
	check(found == 3 &&
	      json_array_size(json_object_get(cmp_json, "duplicates")) == 2,
	      "duplicates in A and in B listed once each");
	check(out_has(": base getpgid: results[0] kept, 2 later rows ignored\n"),
	      "... and in the table");
	check(!strcmp(kind_of("kprobe", "getpgid", ""), "not_ok") &&
	      strstr(jstr(jfind("not_compared", "kprobe", "getpgid", ""), "reason"),
		     "B disturbed (a CPU was busy)"),
	      "a disturbed row is listed, not judged");
	check(jsummary("not_compared") == 1, "duplicates are not \"only in\"");
	show_compare();
}

static void test_compare_escapes(void)
{
	char long_row[1024], want[80];
	bool clean = true;
	const char *c;
	int ret;

	ret = compare_rows_text(
		JROW("evil\\n\\u001b[2J", "x\\u009by\\u202ez", "", UNITS_OV) ","
		JSTATUS("r", "v", "failed", "line\\rover\\u007f") ","
		JROW("q", "v", "", UNITS("\\u001b[2J", VALUES_OV)),
		JSTATUS("r", "v", "skipped", "tab\\there") ","
		JSTATUS("\\u00b5s \\u2713", "v", "failed", "x") ","
		JROW("q", "v", "", UNITS("\\u001b[2J", VALUES_OV)));
	check(ret == 0, "hostile names compare (%d): %s", ret, cmp_err);
	for (c = cmp_out; c && *c; c++)
		clean &= (unsigned char)*c >= 0x20 && *c != 0x7f ? true : *c == '\n';
	check(clean, "no control byte but newlines in the output");
	check(out_has("only in A: evil\\x0a\\x1b[2J x\\xc2\\x9by\\xe2\\x80\\xaez\n"),
	      "newline, escape, C1 CSI and bidi override shown as \\xNN");
	check(out_has("A failed (line\\x0dover\\x7f); B skipped (tab\\x09here)"),
	      "reasons escaped too");
	check(out_has("units of '\\x1b[2J', no cost this compare knows"),
	      "a quantity escaped too");
	check(out_has("only in B: \xc2\xb5s \xe2\x9c\x93 v\n"), "printable UTF-8 kept as it is");
	check(cmp_json && !strcmp(jstr(json_array_get(json_object_get(cmp_json,
			"not_compared"), 0), "name"), "evil\n\x1b[2J"),
	      "the JSON has the name as the file has it, escaped as JSON");
	show_compare();

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

/* a row of @n numbers in the array @key ("samples", or "units") */
static void long_row(char *row, size_t len, const char *key, int n)
{
	size_t o;
	int i;

	o = snprintf(row, len, "{ \"name\": \"a\", \"variant\": \"b\", "
		     "\"status\": \"ok\", %s[ 1", !strcmp(key, "units") ?
		     "\"units\": { \"quantity\": \"overhead_ns\", \"values\": " :
		     "\"samples\": ");
	for (i = 1; i < n; i++)
		o += snprintf(row + o, len - o, ", %d", i + 1);
	snprintf(row + o, len - o, " ]%s }", !strcmp(key, "units") ? " }" : "");
}

static void test_compare_limits(void)
{
	char row[8192], want[80];
	int ret;

	write_rows(path_a, JROW("a", "b", "", UNITS_OV));
	sparse_file(path_b, JSON_MAX_FILE_SIZE + 1);
	ret = run_compare(path_a, path_b, -1);
	check(ret == -EFBIG && strstr(cmp_err, "b.json: 16777217 bytes, larger than 16 MiB: refused\n") &&
	      strchr(cmp_err, '\n') == cmp_err + strlen(cmp_err) - 1,
	      "a file over 16 MiB is refused in one line (%d)", ret);

	long_row(row, sizeof(row), "samples", MAX_SAMPLES + 1);
	write_rows(path_b, row);
	ret = run_compare(path_a, path_b, -1);
	snprintf(want, sizeof(want), "results[0] (a b): %d samples, at most %d\n",
		 MAX_SAMPLES + 1, MAX_SAMPLES);
	check(ret == -EINVAL && strstr(cmp_err, want),
	      "%d samples are refused, naming the row (%d)", MAX_SAMPLES + 1, ret);
	long_row(row, sizeof(row), "units", MAX_UNITS + 1);
	write_rows(path_b, row);
	ret = run_compare(path_a, path_b, -1);
	snprintf(want, sizeof(want), "results[0] (a b): %d units, at most %d\n",
		 MAX_UNITS + 1, MAX_UNITS);
	check(ret == -EINVAL && strstr(cmp_err, want),
	      "%d units are refused, naming the row (%d)", MAX_UNITS + 1, ret);
	long_row(row, sizeof(row), "units", MAX_UNITS);
	write_rows(path_b, row);
	ret = run_compare(path_a, path_b, -1);
	check(ret == 0 && jnum(json_object_get(jfind("rows", "a", "b", ""), "b"),
			       "n") == MAX_UNITS,
	      "%d units are read (%d)", MAX_UNITS, ret);

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
	repeat_rows(path_b, JROW("a", "b", "", UNITS("overhead_ns", "[1]")), 60000);
	ret = run_compare(path_a, path_b, -1);
	check(ret == 0 && jnum(json_array_get(json_object_get(cmp_json,
			"duplicates"), 0), "ignored") == 59999,
	      "60000 small rows are read within the memory bound (%d)", ret);
}

/* ---- compare: a results document round trip ---- */

/* control characters, quotes and UTF-8 a reason may hold */
static const char tricky[] =
	"q\"b\\s/ \b\f\n\r\t \x01\x1f\x7f \xc2\xb5s \xe2\x9c\x93 \xf0\x9f\x98\x80";
/* doubles that only read back the same with 17 significant digits */
static const double odd_units[] = { 0.1, 1.0 / 3, 3.6e6, 2.5e-7, 123.456 };

static const struct row_spec report_rows[] = {
	NSE("base", "task_rename", base_units),
	{ "kprobe", "task_rename", ST_OK, NULL, ov, ARRAY_SIZE(ov), true,
	  "progs", 4 },
	OVH("raw_tp", "task_rename", odd_units),
	{ .name = "fentry", .variant = "task_rename", .status = ST_SKIPPED,
	  .reason = "no BTF: \"x\"\n" },
	{ .name = "kprobe", .variant = "urandom_read", .status = ST_FAILED,
	  .reason = tricky },
};

static bool numbers_equal(const json_t *a, const double *x, int n)
{
	bool same = json_array_size(a) == (size_t)n;
	int i;

	for (i = 0; same && i < n; i++)
		same = json_is_real(json_array_get(a, i)) &&
		       json_real_value(json_array_get(a, i)) == x[i];
	return same;
}

static const char *row_str(const json_t *results, int i, const char *key)
{
	return json_string_value(json_object_get(json_array_get(results, i),
						 key));
}

static void test_report_round_trip(void)
{
	struct row_spec b[ARRAY_SIZE(report_rows)];
	json_error_t jerr = { .text = "" };
	json_t *root, *res, *units;
	const json_t *kp;
	size_t i;
	int ret, nr = ARRAY_SIZE(report_rows);
	bool none = true;

	ret = write_doc(path_a, &ctx_host, report_rows, nr);
	check(!ret, "a results document written as report/results_json.c does (%d)",
	      ret);
	root = json_load_file(path_a, JSON_REJECT_DUPLICATES, &jerr);
	check(root != NULL, "it reads back (%s)", jerr.text);
	if (!root)
		return;
	res = json_object_get(root, "results");
	check(!strcmp(json_string_value(json_object_get(root, "schema")) ?: "",
		      BENCH_SCHEMA) && json_array_size(res) == (size_t)nr,
	      "schema \"%s\" and %d rows", BENCH_SCHEMA, nr);
	units = json_object_get(json_array_get(res, 2), "units");
	check(numbers_equal(json_object_get(units, "values"), odd_units,
			    ARRAY_SIZE(odd_units)) &&
	      !strcmp(json_string_value(json_object_get(units, "quantity")) ?: "",
		      "overhead_ns"),
	      "units read back bit-exact (0.1, 1/3, 2.5e-7), of overhead_ns");
	units = json_object_get(json_array_get(res, 0), "units");
	check(!strcmp(json_string_value(json_object_get(units, "quantity")) ?: "",
		      "ns_per_event") &&
	      json_is_null(json_object_get(json_array_get(res, 0), "overhead_ns")) &&
	      json_is_null(json_object_get(json_array_get(res, 0), "reason")),
	      "a row without a base: units of ns_per_event; no overhead and no reason are null");
	check(json_integer_value(json_object_get(json_object_get(
		json_array_get(res, 1), "params"), "progs")) == 4,
	      "params read back");
	check(!strcmp(row_str(res, 3, "reason") ?: "", "no BTF: \"x\"\n") &&
	      !strcmp(row_str(res, 4, "reason") ?: "", tricky),
	      "reasons with quotes, control bytes and UTF-8 read back the same");
	check(json_is_null(json_object_get(json_object_get(root, "context"),
					   "attach_method")),
	      "a null in the context reads back null");
	json_decref(root);

	/* the compare reads what was written: A/A, no verdict */
	ret = run_compare(path_a, path_a, 0);
	check(ret == 0 && !cmp_err[0], "the document compares with itself (%d): %s",
	      ret, cmp_err);
	json_array_foreach(json_object_get(cmp_json, "rows"), i, kp)
		none &= !strcmp(jstr(kp, "verdict"), "no significant change") &&
			jnum(kp, "delta") == 0;
	check(none && jsummary("compared") == 3,
	      "A/A, one file against itself: every ok row, no significant change, delta 0");
	check(!strcmp(kind_of("fentry", "task_rename", ""), "not_ok") &&
	      strstr(jstr(jfind("not_compared", "kprobe", "urandom_read", ""), "reason"),
		     "A failed (q\"b\\s/ \\x08\\x0c\\x0a\\x0d\\x09 \\x01\\x1f\\x7f "
		     "\xc2\xb5s \xe2\x9c\x93 \xf0\x9f\x98\x80)"),
	      "skipped and failed rows listed, reasons escaped");
	check(!json_array_size(json_object_get(cmp_json, "context_differences")) &&
	      !json_array_size(json_object_get(cmp_json, "duplicates")),
	      "no context difference, no duplicate");
	show_compare();

	/* ... and a copy with one row's units 5 ns higher is slower by 5 */
	memcpy(b, report_rows, sizeof(b));
	b[1].units = ov_up5;
	write_doc(path_b, &ctx_host, b, nr);
	ret = run_compare(path_a, path_b, 5);
	kp = jfind("rows", "kprobe", "task_rename", "progs=4");
	check(ret == 1 && !strcmp(jstr(kp, "verdict"), "slower") &&
	      near(jnum(kp, "delta"), 5, 1e-9) &&
	      !strcmp(verdict_of("base", "task_rename"), "no significant change"),
	      "the row made 5 ns slower is slower by 5 ns, and fails at 5%% (%d)", ret);
}

static void test_compare(void)
{
	if (!mkdtemp(tmpdir)) {
		check(false, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path_a, sizeof(path_a), "%s/a.json", tmpdir);
	snprintf(path_a2, sizeof(path_a2), "%s/a2.json", tmpdir);
	snprintf(path_a3, sizeof(path_a3), "%s/a3.json", tmpdir);
	snprintf(path_b, sizeof(path_b), "%s/b.json", tmpdir);
	snprintf(path_b2, sizeof(path_b2), "%s/b2.json", tmpdir);
	snprintf(path_json, sizeof(path_json), "%s/compare.json", tmpdir);
	test_compare_args();
	test_compare_verdicts();
	test_compare_wide_regression();
	test_compare_pooling();
	test_compare_overflow();
	test_compare_rows_context();
	test_compare_quantities();
	test_compare_ignore_param();
	test_compare_errors();
	test_compare_params();
	test_compare_dups_disturbed();
	test_compare_escapes();
	test_compare_limits();
	test_report_round_trip();
	unlink(path_a);
	unlink(path_a2);
	unlink(path_a3);
	unlink(path_b);
	unlink(path_b2);
	unlink(path_json);
	rmdir(tmpdir);
	free(cmp_out);
	json_decref(cmp_json);
}

/* ---- --profile: whose samples count, and their names ---- */

struct fake_sample {
	struct perf_event_header header;
	__u64 ip;
	__u32 pid, tid;
};

static void take_sample_of(struct row_profile *prof, const pid_t *tids,
			   __u16 mode, __u64 ip, __u32 pid, __u32 tid)
{
	struct fake_sample r = {
		{ PERF_RECORD_SAMPLE, mode, sizeof(r) }, ip, pid, tid
	};

	profile_take(prof, ARM_ROW, tids, 2, &r);
}

static void test_profile_take(void)
{
	static const pid_t workers[] = { 100, 101 };
	struct row_profile prof = {};
	struct {
		struct perf_event_header header;
		__u64 id, lost;
	} lost = { { PERF_RECORD_LOST, 0, sizeof(lost) }, 1, 5 };
	struct perf_event_header throttle = {
		PERF_RECORD_THROTTLE, 0, sizeof(throttle) + 24
	};

	take_sample_of(&prof, workers, PERF_RECORD_MISC_KERNEL,
		       0xffffffff81000150ull, 100, 100);
	take_sample_of(&prof, workers, PERF_RECORD_MISC_USER, 0x401000, 101,
		       101);
	/* a thread of another process, and the idle task, on their CPUs */
	take_sample_of(&prof, workers, PERF_RECORD_MISC_KERNEL,
		       0xffffffff81000150ull, 77, 77);
	take_sample_of(&prof, workers, PERF_RECORD_MISC_KERNEL,
		       0xffffffff81000150ull, 0, 0);
	profile_take(&prof, ARM_ROW, workers, 2, &lost);
	profile_take(&prof, ARM_ROW, workers, 2, &throttle);
	check(prof.samples[ARM_ROW] == 2 && prof.other[ARM_ROW] == 1 &&
	      prof.idle[ARM_ROW] == 1 && prof.nr_ip[ARM_ROW] == 1,
	      "profile: another task's sample on a worker's CPU is not the worker's (%llu workers', %llu other, %llu idle)",
	      prof.samples[ARM_ROW], prof.other[ARM_ROW], prof.idle[ARM_ROW]);
	check(prof.user[ARM_ROW] == 1 && prof.lost == 5 && prof.throttled == 1,
	      "profile: user samples, lost records and throttles counted");
	free(prof.ip[ARM_ROW]);
}

/* a kallsyms text into a file of its own: its path */
static const char *kallsyms_file(const char *text, char *path)
{
	int fd;

	strcpy(path, "/tmp/stats_test.kallsyms.XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	if (fd < 0 || write_text(path, text))
		check(false, "profile: a kallsyms file of the test's own");
	return path;
}

static void test_profile_names(void)
{
	static const pid_t workers[] = { 100, 101 };
	struct row_profile *prof = calloc(1, sizeof(*prof));
	char path[64], names[256] = "";
	int i;

	kallsyms_file("ffffffff81000000 T _text\n"
		      "ffffffff81000200 D some_data\n"
		      "ffffffff81000100 t foo\n"
		      "ffffffffc0001000 t bpf_prog_0123456789abcdef_x\t[bpf]\n"
		      "ffffffffc0002000 t bpf_prog_0123456789abcdef_x\t[bpf]\n",
		      path);
	check(!profile_symbols_at(prof, path), "profile: kallsyms read");
	unlink(path);
	take_sample_of(prof, workers, PERF_RECORD_MISC_KERNEL,
		       0xffffffff81000250ull, 100, 100);
	take_sample_of(prof, workers, PERF_RECORD_MISC_KERNEL,
		       0xffffffffc0001010ull, 100, 100);
	take_sample_of(prof, workers, PERF_RECORD_MISC_KERNEL,
		       0xffffffffc0002010ull, 101, 101);
	take_sample_of(prof, workers, PERF_RECORD_MISC_KERNEL, 0x10, 100, 100);
	take_sample_of(prof, workers, PERF_RECORD_MISC_USER, 0x401000, 100,
		       100);
	profile_finish(prof);
	for (i = 0; i < prof->nr_sym; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s:%llu", i ? " " : "", prof->sym[i].name,
			 prof->sym[i].samples[ARM_ROW]);
	/* data is no code: foo's the address past it; two copies one name */
	check(!strcmp(names, "bpf_prog_0123456789abcdef_x:2 [unknown]:1 [user]:1 foo:1"),
	      "profile: addresses named by the text symbol at or before them, copies of a program one (%s)",
	      names);
	check_near(profile_share(prof, 0, ARM_ROW), 0.4, 1e-9,
		   "profile: a symbol's share of the workers' samples");
	profile_free(prof);

	prof = calloc(1, sizeof(*prof));
	kallsyms_file("0000000000000000 T _text\n0000000000000000 t foo\n",
		      path);
	check(profile_symbols_at(prof, path) && prof->out.status == ST_SKIPPED &&
	      strstr(prof->out.reason, "hides the kernel's addresses"),
	      "profile: kallsyms with its addresses hidden: skipped, said (%s)",
	      prof->out.reason);
	unlink(path);
	profile_free(prof);
}

int main(int argc, char **argv)
{
	int ret;

	bench_init("stats_test");
	if (argc == 3 && !strcmp(argv[1], "--write-results")) {
		ret = write_doc(argv[2], &ctx_host, report_rows,
				    ARRAY_SIZE(report_rows));
		if (ret)
			fprintf(stderr, "stats_test: %s: %s\n", argv[2],
				strerror(-ret));
		return ret ? 1 : 0;
	}

	test_summary();
	test_outliers();
	test_ns_overhead();
	test_t_distribution();
	test_t_quantile();
	test_format_or_dash();
	test_welch();
	test_verdict_degenerate();
	test_cmdline();
	test_verify();
	test_compare();
	test_profile_take();
	test_profile_names();
	printf("# stats_test: %d failed\n", nr_failed);
	return nr_failed ? 1 : 0;
}
