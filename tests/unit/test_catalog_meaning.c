/*
 * One meaning per metric (docs/catalogue.md): every uarch file defines
 * every metric of the default and cache presets or documents why it
 * cannot; the definitions say what they count; the Intel files follow the
 * two choices written down there (l2-misses demand-only, umask 0x27;
 * l1d-accesses MEM_INST_RETIRED umask 0x83); the Arm files' event numbers
 * agree with the kernel's arm64 tables (libpfm4 4.13 cannot check them on
 * x86); the E-core encodings of Alder Lake and Meteor Lake agree with
 * Intel's event lists (libpfm4 4.13 has no table for them); and a hybrid part resolves each
 * metric to one event per core type, summed, with one part per type.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "host/sysfs.h"
#include "catalog_check.h"
#include "fixtures.h"

static const struct resolved_event *event(const struct resolution *r, const char *name)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].name, name))
			return &r->events[i];
	fail_msg("%s: event '%s' not in the resolution", r->uarch, name);
	return NULL;
}

/* ---- presets everywhere ------------------------------------------------ */

static void test_presets_everywhere(void **state)
{
	char **names = catalog_uarch_names();
	size_t files = 0;

	(void)state;
	for (size_t u = 0; names[u]; u++) {
		struct catalog cat;
		struct resolution r;

		load(&cat, names[u]);
		resolve(&cat, "default,cache", NULL, &r);
		for (size_t m = 0; m < r.nmetrics; m++) {
			const struct resolved_metric *rm = &r.metrics[m];

			if (rm->kind == MK_PROCESS || rm->available)
				continue;
			/* a documented gap: a chain step that says "unavailable" with
			 * its reason; "the catalogue has no event" is an undocumented one */
			if (!rm->nsteps || !rm->reason || !rm->steps[rm->nsteps - 1].reason ||
			    strstr(rm->reason, "the catalogue has no event"))
				fail_msg("%s: '%s' is neither defined nor documented as unavailable "
					 "(%s)", names[u], rm->name, rm->reason ? rm->reason : "no reason");
		}
		files++;
		resolution_release(&r);
		catalog_release(&cat);
	}
	assert_true(files >= 18);	/* 16 files (generic included) + 2 aliases */
	catalog_names_free(names);
}

/* ---- the definitions say what they count ------------------------------- */

static void test_definitions_say_what(void **state)
{
	static const struct {
		const char *metric, *words[3];
	} axes[] = {
		{ "instructions", { "retired" } },
		{ "branches", { "retired" } },
		{ "branch-misses", { "retired" } },
		{ "l1d-accesses", { "loads and stores", "counted once", "retired" } },
		{ "l1d-misses", { "demand and prefetch", "speculative" } },
		{ "l2-accesses", { "demand", "prefetches excluded", "speculative" } },
		{ "l2-misses", { "demand", "prefetches excluded", "speculative" } },
		{ "llc-accesses", { "demand and hardware prefetch", "speculative" } },
		{ "llc-misses", { "demand and hardware prefetch", "speculative" } },
		{ "dram-fills", { "demand loads", "prefetches not counted" } },
		{ "dtlb-misses", { "loads and stores", "completed" } },
	};
	struct catalog cat;
	struct resolution r;

	(void)state;
	load(&cat, "generic");
	resolve(&cat, "all", NULL, &r);
	for (size_t i = 0; i < sizeof(axes) / sizeof(axes[0]); i++)
		for (size_t k = 0; k < 3 && axes[i].words[k]; k++)
			if (!strstr(metric(&r, axes[i].metric)->desc, axes[i].words[k]))
				fail_msg("the definition of '%s' does not say '%s': %s", axes[i].metric,
					 axes[i].words[k], metric(&r, axes[i].metric)->desc);
	resolution_release(&r);
	catalog_release(&cat);
}

/* ---- Intel: the two choices of docs/catalogue.md ----------------------- */

/* The union of the umasks of metric m's chosen events on the PMU role
 * "core" with this event code; *n = how many such events. */
static unsigned core_umasks(const struct resolution *r, const char *m, unsigned code, size_t *n)
{
	const struct resolved_metric *rm = metric(r, m);
	unsigned u = 0;

	*n = 0;
	for (size_t k = 0; k < rm->nevents; k++) {
		const struct resolved_event *e = &r->events[rm->events[k]];

		if (strcmp(e->pmu_role, "core") || (e->spec.attr.config & 0xff) != code)
			continue;
		u |= (unsigned)((e->spec.attr.config >> 8) & 0xff);
		(*n)++;
	}
	return u;
}

static void test_intel_follows_definitions(void **state)
{
	static const char *const intel[] = {
		"skylake", "skylakex", "icelake", "icelakex", "sapphirerapids", "graniterapids",
		"alderlake",
	};

	(void)state;
	for (size_t u = 0; u < sizeof(intel) / sizeof(intel[0]); u++) {
		struct catalog cat;
		struct resolution r;
		size_t n;

		load(&cat, intel[u]);
		resolve(&cat, "l2-misses,l2-accesses,l1d-accesses", NULL, &r);
		/* L2_RQSTS (0x24): demand misses 0x27; demand references 0xe7
		 * (one event, or its three listed parts on alderlake) */
		assert_int_equal(core_umasks(&r, "l2-misses", 0x24, &n), 0x27);
		assert_int_equal(n, 1);
		assert_int_equal(core_umasks(&r, "l2-accesses", 0x24, &n), 0xe7);
		/* MEM_INST_RETIRED (0xd0): loads or stores, one event, so an
		 * instruction that does both counts once */
		assert_int_equal(core_umasks(&r, "l1d-accesses", 0xd0, &n), 0x83);
		assert_int_equal(n, 1);
		/* the departure from the kernel's metrics is said */
		assert_non_null(strstr(metric(&r, "l2-misses")->caveats[0], "0x3f"));
		resolution_release(&r);
		catalog_release(&cat);
	}
}

/*
 * Arrow Lake's Lion Cove names no L2_RQSTS.ALL_DEMAND_MISS (0x27),
 * ALL_DEMAND_REFERENCES (0xe7) nor MEM_INST_RETIRED 0x83 (perfmon ARL
 * arrowlake_lioncove_core.json V1.20): the same populations are summed from
 * their listed parts, and MEM_INST_RETIRED.ANY (0x87) is one event that also
 * counts software prefetches, which its caveat says.
 */
static void test_arrowlake_follows_definitions(void **state)
{
	struct catalog cat;
	struct resolution r;
	size_t n;

	(void)state;
	load(&cat, "arrowlake");
	resolve(&cat, "l2-misses,l2-accesses,l1d-accesses", NULL, &r);
	assert_int_equal(core_umasks(&r, "l2-misses", 0x24, &n), 0x27);
	assert_int_equal(n, 3);		/* 0x21 + 0x22 + 0x24 */
	assert_int_equal(core_umasks(&r, "l2-accesses", 0x24, &n), 0xe7);
	assert_int_equal(n, 4);		/* 0xe1 + 0xe4 + 0x42 + 0x22 */
	assert_int_equal(core_umasks(&r, "l1d-accesses", 0xd0, &n), 0x87);
	assert_int_equal(n, 1);		/* one event: load-and-store once */
	assert_non_null(strstr(metric(&r, "l2-misses")->caveats[0], "0x3f"));
	assert_non_null(strstr(metric(&r, "l1d-accesses")->caveats[1], "software prefetch"));
	resolution_release(&r);
	catalog_release(&cat);
}

/* ---- Arm: event numbers against the kernel's arm64 tables -------------- */

/*
 * The common architectural events as listed in the kernel's
 * tools/perf/pmu-events/arch/arm64/common-and-microarch.json (read at
 * commit 0ccfdcf968b3, the same numbers as the Arm ARM's PMUv3 common event
 * list). The per-core files name them by ArchStdEvent, e.g.
 * arm64/arm/neoverse-n1/l2_cache.json lists L2D_CACHE and L2D_CACHE_REFILL.
 */
static const struct arm_fact {
	const char *name;
	unsigned event;
} arm_common[] = {
	{ "L1I_CACHE_REFILL", 0x01 }, { "L1D_CACHE_REFILL", 0x03 }, { "L1D_CACHE", 0x04 },
	{ "INST_RETIRED", 0x08 }, { "BR_MIS_PRED", 0x10 }, { "CPU_CYCLES", 0x11 },
	{ "L2D_CACHE", 0x16 }, { "L2D_CACHE_REFILL", 0x17 }, { "BR_RETIRED", 0x21 },
	{ "BR_MIS_PRED_RETIRED", 0x22 }, { "STALL_FRONTEND", 0x23 }, { "STALL_BACKEND", 0x24 },
	{ "L3D_CACHE_REFILL", 0x2a }, { "L3D_CACHE", 0x2b }, { "DTLB_WALK", 0x34 },
	{ "ITLB_WALK", 0x35 }, { "LL_CACHE_RD", 0x36 }, { "LL_CACHE_MISS_RD", 0x37 },
};

static void test_arm_common_events(void **state)
{
	static const char *const arm[] = { "neoverse-n1", "neoverse-v1", "neoverse-n2",
					   "neoverse-v2" };

	(void)state;
	for (size_t u = 0; u < sizeof(arm) / sizeof(arm[0]); u++) {
		struct catalog cat;
		struct resolution r;
		size_t checked = 0;

		load(&cat, arm[u]);
		resolve(&cat, "all", NULL, &r);
		for (size_t i = 0; i < r.nevents; i++) {
			const struct resolved_event *e = &r.events[i];
			size_t k;

			if (strcmp(e->pmu_role, "core"))
				continue;
			for (k = 0; k < sizeof(arm_common) / sizeof(arm_common[0]); k++)
				if (!strcmp(arm_common[k].name, e->name))
					break;
			if (k == sizeof(arm_common) / sizeof(arm_common[0]))
				fail_msg("%s: '%s' is not in the table of common events: add it "
					 "with its source", arm[u], e->name);
			if (e->spec.attr.config != arm_common[k].event)
				fail_msg("%s: '%s' encodes %#llx, the kernel's arm64 table says %#x",
					 arm[u], e->name, (unsigned long long)e->spec.attr.config,
					 arm_common[k].event);
			checked++;
		}
		/* every event of the file was checked, and there are that many */
		assert_true(checked >= 16);
		resolution_release(&r);
		catalog_release(&cat);
	}
}

/* ---- E-cores of hybrid parts: against Intel's event lists --------------- */

/*
 * libpfm4 4.13 has no adl_grt (nor any Meteor Lake) table, so the E-core
 * encodings are checked against Intel's own lists, which the kernel's JSON
 * (Unit cpu_atom) is generated from: github.com/intel/perfmon
 * ADL/events/alderlake_gracemont_core.json V1.40 and
 * MTL/events/meteorlake_crestmont_core.json V1.22 and
 * ARL/events/arrowlake_skymont_core.json V1.20 (perfmon commit 6dadedf;
 * EventCode, UMask).
 */
struct ecore_fact {
	const char *name;
	unsigned event, umask;
};

static const struct ecore_fact gracemont[] = {
	{ "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00 }, { "INST_RETIRED.ANY_P", 0xc0, 0x00 },
	{ "BR_INST_RETIRED.ALL_BRANCHES", 0xc4, 0x00 }, { "BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0x00 },
	{ "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81 }, { "MEM_UOPS_RETIRED.ALL_STORES", 0xd0, 0x82 },
	{ "ICACHE.MISSES", 0x80, 0x02 }, { "L2_REQUEST.ALL", 0x24, 0x00 },
	{ "L2_REQUEST.MISS", 0x24, 0x01 }, { "LONGEST_LAT_CACHE.REFERENCE", 0x2e, 0x4f },
	{ "LONGEST_LAT_CACHE.MISS", 0x2e, 0x41 }, { "MEM_LOAD_UOPS_RETIRED.DRAM_HIT", 0xd1, 0x80 },
	{ "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x08, 0x0e },
	{ "DTLB_STORE_MISSES.WALK_COMPLETED", 0x49, 0x0e },
	{ "ITLB_MISSES.WALK_COMPLETED", 0x85, 0x0e },
	{ NULL, 0, 0 },
};

static const struct ecore_fact crestmont[] = {
	{ "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00 }, { "INST_RETIRED.ANY_P", 0xc0, 0x00 },
	{ "BR_INST_RETIRED.ALL_BRANCHES", 0xc4, 0x00 }, { "BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0x00 },
	{ "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81 }, { "MEM_UOPS_RETIRED.ALL_STORES", 0xd0, 0x82 },
	{ "ICACHE.MISSES", 0x80, 0x02 }, { "L2_REQUEST.HIT", 0x24, 0x02 },
	{ "L2_REQUEST.MISS", 0x24, 0x01 }, { "LONGEST_LAT_CACHE.REFERENCE", 0x2e, 0x4f },
	{ "LONGEST_LAT_CACHE.MISS", 0x2e, 0x41 }, { "MEM_LOAD_UOPS_MISC_RETIRED.LOCAL_DRAM", 0xd4, 0x02 },
	{ "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x08, 0x0e },
	{ "DTLB_STORE_MISSES.WALK_COMPLETED", 0x49, 0x0e },
	{ "ITLB_MISSES.WALK_COMPLETED", 0x85, 0x0e },
	{ NULL, 0, 0 },
};

/* Skymont: the same encodings as Crestmont for these events, read from its
 * own list rather than assumed. */
static const struct ecore_fact skymont[] = {
	{ "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00 }, { "INST_RETIRED.ANY_P", 0xc0, 0x00 },
	{ "BR_INST_RETIRED.ALL_BRANCHES", 0xc4, 0x00 }, { "BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0x00 },
	{ "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81 }, { "MEM_UOPS_RETIRED.ALL_STORES", 0xd0, 0x82 },
	{ "ICACHE.MISSES", 0x80, 0x02 }, { "L2_REQUEST.HIT", 0x24, 0x02 },
	{ "L2_REQUEST.MISS", 0x24, 0x01 }, { "LONGEST_LAT_CACHE.REFERENCE", 0x2e, 0x4f },
	{ "LONGEST_LAT_CACHE.MISS", 0x2e, 0x41 }, { "MEM_LOAD_UOPS_MISC_RETIRED.LOCAL_DRAM", 0xd4, 0x02 },
	{ "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x08, 0x0e },
	{ "DTLB_STORE_MISSES.WALK_COMPLETED", 0x49, 0x0e },
	{ "ITLB_MISSES.WALK_COMPLETED", 0x85, 0x0e },
	{ NULL, 0, 0 },
};

/* Crestmont as Arrow Lake-H's low-power E-cores (cpu_lowpower, lp.*):
 * ARL/events/arrowlake_crestmont_core.json V1.20. No LONGEST_LAT_CACHE:
 * those cores sit outside the L3, so arrowlake.json does not use it. */
static const struct ecore_fact arl_crestmont[] = {
	{ "CPU_CLK_UNHALTED.CORE_P", 0x3c, 0x00 }, { "INST_RETIRED.ANY_P", 0xc0, 0x00 },
	{ "BR_INST_RETIRED.ALL_BRANCHES", 0xc4, 0x00 }, { "BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0x00 },
	{ "MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81 }, { "MEM_UOPS_RETIRED.ALL_STORES", 0xd0, 0x82 },
	{ "ICACHE.MISSES", 0x80, 0x02 }, { "L2_REQUEST.HIT", 0x24, 0x02 },
	{ "L2_REQUEST.MISS", 0x24, 0x01 }, { "MEM_LOAD_UOPS_MISC_RETIRED.LOCAL_DRAM", 0xd4, 0x02 },
	{ "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x08, 0x0e },
	{ "DTLB_STORE_MISSES.WALK_COMPLETED", 0x49, 0x0e },
	{ "ITLB_MISSES.WALK_COMPLETED", 0x85, 0x0e },
	{ NULL, 0, 0 },
};

/* Every event of uarch's PMU `role` (named PREFIX.NAME) against facts. */
static void check_role(const char *uarch, const char *role, const char *prefix,
		       const struct ecore_fact *facts)
{
	struct catalog cat;
	struct resolution r;
	size_t checked = 0, nfacts = 0;

	while (facts[nfacts].name)
		nfacts++;
	load(&cat, uarch);
	resolve(&cat, "all", NULL, &r);
	for (size_t i = 0; i < r.nevents; i++) {
		const struct resolved_event *e = &r.events[i];
		size_t k;

		if (strcmp(e->pmu_role, role))
			continue;
		assert_int_equal(strncmp(e->name, prefix, strlen(prefix)), 0);
		for (k = 0; k < nfacts; k++)
			if (!strcasecmp(facts[k].name, e->name + strlen(prefix)))
				break;
		if (k == nfacts)
			fail_msg("%s: '%s' is not in the table of E-core events: add it from "
				 "Intel's list", uarch, e->name);
		if (e->spec.attr.config != (facts[k].event | facts[k].umask << 8))
			fail_msg("%s: '%s' encodes %#llx, Intel's list says event %#x umask %#x",
				 uarch, e->name, (unsigned long long)e->spec.attr.config,
				 facts[k].event, facts[k].umask);
		checked++;
	}
	assert_int_equal(checked, nfacts);	/* every fact used, every event checked */
	resolution_release(&r);
	catalog_release(&cat);
}

static void check_ecores(const char *uarch, const struct ecore_fact *facts)
{
	check_role(uarch, "atom", "atom.", facts);
}

static void test_ecore_events(void **state)
{
	(void)state;
	check_ecores("alderlake", gracemont);
	check_ecores("meteorlake", crestmont);
	check_ecores("arrowlake", skymont);
	check_role("arrowlake", "lowpower", "lp.", arl_crestmont);
}

/* ---- hybrid parts ------------------------------------------------------ */

static void test_hybrid_parts(void **state)
{
	struct catalog cat;
	struct resolution r;
	const struct resolved_event *core, *atom;

	(void)state;
	load(&cat, "alderlake");
	assert_true(catalog_is_hybrid(&cat));
	resolve(&cat, "default,l1d-misses", NULL, &r);
	assert_string_equal(metric(&r, "instructions")->formula,
			    "inst_retired.any_p + atom.inst_retired.any_p");
	assert_string_equal(metric(&r, "instructions.cpu_core")->formula, "inst_retired.any_p");
	assert_string_equal(metric(&r, "instructions.cpu_atom")->formula,
			    "atom.inst_retired.any_p");
	assert_string_equal(metric(&r, "ipc.cpu_atom")->formula,
			    "(atom.inst_retired.any_p) / (atom.cpu_clk_unhalted.core_p)");
	assert_int_equal(metric(&r, "ipc.cpu_core")->kind, MK_DERIVED);
	/* the parts are shown; the sum is what comparisons test */
	assert_true(metric(&r, "instructions.cpu_core")->part);
	assert_true(metric(&r, "ipc.cpu_atom")->part);
	assert_false(metric(&r, "instructions")->part);
	assert_string_equal(metric(&r, "branch-miss-ratio.cpu_core")->formula,
			    "(br_misp_retired.all_branches) / (br_inst_retired.all_branches)");
	/* P-core only: no parts, and the caveat says why */
	assert_int_equal(resolution_metric_index(&r, "l1d-misses.cpu_core"), -1);
	assert_non_null(strstr(metric(&r, "l1d-misses")->caveats[1], "P-cores only"));
	core = event(&r, "inst_retired.any_p");
	atom = event(&r, "atom.inst_retired.any_p");
	assert_true(core->hybrid && atom->hybrid && core->spec.core_type && atom->spec.core_type);
	assert_int_equal(core->core_index, 0);
	assert_int_equal(atom->core_index, 1);
	assert_true(core->anchor && atom->anchor);
	assert_string_equal(atom->spec.pmu, "cpu_atom");
	assert_int_equal(core->spec.attr.type, PERF_TYPE_RAW);	/* the first hybrid PMU */
	assert_int_equal(atom->type_known, 0);			/* dynamic: from sysfs */
	assert_non_null(strstr(metric(&r, "cycles")->notes[0], "NAME.cpu_core and NAME.cpu_atom"));
	resolution_release(&r);
	/* a non-hybrid file has no parts */
	catalog_release(&cat);
	load(&cat, "sapphirerapids");
	assert_false(catalog_is_hybrid(&cat));
	resolve(&cat, "default", NULL, &r);
	assert_int_equal(resolution_metric_index(&r, "instructions.cpu_core"), -1);
	resolution_release(&r);
	catalog_release(&cat);
}

static void load_tree(struct sysfs_model *m, const char *tree)
{
	const char *dir = getenv("PMUSTAT_TEST_FIXTURES");
	struct strbuf sb = STRBUF_INIT;
	struct error err;

	strbuf_addf(&sb, "%s/%s/sys", dir && *dir ? dir : "tests/fixtures", tree);
	error_clear(&err);
	if (sysfs_model_load(m, sb.buf, &err) < 0)
		fail_msg("%s: %s", sb.buf, err.msg);
	strbuf_release(&sb);
}

/* On the recorded tree: both PMUs' types come from sysfs; without
 * cpu_atom (E-cores disabled) the E-core terms are dropped, said so. */
static void test_hybrid_on_fixture(void **state)
{
	struct sysfs_model m;
	struct catalog cat;
	struct resolution r;
	struct resolve_ctx ctx = { 0 };
	size_t atom = (size_t)-1, last;
	const struct resolved_metric *ins;

	(void)state;
	load_tree(&m, "adl-hybrid");
	load(&cat, "alderlake");
	ctx.model = &m;
	resolve(&cat, "instructions,ipc", &ctx, &r);
	assert_int_equal(event(&r, "atom.inst_retired.any_p")->spec.attr.type, 8);
	assert_int_equal(event(&r, "inst_retired.any_p")->spec.attr.type, 4);
	assert_true(metric(&r, "instructions.cpu_atom")->available);
	resolution_release(&r);
	for (size_t i = 0; i < m.npmus; i++)
		if (!strcmp(m.pmus[i].name, "cpu_atom"))
			atom = i;
	assert_true(atom != (size_t)-1);
	/* hide cpu_atom: swap it to the end, one fewer */
	last = m.npmus - 1;
	{
		struct sysfs_pmu t = m.pmus[atom];

		m.pmus[atom] = m.pmus[last];
		m.pmus[last] = t;
	}
	m.npmus--;
	resolve(&cat, "instructions,ipc", &ctx, &r);
	ins = metric(&r, "instructions");
	assert_true(ins->available);
	assert_string_equal(ins->formula, "inst_retired.any_p");
	assert_non_null(strstr(ins->caveats[ins->ncaveats - 1], "no 'cpu_atom' PMU"));
	assert_int_equal(resolution_metric_index(&r, "instructions.cpu_atom"), -1);
	assert_true(metric(&r, "ipc")->available);
	resolution_release(&r);
	m.npmus++;
	catalog_release(&cat);
	sysfs_model_release(&m);
}

/* Arrow Lake: three core types on the arl-h tree, each metric split three
 * ways; on arl-s (no cpu_lowpower) the lp.* terms are dropped with a
 * caveat and no empty cpu_lowpower part is made. */
static void test_three_core_types(void **state)
{
	struct sysfs_model m;
	struct catalog cat;
	struct resolution r;
	struct resolve_ctx ctx = { 0 };
	const struct resolved_metric *ins;

	(void)state;
	load(&cat, "arrowlake");
	load_tree(&m, "arl-h");
	ctx.model = &m;
	resolve(&cat, "instructions,ipc,llc-misses", &ctx, &r);
	ins = metric(&r, "instructions");
	assert_string_equal(ins->formula,
			    "inst_retired.any_p + atom.inst_retired.any_p + lp.inst_retired.any_p");
	assert_int_equal(event(&r, "lp.inst_retired.any_p")->core_index, 2);
	assert_int_equal(event(&r, "lp.inst_retired.any_p")->spec.attr.type, 9);
	assert_string_equal(metric(&r, "instructions.cpu_lowpower")->formula,
			    "lp.inst_retired.any_p");
	assert_string_equal(metric(&r, "ipc.cpu_lowpower")->formula,
			    "(lp.inst_retired.any_p) / (lp.cpu_clk_unhalted.core_p)");
	assert_non_null(strstr(ins->notes[0], "all 3 core types"));
	assert_non_null(strstr(ins->notes[0], "NAME.cpu_atom and NAME.cpu_lowpower"));
	/* the low-power cores are outside the L3: two parts only */
	assert_int_equal(resolution_metric_index(&r, "llc-misses.cpu_lowpower"), -1);
	assert_true(metric(&r, "llc-misses.cpu_atom")->available);
	resolution_release(&r);
	sysfs_model_release(&m);

	load_tree(&m, "arl-s");
	ctx.model = &m;
	resolve(&cat, "instructions,ipc", &ctx, &r);
	ins = metric(&r, "instructions");
	assert_string_equal(ins->formula, "inst_retired.any_p + atom.inst_retired.any_p");
	assert_non_null(strstr(ins->caveats[ins->ncaveats - 1], "no 'cpu_lowpower' PMU"));
	assert_int_equal(resolution_metric_index(&r, "instructions.cpu_lowpower"), -1);
	assert_int_equal(resolution_metric_index(&r, "ipc.cpu_lowpower"), -1);
	assert_true(metric(&r, "ipc.cpu_atom")->available);
	assert_non_null(strstr(ins->notes[0], "both core types (cpu_core, cpu_atom)"));
	resolution_release(&r);
	sysfs_model_release(&m);
	catalog_release(&cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presets_everywhere),
		cmocka_unit_test(test_definitions_say_what),
		cmocka_unit_test(test_intel_follows_definitions),
		cmocka_unit_test(test_arrowlake_follows_definitions),
		cmocka_unit_test(test_arm_common_events),
		cmocka_unit_test(test_ecore_events),
		cmocka_unit_test(test_hybrid_parts),
		cmocka_unit_test(test_hybrid_on_fixture),
		cmocka_unit_test(test_three_core_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
