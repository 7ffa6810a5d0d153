/*
 * The paired difference of two measurements per block (STATS.md (b) works
 * on log ratios; a function's time can be zero in a run, so attribution
 * works on differences in the metric's own unit instead): the mean
 * difference with its t interval and the two-sided paired t-test p.
 */
#ifndef PMU_STATS_DIFF_H
#define PMU_STATS_DIFF_H

#include <stddef.h>

struct stats_diff {
	size_t n;
	double mean, lo, hi;	/* mean of b - a, and its interval at level */
	double p;		/* two-sided paired t-test of mean 0; NaN for n < 2 */
};

/* b[i] - a[i] over n pairs. 0, or -1 (out NaN-filled) for n < 2. */
int stats_paired_diff(const double *a, const double *b, size_t n, double level,
		      struct stats_diff *out);

#endif
