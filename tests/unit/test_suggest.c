/*
 * Unit tests for core/suggest: the edit distance against hand-computed
 * values, and the picking rules (threshold, ties only at the best score,
 * prefixes, at most max) that decide what a "did you mean" hint offers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/event.h"
#include "core/strbuf.h"
#include "core/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("", ""), 0);
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("abc", ""), 3);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	/* A swap of adjacent letters is one edit, not two. */
	assert_int_equal(suggest_distance("ab", "ba"), 1);
	assert_int_equal(suggest_distance("cylces", "cycles"), 1);
	assert_int_equal(suggest_distance("tsk-clock", "task-clock"), 1);
	assert_int_equal(suggest_distance("CYCLES", "cycles"), 0);
	assert_int_equal(suggest_distance("msr", "mrs"), 1);
}

static void test_threshold(void **state)
{
	(void)state;
	assert_int_equal(suggest_threshold(2), 1);
	assert_int_equal(suggest_threshold(3), 1);
	assert_int_equal(suggest_threshold(4), 2);
	assert_int_equal(suggest_threshold(7), 2);
	assert_int_equal(suggest_threshold(8), 3);
	assert_int_equal(suggest_threshold(30), 3);
}

static size_t count_builtins(void)
{
	const char *const *b = event_builtin_names();
	size_t n = 0;

	while (b[n])
		n++;
	return n;
}

static void test_pick_single_best(void **state)
{
	const char *const *b = event_builtin_names();
	size_t out[3], n;

	(void)state;
	/* cpu-clock is 3 edits away, within the threshold for 9 letters, but
	 * only the best score is offered. */
	n = suggest_pick("tsk-clock", b, count_builtins(), out, 3);
	assert_int_equal(n, 1);
	assert_string_equal(b[out[0]], "task-clock");
	n = suggest_pick("cyles", b, count_builtins(), out, 3);
	assert_int_equal(n, 1);
	assert_string_equal(b[out[0]], "cycles");
	assert_string_equal(suggest_best("instructons", b, count_builtins()), "instructions");
}

static void test_pick_ties_and_max(void **state)
{
	const char *cands[] = { "L1-dcache-loads", "LLC-loads", "L1-dcache-load-misses",
				"L1-dcache-stores", "L1-dcache-store-misses" };
	size_t out[3], n;

	(void)state;
	/* A prefix scores 1; ties keep candidate order; at most max. */
	n = suggest_pick("l1-dcache", cands, 5, out, 3);
	assert_int_equal(n, 3);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 2);
	assert_int_equal(out[2], 3);
	n = suggest_pick("l1-dcache", cands, 5, out, 1);
	assert_int_equal(n, 1);
	assert_int_equal(suggest_pick("l1-dcache", cands, 5, out, 0), 0);
}

static void test_pick_nothing_close(void **state)
{
	const char *cands[] = { "cycles", NULL, "instructions" };
	size_t out[3];

	(void)state;
	assert_int_equal(suggest_pick("zzzzzzzz", cands, 3, out, 3), 0);
	assert_null(suggest_best("zzzzzzzz", cands, 3));
	/* Short words get a tight bound: 'ab' is not 'cs'. */
	assert_int_equal(suggest_pick("ab", (const char *[]){ "cs" }, 1, out, 3), 0);
	/* NULL entries are skipped, not dereferenced. */
	assert_string_equal(suggest_best("instructionz", cands, 3), "instructions");
	assert_int_equal(suggest_pick("x", cands, 0, out, 3), 0);
}

static void check_format(const char *const *names, size_t n, const char *want)
{
	struct strbuf sb;

	strbuf_init(&sb);
	suggest_format(&sb, names, n);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_format(void **state)
{
	const char *names[] = { "a", "b", "c" };

	(void)state;
	check_format(names, 0, "");
	check_format(names, 1, "did you mean 'a'?");
	check_format(names, 2, "did you mean 'a' or 'b'?");
	check_format(names, 3, "did you mean 'a', 'b' or 'c'?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_pick_single_best),
		cmocka_unit_test(test_pick_ties_and_max),
		cmocka_unit_test(test_pick_nothing_close),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
