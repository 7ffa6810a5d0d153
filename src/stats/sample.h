/*
 * Elementary sample computations shared by the summaries, the tests and the
 * comparisons: Welford moments, sorting, type-7 quantiles, median, and
 * mid-ranks with the tie term the rank tests' variances need. Kept in one
 * place so every module computes a mean or a rank the same way.
 */
#ifndef PMU_STATS_SAMPLE_H
#define PMU_STATS_SAMPLE_H

#include <stddef.h>

struct error;

/*
 * Mean and sample standard deviation (n - 1 denominator) by Welford's
 * one-pass update (Welford 1962; Knuth TAOCP vol. 2, 4.2.2), which does not
 * lose digits when the spread is tiny next to the mean, as with counters.
 * mean is NaN for n == 0; sd is NaN for n < 2. Either pointer may be NULL.
 */
void stats_mean_sd(const double *x, size_t n, double *mean, double *sd);

/* Sort x[0..n) ascending in place. Values must not be NaN. */
void stats_sort(double *x, size_t n);

/*
 * Quantile of an ascending sorted sample by Hyndman & Fan's type 7 (the
 * default of R, numpy and scipy): h = (n - 1) p, linear interpolation between
 * the order statistics around h. p in [0, 1]; NaN for n == 0.
 */
double stats_quantile_sorted(const double *sorted, size_t n, double p);

/* Median of a sorted sample (type 7 at p = 1/2); NaN for n == 0. */
double stats_median_sorted(const double *sorted, size_t n);

/*
 * Mid-ranks: ranks[i] is the 1-based rank of x[i] in x, tied values sharing
 * the mean of the ranks they span. If tie_term is not NULL it receives
 * sum(t^3 - t) over groups of t tied values (0 when there are no ties).
 * Returns 0, or -1 with err set when memory runs out.
 */
int stats_ranks(const double *x, size_t n, double *ranks, double *tie_term,
		struct error *err);

#endif
