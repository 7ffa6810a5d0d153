/*
 * Unit tests for core/parseopt: every spelling of an option (--name value,
 * --name=value, -x value, -xvalue, bundled flags), values checked against
 * their bounds, lists joined across repeats, where parsing stops, the
 * messages of bad input, and `given`, which tells an option set to its
 * default value from an option not written at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/parseopt.h"

struct vals {
	unsigned seed, repeat;
	int seed_given, quiet, quiet_given, verbose, verbose_given;
	double timeout;
	const char *output;
	char *events;
};

/* Parse argv (NULL-terminated) into *v; returns parse_options' result. */
static int parse(struct vals *v, const char **argv, int flags, struct error *err)
{
	const struct option opts[] = {
		{ OPT_UINT, 0, "seed", &v->seed, "n", "seed", .given = &v->seed_given },
		{ OPT_UINT, 'r', "repeat", &v->repeat, "n", "runs", 1, 1000 },
		{ OPT_DOUBLE, 0, "timeout", &v->timeout, "s", "per run", 0.001, 10 },
		{ OPT_BOOL, 'q', "quiet", &v->quiet, NULL, "no table", .given = &v->quiet_given },
		{ OPT_COUNT, 'v', "verbose", &v->verbose, NULL, "more", .given = &v->verbose_given },
		{ OPT_STRING, 'o', "output", &v->output, "file", "JSON" },
		{ OPT_LIST, 'e', "events", &v->events, "list", "events" },
		{ OPT_END },
	};
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(v, 0, sizeof(*v));
	error_clear(err);
	return parse_options(argc, argv, opts, flags, err);
}

static void test_given(void **state)
{
	const char *none[] = { "-r", "3", NULL };
	const char *zero[] = { "--seed", "0", NULL };
	const char *eq[] = { "--seed=7", NULL };
	const char *after[] = { "-q", "--", "./prog", "--seed", "5", NULL };
	struct vals v;
	struct error err;

	(void)state;
	assert_int_equal(parse(&v, none, 0, &err), 2);
	assert_int_equal(v.seed_given, 0);
	assert_int_equal(v.quiet_given, 0);
	/* --seed 0 sets the value the default also has: only given tells. */
	assert_int_equal(parse(&v, zero, 0, &err), 2);
	assert_int_equal(v.seed, 0);
	assert_int_equal(v.seed_given, 1);
	assert_int_equal(parse(&v, eq, 0, &err), 1);
	assert_int_equal(v.seed, 7);
	assert_int_equal(v.seed_given, 1);
	/* A --seed after "--" belongs to the command, not to us. */
	assert_int_equal(parse(&v, after, 0, &err), 2);
	assert_int_equal(v.quiet_given, 1);
	assert_int_equal(v.seed_given, 0);
	assert_int_equal(v.seed, 0);
}

static void test_given_short_and_bundled(void **state)
{
	const char *bundled[] = { "-qvv", NULL };
	const char *bad[] = { "--seed", "x", NULL };
	struct vals v;
	struct error err;

	(void)state;
	assert_int_equal(parse(&v, bundled, 0, &err), 1);
	assert_int_equal(v.quiet, 1);
	assert_int_equal(v.verbose, 2);
	assert_int_equal(v.quiet_given, 1);
	assert_int_equal(v.verbose_given, 1);
	/* A value that is refused does not count as given. */
	assert_int_equal(parse(&v, bad, 0, &err), -1);
	assert_int_equal(v.seed_given, 0);
	assert_string_equal(err.msg, "option '--seed' expects a non-negative integer, not 'x'");
}

static void test_spellings(void **state)
{
	const char *argv[] = { "-r5", "--timeout=0.5", "-o", "out.json", "-e", "a",
			       "--events", "b,c", "-eD", NULL };
	struct vals v;
	struct error err;

	(void)state;
	assert_int_equal(parse(&v, argv, 0, &err), 9);
	assert_int_equal(v.repeat, 5);
	assert_true(v.timeout == 0.5);
	assert_string_equal(v.output, "out.json");
	assert_string_equal(v.events, "a,b,c,D");
	free(v.events);
}

static void test_bounds_and_errors(void **state)
{
	const char *zero[] = { "-r", "0", NULL };
	const char *neg[] = { "--repeat=-1", NULL };
	const char *typo[] = { "--rpeat", "3", NULL };
	const char *noval[] = { "--output", NULL };
	const char *flagval[] = { "--quiet=1", NULL };
	const char *stray[] = { "./prog", NULL };
	struct vals v;
	struct error err;

	(void)state;
	assert_int_equal(parse(&v, zero, 0, &err), -1);
	assert_string_equal(err.msg, "option '--repeat' expects a positive integer, not '0'");
	assert_string_equal(err.hint, "use a value from 1 to 1000");
	assert_int_equal(parse(&v, neg, 0, &err), -1);
	assert_int_equal(parse(&v, typo, 0, &err), -1);
	assert_string_equal(err.msg, "unknown option '--rpeat'");
	assert_string_equal(err.hint, "did you mean '--repeat'? (see -h)");
	assert_int_equal(err.kind, ERR_USAGE);
	assert_int_equal(parse(&v, noval, 0, &err), -1);
	assert_string_equal(err.msg, "option '--output' requires a value");
	assert_int_equal(parse(&v, flagval, 0, &err), -1);
	assert_string_equal(err.msg, "option '--quiet' takes no value");
	assert_int_equal(parse(&v, stray, 0, &err), -1);
	assert_string_equal(err.msg, "unexpected argument './prog'");
	/* ... unless the command to run starts there. */
	assert_int_equal(parse(&v, stray, PARSE_OPT_STOP_AT_NON_OPTION, &err), 0);
}

/* A number of the right kind outside the bounds is out of range, not "not a
 * number"; malformed words still say what was expected. */
static void test_out_of_range(void **state)
{
	const char *big[] = { "-r", "2000", NULL };
	const char *huge[] = { "-r", "99999999999999999999", NULL };
	const char *far[] = { "--timeout", "200", NULL };
	const char *word[] = { "--timeout", "2x", NULL };
	struct vals v;
	struct error err;

	(void)state;
	assert_int_equal(parse(&v, big, 0, &err), -1);
	assert_string_equal(err.msg, "option '--repeat': '2000' is out of range");
	assert_string_equal(err.hint, "use a value from 1 to 1000");
	assert_int_equal(parse(&v, huge, 0, &err), -1);
	assert_string_equal(err.msg, "option '--repeat': '99999999999999999999' is out of range");
	assert_int_equal(parse(&v, far, 0, &err), -1);
	assert_string_equal(err.msg, "option '--timeout': '200' is out of range");
	assert_string_equal(err.hint, "use a value from 0.001 to 10");
	assert_int_equal(parse(&v, word, 0, &err), -1);
	assert_string_equal(err.msg, "option '--timeout' expects a number, not '2x'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_given_short_and_bundled),
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_bounds_and_errors),
		cmocka_unit_test(test_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
