/*
 * Unit tests for backend/sim_select: the backend table of sim_select.h as a
 * table of cases (mode, metric class, host capabilities -> backend and the
 * words of the reason), and the run planning of --backend sim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backend/sim_select.h"

enum { HW = 1, SIMUL = 2, VG = 4, REQ = 8 };	/* capability bits of a case */

static const struct choose_case {
	enum backend_mode mode;
	enum metric_class cls;
	unsigned caps;
	enum backend_kind want;
	const char *reason;	/* substring of the reason, "" = must be empty */
} cases[] = {
	/* auto: hardware when it opens, else simulated, else not measured */
	{ BACKEND_AUTO, MCLASS_HARDWARE, HW | SIMUL | VG, BK_PERF, "" },
	{ BACKEND_AUTO, MCLASS_HARDWARE, SIMUL | VG | REQ, BK_SIM, "simulated by cachegrind" },
	{ BACKEND_AUTO, MCLASS_HARDWARE, SIMUL | VG, BK_NONE, "only metrics named with -m" },
	{ BACKEND_AUTO, MCLASS_HARDWARE, SIMUL | REQ, BK_NONE, "valgrind is not installed" },
	{ BACKEND_AUTO, MCLASS_HARDWARE, VG, BK_NONE, "cachegrind does not simulate it" },
	{ BACKEND_AUTO, MCLASS_SOFTWARE, 0, BK_PERF, "" },
	{ BACKEND_AUTO, MCLASS_CALL, 0, BK_CALL, "" },
	{ BACKEND_AUTO, MCLASS_PROCESS, 0, BK_PROCESS, "" },
	/* hw: never simulates */
	{ BACKEND_HW, MCLASS_HARDWARE, HW | SIMUL | VG, BK_PERF, "" },
	{ BACKEND_HW, MCLASS_HARDWARE, SIMUL | VG, BK_NONE, "--backend hw never simulates" },
	{ BACKEND_HW, MCLASS_SOFTWARE, 0, BK_PERF, "" },
	{ BACKEND_HW, MCLASS_CALL, 0, BK_CALL, "" },
	/* sim: simulates even what the hardware could count */
	{ BACKEND_SIM, MCLASS_HARDWARE, HW | SIMUL | VG, BK_SIM, "" },
	{ BACKEND_SIM, MCLASS_HARDWARE, SIMUL | VG, BK_SIM, "" },
	{ BACKEND_SIM, MCLASS_HARDWARE, HW | VG, BK_NONE, "cachegrind does not simulate it" },
	{ BACKEND_SIM, MCLASS_SOFTWARE, VG, BK_PERF, "" },
	{ BACKEND_SIM, MCLASS_CALL, VG, BK_CALL, "" },
	/* sw: software only */
	{ BACKEND_SW, MCLASS_HARDWARE, HW | SIMUL | VG, BK_NONE, "software events only" },
	{ BACKEND_SW, MCLASS_SOFTWARE, 0, BK_PERF, "" },
	{ BACKEND_SW, MCLASS_CALL, 0, BK_CALL, "" },
};

static struct backend_caps caps_of(unsigned bits)
{
	struct backend_caps c = { !!(bits & HW), !!(bits & SIMUL), !!(bits & VG), !!(bits & REQ) };

	return c;
}

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct choose_case *k = &cases[i];
		struct backend_caps c = caps_of(k->caps);
		struct backend_choice ch;
		struct error err;

		if (backend_choose(k->mode, k->cls, &c, &ch, &err))
			fail_msg("case %zu: %s", i, err.msg);
		if (ch.kind != k->want)
			fail_msg("case %zu (%s): %s, want %s", i, backend_mode_name(k->mode),
				 backend_kind_name(ch.kind), backend_kind_name(k->want));
		if (*k->reason ? !strstr(ch.reason, k->reason) : *ch.reason != '\0')
			fail_msg("case %zu: reason '%s', want '%s'", i, ch.reason, k->reason);
		if (ch.kind == BK_NONE && !*ch.hint)
			fail_msg("case %zu: not measured, but no hint", i);
	}
}

/* --backend sim without valgrind cannot work at all: one error, up front. */
static void test_sim_needs_valgrind(void **state)
{
	struct backend_caps c = caps_of(HW | SIMUL);
	struct backend_choice ch;
	struct error err;

	(void)state;
	assert_int_equal(backend_choose(BACKEND_SIM, MCLASS_HARDWARE, &c, &ch, &err), -1);
	assert_string_equal(err.msg, "cannot simulate: valgrind is not installed");
	assert_non_null(strstr(err.hint, "apt-get install valgrind"));
	assert_int_equal(backend_choose(BACKEND_AUTO, MCLASS_HARDWARE, &c, &ch, &err), 0);
	assert_int_equal(ch.kind, BK_PERF);
}

static void plan(enum backend_mode mode, const enum metric_class *cls, const unsigned *bits,
		 size_t n, struct backend_choice *ch, int *native, int *sim)
{
	struct backend_caps caps[8];
	struct error err;

	for (size_t i = 0; i < n; i++) {
		caps[i] = caps_of(bits[i]);
		assert_int_equal(backend_choose(mode, cls[i], &caps[i], &ch[i], &err), 0);
	}
	backend_plan_runs(mode, cls, caps, ch, n, native, sim);
}

static void test_plan_runs(void **state)
{
	const enum metric_class cls[] = { MCLASS_PROCESS, MCLASS_HARDWARE, MCLASS_HARDWARE,
					   MCLASS_SOFTWARE };
	const unsigned all_sim[] = { VG, SIMUL | VG, SIMUL | VG, VG };
	const unsigned named_sim[] = { VG, SIMUL | VG | REQ, SIMUL | VG, VG };
	const unsigned asked_time[] = { VG | REQ, SIMUL | VG, SIMUL | VG, VG };
	struct backend_choice ch[4];
	int native, sim;

	(void)state;
	/* sim with only simulated metrics: no native runs, wall-time not measured. */
	plan(BACKEND_SIM, cls, all_sim, 3, ch, &native, &sim);
	assert_false(native);
	assert_true(sim);
	assert_int_equal(ch[0].kind, BK_NONE);
	assert_non_null(strstr(ch[0].reason, "time under simulation is not the program's"));
	/* ... unless wall-time is asked for, or a software metric needs native runs. */
	plan(BACKEND_SIM, cls, asked_time, 3, ch, &native, &sim);
	assert_true(native && sim);
	assert_int_equal(ch[0].kind, BK_PROCESS);
	plan(BACKEND_SIM, cls, all_sim, 4, ch, &native, &sim);
	assert_true(native && sim);
	assert_int_equal(ch[0].kind, BK_PROCESS);
	/* auto on a host without a PMU: native runs plus simulated ones, for
	 * the metrics named with -m only. */
	plan(BACKEND_AUTO, cls, named_sim, 4, ch, &native, &sim);
	assert_true(native && sim);
	assert_int_equal(ch[1].kind, BK_SIM);
	assert_int_equal(ch[2].kind, BK_NONE);
	plan(BACKEND_AUTO, cls, all_sim, 4, ch, &native, &sim);
	assert_true(native);
	assert_false(sim);
	/* hw: never simulated runs. */
	plan(BACKEND_HW, cls, all_sim, 4, ch, &native, &sim);
	assert_true(native);
	assert_false(sim);
}

static void test_names(void **state)
{
	enum backend_mode m;
	struct error err;

	(void)state;
	assert_int_equal(backend_mode_parse("sim", &m, &err), 0);
	assert_int_equal(m, BACKEND_SIM);
	assert_string_equal(backend_mode_name(BACKEND_SW), "sw");
	assert_int_equal(backend_mode_parse("simulate", &m, &err), -1);
	assert_string_equal(err.msg, "unknown backend 'simulate'");
	assert_string_equal(err.hint, "use --backend auto, hw, sim or sw");
	assert_string_equal(backend_kind_name(BK_SIM), "sim");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_sim_needs_valgrind),
		cmocka_unit_test(test_plan_runs),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
