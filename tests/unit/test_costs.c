/*
 * The region markers' cost estimate (analysis/costs.h: region_cost and its
 * mechanism_costs entry) on constructed results: a run's entries summed
 * over its regions, times the timed figure of one entry, against the run's
 * wall time, over the measured timed runs of each variant only (a warm-up,
 * an instrumented run and a run without the figure are left out). Every
 * value is written by the test, so every figure asserted is exact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysed.h"
#include "analysis/costs.h"
#include "result/result.h"
#include "result/vocab.h"

enum { WALL, OUTER, INNER, COST };

static struct result_run *add_run(struct result *r, int v, double wall, double outer,
				  double inner, double cost)
{
	struct result_run *run = result_add_run(r);
	const double x[] = { wall, outer, inner, cost };

	run->variant = v;
	run->status = RUN_OK;
	for (int m = 0; m < 4; m++) {
		run->values[m].valid = x[m] >= 0;
		run->values[m].value = x[m];
	}
	return run;
}

static void build(struct result *r)
{
	char *argv[] = { NULL };

	result_init(r, "compare");
	result_add_variant(r, "A", argv);
	result_add_variant(r, "B", argv);
	result_add_metric(r, "wall-time", "ns", MSRC_CLOCK);
	result_add_metric(r, "outer:entries", "", MSRC_REGION);
	result_add_metric(r, "inner:entries", "", MSRC_REGION);
	result_add_metric(r, REGION_COST_METRIC, "ns", MSRC_REGION)->hidden = 1;
	/* A: 100 + 900 entries of 100 ns = 0.1 ms in 1 ms, twice; B: 10 */
	add_run(r, 0, 1e6, 100, 900, 100);
	add_run(r, 1, 2e6, 10, 0, 100);
	add_run(r, 0, 1e6, 100, 900, 100);
	add_run(r, 1, 2e6, 10, 0, 100);
	add_run(r, 0, 5e6, 100, 900, 100)->warmup = 1;	/* left out */
	add_run(r, 0, -1, 100, 900, 100)->instrumented = 1;	/* left out */
	add_run(r, 1, 1e6, 10, 0, -1);			/* no figure: left out */
}

static void test_region_cost(void **state)
{
	struct result r;
	struct region_cost a, b;

	(void)state;
	build(&r);
	assert_int_equal(region_cost(&r, 0, &a), 2);
	assert_true(fabs(a.entries - 1000) < 1e-9);
	assert_true(fabs(a.entry_ns - 100) < 1e-9);
	assert_true(fabs(a.ratio - 2e6 / (2e6 - 2e5)) < 1e-12);	/* +11.1% */
	assert_int_equal(region_cost(&r, 1, &b), 2);
	assert_true(fabs(b.entries - 10) < 1e-9);
	assert_true(fabs(b.ratio - 4e6 / (4e6 - 2e3)) < 1e-12);
	result_release(&r);
}

/* An estimate at or past the wall time has no ratio (null in JSON). */
static void test_region_cost_past_wall(void **state)
{
	struct result r;
	struct region_cost a;
	struct analysed an;
	json_t *j, *e;

	(void)state;
	build(&r);
	r.runs[0].values[COST].value = r.runs[2].values[COST].value = 1000;
	assert_int_equal(region_cost(&r, 0, &a), 2);
	assert_true(isnan(a.ratio));
	analysed_build(&r, &an);	/* the JSON reads the model's costs */
	j = mechanism_costs_json(&r, an.costs, an.ncosts, an.regions);
	analysed_release(&an);
	assert_non_null(j);
	assert_int_equal(json_array_size(j), 2);
	e = json_array_get(j, 0);
	assert_string_equal(json_string_value(json_object_get(e, "mechanism")), "regions");
	assert_string_equal(json_string_value(json_object_get(e, "variant")), "A");
	assert_true(json_is_null(json_object_get(e, "ratio")));
	assert_true(json_is_null(json_object_get(e, "ci_low")));
	assert_int_equal(json_integer_value(json_object_get(e, "pairs")), 2);
	assert_true(fabs(json_real_value(json_object_get(e, "entries")) - 1000) < 1e-9);
	json_decref(j);
	result_release(&r);
}

/*
 * A perturbing mechanism's cost: each instrumented run paired with the
 * variant's last timed run before it. A: 1 ms then 1.5 ms with calls, 2 ms
 * then 3 ms: both pairs 1.5x, so the ratio is 1.5 exactly, and so is its
 * interval (no spread). B ran no instrumented run: no row.
 */
static void test_mechanism_cost(void **state)
{
	char *argv[] = { NULL };
	struct mechanism_cost_row *rows;
	struct stats_paired p;
	struct result r;
	struct result_run *x;
	const double timed[2] = { 1e6, 2e6 };

	(void)state;
	result_init(&r, "compare");
	result_add_variant(&r, "A", argv);
	result_add_variant(&r, "B", argv);
	result_add_metric(&r, "wall-time", "ns", MSRC_CLOCK);
	result_add_metric(&r, COST_METRIC_PREFIX "calls", "ns", MSRC_CLOCK)->hidden = 1;
	for (int k = 0; k < 2; k++) {
		x = result_add_run(&r);
		x->variant = 0;
		x->status = RUN_OK;
		x->values[0] = (struct result_value){ .value = timed[k], .valid = 1 };
		x = result_add_run(&r);
		x->variant = 1;
		x->status = RUN_OK;
		x->values[0] = (struct result_value){ .value = 7e6, .valid = 1 };
		x = result_add_run(&r);
		x->variant = 0;
		x->status = RUN_OK;
		x->instrumented = 1;
		x->values[1] = (struct result_value){ .value = 1.5 * timed[k], .valid = 1 };
	}
	assert_int_equal(mechanism_cost(&r, 1, 0, &p), 2);
	assert_true(fabs(p.ratio - 1.5) < 1e-12);
	assert_true(fabs(p.ci_lo - 1.5) < 1e-9 && fabs(p.ci_hi - 1.5) < 1e-9);
	assert_int_equal(mechanism_cost(&r, 1, 1, &p), 0);
	assert_int_equal(mechanism_costs_compute(&r, &rows), 1);
	assert_int_equal(rows[0].metric, 1);
	assert_int_equal(rows[0].variant, 0);
	assert_int_equal(rows[0].pairs, 2);
	assert_true(fabs(rows[0].p.ratio - 1.5) < 1e-12);
	free(rows);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mechanism_cost),
		cmocka_unit_test(test_region_cost),
		cmocka_unit_test(test_region_cost_past_wall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
