/*
 * Unit tests for report/chains: what cut call chains leave uncertain, on
 * constructed stacks whose answer is known. A complete chain (from _start)
 * hides nothing; a chain cut below f, holding none of f's callers, could be
 * missing f; a chain holding a caller of f cannot be (f would be between
 * the caller and the leaf, which the chain has whole).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "report/attribution.h"
#include "report/chains.h"
#include "report/result.h"

/* One run; stacks[i] takes t[i] ns. */
static void build(struct result *r, const char *const *stacks, const double *t, size_t n)
{
	char *argv[] = { "prog", NULL };
	struct result_run *run;

	result_init(r, "stat");
	result_add_variant(r, "A", argv);
	for (size_t i = 0; i < n; i++)
		result_add_metric(r, stacks[i], "ns", MSRC_PROFILE)->hidden = 1;
	run = result_add_run(r);
	run->status = RUN_OK;
	for (size_t i = 0; i < n; i++) {
		run->values[i].valid = t[i] > 0;
		run->values[i].value = t[i];
	}
}

static void test_missing(void **state)
{
	const char *const stacks[] = {
		"stack:_start;main;outer;mid;leaf",	/* complete: hides nothing */
		"stack:outer;mid;leaf",			/* cut above outer */
		"stack:mid;other",			/* cut above mid: main, outer unseen */
		"stack:deep;leaf",			/* cut: deep is no known caller of mid */
	};
	const double t[] = { 100, 40, 7, 3 };
	struct result r;
	struct chain_info *ci;
	size_t run = 0;

	(void)state;
	build(&r, stacks, t, 4);
	ci = chains_build(&r);
	assert_non_null(ci);
	/* main: the three cut chains hold neither main nor a caller of it. */
	assert_true(chains_missing(ci, &r, "main", &run, 1) == 40 + 7 + 3);
	/* outer: "outer;mid;leaf" holds it; the other two could be missing it. */
	assert_true(chains_missing(ci, &r, "outer", &run, 1) == 7 + 3);
	/* mid: the first three hold it; "deep;leaf" holds no caller of mid. */
	assert_true(chains_missing(ci, &r, "mid", &run, 1) == 3);
	/* leaf: "mid;other" holds mid, a caller of leaf: leaf cannot be above
	 * its cut; "deep;leaf" holds leaf itself. */
	assert_true(chains_missing(ci, &r, "leaf", &run, 1) == 0);
	/* A function no stack names: nothing known, nothing claimed. */
	assert_true(chains_missing(ci, &r, "absent", &run, 1) == 0);
	chains_free(ci);
	result_release(&r);
}

static void test_roots(void **state)
{
	(void)state;
	assert_true(profile_is_root("_start"));
	assert_true(profile_is_root("start_thread"));
	assert_false(profile_is_root("main"));
}

static void test_no_stacks(void **state)
{
	const char *const stacks[] = { "self:leaf" };
	const double t[] = { 5 };
	struct result r;

	(void)state;
	build(&r, stacks, t, 1);
	assert_null(chains_build(&r));
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_roots),
		cmocka_unit_test(test_no_stacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
