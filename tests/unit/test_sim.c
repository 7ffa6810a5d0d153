/*
 * Unit tests for backend/sim: the parser against recorded cachegrind files
 * (tests/fixtures/cachegrind, whose totals valgrind's own cg_annotate
 * printed), the per-line records of a file summed independently against
 * its summary, geometry rules, the valgrind command line, and one real
 * simulated run pair of tests/tools/known/loopn: N and 2N iterations differ
 * by exactly N conditional branches and by a whole number of instructions
 * per iteration. Counts only; nothing here looks at time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/sim.h"
#include "core/strbuf.h"
#include "run/measure.h"

static char build_dir[4096];

static const char *fixture_dir(void)
{
	const char *d = getenv("PMUSTAT_TEST_FIXTURES");

	return d && *d ? d : "tests/fixtures";
}

static char *slurp(const char *rel)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char buf[65536];
	size_t got;
	FILE *f;

	strbuf_addf(&path, "%s/cachegrind/%s", fixture_dir(), rel);
	f = fopen(path.buf, "r");
	if (!f)
		fail_msg("cannot read %s", path.buf);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, got);
	fclose(f);
	strbuf_release(&path);
	return strbuf_detach(&sb);
}

static void parse_ok(const char *text, struct sim_counts *c)
{
	struct error err;

	if (sim_parse(text, c, &err))
		fail_msg("parse: %s", err.msg);
}

static double metric(const struct sim_counts *c, const char *name)
{
	double v;

	if (sim_metric_value(c, name, &v))
		fail_msg("no value for '%s'", name);
	return v;
}

/* The totals cg_annotate printed for the fixtures (README.md there). */
static const uint64_t cg14065[SIM_NEVENTS] = {
	842874, 1248, 1223, 213894, 1283, 1047, 102593, 393, 362, 145247, 7422, 6331, 180,
};
static const uint64_t cg14066[SIM_NEVENTS] = {
	842628, 1249, 1224, 213841, 1284, 1049, 102590, 394, 363, 145217, 7414, 6325, 179,
};

static void test_parse_fixture(void **state)
{
	struct sim_counts c = { 0 };
	char *text = slurp("allocn-1000-fork/cg.14065");

	(void)state;
	c.used.ll_level = 3;
	parse_ok(text, &c);
	assert_int_equal(c.files, 1);
	assert_int_equal(c.have, (1u << SIM_NEVENTS) - 1);
	for (int e = 0; e < SIM_NEVENTS; e++)
		if (c.ev[e] != cg14065[e])
			fail_msg("%s: %llu, cg_annotate says %llu", sim_event_name(e),
				 (unsigned long long)c.ev[e], (unsigned long long)cg14065[e]);
	assert_int_equal(c.used.l1d.size, 32768);
	assert_int_equal(c.used.l1d.assoc, 8);
	assert_int_equal(c.used.l1d.line, 64);
	assert_int_equal(c.used.ll.size, 33554432);
	assert_int_equal(c.used.ll.assoc, 16);
	assert_int_equal(c.used.ll_level, 3);	/* kept: desc lines do not say */
	/* The mapping of issue 6. */
	assert_true(metric(&c, "instructions") == 842874);
	assert_true(metric(&c, "l1d-accesses") == 213894 + 102593);
	assert_true(metric(&c, "l1d-misses") == 1283 + 393);
	assert_true(metric(&c, "l1i-misses") == 1248);
	assert_true(metric(&c, "llc-misses") == 1047 + 362 + 1223);
	assert_true(metric(&c, "l3-misses") == 1047 + 362 + 1223);
	assert_true(metric(&c, "llc-accesses") == 1248 + 1283 + 393);
	assert_true(metric(&c, "branches") == 145247 + 6331);
	assert_true(metric(&c, "branch-misses") == 7422 + 180);
	assert_true(metric(&c, "branch-miss-ratio") == (7422.0 + 180) / (145247 + 6331));
	assert_true(metric(&c, "llc-mpki") == (1047.0 + 362 + 1223) / 842874 * 1000);
	assert_true(metric(&c, "l1d-mpki") == (1283.0 + 393) / 842874 * 1000);
	free(text);
}

/*
 * The summary line is the total of the per-line records: sum every
 * "<line> <counts...>" record independently (a short record leaves its
 * trailing counts zero) and compare.
 */
static void test_summary_is_total(void **state)
{
	char *text = slurp("allocn-1000-fork/cg.14066");
	uint64_t sum[SIM_NEVENTS] = { 0 };
	char *save = NULL;

	(void)state;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *end;

		if (*line < '0' || *line > '9')
			continue;
		strtoull(p, &end, 10);	/* the source line number */
		p = end;
		for (int e = 0; e < SIM_NEVENTS && *p; e++) {
			sum[e] += strtoull(p, &end, 10);
			p = end;
		}
	}
	for (int e = 0; e < SIM_NEVENTS; e++)
		if (sum[e] != cg14066[e])
			fail_msg("%s: per-line sum %llu, summary %llu", sim_event_name(e),
				 (unsigned long long)sum[e], (unsigned long long)cg14066[e]);
	free(text);
}

/* A file written with --branch-sim=no lacks the branch metrics, and the
 * other columns are not shifted. */
static void test_parse_missing_columns(void **state)
{
	struct sim_counts c = { 0 };
	char *text = slurp("loopn-100000-nobranch.out");
	double v;

	(void)state;
	parse_ok(text, &c);
	assert_true(metric(&c, "instructions") == 727617);
	assert_true(metric(&c, "l1d-misses") == 1178 + 335);
	assert_true(metric(&c, "llc-misses") == 984 + 306 + 1073);
	assert_int_equal(sim_metric_value(&c, "branches", &v), -1);
	assert_int_equal(sim_metric_value(&c, "branch-miss-ratio", &v), -1);
	free(text);
}

static void parse_err(const char *text, const char *msg)
{
	struct sim_counts c = { 0 };
	struct error err;

	assert_int_equal(sim_parse(text, &c, &err), -1);
	assert_string_equal(err.msg, msg);
	assert_int_equal(c.files, 0);
}

static void test_parse_errors(void **state)
{
	struct sim_counts c = { 0 };

	(void)state;
	parse_err("", "not a cachegrind file: no 'events:' line");
	parse_err("desc: x\nsummary: 1 2\n", "not a cachegrind file: no 'events:' line");
	parse_err("events: Ir Dr\nfl=a.c\n", "cachegrind file has no 'summary:' line (the "
		  "program did not finish?)");
	parse_err("events: Ir Dr\nsummary: 10\n", "cachegrind 'summary:' has 1 values for 2 events");
	parse_err("events: Ir\nsummary: 10 20\n", "cachegrind 'summary:' has 2 values for 1 events");
	parse_err("events: Ir\nsummary: 1x\n", "cachegrind 'summary:' holds a non-number");
	/* Unknown columns are skipped, known ones found by name in any order;
	 * no trailing newline; a direct-mapped cache. */
	parse_ok("desc: D1 cache: 8192 B, 32 B, direct-mapped\nevents: Dr Foo Ir\nsummary: 5 7 9", &c);
	assert_int_equal(c.ev[SIM_DR], 5);
	assert_int_equal(c.ev[SIM_IR], 9);
	assert_int_equal(c.have, (1u << SIM_DR) | (1u << SIM_IR));
	assert_int_equal(c.used.l1d.assoc, 1);
	assert_int_equal(c.used.l1d.line, 32);
}

static void test_metric_names(void **state)
{
	struct sim_counts c = { 0 };
	double v;

	(void)state;
	assert_true(sim_metric_known("llc-misses", 3));
	assert_true(sim_metric_known("l3-misses", 0));
	assert_false(sim_metric_known("l3-misses", 2));
	assert_false(sim_metric_known("l2-misses", 3));
	assert_true(sim_metric_known("l2-misses", 2));
	assert_false(sim_metric_known("cycles", 3));
	assert_false(sim_metric_known("dtlb-misses", 3));
	/* Never a time, whatever the counts. */
	c.have = (1u << SIM_NEVENTS) - 1;
	assert_int_equal(sim_metric_value(&c, "wall-time", &v), -1);
	assert_int_equal(sim_metric_value(&c, "task-clock", &v), -1);
	assert_int_equal(sim_metric_value(&c, "user-time", &v), -1);
	/* A ratio over zero is no value. */
	assert_int_equal(sim_metric_value(&c, "branch-miss-ratio", &v), -1);
	for (const char *const *n = sim_metric_names(); *n; n++)
		assert_true(sim_metric_known(*n, 3) || sim_metric_known(*n, 2));
}

static void test_geometry(void **state)
{
	struct cache_level l3 = { 12u << 20, 16, 64 }, zen4 = { 32u << 20, 16, 64 };
	struct cache_level big = { 105u << 20, 15, 64 }, line8 = { 32768, 8, 8 };
	struct error err;

	(void)state;
	assert_int_equal(sim_level_check(&zen4, "LL", &err), 0);
	assert_int_equal(sim_level_check(&l3, "LL", &err), -1);
	assert_string_equal(err.msg, "cannot simulate LL cache of 12582912 B, 16-way, 64 B lines: "
				     "12288 sets is not a power of two");
	assert_int_equal(sim_level_check(&line8, "L1d", &err), -1);
	assert_string_equal(err.msg, "cannot simulate L1d cache with 8 B lines: cachegrind needs "
				     "a power of two of at least 16");
	/* Fitting keeps line and size, rounds the sets down, raises the ways. */
	assert_int_equal(sim_level_fit(&zen4), 0);
	assert_int_equal(sim_level_fit(&l3), 1);
	assert_int_equal(l3.size, 12u << 20);
	assert_int_equal(l3.assoc, 24);
	assert_int_equal(l3.line, 64);
	assert_int_equal(sim_level_check(&l3, "LL", &err), 0);
	assert_int_equal(sim_level_fit(&big), 1);
	assert_int_equal(sim_level_check(&big, "LL", &err), 0);
	assert_true(big.size <= 105u << 20 && big.size > 100u << 20);
	assert_int_equal(sim_level_fit(&line8), -1);
}

static void test_find_valgrind(void **state)
{
	struct error err;
	char *path;

	(void)state;
	assert_int_equal(sim_find_valgrind("/nonexistent:/also/not", &path, &err), -1);
	assert_string_equal(err.msg, "cannot simulate: valgrind is not installed");
	assert_string_equal(err.hint, "install it with 'apt-get install valgrind', or use "
				      "'--backend hw' or '--backend sw'");
	assert_int_equal(sim_find_valgrind("", &path, &err), -1);
	if (sim_find_valgrind(NULL, &path, &err))
		skip();
	assert_int_equal(access(path, X_OK), 0);
	free(path);
}

static void test_prepare(void **state)
{
	struct cache_geometry g = { { 32768, 8, 64 }, { 49152, 12, 64 }, { 33554432, 16, 64 }, 3 };
	char *argv[] = { "prog", "-x", "arg", NULL };
	struct sim_run r;
	struct error err;
	struct strbuf out = STRBUF_INIT;
	struct stat st;
	const char *want[] = {
		"/usr/bin/valgrind", "-q", "--vgdb=no", "--tool=cachegrind", "--cache-sim=yes",
		"--branch-sim=yes", "--trace-children=yes", "--demangle=no", "--I1=32768,8,64",
		"--D1=49152,12,64", "--LL=33554432,16,64", NULL, "--", "prog", "-x", "arg", NULL,
	};
	size_t i;

	(void)state;
	assert_int_equal(sim_prepare(&r, "/usr/bin/valgrind", &g, argv, &err), 0);
	assert_int_equal(stat(r.dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	strbuf_addf(&out, "--cachegrind-out-file=%s/cg.%%p", r.dir);
	for (i = 0; i < sizeof(want) / sizeof(want[0]) - 1; i++)
		assert_string_equal(r.argv[i], want[i] ? want[i] : out.buf);
	assert_null(r.argv[i]);
	strbuf_reset(&out);
	strbuf_adds(&out, r.dir);
	sim_run_release(&r);
	assert_int_equal(stat(out.buf, &st), -1);	/* removed */
	/* Host geometry: no cache options at all. */
	assert_int_equal(sim_prepare(&r, "vg", NULL, argv, &err), 0);
	assert_int_equal(strncmp(r.argv[8], "--cachegrind-out-file=", 22), 0);
	sim_run_release(&r);
	g.ll.size = 12u << 20;
	assert_int_equal(sim_prepare(&r, "vg", &g, argv, &err), -1);
	assert_string_equal(err.msg, "cannot simulate LL cache of 12582912 B, 16-way, 64 B lines: "
				     "12288 sets is not a power of two");
	strbuf_release(&out);
}

/* sim_collect sums one file per process: the fork fixture's two files. */
static void test_collect_sums_processes(void **state)
{
	static const char *const names[] = { "cg.14065", "cg.14066" };
	char tmpl[] = "/tmp/pmustat-simtest-XXXXXX";
	struct sim_run r = { NULL, NULL, 3 };
	struct sim_counts c;
	struct error err;

	(void)state;
	r.dir = mkdtemp(tmpl);
	assert_non_null(r.dir);
	r.dir = xstrdup(r.dir);
	for (size_t i = 0; i < 2; i++) {
		struct strbuf rel = STRBUF_INIT, to = STRBUF_INIT;
		char *text;
		FILE *f;

		strbuf_addf(&rel, "allocn-1000-fork/%s", names[i]);
		text = slurp(rel.buf);
		strbuf_addf(&to, "%s/%s", r.dir, names[i]);
		f = fopen(to.buf, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		free(text);
		strbuf_release(&rel);
		strbuf_release(&to);
	}
	assert_int_equal(sim_collect(&r, &c, &err), 0);
	assert_int_equal(c.files, 2);
	for (int e = 0; e < SIM_NEVENTS; e++)
		assert_int_equal(c.ev[e], cg14065[e] + cg14066[e]);
	assert_int_equal(c.used.ll_level, 3);
	sim_run_release(&r);

	/* An empty directory: valgrind wrote nothing. */
	r.dir = xstrdup(mkdtemp(strcpy(tmpl, "/tmp/pmustat-simtest-XXXXXX")));
	assert_int_equal(sim_collect(&r, &c, &err), -1);
	assert_string_equal(err.msg, "valgrind wrote no cachegrind output");
	sim_run_release(&r);
}

/* One simulated run of `loopn n` with a Zen4-like geometry. */
static struct sim_counts simulate_loop(const char *valgrind, long n)
{
	struct cache_geometry g = { { 32768, 8, 64 }, { 32768, 8, 64 }, { 33554432, 16, 64 }, 3 };
	struct measure_spec spec = { 0 };
	struct measure_outcome out;
	struct spawner srv;
	struct sigwatch sw;
	struct sim_counts c;
	struct sim_run r;
	struct error err;
	struct strbuf prog = STRBUF_INIT;
	char nbuf[32];
	char *argv[3];

	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	strbuf_addf(&prog, "%s/loopn", build_dir);
	argv[0] = prog.buf;
	argv[1] = nbuf;
	argv[2] = NULL;
	if (sim_prepare(&r, valgrind, &g, argv, &err))
		fail_msg("prepare: %s", err.msg);
	if (spawner_start(&srv, &err) || sigwatch_init(&sw, &err))
		fail_msg("spawner/sigwatch: %s", err.msg);
	spec.argv = r.argv;
	spec.pin_cpu = -1;
	if (measure_run(&spec, &srv, &sw, &out, &err))
		fail_msg("run: %s", err.msg);
	assert_int_equal(out.sp.outcome, SPAWN_EXITED);
	assert_int_equal(out.sp.status, 0);
	if (sim_collect(&r, &c, &err))
		fail_msg("collect: %s (stderr: %s)", err.msg, out.stderr_tail ? out.stderr_tail : "");
	measure_outcome_release(&out);
	sigwatch_release(&sw);
	spawner_stop(&srv);
	sim_run_release(&r);
	strbuf_release(&prog);
	return c;
}

static void test_real_run(void **state)
{
	struct error err;
	char *valgrind;
	struct sim_counts a, b;
	const long n = 100000;	/* 100000 and 200000: same digits, same startup path */
	uint64_t dir, dbc;

	(void)state;
	if (sim_find_valgrind(NULL, &valgrind, &err))
		skip();
	a = simulate_loop(valgrind, n);
	b = simulate_loop(valgrind, 2 * n);
	print_message("loopn %ld: Ir %llu Bc %llu; loopn %ld: Ir %llu Bc %llu\n", n,
		      (unsigned long long)a.ev[SIM_IR], (unsigned long long)a.ev[SIM_BC], 2 * n,
		      (unsigned long long)b.ev[SIM_IR], (unsigned long long)b.ev[SIM_BC]);
	assert_int_equal(a.files, 1);
	assert_int_equal(a.used.ll.size, 33554432);
	assert_int_equal(a.used.ll.assoc, 16);
	/* One conditional branch per iteration, exactly. */
	dbc = b.ev[SIM_BC] - a.ev[SIM_BC];
	assert_int_equal(dbc, (uint64_t)n);
	assert_true(metric(&a, "branches") >= (double)n);
	/* A whole, small number of instructions per iteration (the loop body:
	 * load, add, store, increment, compare, branch). */
	dir = b.ev[SIM_IR] - a.ev[SIM_IR];
	assert_int_equal(dir % (uint64_t)n, 0);
	assert_true(dir / (uint64_t)n >= 3 && dir / (uint64_t)n <= 8);
	/* And the startup around it is bounded: under a million instructions. */
	assert_true(a.ev[SIM_IR] >= (dir / (uint64_t)n) * (uint64_t)n);
	assert_true(a.ev[SIM_IR] - (dir / (uint64_t)n) * (uint64_t)n < 1000000);
	free(valgrind);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fixture),
		cmocka_unit_test(test_summary_is_total),
		cmocka_unit_test(test_parse_missing_columns),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_find_valgrind),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_collect_sums_processes),
		cmocka_unit_test(test_real_run),
	};
	ssize_t n = readlink("/proc/self/exe", build_dir, sizeof(build_dir) - 1);

	if (n <= 0)
		return 1;
	build_dir[n] = '\0';
	for (int i = 0; i < 2; i++)	/* build/tests/test_sim -> build */
		*strrchr(build_dir, '/') = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
