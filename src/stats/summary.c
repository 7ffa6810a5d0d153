/*
 * One metric, one variant: the numbers a user reads first and the warnings
 * that say when not to trust them. Works on a sorted copy for the order
 * statistics and keeps the caller's run order for the first-run and drift
 * checks, since those are about time, not about the distribution.
 */
#include "stats/summary.h"

#include "core/error.h"
#include "stats/dist.h"
#include "stats/sample.h"
#include "stats/tests.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Coverage of [x_(l), x_(n+1-l)] for the median: 1 - 2 P(Bin(n, 1/2) <= l - 1). */
static double median_coverage(size_t n, size_t l)
{
	return 1.0 - 2.0 * stats_binom_half_cdf((long)n, (long)l - 1);
}

void stats_median_ci(const double *sorted, size_t n, double level,
		     struct stats_median_ci *out)
{
	/* coverages are dyadic rationals; the slack only absorbs rounding */
	double need = level - 1e-12;
	size_t l, top = (n + 1) / 2;
	double z = stats_normal_quantile(1.0 - 0.5 * (1.0 - level));
	double guess = 0.5 * ((double)n - z * sqrt((double)n));

	out->lo = out->hi = out->coverage = NAN;
	out->rank_lo = out->rank_hi = 0;
	if (n == 0 || !(level > 0.0 && level < 1.0))
		return;
	/* start near the normal-approximation rank, then walk to the exact one */
	l = guess < 1.0 ? 1 : (size_t)guess;
	if (l > top)
		l = top;
	while (l > 1 && median_coverage(n, l) < need)
		l--;
	while (l < top && median_coverage(n, l + 1) >= need)
		l++;
	if (median_coverage(n, l) < need)
		return;
	out->rank_lo = l;
	out->rank_hi = n + 1 - l;
	out->lo = sorted[l - 1];
	out->hi = sorted[n - l];
	out->coverage = median_coverage(n, l);
}

void stats_mean_ci(double mean, double sd, size_t n, double level,
		   double *lo, double *hi)
{
	double half;

	*lo = *hi = NAN;
	if (n < 2 || !(level > 0.0 && level < 1.0))
		return;
	half = stats_t_quantile(1.0 - 0.5 * (1.0 - level), (double)(n - 1)) *
	       sd / sqrt((double)n);
	*lo = mean - half;
	*hi = mean + half;
}

/* Raw MAD from a sorted sample, using scratch[0..n). */
static double mad_raw(const double *sorted, size_t n, double median, double *scratch)
{
	size_t i;

	for (i = 0; i < n; i++)
		scratch[i] = fabs(sorted[i] - median);
	stats_sort(scratch, n);
	return stats_median_sorted(scratch, n);
}

static void count_outliers(const double *x, size_t n, struct stats_summary *s)
{
	double iqr = s->q3 - s->q1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (x[i] < s->q1 - 3.0 * iqr || x[i] > s->q3 + 3.0 * iqr)
			s->outliers_extreme++;
		else if (x[i] < s->q1 - 1.5 * iqr || x[i] > s->q3 + 1.5 * iqr)
			s->outliers_mild++;
	}
}

static double max_modified_z(const double *sorted, size_t n, double median, double mad)
{
	double far = fmax(median - sorted[0], sorted[n - 1] - median);

	if (mad > 0.0)
		return far / mad;
	return far > 0.0 ? INFINITY : 0.0;
}

/* See slow_first_run in summary.h; scratch holds n - 1 doubles. */
static bool slow_first(const double *x, size_t n, double *scratch)
{
	double q1, q3;
	size_t m = n - 1;

	if (n < STATS_SLOW_FIRST_MIN_N)
		return false;
	memcpy(scratch, x + 1, m * sizeof(double));
	stats_sort(scratch, m);
	q1 = stats_quantile_sorted(scratch, m, 0.25);
	q3 = stats_quantile_sorted(scratch, m, 0.75);
	return x[0] > scratch[m - 1] && x[0] > q3 + 1.5 * (q3 - q1);
}

static int drift(const double *x, size_t n, struct stats_summary *s,
		 double *scratch, struct error *err)
{
	struct stats_corr c;
	size_t i;

	for (i = 0; i < n; i++)
		scratch[i] = (double)i;
	if (stats_spearman(x, scratch, n, &c, err) < 0)
		return -1;
	s->drift_rho = c.rho;
	s->drift_p = c.p;
	s->drift = n >= STATS_DRIFT_MIN_N && c.p < STATS_DRIFT_ALPHA;
	return 0;
}

static void summary_reset(struct stats_summary *s, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->mean = s->sd = s->cv = s->min = s->max = NAN;
	s->median = s->q1 = s->q3 = s->mad_raw = s->mad = NAN;
	s->mean_ci_lo = s->mean_ci_hi = NAN;
	s->median_ci.lo = s->median_ci.hi = s->median_ci.coverage = NAN;
	s->max_modified_z = s->drift_rho = s->drift_p = NAN;
}

static int check_finite(const double *x, size_t n, struct error *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error_set(err, ERR_RUNTIME,
					 "cannot summarize: run %zu has a non-finite value", i);
	return 0;
}

/* Everything that needs only the sorted sample. */
static void order_fields(const double *sorted, size_t n, double *scratch,
			 struct stats_summary *s)
{
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = stats_median_sorted(sorted, n);
	s->q1 = stats_quantile_sorted(sorted, n, 0.25);
	s->q3 = stats_quantile_sorted(sorted, n, 0.75);
	s->mad_raw = mad_raw(sorted, n, s->median, scratch);
	s->mad = STATS_MAD_SCALE * s->mad_raw;
	s->max_modified_z = max_modified_z(sorted, n, s->median, s->mad_raw);
	s->outlier_warning = s->max_modified_z > STATS_MODZ_WARN;
	stats_median_ci(sorted, n, STATS_LEVEL_DEFAULT, &s->median_ci);
}

int stats_summary_compute(const double *x, size_t n, struct stats_summary *out,
			  struct error *err)
{
	double *sorted;
	int rc;

	summary_reset(out, n);
	if (n == 0)
		return 0;
	if (check_finite(x, n, err) < 0)
		return -1;
	sorted = malloc(2 * n * sizeof(double));
	if (!sorted)
		return error_set(err, ERR_RUNTIME, "out of memory summarizing %zu runs", n);
	memcpy(sorted, x, n * sizeof(double));
	stats_sort(sorted, n);
	stats_mean_sd(x, n, &out->mean, &out->sd);
	out->cv = out->mean != 0.0 ? out->sd / fabs(out->mean) : NAN;
	stats_mean_ci(out->mean, out->sd, n, STATS_LEVEL_DEFAULT,
		      &out->mean_ci_lo, &out->mean_ci_hi);
	order_fields(sorted, n, sorted + n, out);
	count_outliers(x, n, out);
	out->slow_first_run = slow_first(x, n, sorted + n);
	rc = drift(x, n, out, sorted + n, err);
	free(sorted);
	return rc;
}
