/*
 * Unit tests for host/sysfs (and host/sysctl): format specs (split ranges, single bits,
 * malformed specs), encoding into config words, and whole models loaded
 * from the fixture trees (tests/fixtures: vm-nopmu recorded from the
 * development VM, zen4* constructed from kernel source). Broken trees are
 * built in a scratch directory so each failure names the file it should.
 * Fixtures are found under $PMUSTAT_TEST_FIXTURES, else tests/fixtures
 * relative to the repository root (where `make unit` runs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/strbuf.h"
#include "host/sysctl.h"
#include "host/sysfs.h"

static char *fixture_sys(const char *machine)
{
	const char *dir = getenv("PMUSTAT_TEST_FIXTURES");
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s/sys", dir && *dir ? dir : "tests/fixtures", machine);
	return strbuf_detach(&sb);
}

/* Load a fixture through $PMUSTAT_SYSFS_ROOT, as the tool would. */
static void load_fixture(struct sysfs_model *m, const char *machine)
{
	char *root = fixture_sys(machine);
	struct error err;

	error_clear(&err);
	setenv("PMUSTAT_SYSFS_ROOT", root, 1);
	if (sysfs_model_load(m, NULL, &err) < 0)
		fail_msg("loading %s: %s", root, err.msg);
	assert_string_equal(m->root, root);
	free(root);
}

static void test_roots_from_env(void **state)
{
	(void)state;
	unsetenv("PMUSTAT_SYSFS_ROOT");
	unsetenv("PMUSTAT_PROC_ROOT");
	assert_string_equal(sysfs_root(), "/sys");
	assert_string_equal(procfs_root(), "/proc");
	setenv("PMUSTAT_SYSFS_ROOT", "/x/sys", 1);
	setenv("PMUSTAT_PROC_ROOT", "/x/proc", 1);
	assert_string_equal(sysfs_root(), "/x/sys");
	assert_string_equal(procfs_root(), "/x/proc");
	/* Empty means unset, so `PMUSTAT_SYSFS_ROOT= pmustat` is harmless. */
	setenv("PMUSTAT_SYSFS_ROOT", "", 1);
	assert_string_equal(sysfs_root(), "/sys");
	unsetenv("PMUSTAT_PROC_ROOT");
}

static void check_bits(const struct sysfs_bits *b, int field, int lo, int hi)
{
	assert_int_equal(b->field, field);
	assert_int_equal(b->lo, lo);
	assert_int_equal(b->hi, hi);
}

static void test_format_parse(void **state)
{
	struct sysfs_format f = { 0 };
	struct error err;

	(void)state;
	assert_int_equal(sysfs_format_parse("config:0-7,32-35", &f, &err), 0);
	assert_int_equal(f.nbits, 2);
	check_bits(&f.bits[0], 0, 0, 7);
	check_bits(&f.bits[1], 0, 32, 35);
	assert_int_equal(sysfs_format_width(&f), 12);
	assert_int_equal(sysfs_format_parse("config1:0-2\n", &f, &err), 0);
	assert_int_equal(f.nbits, 1);
	check_bits(&f.bits[0], 1, 0, 2);
	assert_int_equal(sysfs_format_parse("config:18", &f, &err), 0);
	check_bits(&f.bits[0], 0, 18, 18);
	assert_int_equal(sysfs_format_width(&f), 1);
	assert_int_equal(sysfs_format_parse("config2:63", &f, &err), 0);
	check_bits(&f.bits[0], 2, 63, 63);
	assert_int_equal(sysfs_format_parse("config:0-63", &f, &err), 0);
	assert_int_equal(sysfs_format_width(&f), 64);
	assert_null(f.name);	/* parse leaves the name to the caller */
}

static void check_bad_format(const char *spec, const char *needle)
{
	struct sysfs_format f = { 0 };
	struct error err;

	error_clear(&err);
	assert_int_equal(sysfs_format_parse(spec, &f, &err), -1);
	assert_int_equal(f.nbits, 0);
	if (!strstr(err.msg, needle))
		fail_msg("'%s': got '%s', want '%s'", spec, err.msg, needle);
}

static void test_format_parse_errors(void **state)
{
	(void)state;
	check_bad_format("config:7-0", "range 7-0 is reversed");
	check_bad_format("foo:1", "unknown field 'foo'");
	check_bad_format("config4:1", "unknown field 'config4'");
	check_bad_format("config", "expected 'config<N>:<bits>'");
	check_bad_format("config:64", "bit number 0-63");
	check_bad_format("config:", "bit number 0-63");
	check_bad_format("config:1,", "bit number 0-63");
	check_bad_format("config:1-2-3", "unexpected '-'");
	check_bad_format("config:0,1,2,3,4", "more than 4 bit ranges");
}

static void test_format_encode(void **state)
{
	struct sysfs_format f = { .name = "event" };
	uint64_t cfg[4] = { 0 };
	struct error err;

	(void)state;
	/* AMD's 12-bit event select: bits 8-11 of the value go to 32-35. */
	assert_int_equal(sysfs_format_parse("config:0-7,32-35", &f, &err), 0);
	assert_int_equal(sysfs_format_encode(&f, 0x1c0, cfg, &err), 0);
	assert_true(cfg[0] == 0x1000000c0ull);
	/* A later value overrides the bits of an earlier one. */
	assert_int_equal(sysfs_format_encode(&f, 0x76, cfg, &err), 0);
	assert_true(cfg[0] == 0x76);
	assert_int_equal(sysfs_format_encode(&f, 0xfff, cfg, &err), 0);
	assert_true(cfg[0] == 0xf000000ffull);
	/* Too large: error, config untouched. */
	assert_int_equal(sysfs_format_encode(&f, 0x1000, cfg, &err), -1);
	assert_true(cfg[0] == 0xf000000ffull);
	assert_string_equal(err.msg,
			    "value 0x1000 does not fit in term 'event' (12 bits, at most 0xfff)");
	assert_non_null(strstr(err.hint, "0x1000"));
	/* Other words, and full-width fields. */
	assert_int_equal(sysfs_format_parse("config1:0-2", &f, &err), 0);
	assert_int_equal(sysfs_format_encode(&f, 5, cfg, &err), 0);
	assert_true(cfg[1] == 5);
	assert_int_equal(sysfs_format_parse("config:0-63", &f, &err), 0);
	assert_int_equal(sysfs_format_encode(&f, UINT64_MAX, cfg, &err), 0);
	assert_true(cfg[0] == UINT64_MAX);
	assert_int_equal(sysfs_format_parse("config2:18", &f, &err), 0);
	assert_int_equal(sysfs_format_encode(&f, 2, cfg, &err), -1);
	assert_int_equal(sysfs_format_encode(&f, 1, cfg, &err), 0);
	assert_true(cfg[2] == (1ull << 18));
}

static void test_load_vm(void **state)
{
	struct sysfs_model m;
	const struct sysfs_pmu *msr, *up;
	const struct sysfs_alias *tsc;
	const char *want[] = { "breakpoint", "msr", "software", "tracepoint", "uprobe" };
	size_t i;

	(void)state;
	load_fixture(&m, "vm-nopmu");
	assert_int_equal(m.npmus, 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(m.pmus[i].name, want[i]);	/* sorted */
	msr = sysfs_pmu_find(&m, "msr");
	assert_non_null(msr);
	assert_int_equal(msr->type, 9);
	assert_null(msr->cpumask);
	assert_null(msr->caps);
	assert_int_equal(msr->nformats, 1);
	assert_int_equal(msr->formats[0].nbits, 1);
	check_bits(&msr->formats[0].bits[0], 0, 0, 63);
	tsc = sysfs_alias_find(msr, "tsc");
	assert_non_null(tsc);
	assert_string_equal(tsc->terms, "event=0x00");
	assert_true(tsc->scale == 1.0);
	assert_string_equal(tsc->unit, "");
	assert_null(sysfs_alias_find(msr, "aperf"));
	up = sysfs_pmu_find(&m, "uprobe");
	assert_non_null(sysfs_format_find(up, "retprobe"));
	assert_null(sysfs_format_find(up, "event"));
	assert_int_equal(sysfs_pmu_find(&m, "software")->type, 1);
	assert_ptr_equal(sysfs_pmu_find_type(&m, 9), msr);
	assert_null(sysfs_pmu_find(&m, "cpu"));
	assert_null(sysfs_pmu_find_type(&m, 4));
	sysfs_model_release(&m);
	assert_int_equal(m.npmus, 0);
}

static void test_load_zen4(void **state)
{
	struct sysfs_model m;
	const struct sysfs_pmu *cpu, *power, *l3;
	const struct sysfs_alias *pkg;

	(void)state;
	load_fixture(&m, "zen4");
	cpu = sysfs_pmu_find(&m, "cpu");
	assert_non_null(cpu);
	assert_int_equal(cpu->type, 4);
	assert_int_equal(cpu->nformats, 5);
	assert_int_equal(sysfs_format_find(cpu, "event")->nbits, 2);
	assert_int_equal(cpu->naliases, 8);
	assert_string_equal(sysfs_alias_find(cpu, "cache-misses")->terms, "event=0x64,umask=0x09");
	assert_int_equal(cpu->ncaps, 1);
	assert_string_equal(cpu->caps[0], "max_precise=0");
	assert_null(cpu->caps[1]);
	assert_null(cpu->cpumask);
	/* .scale and .unit qualify energy-pkg; they are not aliases. */
	power = sysfs_pmu_find(&m, "power");
	assert_int_equal(power->naliases, 1);
	pkg = sysfs_alias_find(power, "energy-pkg");
	assert_true(pkg->scale == 2.3283064365386962890625e-10);
	assert_string_equal(pkg->unit, "Joules");
	assert_string_equal(power->cpumask, "0");
	l3 = sysfs_pmu_find(&m, "amd_l3");
	assert_non_null(l3);
	assert_string_equal(l3->cpumask, "0");
	assert_int_equal(l3->nformats, 7);
	assert_ptr_equal(sysfs_pmu_find_type(&m, 13), l3);
	sysfs_model_release(&m);

	load_fixture(&m, "zen4-no-uncore");
	assert_non_null(sysfs_pmu_find(&m, "cpu"));
	assert_null(sysfs_pmu_find(&m, "amd_l3"));
	assert_null(sysfs_pmu_find(&m, "amd_df"));
	sysfs_model_release(&m);
}

/* ---- scratch trees for broken and missing files ------------------------ */

static char *scratch(void)
{
	char tmpl[] = "/tmp/pmustat-sysfs-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void put(const char *root, const char *rel, const char *content)
{
	struct strbuf sb = STRBUF_INIT;
	char *slash;
	FILE *f;

	strbuf_addf(&sb, "%s/%s", root, rel);
	for (slash = strchr(sb.buf + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(sb.buf, 0755);
		*slash = '/';
	}
	f = fopen(sb.buf, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
	strbuf_release(&sb);
}

static void rm_rf(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "rm -rf '%s'", dir);
	assert_int_equal(system(sb.buf), 0);
	strbuf_release(&sb);
}

#define DEV "bus/event_source/devices/"

/* Loading root must fail with a message naming rel (a file under root). */
static void check_load_fails(const char *root, const char *rel, const char *needle)
{
	struct sysfs_model m;
	struct error err;
	struct strbuf path = STRBUF_INIT;

	error_clear(&err);
	strbuf_addf(&path, "%s/%s", root, rel);
	assert_int_equal(sysfs_model_load(&m, root, &err), -1);
	assert_int_equal(m.npmus, 0);
	if (!strstr(err.msg, path.buf) || !strstr(err.msg, needle))
		fail_msg("got '%s', want '%s' and '%s'", err.msg, path.buf, needle);
	strbuf_release(&path);
}

static void test_empty_and_missing(void **state)
{
	char *root = scratch();
	struct sysfs_model m;
	struct error err;

	(void)state;
	error_clear(&err);
	/* No event_source at all: a kernel without perf events. */
	assert_int_equal(sysfs_model_load(&m, root, &err), 0);
	assert_int_equal(m.npmus, 0);
	assert_null(sysfs_pmu_find(&m, "cpu"));
	sysfs_model_release(&m);
	/* A root that does not exist is a typo, not an empty machine. */
	assert_int_equal(sysfs_model_load(&m, "/nonexistent/pmustat", &err), -1);
	assert_string_equal(err.msg, "sysfs root '/nonexistent/pmustat' is not a directory");
	assert_non_null(strstr(err.hint, "PMUSTAT_SYSFS_ROOT"));
	/* Stray files among the devices are not PMUs. */
	put(root, DEV "README", "x\n");
	put(root, DEV "cpu/type", "4\n");
	assert_int_equal(sysfs_model_load(&m, root, &err), 0);
	assert_int_equal(m.npmus, 1);
	assert_int_equal(m.pmus[0].nformats, 0);
	assert_int_equal(m.pmus[0].naliases, 0);
	sysfs_model_release(&m);
	rm_rf(root);
	free(root);
}

static void test_broken_files(void **state)
{
	char *root = scratch();

	(void)state;
	put(root, DEV "cpu/format/event", "config:0-7\n");
	check_load_fails(root, DEV "cpu/type", "cannot open");
	put(root, DEV "cpu/type", "four\n");
	check_load_fails(root, DEV "cpu/type", "expected a PMU type number, got 'four'");
	put(root, DEV "cpu/type", "4\n");
	put(root, DEV "cpu/format/umask", "config:15-8\n");
	check_load_fails(root, DEV "cpu/format/umask", "range 15-8 is reversed");
	put(root, DEV "cpu/format/umask", "config:8-15\n");
	put(root, DEV "cpu/events/cycles", "event=0x76\n");
	put(root, DEV "cpu/events/cycles.scale", "fast\n");
	check_load_fails(root, DEV "cpu/events/cycles.scale", "got 'fast'");
	put(root, DEV "cpu/events/cycles.scale", "0.5\n");
	/* A directory where a file should be. */
	put(root, DEV "cpu/caps/branches/x", "1\n");
	check_load_fails(root, DEV "cpu/caps/branches", "is not a regular file");
	rm_rf(root);
	free(root);
}

/*
 * A FIFO where a sysfs file belongs is refused, not waited on. A child
 * offers the FIFO the content a plain file would have ("4"): a reader that
 * opened it blocking would wait for the child and then take that content
 * (so this fails by loading the PMU, rather than by hanging); ours refuses
 * it without reading, and the child, if still waiting, is killed.
 */
static void test_fifo_refused(void **state)
{
	char *root = scratch();
	struct strbuf fifo = STRBUF_INIT;
	pid_t child;

	(void)state;
	put(root, DEV "cpu/format/event", "config:0-7\n");
	strbuf_addf(&fifo, "%s/" DEV "cpu/type", root);
	assert_int_equal(mkfifo(fifo.buf, 0600), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		int fd;

		signal(SIGPIPE, SIG_DFL);
		fd = open(fifo.buf, O_WRONLY);
		_exit(fd >= 0 && write(fd, "4\n", 2) == 2 ? 0 : 1);
	}
	check_load_fails(root, DEV "cpu/type", "is not a regular file");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	/* Devices too: /dev/null would read as empty, /dev/zero as endless. */
	unlink(fifo.buf);
	assert_int_equal(symlink("/dev/zero", fifo.buf), 0);
	check_load_fails(root, DEV "cpu/type", "is not a regular file");
	strbuf_release(&fifo);
	rm_rf(root);
	free(root);
}

static void test_read_text(void **state)
{
	char *root = scratch(), *text;
	struct strbuf path = STRBUF_INIT;
	struct error err;

	(void)state;
	strbuf_addf(&path, "%s/missing", root);
	assert_int_equal(sysfs_read_text(path.buf, &text, &err), 1);
	assert_null(text);
	put(root, "f", "  0-3 \n\n");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/f", root);
	assert_int_equal(sysfs_read_text(path.buf, &text, &err), 0);
	assert_string_equal(text, "  0-3");
	free(text);
	put(root, "empty", "");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/empty", root);
	assert_int_equal(sysfs_read_text(path.buf, &text, &err), 0);
	assert_string_equal(text, "");
	free(text);
	strbuf_release(&path);
	rm_rf(root);
	free(root);
}

/* host/sysctl reads <PMUSTAT_PROC_ROOT>/sys/NAME: one integer, or unknown. */
static void test_sysctl_int(void **state)
{
	char *root = scratch();
	int v;

	(void)state;
	put(root, "sys/kernel/perf_event_paranoid", "-1\n");
	put(root, "sys/kernel/nmi_watchdog", "0\n");
	put(root, "sys/kernel/printk", "4\t4\t1\t7\n");
	put(root, "sys/kernel/empty", "");
	put(root, "sys/kernel/huge", "99999999999\n");
	setenv("PMUSTAT_PROC_ROOT", root, 1);
	assert_int_equal(host_sysctl_int("kernel/perf_event_paranoid", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(host_sysctl_int("kernel/nmi_watchdog", &v), 0);
	assert_int_equal(v, 0);
	/* Unknown leaves the caller's default in place. */
	v = 42;
	assert_int_equal(host_sysctl_int("kernel/randomize_va_space", &v), -1);
	assert_int_equal(host_sysctl_int("kernel/printk", &v), -1);
	assert_int_equal(host_sysctl_int("kernel/empty", &v), -1);
	assert_int_equal(host_sysctl_int("kernel/huge", &v), -1);
	assert_int_equal(host_sysctl_int("kernel", &v), -1);	/* a directory */
	assert_int_equal(v, 42);
	unsetenv("PMUSTAT_PROC_ROOT");
	rm_rf(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roots_from_env),
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_format_parse_errors),
		cmocka_unit_test(test_format_encode),
		cmocka_unit_test(test_load_vm),
		cmocka_unit_test(test_load_zen4),
		cmocka_unit_test(test_empty_and_missing),
		cmocka_unit_test(test_broken_files),
		cmocka_unit_test(test_fifo_refused),
		cmocka_unit_test(test_read_text),
		cmocka_unit_test(test_sysctl_int),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
