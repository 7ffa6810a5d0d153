/*
 * compare's plan (campaign/compare_plan.h), the part of `pmustat compare`
 * that decides rather than parses or renders: the stopping rule chosen from
 * the options (--blocks fixed, --target-ci alone precision, otherwise the
 * sequential rule, --decide keeping it with a target), the stop reason said
 * when every block ran, the variants' default names and the refusal of a
 * name given twice, and the regression verdict of --fail-on-regression on
 * constructed results whose verdicts the test's own values decide; the
 * demo's plan (campaign/demo_plan.h): its variants' command lines, sizes
 * and metrics, and the refusal of an unknown variant with a suggestion.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/compare_plan.h"
#include "campaign/demo_plan.h"
#include "core/strbuf.h"

static void test_default_rule_sequential(void **state)
{
	struct compare_plan p;

	(void)state;
	compare_defaults(&p);
	compare_settle(&p);
	assert_int_equal(p.o.stop.kind, STOP_SEQUENTIAL);
	assert_int_equal(p.o.stop.min_blocks, 10);
	assert_int_equal(p.o.stop.max_blocks, 200);
	assert_true(fabs(p.o.stop.target - 0.01) < 1e-12);
	assert_true(p.o.shuffle && p.o.equal_paths);
	assert_string_equal(p.o.done_reason,
			    "block limit of 200 reached before the wall-time verdict settled");
}

static void test_blocks_fixed(void **state)
{
	struct compare_plan p;

	(void)state;
	compare_defaults(&p);
	p.blocks = 5;
	compare_settle(&p);
	assert_int_equal(p.o.stop.kind, STOP_FIXED);
	assert_int_equal(p.o.stop.max_blocks, 5);
	assert_int_equal(p.o.stop.min_blocks, 5);	/* never more than the limit */
	assert_string_equal(p.o.done_reason, "the 5 blocks asked for ran");
}

static void test_target_ci_precision_unless_decide(void **state)
{
	struct compare_plan p;

	(void)state;
	compare_defaults(&p);
	p.target_given = 1;
	p.target_ci = 2.5;
	p.max_blocks = 30;
	compare_settle(&p);
	assert_int_equal(p.o.stop.kind, STOP_PRECISION);
	assert_true(fabs(p.o.stop.target - 0.025) < 1e-12);
	assert_string_equal(p.o.done_reason,
			    "block limit of 30 reached before the target precision");
	p.decide = 1;
	compare_settle(&p);
	assert_int_equal(p.o.stop.kind, STOP_SEQUENTIAL);
}

static void test_variant_names(void **state)
{
	static char *const argv[] = { "true", NULL };
	struct compare_plan p;
	struct error err;

	(void)state;
	compare_defaults(&p);
	error_clear(&err);
	p.argv[0] = argv;
	p.nvariants = 1;
	assert_int_equal(compare_name_variants(&p, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg, "compare needs at least two variants, got 1");
	p.nvariants = 3;
	p.names[1] = "new";
	assert_int_equal(compare_name_variants(&p, &err), 0);
	assert_string_equal(p.names[0], "A");
	assert_string_equal(p.names[1], "new");
	assert_string_equal(p.names[2], "C");
	p.names[2] = "new";
	assert_int_equal(compare_name_variants(&p, &err), -1);
	assert_string_equal(err.msg, "variant name 'new' is used twice");
	assert_non_null(strstr(err.hint, "-n NAME"));
}

/* B's wall time is A's times exp(d) in every block: about 10% more, with
 * some spread, so the interval is wholly above the noise band. */
static const double d_slow[12] = { 0.10, 0.12, 0.09, 0.11, 0.08, 0.10,
				   0.13, 0.09, 0.11, 0.10, 0.12, 0.09 };

static void build(struct result *r, double sign)
{
	char *argv[] = { NULL };

	result_init(r, "compare");
	result_add_variant(r, "A", argv);
	result_add_variant(r, "B", argv);
	result_add_metric(r, "wall-time", "ns", MSRC_CLOCK);
	r->primary = xstrdup("wall-time");
	r->repeat = 12;
	for (int b = 0; b < 12; b++)
		for (int v = 0; v < 2; v++) {
			struct result_run *run = result_add_run(r);

			run->variant = run->position = v;
			run->block = b;
			run->status = RUN_OK;
			run->values[0].valid = 1;
			run->values[0].value = 1e8 * (v ? exp(sign * d_slow[b]) : 1.0);
		}
}

/* The regressions of r, from its comparisons computed here once. */
static int regressions(const struct result *r, const char *list, struct strbuf *out)
{
	struct comparison_set s;
	int found;

	comparisons_compute(r, &s);
	found = compare_regressions(r, &s, list, out);
	comparisons_release(&s);
	return found;
}

static void test_regressions(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct result r;

	(void)state;
	build(&r, 1);
	assert_int_equal(regressions(&r, "task-clock", &out), 0);
	assert_int_equal(out.len, 0);
	assert_int_equal(regressions(&r, "task-clock,wall-time", &out), 1);
	assert_non_null(strstr(out.buf, "regression: wall-time of 'B' is 1.1"));
	assert_non_null(strstr(out.buf, "(n 12)\n"));
	result_release(&r);
	strbuf_reset(&out);
	build(&r, -1);	/* faster: no regression */
	assert_int_equal(regressions(&r, "wall-time", &out), 0);
	assert_int_equal(out.len, 0);
	result_release(&r);
	strbuf_release(&out);
}

static void test_demo_plan(void **state)
{
	struct demo_run *dr = calloc(1, sizeof(*dr));
	struct demo_opts d;
	struct error err;

	(void)state;
	demo_defaults(&d);
	d.seeded = 1;
	d.seed = 7;
	d.labels = 3;
	error_clear(&err);
	assert_int_equal(demo_plan(dr, &d, "/x/r1cs-synth", &err), 0);
	assert_int_equal(dr->co.nvariants, 4);
	assert_string_equal(dr->co.names[3], "csr");
	assert_string_equal(dr->co.argv[2][0], "/x/r1cs-synth");
	assert_string_equal(dr->co.argv[2][2], "pool");
	assert_string_equal(dr->co.argv[2][4], "inplace");
	assert_string_equal(dr->co.argv[2][6], "3");
	assert_string_equal(dr->co.argv[2][8], "20");
	assert_null(dr->co.argv[2][9]);
	assert_string_equal(dr->co.o.sim_args, "--labels 1 --blocks 2");
	assert_non_null(strstr(dr->co.o.metrics, "allocs"));
	assert_string_equal(dr->co.command, "demo");
	assert_int_equal(dr->co.o.stop.kind, STOP_SEQUENTIAL);
	assert_int_equal(dr->co.o.stop.max_blocks, 40);
	assert_int_equal(dr->co.o.seed, 7);
	demo_run_release(dr);
	memset(dr, 0, sizeof(*dr));
	d.variants = "vec,sv3";
	assert_int_equal(demo_plan(dr, &d, "/x/r1cs-synth", &err), -1);
	assert_string_equal(err.msg, "unknown demo variant 'sv3'");
	assert_non_null(strstr(err.hint, "did you mean 'sv"));
	demo_run_release(dr);
	memset(dr, 0, sizeof(*dr));
	d.variants = "vec";
	assert_int_equal(demo_plan(dr, &d, "/x/r1cs-synth", &err), -1);
	assert_string_equal(err.msg, "the demo needs at least two variants, got 1");
	demo_run_release(dr);
	free(dr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_rule_sequential),
		cmocka_unit_test(test_blocks_fixed),
		cmocka_unit_test(test_target_ci_precision_unless_decide),
		cmocka_unit_test(test_variant_names),
		cmocka_unit_test(test_regressions),
		cmocka_unit_test(test_demo_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
