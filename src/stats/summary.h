/*
 * Per-variant summary of one metric (STATS.md (a)): location, spread,
 * intervals, and the warnings that tell a user the runs are not the
 * independent, identically distributed sample every interval assumes.
 * Outliers are counted and flagged, never dropped: the summary describes the
 * data it was given.
 */
#ifndef PMU_STATS_SUMMARY_H
#define PMU_STATS_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

struct error;

#define STATS_LEVEL_DEFAULT	0.95
/* MAD -> sd of a normal: 1 / Phi^-1(3/4) (Hampel 1974). */
#define STATS_MAD_SCALE		1.4826
/*
 * Warn when max |x - median| / MAD_raw exceeds this, i.e. a run lies more
 * than 10 robust standard deviations (10 x 1.4826 MAD_raw) from the median.
 */
#define STATS_MODZ_WARN		14.826
/* Drift is flagged when Spearman's p < this and n >= STATS_DRIFT_MIN_N. */
#define STATS_DRIFT_ALPHA	0.05
/*
 * Below 8 runs the t approximation of Spearman's p is too optimistic (at
 * n = 5 a perfectly monotone sample gets p = 0; the exact p is 1/60), so no
 * drift flag is raised.
 */
#define STATS_DRIFT_MIN_N	8
/* The slow-first-run rule needs quartiles of at least 4 other runs. */
#define STATS_SLOW_FIRST_MIN_N	5

/*
 * A distribution-free interval for the median: order statistics
 * [x_(rank_lo), x_(rank_hi)], rank_hi = n + 1 - rank_lo, with the narrowest
 * symmetric ranks whose exact coverage 1 - 2 P(Bin(n, 1/2) <= rank_lo - 1)
 * is at least the level asked for (sign-test interval, e.g. Hollander &
 * Wolfe, Nonparametric Statistical Methods, 3.6). coverage is that exact
 * value, not the level. When even [min, max] falls short (n <= 5 at 95%),
 * lo, hi and coverage are NaN and the ranks 0.
 */
struct stats_median_ci {
	double lo, hi, coverage;
	size_t rank_lo, rank_hi;	/* 1-based */
};

/*
 * Invariants: n is the sample size and every other field is derived from the
 * same n values; a field undefined for this n is NaN (mean, median, min, max
 * need n >= 1; sd, cv, mean CI need n >= 2; drift needs n >= 3); counts and
 * flags are then 0/false. Intervals are at STATS_LEVEL_DEFAULT.
 */
struct stats_summary {
	size_t n;
	double mean, sd;		/* Welford; sd with n - 1 */
	double cv;			/* sd / |mean|, NaN if mean == 0 */
	double min, max;
	double median, q1, q3;		/* Hyndman-Fan type 7 */
	double mad_raw;			/* median |x - median| */
	double mad;			/* STATS_MAD_SCALE * mad_raw */
	double mean_ci_lo, mean_ci_hi;	/* Student t */
	struct stats_median_ci median_ci;
	/*
	 * Tukey fences on q1, q3: "mild" lie beyond 1.5 IQR but within 3 IQR,
	 * "extreme" beyond 3 IQR; the two counts do not overlap.
	 */
	size_t outliers_mild, outliers_extreme;
	/*
	 * max |x - median| / mad_raw: the modified z-score on the raw MAD (T1:
	 * 85.5 / 2.5 = 34.2). Iglewicz & Hoaglin's 0.6745 (x - median) / MAD_raw
	 * is this divided by 1.4826. When mad_raw == 0 it is +inf if any run
	 * differs from the median, else 0.
	 */
	double max_modified_z;
	bool outlier_warning;		/* max_modified_z > STATS_MODZ_WARN */
	/*
	 * The first run is slower than every other run and above the upper
	 * Tukey fence (q3 + 1.5 IQR) of the others: a cold cache, page cache
	 * or CPU frequency ramp that the warm-up did not absorb. Needs
	 * n >= STATS_SLOW_FIRST_MIN_N.
	 */
	bool slow_first_run;
	double drift_rho, drift_p;	/* Spearman, value vs run index */
	bool drift;			/* drift_p < STATS_DRIFT_ALPHA, n >= STATS_DRIFT_MIN_N */
};

/*
 * Summarize x[0..n) given in run order (order matters for slow_first_run and
 * drift). Returns 0; -1 with err set if a value is not finite or memory runs
 * out (out is then unspecified). n == 0 is not an error.
 */
int stats_summary_compute(const double *x, size_t n, struct stats_summary *out,
			  struct error *err);

/*
 * Student t interval of the mean at any level in (0, 1):
 * mean -+ t(1 - (1 - level)/2, n - 1) sd / sqrt(n). NaN bounds for n < 2.
 */
void stats_mean_ci(double mean, double sd, size_t n, double level,
		   double *lo, double *hi);

/* The median interval above, for an ascending sorted sample at any level. */
void stats_median_ci(const double *sorted, size_t n, double level,
		     struct stats_median_ci *out);

#endif
