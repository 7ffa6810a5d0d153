/*
 * Unit tests for core/idlist: the CPU lists of -C and the id lists of -p/-t.
 * Ranges expand, output is sorted, and every malformed list (empty items,
 * descending ranges, signs, blanks, duplicates, numbers past the limit) is
 * refused with the bad item named; formatting folds runs back into ranges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/idlist.h"

static void expect_list(const char *list, int ranges, const int *want, size_t nwant)
{
	struct error err;
	int *ids;
	size_t n;

	error_clear(&err);
	assert_int_equal(idlist_parse(list, ranges, "CPU list", &ids, &n, &err), 0);
	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ids[i], want[i]);
	free(ids);
}

static void expect_bad(const char *list, int ranges, const char *words)
{
	struct error err;
	int *ids = (int *)1;
	size_t n = 7;

	error_clear(&err);
	assert_int_equal(idlist_parse(list, ranges, "CPU list", &ids, &n, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_non_null(strstr(err.msg, words));
	assert_true(err.hint[0] != '\0');
	assert_null(ids);
	assert_int_equal(n, 0);
}

static void test_ranges(void **state)
{
	static const int a[] = { 0, 1, 2, 3, 8 }, b[] = { 5 }, c[] = { 1, 2, 3, 7 };

	(void)state;
	expect_list("0-3,8", 1, a, 5);
	expect_list("5", 1, b, 1);
	expect_list("7,1-3", 1, c, 4);	/* sorted */
	expect_list("3-3", 1, (const int[]){ 3 }, 1);
}

static void test_ids_without_ranges(void **state)
{
	static const int a[] = { 12, 1234 };

	(void)state;
	expect_list("1234,12", 0, a, 2);
	expect_bad("1-3", 0, "bad item '1-3'");
}

static void test_malformed(void **state)
{
	(void)state;
	expect_bad("", 1, "empty CPU list");
	expect_bad("0,,1", 1, "bad item ''");
	expect_bad("0,", 1, "bad item ''");
	expect_bad(",0", 1, "bad item ''");
	expect_bad("3-1", 1, "bad item '3-1'");
	expect_bad("-1", 1, "bad item '-1'");
	expect_bad("+1", 1, "bad item '+1'");
	expect_bad(" 1", 1, "bad item ' 1'");
	expect_bad("1 ", 1, "bad item '1 '");
	expect_bad("a", 1, "bad item 'a'");
	expect_bad("0-", 1, "bad item '0-'");
	expect_bad("0-2-4", 1, "bad item '0-2-4'");
	expect_bad("99999999999", 1, "bad item '99999999999'");
	expect_bad("0-4194305", 1, "bad item '0-4194305'");
	expect_bad("1,0-2", 1, "1 is listed twice");
}

static void format_is(const int *ids, size_t n, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	idlist_format(ids, n, &sb);
	assert_string_equal(sb.buf ? sb.buf : "", want);
	strbuf_release(&sb);
}

static void test_format(void **state)
{
	(void)state;
	format_is((const int[]){ 0, 1, 2, 3, 8 }, 5, "0-3,8");
	format_is((const int[]){ 0, 1 }, 2, "0,1");
	format_is((const int[]){ 4 }, 1, "4");
	format_is((const int[]){ 1, 3, 4, 5, 9, 10 }, 6, "1,3-5,9,10");
	format_is(NULL, 0, "");
}

static void test_has(void **state)
{
	static const int a[] = { 0, 2, 5 };

	(void)state;
	assert_true(idlist_has(a, 3, 2));
	assert_false(idlist_has(a, 3, 1));
	assert_false(idlist_has(a, 0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_ids_without_ranges),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_has),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
