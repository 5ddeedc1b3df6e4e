// SPDX-License-Identifier: GPL-2.0
/* Statistics over repeated samples; see stats/stats.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/stats.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* @sorted holds n >= 1 values in ascending order */
static double sorted_median(const double *sorted, int n)
{
	if (n % 2)
		return sorted[n / 2];
	return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* median and MAD, both NAN without memory: outliers are only advisory */
static void median_mad(const double *x, int n, double *median, double *mad)
{
	double *tmp;
	int i;

	*median = NAN;
	*mad = NAN;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return;
	memcpy(tmp, x, n * sizeof(*tmp));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	*median = sorted_median(tmp, n);
	for (i = 0; i < n; i++)
		tmp[i] = fabs(x[i] - *median);
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	*mad = sorted_median(tmp, n);
	free(tmp);
}

double row_median(const double *x, int n)
{
	double median = NAN, mad;

	if (n > 0)
		median_mad(x, n, &median, &mad);
	return median;
}

void stats_compute(const double *x, int n, struct sample_stats *s)
{
	double sum = 0, sq = 0;
	int i;

	s->n = n > 0 ? n : 0;
	s->mean = s->stddev = s->min = s->max = NAN;
	s->cv = s->median = s->mad = NAN;
	if (n < 1)
		return;

	s->min = s->max = x[0];
	for (i = 0; i < n; i++) {
		sum += x[i];
		s->min = fmin(s->min, x[i]);
		s->max = fmax(s->max, x[i]);
	}
	s->mean = sum / n;
	/* two passes: sum(x^2) - n*mean^2 cancels badly at 1e6 +- 1e3 */
	for (i = 0; i < n; i++)
		sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
	median_mad(x, n, &s->median, &s->mad);
}

int stats_outliers(const double *x, int n, bool *is_outlier)
{
	double median, mad;
	int i, nr = 0;

	for (i = 0; i < n; i++)
		is_outlier[i] = false;
	if (n < 1)
		return 0;
	median_mad(x, n, &median, &mad);
	/* MAD == 0: more than half the samples are equal, no scale to use */
	if (!(mad > 0))
		return 0;
	for (i = 0; i < n; i++) {
		/* 0.6745 makes MAD estimate sigma for normal data */
		double z = 0.6745 * (x[i] - median) / mad;

		if (fabs(z) > OUTLIER_Z) {
			is_outlier[i] = true;
			nr++;
		}
	}
	return nr;
}

/* units share nothing: the mean's interval is Student's t over them */
void stats_overhead(const double *unit, int n, double base_ns,
		    struct overhead *o)
{
	struct sample_stats st;

	stats_compute(unit, n, &st);
	o->n = st.n;
	o->value = st.mean;
	o->ci95 = stats_ci_half(&st, 0.05);
	o->pct = base_ns != 0 ? 100 * o->value / base_ns : NAN;
}

void stats_shares(const double *unit, const double *base_ns, int n,
		  double *share)
{
	int i;

	for (i = 0; i < n; i++)
		share[i] = base_ns[i] > 0 ? 100 * unit[i] / base_ns[i] : NAN;
}

int stats_cluster_means(const double *x, const int *cluster, int n,
			double *mean)
{
	int i, j, k, nr = 0, first;
	double sum;

	for (i = 0; i < n; i++) {
		/* a cluster is taken where it first comes */
		for (first = 0; first < i && cluster[first] != cluster[i];
		     first++)
			;
		if (first < i)
			continue;
		sum = 0;
		for (j = i, k = 0; j < n; j++)
			if (cluster[j] == cluster[i]) {
				sum += x[j];
				k++;
			}
		mean[nr++] = sum / k;
	}
	return nr;
}

int stats_line_fit(const double *x, const double *y, const double *sd, int n,
		   struct line_fit *fit)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, var_p = 0, ssr = 0, var;
	int i;

	fit->n = n;
	fit->slope = fit->slope_unc = fit->intercept = NAN;
	for (i = 0; i < n; i++) {
		mx += x[i] / n;
		my += y[i] / n;
	}
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (n < 2 || !(sxx > 0))
		return -EINVAL;
	fit->slope = sxy / sxx;
	fit->intercept = my - fit->slope * mx;
	/* slope = sum (x - mx) y / sxx: each y's spread weighs by its x */
	for (i = 0; i < n; i++) {
		double w = (x[i] - mx) / sxx;
		double r = y[i] - fit->intercept - fit->slope * x[i];

		var_p += w * w * sd[i] * sd[i];
		ssr += r * r;
	}
	var = n > 2 ? ssr / (n - 2) / sxx : 0;
	fit->slope_unc = sqrt(var > var_p ? var : var_p);
	return 0;
}

/* ---- Student's t distribution ---- */

#define BETACF_MAX_ITER	1000
#define BETACF_EPS	1e-15
#define BETACF_TINY	1e-300

static double not_tiny(double v)
{
	return fabs(v) < BETACF_TINY ? BETACF_TINY : v;
}

/*
 * I_x(a, b)'s continued fraction by the modified Lentz method (Numerical
 * Recipes 6.4): fast for x < (a + 1) / (a + b + 2), the symmetry beyond
 */
static double betacf(double x, double a, double b)
{
	double c = 1, d, h, del, aa;
	int m;

	d = 1 / not_tiny(1 - (a + b) * x / (a + 1));
	h = d;
	for (m = 1; m <= BETACF_MAX_ITER; m++) {
		/* even step d_2m */
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 / not_tiny(1 + aa * d);
		c = not_tiny(1 + aa / c);
		h *= d * c;
		/* odd step d_2m+1 */
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 / not_tiny(1 + aa * d);
		c = not_tiny(1 + aa / c);
		del = d * c;
		h *= del;
		if (fabs(del - 1) < BETACF_EPS)
			break;
	}
	return h;
}

double incbeta(double x, double a, double b)
{
	double front;

	if (!(x >= 0 && x <= 1) || !(a > 0) || !(b > 0))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / (a B(a, b)), in logs so large a and b do not overflow */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(x, a, b) / a;
	return 1 - front * betacf(1 - x, b, a) / b;
}

/* past this Student's t is normal to 1e-6, and betacf() slow */
#define T_NORMAL_DF	1e6

double student_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	if (df > T_NORMAL_DF)
		return erfc(fabs(t) / sqrt(2));
	/* P(|T| > t) = I_(df / (df + t^2))(df / 2, 1 / 2) */
	return incbeta(df / (df + t * t), df / 2, 0.5);
}

/* ---- Welch's t-test ---- */

int welch_test(const struct sample_stats *a, const struct sample_stats *b,
	       struct welch *w)
{
	double va, vb, se2, diff;

	w->t = 0;
	w->df = NAN;
	w->p = 1;
	w->decidable = false;
	if (a->n < 2 || b->n < 2)
		return -EINVAL;

	w->decidable = true;
	va = a->stddev * a->stddev / a->n;
	vb = b->stddev * b->stddev / b->n;
	se2 = va + vb;
	diff = b->mean - a->mean;
	if (se2 == 0) {
		/* no spread on either side: any difference is a real one */
		w->df = a->n + b->n - 2;
		w->t = diff == 0 ? 0 : copysign(INFINITY, diff);
		w->p = diff == 0 ? 1 : 0;
		return 0;
	}
	w->t = diff / sqrt(se2);
	w->df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	w->p = student_t_p2(w->t, w->df);
	return 0;
}

enum verdict stats_verdict(const struct sample_stats *a,
			   const struct sample_stats *b, double alpha,
			   bool higher_is_faster, struct welch *w)
{
	struct welch tmp;
	bool higher;

	if (!w)
		w = &tmp;
	if (welch_test(a, b, w))
		return V_NO_CHANGE;
	/* NAN p (NAN input) fails the comparison: no verdict from noise */
	if (!(w->p < alpha))
		return V_NO_CHANGE;
	higher = b->mean > a->mean;
	return higher == higher_is_faster ? V_FASTER : V_SLOWER;
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case V_FASTER:
		return "faster";
	case V_SLOWER:
		return "slower";
	default:
		return "no significant change";
	}
}

double student_t_quantile(double p2, double df)
{
	double lo = 0, hi = 1e6, mid;
	int i;

	if (!(p2 > 0 && p2 < 1) || !(df > 0))
		return NAN;
	/* p2 falls as t grows: bisect to well below any figure's precision */
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (student_t_p2(mid, df) > p2)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_ci_half(const struct sample_stats *s, double alpha)
{
	if (s->n < 2)
		return NAN;
	return student_t_quantile(alpha, s->n - 1) * s->stddev / sqrt(s->n);
}
