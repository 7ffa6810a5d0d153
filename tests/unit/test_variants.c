/*
 * Variant and parameter expansion (campaign/variants.c, params.c): the
 * commands as written, with --parameter-list/-scan and the hooks, into the
 * variants a campaign runs. Pure: no process is started.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "campaign/variants.h"

static struct variant_args va;

/* The option callbacks as the parser calls them (words joined by the
 * parser's separator). */
static int opt_call(int (*cb)(const struct option *, const char *, struct error *), void *data,
		    const char *arg, struct error *err)
{
	struct option o = { 0 };

	o.cb_data = data;
	o.long_name = "x";
	return cb(&o, arg, err);
}

static void add(const char *name, const char *const *words, size_t n)
{
	struct error err;

	error_clear(&err);
	assert_int_equal(variant_add(&va, name, words, n, 0, &err), 0);
}

static void test_plain_commands(void **state)
{
	static const char *const a[] = { "./old", "-x" }, *const b[] = { "./new" };
	struct error err;

	(void)state;
	variant_args_init(&va);
	add("old", a, 2);
	add(NULL, b, 1);
	error_clear(&err);
	assert_int_equal(variants_build(&va, &err), 0);
	assert_int_equal(va.n, 2);
	assert_string_equal(va.names[0], "old");
	assert_null(va.names[1]);
	assert_string_equal(va.argv[0][0], "./old");
	assert_string_equal(va.argv[0][1], "-x");
	assert_null(va.argv[0][2]);
	assert_string_equal(va.argv[1][0], "./new");
	variant_args_release(&va);
}

/* A baseline written before a swept command, then one variant per value
 * (the last parameter fastest), named NAME=VALUE. */
static void test_parameter_list(void **state)
{
	static const char *const base[] = { "./prog" };
	static const char *const sweep[] = { "./prog", "--size", "{n}", "--mode={m}" };
	char arg[64];
	struct error err;

	(void)state;
	variant_args_init(&va);
	error_clear(&err);
	snprintf(arg, sizeof(arg), "n%c1,10", PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_list, &va, arg, &err), 0);
	snprintf(arg, sizeof(arg), "m%ca,b", PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_list, &va, arg, &err), 0);
	add(NULL, base, 1);
	add(NULL, sweep, 4);
	assert_int_equal(variants_build(&va, &err), 0);
	assert_int_equal(va.n, 5);
	assert_null(va.names[0]);
	assert_string_equal(va.names[1], "n=1,m=a");
	assert_string_equal(va.names[2], "n=1,m=b");
	assert_string_equal(va.names[3], "n=10,m=a");
	assert_string_equal(va.names[4], "n=10,m=b");
	assert_string_equal(va.argv[4][2], "10");
	assert_string_equal(va.argv[4][3], "--mode=b");
	variant_args_release(&va);
}

/* A scan keeps the decimals its start and step were written with. */
static void test_parameter_scan(void **state)
{
	static const char *const cmd[] = { "./prog", "{t}" };
	char arg[64];
	struct error err;

	(void)state;
	variant_args_init(&va);
	error_clear(&err);
	snprintf(arg, sizeof(arg), "t%c0%c1", PARSE_OPT_SEP, PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_scan, &va, arg, &err), 0);
	va.step = 0.25;
	va.step_given = 1;
	add("t-{t}", cmd, 2);
	assert_int_equal(variants_build(&va, &err), 0);
	assert_int_equal(va.n, 5);
	assert_string_equal(va.argv[0][1], "0.00");
	assert_string_equal(va.argv[3][1], "0.75");
	assert_string_equal(va.argv[4][1], "1.00");
	assert_string_equal(va.names[4], "t-1.00");
	variant_args_release(&va);
}

/* A hook given once applies to every variant, with its parameters put in. */
static void test_hooks(void **state)
{
	static const char *const cmd[] = { "./prog", "{n}" };
	char arg[64];
	struct error err;

	(void)state;
	variant_args_init(&va);
	error_clear(&err);
	snprintf(arg, sizeof(arg), "n%c1,2", PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_list, &va, arg, &err), 0);
	assert_int_equal(opt_call(variant_opt_hook, &va.rows[HOOK_PREPARE], "./reset {n}", &err),
			 0);
	add(NULL, cmd, 2);
	va.split = 1;	/* -N: hook strings split into words */
	assert_int_equal(variants_build(&va, &err), 0);
	assert_int_equal(va.n, 2);
	assert_string_equal(va.hooks[HOOK_PREPARE][0][0], "./reset");
	assert_string_equal(va.hooks[HOOK_PREPARE][1][1], "2");
	variant_args_release(&va);
}

/* Bad input: one clear usage error each. */
static void test_errors(void **state)
{
	static const char *const cmd[] = { "./prog" }, *const a[] = { "./a" };
	static const char *const b[] = { "./b" }, *const p[] = { "./p", "{n}" };
	char arg[64];
	struct error err;

	(void)state;
	variant_args_init(&va);
	error_clear(&err);
	snprintf(arg, sizeof(arg), "n%c1,2", PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_list, &va, arg, &err), 0);
	add(NULL, cmd, 1);
	assert_int_equal(variants_build(&va, &err), -1);
	assert_non_null(strstr(err.msg, "no command uses the parameter {n}"));
	variant_args_release(&va);

	variant_args_init(&va);
	error_clear(&err);
	snprintf(arg, sizeof(arg), "n%c1,,2", PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_list, &va, arg, &err), -1);
	assert_non_null(strstr(err.msg, "empty value"));
	variant_args_release(&va);

	variant_args_init(&va);
	error_clear(&err);
	assert_int_equal(opt_call(variant_opt_hook, &va.rows[HOOK_SETUP], "./s1", &err), 0);
	assert_int_equal(opt_call(variant_opt_hook, &va.rows[HOOK_SETUP], "./s2", &err), 0);
	add(NULL, a, 1);
	add(NULL, b, 1);
	add(NULL, cmd, 1);
	assert_int_equal(variants_build(&va, &err), -1);
	assert_non_null(strstr(err.msg, "--setup is given 2 times for 3 commands"));
	variant_args_release(&va);

	variant_args_init(&va);
	error_clear(&err);
	snprintf(arg, sizeof(arg), "n%c1,2", PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_list, &va, arg, &err), 0);
	add("same", p, 2);
	assert_int_equal(variants_build(&va, &err), -1);
	assert_non_null(strstr(err.msg, "would name every value of {n} alike"));
	variant_args_release(&va);

	variant_args_init(&va);
	error_clear(&err);
	snprintf(arg, sizeof(arg), "t%c0.5%c2", PARSE_OPT_SEP, PARSE_OPT_SEP);
	assert_int_equal(opt_call(variant_opt_scan, &va, arg, &err), 0);
	add(NULL, p, 2);
	assert_int_equal(variants_build(&va, &err), -1);
	assert_non_null(strstr(err.msg, "must be integers"));
	variant_args_release(&va);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_commands),
		cmocka_unit_test(test_parameter_list),
		cmocka_unit_test(test_parameter_scan),
		cmocka_unit_test(test_hooks),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
