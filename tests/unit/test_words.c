/*
 * core/words.h: --slurm's text split as sh splits a plain command line,
 * with nothing expanded, and an unbalanced quote refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "core/words.h"

static void expect(const char *text, const char *const *want, size_t n)
{
	struct words w = { 0 };
	struct error err;

	error_clear(&err);
	assert_int_equal(words_split(text, "--slurm", &w, &err), 0);
	assert_int_equal(w.n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(w.v[i], want[i]);
	if (n)
		assert_null(w.v[n]);
	words_release(&w);
}

static void test_split(void **state)
{
	(void)state;
	expect("-N1 -n2", (const char *[]){ "-N1", "-n2" }, 2);
	expect("  -p  big\t-t 30\n", (const char *[]){ "-p", "big", "-t", "30" }, 4);
	expect("--constraint='zen4|spr' -J \"my job\"",
	       (const char *[]){ "--constraint=zen4|spr", "-J", "my job" }, 3);
	expect("a\\ b 'x\"y' \"q\\\"r\\\\\"", (const char *[]){ "a b", "x\"y", "q\"r\\" }, 3);
	expect("'' x", (const char *[]){ "", "x" }, 2);
	expect("$HOME ~ *", (const char *[]){ "$HOME", "~", "*" }, 3);
	expect("'it''s'", (const char *[]){ "its" }, 1);
	expect("", NULL, 0);
	expect("   ", NULL, 0);
}

static void test_unbalanced(void **state)
{
	struct words w = { 0 };
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(words_split("-N1 --comment='x", "--slurm", &w, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg, "--slurm: unbalanced ' quote");
	words_release(&w);
	error_clear(&err);
	assert_int_equal(words_split("\"a", "--slurm", &w, &err), -1);
	assert_string_equal(err.msg, "--slurm: unbalanced \" quote");
	words_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_unbalanced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
