/*
 * Unit tests for host/cpu and host/cpumap: PMUSTAT_CPU parsing, identity
 * from recorded /proc/cpuinfo text (x86 and arm64), and the uarch map —
 * the embedded data/cpus.json against every pretend CPU named in the issue,
 * plus small hand-written maps that prove the rules are order-independent
 * (priorities decide, equal-priority overlaps are refused) and that an
 * unknown model takes the nearest known uarch with a warning. Also the
 * embedding itself (core/embed), since the map is its first user.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/embed.h"
#include "host/cpu.h"
#include "host/cpumap.h"

static void parse_ok(const char *spec, struct cpu_id *id)
{
	struct error err;

	error_clear(&err);
	cpu_id_init(id);
	assert_int_equal(cpu_id_parse(spec, id, &err), 0);
}

static void test_parse_x86(void **state)
{
	struct cpu_id id;

	(void)state;
	parse_ok("AuthenticAMD-25-17-1", &id);
	assert_int_equal(id.arch, CPU_ARCH_X86);
	assert_string_equal(id.vendor, "AuthenticAMD");
	assert_int_equal(id.family, 25);
	assert_int_equal(id.model, 17);
	assert_int_equal(id.stepping, 1);
	parse_ok("GenuineIntel-6-143", &id);
	assert_int_equal(id.model, 143);
	assert_int_equal(id.stepping, -1);
}

static void test_parse_midr(void **state)
{
	struct cpu_id id;

	(void)state;
	parse_ok("0x413fd0c1", &id);
	assert_int_equal(id.arch, CPU_ARCH_ARM64);
	assert_int_equal(id.implementer, 0x41);
	assert_int_equal(id.variant, 3);
	assert_int_equal(id.architecture, 0xf);
	assert_int_equal(id.part, 0xd0c);
	assert_int_equal(id.revision, 1);
}

static void test_parse_errors(void **state)
{
	static const char *const bad[] = {
		"", "AuthenticAMD", "AuthenticAMD-25", "AuthenticAMD-x-17", "AuthenticAMD-25-17-1-2",
		"AuthenticAMD-25-256", "AuthenticAMD-25-17-16", "Authentic AMD-25-17", "-25-17",
		"AuthenticAMD-0x19-17", "0x", "0xzz", "0x1ffffffff", "AuthenticAMD-25--1",
		"AVeryLongVendorName-6-1",
	};
	struct cpu_id id;
	struct error err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		error_clear(&err);
		cpu_id_init(&id);
		if (cpu_id_parse(bad[i], &id, &err) != -1)
			fail_msg("'%s' was accepted", bad[i]);
		assert_int_equal(err.kind, ERR_USAGE);
		assert_non_null(strstr(err.msg, "invalid PMUSTAT_CPU"));
		assert_non_null(strstr(err.hint, "PMUSTAT_CPU=AuthenticAMD-25-17-1"));
	}
}

static void test_cpuinfo_x86(void **state)
{
	static const char text[] =
		"processor\t: 0\n"
		"vendor_id\t: GenuineIntel\n"
		"cpu family\t: 6\n"
		"model\t\t: 143\n"
		"model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
		"stepping\t: 8\n"
		"flags\t\t: fpu tsc arch_perfmon pebs hypervisor hybrid_cpu\n"
		"\n"
		"processor\t: 1\n"
		"vendor_id\t: AuthenticAMD\n";
	struct cpu_id id;

	(void)state;
	cpu_id_init(&id);
	cpu_id_from_cpuinfo(&id, text);
	assert_int_equal(id.arch, CPU_ARCH_X86);
	assert_string_equal(id.vendor, "GenuineIntel");	/* first block only */
	assert_int_equal(id.family, 6);
	assert_int_equal(id.model, 143);
	assert_int_equal(id.stepping, 8);
	assert_string_equal(id.model_name, "Intel(R) Xeon(R) Platinum 8480+");
	assert_int_equal(id.arch_perfmon, 1);
	assert_int_equal(id.hypervisor, 1);
	assert_int_equal(id.hybrid, 1);
	assert_int_equal(id.perfctr_core, 0);
}

static void test_cpuinfo_flags_are_words(void **state)
{
	struct cpu_id id;

	(void)state;
	cpu_id_init(&id);
	/* "perfctr_core_x" and "xhypervisor" must not count as the flags */
	cpu_id_from_cpuinfo(&id, "vendor_id : AuthenticAMD\nflags : xhypervisor perfctr_core_x\n");
	assert_int_equal(id.hypervisor, 0);
	assert_int_equal(id.perfctr_core, 0);
}

static void test_cpuinfo_arm64(void **state)
{
	static const char text[] =
		"processor\t: 0\n"
		"BogoMIPS\t: 50.00\n"
		"Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics\n"
		"CPU implementer\t: 0x41\n"
		"CPU architecture: 8\n"
		"CPU variant\t: 0x3\n"
		"CPU part\t: 0xd0c\n"
		"CPU revision\t: 1\n";
	struct cpu_id id;

	(void)state;
	cpu_id_init(&id);
	cpu_id_from_cpuinfo(&id, text);
	assert_int_equal(id.arch, CPU_ARCH_ARM64);
	assert_true(id.has_midr);
	assert_int_equal(id.midr, 0x4138d0c1);	/* architecture 8, not 0xf: as cpuinfo says */
	assert_int_equal(id.part, 0xd0c);
}

static struct cpu_map *default_map(void)
{
	struct cpu_map *m;
	struct error err;

	error_clear(&err);
	if (cpu_map_load_default(&m, &err))
		fail_msg("data/cpus.json: %s", err.msg);
	return m;
}

static void lookup(const struct cpu_map *m, const char *spec, struct cpu_uarch *u)
{
	struct cpu_id id;

	parse_ok(spec, &id);
	cpu_map_lookup(m, &id, u);
}

/* Every pretend CPU the issue and the fixtures use, and what it must be. */
static void test_default_map(void **state)
{
	static const struct { const char *spec, *uarch, *perf; int exact, warns; } cases[] = {
		{ "AuthenticAMD-25-17-1", "zen4", "amdzen4", 1, 0 },	/* EPYC 9654 Genoa */
		{ "AuthenticAMD-25-1", "zen3", "amdzen3", 1, 0 },	/* EPYC 7763 Milan */
		{ "AuthenticAMD-25-97", "zen4", "amdzen4", 1, 0 },	/* 0x61 Raphael */
		{ "AuthenticAMD-25-160", "zen4", "amdzen4", 1, 0 },	/* 0xa0 Bergamo */
		{ "AuthenticAMD-23-49", "zen2", "amdzen2", 1, 0 },	/* 0x31 Rome */
		{ "AuthenticAMD-23-1", "generic", "amdzen1", 1, 1 },	/* Naples: no catalogue */
		{ "AuthenticAMD-26-2", "zen5", "amdzen5", 1, 0 },	/* the development VM */
		{ "AuthenticAMD-26-17", "zen5", "amdzen5", 0, 1 },	/* 0x11: unnamed, nearest */
		{ "AuthenticAMD-25-200", "zen4", "amdzen4", 0, 1 },	/* 0xc8: unnamed, nearest */
		{ "AuthenticAMD-27-0", "generic", "", 0, 1 },		/* unknown family */
		{ "GenuineIntel-6-143-8", "sapphirerapids", "sapphirerapids", 1, 0 },
		{ "GenuineIntel-6-207", "emeraldrapids", "emeraldrapids", 1, 0 },
		{ "GenuineIntel-6-173", "graniterapids", "graniterapids", 1, 0 },
		{ "GenuineIntel-6-85-4", "skylakex", "skylakex", 1, 0 },
		{ "GenuineIntel-6-85-7", "skylakex", "cascadelakex", 1, 0 },	/* priority 10 > 0 */
		{ "GenuineIntel-6-85", "skylakex", "skylakex", 1, 0 },	/* stepping unknown */
		{ "GenuineIntel-6-106", "icelakex", "icelakex", 1, 0 },
		{ "GenuineIntel-6-126", "icelake", "icelake", 1, 0 },
		{ "GenuineIntel-6-94", "skylake", "skylake", 1, 0 },
		{ "GenuineIntel-6-151", "alderlake", "alderlake", 1, 0 },
		{ "GenuineIntel-6-183", "raptorlake", "alderlake", 1, 0 },	/* Raptor Lake */
		{ "GenuineIntel-6-170", "meteorlake", "meteorlake", 1, 0 },
		{ "GenuineIntel-6-181", "meteorlake", "meteorlake", 1, 0 },	/* 0xb5: Arrow Lake-U */
		{ "GenuineIntel-6-197", "arrowlake", "arrowlake", 1, 0 },	/* 0xc5: Arrow Lake-H */
		{ "GenuineIntel-6-198", "arrowlake", "arrowlake", 1, 0 },	/* 0xc6: Arrow Lake-S */
		{ "GenuineIntel-19-1", "generic", "", 0, 1 },		/* unknown family */
		{ "HygonGenuine-24-1", "generic", "", 0, 1 },		/* unknown vendor */
		{ "0x413fd0c1", "neoverse-n1", "arm/cortex-a76-n1", 1, 0 },
		{ "0x410fd400", "neoverse-v1", "arm/neoverse-v1", 1, 0 },
		{ "0x410fd490", "neoverse-n2", "arm/neoverse-n2-v2", 1, 0 },
		{ "0x410fd4f0", "neoverse-v2", "arm/neoverse-n2-v2", 1, 0 },
		{ "0x410fd030", "generic", "arm/cortex-a53", 1, 1 },
		{ "0x410fd8e0", "neoverse-v2", "arm/neoverse-n2-v2", 0, 1 }, /* 0xd8e (N3): nearest 0xd4f */
		{ "0x610f0220", "generic", "", 0, 1 },			/* Apple: no rules */
	};
	struct cpu_map *m = default_map();
	struct cpu_uarch u;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lookup(m, cases[i].spec, &u);
		if (strcmp(u.name, cases[i].uarch) || strcmp(u.perf, cases[i].perf) ||
		    u.exact != cases[i].exact || !!u.warning[0] != cases[i].warns)
			fail_msg("%s: got %s (perf '%s', exact %d, warning '%s')", cases[i].spec,
				 u.name, u.perf, u.exact, u.warning);
	}
	cpu_map_free(m);
}

static void test_nearest_warning_text(void **state)
{
	struct cpu_map *m = default_map();
	struct cpu_uarch u;

	(void)state;
	lookup(m, "AuthenticAMD-25-200-0", &u);
	assert_non_null(strstr(u.warning, "unknown model AuthenticAMD family 25 model 200 (0xc8)"));
	assert_non_null(strstr(u.warning, "'zen4'"));
	assert_non_null(strstr(u.warning, "--uarch"));
	cpu_map_free(m);
}

static void test_default_map_knowledge(void **state)
{
	struct cpu_map *m = default_map();
	size_t n;
	const char *const *names = cpu_map_uarchs(m, &n);
	static const char *const design[] = {
		"zen2", "zen3", "zen4", "zen5", "skylake", "skylakex", "icelake", "alderlake", "raptorlake", "meteorlake", "arrowlake",
		"icelakex",
		"sapphirerapids", "emeraldrapids", "graniterapids", "neoverse-n1", "neoverse-v1",
		"neoverse-n2", "neoverse-v2", "generic",
	};

	(void)state;
	/* exactly the DESIGN.md names, plus alderlake, raptorlake, meteorlake and arrowlake (issue 17) */
	assert_int_equal(n, sizeof(design) / sizeof(design[0]));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(names[i], design[i]);
	assert_string_equal(cpu_map_hv_by_cpuid(m, "KVMKVMKVM")->name, "KVM");
	assert_string_equal(cpu_map_hv_by_clocksource(m, "kvm-clock")->name, "KVM");
	assert_string_equal(cpu_map_hv_by_dmi(m, "Microsoft Corporation")->name, "Hyper-V");
	assert_null(cpu_map_hv_by_cpuid(m, "NotAHypervisor"));
	assert_null(cpu_map_hv_by_cpuid(m, ""));
	assert_true(cpu_map_is_core_pmu(m, "cpu"));
	assert_true(cpu_map_is_core_pmu(m, "cpu_atom"));
	assert_true(cpu_map_is_core_pmu(m, "armv8_pmuv3_0"));
	assert_false(cpu_map_is_core_pmu(m, "amd_l3"));
	assert_false(cpu_map_is_core_pmu(m, "cpu_x"));
	cpu_map_free(m);
}

static int load_text(const char *json, struct cpu_map **m, struct error *err)
{
	error_clear(err);
	return cpu_map_load(m, json, strlen(json), "test.json", err);
}

#define UARCHS "\"uarchs\": {\"zen3\": \"\", \"zen4\": \"\", \"generic\": \"\"}"

/* The same rules in both orders give the same answers: priority decides. */
static void test_priority_not_order(void **state)
{
	static const char *const maps[2] = {
		"{" UARCHS ", \"x86\": ["
		"{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x00-0xff\"], \"uarch\": \"zen3\", \"priority\": 0},"
		"{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x10\"], \"uarch\": \"zen4\", \"priority\": 5}]}",
		"{" UARCHS ", \"x86\": ["
		"{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x10\"], \"uarch\": \"zen4\", \"priority\": 5},"
		"{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x00-0xff\"], \"uarch\": \"zen3\", \"priority\": 0}]}",
	};
	struct cpu_map *m;
	struct cpu_uarch u;
	struct error err;

	(void)state;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(load_text(maps[i], &m, &err), 0);
		lookup(m, "V-1-16", &u);
		assert_string_equal(u.name, "zen4");
		lookup(m, "V-1-17", &u);
		assert_string_equal(u.name, "zen3");
		assert_true(u.exact);
		cpu_map_free(m);
	}
}

static void test_load_errors(void **state)
{
	static const struct { const char *json, *msg; } cases[] = {
		{ "{" UARCHS ", \"x86\": ["
		  "{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x00-0x20\"], \"uarch\": \"zen3\", \"priority\": 1},"
		  "{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x20-0x30\"], \"uarch\": \"zen4\", \"priority\": 1}]}",
		  "rules x86[0] and x86[1] can match the same CPU at priority 1" },
		{ "{" UARCHS ", \"x86\": ["
		  "{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x20\"], \"uarch\": \"zen3\", \"priority\": 1},"
		  "{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x20\"], \"steppings\": [\"1\"], \"uarch\": \"zen4\", \"priority\": 1}]}",
		  "can match the same CPU" },
		{ "{" UARCHS ", \"x86\": [{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x20\"], \"uarch\": \"zen9\", \"priority\": 1}]}",
		  "unknown uarch 'zen9'" },
		{ "{" UARCHS ", \"x86\": [{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x20\"], \"uarch\": \"zen3\"}]}",
		  "no integer 'priority'" },
		{ "{" UARCHS ", \"x86\": [{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x30-0x20\"], \"uarch\": \"zen3\", \"priority\": 1}]}",
		  "bad models range 0x30-0x20" },
		{ "{" UARCHS ", \"x86\": [{\"vendor\": \"V\", \"family\": 1, \"models\": [], \"uarch\": \"zen3\", \"priority\": 1}]}",
		  "'models' must be a non-empty array" },
		{ "{" UARCHS ", \"arm64\": [{\"implementer\": \"ARM\", \"parts\": [\"0xd0c\"], \"uarch\": \"zen3\", \"priority\": 1}]}",
		  "needs an 'implementer'" },
		{ "{\"uarchs\": {\"zen3\": \"\"}}", "must be an object that includes 'generic'" },
		{ "{\"uarchs\": ", "test.json:1:" },
	};
	struct cpu_map *m;
	struct error err;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (load_text(cases[i].json, &m, &err) != -1)
			fail_msg("case %zu loaded", i);
		assert_null(m);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
	}
}

static void test_nearest(void **state)
{
	static const char json[] = "{" UARCHS ", \"x86\": ["
		"{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x10-0x1f\"], \"uarch\": \"zen3\", \"priority\": 1},"
		"{\"vendor\": \"V\", \"family\": 1, \"models\": [\"0x30-0x3f\"], \"uarch\": \"zen4\", \"priority\": 1}]}";
	struct cpu_map *m;
	struct cpu_uarch u;
	struct error err;

	(void)state;
	assert_int_equal(load_text(json, &m, &err), 0);
	lookup(m, "V-1-34", &u);	/* 0x22: 3 from zen3, 14 from zen4 */
	assert_string_equal(u.name, "zen3");
	assert_false(u.exact);
	assert_non_null(strstr(u.warning, "nearest"));
	lookup(m, "V-1-40", &u);	/* 0x28: 9 from zen3, 8 from zen4 */
	assert_string_equal(u.name, "zen4");
	lookup(m, "V-1-39", &u);	/* 0x27: 8 and 9 */
	assert_string_equal(u.name, "zen3");
	lookup(m, "V-2-16", &u);	/* family without rules */
	assert_string_equal(u.name, "generic");
	cpu_map_free(m);
}

static void test_uarch_override(void **state)
{
	struct cpu_id id;
	struct cpu_uarch u;
	struct error err;

	(void)state;
	parse_ok("AuthenticAMD-25-17-1", &id);
	unsetenv("PMUSTAT_UARCH");
	error_clear(&err);
	assert_int_equal(cpu_uarch(&id, NULL, &u, &err), 0);
	assert_string_equal(u.name, "zen4");
	assert_string_equal(u.source, "data/cpus.json");
	assert_int_equal(cpu_uarch(&id, "sapphirerapids", &u, &err), 0);
	assert_string_equal(u.name, "sapphirerapids");
	assert_string_equal(u.detected, "zen4");
	assert_string_equal(u.source, "--uarch");
	setenv("PMUSTAT_UARCH", "neoverse-n1", 1);
	assert_int_equal(cpu_uarch(&id, NULL, &u, &err), 0);
	assert_string_equal(u.name, "neoverse-n1");
	assert_string_equal(u.source, "PMUSTAT_UARCH");
	assert_int_equal(cpu_uarch(&id, "zen3", &u, &err), 0);	/* the option wins */
	assert_string_equal(u.name, "zen3");
	unsetenv("PMUSTAT_UARCH");
	assert_int_equal(cpu_uarch(&id, "zen44", &u, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg, "unknown uarch 'zen44' (from --uarch)");
	assert_string_equal(err.hint, "did you mean 'zen4'?");
}

static void test_embed(void **state)
{
	size_t len = 0, n;
	const char *text = embed_find("data/cpus.json", &len);
	const struct embed_file *files = embed_files(&n);

	(void)state;
	assert_non_null(text);
	assert_true(len > 100);
	assert_int_equal(text[len], '\0');
	assert_int_equal(strlen(text), len);
	assert_null(embed_find("data/nonexistent.json", NULL));
	assert_null(embed_find("cpus.json", NULL));
	assert_true(n >= 1);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(files[i - 1].name, files[i].name) < 0);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(embed_find(files[i].name, NULL), (const char *)files[i].data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_x86),
		cmocka_unit_test(test_parse_midr),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_cpuinfo_x86),
		cmocka_unit_test(test_cpuinfo_flags_are_words),
		cmocka_unit_test(test_cpuinfo_arm64),
		cmocka_unit_test(test_default_map),
		cmocka_unit_test(test_nearest_warning_text),
		cmocka_unit_test(test_default_map_knowledge),
		cmocka_unit_test(test_priority_not_order),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_uarch_override),
		cmocka_unit_test(test_embed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
