/*
 * Distribution functions against STATS.md's t quantiles (T2) and against
 * values computed to 40 digits with mpmath 1.3 (betainc, erfinv, findroot on
 * the t CDF), plus closed forms: I_x(a, 1) = x^a, I_x(1, b) = 1 - (1-x)^b,
 * the Cauchy and df = 2 quantiles. Round trips check quantile against cdf.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "numcheck.h"

#include <math.h>
#include <stdio.h>

#include "stats/dist.h"

static void near_abs(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, want %.17g (abs tol %.3g)", what, got, want, tol);
}

/* T2: t(0.975, df), six decimals as printed in STATS.md. */
static void test_t_quantile_table(void **state)
{
	static const struct { double df, t; } ref[] = {
		{ 1, 12.706205 }, { 5, 2.570582 }, { 10, 2.228139 },
		{ 28, 2.048407 }, { 29, 2.045230 }, { 120, 1.979930 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		near_abs(stats_t_quantile(0.975, ref[i].df), ref[i].t, 5e-7, "t(0.975)");
		near_abs(stats_t_quantile(0.025, ref[i].df), -ref[i].t, 5e-7, "t(0.025)");
	}
}

/* Non-integer df (Welch) and far tails, mpmath references. */
static void test_t_quantile_fractional_df(void **state)
{
	(void)state;
	near_rel(stats_t_quantile(0.975, 6.972255730), 2.3665330448866563697, 1e-12, "df 6.97");
	near_rel(stats_t_quantile(0.975, 2.5), 3.5746548420036817607, 1e-12, "df 2.5");
	near_rel(stats_t_quantile(0.975, 1.5), 6.0166631044279282546, 1e-12, "df 1.5");
	near_rel(stats_t_quantile(0.95, 3.7), 2.1824938039146011732, 1e-12, "df 3.7");
	near_rel(stats_t_quantile(0.999, 0.5), 102849.11563017537133, 1e-10, "df 0.5");
	near_rel(stats_t_quantile(0.995, 200), 2.6006344361915576429, 1e-12, "df 200");
	near_rel(stats_t_quantile(0.025, 9), -2.2621571627982049992, 1e-12, "df 9 lower");
	near_rel(stats_t_quantile(0.975, 1e3), 1.9623390808264085, 1e-13, "df 1e3");
	near_rel(stats_t_quantile(0.975, 1e5), 1.9599877075346096, 1e-11, "df 1e5");
	near_rel(stats_t_quantile(0.975, 1e7), 1.9599642217672055, 1e-14, "df 1e7");
	near_rel(stats_t_quantile(0.975, 1e9), 1.9599639869123255, 1e-14, "df 1e9");
	/* t(0.975, 0.001) is about 10^1300: no double holds it */
	assert_true(stats_t_quantile(0.975, 0.001) == INFINITY);
}

static void test_t_quantile_closed_forms(void **state)
{
	double p;

	(void)state;
	for (p = 0.01; p < 1.0; p += 0.07) {
		near_rel(stats_t_quantile(p, 1.0), tan(M_PI * (p - 0.5)), 1e-12, "cauchy");
		near_rel(stats_t_quantile(p, 2.0), (2 * p - 1) / sqrt(2 * p * (1 - p)),
			 1e-12, "df 2");
	}
	near_rel(stats_t_quantile(0.975, INFINITY), 1.959963984540054, 1e-15, "df inf");
}

static void test_t_quantile_round_trip(void **state)
{
	static const double dfs[] = { 0.7, 1.3, 3, 4.5, 17.25, 60, 1000 };
	static const double ps[] = { 1e-9, 1e-4, 0.01, 0.3, 0.6, 0.9, 0.999999 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++)
		for (j = 0; j < sizeof(ps) / sizeof(ps[0]); j++)
			near_rel(stats_t_cdf(stats_t_quantile(ps[j], dfs[i]), dfs[i]),
				 ps[j], 1e-10, "cdf(quantile(p))");
}

static void test_t_tails(void **state)
{
	(void)state;
	near_rel(stats_t_sf(3, 4.5), 0.017190433944379811929, 1e-12, "sf(3; 4.5)");
	near_rel(stats_t_sf(50, 3), 8.808576020635987078e-6, 1e-12, "sf(50; 3)");
	near_rel(stats_t_sf(-2, 7), 0.95719033571851196162, 1e-12, "sf(-2; 7)");
	near_rel(stats_t_sf(0.1, 2.5), 0.46390327203124478798, 1e-12, "sf(0.1; 2.5)");
	near_rel(stats_t_sf(8, 30), 3.1329112378503794717e-9, 1e-11, "sf(8; 30)");
	near_rel(stats_t_p2(-8, 30), 2 * 3.1329112378503794717e-9, 1e-11, "p2 symmetric");
	near_rel(stats_t_cdf(-3, 4.5), 0.017190433944379811929, 1e-12, "cdf = sf(-t)");
	assert_true(stats_t_cdf(0, 3.3) == 0.5);
	assert_true(stats_t_sf(INFINITY, 3) == 0.0);
	assert_true(stats_t_p2(0, 3) == 1.0);
}

static void test_t_domain(void **state)
{
	(void)state;
	assert_true(isnan(stats_t_cdf(1, 0)));
	assert_true(isnan(stats_t_cdf(1, -2)));
	assert_true(isnan(stats_t_cdf(NAN, 3)));
	assert_true(isnan(stats_t_quantile(1.5, 3)));
	assert_true(isnan(stats_t_quantile(0.5, NAN)));
	assert_true(stats_t_quantile(1.0, 3) == INFINITY);
	assert_true(stats_t_quantile(0.0, 3) == -INFINITY);
	assert_true(stats_t_quantile(0.5, 3) == 0.0);
}

static void test_beta_inc(void **state)
{
	double x;

	(void)state;
	near_rel(stats_beta_inc(2.5, 3.5, 0.3), 0.29675298929566637832, 1e-13, "I(2.5,3.5)");
	near_rel(stats_beta_inc(0.5, 0.5, 0.01), 0.063768560858519848583, 1e-13, "I(.5,.5)");
	near_rel(stats_beta_inc(50, 60, 0.45), 0.46423529143060362867, 1e-11, "I(50,60)");
	near_rel(stats_beta_inc(1000, 1000, 0.49), 0.18555265943151144994, 1e-10, "I(1e3,1e3)");
	for (x = 0.05; x < 1.0; x += 0.1) {
		near_rel(stats_beta_inc(3.7, 1, x), pow(x, 3.7), 1e-13, "I(a,1)");
		near_rel(stats_beta_inc(1, 2.2, x), 1 - pow(1 - x, 2.2), 1e-13, "I(1,b)");
		near_rel(stats_beta_inc(4, 4, x) + stats_beta_inc(4, 4, 1 - x), 1, 1e-14,
			 "symmetry");
	}
	assert_true(stats_beta_inc(2, 3, 0) == 0.0);
	assert_true(stats_beta_inc(2, 3, 1) == 1.0);
	assert_true(isnan(stats_beta_inc(0, 3, 0.5)));
	assert_true(isnan(stats_beta_inc(2, 3, 1.5)));
}

static void test_binom_half(void **state)
{
	(void)state;
	near_rel(stats_binom_half_cdf(10, 1), 11.0 / 1024.0, 1e-13, "P(Bin(10) <= 1)");
	near_rel(stats_binom_half_cdf(5, 2), 0.5, 1e-13, "P(Bin(5) <= 2)");
	assert_true(stats_binom_half_cdf(10, -1) == 0.0);
	assert_true(stats_binom_half_cdf(10, 10) == 1.0);
}

static void test_normal(void **state)
{
	double p;

	(void)state;
	near_rel(stats_normal_quantile(0.975), 1.9599639845400542355, 1e-15, "z(.975)");
	near_rel(stats_normal_quantile(0.3), -0.52440051270804078404, 1e-14, "z(.3)");
	near_rel(stats_normal_quantile(1e-10), -6.3613409024040562047, 1e-14, "z(1e-10)");
	near_rel(stats_normal_cdf(1.9599639845400542355), 0.975, 1e-15, "cdf");
	near_rel(stats_normal_sf(6.3613409024040562047), 1e-10, 1e-13, "sf");
	for (p = 1e-12; p < 1.0; p *= 7.3)
		near_rel(stats_normal_cdf(stats_normal_quantile(p)), p, 1e-13, "round trip");
	near_rel(stats_normal_cdf(stats_normal_quantile(1e-300)), 1e-300, 1e-12, "1e-300");
	assert_true(stats_normal_quantile(0.5) == 0.0);
	assert_true(stats_normal_quantile(0) == -INFINITY);
	assert_true(isnan(stats_normal_quantile(-0.1)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantile_table),
		cmocka_unit_test(test_t_quantile_fractional_df),
		cmocka_unit_test(test_t_quantile_closed_forms),
		cmocka_unit_test(test_t_quantile_round_trip),
		cmocka_unit_test(test_t_tails),
		cmocka_unit_test(test_t_domain),
		cmocka_unit_test(test_beta_inc),
		cmocka_unit_test(test_binom_half),
		cmocka_unit_test(test_normal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
