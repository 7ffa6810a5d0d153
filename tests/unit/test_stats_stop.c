/*
 * Stopping helpers: the log-scale half-width agrees with the T5 interval of
 * STATS.md, the precision rule respects n_min, and the confidence-sequence
 * radius matches the STATS.md (d) formula evaluated in Python's math module
 * and is wider than the fixed-n interval (the price of peeking safely).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "numcheck.h"

#include <math.h>
#include <stdio.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_halfwidth_t5),
		cmocka_unit_test(test_precision_rule),
		cmocka_unit_test(test_cs_radius),
		cmocka_unit_test(test_cs_wider_than_fixed_n),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
