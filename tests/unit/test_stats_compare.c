/*
 * A versus B: STATS.md T5 (paired log ratio, scipy 1.10), the unpaired
 * Fieller interval against the roots of Fieller's quadratic solved with
 * 40-digit mpmath, edge cases (n < 2, identical runs, bad input), and the
 * verdict rules of STATS.md (b) at and around each boundary.
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
#include "stats/compare.h"

static const double t5_a[] = { 1.00, 1.02, 0.99, 1.01, 1.03 };
static const double t5_b[] = { 1.03, 1.04, 1.02, 1.05, 1.05 };

static void test_paired_t5(void **state)
{
	struct stats_paired r;
	struct error err;

	(void)state;
	assert_int_equal(stats_paired_ratio(t5_a, t5_b, 5, 0.95, &r, &err), 0);
	assert_int_equal(r.n, 5);
	near_printed(r.mean_d, 0.027380209, 9, "mean d");
	near_printed(r.sd_d, 0.008245952, 9, "sd d");
	near_printed(r.ratio, 1.027758492, 9, "ratio");
	near_printed(r.ci_lo, 1.017289267, 9, "ci lo");
	near_printed(r.ci_hi, 1.038335459, 9, "ci hi");
	near_printed(r.p_t, 0.001756509, 9, "paired t p");
	near_rel(r.mean_d, 0.027380209298495732147, 1e-12, "mean d full");
	near_rel(r.sd_d, 0.0082459518039782493957, 1e-12, "sd d full");
	near_rel(r.ci_lo, 1.0172892665192452103, 1e-12, "ci lo full");
	near_rel(r.ci_hi, 1.0383354590251239724, 1e-12, "ci hi full");
	near_rel(r.p_t, 0.0017565090429498390324, 1e-12, "p full");
	/* all five d > 0: exact signed-rank p is 2/32, not significant */
	assert_true(r.signed_rank_exact);
	near_rel(r.p_signed_rank, 0.0625, 1e-15, "signed-rank p");
	near_rel(r.hl_ratio, 1.0294612401950468131, 1e-12, "HL ratio");
	near_rel(r.half_log, log(r.ci_hi / r.ratio), 1e-12, "half width on log scale");
	assert_true(r.ci_lo < r.ratio && r.ratio < r.ci_hi);
	assert_int_equal(stats_verdict(r.ci_lo, r.ci_hi, 0.01), STATS_SLOWER);
}

static void test_paired_reversed_is_reciprocal(void **state)
{
	struct stats_paired ab, ba;
	struct error err;

	(void)state;
	assert_int_equal(stats_paired_ratio(t5_a, t5_b, 5, 0.95, &ab, &err), 0);
	assert_int_equal(stats_paired_ratio(t5_b, t5_a, 5, 0.95, &ba, &err), 0);
	near_rel(ba.ratio, 1.0 / ab.ratio, 1e-14, "ratio");
	near_rel(ba.ci_lo, 1.0 / ab.ci_hi, 1e-14, "lo = 1/hi");
	near_rel(ba.p_t, ab.p_t, 1e-12, "same p");
	assert_int_equal(stats_verdict(ba.ci_lo, ba.ci_hi, 0.01), STATS_FASTER);
}

static void test_paired_identical_runs(void **state)
{
	static const double a[] = { 2.0, 3.0, 5.0, 7.0 };
	struct stats_paired r;
	struct error err;

	(void)state;
	assert_int_equal(stats_paired_ratio(a, a, 4, 0.95, &r, &err), 0);
	assert_true(r.ratio == 1.0 && r.sd_d == 0.0);
	assert_true(r.ci_lo == 1.0 && r.ci_hi == 1.0);
	assert_true(isnan(r.t) && isnan(r.p_t));
	assert_int_equal(r.n_zero, 4);
	assert_true(isnan(r.p_signed_rank));
	assert_int_equal(stats_verdict(r.ci_lo, r.ci_hi, 0.01), STATS_EQUIVALENT);
}

static void test_paired_small_n(void **state)
{
	static const double a[] = { 2.0 }, b[] = { 3.0 };
	struct stats_paired r;
	struct error err;

	(void)state;
	assert_int_equal(stats_paired_ratio(a, b, 1, 0.95, &r, &err), 0);
	near_rel(r.ratio, 1.5, 1e-15, "ratio n=1");
	assert_true(isnan(r.sd_d) && isnan(r.ci_lo) && isnan(r.p_t));
	assert_int_equal(stats_verdict(r.ci_lo, r.ci_hi, 0.01), STATS_INCONCLUSIVE);
	assert_int_equal(stats_paired_ratio(NULL, NULL, 0, 0.95, &r, &err), 0);
	assert_true(isnan(r.ratio) && r.n == 0);
}

static void test_paired_rejects_non_positive(void **state)
{
	static const double a[] = { 1.0, 0.0, 2.0 }, b[] = { 1.0, 1.0, 2.0 };
	struct stats_paired r;
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(stats_paired_ratio(a, b, 3, 0.95, &r, &err), -1);
	assert_non_null(strstr(err.msg, "block 1"));
}

static void test_unpaired_fieller(void **state)
{
	static const double a[] = { 10.1, 10.3, 10.2, 10.4, 10.0 };
	static const double b[] = { 10.6, 11.2, 10.4, 11.0, 10.8, 11.4 };
	static const double c[] = { 5.0, 5.5, 4.0, 6.5 };
	static const double d[] = { 7.0, 6.0, 8.5, 7.5, 9.0, 6.5, 8.0 };
	struct stats_unpaired r;
	struct error err;

	(void)state;
	assert_int_equal(stats_unpaired_ratio(a, 5, b, 6, 0.95, &r, &err), 0);
	near_rel(r.ratio, 1.0686274509803921569, 1e-14, "ratio");
	near_rel(r.df, 7.2070163853793476472, 1e-12, "df");
	near_rel(r.ci_lo, 1.0296261210307040932, 1e-12, "ci lo");
	near_rel(r.ci_hi, 1.1081966114935637766, 1e-12, "ci hi");
	assert_false(r.ci_unbounded);
	/* the only a not below every b is 10.4, tied with a b: U = 0.5, not exact */
	assert_false(r.mw_exact);
	assert_true(r.u == 0.5);
	/* Fieller's interval is asymmetric around the ratio for a noisy denominator */
	assert_int_equal(stats_unpaired_ratio(c, 4, d, 7, 0.95, &r, &err), 0);
	near_rel(r.ratio, 1.4285714285714285714, 1e-14, "ratio 2");
	near_rel(r.ci_lo, 1.0845449695592387997, 1e-12, "ci lo 2");
	near_rel(r.ci_hi, 1.974690337330357406, 1e-12, "ci hi 2");
	assert_true(r.ci_hi - r.ratio > r.ratio - r.ci_lo);
}

static void test_unpaired_unbounded(void **state)
{
	static const double a[] = { -1.0, 2.0, -0.5, 1.0 };
	static const double b[] = { 3.0, 4.0, 5.0 };
	struct stats_unpaired r;
	struct error err;

	(void)state;
	assert_int_equal(stats_unpaired_ratio(a, 4, b, 3, 0.95, &r, &err), 0);
	assert_true(r.ci_unbounded);
	assert_true(r.ci_lo == -INFINITY && r.ci_hi == INFINITY);
	assert_int_equal(stats_verdict(r.ci_lo, r.ci_hi, 0.01), STATS_INCONCLUSIVE);
	assert_true(r.mw_exact);
	near_rel(r.p_mw, 2.0 / 35.0, 1e-14, "U = 0 with 4 and 3");
}

static void test_verdict_rules(void **state)
{
	static const struct { double lo, hi; enum stats_verdict v; } cases[] = {
		{ 1.02, 1.05, STATS_SLOWER },
		{ 1.0101, 1.02, STATS_SLOWER },
		{ 1.01, 1.02, STATS_SLOWER_UNSIZED },	/* touches 1 + delta */
		{ 0.95, 0.98, STATS_FASTER },
		{ 0.98, 0.99, STATS_FASTER_UNSIZED },	/* touches 1 - delta */
		{ 0.991, 1.009, STATS_EQUIVALENT },
		{ 0.99, 1.01, STATS_EQUIVALENT },		/* band is closed */
		{ 1.002, 1.008, STATS_EQUIVALENT },		/* inside wins over "excludes 1" */
		/* the "+13.3% [+0.5%, +27.6%]": slower, size uncertain */
		{ 1.005, 1.276, STATS_SLOWER_UNSIZED },
		{ 1.005, 1.03, STATS_SLOWER_UNSIZED },
		{ 0.97, 0.995, STATS_FASTER_UNSIZED },
		{ 1.0001, 1.5, STATS_SLOWER_UNSIZED },
		{ 0.98, 1.03, STATS_INCONCLUSIVE },
		{ 0.995, 1.02, STATS_INCONCLUSIVE },
		{ NAN, 1.02, STATS_INCONCLUSIVE },
		{ 1.05, 1.02, STATS_INCONCLUSIVE },		/* lo > hi */
	};
	size_t i;

	(void)state;
	for (i = 0; i < N(cases); i++)
		if (stats_verdict(cases[i].lo, cases[i].hi, STATS_NOISE_BAND_DEFAULT) != cases[i].v)
			fail_msg("case %zu [%g, %g]: got %s, want %s", i, cases[i].lo, cases[i].hi,
				 stats_verdict_word(stats_verdict(cases[i].lo, cases[i].hi, 0.01)),
				 stats_verdict_word(cases[i].v));
	/* a wider band turns a small slowdown into "equivalent" */
	assert_int_equal(stats_verdict(1.02, 1.04, 0.05), STATS_EQUIVALENT);
	assert_true(stats_verdict_directional(STATS_SLOWER_UNSIZED));
	assert_true(stats_verdict_directional(STATS_FASTER));
	assert_false(stats_verdict_directional(STATS_EQUIVALENT));
	assert_false(stats_verdict_directional(STATS_INCONCLUSIVE));
}

static void test_verdict_words(void **state)
{
	(void)state;
	assert_string_equal(stats_verdict_word(STATS_SLOWER), "slower");
	assert_string_equal(stats_verdict_word(STATS_FASTER), "faster");
	assert_string_equal(stats_verdict_word(STATS_EQUIVALENT), "equivalent");
	assert_string_equal(stats_verdict_word(STATS_SLOWER_UNSIZED), "slower (size uncertain)");
	assert_string_equal(stats_verdict_word(STATS_FASTER_UNSIZED), "faster (size uncertain)");
	assert_string_equal(stats_verdict_word(STATS_INCONCLUSIVE), "inconclusive");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired_t5),
		cmocka_unit_test(test_paired_reversed_is_reciprocal),
		cmocka_unit_test(test_paired_identical_runs),
		cmocka_unit_test(test_paired_small_n),
		cmocka_unit_test(test_paired_rejects_non_positive),
		cmocka_unit_test(test_unpaired_fieller),
		cmocka_unit_test(test_unpaired_unbounded),
		cmocka_unit_test(test_verdict_rules),
		cmocka_unit_test(test_verdict_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
