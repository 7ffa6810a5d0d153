/*
 * Unit tests for core/words: how --prepare/--setup strings become argv
 * without a shell — blanks, both quotes, backslashes, empty words — and the
 * errors of an unterminated quote or an empty command.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/strbuf.h"
#include "core/words.h"

/* s splits into exactly the words of want (NULL-terminated). */
static void check(const char *s, const char *const *want)
{
	struct error err;
	char **v;
	size_t i;

	error_clear(&err);
	v = words_split(s, &err);
	if (!v)
		fail_msg("'%s': %s", s, err.msg);
	for (i = 0; want[i]; i++) {
		if (!v[i])
			fail_msg("'%s': word %zu missing", s, i);
		assert_string_equal(v[i], want[i]);
	}
	assert_null(v[i]);
	strv_free(v);
}

static void test_split(void **state)
{
	(void)state;
	check("make clean", (const char *[]){ "make", "clean", NULL });
	check("  sleep\t0.1 \n", (const char *[]){ "sleep", "0.1", NULL });
	check("cp 'a b' c", (const char *[]){ "cp", "a b", "c", NULL });
	check("echo \"say \\\"hi\\\" \\\\ $HOME\"",
	      (const char *[]){ "echo", "say \"hi\" \\ $HOME", NULL });
	check("a\\ b c", (const char *[]){ "a b", "c", NULL });
	check("x '' y", (const char *[]){ "x", "", "y", NULL });
	check("pre'fix'\"ed\"", (const char *[]){ "prefixed", NULL });
	/* Nothing a shell would do: no expansion, no pipes. */
	check("ls *.c | wc", (const char *[]){ "ls", "*.c", "|", "wc", NULL });
	check("'it''s'", (const char *[]){ "its", NULL });
}

static void test_errors(void **state)
{
	struct error err;

	(void)state;
	error_clear(&err);
	assert_null(words_split("echo 'open", &err));
	assert_string_equal(err.msg, "unterminated single quote in 'echo 'open'");
	assert_int_equal(err.kind, ERR_USAGE);
	error_clear(&err);
	assert_null(words_split("echo \"open", &err));
	assert_string_equal(err.msg, "unterminated double quote in 'echo \"open'");
	error_clear(&err);
	assert_null(words_split("  \t", &err));
	assert_string_equal(err.msg, "empty command '  \t'");
	assert_true(words_has_blank("sleep 0.1"));
	assert_false(words_has_blank("./prog"));
}

/* --slurm's text: appended to a vector, nothing for blank text, and an
 * open quote named with the option. */
static void test_append(void **state)
{
	struct words w = { 0 };
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(words_append(&w, "   ", "--slurm", &err), 0);
	assert_int_equal(w.n, 0);
	assert_int_equal(words_append(&w, "-N1 --constraint='zen4|spr' -J \"my job\"", "--slurm",
				      &err), 0);
	assert_int_equal(w.n, 4);
	assert_string_equal(w.v[1], "--constraint=zen4|spr");
	assert_string_equal(w.v[3], "my job");
	assert_null(w.v[4]);
	assert_int_equal(words_append(&w, "-N1 --comment='x", "--slurm", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg, "--slurm: unterminated single quote in '-N1 --comment='x'");
	assert_int_equal(w.n, 4);
	words_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
