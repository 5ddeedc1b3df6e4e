// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench_stats, bench_cmdline, bench_msg, bench_compare and
 * the uprobe targets' nop check against values computed by hand. Prints one "ok - " or "not ok - " line
 * per check, as tests/lib.sh does, and exits 1 when any failed. The
 * results documents it compares are written by bench_report.c's own
 * write_results(), so that their schema is the programs'.
 *
 *   stats_test			every check
 *   stats_test --write-results FILE	a results document written by
 *				bench_report.c's writer, for python3's json
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
#include "bench_runner.h"
#include "bench_compare.h"
#include "bench_report.h"
#include "bench_stats.h"
#include "bench_util.h"
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

/* ---- the runner's pure helpers: bench_cmdline.c, bench_msg.c ---- */

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

/* ---- bench_verify.c: what a sample is worth ---- */

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
	struct bench_row row[3] = {
		{ .events = 1000, .hits_per_event = 1, .kernel_skipped = 1 },
		{ .events = 5000, .hits_per_event = 1 },
		{ .events = 1000, .hits_per_event = 2, .kernel_skipped = 2 },
	};
	struct bench_rows rows = { row, 3, 3 };
	char line[256];

	excused_line(&rows, line, sizeof(line));
	check(strstr(line, "skipped 3 of the 3000 program runs") &&
	      strstr(line, "in 2 rows"),
	      "excused: the summary says how many runs were excused (%s)", line);
	row[0].kernel_skipped = row[2].kernel_skipped = 0;
	excused_line(&rows, line, sizeof(line));
	check(!line[0], "excused: nothing said when nothing was (%s)", line);
}

static void test_settle(void)
{
	struct bench_row row = { .nr = 3, .settle_ns = { 2e6, 250e6, 4e6 } };
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
	struct bench_row row = {
		.nr = 3, .rate = { 2e6, 2e6, 2e6 }, .ns = { 900, 1100, 1000 },
		.events = 3000, .hits_per_event = 1, .hits = 3010,
		.hits_window = 2990,
	};
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

static void test_enough_samples(void)
{
	struct run_settings rs = { .min_samples = 3, .max_samples = 10,
				   .precision = 0.01 };
	const double flat[10] = { 100, 100, 100 };
	const double close_[3] = { 100, 100.2, 99.8 };
	const double wide[10] = { 100, 110, 90, 105, 95, 100, 110, 90, 105, 95 };

	check(!enough_samples(flat, 2, &rs), "enough: never under 3 samples");
	check(enough_samples(flat, 3, &rs), "enough: 3 identical samples");
	check(enough_samples(close_, 3, &rs),
	      "enough: a 95%% interval within 1%% of the mean");
	check(!enough_samples(wide, 9, &rs), "enough: not while it is wide");
	check(enough_samples(wide, 10, &rs), "enough: at --max-samples");
	rs.repeat = 4;
	check(!enough_samples(flat, 3, &rs) && enough_samples(flat, 4, &rs),
	      "enough: -r 4 is exactly 4");
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
	test_excused();
	test_excused_line();
	test_settle();
	test_labels();
	test_enough_samples();
	test_map_arithmetic();
	test_nop_check();
}

/* ---- compare: results files as bench_report.c writes them ---- */

struct row_spec {
	const char *name;
	const char *variant;
	enum status status;
	const char *reason;
	const double *samples;
	int n;
	const char *param;	/* one param, e.g. "progs", or NULL */
	long long param_value;
};

struct ctx_spec {
	const char *kernel;
	int online_cpus;
};

static const struct ctx_spec ctx_host = { "6.1.0-18-amd64", 2 };

/*
 * What the runner would have decided (bench_main.c's), for the real
 * writer's context: -r 5 over the default count on CPUs 0-1.
 */
static int cpus_used[] = { 0, 1 };
struct run_settings bench_rs = {
	.cpus = { ARRAY_SIZE(cpus_used), cpus_used },
	.count = 100000,
	.repeat = 5,
	.warmup = 1,
};

/* bench_kernel.c's, not linked: the machine's CPUs never reach a document */
int usable_cpus(struct cpu_list *out)
{
	out->nr = 0;
	out->cpu = NULL;
	return 0;
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

/* a row as the runner leaves it after its samples */
static void spec_row(const struct row_spec *r, struct bench_row *row)
{
	memset(row, 0, sizeof(*row));
	row->name = r->name;
	row->variant = r->variant;
	if (r->param)
		row_add_param(row, r->param, r->param_value);
	row->cpus = &bench_rs.cpus;
	row->out.status = r->status;
	snprintf(row->out.reason, sizeof(row->out.reason), "%s",
		 r->reason ?: "");
	if (r->status != ST_OK)
		return;
	row->nr = r->n;
	memcpy(row->rate, r->samples, r->n * sizeof(*r->samples));
	stats_ns_per_event(r->samples, r->n, row->ns);
	row->events = 100000ULL * r->n;
}

/* @rows written by bench_report.c's write_results() into @path */
static int write_doc(const char *path, const struct ctx_spec *c,
		     const struct row_spec *rows, int nr)
{
	struct bench_rows br = { .nr = nr };
	FILE *f;
	int ret, i;

	br.row = calloc(nr, sizeof(*br.row));
	f = fopen(path, "w");
	if (!br.row || !f) {
		ret = -errno;
		goto out;
	}
	for (i = 0; i < nr; i++)
		spec_row(&rows[i], &br.row[i]);
	written_ctx = c;
	ret = write_results(&fake_family, &br, f);
out:
	if (f && fclose(f) && !ret)
		ret = -EIO;
	free(br.row);
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

	ret = write_doc(path_a, &ctx_host, a, nr_a);
	if (!ret)
		ret = write_doc(path_b, ctx_b, b, nr_b);
	return ret;
}

#define ROW(n, v, s)	{ n, v, ST_OK, NULL, s, ARRAY_SIZE(s), NULL, 0 }

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
		{ "fexit", "task_rename", ST_SKIPPED, "no BTF for \"x\"", NULL, 0, NULL, 0 },
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

/* ---- compare: a results document round trip ---- */

/* control characters, quotes and UTF-8 a reason may hold */
static const char tricky[] =
	"q\"b\\s/ \b\f\n\r\t \x01\x1f\x7f \xc2\xb5s \xe2\x9c\x93 \xf0\x9f\x98\x80";
/* doubles that only read back the same with 17 significant digits */
static const double odd_s[] = { 0.1, 1.0 / 3, 3.6e6, 2.5e-7, 123.456 };

static const struct row_spec report_rows[] = {
	ROW("base", "task_rename", base_s),
	{ "kprobe", "task_rename", ST_OK, NULL, base_s, ARRAY_SIZE(base_s),
	  "progs", 4 },
	ROW("raw_tp", "task_rename", odd_s),
	{ "fentry", "task_rename", ST_SKIPPED, "no BTF: \"x\"\n", NULL, 0, NULL, 0 },
	{ "kprobe", "urandom_read", ST_FAILED, tricky, NULL, 0, NULL, 0 },
};

static bool samples_equal(const json_t *a, const double *x, int n)
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
	json_t *root, *res, *row;
	struct sample_stats s;
	int ret, nr = ARRAY_SIZE(report_rows);

	ret = write_doc(path_a, &ctx_host, report_rows, nr);
	check(!ret, "a results document written as bench_report.c does (%d)",
	      ret);
	root = json_load_file(path_a, JSON_REJECT_DUPLICATES, &jerr);
	check(root != NULL, "it reads back (%s)", jerr.text);
	if (!root)
		return;
	res = json_object_get(root, "results");
	check(!strcmp(json_string_value(json_object_get(root, "schema")) ?: "",
		      BENCH_SCHEMA) && json_array_size(res) == (size_t)nr,
	      "schema \"%s\" and %d rows", BENCH_SCHEMA, nr);
	check(samples_equal(json_object_get(json_array_get(res, 2), "samples"),
			    odd_s, ARRAY_SIZE(odd_s)),
	      "samples read back bit-exact (0.1, 1/3, 2.5e-7)");
	stats_compute(base_s, ARRAY_SIZE(base_s), &s);
	row = json_array_get(res, 0);
	check(json_real_value(json_object_get(row, "mean")) == s.mean &&
	      json_real_value(json_object_get(row, "stddev")) == s.stddev &&
	      json_is_null(json_object_get(row, "overhead_ns")) &&
	      json_is_null(json_object_get(row, "reason")),
	      "mean, stddev bit-exact; no overhead and no reason are null");
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

	/* the compare reads what was written: against itself, no change */
	ret = run_compare(path_a, path_a, 0);
	check(ret == 0 && !cmp_err[0], "the document compares with itself (%d): %s",
	      ret, cmp_err);
	check(row_says("base", "task_rename", "no significant change") &&
	      row_says("kprobe", "task_rename [progs=4]", "no significant change") &&
	      row_says("raw_tp", "task_rename", "no significant change"),
	      "every ok row, params shown: no significant change");
	check(out_has("not compared: fentry task_rename: A skipped "
		      "(no BTF: \"x\"\\x0a)") &&
	      out_has("not compared: kprobe urandom_read: A failed (q\"b\\s/ "
		      "\\x08\\x0c\\x0a\\x0d\\x09 \\x01\\x1f\\x7f "
		      "\xc2\xb5s \xe2\x9c\x93 \xf0\x9f\x98\x80)"),
	      "skipped and failed rows listed, reasons escaped");
	check(!out_has("only in") && !out_has("context differs") &&
	      !out_has("duplicate"), "nothing only in one, no context difference");
	if (nr_failed && cmp_out)
		printf("# %s", cmp_out);

	/* ... and a slower copy of one row is found */
	memcpy(b, report_rows, sizeof(b));
	b[1].samples = slow_s;
	write_doc(path_b, &ctx_host, b, nr);
	ret = run_compare(path_a, path_b, 5);
	check(ret == 1 && row_says("kprobe", "task_rename [progs=4]", "slower") &&
	      row_says("kprobe", "task_rename [progs=4]", "-8.33%") &&
	      row_says("base", "task_rename", "no significant change"),
	      "the row made 8.3%% slower is slower, and fails at 5%% (%d)", ret);
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
	test_report_round_trip();
	unlink(path_a);
	unlink(path_b);
	rmdir(tmpdir);
	free(cmp_out);
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
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--compare")) {
		ret = bench_compare(argv[2], argv[3],
				    argc == 5 ? atof(argv[4]) : -1);
		return ret < 0 ? 2 : ret;
	}

	test_summary();
	test_outliers();
	test_ns_overhead();
	test_t_distribution();
	test_t_quantile();
	test_welch();
	test_verdict_degenerate();
	test_cmdline();
	test_verify();
	test_compare();
	printf("# stats_test: %d failed\n", nr_failed);
	return nr_failed ? 1 : 0;
}
