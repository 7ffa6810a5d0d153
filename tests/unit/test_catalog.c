/*
 * Unit tests for the metric catalogue: every uarch file loads and defines
 * every hardware metric; resolution walks the fallback chains with the
 * right reasons on recorded and constructed machines (tests/fixtures);
 * derived formulas expand and evaluate; unknown names get suggestions.
 *
 * The cross-check: every catalogue event that names its libpfm4 equivalent
 * is encoded by libpfm4 with LIBPFM_FORCE_PMU set to the uarch's libpfm
 * PMU, and the two encodings must be identical (a disagreement fails).
 * libpfm reads LIBPFM_FORCE_PMU once per process, so each uarch is encoded
 * in a re-executed child. Every uarch file is named in libpfm_expect[]:
 * either with the number of encodings libpfm4 must confirm, or with the
 * reason it cannot here (Arm tables are not built on x86; 4.13 has no Zen 5
 * or Granite Rapids table), so that no file is skipped silently and the
 * test cannot pass by checking nothing. Files libpfm4 cannot check are
 * compared with a checked sibling instead (zen5 with zen4, graniterapids
 * with sapphirerapids): an event of the same name must have the same
 * encoding, or the difference is listed with its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog/catalog.h"	/* <linux/perf_event.h> before libpfm's copy */
#include <perfmon/pfmlib_perf_event.h>
#include "core/strbuf.h"
#include "host/sysfs.h"
#include "catalog_check.h"

static char self_exe[4096];

static const struct resolved_event *event(const struct resolution *r, const char *name)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].name, name))
			return &r->events[i];
	fail_msg("event '%s' not in the resolution", name);
	return NULL;
}

static void load_fixture(struct sysfs_model *m, const char *machine)
{
	struct strbuf sb = STRBUF_INIT;
	struct error err;

	strbuf_addf(&sb, "tests/fixtures/%s/sys", machine);
	if (sysfs_model_load(m, sb.buf, &err) < 0)
		fail_msg("loading %s: %s", sb.buf, err.msg);
	strbuf_release(&sb);
}

/* ---- data sanity ------------------------------------------------------- */

static const char *const hw_metrics[] = {
	"cycles", "instructions", "branches", "branch-misses", "l1d-accesses", "l1d-misses",
	"l1i-misses", "l2-accesses", "l2-misses", "llc-accesses", "llc-misses", "dram-fills",
	"dtlb-misses", "itlb-misses", "stalled-cycles-frontend", "stalled-cycles-backend",
};

static void test_every_uarch_loads(void **state)
{
	char **names = catalog_uarch_names();
	size_t n = 0;

	(void)state;
	for (; names[n]; n++) {
		struct catalog cat;
		struct resolution r;

		load(&cat, names[n]);
		/* "all" resolves every metric, so every chain's events get encoded. */
		resolve(&cat, "all", NULL, &r);
		for (size_t k = 0; strcmp(cat.uarch, "generic") &&
				   k < sizeof(hw_metrics) / sizeof(hw_metrics[0]); k++) {
			const struct resolved_metric *m = metric(&r, hw_metrics[k]);

			if (!m->nsteps)
				fail_msg("%s: no chain for '%s'", cat.uarch, hw_metrics[k]);
			if (!m->available && !m->reason)
				fail_msg("%s: '%s' unavailable without a reason", cat.uarch, m->name);
		}
		for (size_t k = 0; k < r.nevents; k++)
			if (!r.events[k].source && strcmp(r.events[k].pmu_role, "software") &&
			    strcmp(cat.uarch, "generic"))
				fail_msg("%s: event '%s' has no provenance", cat.uarch, r.events[k].name);
		resolution_release(&r);
		catalog_release(&cat);
	}
	assert_true(n >= 14);	/* 13 files and the emeraldrapids alias */
	catalog_names_free(names);
}

/* The uarchs DESIGN.md names that have a file of their own (not an alias,
 * not the generic fallback): what the catalogue claims to describe. */
static void test_uarch_files(void **state)
{
	static const char *const own[] = {
		"zen2", "zen3", "zen4", "zen5", "skylakex", "icelakex", "sapphirerapids",
		"graniterapids", "neoverse-n1", "neoverse-v1", "neoverse-n2", "neoverse-v2",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		struct catalog cat;

		load(&cat, own[i]);
		assert_string_equal(cat.uarch, own[i]);
		assert_null(cat.requested);
		catalog_release(&cat);
	}
}

static void test_alias_uarch(void **state)
{
	struct catalog cat;
	struct error err;

	(void)state;
	load(&cat, "emeraldrapids");
	assert_string_equal(cat.uarch, "sapphirerapids");
	assert_string_equal(cat.requested, "emeraldrapids");
	catalog_release(&cat);
	error_clear(&err);
	assert_int_equal(catalog_load(&cat, "zen44", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg, "unknown microarchitecture 'zen44'");
	assert_non_null(strstr(err.hint, "did you mean 'zen4'?"));
}

/* ---- the DESIGN.md story: L3 misses on Zen 4 ---------------------------- */

static void test_zen4_l3_no_host(void **state)
{
	struct catalog cat;
	struct resolution r;
	const struct resolved_metric *m;
	const struct resolved_event *e;

	(void)state;
	load(&cat, "zen4");
	resolve(&cat, "l3-misses", NULL, &r);
	m = metric(&r, "llc-misses");
	assert_string_equal(m->requested, "l3-misses");
	assert_int_equal(m->available, 1);
	assert_int_equal(m->nsteps, 2);
	assert_int_equal(m->steps[0].status, STEP_SKIPPED);
	assert_non_null(strstr(m->steps[0].reason, "'amd_l3' counts system-wide, per L3 complex"));
	assert_non_null(strstr(m->steps[0].need, "module amd_uncore"));
	assert_int_equal(m->steps[1].status, STEP_CHOSEN);
	assert_non_null(m->proxy);
	assert_int_equal(m->nnotes, 1);
	assert_non_null(strstr(m->notes[0], "llc-misses: counted as demand data-cache fills"));
	e = event(&r, "ls_dmnd_fills_from_sys.beyond_ccx");
	assert_int_equal(e->spec.attr.type, PERF_TYPE_RAW);
	assert_true(e->spec.attr.config == 0xdc43);
	assert_string_equal(e->syntax, "cpu/event=0x43,umask=0xdc/");
	assert_int_equal(e->chosen, 1);
	e = event(&r, "l3_lookup_state.l3_miss");
	assert_int_equal(e->system, 1);
	assert_int_equal(e->type_known, 0);	/* amd_l3's type is dynamic */
	assert_true(e->spec.attr.config == 0x0104);
	assert_int_equal(e->chosen, 0);
	resolution_release(&r);
	catalog_release(&cat);
}

static void test_zen4_fixtures(void **state)
{
	struct catalog cat;
	struct resolution r;
	struct sysfs_model m;
	struct resolve_ctx ctx = { 0 };
	const struct resolved_metric *lm;

	(void)state;
	load(&cat, "zen4");
	/* No amd_uncore: even system-wide, the L3 PMU is missing. */
	load_fixture(&m, "zen4-no-uncore");
	ctx.model = &m;
	ctx.system_wide = 1;
	ctx.privileged = 1;
	resolve(&cat, "llc-misses", &ctx, &r);
	lm = metric(&r, "llc-misses");
	assert_string_equal(lm->steps[0].reason, "the 'amd_l3' PMU is not exposed");
	assert_string_equal(lm->steps[0].need, "run 'modprobe amd_uncore'");
	assert_string_equal(lm->hint, "run 'modprobe amd_uncore'");
	assert_int_equal(lm->steps[1].status, STEP_CHOSEN);
	resolution_release(&r);
	sysfs_model_release(&m);
	/* With it, system-wide and privileged: the primary mapping, with the
	 * fixture's dynamic type for amd_l3. */
	load_fixture(&m, "zen4");
	resolve(&cat, "llc-misses", &ctx, &r);
	lm = metric(&r, "llc-misses");
	assert_int_equal(lm->steps[0].status, STEP_CHOSEN);
	assert_null(lm->proxy);
	assert_int_equal(lm->nnotes, 0);
	assert_int_equal(event(&r, "l3_lookup_state.l3_miss")->type_known, 1);
	assert_int_equal(event(&r, "l3_lookup_state.l3_miss")->spec.attr.type,
			 sysfs_pmu_find(&m, "amd_l3")->type);
	resolution_release(&r);
	/* Unprivileged with paranoid 2: system-wide is refused, proxy used. */
	ctx.privileged = 0;
	ctx.paranoid = 2;
	resolve(&cat, "llc-misses", &ctx, &r);
	lm = metric(&r, "llc-misses");
	assert_non_null(strstr(lm->steps[0].reason, "needs root or kernel.perf_event_paranoid<=0"));
	assert_int_equal(lm->steps[1].status, STEP_CHOSEN);
	resolution_release(&r);
	sysfs_model_release(&m);
	catalog_release(&cat);
}

static void test_vm_without_pmu(void **state)
{
	struct catalog cat;
	struct resolution r;
	struct sysfs_model m;
	struct resolve_ctx ctx = { 0 };
	const struct resolved_metric *c;

	(void)state;
	load(&cat, "zen4");
	load_fixture(&m, "vm-nopmu");
	ctx.model = &m;
	resolve(&cat, "default", &ctx, &r);
	c = metric(&r, "cycles");
	assert_int_equal(c->available, 0);
	assert_non_null(strstr(c->reason, "no hardware PMU is exposed here"));
	assert_int_equal(metric(&r, "task-clock")->available, 1);
	assert_int_equal(metric(&r, "ipc")->available, 0);
	assert_non_null(strstr(metric(&r, "ipc")->reason, "needs 'instructions'"));
	resolution_release(&r);
	sysfs_model_release(&m);
	catalog_release(&cat);
}

/* The development VM (the recorded vm-nopmu tree: AMD family 26 model 2) is
 * a Zen 5: it gets Zen 5's catalogue, and still says that no PMU is there. */
static void test_zen5_dev_vm(void **state)
{
	struct catalog cat;
	struct resolution r;
	struct sysfs_model m;
	struct resolve_ctx ctx = { 0 };
	const struct resolved_metric *lm;
	const struct resolved_event *e;

	(void)state;
	load(&cat, "zen5");
	load_fixture(&m, "vm-nopmu");
	ctx.model = &m;
	resolve(&cat, "default,l3-misses", &ctx, &r);
	assert_int_equal(metric(&r, "cycles")->available, 0);
	assert_non_null(strstr(metric(&r, "cycles")->reason, "no hardware PMU is exposed here"));
	lm = metric(&r, "llc-misses");
	assert_int_equal(lm->available, 0);
	assert_int_equal(lm->steps[0].status, STEP_SKIPPED);
	assert_non_null(strstr(lm->steps[0].need, "modprobe amd_uncore"));
	assert_non_null(strstr(lm->steps[1].reason, "no hardware PMU is exposed here"));
	assert_int_equal(metric(&r, "task-clock")->available, 1);
	resolution_release(&r);
	sysfs_model_release(&m);
	/* Described off-host: the per-process proxy, with Zen 5's encodings. */
	resolve(&cat, "l3-misses,stalled-cycles-frontend", NULL, &r);
	lm = metric(&r, "llc-misses");
	assert_int_equal(lm->steps[1].status, STEP_CHOSEN);
	assert_true(event(&r, "ls_dmnd_fills_from_sys.beyond_ccx")->spec.attr.config == 0xdc43);
	assert_int_equal(event(&r, "l3_lookup_state.l3_miss")->system, 1);
	/* PMCx1A0: event bits 0-7 and 32-35, umask 0x01, cmask 8 (8-wide dispatch). */
	e = event(&r, "de_no_dispatch_per_slot.no_ops_from_frontend.cycles");
	assert_true(e->spec.attr.config == 0x1080001a0ull);
	assert_int_equal(e->chosen, 1);
	resolution_release(&r);
	catalog_release(&cat);
}

/* ---- derived metrics, presets, errors ----------------------------------- */

struct values {
	const char *names[4];
	double v[4];
};

static int lookup(void *ctx, const char *name, double *v)
{
	struct values *vals = ctx;

	for (int i = 0; i < 4 && vals->names[i]; i++)
		if (!strcmp(vals->names[i], name)) {
			*v = vals->v[i];
			return 0;
		}
	return -1;
}

static void test_derived(void **state)
{
	struct catalog cat;
	struct resolution r;
	const struct resolved_metric *m;
	struct values vals = { { "ex_ret_instr", "ls_not_halted_cyc", "l2_cache_req_stat.ic_dc_miss_in_l2" },
			       { 3000, 1500, 6 } };
	struct error err;
	double v;

	(void)state;
	load(&cat, "zen4");
	resolve(&cat, "ipc,l2-mpki", NULL, &r);
	assert_string_equal(r.metrics[0].name, "ipc");
	m = metric(&r, "ipc");
	assert_int_equal(m->kind, MK_DERIVED);
	assert_string_equal(m->metric_formula, "instructions / cycles");
	assert_string_equal(m->formula, "(ex_ret_instr) / (ls_not_halted_cyc)");
	assert_int_equal(m->nevents, 2);
	assert_int_equal(metric(&r, "instructions")->implied, 1);
	assert_int_equal(formula_eval(m->formula, lookup, &vals, &v, &err), 0);
	assert_true(v == 2.0);
	m = metric(&r, "l2-mpki");
	assert_string_equal(m->formula, "1000 * (l2_cache_req_stat.ic_dc_miss_in_l2) / (ex_ret_instr)");
	assert_int_equal(formula_eval(m->formula, lookup, &vals, &v, &err), 0);
	assert_true(v == 2.0);
	/* The anchors are marked for the planner. */
	assert_int_equal(event(&r, "ex_ret_instr")->anchor, 1);
	assert_int_equal(event(&r, "ls_not_halted_cyc")->anchor, 1);
	resolution_release(&r);
	catalog_release(&cat);
}

/* depth times c ("((((" or "----"), then "c", closed again: ok or not. */
static void check_nesting(char c, size_t depth, int want)
{
	struct values vals = { { "c" }, { 2 } };
	char *f = malloc(2 * depth + 2);
	struct error err;
	double v;

	memset(f, c, depth);
	f[depth] = 'c';
	memset(f + depth + 1, c == '(' ? ')' : ' ', depth);
	f[2 * depth + 1] = '\0';
	error_clear(&err);
	assert_int_equal(formula_eval(f, lookup, &vals, &v, &err), want);
	if (want)
		assert_non_null(strstr(err.msg, "nested too deeply"));
	else
		assert_true(v == (c == '-' && depth % 2 ? -2.0 : 2.0));
	free(f);
}

static void test_formula(void **state)
{
	char **names;
	size_t n;
	struct error err;
	struct values vals = { { "a-b", "c" }, { 6, 2 } };
	double v;

	(void)state;
	assert_int_equal(formula_names("1000 * a-b / (c - a-b)", &names, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "a-b");
	assert_string_equal(names[1], "c");
	free(names[0]);
	free(names[1]);
	free(names);
	assert_int_equal(formula_eval("a-b - c * 2", lookup, &vals, &v, &err), 0);
	assert_true(v == 2.0);
	assert_int_equal(formula_eval("a-b / (c - 2)", lookup, &vals, &v, &err), 0);
	assert_true(v != v);	/* NaN: a ratio of nothing */
	assert_int_equal(formula_eval("a-b +", lookup, &vals, &v, &err), -1);
	assert_non_null(strstr(err.msg, "bad formula 'a-b +'"));
	assert_int_equal(formula_eval("zz", lookup, &vals, &v, &err), -1);
	/* A formula read from a file may be missing, or nest without end. */
	assert_int_equal(formula_names(NULL, &names, &n, &err), -1);
	assert_string_equal(err.msg, "no formula given");
	assert_int_equal(formula_eval(NULL, lookup, &vals, &v, &err), -1);
	check_nesting('(', 64, 0);
	check_nesting('(', 65, -1);
	check_nesting('(', 1000000, -1);
	check_nesting('-', 64, 0);
	check_nesting('-', 1000000, -1);
}

static void test_presets_and_errors(void **state)
{
	struct catalog cat;
	struct resolution r;
	struct error err;

	(void)state;
	load(&cat, "skylakex");
	resolve(&cat, "default,cache", NULL, &r);
	assert_true(resolution_metric_index(&r, "branch-miss-ratio") >= 0);
	assert_true(resolution_metric_index(&r, "llc-mpki") >= 0);
	assert_int_equal(metric(&r, "llc-misses")->available, 1);
	assert_null(metric(&r, "llc-misses")->proxy);	/* core event on Intel */
	resolution_release(&r);
	error_clear(&err);
	assert_int_equal(catalog_resolve(&cat, "ipc,l3-mises", NULL, &r, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg, "unknown metric 'l3-mises'");
	assert_string_equal(err.hint, "did you mean 'l3-misses'? (pmustat list)");
	assert_int_equal(r.nmetrics, 0);
	/* A catalogue event asked for by name is a metric of its own. */
	resolve(&cat, "l1d.replacement", NULL, &r);
	assert_int_equal(r.metrics[0].kind, MK_EVENT);
	assert_true(r.events[0].spec.attr.config == 0x151);
	resolution_release(&r);
	catalog_release(&cat);
}

static void test_capacity(void **state)
{
	struct catalog cat;
	struct catalog_capacity cap;

	(void)state;
	load(&cat, "zen4");
	catalog_capacity(&cat, &cap);
	assert_int_equal(cap.gp, 6);
	assert_int_equal(cap.fixed, 0);
	assert_int_equal(cap.watchdog, 1);
	assert_int_equal(cap.uncore_gp, 6);
	catalog_release(&cat);
	load(&cat, "icelakex");
	catalog_capacity(&cat, &cap);
	assert_int_equal(cap.gp, 8);
	assert_int_equal(cap.fixed, 4);
	assert_int_equal(cap.watchdog, 2);
	catalog_release(&cat);
	/* graniterapids/counter.json: 8 generic and 4 fixed counters. */
	load(&cat, "graniterapids");
	catalog_capacity(&cat, &cap);
	assert_int_equal(cap.gp, 8);
	assert_int_equal(cap.fixed, 4);
	assert_int_equal(cap.watchdog, 2);
	assert_int_equal(cap.uncore_gp, 0);
	catalog_release(&cat);
	for (int z = 0; z < 2; z++) {	/* Zen 2 and Zen 5: as Zen 4 */
		load(&cat, z ? "zen5" : "zen2");
		catalog_capacity(&cat, &cap);
		assert_int_equal(cap.gp, 6);
		assert_int_equal(cap.fixed, 0);
		assert_int_equal(cap.watchdog, 1);
		assert_int_equal(cap.uncore_gp, 6);
		catalog_release(&cat);
	}
}

/* ---- libpfm4 cross-check ----------------------------------------------- */

/*
 * Child: with LIBPFM_FORCE_PMU set by the parent, encode each argument
 * ("pfm:NAME" through the perf_event layer, "raw:NAME" as the raw PMU
 * code for uncore PMUs without sysfs) and print "ok CONFIG CONFIG1" or
 * "err MESSAGE", one line each.
 */
static int libpfm_child(int argc, char **argv)
{
	if (pfm_initialize() != PFM_SUCCESS)
		return 1;
	for (int i = 0; i < argc; i++) {
		const char *name = argv[i] + 4;
		int r;

		if (!strncmp(argv[i], "raw:", 4)) {
			pfm_pmu_encode_arg_t e;

			memset(&e, 0, sizeof(e));
			e.size = sizeof(e);
			r = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_NONE, &e);
			if (r == PFM_SUCCESS)
				printf("ok %llx 0\n", (unsigned long long)e.codes[0]);
			free(e.codes);
		} else {
			struct perf_event_attr attr;
			pfm_perf_encode_arg_t arg;

			memset(&attr, 0, sizeof(attr));
			memset(&arg, 0, sizeof(arg));
			arg.attr = &attr;
			arg.size = sizeof(arg);
			r = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
						      &arg);
			if (r == PFM_SUCCESS)
				printf("ok %llx %llx\n", (unsigned long long)attr.config,
				       (unsigned long long)attr.config1);
		}
		if (r != PFM_SUCCESS)
			printf("err %s\n", pfm_strerror(r));
	}
	return 0;
}

/* Is this libpfm PMU compiled into the library here? */
static int libpfm_knows(const char *pmu)
{
	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && !strcmp(pi.name, pmu))
			return 1;
	}
	return 0;
}

/* The bits of the event and umask fields for uncore raw comparisons. */
static uint64_t raw_mask(const struct resolved_event *e)
{
	uint64_t m = 0;

	if (strstr(e->fields, "event="))
		m |= 0xffull | (0xfull << 32);
	if (strstr(e->fields, "umask="))
		m |= 0xffull << 8;
	return m;
}

/* Encode the given events with one forced libpfm PMU; returns checks done. */
static size_t crosscheck(const char *uarch, const char *pmu, const struct resolution *r,
			 const size_t *idx, size_t n, int raw)
{
	struct strbuf cmd = STRBUF_INIT;
	FILE *p;
	size_t done = 0;

	if (!n)
		return 0;
	strbuf_addf(&cmd, "LIBPFM_FORCE_PMU=%s '%s' --libpfm-child", pmu, self_exe);
	for (size_t i = 0; i < n; i++) {
		const char *name = strstr(r->events[idx[i]].libpfm, "::") + 2;

		strbuf_addf(&cmd, " '%s:%s'", raw ? "raw" : "pfm", name);
	}
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		const struct resolved_event *e = &r->events[idx[i]];
		char status[8], rest[256];
		unsigned long long c = 0, c1 = 0;

		if (fscanf(p, "%7s", status) != 1)
			fail_msg("%s: no answer from libpfm for %s", uarch, e->libpfm);
		if (!strcmp(status, "err")) {
			if (!fgets(rest, sizeof(rest), p))
				rest[0] = '\0';
			fail_msg("%s: libpfm cannot encode %s:%s", uarch, e->libpfm, rest);
		}
		if (fscanf(p, "%llx %llx", &c, &c1) != 2)
			fail_msg("%s: bad answer for %s", uarch, e->libpfm);
		if (raw ? (c & raw_mask(e)) != (e->spec.attr.config & raw_mask(e))
			: (c != e->spec.attr.config || c1 != e->spec.attr.config1))
			fail_msg("%s: catalogue '%s' encodes config %#llx config1 %#llx, libpfm "
				 "%s gives %#llx %#llx", uarch, e->name,
				 (unsigned long long)e->spec.attr.config,
				 (unsigned long long)e->spec.attr.config1, e->libpfm, c, c1);
		done++;
	}
	assert_int_equal(pclose(p), 0);
	strbuf_release(&cmd);
	return done;
}

/*
 * What libpfm4 must confirm for each uarch file: at least `min` encodings,
 * or none with the reason why. A file missing here fails the test, so a new
 * uarch cannot go unchecked without saying so. A uarch with a reason is
 * still checked if this libpfm4 has its table (a newer release).
 */
static const struct libpfm_expect {
	const char *uarch;
	size_t min;
	const char *why;
} libpfm_expect[] = {
	{ "zen2", 14, NULL },
	{ "zen3", 15, NULL },		/* 14 core + 1 L3 (raw event/umask bits) */
	{ "zen4", 17, NULL },
	{ "skylakex", 18, NULL },
	{ "icelakex", 18, NULL },
	{ "sapphirerapids", 18, NULL },
	{ "skylake", 17, NULL },
	{ "icelake", 17, NULL },
	/* With a libpfm4 that has adl_glc/adl_grt (git 91970fe, built from
	 * source once) all 31 named encodings agree; 4.13 checks none. */
	{ "alderlake", 0, "libpfm4 4.13 has no 'adl_glc'/'adl_grt' tables (its cpu_core events are "
			  "checked against sapphirerapids by test_sibling_encodings; its cpu_atom "
			  "events against Intel's perfmon list, see alderlake.json)" },
	{ "meteorlake", 0, "no libpfm4 has a Meteor Lake table (its cpu_core events are checked "
			   "against graniterapids, the same Redwood Cove core, by "
			   "test_sibling_encodings; its cpu_atom events against Intel's list)" },
	{ "arrowlake", 0, "no libpfm4 has an Arrow Lake table (the events Lion Cove and Skymont "
			  "share with meteorlake's Redwood Cove and Crestmont are checked against it by "
			  "test_sibling_encodings; its cpu_atom and cpu_lowpower events against "
			  "Intel's lists)" },
	{ "zen5", 0, "libpfm4 4.13 has no Zen 5 table: its events name no libpfm4 equivalent "
		     "(checked against zen4 by test_sibling_encodings)" },
	{ "graniterapids", 0, "libpfm4 4.13 has no 'gnr' table (checked against sapphirerapids "
			      "by test_sibling_encodings)" },
	{ "neoverse-n1", 0, "libpfm4's Arm tables are not built on x86" },
	{ "neoverse-v1", 0, "libpfm4's Arm tables are not built on x86" },
	{ "neoverse-n2", 0, "libpfm4's Arm tables are not built on x86" },
	{ "neoverse-v2", 0, "libpfm4's Arm tables are not built on x86" },
};

static const struct libpfm_expect *expectation(const char *uarch)
{
	for (size_t i = 0; i < sizeof(libpfm_expect) / sizeof(libpfm_expect[0]); i++)
		if (!strcmp(libpfm_expect[i].uarch, uarch))
			return &libpfm_expect[i];
	return NULL;
}

/* Cross-check one uarch's resolved events, one child per (libpfm PMU, core
 * or uncore) group; returns the checks done, notes unknown PMUs. */
static size_t crosscheck_uarch(const char *uarch, const struct resolution *r,
			       struct strbuf *unknown)
{
	size_t *idx = xcalloc(r->nevents + 1, sizeof(size_t)), total = 0;

	for (int raw = 0; raw <= 1; raw++) {
		char *done = xcalloc(r->nevents + 1, 1);

		for (size_t i = 0; i < r->nevents; i++) {
			const char *lib = r->events[i].libpfm;
			size_t plen, n = 0;
			char *pmu;

			if (!lib || done[i] || r->events[i].system != raw)
				continue;
			plen = (size_t)(strstr(lib, "::") - lib);
			pmu = xstrndup(lib, plen);
			for (size_t k = i; k < r->nevents; k++) {
				const char *l2 = r->events[k].libpfm;

				if (l2 && !done[k] && r->events[k].system == raw &&
				    !strncmp(l2, lib, plen + 2)) {
					done[k] = 1;
					idx[n++] = k;
				}
			}
			if (libpfm_knows(pmu))
				total += crosscheck(uarch, pmu, r, idx, n, raw);
			else
				strbuf_addf(unknown, " %s", pmu);
			free(pmu);
		}
		free(done);
	}
	free(idx);
	return total;
}

static void test_libpfm_crosscheck(void **state)
{
	char **names = catalog_uarch_names();
	size_t total = 0;

	(void)state;
	for (size_t u = 0; names[u]; u++) {
		struct catalog cat;
		struct resolution r;
		struct strbuf unknown = STRBUF_INIT;
		const struct libpfm_expect *x;
		size_t n;

		load(&cat, names[u]);
		if (cat.requested || !strcmp(cat.uarch, "generic")) {
			/* an alias is checked under its file's name; generic is no core */
			catalog_release(&cat);
			continue;
		}
		x = expectation(cat.uarch);
		if (!x)
			fail_msg("%s: no entry in libpfm_expect[] (test_catalog.c): say how many "
				 "encodings libpfm4 checks, or why it cannot", cat.uarch);
		resolve(&cat, "all", NULL, &r);
		n = crosscheck_uarch(cat.uarch, &r, &unknown);
		if (!x->why && n < x->min)
			fail_msg("%s: %zu encodings cross-checked, expected %zu or more%s%s",
				 cat.uarch, n, x->min, unknown.len ? "; libpfm4 here lacks:" : "",
				 unknown.len ? unknown.buf : "");
		if (x->why && !n)
			print_message("%s: not cross-checked: %s\n", cat.uarch, x->why);
		else
			print_message("%s: %zu encodings agree with libpfm4\n", cat.uarch, n);
		total += n;
		strbuf_release(&unknown);
		resolution_release(&r);
		catalog_release(&cat);
	}
	print_message("%zu catalogue encodings agree with libpfm4\n", total);
	catalog_names_free(names);
}

/* ---- siblings: files libpfm4 cannot check, against files it does -------- */

/* A uarch checked against an older core's file: same event name, same
 * encoding. `min` is how many must agree. */
static const struct sibling {
	const char *uarch, *model;
	size_t min;
} siblings[] = {
	{ "zen5", "zen4", 17 },
	{ "graniterapids", "sapphirerapids", 18 },
	{ "zen2", "zen3", 6 },
	{ "alderlake", "sapphirerapids", 16 },	/* the P-cores: Golden Cove */
	{ "meteorlake", "graniterapids", 17 },	/* the P-cores: Redwood Cove */
	{ "arrowlake", "meteorlake", 26 },	/* Lion Cove vs Redwood Cove, Skymont vs Crestmont */
	{ "skylake", "skylakex", 16 },
	{ "icelake", "icelakex", 15 },
};

/* Events named differently in the two files for the same encoding (each
 * follows its own kernel JSON), compared as one. */
static const struct renamed {
	const char *uarch, *name, *model_name;
} renamed[] = {
	{ "zen5", "ls_dispatch.all", "ls_dispatch.ld_st_all" },
	{ "zen5", "l2_cache_req_stat.all", "l2_cache_req_stat.ic_dc_access_in_l2" },
};

/* Same name, different encoding on purpose. */
static const struct differs {
	const char *uarch, *name, *why;
} differs[] = {
	{ "zen5", "de_no_dispatch_per_slot.no_ops_from_frontend.cycles",
	  "cmask 8: Zen 5 dispatches 8 ops per cycle (amdzen5/pipeline.json), Zen 4 6" },
	{ "zen5", "de_no_dispatch_per_slot.backend_stalls.cycles",
	  "cmask 8: Zen 5 dispatches 8 ops per cycle (amdzen5/pipeline.json), Zen 4 6" },
	{ "arrowlake", "mem_inst_retired.any",
	  "umask 0x87: Lion Cove's MEM_INST_RETIRED.ANY adds software prefetches "
	  "(perfmon ARL arrowlake_lioncove_core.json V1.20), Redwood Cove's is 0x83" },
};

static const struct resolved_event *find_event(const struct resolution *r, const char *name)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].name, name))
			return &r->events[i];
	return NULL;
}

static const char *model_name(const char *uarch, const char *name)
{
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (!strcmp(renamed[i].uarch, uarch) && !strcmp(renamed[i].name, name))
			return renamed[i].model_name;
	return name;
}

static const char *differs_why(const char *uarch, const char *name)
{
	for (size_t i = 0; i < sizeof(differs) / sizeof(differs[0]); i++)
		if (!strcmp(differs[i].uarch, uarch) && !strcmp(differs[i].name, name))
			return differs[i].why;
	return NULL;
}

static void test_sibling_encodings(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(siblings) / sizeof(siblings[0]); s++) {
		const struct sibling *sb = &siblings[s];
		struct catalog cu, cm;
		struct resolution ru, rm;
		size_t same = 0, diff = 0;

		load(&cu, sb->uarch);
		load(&cm, sb->model);
		resolve(&cu, "all", NULL, &ru);
		resolve(&cm, "all", NULL, &rm);
		for (size_t i = 0; i < ru.nevents; i++) {
			const struct resolved_event *e = &ru.events[i];
			const struct resolved_event *f = find_event(&rm, model_name(sb->uarch, e->name));
			const char *why = differs_why(sb->uarch, e->name);
			int equal;

			if (!f || !strcmp(e->pmu_role, "software"))
				continue;
			equal = e->spec.attr.config == f->spec.attr.config &&
				e->spec.attr.config1 == f->spec.attr.config1 &&
				e->system == f->system && !strcmp(e->pmu_role, f->pmu_role);
			if (!equal && !why)
				fail_msg("%s '%s' encodes config %#llx config1 %#llx, %s '%s' %#llx %#llx",
					 sb->uarch, e->name, (unsigned long long)e->spec.attr.config,
					 (unsigned long long)e->spec.attr.config1, sb->model, f->name,
					 (unsigned long long)f->spec.attr.config,
					 (unsigned long long)f->spec.attr.config1);
			if (equal && why)
				fail_msg("%s '%s': listed as differing from %s (%s), but it does not",
					 sb->uarch, e->name, sb->model, why);
			if (equal)
				same++;
			else
				diff++;
		}
		print_message("%s: %zu encodings as in %s, %zu differing on purpose\n", sb->uarch,
			      same, sb->model, diff);
		if (same < sb->min)
			fail_msg("%s: only %zu events agree with %s, expected %zu", sb->uarch, same,
				 sb->model, sb->min);
		resolution_release(&ru);
		resolution_release(&rm);
		catalog_release(&cu);
		catalog_release(&cm);
	}
	/* Every listed difference was seen (the tables do not go stale). */
	for (size_t i = 0; i < sizeof(differs) / sizeof(differs[0]); i++) {
		struct catalog c;
		struct resolution r;

		load(&c, differs[i].uarch);
		resolve(&c, "all", NULL, &r);
		if (!find_event(&r, differs[i].name))
			fail_msg("%s: differs[] names '%s', which the file does not resolve",
				 differs[i].uarch, differs[i].name);
		resolution_release(&r);
		catalog_release(&c);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_uarch_loads),
		cmocka_unit_test(test_uarch_files),
		cmocka_unit_test(test_alias_uarch),
		cmocka_unit_test(test_zen4_l3_no_host),
		cmocka_unit_test(test_zen4_fixtures),
		cmocka_unit_test(test_vm_without_pmu),
		cmocka_unit_test(test_zen5_dev_vm),
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_formula),
		cmocka_unit_test(test_presets_and_errors),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_libpfm_crosscheck),
		cmocka_unit_test(test_sibling_encodings),
	};
	ssize_t n;

	if (argc >= 2 && !strcmp(argv[1], "--libpfm-child"))
		return libpfm_child(argc - 2, argv + 2);
	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (n < 0)
		return 1;
	self_exe[n] = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
