/*
 * Unit tests for the capacity-aware planner: groups fit each uarch's
 * counters (from the catalogue), anchors are in every group, metric units
 * stay together, counter restrictions (Intel events on counters 0-3) are
 * honoured, the NMI watchdog's counter is left free, rotation is block mod
 * G, and the dry-run rendering shows every attr. On a hybrid part each core
 * PMU gets groups of its own capacity, with its own anchors and leaders,
 * and a run opens one group of each. Capacities come from the
 * catalogue data, so a wrong capacity in data/uarch fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "plan/groups.h"

struct planned {
	struct catalog cat;
	struct resolution r;
	struct plan_event *pe;
	struct plan p;
};

static void plan_for(struct planned *x, const char *uarch, const char *metrics, int watchdog)
{
	struct error err;
	struct plan_pmus pm;

	error_clear(&err);
	if (catalog_load(&x->cat, uarch, &err) < 0 ||
	    catalog_resolve(&x->cat, metrics, NULL, &x->r, &err) < 0)
		fail_msg("%s: %s", uarch, err.msg);
	x->pe = calloc(x->r.nevents + 1, sizeof(*x->pe));
	plan_events_from_resolution(&x->r, x->pe);
	/* one capacity per core PMU: two on a hybrid part */
	plan_pmus_from_catalog(&x->cat, watchdog, &pm);
	if (plan_build_pmus(x->pe, x->r.nevents, &pm, 0, &x->p, &err) < 0)
		fail_msg("%s: plan: %s", uarch, err.msg);
}

static void release(struct planned *x)
{
	plan_release(&x->p);
	free(x->pe);
	resolution_release(&x->r);
	catalog_release(&x->cat);
}

static int in_group(const struct plan_group *g, size_t ev)
{
	for (size_t k = 0; k < g->n; k++)
		if (g->ev[k] == ev)
			return 1;
	return 0;
}

static size_t ev_index(const struct resolution *r, const char *name)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].name, name))
			return i;
	fail_msg("no event %s", name);
	return 0;
}

/* Every chosen core event is in exactly one group (anchors: in all). */
static void check_cover(const struct planned *x)
{
	for (size_t i = 0; i < x->r.nevents; i++) {
		size_t in = 0;

		if (!x->pe[i].core)
			continue;
		for (size_t g = 0; g < x->p.ngroups; g++)
			in += in_group(&x->p.groups[g], i);
		if (x->pe[i].anchor ? in != x->p.ngroups : in != 1)
			fail_msg("event %s is in %zu of %zu groups", x->r.events[i].name, in,
				 x->p.ngroups);
	}
}

/* Hybrid: each PMU's anchors in every group, every other chosen core event
 * in one group at least (a PMU with fewer groups than G repeats its groups:
 * g mod G_p). */
static void check_cover_per_pmu(const struct planned *x)
{
	for (size_t i = 0; i < x->r.nevents; i++) {
		size_t in = 0;

		if (!x->pe[i].core)
			continue;
		for (size_t g = 0; g < x->p.ngroups; g++)
			in += in_group(&x->p.groups[g], i);
		if (x->pe[i].anchor ? in != x->p.ngroups : in < 1)
			fail_msg("event %s is in %zu of %zu groups", x->r.events[i].name, in,
				 x->p.ngroups);
	}
}

static void test_zen4_cache_preset(void **state)
{
	struct planned x = { 0 };
	size_t cyc, ins;

	(void)state;
	/* Zen 4: 6 GP, no fixed; watchdog off: 2 anchors + 4 per group. */
	plan_for(&x, "zen4", "cache", 0);
	cyc = ev_index(&x.r, "ls_not_halted_cyc");
	ins = ev_index(&x.r, "ex_ret_instr");
	assert_int_equal(x.p.gp, 6);
	for (size_t g = 0; g < x.p.ngroups; g++) {
		assert_true(x.p.groups[g].gp_used <= 6);
		assert_int_equal(x.p.groups[g].fixed_used, 0);
		assert_true(in_group(&x.p.groups[g], cyc));
		assert_true(in_group(&x.p.groups[g], ins));
	}
	check_cover(&x);
	/* cache: 6 distinct non-anchor events (llc-accesses' proxy is the
	 * l2-misses event) -> 2 groups of <= 4. */
	assert_int_equal(x.p.ngroups, 2);
	assert_int_equal(plan_group_of_block(&x.p, 0), 0);
	assert_int_equal(plan_group_of_block(&x.p, 5), 1);
	release(&x);
	/* With the watchdog holding a GP counter: 5 usable, noted. */
	plan_for(&x, "zen4", "cache", 1);
	assert_int_equal(x.p.gp, 5);
	for (size_t g = 0; g < x.p.ngroups; g++)
		assert_true(x.p.groups[g].gp_used <= 5);
	assert_int_equal(x.p.ngroups, 2);	/* 3 + 3 */
	assert_non_null(strstr(x.p.notes[0], "NMI watchdog holds a general-purpose counter"));
	check_cover(&x);
	release(&x);
}

static void test_intel_fixed_and_restrictions(void **state)
{
	struct planned x = { 0 };

	(void)state;
	/* Ice Lake-SP: anchors on fixed counters; cache events only on
	 * counters 0-3, so at most 4 restricted events per group even though
	 * there are 8 GP counters. */
	plan_for(&x, "icelakex", "cache,dram-fills,dtlb-misses", 0);
	assert_int_equal(x.p.gp, 8);
	for (size_t g = 0; g < x.p.ngroups; g++) {
		const struct plan_group *gr = &x.p.groups[g];
		size_t restricted = 0;

		assert_int_equal(gr->fixed_used, 2);
		for (size_t k = 0; k < gr->n; k++)
			restricted += x.pe[gr->ev[k]].counters == 0xf;
		assert_true(restricted <= 4);
	}
	check_cover(&x);
	/* dram-fills' two events stay in one group (a unit). */
	for (size_t g = 0; g < x.p.ngroups; g++)
		assert_int_equal(in_group(&x.p.groups[g],
					  ev_index(&x.r, "mem_load_l3_miss_retired.local_dram")),
				 in_group(&x.p.groups[g],
					  ev_index(&x.r, "mem_load_l3_miss_retired.remote_dram")));
	release(&x);
	/* Skylake-SP with HT: 4 GP; the watchdog takes the cycles fixed
	 * counter, so cycles needs a GP counter in every group. */
	plan_for(&x, "skylakex", "default", 1);
	for (size_t g = 0; g < x.p.ngroups; g++) {
		assert_int_equal(x.p.groups[g].fixed_used, 1);
		assert_true(x.p.groups[g].gp_used <= 4);
	}
	check_cover(&x);
	release(&x);
}

static void test_run_leaders_and_dry_run(void **state)
{
	struct planned x = { 0 };
	size_t *leader;
	struct event_spec *evs;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	plan_for(&x, "zen4", "default,l2-mpki", 0);
	leader = calloc(x.r.nevents, sizeof(size_t));
	plan_run_leaders(&x.p, 0, x.r.nevents, leader);
	for (size_t i = 0; i < x.r.nevents; i++) {
		if (!x.r.events[i].chosen)
			continue;
		if (!x.pe[i].core)	/* software events count alone, every run */
			assert_true(leader[i] == i);
		else
			assert_true(leader[i] == x.p.groups[0].ev[0]);
	}
	evs = calloc(x.r.nevents, sizeof(*evs));
	for (size_t i = 0; i < x.r.nevents; i++)
		evs[i] = x.r.events[i].spec;
	plan_render_dry_run(&x.p, evs, NULL, x.r.nevents, &sb);
	assert_non_null(strstr(sb.buf, "counter plan: 1 group of at most 6 general-purpose + 0 fixed"));
	assert_non_null(strstr(sb.buf, "leader ls_not_halted_cyc\n           pmu cpu  type 4  config 0x76"));
	assert_non_null(strstr(sb.buf, "member l2_cache_req_stat.ic_dc_miss_in_l2\n           pmu cpu  type 4  config 0x964"));
	assert_non_null(strstr(sb.buf, "alone  task-clock\n           pmu software  type 1  config 0x1"));
	strbuf_release(&sb);
	free(evs);
	free(leader);
	release(&x);
}

/* Arrow Lake-H (no host: the catalogue's three core PMUs): cpu_core 10 + 4,
 * cpu_atom and cpu_lowpower 8 + 3; every group led on its own PMU. */
static void test_three_core_pmus(void **state)
{
	struct planned x = { 0 };
	size_t lead[3];

	(void)state;
	plan_for(&x, "arrowlake", "cache,dtlb-misses,itlb-misses", 0);
	lead[0] = ev_index(&x.r, "cpu_clk_unhalted.thread_p");
	lead[1] = ev_index(&x.r, "atom.cpu_clk_unhalted.core_p");
	lead[2] = ev_index(&x.r, "lp.cpu_clk_unhalted.core_p");
	assert_int_equal(x.p.npmus, 3);
	assert_int_equal(x.p.gp_by[0], 10);
	assert_int_equal(x.p.gp_by[1], 8);
	assert_int_equal(x.p.gp_by[2], 8);
	assert_int_equal(x.p.fixed_by[2], 3);
	for (size_t p = 0; p < 3; p++)
		assert_int_equal(x.pe[lead[p]].pmu, (int)p);
	for (size_t g = 0; g < x.p.ngroups; g++) {
		const struct plan_group *gr = &x.p.groups[g];

		assert_true(gr->gp_by[0] <= 10 && gr->gp_by[1] <= 8 && gr->gp_by[2] <= 8);
		assert_true(gr->gp_by[2] > 0);	/* the low-power E-cores are counted too */
		for (size_t k = 0; k < gr->n; k++)
			assert_int_equal(gr->lead[k], lead[x.pe[gr->ev[k]].pmu]);
	}
	check_cover_per_pmu(&x);
	release(&x);
}

/* Alder Lake: cpu_core (8 GP + 4 fixed) and cpu_atom (6 GP + 3 fixed). */
static void test_hybrid_per_pmu(void **state)
{
	struct planned x = { 0 };
	size_t cyc_core, cyc_atom, *leader;
	struct event_spec *evs;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	plan_for(&x, "alderlake", "cache,dtlb-misses,itlb-misses", 0);
	cyc_core = ev_index(&x.r, "cpu_clk_unhalted.thread_p");
	cyc_atom = ev_index(&x.r, "atom.cpu_clk_unhalted.core_p");
	assert_int_equal(x.p.npmus, 2);
	assert_int_equal(x.p.gp_by[0], 8);
	assert_int_equal(x.p.fixed_by[0], 4);
	assert_int_equal(x.p.gp_by[1], 6);
	assert_int_equal(x.p.fixed_by[1], 3);
	assert_true(x.pe[cyc_atom].pmu == 1 && x.pe[cyc_core].pmu == 0);
	check_cover_per_pmu(&x);
	leader = calloc(x.r.nevents, sizeof(size_t));
	for (size_t g = 0; g < x.p.ngroups; g++) {
		const struct plan_group *gr = &x.p.groups[g];
		unsigned restricted[2] = { 0, 0 }, leaders[2] = { 0, 0 };

		assert_true(gr->gp_by[0] <= 8 && gr->gp_by[1] <= 6);
		for (size_t k = 0; k < gr->n; k++) {
			const struct plan_event *e = &x.pe[gr->ev[k]];

			/* a group never spans PMUs: the leader is on the member's PMU */
			assert_int_equal(x.pe[gr->lead[k]].pmu, e->pmu);
			assert_true(gr->lead[k] == cyc_core || gr->lead[k] == cyc_atom);
			restricted[e->pmu] += e->counters == 0xf;
			leaders[e->pmu] += gr->lead[k] == gr->ev[k];
		}
		assert_true(restricted[0] <= 4 && restricted[1] <= 4);
		assert_true(leaders[0] == 1 && leaders[1] == 1);	/* one group per PMU */
		plan_run_leaders(&x.p, g, x.r.nevents, leader);
		for (size_t i = 0; i < x.r.nevents; i++)
			if (x.pe[i].core && leader[i] != PLAN_NOT_COUNTED)
				assert_true(leader[i] == (x.pe[i].pmu ? cyc_atom : cyc_core));
	}
	evs = calloc(x.r.nevents, sizeof(*evs));
	for (size_t i = 0; i < x.r.nevents; i++)
		evs[i] = x.r.events[i].spec;
	plan_render_dry_run(&x.p, evs, NULL, x.r.nevents, &sb);
	assert_non_null(strstr(sb.buf, "(cpu_core: 8 general-purpose + 4 fixed; cpu_atom: 6 "
				       "general-purpose + 3 fixed) counters, one group per core PMU"));
	assert_non_null(strstr(sb.buf, "leader atom.cpu_clk_unhalted.core_p\n           pmu cpu_atom"));
	strbuf_release(&sb);
	free(evs);
	free(leader);
	release(&x);
}

/* One PMU needing more groups than the other: run group g opens g mod G_p. */
static void test_hybrid_rotation(void **state)
{
	struct plan_event ev[6] = {
		{ .core = 1, .anchor = 1, .fixed = 1, .unit = -1, .pmu = 0 },
		{ .core = 1, .unit = -1, .pmu = 0 },
		{ .core = 1, .anchor = 1, .unit = -1, .pmu = 1 },
		{ .core = 1, .unit = -1, .pmu = 1 },
		{ .core = 1, .unit = -1, .pmu = 1 },
		{ .core = 1, .unit = -1, .pmu = 1 },
	};
	struct plan_pmus pm = { 2, { { 4, 1, 0 }, { 2, 0, 0 } }, { "cpu_core", "cpu_atom" } };
	struct plan p;
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(plan_build_pmus(ev, 6, &pm, 0, &p, &err), 0);
	/* cpu_atom: anchor + 1 per group of 2 -> 3 groups; cpu_core fits one */
	assert_int_equal(p.ngroups, 3);
	for (size_t g = 0; g < 3; g++) {
		assert_true(in_group(&p.groups[g], 0) && in_group(&p.groups[g], 1));
		assert_true(in_group(&p.groups[g], 2));
		assert_int_equal(in_group(&p.groups[g], 3 + g), 1);
	}
	assert_non_null(strstr(p.notes[0], "3 counter groups rotate"));
	plan_release(&p);
	/* --multiplex: a short time_running is ambiguous there, and said so */
	assert_int_equal(plan_build_pmus(ev, 6, &pm, 1, &p, &err), 0);
	assert_non_null(strstr(p.notes[p.nnotes - 1], "cannot be told apart"));
	plan_release(&p);
}

static void test_unschedulable(void **state)
{
	/* Two anchors restricted to counter 0 cannot share a group. */
	struct plan_event ev[2] = {
		{ .core = 1, .anchor = 1, .counters = 1, .unit = -1 },
		{ .core = 1, .anchor = 1, .counters = 1, .unit = -1 },
	};
	struct plan_capacity cap = { 4, 0, 0 };
	struct plan p;
	struct error err;

	(void)state;
	error_clear(&err);
	/* anchors alone do not fit: the group is still made (the kernel will
	 * refuse it visibly), but a third event restricted to counter 0 fails. */
	{
		struct plan_event ev3[3] = { ev[0], { .core = 1, .counters = 1, .unit = -1 },
					     { .core = 1, .counters = 1, .unit = -1 } };

		ev3[0].anchor = 1;
		assert_int_equal(plan_build(ev3, 3, &cap, 0, &p, &err), -1);
		assert_int_equal(err.kind, ERR_USAGE);
		assert_non_null(strstr(err.hint, "nmi_watchdog"));
	}
}

/* Golden attr test (like perf's tests/shell/attr): Sapphire Rapids, default. */
static void test_dry_run_golden(void **state)
{
	struct catalog cat;
	struct strbuf sb = STRBUF_INIT;
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(catalog_load(&cat, "sapphirerapids", &err), 0);
	assert_int_equal(plan_dry_run_metrics(&cat, "default", NULL, 0, 0, &sb, &err), 0);
	assert_non_null(strstr(sb.buf, "uarch sapphirerapids: metrics default\n"
				       "counter plan: 1 group of at most 8 general-purpose + 4 fixed counters\n"
				       "  group 0 (2 general-purpose, 2 fixed):\n"));
	assert_non_null(strstr(sb.buf, "leader cpu_clk_unhalted.thread_p\n"
				       "           pmu cpu  type 4  config 0x3c  config1 0  config2 0"));
	assert_non_null(strstr(sb.buf, "member inst_retired.any_p\n           pmu cpu  type 4  config 0xc0"));
	assert_non_null(strstr(sb.buf, "member br_misp_retired.all_branches\n           pmu cpu  type 4  config 0xc5"));
	assert_non_null(strstr(sb.buf, "alone  context-switches\n           pmu software  type 1  config 0x3"));
	strbuf_release(&sb);
	/* Zen 4 memory preset: the llc-misses fallback is a note. */
	catalog_release(&cat);
	assert_int_equal(catalog_load(&cat, "zen4", &err), 0);
	assert_int_equal(plan_dry_run_metrics(&cat, "memory", NULL, 1, 0, &sb, &err), 0);
	assert_non_null(strstr(sb.buf, "note: llc-misses: counted as demand data-cache fills"));
	assert_non_null(strstr(sb.buf, "note: the NMI watchdog holds a general-purpose counter"));
	assert_null(strstr(sb.buf, "l3_lookup_state.l3_miss\n"));	/* described, never opened */
	strbuf_release(&sb);
	catalog_release(&cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zen4_cache_preset),
		cmocka_unit_test(test_intel_fixed_and_restrictions),
		cmocka_unit_test(test_run_leaders_and_dry_run),
		cmocka_unit_test(test_hybrid_per_pmu),
		cmocka_unit_test(test_three_core_pmus),
		cmocka_unit_test(test_hybrid_rotation),
		cmocka_unit_test(test_unschedulable),
		cmocka_unit_test(test_dry_run_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
