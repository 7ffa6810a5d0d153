/*
 * Counter arithmetic: STATS.md T7 (scaling, cross-group ratio; scipy 1.10),
 * the same-run ratio estimator against Cochran's formula evaluated with
 * 40-digit mpmath on the same data, and the degenerate cases (never
 * scheduled, zero denominators, too few runs).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "numcheck.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "stats/counter.h"

static const double ins[] = { 1000e6, 1010e6, 990e6, 1005e6, 995e6 };
static const double cyc[] = { 800e6, 820e6, 790e6, 810e6, 780e6 };

static void test_scale_t7(void **state)
{
	double v;

	(void)state;
	assert_int_equal(stats_counter_scale(1000, 400, 100, &v), STATS_COUNT_MULTIPLEXED);
	assert_true(v == 4000.0);
	assert_int_equal(stats_counter_scale(1000, 400, 0, &v), STATS_COUNT_MISSING);
	assert_true(isnan(v));
	assert_int_equal(stats_counter_scale(1000, 400, 400, &v), STATS_COUNT_EXACT);
	assert_true(v == 1000.0);
	/* running a hair over enabled (clock granularity) is still exact, unscaled */
	assert_int_equal(stats_counter_scale(1000, 400, 401, &v), STATS_COUNT_EXACT);
	assert_true(v == 1000.0);
	assert_int_equal(stats_counter_scale(0, 0, 0, &v), STATS_COUNT_MISSING);
	/* value * enabled would overflow 64 bits; the scaled double must not */
	assert_int_equal(stats_counter_scale(UINT64_C(1) << 62, UINT64_C(1) << 40,
					     UINT64_C(1) << 39, &v), STATS_COUNT_MULTIPLEXED);
	assert_true(v == ldexp(1.0, 63));
}

static void test_cross_group_t7(void **state)
{
	struct stats_ratio r;
	struct error err;

	(void)state;
	assert_int_equal(stats_ratio_cross(ins, 5, cyc, 5, 0.95, &r, &err), 0);
	near_rel(r.r, 1.25, 1e-14, "R");
	near_printed(r.se, 0.011899645, 9, "se");
	near_printed(r.df, 5.248050, 6, "df");
	/*
	 * STATS.md's bounds round the exact 1.21984077651 / 1.28015922349 one
	 * unit off in the 9th decimal: scipy's t.ppf at non-integer df is an
	 * iterative cdflib root good to about 1e-8 relative.
	 */
	near_rel(r.ci_lo, 1.219840776, 1e-8, "ci lo");
	near_rel(r.ci_hi, 1.280159224, 1e-8, "ci hi");
	near_rel(r.se, 0.011899645477912356696, 1e-12, "se full");
	near_rel(r.df, 5.2480499219968798752, 1e-12, "df full");
	near_rel(r.ci_lo, 1.2198407765059998915, 1e-12, "ci lo full");
	near_rel(r.ci_hi, 1.2801592234940001085, 1e-12, "ci hi full");
}

static void test_same_run_ratio(void **state)
{
	struct stats_ratio r;
	struct error err;

	(void)state;
	assert_int_equal(stats_ratio_same(ins, cyc, 5, 0.95, &r, &err), 0);
	near_rel(r.r, 1.25, 1e-14, "R");
	near_rel(r.df, 4.0, 0, "df");
	near_rel(r.se, 0.007328774624724108679, 1e-12, "se");
	near_rel(r.ci_lo, 1.2296520595660869462, 1e-12, "ci lo");
	near_rel(r.ci_hi, 1.2703479404339130538, 1e-12, "ci hi");
	/* pairing helps: same data, tighter than the cross-group se */
	assert_true(r.se < 0.011899645);
}

static void test_same_run_exact_proportion(void **state)
{
	static const double y[] = { 2, 4, 6 }, x[] = { 1, 2, 3 };
	struct stats_ratio r;
	struct error err;

	(void)state;
	assert_int_equal(stats_ratio_same(y, x, 3, 0.95, &r, &err), 0);
	assert_true(r.r == 2.0 && r.se == 0.0);
	assert_true(r.ci_lo == 2.0 && r.ci_hi == 2.0);
}

static void test_ratio_degenerate(void **state)
{
	static const double y[] = { 5, 6 }, zero[] = { 0, 0 }, one[] = { 3 };
	struct stats_ratio r;
	struct error err;

	(void)state;
	assert_int_equal(stats_ratio_cross(y, 2, zero, 2, 0.95, &r, &err), 0);
	assert_true(isnan(r.r) && isnan(r.se) && isnan(r.ci_lo));
	assert_int_equal(stats_ratio_cross(y, 2, one, 1, 0.95, &r, &err), 0);
	near_rel(r.r, 11.0 / 6.0, 1e-15, "r with n_x = 1");
	assert_true(isnan(r.se) && isnan(r.df) && isnan(r.ci_hi));
	/* zero numerator: se still defined */
	assert_int_equal(stats_ratio_cross(zero, 2, y, 2, 0.95, &r, &err), 0);
	assert_true(r.r == 0.0 && r.se == 0.0);
	assert_int_equal(stats_ratio_same(y, one, 1, 0.95, &r, &err), 0);
	near_rel(r.r, 5.0 / 3.0, 1e-15, "same-run n=1");
	assert_true(isnan(r.se));
	assert_int_equal(stats_ratio_same(NULL, NULL, 0, 0.95, &r, &err), 0);
	assert_true(isnan(r.r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_t7),
		cmocka_unit_test(test_cross_group_t7),
		cmocka_unit_test(test_same_run_ratio),
		cmocka_unit_test(test_same_run_exact_proportion),
		cmocka_unit_test(test_ratio_degenerate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
