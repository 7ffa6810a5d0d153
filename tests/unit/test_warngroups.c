/*
 * Unit tests for analysis/warngroups: warnings of one kind become one
 * group whose summary names every metric and variant exactly (metrics
 * sharing a set of variants in one clause), with one hint; a warning of no
 * kind, or alone of its kind, keeps its full text; groups keep the order
 * of their kinds' first warnings and list their members for the details.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/warngroups.h"

#define OUT_HINT "check for interference"
#define DRIFT_HINT "look for thermal changes"

static const struct warn_item items[] = {
	{ "outliers", "outliers", "wall-time", "vec", "a run lies 6.1 MADs away", OUT_HINT },
	{ "drift", "drift with run order", "wall-time", "csr", "values drift (rho 0.5)", DRIFT_HINT },
	{ "outliers", "outliers", "task-clock", "vec", "a run lies 5.0 MADs away", OUT_HINT },
	{ "outliers", "outliers", "wall-time", "csr", "a run lies 7.2 MADs away", OUT_HINT },
	{ NULL, NULL, NULL, NULL, "simulated runs cut to 1 per variant", "raise --max-time" },
	{ "outliers", "outliers", "task-clock", "csr", "a run lies 4.0 MADs away", OUT_HINT },
	{ "outliers", "outliers", "sys-time", "csr", "a run lies 9.9 MADs away", OUT_HINT },
};
#define NITEMS (sizeof(items) / sizeof(items[0]))

static void test_grouped(void **state)
{
	struct warn_groups gs;
	const struct warn_group *g;

	(void)state;
	warn_groups_build(items, NITEMS, &gs);
	assert_int_equal(gs.n, 3);
	g = &gs.g[0];
	assert_string_equal(g->kind, "outliers");
	assert_string_equal(g->summary,
			    "outliers in wall-time, task-clock (vec, csr); sys-time (csr)");
	assert_string_equal(g->hint, OUT_HINT);
	assert_int_equal(g->nmember, 5);
	assert_int_equal(g->member[0], 0);
	assert_int_equal(g->member[1], 2);
	assert_int_equal(g->member[4], 6);
	assert_int_equal(g->nmetrics, 3);
	assert_string_equal(g->metrics[2], "sys-time");
	assert_int_equal(g->nvariants, 2);
	assert_string_equal(g->variants[0], "vec");
	assert_string_equal(g->variants[1], "csr");
	/* alone of its kind: the full text, named */
	g = &gs.g[1];
	assert_string_equal(g->kind, "drift");
	assert_string_equal(g->summary, "wall-time (csr): values drift (rho 0.5)");
	assert_string_equal(g->hint, DRIFT_HINT);
	/* no kind: a group of its own, its text as it is */
	g = &gs.g[2];
	assert_null(g->kind);
	assert_string_equal(g->summary, "simulated runs cut to 1 per variant");
	assert_int_equal(g->nmember, 1);
	assert_int_equal(g->member[0], 4);
	warn_groups_release(&gs);
}

/* Metrics warned about in different variants never share a clause. */
static void test_clauses_exact(void **state)
{
	const struct warn_item w[] = {
		{ "drift", "drift", "a", "x", "t", NULL }, { "drift", "drift", "b", "y", "t", NULL },
		{ "drift", "drift", "c", "x", "t", NULL }, { "drift", "drift", "b", "x", "t", NULL },
	};
	struct warn_groups gs;

	(void)state;
	warn_groups_build(w, 4, &gs);
	assert_int_equal(gs.n, 1);
	/* b is in x and y: its own clause; a and c share x */
	assert_string_equal(gs.g[0].summary, "drift in a, c (x); b (x, y)");
	assert_null(gs.g[0].hint);
	warn_groups_release(&gs);
}

/* One variant (stat): no parentheses; a kind without metrics names the variants. */
static void test_no_variants(void **state)
{
	const struct warn_item w[] = {
		{ "outliers", "outliers", "wall-time", NULL, "t", "h" },
		{ "outliers", "outliers", "task-clock", NULL, "t", "h" },
		{ "noise", "noisy hosts", NULL, "A", "t1", "h2" },
		{ "noise", "noisy hosts", NULL, "B", "t2", "h2" },
		{ "nodet", "varying counts", "allocs", "B", "allocs of B varied", NULL },
		{ "zero", "counted 0 in every run:", "branches", NULL, "counted 0", "h3" },
		{ "zero", "counted 0 in every run:", "branch-misses", NULL, "counted 0", "h3" },
	};
	struct warn_groups gs;

	(void)state;
	warn_groups_build(w, 7, &gs);
	assert_int_equal(gs.n, 4);
	assert_string_equal(gs.g[0].summary, "outliers in wall-time, task-clock");
	assert_string_equal(gs.g[1].summary, "noisy hosts in A, B");
	/* the text names the metric already: no prefix */
	assert_string_equal(gs.g[2].summary, "allocs of B varied");
	/* a label ending in ':' takes the metrics without "in" */
	assert_string_equal(gs.g[3].summary, "counted 0 in every run: branches, branch-misses");
	warn_groups_release(&gs);
	warn_groups_build(w, 0, &gs);
	assert_int_equal(gs.n, 0);
	warn_groups_release(&gs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_clauses_exact),
		cmocka_unit_test(test_no_variants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
