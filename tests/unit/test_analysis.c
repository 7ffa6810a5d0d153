/*
 * Unit tests for analysis/analysis.c: the summary of each (variant,
 * metric) from the raw runs — which runs count (warm-up, missing and
 * multiplexed values left out, and counted as such), the figures against
 * values worked by hand, a metric not counted — and the shape of a ratio
 * formula. Results built value by value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "result/result.h"

static void close_to(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.9g, expected %.9g", got, want);
}

static struct result_run *run(struct result *r, int v, double wall, double cycles)
{
	struct result_run *x = result_add_run(r);

	x->variant = v;
	x->status = RUN_OK;
	x->values[0] = (struct result_value){ .value = wall, .valid = 1 };
	x->values[1] = (struct result_value){ .value = cycles, .valid = 1, .enabled = 100,
					      .running = 100 };
	return x;
}

/*
 * wall-time 1, 2, 3, 4, 5 ns: mean 3, sd sqrt(2.5) = 1.58113883, median
 * 3, and the 95% t interval 3 ± t(0.975, 4) sd / sqrt(5) = 3 ± 2.77644511
 * x 0.70710678 = [1.03675756, 4.96324244]. A warm-up run of 1000 ns and a
 * run without a value are left out (the second counted as missing); for
 * cycles a run the counter shared with others (running < enabled) is left
 * out and counted as multiplexed: 10, 20, 30 remain.
 */
static void test_summary_by_hand(void **state)
{
	char *argv[] = { "prog", NULL };
	struct result r;
	struct analysis a;
	const struct metric_summary *w, *c;
	struct result_run *x;

	(void)state;
	result_init(&r, "stat");
	result_add_variant(&r, "A", argv);
	result_add_metric(&r, "wall-time", "ns", MSRC_CLOCK);
	result_add_metric(&r, "cycles", "", MSRC_PERF);
	result_add_metric(&r, "instructions", "", MSRC_PERF)->available = 0;
	run(&r, 0, 1000, 99)->warmup = 1;
	for (int i = 1; i <= 5; i++)
		run(&r, 0, i, i <= 3 ? 10 * i : 40);
	r.runs[4].values[1].running = 50;	/* cycles 40: multiplexed */
	r.runs[5].values[1].running = 50;	/* cycles 40: multiplexed */
	x = run(&r, 0, 0, 0);
	x->values[0].valid = x->values[1].valid = 0;	/* missing both */
	analysis_compute(&r, &a);
	w = analysis_find(&a, 0, 0);
	c = analysis_find(&a, 0, 1);
	assert_non_null(w);
	assert_non_null(c);
	assert_null(analysis_find(&a, 0, 2));	/* not counted: no summary */
	assert_int_equal(w->s.n, 5);
	close_to(w->s.mean, 3, 1e-12);
	close_to(w->s.sd, 1.58113883, 1e-8);
	close_to(w->s.median, 3, 1e-12);
	close_to(w->s.mean_ci_lo, 1.03675756, 1e-6);
	close_to(w->s.mean_ci_hi, 4.96324244, 1e-6);
	assert_int_equal(w->n_missing, 1);
	assert_int_equal(w->n_multiplexed, 0);
	assert_int_equal(c->s.n, 3);
	close_to(c->s.mean, 20, 1e-12);
	assert_int_equal(c->n_multiplexed, 2);
	assert_int_equal(c->n_missing, 1);
	analysis_release(&a);
	result_release(&r);
}

/* "K * a / b" is a ratio of a over b with constant K; anything else is not. */
static void test_ratio_shape(void **state)
{
	char *argv[] = { "prog", NULL };
	struct result r;
	int num, den;
	double k;

	(void)state;
	result_init(&r, "stat");
	result_add_variant(&r, "A", argv);
	result_add_metric(&r, "instructions", "", MSRC_PERF);
	result_add_metric(&r, "cycles", "", MSRC_PERF);
	assert_true(analysis_ratio_shape(&r, "instructions / cycles", &num, &den, &k));
	assert_int_equal(num, 0);
	assert_int_equal(den, 1);
	close_to(k, 1, 0);
	assert_true(analysis_ratio_shape(&r, "1000 * cycles / instructions", &num, &den, &k));
	assert_int_equal(num, 1);
	assert_int_equal(den, 0);
	close_to(k, 1000, 0);
	assert_false(analysis_ratio_shape(&r, "instructions + cycles", &num, &den, &k));
	assert_false(analysis_ratio_shape(&r, "instructions / other", &num, &den, &k));
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_by_hand),
		cmocka_unit_test(test_ratio_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
