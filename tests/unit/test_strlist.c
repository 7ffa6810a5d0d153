/*
 * Unit tests for core/strlist: whole items match wherever they stand in the
 * list; prefixes, suffixes and inner parts of an item do not (the mistake a
 * bare strstr makes); empty lists, empty items and other separators.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/strlist.h"

static void test_whole_items(void **state)
{
	(void)state;
	assert_true(strlist_has("wall-time", "wall-time"));
	assert_true(strlist_has("wall-time,cycles,ipc", "wall-time"));
	assert_true(strlist_has("wall-time,cycles,ipc", "cycles"));
	assert_true(strlist_has("wall-time,cycles,ipc", "ipc"));
	assert_false(strlist_has("wall-time,cycles,ipc", "instructions"));
}

static void test_parts_of_items(void **state)
{
	(void)state;
	assert_false(strlist_has("wall-time,cycles", "time"));	/* suffix */
	assert_false(strlist_has("wall-time,cycles", "wall"));	/* prefix */
	assert_false(strlist_has("llc-misses-mpki", "misses"));	/* middle */
	assert_false(strlist_has("cycles", "cycles,ipc"));	/* longer than an item */
	/* A near miss first, the real item later. */
	assert_true(strlist_has("user-time-x,user-time", "user-time"));
	assert_true(strlist_has("xipc,ipcx,ipc", "ipc"));
}

static void test_empty(void **state)
{
	(void)state;
	assert_false(strlist_has(NULL, "cycles"));
	assert_false(strlist_has("", "cycles"));
	assert_false(strlist_has("", ""));
	assert_false(strlist_has("a,,b", ""));
	assert_true(strlist_has("a,,b", "b"));
	assert_true(strlist_has(",a,", "a"));
}

static void test_separator(void **state)
{
	static const char flags[] = "fpu vme de pse tsc msr pae hypervisor lahf_lm";

	(void)state;
	assert_true(strlist_has_sep(flags, "hypervisor", ' '));
	assert_true(strlist_has_sep(flags, "fpu", ' '));
	assert_true(strlist_has_sep(flags, "lahf_lm", ' '));
	assert_false(strlist_has_sep(flags, "lahf", ' '));
	assert_false(strlist_has_sep(flags, "pe", ' '));
	/* With spaces as separators, a comma is part of an item. */
	assert_false(strlist_has_sep("a,b c", "a", ' '));
	assert_true(strlist_has_sep("a,b c", "a,b", ' '));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_items),
		cmocka_unit_test(test_parts_of_items),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_separator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
