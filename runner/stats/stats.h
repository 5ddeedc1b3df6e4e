/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_STATS_H
#define __RUNNER_STATS_H

#include <stdbool.h>

/* Statistics over repeated samples: pure functions, no I/O, no global state */

/* above this coefficient of variation a figure is called noisy */
#define NOISY_CV		0.05
/* |modified z-score| above this flags an outlier (Iglewicz & Hoaglin) */
#define OUTLIER_Z		3.5
/* a median absolute deviation of fewer samples says little */
#define MIN_OUTLIER_SAMPLES	5
/* foreign hits above this share of all hits make a row noisy */
#define FOREIGN_NOISY		0.01

struct sample_stats {
	int n;
	double mean;
	double stddev;		/* sample stddev (n - 1); 0 when n == 1 */
	double min, max;
	double cv;		/* stddev / mean; NAN when mean == 0 */
	double median;
	double mad;		/* median absolute deviation from the median */
};

/* n < 1 gives n = 0 and every figure NAN */
void stats_compute(const double *x, int n, struct sample_stats *s);
/* the median of @n times (attach, detach, settle), NAN without any */
double row_median(const double *x, int n);

static inline bool stats_noisy(const struct sample_stats *s)
{
	return s->n > 1 && !(s->cv <= NOISY_CV);
}

/* flags (never drops) samples of |modified z-score| > OUTLIER_Z: how many */
int stats_outliers(const double *x, int n, bool *is_outlier);

struct overhead {
	int n;			/* units */
	double value;		/* their mean: ns per event above base */
	double ci95;		/* half its 95% interval; NAN below 2 units */
	double pct;		/* 100 * value / base's ns per event */
};

/* the overhead of @n units (a row's ns per event less its base's) */
void stats_overhead(const double *unit, int n, double base_ns,
		    struct overhead *o);

/*
 * Each unit's overhead as a % of its own base (NAN for a base <= 0): the
 * host's slowdown moves a unit's row and base alike, the share less
 */
void stats_shares(const double *unit, const double *base_ns, int n,
		  double *share);

/*
 * The mean of each cluster of @x (x[i] in cluster[i]), in the order they
 * first come, into @mean: how many. Units close in time share the state
 * of the machine: the independent observations are their clusters' means.
 */
int stats_cluster_means(const double *x, const int *cluster, int n,
			double *mean);

/* y = intercept + slope * x */
struct line_fit {
	int n;			/* points */
	double slope;
	double slope_unc;	/* the slope's standard uncertainty */
	double intercept;
};

/*
 * Least squares over (x[i], y[i] +- sd[i]); the slope's uncertainty from
 * the spreads or, from three points, the scatter, whichever is larger.
 * -EINVAL with fewer than two different x.
 */
int stats_line_fit(const double *x, const double *y, const double *sd, int n,
		   struct line_fit *fit);

enum verdict { V_NO_CHANGE, V_FASTER, V_SLOWER };

struct welch {
	double t;		/* (mean_b - mean_a) / standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided */
	bool decidable;		/* false: fewer than 2 samples on a side */
};

/* Welch's t-test of B against A; -EINVAL, p = 1, with a side below 2 */
int welch_test(const struct sample_stats *a, const struct sample_stats *b,
	       struct welch *w);

/* B against A at 1 - alpha confidence; @higher_is_faster for rates */
enum verdict stats_verdict(const struct sample_stats *a,
			   const struct sample_stats *b, double alpha,
			   bool higher_is_faster, struct welch *w);
/* "faster", "slower", "no significant change" */
const char *verdict_name(enum verdict v);

/* two-sided p-value of Student's t with @df degrees of freedom */
double student_t_p2(double t, double df);
/* the t for which student_t_p2(t, df) == p2: 4.303 for 0.05 and 2 */
double student_t_quantile(double p2, double df);
/* half the mean's 1 - alpha confidence interval: NAN below two samples */
double stats_ci_half(const struct sample_stats *s, double alpha);
/* the regularized incomplete beta function I_x(a, b) */
double incbeta(double x, double a, double b);

#endif /* __RUNNER_STATS_H */
