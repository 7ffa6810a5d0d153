/*
 * Hybrid parts in the result: a metric on one core type (cpu_core,
 * cpu_atom) whose time_running is short of time_enabled counted while the
 * threads ran on that type, so its value is used as it is, never taken for
 * multiplexing; a plain perf metric in the same state is left out. And a
 * run's placement (which core types its threads ran on, for how long) is
 * read from those times.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "result/result.h"

static struct result_metric *perf_metric(struct result *r, const char *name, const char *pmu,
					 int core_type)
{
	struct result_metric *m = result_add_metric(r, name, "", MSRC_PERF);

	m->pmu = xstrdup(pmu);
	m->scale = 1.0;
	m->core_type = core_type;
	return m;
}

static void set(struct result_run *run, size_t m, double value, uint64_t enabled,
		uint64_t running)
{
	run->values[m].valid = 1;
	run->values[m].value = value;
	run->values[m].enabled = enabled;
	run->values[m].running = running;
}

static void test_core_type_not_multiplexed(void **state)
{
	struct result r;
	struct result_run *run;

	(void)state;
	result_init(&r, "stat");
	result_add_variant(&r, "A", NULL);
	perf_metric(&r, "inst_retired.any_p", "cpu_core", 1);
	perf_metric(&r, "atom.inst_retired.any_p", "cpu_atom", 1);
	perf_metric(&r, "cpu/event=0xc0/", "cpu", 0);
	run = result_add_run(&r);
	set(run, 0, 900, 1000, 600);	/* 60% of the time on P-cores */
	set(run, 1, 200, 1000, 400);
	set(run, 2, 500, 1000, 600);	/* a plain counter, time-shared */
	assert_true(result_value_usable(&r, run, 0));
	assert_true(result_value_usable(&r, run, 1));
	assert_false(result_value_usable(&r, run, 2));
	assert_false(result_value_multiplexed(&r, 0, &run->values[0]));
	assert_true(result_value_multiplexed(&r, 2, &run->values[2]));
	result_release(&r);
}

static void test_placement(void **state)
{
	struct result r;
	struct result_run *one, *both;
	const char *pmus[4];
	double frac[4];
	size_t n;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	result_init(&r, "stat");
	result_add_variant(&r, "A", NULL);
	perf_metric(&r, "cpu_clk_unhalted.thread_p", "cpu_core", 1);
	perf_metric(&r, "inst_retired.any_p", "cpu_core", 1);
	perf_metric(&r, "atom.cpu_clk_unhalted.core_p", "cpu_atom", 1);
	perf_metric(&r, "task-clock", "software", 0);
	one = result_add_run(&r);
	set(one, 0, 1e6, 1000, 1000);
	set(one, 1, 2e6, 1000, 1000);
	set(one, 2, 0, 1000, 0);
	set(one, 3, 1e6, 1000, 1000);
	both = result_add_run(&r);
	set(both, 0, 6e5, 1000, 620);
	set(both, 1, 1e6, 1000, 600);
	set(both, 2, 3e5, 1000, 380);
	set(both, 3, 1e6, 1000, 1000);
	assert_int_equal(result_run_placement(&r, one, pmus, frac, 4, &n), 1);
	assert_int_equal(n, 2);	/* both types seen, one ran */
	assert_string_equal(pmus[0], "cpu_core");
	assert_string_equal(pmus[1], "cpu_atom");
	result_placement_text(&sb, pmus, frac, n);
	assert_string_equal(sb.buf, "cpu_core (100% of the time)");
	strbuf_reset(&sb);
	assert_int_equal(result_run_placement(&r, both, pmus, frac, 4, &n), 3);
	result_placement_text(&sb, pmus, frac, n);
	assert_string_equal(sb.buf, "cpu_core (62% of the time) and cpu_atom (38% of the time)");
	/* a result with no core-type metric has no placement */
	r.metrics[0].core_type = r.metrics[1].core_type = r.metrics[2].core_type = 0;
	assert_int_equal(result_run_placement(&r, both, pmus, frac, 4, &n), 0);
	assert_int_equal(n, 0);
	strbuf_release(&sb);
	result_release(&r);
}

/* Arrow Lake-H: three core types in one run, said as a list. */
static void test_placement_three_types(void **state)
{
	struct result r;
	struct result_run *run;
	const char *pmus[4];
	double frac[4];
	size_t n;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	result_init(&r, "stat");
	result_add_variant(&r, "A", NULL);
	perf_metric(&r, "inst_retired.any_p", "cpu_core", 1);
	perf_metric(&r, "atom.inst_retired.any_p", "cpu_atom", 1);
	perf_metric(&r, "lp.inst_retired.any_p", "cpu_lowpower", 1);
	run = result_add_run(&r);
	set(run, 0, 6e5, 1000, 500);
	set(run, 1, 3e5, 1000, 400);
	set(run, 2, 1e5, 1000, 100);
	assert_int_equal(result_run_placement(&r, run, pmus, frac, 4, &n), 7);
	assert_int_equal(n, 3);
	result_placement_text(&sb, pmus, frac, n);
	assert_string_equal(sb.buf, "cpu_core (50% of the time), cpu_atom (40% of the time) and "
			    "cpu_lowpower (10% of the time)");
	strbuf_release(&sb);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_type_not_multiplexed),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_placement_three_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
