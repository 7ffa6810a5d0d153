/*
 * Unit tests for analysis/bisect: the three-way call of a candidate from
 * its two comparisons, placed between good and bad (like good, like bad,
 * like neither, undecided), the
 * premise, the next candidate of the search with known, unknown and
 * skipped commits (nearest the middle, skipped ones passed over, the end
 * when only skipped ones are left), the bound on decisions, and a step's
 * JSON read back as written (what resuming relies on).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/bisect.h"

/* A comparison with this interval, read as compare reads it. */
static struct bisect_rec_cmp cmp(double lo, double hi)
{
	struct bisect_rec_cmp c = { .valid = 1, .ratio = sqrt(lo * hi), .ci_lo = lo, .ci_hi = hi,
				    .n = 12 };

	c.verdict = (int)stats_verdict(lo, hi, 0.01);
	return c;
}

static void test_sides(void **state)
{
	struct bisect_rec_cmp none = { 0 };
	struct bisect_rec_cmp c;

	(void)state;
	c = cmp(0.995, 1.004);
	assert_int_equal(bisect_side_of(&c, 0.01), SIDE_SAME);		/* equivalent */
	c = cmp(1.03, 1.07);
	assert_int_equal(bisect_side_of(&c, 0.01), SIDE_DIFF);		/* slower */
	c = cmp(0.93, 0.97);
	assert_int_equal(bisect_side_of(&c, 0.01), SIDE_DIFF);		/* faster */
	c = cmp(1.002, 1.018);
	assert_int_equal(bisect_side_of(&c, 0.01), SIDE_DIFF);		/* size uncertain */
	/* Undirected, half-width 0.9%: known to the target, so the same. */
	c = cmp(0.997, 1.015);
	assert_int_equal(c.verdict, STATS_INCONCLUSIVE);
	assert_int_equal(bisect_side_of(&c, 0.01), SIDE_SAME);
	/* Undirected and wide: the evidence ran out. */
	c = cmp(0.95, 1.08);
	assert_int_equal(bisect_side_of(&c, 0.01), SIDE_OPEN);
	assert_int_equal(bisect_side_of(&none, 0.01), SIDE_OPEN);
}

/* The candidate placed on the line from good (0) to bad (1) by each
 * comparison's interval, the premise being bad = good x 1.05. */
static void test_decide(void **state)
{
	const double p = 1.05;
	struct bisect_rec_cmp same = cmp(0.996, 1.004), up = cmp(1.04, 1.06),
			      down = cmp(0.94, 0.96), open = cmp(0.9, 1.1);
	struct bisect_rec_cmp mid_g = cmp(1.015, 1.035), mid_b = cmp(0.965, 0.985);
	struct bisect_rec_cmp near_g = cmp(0.99, 1.02), far = cmp(1.09, 1.11), past = cmp(1.035, 1.06);
	struct bisect_rec_cmp eq_g = cmp(1, 1), eq_b = cmp(1 / 1.05, 1 / 1.05);
	struct bisect_rec_cmp half_g = cmp(1.025, 1.025), half_b = cmp(1.025 / 1.05, 1.025 / 1.05);
	struct bisect_rec_cmp none = { 0 };

	(void)state;
	assert_int_equal(bisect_decide(&same, &down, p), CALL_LIKE_GOOD);
	assert_int_equal(bisect_decide(&up, &same, p), CALL_LIKE_BAD);
	/* Between the two, differing from both: a gradual change, or one of
	 * two changes. */
	assert_int_equal(bisect_decide(&mid_g, &mid_b, p), CALL_NEITHER);
	/* Shown to differ from both, but near good (a build's layout moves
	 * it a little): good's side, not neither. */
	{
		struct bisect_rec_cmp ng = cmp(1.004, 1.012), nb = cmp(0.955, 0.963);

		assert_int_equal(bisect_decide(&ng, &nb, p), CALL_LIKE_GOOD);
	}
	/* One interval wholly on one side of the middle is enough... */
	assert_int_equal(bisect_decide(&near_g, &open, p), CALL_LIKE_GOOD);
	assert_int_equal(bisect_decide(&open, &past, p), CALL_LIKE_BAD);
	/* ...and past bad is bad's side (slower than bad: a later commit
	 * undid part of it). */
	assert_int_equal(bisect_decide(&far, &past, p), CALL_LIKE_BAD);
	/* No guess while both straddle the middle, when the two disagree, or
	 * without a comparison or a premise. */
	assert_int_equal(bisect_decide(&open, &open, p), CALL_UNDECIDED);
	assert_int_equal(bisect_decide(&same, &same, p), CALL_UNDECIDED);
	assert_int_equal(bisect_decide(&none, &none, p), CALL_UNDECIDED);
	assert_int_equal(bisect_decide(&same, &down, 1.0), CALL_UNDECIDED);
	/* A faster bad: the same line, the other way. */
	assert_int_equal(bisect_decide(&down, &same, 1 / 1.05), CALL_LIKE_BAD);
	assert_int_equal(bisect_decide(&same, &up, 1 / 1.05), CALL_LIKE_GOOD);
	/* Exact counts: points. */
	assert_int_equal(bisect_decide(&eq_g, &eq_b, p), CALL_LIKE_GOOD);
	assert_int_equal(bisect_decide(&half_g, &half_b, p), CALL_NEITHER);
	assert_int_equal(bisect_premise(&up, 0.01), CALL_DIFFER);
	assert_int_equal(bisect_premise(&down, 0.01), CALL_DIFFER);
	assert_int_equal(bisect_premise(&same, 0.01), CALL_SAME);
	assert_int_equal(bisect_premise(&open, 0.01), CALL_SAME);
}

/* Run the search over g, whose bad commits are those with is_bad[i] set,
 * with the commits in skip[] unbuildable; returns the decisions made. */
static size_t search_dag(const struct bisect_dag *g, const unsigned char *is_bad,
			 const size_t *skip, size_t nskip, struct bisect_next *end)
{
	enum bisect_mark m[64] = { 0 };
	size_t decisions = 0;

	m[g->n - 1] = MARK_BAD;
	for (;;) {
		int skipped = 0;

		bisect_next_release(end);
		bisect_next(g, m, end);
		if (end->what != NEXT_TEST)
			return decisions;
		assert_true(end->window_lo <= end->pos && end->pos < end->window_hi);
		assert_int_equal(m[end->pos], MARK_UNKNOWN);
		for (size_t i = 0; i < nskip; i++)
			skipped |= skip[i] == end->pos;
		if (skipped) {
			m[end->pos] = MARK_SKIP;
			continue;
		}
		m[end->pos] = is_bad[end->pos] ? MARK_BAD : MARK_GOOD;
		decisions++;
	}
}

/* The same on a line of n commits whose first bad one is at first_bad. */
static size_t search(size_t n, size_t first_bad, const size_t *skip, size_t nskip,
		     struct bisect_next *end)
{
	struct bisect_dag g;
	unsigned char is_bad[64];
	size_t d;

	for (size_t i = 0; i < n; i++)
		is_bad[i] = i >= first_bad;
	bisect_dag_line(&g, n);
	d = search_dag(&g, is_bad, skip, nskip, end);
	bisect_dag_release(&g);
	return d;
}

static void next_on_line(const enum bisect_mark *m, size_t n, struct bisect_next *nx)
{
	struct bisect_dag g;

	bisect_dag_line(&g, n);
	bisect_next_release(nx);
	bisect_next(&g, m, nx);
	bisect_dag_release(&g);
}

static void test_next(void **state)
{
	struct bisect_next nx = { 0 };
	enum bisect_mark m[5] = { 0 };

	(void)state;
	/* 24 commits: the middle of (good, bad) first, position 11. */
	{
		enum bisect_mark big[24] = { 0 };

		next_on_line(big, 24, &nx);
		assert_int_equal(nx.what, NEXT_TEST);
		assert_int_equal(nx.pos, 11);
		assert_int_equal(nx.window_lo, 0);
		assert_int_equal(nx.window_hi, 24);
		assert_int_equal(nx.nleft, 24);
		big[11] = MARK_SKIP;	/* the build failed: the nearer lower one */
		next_on_line(big, 24, &nx);
		assert_int_equal(nx.pos, 10);
	}
	/* Every first bad position is found within ceil(log2 n) decisions. */
	for (size_t n = 1; n <= 40; n++)
		for (size_t fb = 0; fb < n; fb++) {
			size_t d = search(n, fb, NULL, 0, &nx);

			assert_int_equal(nx.what, NEXT_FOUND);
			assert_int_equal(nx.pos, fb);
			assert_true(d <= bisect_max_decisions(n));
		}
	/* With a skipped commit that is neither the answer nor the one before
	 * it (then it could be either): still found. */
	for (size_t fb = 0; fb < 24; fb++) {
		const size_t skip[] = { 11 };

		if (fb == 11 || fb == 12)
			continue;
		search(24, fb, skip, 1, &nx);
		assert_int_equal(nx.what, NEXT_FOUND);
		assert_int_equal(nx.pos, fb);
	}
	/* The skipped commit is the first bad one: it, or the next, as git
	 * bisect says ("only skipped commits left"). */
	{
		const size_t skip[] = { 11 };

		search(24, 11, skip, 1, &nx);
		assert_int_equal(nx.what, NEXT_SKIPPED_ONLY);
		assert_int_equal(nx.nleft, 2);
		assert_int_equal(nx.left[0], 11);
		assert_int_equal(nx.left[1], 12);
	}
	/* Nothing unknown between a good and a bad one: found. */
	m[0] = MARK_GOOD;
	m[1] = MARK_GOOD;
	m[2] = MARK_BAD;
	next_on_line(m, 5, &nx);
	assert_int_equal(nx.what, NEXT_FOUND);
	assert_int_equal(nx.pos, 2);
	/* One commit: it is bad. */
	next_on_line(m, 1, &nx);
	assert_int_equal(nx.what, NEXT_FOUND);
	assert_int_equal(nx.pos, 0);
	bisect_next_release(&nx);
	assert_int_equal(bisect_max_decisions(24), 5);
	assert_int_equal(bisect_max_decisions(32), 5);
	assert_int_equal(bisect_max_decisions(33), 6);
	assert_int_equal(bisect_max_decisions(1), 0);
}

/*
 * Two branches from good merged into bad (the history of issue 38's
 * report): b1..b6 on one, a1 a2 on the other, in the order `git log
 * --topo-order --reverse` gives, then the merge. Parents: b1 and a1 have
 * good (outside the range) as theirs.
 */
enum { B1, B2, B3, B4, B5, B6, A1, A2, MERGE, NMERGED };

static void merged_history(struct bisect_dag *g)
{
	static const size_t first[] = { 0, 0, 1, 2, 3, 4, 5, 5, 6, 8 };
	static const size_t par[] = { B1, B2, B3, B4, B5, A1, B6, A2 };

	g->n = NMERGED;
	g->first = xcalloc(sizeof(first) / sizeof(first[0]), sizeof(size_t));
	g->par = xcalloc(sizeof(par) / sizeof(par[0]), sizeof(size_t));
	memcpy(g->first, first, sizeof(first));
	memcpy(g->par, par, sizeof(par));
}

/* is_bad: the descendants of culprit (itself included). */
static void descendants(const struct bisect_dag *g, size_t culprit, unsigned char *is_bad)
{
	memset(is_bad, 0, g->n);
	is_bad[culprit] = 1;
	for (size_t i = 0; i < g->n; i++)
		for (size_t k = g->first[i]; k < g->first[i + 1]; k++)
			is_bad[i] |= is_bad[g->par[k]];
}

static void test_next_merges(void **state)
{
	struct bisect_dag g;
	struct bisect_next nx = { 0 };
	unsigned char is_bad[NMERGED];
	enum bisect_mark m[NMERGED] = { 0 };

	(void)state;
	merged_history(&g);
	/* Every commit as the culprit is found, the one on the short branch
	 * too (a line search over this order named the merge). */
	for (size_t c = 0; c < NMERGED; c++) {
		size_t d;

		descendants(&g, c, is_bad);
		d = search_dag(&g, is_bad, NULL, 0, &nx);
		assert_int_equal(nx.what, NEXT_FOUND);
		assert_int_equal(nx.pos, c);
		assert_true(d <= 5);
	}
	/* The first test splits the nine: b4 reaches b1..b4 (4 of 9). */
	m[MERGE] = MARK_BAD;
	bisect_next(&g, m, &nx);
	assert_int_equal(nx.what, NEXT_TEST);
	assert_int_equal(nx.pos, B4);
	assert_int_equal(nx.nleft, NMERGED);
	/* b4..b6 good (b6 makes b1..b5 good): a1, a2 and the merge are open,
	 * and a1, reaching one of three, is tested. */
	m[B6] = MARK_GOOD;
	bisect_next(&g, m, &nx);
	assert_int_equal(nx.nleft, 3);
	assert_int_equal(nx.pos, A1);
	/* a2 bad: only a1 and a2 are open, whatever b6 said. */
	m[A2] = MARK_BAD;
	m[A1] = MARK_SKIP;
	bisect_next(&g, m, &nx);
	assert_int_equal(nx.what, NEXT_SKIPPED_ONLY);
	assert_int_equal(nx.nleft, 2);
	assert_int_equal(nx.left[0], A1);
	assert_int_equal(nx.left[1], A2);
	bisect_next_release(&nx);
	bisect_dag_release(&g);
}

static void test_step_json(void **state)
{
	struct bisect_rec_step s = { 0 }, back;
	struct error err;
	json_t *j;

	(void)state;
	error_clear(&err);
	s.index = 3;
	s.kind = STEP_CANDIDATE;
	memset(s.c.sha, 'a', 40);
	strcpy(s.c.abbrev, "aaaaaaa");
	s.c.subject = strdup("tidy \"12\"");
	s.position = 12;
	s.call = CALL_LIKE_BAD;
	s.reason = strdup("like bad");
	s.build = BUILD_CACHED;
	s.build_log = strdup("builds/aaa.log");
	s.build_exit = 0;
	s.vs_good = cmp(1.9, 2.1);
	strcpy(s.vs_good.word, "higher");
	s.runs = 18;
	s.blocks = 3;
	s.result = strdup("steps/03-aaaaaaa.json");
	s.window_lo = 11;
	s.window_hi = 24;
	j = bisect_rec_step_json(&s, "allocs");
	assert_int_equal(bisect_rec_step_from_json(j, &back, "journal", &err), 0);
	assert_int_equal(back.index, 3);
	assert_int_equal(back.kind, STEP_CANDIDATE);
	assert_string_equal(back.c.sha, s.c.sha);
	assert_string_equal(back.c.subject, "tidy \"12\"");
	assert_int_equal(back.call, CALL_LIKE_BAD);
	assert_int_equal(back.build, BUILD_CACHED);
	assert_int_equal(back.runs, 18);
	assert_true(back.vs_good.valid && !back.vs_bad.valid);
	assert_true(fabs(back.vs_good.ci_lo - 1.9) < 1e-12);
	assert_string_equal(back.vs_good.word, "higher");
	assert_int_equal(back.window_hi, 24);
	bisect_rec_step_release(&back);
	/* A damaged line is an error naming the field, never a crash. */
	json_object_set_new(j, "outcome", json_string("sideways"));
	assert_int_equal(bisect_rec_step_from_json(j, &back, "journal", &err), -1);
	assert_non_null(strstr(err.msg, "'outcome'"));
	json_object_set_new(j, "outcome", json_string("like-bad"));
	json_object_set_new(j, "commit", json_string("../../etc"));
	assert_int_equal(bisect_rec_step_from_json(j, &back, "journal", &err), -1);
	json_decref(j);
	bisect_rec_step_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sides),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_next_merges),
		cmocka_unit_test(test_step_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
