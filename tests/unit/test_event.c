/*
 * Unit tests for catalog/event: every accepted syntax with golden
 * encodings, every error with its exact message and hint, and -e list
 * splitting. Encodings on CPUs we do not have come from the constructed
 * zen4 fixtures; libpfm4 (LIBPFM_FORCE_PMU) is the independent cross-check:
 * the same event named by libpfm and written in PMU syntax against the
 * fixture must encode identically. libpfm reads LIBPFM_FORCE_PMU once per
 * process, so other forced PMUs are checked in a re-executed child.
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

#include "catalog/event.h"
#include "core/strbuf.h"
#include "host/sysfs.h"

static char *self_exe;	/* for re-executing with another forced PMU */

static void load_fixture(struct sysfs_model *m, const char *machine)
{
	const char *dir = getenv("PMUSTAT_TEST_FIXTURES");
	struct strbuf sb = STRBUF_INIT;
	struct error err;

	strbuf_addf(&sb, "%s/%s/sys", dir && *dir ? dir : "tests/fixtures", machine);
	setenv("PMUSTAT_SYSFS_ROOT", sb.buf, 1);
	if (sysfs_model_load(m, NULL, &err) < 0)
		fail_msg("loading %s: %s", sb.buf, err.msg);
	strbuf_release(&sb);
}

/* Parse str, which must succeed; the caller releases ev. */
static void parse_ok(const struct sysfs_model *m, const char *str, struct event_spec *ev)
{
	struct error err;

	error_clear(&err);
	if (event_parse(m, str, ev, &err) < 0)
		fail_msg("'%s': %s (hint: %s)", str, err.msg, err.hint);
	assert_int_equal(ev->attr.size, sizeof(ev->attr));
}

static void check_enc(const struct sysfs_model *m, const char *str, __u32 type,
		      __u64 config)
{
	struct event_spec ev;

	parse_ok(m, str, &ev);
	if (ev.attr.type != type || ev.attr.config != config)
		fail_msg("'%s': type %u config %#llx, want type %u config %#llx", str,
			 ev.attr.type, (unsigned long long)ev.attr.config, type,
			 (unsigned long long)config);
	event_spec_release(&ev);
}

/* Parse str, which must fail with exactly msg, and a hint containing hint. */
static void check_err(const struct sysfs_model *m, const char *str, const char *msg,
		      const char *hint)
{
	struct event_spec ev;
	struct error err;

	error_clear(&err);
	if (event_parse(m, str, &ev, &err) == 0)
		fail_msg("'%s' parsed, want error '%s'", str, msg);
	assert_int_equal(err.kind, ERR_USAGE);
	if (strcmp(err.msg, msg))
		fail_msg("'%s': got '%s', want '%s'", str, err.msg, msg);
	if (!strstr(err.hint, hint))
		fail_msg("'%s': hint '%s' lacks '%s'", str, err.hint, hint);
	assert_null(ev.name);	/* nothing left to release */
}

/* ---- generic, cache, software, raw ------------------------------------- */

static void test_generic(void **state)
{
	struct event_spec ev;

	(void)state;
	parse_ok(NULL, "cpu-cycles", &ev);
	assert_string_equal(ev.name, "cycles");
	assert_string_equal(ev.pmu, "cpu");
	assert_int_equal(ev.origin, EVO_GENERIC);
	assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
	assert_true(ev.attr.config == PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(ev.uncore, 0);
	assert_true(ev.scale == 1.0);
	assert_string_equal(ev.unit, "");
	assert_int_equal(ev.attr.exclude_user | ev.attr.exclude_kernel | ev.attr.exclude_hv, 0);
	event_spec_release(&ev);
	check_enc(NULL, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	check_enc(NULL, "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	check_enc(NULL, "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	check_enc(NULL, "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	check_enc(NULL, "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	check_enc(NULL, "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES);
	check_enc(NULL, "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES);
	check_enc(NULL, "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES);
	check_enc(NULL, "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
	check_enc(NULL, "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
	check_enc(NULL, "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES);
}

static void test_software(void **state)
{
	struct event_spec ev;

	(void)state;
	parse_ok(NULL, "task-clock", &ev);
	assert_string_equal(ev.name, "task-clock");
	assert_string_equal(ev.pmu, "software");
	assert_int_equal(ev.origin, EVO_SOFTWARE);
	assert_true(ev.attr.config == PERF_COUNT_SW_TASK_CLOCK);
	assert_true(ev.scale == 1e-6);	/* ns counted, msec shown */
	assert_string_equal(ev.unit, "msec");
	event_spec_release(&ev);
	parse_ok(NULL, "cs", &ev);
	assert_string_equal(ev.name, "context-switches");
	event_spec_release(&ev);
	check_enc(NULL, "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	check_enc(NULL, "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	check_enc(NULL, "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	check_enc(NULL, "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	check_enc(NULL, "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	check_enc(NULL, "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	check_enc(NULL, "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS);
	check_enc(NULL, "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS);
	check_enc(NULL, "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS);
	check_enc(NULL, "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS);
	check_enc(NULL, "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
}

#define CACHE(c, op, res) ((c) | ((op) << 8) | ((res) << 16))

static void test_cache(void **state)
{
	struct event_spec ev;

	(void)state;
	check_enc(NULL, "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
		  CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS));
	check_enc(NULL, "L1-dcache-loads", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D);
	check_enc(NULL, "LLC-loads", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL);
	check_enc(NULL, "dTLB-store-misses", PERF_TYPE_HW_CACHE,
		  CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_MISS));
	check_enc(NULL, "iTLB-load-misses", PERF_TYPE_HW_CACHE,
		  CACHE(PERF_COUNT_HW_CACHE_ITLB, 0, PERF_COUNT_HW_CACHE_RESULT_MISS));
	check_enc(NULL, "node-prefetches", PERF_TYPE_HW_CACHE,
		  CACHE(PERF_COUNT_HW_CACHE_NODE, PERF_COUNT_HW_CACHE_OP_PREFETCH, 0));
	/* perf's other spellings decode, and display canonically. */
	parse_ok(NULL, "l1d-load-miss", &ev);
	assert_string_equal(ev.name, "L1-dcache-load-misses");
	assert_int_equal(ev.attr.type, PERF_TYPE_HW_CACHE);
	event_spec_release(&ev);
	parse_ok(NULL, "branch-loads", &ev);
	assert_true(ev.attr.config == PERF_COUNT_HW_CACHE_BPU);
	event_spec_release(&ev);
	/* iTLB has no stores (perf's evsel__hw_cache_stat). */
	check_err(NULL, "iTLB-stores", "unknown event 'iTLB-stores'", "did you mean 'dTLB-stores'?");
	check_err(NULL, "L1-dcache-lods", "unknown event 'L1-dcache-lods'", "did you mean 'L1-dcache-loads'? (pmustat list)");
}

/* Every name we advertise must parse: list and parser cannot drift. */
static void test_builtin_names_parse(void **state)
{
	const char *const *n = event_builtin_names();
	struct event_spec ev;
	size_t i;

	(void)state;
	for (i = 0; n[i]; i++) {
		parse_ok(NULL, n[i], &ev);
		assert_int_not_equal(ev.origin, EVO_LIBPFM);
		event_spec_release(&ev);
	}
	assert_true(i > 50);
}

static void test_modifiers(void **state)
{
	struct event_spec ev;

	(void)state;
	parse_ok(NULL, "cycles:u", &ev);
	assert_string_equal(ev.name, "cycles:u");
	assert_int_equal(ev.attr.exclude_user, 0);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	assert_int_equal(ev.attr.exclude_hv, 1);
	assert_int_equal(ev.attr.exclude_guest, 1);	/* as perf */
	event_spec_release(&ev);
	parse_ok(NULL, "task-clock:k", &ev);
	assert_int_equal(ev.attr.exclude_user, 1);
	assert_int_equal(ev.attr.exclude_kernel, 0);
	assert_int_equal(ev.attr.exclude_hv, 1);
	event_spec_release(&ev);
	parse_ok(NULL, "instructions:uk", &ev);
	assert_int_equal(ev.attr.exclude_user | ev.attr.exclude_kernel, 0);
	assert_int_equal(ev.attr.exclude_hv, 1);
	event_spec_release(&ev);
	parse_ok(NULL, "cycles:h", &ev);
	assert_int_equal(ev.attr.exclude_user & ev.attr.exclude_kernel, 1);
	assert_int_equal(ev.attr.exclude_hv, 0);
	event_spec_release(&ev);
	check_err(NULL, "cycles:x", "unknown modifier 'x' in 'cycles:x'", "u (user)");
}

static void test_raw(void **state)
{
	struct event_spec ev;

	(void)state;
	parse_ok(NULL, "r01c2", &ev);
	assert_int_equal(ev.origin, EVO_RAW);
	assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
	assert_true(ev.attr.config == 0x1c2);
	assert_string_equal(ev.name, "r01c2");
	event_spec_release(&ev);
	parse_ok(NULL, "r1000000C0:u", &ev);
	assert_true(ev.attr.config == 0x1000000c0ull);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	event_spec_release(&ev);
}

/* ---- PMU syntax -------------------------------------------------------- */

static void test_pmu_alias_vm(void **state)
{
	struct sysfs_model m;
	struct event_spec ev;

	(void)state;
	load_fixture(&m, "vm-nopmu");
	parse_ok(&m, "msr/tsc/", &ev);
	assert_string_equal(ev.name, "msr/tsc/");
	assert_string_equal(ev.pmu, "msr");
	assert_int_equal(ev.origin, EVO_PMU);
	assert_int_equal(ev.attr.type, 9);
	assert_true(ev.attr.config == 0);
	assert_int_equal(ev.uncore, 0);
	event_spec_release(&ev);
	check_enc(&m, "msr/event=0x1/", 9, 1);
	check_enc(&m, "msr/event=18446744073709551615/", 9, UINT64_MAX);
	check_enc(&m, "uprobe/retprobe,ref_ctr_offset=0x10/", 8, 0x1000000001ull);
	sysfs_model_release(&m);
}

static void test_pmu_zen4_golden(void **state)
{
	struct sysfs_model m;
	struct event_spec ev;

	(void)state;
	load_fixture(&m, "zen4");
	/* Event select bits 8-11 land in config bits 32-35. */
	check_enc(&m, "cpu/event=0x1c0,umask=0x2/", 4, 0x1000002c0ull);
	/* Aliases, and the kernel's own map (amd_zen4_perfmon_event_map). */
	check_enc(&m, "cpu/cpu-cycles/", 4, 0x76);
	check_enc(&m, "cpu/cache-references/", 4, 0xff60);
	check_enc(&m, "cpu/ref-cycles/", 4, 0x100000120ull);
	/* Alias then terms: later terms override, bare terms are 1. */
	check_enc(&m, "cpu/cache-misses,cmask=1,inv/", 4, 0x01800964);
	check_enc(&m, "cpu/cpu-cycles,event=0xc0/", 4, 0xc0);
	check_enc(&m, "cpu/event=0x76,edge/", 4, 0x40076);
	check_enc(&m, "cpu/config=0x1234/", 4, 0x1234);
	/* Modifiers after the closing slash, with or without a colon. */
	parse_ok(&m, "cpu/event=0x76/u", &ev);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	assert_int_equal(ev.attr.exclude_user, 0);
	event_spec_release(&ev);
	parse_ok(&m, "cpu/event=0x76/:k", &ev);
	assert_int_equal(ev.attr.exclude_user, 1);
	assert_int_equal(ev.uncore, 0);
	event_spec_release(&ev);
	/* Uncore PMUs (with a cpumask) count per package/complex. */
	parse_ok(&m, "amd_l3/event=0x04,umask=0xff/", &ev);
	assert_int_equal(ev.attr.type, 13);
	assert_true(ev.attr.config == 0xff04);
	assert_int_equal(ev.uncore, 1);
	assert_string_equal(ev.pmu, "amd_l3");
	event_spec_release(&ev);
	check_enc(&m, "amd_l3/event=0x04,umask=0xff,threadmask=3,enallcores/", 13,
		  0x030080000000ff04ull);
	/* .scale and .unit ride along with the alias. */
	parse_ok(&m, "power/energy-pkg/", &ev);
	assert_true(ev.scale == 2.3283064365386962890625e-10);
	assert_string_equal(ev.unit, "Joules");
	assert_int_equal(ev.uncore, 1);
	assert_true(ev.attr.config == 2);
	event_spec_release(&ev);
	sysfs_model_release(&m);
}

static void test_pmu_errors(void **state)
{
	struct sysfs_model m;

	(void)state;
	load_fixture(&m, "zen4-no-uncore");
	check_err(&m, "amd_l3/event=0x04/", "unknown PMU 'amd_l3' in 'amd_l3/event=0x04/'",
		  "the 'amd_l3' PMU appears after 'modprobe amd_uncore' (pmustat doctor); "
		  "PMUs here: breakpoint, cpu, kprobe, msr, power, software, tracepoint, uprobe");
	check_err(&m, "amd_df/event=0x07/", "unknown PMU 'amd_df' in 'amd_df/event=0x07/'",
		  "modprobe amd_uncore");
	check_err(&m, "cpu/umask=0x100/",
		  "in 'cpu/umask=0x100/': value 0x100 does not fit in term 'umask' (8 bits, at most 0xff)",
		  "use a value below 0x100");
	check_err(&m, "cpu/event=0x1000/",
		  "in 'cpu/event=0x1000/': value 0x1000 does not fit in term 'event' (12 bits, at most 0xfff)",
		  "0x1000");
	check_err(&m, "cpu/edge=2/",
		  "in 'cpu/edge=2/': value 0x2 does not fit in term 'edge' (1 bits, at most 0x1)", "");
	check_err(&m, "cpu/evnt=0x76/", "PMU 'cpu' has no format term 'evnt'",
		  "did you mean 'event'? terms of 'cpu': cmask, edge, event, inv, umask; events: ");
	sysfs_model_release(&m);

	load_fixture(&m, "vm-nopmu");
	check_err(&m, "amd_l3/event=0x04/", "unknown PMU 'amd_l3' in 'amd_l3/event=0x04/'",
		  "PMUs here: breakpoint, msr, software, tracepoint, uprobe");
	check_err(&m, "cpu/event=0x76/", "unknown PMU 'cpu' in 'cpu/event=0x76/'",
		  "no hardware PMU is exposed here (typical of VMs)");
	check_err(&m, "mrs/tsc/", "unknown PMU 'mrs' in 'mrs/tsc/'",
		  "did you mean 'msr'? PMUs here: ");
	check_err(&m, "msr/umask=1/", "PMU 'msr' has no format term 'umask'",
		  "terms of 'msr': event; events: tsc");
	check_err(&m, "msr/tcs/", "PMU 'msr' has no event or format term 'tcs'",
		  "did you mean 'tsc'?");
	check_err(NULL, "msr/tsc/", "cannot resolve PMU event 'msr/tsc/' without the sysfs PMU model",
		  "cycles");
	sysfs_model_release(&m);
}

static void test_malformed(void **state)
{
	struct sysfs_model m;

	(void)state;
	load_fixture(&m, "zen4");
	check_err(&m, "cpu/event=0x76", "unterminated PMU event 'cpu/event=0x76': missing the closing '/'",
		  "write it as 'cpu/event=0x76/'");
	check_err(&m, "cpu/event=0x76,,umask=1/", "empty term in 'cpu/event=0x76,,umask=1/'",
		  "single commas");
	check_err(&m, "cpu/event=0x76,/", "empty term in 'cpu/event=0x76,/'", "");
	check_err(&m, "cpu//", "empty term in 'cpu//'", "");
	check_err(&m, "cpu/event=0xZZ/", "bad number '0xZZ' for term 'event' in 'cpu/event=0xZZ/'",
		  "decimal or 0x-prefixed hex");
	check_err(&m, "cpu/event=/", "bad number '' for term 'event' in 'cpu/event=/'", "");
	check_err(&m, "cpu/event=-1/", "bad number '-1' for term 'event' in 'cpu/event=-1/'", "");
	check_err(&m, "cpu/event=99999999999999999999/",
		  "bad number '99999999999999999999' for term 'event' in 'cpu/event=99999999999999999999/'", "");
	check_err(&m, "/event=1/", "missing PMU name in '/event=1/'", "pmu/term=value");
	check_err(&m, "cpu/event=1/x/", "unexpected '/' after the term list in 'cpu/event=1/x/'", "");
	check_err(&m, "cpu/event=1/x", "unknown modifier 'x' in 'cpu/event=1/x'", "");
	check_err(&m, "", "empty event name", "pmustat list");
	sysfs_model_release(&m);
}

static void test_unknown_event(void **state)
{
	struct sysfs_model m;

	(void)state;
	check_err(NULL, "tsk-clock", "unknown event 'tsk-clock'",
		  "did you mean 'task-clock'? (pmustat list)");
	load_fixture(&m, "vm-nopmu");
	/* sysfs aliases are offered in the syntax that names them. */
	check_err(&m, "tsx", "unknown event 'tsx'", "did you mean 'msr/tsc/'? (pmustat list)");
	check_err(&m, "qqqqqqqqqq", "unknown event 'qqqqqqqqqq'",
		  "see the events available here with 'pmustat list'");
	sysfs_model_release(&m);
}

/* ---- libpfm4 cross-checks ---------------------------------------------- */

/* A name far longer than any candidate is refused like a short one (and,
 * since suggestions skip candidates of a too different length, in time
 * linear in its length: see test_suggest.c). */
static void check_long_unknown(const struct sysfs_model *m)
{
	size_t n = 100000;
	char *s = malloc(n + 1);
	struct event_spec ev;
	struct error err;

	memset(s, 'q', n);
	memcpy(s, "RETIRED_OPS", 11);
	s[n] = '\0';
	error_clear(&err);
	assert_int_equal(event_parse(m, s, &ev, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_true(!strncmp(err.msg, "unknown event 'RETIRED_OPSqqq", 29));
	assert_string_equal(err.hint, "see the events available here with 'pmustat list'");
	free(s);
}

static void test_libpfm_zen4(void **state)
{
	struct sysfs_model m;
	struct event_spec pfm, pmu;

	(void)state;
	load_fixture(&m, "zen4");
	parse_ok(&m, "RETIRED_OPS", &pfm);
	assert_int_equal(pfm.origin, EVO_LIBPFM);
	assert_string_equal(pfm.name, "RETIRED_OPS");
	assert_string_equal(pfm.pmu, "cpu");
	assert_true(pfm.attr.config == 0xc1);
	parse_ok(&m, "cpu/event=0xc1/", &pmu);
	assert_int_equal(pfm.attr.type, pmu.attr.type);
	assert_true(pfm.attr.config == pmu.attr.config);
	event_spec_release(&pfm);
	event_spec_release(&pmu);
	/* libpfm's table against the kernel's, through the fixture's alias. */
	parse_ok(&m, "RETIRED_INSTRUCTIONS", &pfm);
	parse_ok(&m, "cpu/instructions/", &pmu);
	assert_true(pfm.attr.config == pmu.attr.config);
	assert_int_equal(pfm.attr.type, pmu.attr.type);
	event_spec_release(&pfm);
	event_spec_release(&pmu);
	parse_ok(&m, "amd64_fam19h_zen4::RETIRED_OPS:u", &pfm);
	assert_true(pfm.attr.config == 0xc1);
	assert_int_equal(pfm.attr.exclude_kernel, 1);
	assert_int_equal(pfm.attr.exclude_user, 0);
	event_spec_release(&pfm);
	/* libpfm's "event not found" becomes our error, with its names. */
	check_err(&m, "RETIRED_OPX", "unknown event 'RETIRED_OPX'",
		  "did you mean 'RETIRED_OPS'? (pmustat list)");
	check_err(&m, "amd64_fam19h_zen4::RETIRED_OPX:u",
		  "unknown event 'amd64_fam19h_zen4::RETIRED_OPX:u'", "'RETIRED_OPS'");
	check_err(&m, "RETIRED_OPS:bogus",
		  "cannot encode libpfm4 event 'RETIRED_OPS:bogus': invalid event attribute",
		  "pmustat explain RETIRED_OPS");
	check_long_unknown(&m);
	sysfs_model_release(&m);
}

/*
 * Child mode: encode argv[2] with whatever LIBPFM_FORCE_PMU the parent set,
 * print "type config", exit 0; or exit 1.
 */
static int libpfm_child(const char *event)
{
	struct event_spec ev;
	struct error err;

	if (event_parse(NULL, event, &ev, &err) < 0 || ev.origin != EVO_LIBPFM) {
		fprintf(stderr, "%s: %s\n", event, err.msg);
		return 1;
	}
	printf("%u %llx\n", ev.attr.type, (unsigned long long)ev.attr.config);
	event_spec_release(&ev);
	return 0;
}

static const struct {
	const char *pmu, *event, *raw;
} golden[] = {
	{ "amd64_fam19h_zen4", "RETIRED_OPS", "rc1" },
	{ "amd64_fam19h_zen4", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "rc3" },
	{ "skx", "INST_RETIRED:ANY_P", "rc0" },
	{ "skx", "BR_MISP_RETIRED:ALL_BRANCHES", "rc5" },
	{ "icl", "INST_RETIRED:ANY_P", "rc0" },
	{ "spr", "BR_MISP_RETIRED:ALL_BRANCHES", "rc5" },
};

static void test_libpfm_forced_pmus(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		struct strbuf cmd = STRBUF_INIT;
		struct event_spec raw;
		unsigned type;
		unsigned long long config;
		FILE *p;
		int n;

		strbuf_addf(&cmd, "LIBPFM_FORCE_PMU=%s '%s' --libpfm-child '%s'",
			    golden[i].pmu, self_exe, golden[i].event);
		p = popen(cmd.buf, "r");
		assert_non_null(p);
		n = fscanf(p, "%u %llx", &type, &config);
		if (pclose(p) != 0 || n != 2)
			fail_msg("%s with %s did not encode", golden[i].event, golden[i].pmu);
		parse_ok(NULL, golden[i].raw, &raw);
		if (type != raw.attr.type || config != raw.attr.config)
			fail_msg("%s on %s: %u/%#llx, want %s", golden[i].event, golden[i].pmu,
				 type, config, golden[i].raw);
		event_spec_release(&raw);
		strbuf_release(&cmd);
	}
}

/* ---- -e lists ---------------------------------------------------------- */

static void check_split(const char *list, int want, const char *const *items)
{
	struct error err;
	char **got;
	int n, i;

	n = event_list_split(list, &got, &err);
	if (n != want)
		fail_msg("'%s': %d items, want %d (%s)", list, n, want, err.msg);
	for (i = 0; i < n; i++)
		assert_string_equal(got[i], items[i]);
	assert_null(got[n]);
	event_list_free(got);
}

static void check_split_err(const char *list, const char *msg)
{
	struct error err;
	char **got = (char **)&got;

	error_clear(&err);
	assert_int_equal(event_list_split(list, &got, &err), -1);
	assert_null(got);
	assert_string_equal(err.msg, msg);
	assert_true(err.hint[0] != '\0');
}

static void test_list_split(void **state)
{
	(void)state;
	check_split("task-clock,cpu/event=0x76,umask=0/,msr/tsc/", 3,
		    (const char *[]){ "task-clock", "cpu/event=0x76,umask=0/", "msr/tsc/" });
	check_split("cycles", 1, (const char *[]){ "cycles" });
	check_split(" cycles , instructions:u ", 2, (const char *[]){ "cycles", "instructions:u" });
	check_split("cpu/event=1,umask=2/u,r01c2", 2,
		    (const char *[]){ "cpu/event=1,umask=2/u", "r01c2" });
	check_split_err("cycles,,instructions", "empty event in event list 'cycles,,instructions'");
	check_split_err("cycles,", "empty event in event list 'cycles,'");
	check_split_err(",cycles", "empty event in event list ',cycles'");
	check_split_err("", "empty event in event list ''");
	check_split_err("cycles, ,instructions", "empty event in event list 'cycles, ,instructions'");
	check_split_err("cpu/event=1,instructions", "unterminated '/' in event list 'cpu/event=1,instructions'");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_builtin_names_parse),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_pmu_alias_vm),
		cmocka_unit_test(test_pmu_zen4_golden),
		cmocka_unit_test(test_pmu_errors),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_unknown_event),
		cmocka_unit_test(test_libpfm_zen4),
		cmocka_unit_test(test_libpfm_forced_pmus),
		cmocka_unit_test(test_list_split),
	};
	char buf[4096];
	ssize_t n;

	if (argc == 3 && !strcmp(argv[1], "--libpfm-child"))
		return libpfm_child(argv[2]);
	/* Before anything touches libpfm: its PMU is chosen once per process. */
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen4", 1);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n < 0)
		return 1;
	buf[n] = '\0';
	self_exe = buf;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
