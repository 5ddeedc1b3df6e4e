/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_STATS_H
#define __RUNNER_STATS_H

#include <stdbool.h>

/*
 * Statistics over repeated samples: summary figures, outliers, cost per
 * event, overhead with its uncertainty, and Welch's t-test for A/B
 * verdicts. Pure functions: no I/O, no global state.
 */

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

/*
 * Flags (never drops) samples whose modified z-score
 * 0.6745 * (x - median) / MAD exceeds OUTLIER_Z in absolute value; with
 * MAD == 0 nothing is flagged. Returns how many were flagged.
 */
int stats_outliers(const double *x, int n, bool *is_outlier);

/*
 * ns[i] = 1e9 / rate[i]. Statistics of a cost must be taken over the
 * costs, not derived from the mean rate: 1 / mean(rate) != mean(1 / rate).
 * -EINVAL (ns[i] NAN) when a rate is not a positive finite number.
 */
int stats_ns_per_event(const double *rate, int n, double *ns);

struct overhead {
	int n;			/* units */
	double value;		/* their mean: ns per event above base */
	double ci95;		/* half its 95% interval; NAN below 2 units */
	double pct;		/* 100 * value / base's ns per event */
};

/*
 * The overhead of @n units, each the row's ns per event less its base's
 * in the same unit, against the base's @base_ns for its percentage
 */
void stats_overhead(const double *unit, int n, double base_ns,
		    struct overhead *o);

/*
 * Each unit's overhead as a share of its own base, in %: share[i] =
 * 100 * unit[i] / base_ns[i], the base samples of the same unit. The
 * host slows kernel work by a factor that moves a unit's row and base
 * alike, so the share moves less than the overhead; it is averaged as
 * the overhead is (a round's units one observation), not taken from the
 * means. A base of 0 or less gives NAN.
 */
void stats_shares(const double *unit, const double *base_ns, int n,
		  double *share);

/*
 * The mean of each cluster of @x (x[i] is in cluster[i]), in the order
 * each cluster first comes, into @mean (room for @n): how many. Units
 * that ran close in time share the machine's state there, so the
 * independent observations are their clusters' means.
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
 * Least squares over @n points (x[i], y[i]), each y known to +-sd[i]
 * (the spread of its samples, as the overhead's uncertainty). The slope's
 * uncertainty is what the points' spreads give it, or, from three points
 * on, what the scatter about the line gives, whichever is larger.
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

/*
 * Welch's t-test of B against A. -EINVAL (decidable false, p = 1) when a
 * side has fewer than 2 samples: one sample has no spread to test with.
 */
int welch_test(const struct sample_stats *a, const struct sample_stats *b,
	       struct welch *w);

/*
 * B against A at 1 - alpha confidence, never from the delta alone.
 * @higher_is_faster: true for rates, false for costs. @w may be NULL.
 */
enum verdict stats_verdict(const struct sample_stats *a,
			   const struct sample_stats *b, double alpha,
			   bool higher_is_faster, struct welch *w);
/* "faster", "slower", "no significant change" */
const char *verdict_name(enum verdict v);

/* two-sided p-value of Student's t with @df degrees of freedom */
double student_t_p2(double t, double df);
/* the t for which student_t_p2(t, df) == p2: 4.303 for 0.05 and 2 */
double student_t_quantile(double p2, double df);
/*
 * Half the width of the mean's 1 - alpha confidence interval: NAN with
 * fewer than two samples.
 */
double stats_ci_half(const struct sample_stats *s, double alpha);
/* the regularized incomplete beta function I_x(a, b) */
double incbeta(double x, double a, double b);

#endif /* __RUNNER_STATS_H */
