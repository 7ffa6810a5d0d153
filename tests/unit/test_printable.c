/*
 * Unit tests for core/printable and the text table built on it: control
 * characters (C0, DEL, C1 in UTF-8) and bytes that are not UTF-8 come out
 * as \xNN, every other character as it was (accents, symbols, emoji, a
 * backslash), escaping twice changes nothing, and a table escapes what its
 * cells are given while its own colour codes stay raw around the cell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/printable.h"
#include "report/texttable.h"

static void check(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT, twice = STRBUF_INIT;

	strbuf_add_printable(&sb, in);
	if (strcmp(sb.buf, want))
		fail_msg("'%s' became '%s', want '%s'", in, sb.buf, want);
	assert_int_equal(printable_needs_escape(in), strcmp(in, want) != 0);
	strbuf_add_printable(&twice, sb.buf);
	assert_string_equal(twice.buf, sb.buf);
	assert_false(printable_needs_escape(sb.buf));
	strbuf_release(&sb);
	strbuf_release(&twice);
}

static void test_controls(void **state)
{
	(void)state;
	check("", "");
	check("plain name-1.2:x", "plain name-1.2:x");
	check("\033[31mred\033[0m", "\\x1b[31mred\\x1b[0m");
	check("\033]0;title\007", "\\x1b]0;title\\x07");
	check("tab\there\nnew\rline", "tab\\x09here\\x0anew\\x0dline");
	check("del\177", "del\\x7f");
	check("\001\037", "\\x01\\x1f");
	check("back\\slash \\x1b", "back\\slash \\x1b");
}

static void test_utf8(void **state)
{
	(void)state;
	check("caf\303\251 \302\261 \342\200\224 \360\237\230\200", "caf\303\251 \302\261 \342\200\224 \360\237\230\200");
	/* C1 controls: U+0080 and U+009B (CSI), in UTF-8. */
	check("\302\200x\302\233", "\\xc2\\x80x\\xc2\\x9b");
	check("\302\240", "\302\240");	/* U+00A0 is not a control */
	/* Not UTF-8: a stray byte, an overlong '/', a cut sequence, a
	 * surrogate, past U+10FFFF. The text after each is kept. */
	check("a\377b", "a\\xffb");
	check("\300\257", "\\xc0\\xaf");
	check("\342\202", "\\xe2\\x82");
	check("\342\202x", "\\xe2\\x82x");
	check("\355\240\200", "\\xed\\xa0\\x80");
	check("\364\220\200\200", "\\xf4\\x90\\x80\\x80");
	check("\200", "\\x80");
	/* What a JSON string may hold: UTF-8, control characters included. */
	assert_true(printable_utf8_valid("caf\303\251 \033[1m \360\237\230\200"));
	assert_false(printable_utf8_valid("a\377"));
	assert_false(printable_utf8_valid("\355\240\200"));
}

static void test_printable_in(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_string_equal(printable_in(&sb, "a\033b"), "a\\x1bb");
	assert_string_equal(printable_in(&sb, "c"), "c");	/* reset first */
	strbuf_release(&sb);
}

static void test_table(void **state)
{
	struct texttable t;
	struct strbuf out = STRBUF_INIT;
	size_t row;

	(void)state;
	texttable_init(&t, 3, "lll");
	row = texttable_row(&t);
	texttable_set(&t, row, 0, "%s", "v\033[2J");
	texttable_set(&t, row, 1, "x");
	texttable_set(&t, row, 2, "SLOWER");
	texttable_color(&t, row, 2, "\033[1;31m");
	row = texttable_row(&t);
	texttable_set(&t, row, 0, "ab");
	texttable_set(&t, row, 1, "y");
	texttable_render(&t, 0, &out);
	/* The escaped name is 8 columns wide and the column follows it. */
	assert_string_equal(out.buf, "v\\x1b[2J  x  \033[1;31mSLOWER\033[0m\n"
				     "ab        y\n");
	texttable_release(&t);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_printable_in),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
