/*
 * Per-variant summary: STATS.md T1 (scipy 1.10 / numpy 1.24 values), the
 * median interval's exact coverage for other n (mpmath, exact binomial
 * sums), the warnings (outliers, slow first run, drift) on data built to
 * trigger or not trigger them, and graceful n = 0, 1, 2.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "numcheck.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "stats/sample.h"
#include "stats/summary.h"

static const double t1[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18, 100 };

static void summarize(const double *x, size_t n, struct stats_summary *s)
{
	struct error err;

	error_clear(&err);
	assert_int_equal(stats_summary_compute(x, n, s, &err), 0);
}

static void test_t1_location_spread(void **state)
{
	struct stats_summary s;

	(void)state;
	summarize(t1, 10, &s);
	assert_int_equal(s.n, 10);
	near_rel(s.mean, 22.6, 1e-12, "mean");
	near_printed(s.sd, 27.317881811, 9, "sd");
	near_rel(s.sd, 27.317881811492388596, 1e-12, "sd full");
	near_rel(s.median, 14.5, 1e-12, "median");
	near_rel(s.q1, 12.25, 1e-12, "q1");
	near_rel(s.q3, 16.75, 1e-12, "q3");
	near_rel(s.mad_raw, 2.5, 1e-12, "mad_raw");
	near_rel(s.mad, 2.5 * 1.4826, 1e-12, "mad scaled");
	near_rel(s.cv, 27.317881811492388596 / 22.6, 1e-12, "cv");
	assert_true(s.min == 10 && s.max == 100);
}

static void test_t1_intervals(void **state)
{
	struct stats_summary s;
	double lo, hi;

	(void)state;
	summarize(t1, 10, &s);
	near_printed(s.mean_ci_lo, 3.05796459, 8, "mean ci lo");
	near_printed(s.mean_ci_hi, 42.14203541, 8, "mean ci hi");
	near_rel(s.mean_ci_lo, 3.0579645896585024804, 1e-12, "mean ci lo full");
	near_rel(s.mean_ci_hi, 42.14203541034149752, 1e-12, "mean ci hi full");
	assert_int_equal(s.median_ci.rank_lo, 2);
	assert_int_equal(s.median_ci.rank_hi, 9);
	assert_true(s.median_ci.lo == 11 && s.median_ci.hi == 18);
	near_rel(s.median_ci.coverage, 0.978515625, 1e-12, "coverage");
	/* any level: 90% from 22.6 -+ t(0.95, 9) sd / sqrt(10), t = 1.8331129326536335 */
	stats_mean_ci(s.mean, s.sd, s.n, 0.90, &lo, &hi);
	near_rel(hi - s.mean, 1.8331129326536335 * s.sd / sqrt(10), 1e-10, "90% half");
	near_rel(lo + hi, 2 * s.mean, 1e-14, "symmetric");
}

static void test_t1_warnings(void **state)
{
	struct stats_summary s;

	(void)state;
	summarize(t1, 10, &s);
	/* (100 - 14.5) / MAD_raw 2.5: the raw-MAD modified z, not 0.6745 x that */
	near_rel(s.max_modified_z, 34.2, 1e-12, "modified z");
	assert_true(s.outlier_warning);
	/* fences: 3 IQR above q3 is 30.25, so 100 is extreme and nothing is mild */
	assert_int_equal(s.outliers_extreme, 1);
	assert_int_equal(s.outliers_mild, 0);
	assert_false(s.slow_first_run);
	/* T1 is sorted ascending: rank correlation with run index is exactly 1 */
	near_rel(s.drift_rho, 1.0, 1e-15, "rho");
	assert_true(s.drift_p == 0.0);
	assert_true(s.drift);
}

static void test_mild_outlier_and_no_warning(void **state)
{
	/* q1 = 3.5, q3 = 7.5 (type 7), IQR 4: 14 is beyond 13.5 (1.5 IQR), below 19.5 */
	static const double x[] = { 5, 3, 7, 1, 9, 2, 8, 4, 6, 14, 5 };
	struct stats_summary s;

	(void)state;
	summarize(x, 11, &s);
	near_rel(s.q1, 3.5, 1e-12, "q1");
	near_rel(s.q3, 7.5, 1e-12, "q3");
	assert_int_equal(s.outliers_mild, 1);
	assert_int_equal(s.outliers_extreme, 0);
	/* median 5, |x - 5| sorted: 0 0 1 1 2 2 3 3 4 4 9 -> MAD_raw 2, z = 4.5 */
	near_rel(s.max_modified_z, 4.5, 1e-12, "modified z");
	assert_false(s.outlier_warning);
	assert_false(s.drift);
}

static void test_modified_z_zero_mad(void **state)
{
	static const double same[] = { 7, 7, 7, 7 };
	static const double one_off[] = { 7, 7, 7, 7, 8 };
	struct stats_summary s;

	(void)state;
	summarize(same, 4, &s);
	assert_true(s.max_modified_z == 0.0);
	assert_false(s.outlier_warning);
	assert_true(s.sd == 0.0);
	summarize(one_off, 5, &s);
	assert_true(isinf(s.max_modified_z));
	assert_true(s.outlier_warning);
}

static void test_slow_first_run(void **state)
{
	/* the others: q1 11, q3 12 -> upper fence 13.5, max 13 */
	static const double slow[] = { 30, 10, 11, 12, 13, 11, 12 };
	static const double fast[] = { 12.5, 10, 11, 12, 13, 11, 12 };
	static const double short_[] = { 30, 10, 11, 12 };
	struct stats_summary s;

	(void)state;
	summarize(slow, 7, &s);
	assert_true(s.slow_first_run);
	summarize(fast, 7, &s);
	assert_false(s.slow_first_run);
	summarize(short_, 4, &s);
	assert_false(s.slow_first_run);
}

static void test_drift(void **state)
{
	/* rising with noise: Spearman rho and its t p-value */
	static const double up[] = { 1.00, 1.02, 1.01, 1.03, 1.05, 1.04, 1.06, 1.08, 1.07, 1.09 };
	static const double flat[] = { 1.02, 1.00, 1.05, 1.01, 1.03, 1.00, 1.04, 1.02, 1.01, 1.03 };
	static const double short_up[] = { 1, 2, 3, 4, 5, 6, 7 };
	struct stats_summary s;

	(void)state;
	summarize(up, 10, &s);
	/* ranks 1 3 2 4 6 5 7 9 8 10: sum d^2 = 6, rho = 1 - 6*6/990 */
	near_rel(s.drift_rho, 1.0 - 36.0 / 990.0, 1e-13, "rho up");
	assert_true(s.drift_p < 1e-5);
	assert_true(s.drift);
	summarize(flat, 10, &s);
	assert_true(s.drift_p > 0.05);
	assert_false(s.drift);
	/* perfectly monotone but below STATS_DRIFT_MIN_N: computed, not flagged */
	summarize(short_up, 7, &s);
	assert_true(s.drift_rho == 1.0);
	assert_false(s.drift);
}

static void test_median_ci_coverage(void **state)
{
	static const struct { size_t n, lo; double cov; } ref[] = {
		{ 6, 1, 0.96875 },
		{ 20, 6, 0.95861053466796875 },
		{ 100, 40, 0.96479979978229518405 },
		{ 1000, 469, 0.95370880263950184757 },
	};
	static double x[1000];
	struct stats_median_ci ci;
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		x[i] = (double)i + 1.0;
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		stats_median_ci(x, ref[i].n, 0.95, &ci);
		assert_int_equal(ci.rank_lo, ref[i].lo);
		assert_int_equal(ci.rank_hi, ref[i].n + 1 - ref[i].lo);
		assert_true(ci.lo == (double)ref[i].lo);
		near_rel(ci.coverage, ref[i].cov, 1e-12, "coverage");
	}
	/* n = 5: even [min, max] covers only 1 - 2/32 = 0.9375 < 0.95 */
	stats_median_ci(x, 5, 0.95, &ci);
	assert_true(isnan(ci.lo) && isnan(ci.hi) && isnan(ci.coverage));
	assert_int_equal(ci.rank_lo, 0);
	stats_median_ci(x, 5, 0.90, &ci);
	assert_int_equal(ci.rank_lo, 1);
	near_rel(ci.coverage, 0.9375, 1e-14, "n=5 at 90%");
}

static void test_small_n(void **state)
{
	static const double one[] = { 4.0 };
	static const double two[] = { 4.0, 6.0 };
	struct stats_summary s;

	(void)state;
	summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean) && isnan(s.median) && isnan(s.sd) && isnan(s.min));
	assert_true(isnan(s.median_ci.lo) && isnan(s.drift_rho));
	assert_false(s.outlier_warning || s.slow_first_run || s.drift);

	summarize(one, 1, &s);
	assert_true(s.mean == 4.0 && s.median == 4.0 && s.q1 == 4.0 && s.mad_raw == 0.0);
	assert_true(isnan(s.sd) && isnan(s.cv) && isnan(s.mean_ci_lo));
	assert_true(isnan(s.median_ci.lo) && isnan(s.drift_p));

	summarize(two, 2, &s);
	near_rel(s.mean, 5.0, 1e-15, "mean");
	near_rel(s.sd, sqrt(2.0), 1e-15, "sd");
	/* 5 -+ 12.706204736174707 * sqrt(2)/sqrt(2) */
	near_rel(s.mean_ci_hi, 5.0 + 12.706204736174707, 1e-12, "ci n=2");
	near_rel(s.q1, 4.5, 1e-15, "q1 n=2");
	assert_true(isnan(s.drift_rho));
	assert_int_equal(s.outliers_mild + s.outliers_extreme, 0);
}

static void test_rejects_non_finite(void **state)
{
	static const double x[] = { 1.0, NAN, 3.0 };
	struct stats_summary s;
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(stats_summary_compute(x, 3, &s, &err), -1);
	assert_non_null(strstr(err.msg, "run 1"));
}

static void test_welford_large_offset(void **state)
{
	/* counter-sized values with a tiny spread: naive sum-of-squares loses it */
	double x[5];
	double mean, sd;
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		x[i] = 1e12 + (double)i;
	stats_mean_sd(x, 5, &mean, &sd);
	near_rel(mean, 1e12 + 2, 1e-15, "mean");
	near_rel(sd, sqrt(2.5), 1e-9, "sd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t1_location_spread),
		cmocka_unit_test(test_t1_intervals),
		cmocka_unit_test(test_t1_warnings),
		cmocka_unit_test(test_mild_outlier_and_no_warning),
		cmocka_unit_test(test_modified_z_zero_mad),
		cmocka_unit_test(test_slow_first_run),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_median_ci_coverage),
		cmocka_unit_test(test_small_n),
		cmocka_unit_test(test_rejects_non_finite),
		cmocka_unit_test(test_welford_large_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
