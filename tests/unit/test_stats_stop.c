/*
 * Stopping helpers: the log-scale half-width agrees with the T5 interval of
 * STATS.md, the precision rule respects n_min, and the confidence-sequence
 * radius matches the STATS.md (d) formula evaluated in Python's math module
 * and is wider than the fixed-n interval (the price of peeking safely). Its
 * always-valid p-value matches the same module and crosses alpha exactly at
 * the sequence's edge. The sequential rule (stats/sequential.h) settles
 * where stats_verdict() would, and its median-unbiased estimate leaves a
 * campaign that could not stop early alone and pulls an early stop back.
 * How well the rule and the estimate do on whole campaigns is
 * test_calibration.c's job.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "numcheck.h"

#include <math.h>
#include <stdio.h>

#include "stats/compare.h"
#include "stats/sequential.h"
#include "stats/stop.h"

static void test_halfwidth_t5(void **state)
{
	/* T5: sd(d) 0.0082459518039782494, n 5; exp(mean +- h) = [1.0172892665, 1.0383354590] */
	double h = stats_ci_halfwidth_log(0.0082459518039782494, 5, 0.95);

	(void)state;
	near_rel(h, log(1.0383354590251239724 / 1.0277584918221751941), 1e-12, "h");
	near_rel(h, log(1.0277584918221751941 / 1.0172892665192452103), 1e-12, "h lower");
	assert_true(isnan(stats_ci_halfwidth_log(0.01, 1, 0.95)));
	assert_true(isnan(stats_ci_halfwidth_log(NAN, 5, 0.95)));
	assert_true(stats_ci_halfwidth_log(0.0, 5, 0.95) == 0.0);
}

static void test_precision_rule(void **state)
{
	(void)state;
	assert_true(stats_precision_reached(0.004, 0.005, 10, 10));
	assert_false(stats_precision_reached(0.004, 0.005, 9, 10));
	assert_false(stats_precision_reached(0.006, 0.005, 50, 10));
	assert_false(stats_precision_reached(NAN, 0.005, 50, 10));
}

static void test_cs_radius(void **state)
{
	(void)state;
	near_rel(stats_cs_radius(10, 0.02, 1, 0.05), 0.019212803857737153, 1e-14, "n 10");
	near_rel(stats_cs_radius(100, 0.01, 25, 0.05), 0.003082389993889093, 1e-14, "n 100");
	near_rel(stats_cs_radius(1, 0.5, 3, 0.1), 2.211979262660451, 1e-14, "n 1");
	assert_true(isnan(stats_cs_radius(0, 0.5, 3, 0.1)));
	assert_true(isnan(stats_cs_radius(5, 0.5, 0, 0.1)));
	assert_true(isnan(stats_cs_radius(5, 0.5, 3, 1.0)));
}

static void test_cs_wider_than_fixed_n(void **state)
{
	size_t n;

	(void)state;
	for (n = 5; n <= 5000; n *= 2) {
		double cs = stats_cs_radius(n, 0.01, 10, 0.05);
		double fixed = stats_ci_halfwidth_log(0.01, n, 0.95);

		assert_true(cs > fixed);
		assert_true(cs > stats_cs_radius(2 * n, 0.01, 10, 0.05));
	}
}

static void test_cs_pvalue(void **state)
{
	(void)state;
	/* math: 1/Lambda = sqrt((n+rho)/rho) exp(-n^2 m^2 / (2 s^2 (n+rho))) */
	near_rel(stats_cs_pvalue(20, 0.01, 0.02, 10), 0.32714214042485745, 1e-13, "n 20");
	near_rel(stats_cs_pvalue(100, -0.004, 0.01, 25), 0.003715355011326106, 1e-13, "n 100");
	assert_true(stats_cs_pvalue(10, 0.001, 0.02, 10) == 1.0);	/* Lambda < 1: capped */
	assert_true(stats_cs_pvalue(10, 0.0, 0.0, 10) == 1.0);
	assert_true(stats_cs_pvalue(10, 0.01, 0.0, 10) == 0.0);
	assert_true(isnan(stats_cs_pvalue(0, 0.01, 0.02, 10)));
	assert_true(isnan(stats_cs_pvalue(10, 0.01, 0.02, 0)));
	/* At the edge of the sequence the p-value is alpha itself. */
	for (size_t n = 10; n <= 1000; n *= 10) {
		double r = stats_cs_radius(n, 0.03, 10, 0.05);

		near_rel(stats_cs_pvalue(n, r, 0.03, 10), 0.05, 1e-12, "p at the edge");
		assert_true(stats_cs_pvalue(n, 1.01 * r, 0.03, 10) < 0.05);
		assert_true(stats_cs_pvalue(n, 0.99 * r, 0.03, 10) > 0.05);
	}
}

static const struct stats_seq_rule rule = { .n_min = 10, .n_max = 200, .rho = 10,
					    .alpha = 0.05, .band = 0.01, .target = 0.01 };

static void test_seq_check(void **state)
{
	struct stats_seq_rule no_target = rule;

	(void)state;
	no_target.target = 0;
	/* r(20, 0.02) = 0.01458: [0.0354, 0.0646] clear of the band */
	assert_int_equal(stats_seq_check(&rule, 20, 0.05, 0.02), STATS_SEQ_SETTLED);
	assert_int_equal(stats_seq_check(&rule, 20, -0.05, 0.02), STATS_SEQ_SETTLED);
	assert_int_equal(stats_seq_check(&rule, 9, 0.5, 0.02), STATS_SEQ_GO_ON);
	assert_int_equal(stats_seq_check(&rule, 20, 0.0, 0.02), STATS_SEQ_GO_ON);
	/* r(150, 0.03) = 0.00749: [0.0045, 0.0195] is slower, size uncertain */
	assert_int_equal(stats_seq_check(&rule, 150, 0.012, 0.03), STATS_SEQ_PRECISE);
	assert_int_equal(stats_seq_check(&no_target, 150, 0.012, 0.03), STATS_SEQ_GO_ON);
	assert_int_equal(stats_seq_check(&no_target, 200, 0.012, 0.03), STATS_SEQ_LIMIT);
	/* [-0.0065, 0.0085] inside the band: equivalent */
	assert_int_equal(stats_seq_check(&no_target, 150, 0.001, 0.03), STATS_SEQ_SETTLED);
	assert_int_equal(stats_seq_check(&rule, 50, NAN, 0.03), STATS_SEQ_GO_ON);
	assert_int_equal(stats_seq_check(&rule, 200, 0.01, NAN), STATS_SEQ_LIMIT);
}

/* SETTLED exactly where stats_verdict() of the sequence's ends is SLOWER,
 * FASTER or EQUIVALENT (away from the edges, where rounding may differ). */
static void test_seq_check_is_the_verdict(void **state)
{
	(void)state;
	for (size_t n = 10; n <= 190; n += 30)
		for (double sd = 0.005; sd < 0.2; sd *= 1.7)
			for (double m = -0.08; m <= 0.08; m += 0.0037) {
				double r = stats_cs_radius(n, sd, rule.rho, rule.alpha);
				enum stats_verdict v = stats_verdict(exp(m - r), exp(m + r), rule.band);
				int settled = v == STATS_SLOWER || v == STATS_FASTER ||
					      v == STATS_EQUIVALENT;

				assert_int_equal(stats_seq_check(&rule, n, m, sd) == STATS_SEQ_SETTLED,
						 settled);
			}
}

static void test_seq_median_unbiased(void **state)
{
	struct stats_seq_rule fixed = rule;
	double se = 0.03 / sqrt(20), est;

	(void)state;
	/* A rule that cannot stop before 30 blocks: nothing to correct. */
	fixed.n_min = fixed.n_max = 30;
	est = stats_seq_median_unbiased(&fixed, 30, 0.02, 0.03);
	assert_true(fabs(est - 0.02) <= 0.01 * 0.03 / sqrt(30));
	/* Settled at 20 blocks ([0.0131, 0.0569] is clear of the band): pulled
	 * back by a fraction of a standard error (0.17 se). */
	assert_int_equal(stats_seq_check(&rule, 20, 0.035, 0.03), STATS_SEQ_SETTLED);
	est = stats_seq_median_unbiased(&rule, 20, 0.035, 0.03);
	assert_true(est < 0.035 - 0.1 * se && est > 0.035 - se);
	assert_true(est == stats_seq_median_unbiased(&rule, 20, 0.035, 0.03));	/* seeded */
	near_rel(stats_seq_median_unbiased(&rule, 20, -0.035, 0.03), -est, 0.02, "mirror");
	assert_true(stats_seq_median_unbiased(&rule, 12, 0.05, 0.0) == 0.05);
	assert_true(stats_seq_median_unbiased(&rule, 8, 0.05, 0.03) == 0.05);	/* no look yet */
	assert_true(isnan(stats_seq_median_unbiased(&rule, 201, 0.05, 0.03)));
	assert_true(isnan(stats_seq_median_unbiased(&rule, 1, 0.05, 0.03)));
	assert_true(isnan(stats_seq_median_unbiased(&rule, 12, NAN, 0.03)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_halfwidth_t5),
		cmocka_unit_test(test_precision_rule),
		cmocka_unit_test(test_cs_radius),
		cmocka_unit_test(test_cs_wider_than_fixed_n),
		cmocka_unit_test(test_cs_pvalue),
		cmocka_unit_test(test_seq_check),
		cmocka_unit_test(test_seq_check_is_the_verdict),
		cmocka_unit_test(test_seq_median_unbiased),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
