/*
 * Moments, sorting and ranking. qsort is enough: samples are runs or blocks,
 * at most thousands, and a plain sort keeps the code obviously correct.
 * Ranking sorts (value, index) pairs so the original order can be written
 * back without a comparator that needs context.
 */
#include "stats/sample.h"

#include "core/error.h"
#include "core/sort.h"

#include <math.h>
#include <stdlib.h>

struct ranked {
	double value;
	size_t index;
};

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->value != b->value)
		return (a->value > b->value) - (a->value < b->value);
	return (a->index > b->index) - (a->index < b->index);
}

void stats_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double m = 0.0, m2 = 0.0, delta;
	size_t i;

	for (i = 0; i < n; i++) {
		delta = x[i] - m;
		m += delta / (double)(i + 1);
		m2 += delta * (x[i] - m);
	}
	if (mean)
		*mean = n ? m : NAN;
	if (sd)
		*sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : NAN;
}

void stats_sort(double *x, size_t n)
{
	if (n > 1)
		sort_n(x, n, sizeof(*x), cmp_double);
}

double stats_quantile_sorted(const double *sorted, size_t n, double p)
{
	double h, frac;
	size_t lo;

	if (n == 0 || !(p >= 0.0 && p <= 1.0))
		return NAN;
	h = (double)(n - 1) * p;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double stats_median_sorted(const double *sorted, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2)
		return sorted[n / 2];
	return 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

/* Give the tied run r[i..j) the mean of ranks i+1..j; return its t^3 - t. */
static double assign_tied(const struct ranked *r, size_t i, size_t j, double *ranks)
{
	double mid = 0.5 * ((double)i + 1.0 + (double)j);
	double t = (double)(j - i);
	size_t k;

	for (k = i; k < j; k++)
		ranks[r[k].index] = mid;
	return t * t * t - t;
}

int stats_ranks(const double *x, size_t n, double *ranks, double *tie_term,
		struct error *err)
{
	struct ranked *r;
	double ties = 0.0;
	size_t i, j;

	if (tie_term)
		*tie_term = 0.0;
	if (n == 0)
		return 0;
	r = malloc(n * sizeof(*r));
	if (!r)
		return error_set(err, ERR_RUNTIME, "out of memory ranking %zu values", n);
	for (i = 0; i < n; i++) {
		r[i].value = x[i];
		r[i].index = i;
	}
	sort_n(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && r[j].value == r[i].value; j++)
			;
		ties += assign_tied(r, i, j, ranks);
	}
	free(r);
	if (tie_term)
		*tie_term = ties;
	return 0;
}
