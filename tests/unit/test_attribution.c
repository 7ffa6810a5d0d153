/*
 * Unit tests for analysis/attribution: constructed results whose answer is
 * known. A variant that spends a fixed extra time in one function must have
 * that function first, with an interval excluding 0 and its share of the
 * wall-time change; functions absent from some runs count as 0 there; and
 * over many seeded A/A campaigns the Holm-controlled family flags some
 * function in at most about 5% of them (each campaign's noise is drawn from
 * a seeded generator, so the test cannot flake).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/rng.h"
#include "core/strbuf.h"
#include "analysis/analysed.h"
#include "analysis/attribution.h"
#include "report/profile.h"
#include "result/result.h"

static double gauss(struct rng *r)
{
	double u = rng_double(r), v = rng_double(r);

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* Two variants, blocks of A then B; functions f0..fn-1 with base times
 * (ns), B adds extra[k] to function k, each value with sd noise ns. */
static void build(struct result *r, size_t nblocks, const double *base, const double *extra,
		  size_t nfn, double noise, uint64_t seed)
{
	char *argv[] = { "prog", NULL };
	struct rng g;

	rng_init(&g, seed);
	result_init(r, "compare");
	result_add_variant(r, "A", argv);
	result_add_variant(r, "B", argv);
	r->baseline = 0;
	r->noise_band = 0.01;
	result_add_metric(r, "wall-time", "ns", MSRC_CLOCK);
	result_add_metric(r, PROFILE_SAMPLES, "", MSRC_PROFILE)->hidden = 1;
	for (size_t k = 0; k < nfn; k++) {
		char name[32];

		snprintf(name, sizeof(name), "%sf%zu", PROFILE_SELF, k);
		result_add_metric(r, name, "ns", MSRC_PROFILE)->hidden = 1;
	}
	for (size_t b = 0; b < nblocks; b++)
		for (int v = 0; v < 2; v++) {
			struct result_run *run = result_add_run(r);
			double wall = 0;

			run->block = (int)b;
			run->variant = v;
			run->status = RUN_OK;
			for (size_t k = 0; k < nfn; k++) {
				double x = base[k] + (v ? extra[k] : 0) + noise * gauss(&g);

				run = &r->runs[r->nruns - 1];
				if (x > 0) {	/* not sampled: no value, which means 0 */
					run->values[2 + k].valid = 1;
					run->values[2 + k].value = x;
				}
				wall += x > 0 ? x : 0;
			}
			run->values[0].valid = 1;
			run->values[0].value = wall + 1e6;
			run->values[1].valid = 1;
			run->values[1].value = 100;
		}
}

/* The share is of the profiled change: a wall-time change no sample saw
 * (the variant also waits 100 ms) leaves f1's share at about 100%. */
static void test_share_of_profiled_change(void **state)
{
	const double base[] = { 50e6, 30e6, 5e6, 0 }, extra[] = { 0, 20e6, 0, 0 };
	struct attribution_set s;
	struct result r;

	(void)state;
	build(&r, 12, base, extra, 4, 1e6, 7);
	for (size_t i = 0; i < r.nruns; i++)
		if (r.runs[i].variant == 1)
			r.runs[i].values[0].value += 100e6;
	attribution_compute(&r, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(r.metrics[s.a[0].fn[0].metric].name, "self:f1");
	assert_true(s.a[0].fn[0].share > 0.8 && s.a[0].fn[0].share < 1.2);
	attribution_release(&s);
	result_release(&r);
}

/* A simulated function recorded in A (48 M instructions) but below the
 * 0.1% recording threshold in B (whose runs have 10 G instructions, so B
 * ran it fewer than 10 M times): its change is a range, never "-100%". */
static void test_sim_below_threshold(void **state)
{
	char *argv[] = { "prog", NULL };
	struct strbuf out = STRBUF_INIT;
	struct table_opts o;
	struct result r;

	(void)state;
	memset(&o, 0, sizeof(o));
	result_init(&r, "compare");
	result_add_variant(&r, "A", argv);
	result_add_variant(&r, "B", argv);
	r.baseline = 0;
	result_add_metric(&r, "instructions", "", MSRC_SIM);
	result_add_metric(&r, PROFILE_SIM "instructions:operator new", "", MSRC_PROFILE)->hidden = 1;
	result_add_metric(&r, PROFILE_SIM "instructions:main", "", MSRC_PROFILE)->hidden = 1;
	for (int v = 0; v < 2; v++)
		for (int k = 0; k < 2; k++) {
			struct result_run *run = result_add_run(&r);

			run->variant = v;
			run->block = k;
			run->simulated = 1;
			run->status = RUN_OK;
			run->values[0].valid = run->values[2].valid = 1;
			run->values[0].value = v ? 10e9 : 9e9;
			run->values[2].value = v ? 9.99e9 : 8.9e9;
			run->values[1].valid = !v;
			run->values[1].value = 48e6;
		}
	{
		struct analysed an;

		analysed_build(&r, &an);
		report_sim_attribution(&an, &o, &out);
		analysed_release(&an);
	}
	if (strstr(out.buf, "-100") || !strstr(out.buf, "-48000000..-38000000"))
		fail_msg("the table says:\n%s", out.buf);
	strbuf_release(&out);
	result_release(&r);
}

static void test_known_extra(void **state)
{
	const double base[] = { 50e6, 30e6, 5e6, 0 }, extra[] = { 0, 20e6, 0, 0 };
	struct attribution_set s;
	struct result r;

	(void)state;
	build(&r, 12, base, extra, 4, 1e6, 7);
	attribution_compute(&r, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.a[0].variant, 1);
	assert_int_equal(s.a[0].blocks, 12);
	assert_string_equal(r.metrics[s.a[0].fn[0].metric].name, "self:f1");
	assert_true(s.a[0].fn[0].lo > 0);
	assert_true(s.a[0].fn[0].delta > 18e6 && s.a[0].fn[0].delta < 22e6);
	assert_true(s.a[0].fn[0].significant);
	/* f1 carries about all of the wall-time change. */
	assert_true(s.a[0].fn[0].share > 0.8 && s.a[0].fn[0].share < 1.2);
	/* f3 never ran: below the size threshold, not shown. */
	for (size_t i = 0; i < s.a[0].nfn; i++)
		assert_string_not_equal(r.metrics[s.a[0].fn[i].metric].name, "self:f3");
	attribution_release(&s);
	result_release(&r);
}

/* A function B no longer calls at all: its values are absent (0), and the
 * change is its whole time, negative. */
static void test_absent_is_zero(void **state)
{
	const double base[] = { 40e6, 10e6 }, extra[] = { 0, -10e6 };
	struct attribution_set s;
	struct result r;

	(void)state;
	build(&r, 8, base, extra, 2, 1e5, 3);
	attribution_compute(&r, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(r.metrics[s.a[0].fn[0].metric].name, "self:f1");
	assert_true(fabs(s.a[0].fn[0].delta + 10e6) < 2e5);
	assert_true(s.a[0].fn[0].mean_b < 1e5);
	attribution_release(&s);
	result_release(&r);
}

/* A/A over 400 seeded campaigns of 10 blocks and 6 functions: the family
 * flags a function in at most 5% of campaigns, plus sampling slack. */
static void test_aa_false_positives(void **state)
{
	const double base[] = { 40e6, 30e6, 20e6, 10e6, 5e6, 2e6 }, zero[6] = { 0 };
	unsigned flagged = 0, campaigns = 400;

	(void)state;
	for (unsigned c = 0; c < campaigns; c++) {
		struct attribution_set s;
		struct result r;
		int any = 0;

		build(&r, 10, base, zero, 6, 2e6, 1000 + c);
		attribution_compute(&r, &s);
		for (size_t i = 0; s.n && i < s.a[0].nfn; i++)
			any |= s.a[0].fn[i].significant;
		flagged += any;
		attribution_release(&s);
		result_release(&r);
	}
	print_message("A/A: some function flagged in %u of %u campaigns\n", flagged, campaigns);
	assert_true(flagged <= campaigns * 0.075);
}

/* No profiled run: nothing to say, no section. */
static void test_no_profile(void **state)
{
	struct attribution_set s;
	struct strbuf out = STRBUF_INIT;
	struct table_opts o = { 0 };
	struct result r;
	char *argv[] = { "prog", NULL };

	(void)state;
	result_init(&r, "compare");
	result_add_variant(&r, "A", argv);
	result_add_variant(&r, "B", argv);
	attribution_compute(&r, &s);
	assert_int_equal(s.n, 0);
	{
		struct analysed an;

		analysed_build(&r, &an);
		report_attribution(&an, &o, &out);
		analysed_release(&an);
	}
	assert_int_equal(out.len, 0);
	attribution_release(&s);
	strbuf_release(&out);
	result_release(&r);
}

/*
 * The top functions and the pairs, without noise: A spends 50, 30 and 5 ms
 * in f0, f1, f2 per run, B 20 ms more in f1. The top of all profiled runs
 * (3 blocks x 2 variants) is f0 50, f1 40 (30 and 50 averaged), f2 5; the
 * total 95 ms; no incl: metric, so no inclusive time. Block 1's B run has
 * no sample count (not profiled): the pairs are blocks 0 and 2.
 */
/* The heading's wall-time change is the timed runs', paired by block: the
 * profiled runs are blocks of their own whose wall time is not valid (it
 * read +0 ns for every variant). */
static void test_wall_from_timed_runs(void **state)
{
	const double base[] = { 50e6 }, extra[] = { 20e6 };
	struct attribution_set s;
	struct result r;

	(void)state;
	build(&r, 3, base, extra, 1, 0, 1);
	for (size_t i = 0; i < r.nruns; i++) {
		r.runs[i].instrumented = 1;
		r.runs[i].values[0].valid = 0;
	}
	for (int b = 0; b < 4; b++)
		for (int v = 0; v < 2; v++) {
			struct result_run *run = result_add_run(&r);

			run->block = 10 + b;
			run->variant = v;
			run->status = RUN_OK;
			run->values[0].valid = 1;
			run->values[0].value = 100e6 + 1e6 * b + (v ? 30e6 : 0);
		}
	/* blocks where B's run is a warm-up or failed do not count */
	for (int k = 0; k < 4; k++) {
		struct result_run *run = result_add_run(&r);

		run->block = 20 + k / 2;
		run->variant = k % 2;
		run->warmup = k == 1;
		run->status = k == 3 ? RUN_FAILED : RUN_OK;
		run->values[0].valid = 1;
		run->values[0].value = k % 2 ? 1e12 : 100e6;
	}
	attribution_compute(&r, &s);
	assert_int_equal(s.n, 1);
	assert_true(fabs(s.a[0].dwall - 30e6) < 1e-3);
	assert_int_equal(s.a[0].blocks, 3);
	attribution_release(&s);
	result_release(&r);
}

static void test_top_and_pairs(void **state)
{
	const double base[] = { 50e6, 30e6, 5e6 }, extra[] = { 0, 20e6, 0 };
	struct attribution_top *t;
	struct attribution_pairs p;
	size_t n, runs;
	double total;
	struct result r;

	(void)state;
	build(&r, 3, base, extra, 3, 0, 1);
	n = attribution_top(&r, &t, &runs, &total);
	assert_int_equal(n, 3);
	assert_int_equal(runs, 6);
	assert_string_equal(r.metrics[t[0].metric].name, "self:f0");
	assert_true(fabs(t[0].mean - 50e6) < 1e-3);
	assert_string_equal(r.metrics[t[1].metric].name, "self:f1");
	assert_true(fabs(t[1].mean - 40e6) < 1e-3);
	assert_true(fabs(t[2].mean - 5e6) < 1e-3);
	assert_true(fabs(total - 95e6) < 1e-3);
	assert_true(isnan(t[0].incl));
	free(t);
	r.runs[3].values[1].valid = 0;	/* block 1, B: no profile */
	attribution_pairs(&r, 1, &p);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.ia[0], 0);
	assert_int_equal(p.ib[0], 1);
	assert_int_equal(p.ia[1], 4);
	assert_int_equal(p.ib[1], 5);
	attribution_pairs_release(&p);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_and_pairs),
		cmocka_unit_test(test_wall_from_timed_runs),
		cmocka_unit_test(test_known_extra),
		cmocka_unit_test(test_share_of_profiled_change),
		cmocka_unit_test(test_sim_below_threshold),
		cmocka_unit_test(test_absent_is_zero),
		cmocka_unit_test(test_aa_false_positives),
		cmocka_unit_test(test_no_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
