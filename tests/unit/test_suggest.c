/*
 * Unit tests for core/suggest: the edit distance against hand-computed
 * values, the banded distance against a plain full table on many random
 * pairs, and the picking rules (threshold, ties only at the best score,
 * prefixes, at most max) that decide what a "did you mean" hint offers.
 * Long words are turned down in linear time: a pick over megabyte-long
 * names finishes (with the quadratic distance it would run for hours).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

static int same(char x, char y)
{
	return tolower((unsigned char)x) == tolower((unsigned char)y);
}

/* The optimal-string-alignment distance by the book: a full table. */
static size_t reference_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[16][16];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + !same(a[i - 1], b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

static void random_word(uint32_t *seed, char *w)
{
	static const char letters[] = "abAB-";
	size_t n;

	*seed = *seed * 1103515245u + 12345u;
	n = (*seed >> 16) % 13;
	for (size_t i = 0; i < n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		w[i] = letters[(*seed >> 16) % 5];
	}
	w[n] = '\0';
}

/* Within max, the banded distance is the distance; beyond it, max + 1. */
static void test_distance_max(void **state)
{
	uint32_t seed = 7;
	char a[16], b[16];

	(void)state;
	for (int k = 0; k < 20000; k++) {
		size_t want, max = (size_t)(k % 6);

		random_word(&seed, a);
		random_word(&seed, b);
		want = reference_distance(a, b);
		assert_int_equal(suggest_distance(a, b), want);
		if (suggest_distance_max(a, b, max) != (want <= max ? want : max + 1))
			fail_msg("'%s' '%s' max %zu: got %zu, distance %zu", a, b, max,
				 suggest_distance_max(a, b, max), want);
	}
}

/* Picking among names as long as the word costs a band, not a square:
 * two million-letter names and a million-letter typo of one of them. */
static void test_long_words_linear(void **state)
{
	size_t n = 1000000, out[2];
	char *word = malloc(n + 1), *c0 = malloc(n + 1), *c1 = malloc(n + 1);
	const char *cands[2];

	(void)state;
	memset(word, 'a', n);
	memset(c0, 'a', n);
	memset(c1, 'b', n);
	word[n] = c0[n] = c1[n] = '\0';
	word[n / 2] = 'x';
	c0[n - 1] = 'y';
	cands[0] = c0;
	cands[1] = c1;
	assert_int_equal(suggest_pick(word, cands, 2, out, 2), 1);
	assert_int_equal(out[0], 0);
	assert_int_equal(suggest_distance_max(word, c1, 3), 4);
	word[n / 2] = '\0';	/* half as long: not even compared */
	assert_int_equal(suggest_distance_max(word, c0, 3), 4);
	free(word);
	free(c0);
	free(c1);
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

/* Three letters with one replaced make another word, not a typo: perf's
 * '--pid' must not be offered '--pin'; a missing, extra or swapped letter
 * in a short word still is a typo. */
static void test_pick_short_replacements(void **state)
{
	const char *opts[] = { "pin", "csv", "seed", "uarch" };

	(void)state;
	assert_null(suggest_option("pid", opts, 4));
	assert_null(suggest_option("pig", opts, 4));
	assert_string_equal(suggest_option("cvs", opts, 4), "csv");
	assert_string_equal(suggest_option("sed", opts, 4), "seed");
	assert_string_equal(suggest_option("pn", opts, 4), "pin");
	/* From four letters on, one replaced letter is a typo again. */
	assert_string_equal(suggest_option("seeb", opts, 4), "seed");
	/* Names of events keep the looser rule. */
	assert_string_equal(suggest_best("pid", opts, 4), "pin");
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
		cmocka_unit_test(test_distance_max),
		cmocka_unit_test(test_long_words_linear),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_pick_single_best),
		cmocka_unit_test(test_pick_ties_and_max),
		cmocka_unit_test(test_pick_nothing_close),
		cmocka_unit_test(test_pick_short_replacements),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
