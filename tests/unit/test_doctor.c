/*
 * Unit tests for host/checks (what `pmustat doctor` reports): the checks on
 * recorded and constructed machines (tests/fixtures), read through
 * PMUSTAT_SYSFS_ROOT / PMUSTAT_PROC_ROOT as the tool does — statuses,
 * causes, remedies, the verdict line, that nothing is tried in recorded
 * mode — and checks_explain_hw_event, the words `pmustat stat` borrows.
 * Fixtures are found under $PMUSTAT_TEST_FIXTURES, else tests/fixtures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/strbuf.h"
#include "fixtures.h"
#include "host/checks.h"

static void run_on(struct checks *c, const char *machine)
{
	struct error err;

	use_fixture(machine);
	error_clear(&err);
	if (checks_run(c, NULL, &err))
		fail_msg("checks on %s: %s", machine, err.msg);
}

static const struct check *find(const struct checks *c, const char *id)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].id, id))
			return &c->v[i];
	fail_msg("no check '%s'", id);
	return NULL;
}

static void assert_contains(const char *s, const char *part)
{
	if (!s || !strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s ? s : "(null)", part);
}

/* Every gap has a cause and a remedy; nothing is tried when recorded. */
static void assert_well_formed(const struct checks *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct check *k = &c->v[i];

		assert_non_null(k->summary);
		if (k->status != CHECK_OK && (!k->cause || !k->remedy))
			fail_msg("check '%s' is %s without cause or remedy", k->id,
				 check_status_name(k->status));
		if (c->recorded)
			assert_int_not_equal(k->tried, CHECK_TRIED);
	}
}

static void test_kvm_guest(void **state)
{
	struct checks c;
	char verdict[512];

	(void)state;
	run_on(&c, "kvm-guest");
	assert_well_formed(&c);
	assert_true(c.recorded);
	assert_int_equal(c.hv.virtual_machine, 1);
	assert_string_equal(c.hv.name, "KVM");
	assert_int_equal(c.ncore_pmus, 0);
	assert_int_equal(find(&c, "core_pmu")->status, CHECK_UNAVAILABLE);
	assert_contains(find(&c, "core_pmu")->remedy, "-cpu host,pmu=on");
	assert_int_equal(find(&c, "msr")->status, CHECK_OK);
	assert_int_equal(find(&c, "amd_l3")->status, CHECK_UNAVAILABLE);
	assert_int_equal(find(&c, "rdpmc")->status, CHECK_UNAVAILABLE);
	assert_int_equal(find(&c, "smt")->status, CHECK_OK);
	checks_verdict(&c, verdict, sizeof(verdict));
	assert_string_equal(verdict, "hardware counters: unavailable — virtual machine without "
			    "a virtual PMU (KVM); available: software events, msr/tsc");
	checks_release(&c);
}

static void test_zen4_uncore(void **state)
{
	struct checks c;

	(void)state;
	run_on(&c, "zen4");
	assert_well_formed(&c);
	assert_string_equal(c.uarch.name, "zen4");
	assert_int_equal(c.hv.virtual_machine, 0);
	assert_int_equal(c.hw_status, CHECK_LIMITED);
	assert_int_equal(find(&c, "amd_l3")->status, CHECK_LIMITED);
	assert_int_equal(find(&c, "amd_df")->status, CHECK_LIMITED);
	assert_contains(find(&c, "amd_umc")->cause, "Linux 6.7");
	checks_release(&c);
	run_on(&c, "zen4-no-uncore");
	assert_int_equal(find(&c, "amd_l3")->status, CHECK_UNAVAILABLE);
	assert_contains(find(&c, "amd_l3")->remedy, "modprobe amd_uncore");
	checks_release(&c);
}

static void test_uarch_override_in_checks(void **state)
{
	struct checks c;
	struct error err;

	(void)state;
	use_fixture("zen4");
	error_clear(&err);
	assert_int_equal(checks_run(&c, "sapphirerapids", &err), 0);
	assert_string_equal(c.uarch.name, "sapphirerapids");
	assert_string_equal(c.uarch.detected, "zen4");
	/* no AMD uncore expectations for an Intel uarch */
	for (size_t i = 0; i < c.n; i++)
		assert_string_not_equal(c.v[i].id, "amd_l3");
	checks_release(&c);
	assert_int_equal(checks_run(&c, "zen44", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	checks_release(&c);
	setenv("PMUSTAT_CPU", "GenuineIntel-6-x", 1);
	assert_int_equal(checks_run(&c, NULL, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	checks_release(&c);
	unsetenv("PMUSTAT_CPU");
}

static void test_intel_and_arm(void **state)
{
	struct checks c;

	(void)state;
	run_on(&c, "spr");
	assert_well_formed(&c);
	assert_string_equal(c.uarch.name, "sapphirerapids");
	assert_int_equal(find(&c, "nmi_watchdog")->status, CHECK_LIMITED);
	assert_int_equal(find(&c, "uncore_imc")->status, CHECK_LIMITED);
	assert_int_equal(find(&c, "turbo")->status, CHECK_LIMITED);
	checks_release(&c);

	run_on(&c, "adl-hybrid");
	assert_well_formed(&c);
	assert_int_equal(c.ncore_pmus, 2);
	assert_int_equal(find(&c, "hybrid")->status, CHECK_LIMITED);
	assert_contains(find(&c, "hybrid")->remedy, "--pin 0");
	assert_contains(find(&c, "core_pmu")->summary, "'cpu_core'");
	checks_release(&c);

	/* Arrow Lake-H: three core PMUs, the low-power E-cores named */
	run_on(&c, "arl-h");
	assert_well_formed(&c);
	assert_string_equal(c.uarch.name, "arrowlake");
	assert_int_equal(c.ncore_pmus, 3);
	assert_contains(find(&c, "hybrid")->summary, "cpu_lowpower (low-power E-cores, CPUs 14-15)");
	assert_contains(find(&c, "hybrid")->cause, "NAME.cpu_lowpower");
	checks_release(&c);

	run_on(&c, "arl-s");
	assert_well_formed(&c);
	assert_int_equal(c.ncore_pmus, 2);
	assert_contains(find(&c, "hybrid")->summary, "cpu_atom (E-cores, CPUs 8-23)");
	checks_release(&c);

	run_on(&c, "neoverse-n1");
	assert_well_formed(&c);
	assert_int_equal(c.cpu.arch, CPU_ARCH_ARM64);
	assert_string_equal(c.uarch.name, "neoverse-n1");
	assert_string_equal(c.uarch.vendor, "ARM");
	assert_int_equal(find(&c, "rdpmc")->status, CHECK_LIMITED);
	for (size_t i = 0; i < c.n; i++)
		assert_string_not_equal(c.v[i].id, "msr");	/* x86 only */
	checks_release(&c);
}

static void test_paranoid3(void **state)
{
	struct checks c;

	(void)state;
	run_on(&c, "vm-paranoid3");
	assert_well_formed(&c);
	assert_int_equal(c.paranoid, 3);
	assert_int_equal(find(&c, "perf_event_open")->status, CHECK_UNAVAILABLE);
	assert_int_equal(find(&c, "permissions")->status, CHECK_UNAVAILABLE);
	assert_int_equal(find(&c, "core_pmu")->status, CHECK_UNAVAILABLE);
	assert_int_equal(find(&c, "uprobes")->status, CHECK_UNAVAILABLE);
	assert_int_equal(c.hw_status, CHECK_UNAVAILABLE);
	assert_int_equal(c.navailable, 0);
	checks_release(&c);
}

static void test_explain_hw_event(void **state)
{
	struct error err;

	(void)state;
	use_fixture("kvm-guest");
	error_clear(&err);
	assert_int_equal(checks_explain_hw_event("cycles", &err), -1);
	assert_string_equal(err.msg, "'cycles' not counted: this host has no hardware PMU: "
			    "virtual machine without a virtual PMU (KVM)");
	assert_contains(err.hint, "-cpu host,pmu=on");
	assert_contains(err.hint, "pmustat doctor");
	use_fixture("zen4");
	error_clear(&err);
	assert_int_equal(checks_explain_hw_event("cycles", &err), 0);
	assert_int_equal(err.kind, ERR_NONE);
}

static int teardown(void **state)
{
	(void)state;
	unsetenv("PMUSTAT_SYSFS_ROOT");
	unsetenv("PMUSTAT_PROC_ROOT");
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_kvm_guest, teardown),
		cmocka_unit_test_teardown(test_zen4_uncore, teardown),
		cmocka_unit_test_teardown(test_uarch_override_in_checks, teardown),
		cmocka_unit_test_teardown(test_intel_and_arm, teardown),
		cmocka_unit_test_teardown(test_paranoid3, teardown),
		cmocka_unit_test_teardown(test_explain_hw_event, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
