/*
 * The decisions of a bisect (analysis/bisect.h). A candidate is compared
 * with both endpoints in the same randomized blocks; each comparison is an
 * interval at the engine's error rate (the always-valid confidence sequence
 * under the sequential rule, the exact range for exact counts), which
 * places the candidate on the line from good to bad. It is like good or
 * like bad when an interval lies wholly on that side of the middle;
 * lying between the two, away from both, is evidence of a gradual change or
 * of two changes, and the search stops on it instead of guessing a side.
 * Calling a side wrongly needs an interval to miss the truth, so its chance
 * is at most the engine's alpha per step.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bisect.h"

enum bisect_side bisect_side_of(const struct bisect_rec_cmp *c, double target)
{
	if (!c->valid)
		return SIDE_OPEN;
	if (c->verdict == STATS_EQUIVALENT)
		return SIDE_SAME;
	if (stats_verdict_directional((enum stats_verdict)c->verdict))
		return SIDE_DIFF;
	/* Undirected: known to +-target is as good as equivalent (the
	 * sequential rule stops there: no further block would say more than
	 * that the difference is small). */
	if (isfinite(c->ci_lo) && isfinite(c->ci_hi) && c->ci_lo > 0 &&
	    0.5 * log(c->ci_hi / c->ci_lo) <= log1p(target) + 1e-12)
		return SIDE_SAME;
	return SIDE_OPEN;
}

/* Where c's interval puts the candidate on the good (0) to bad (1) line:
 * [lo, hi] from its ratio to an endpoint at `at` (0 good, 1 bad). */
static int place(const struct bisect_rec_cmp *c, double span, double at, double *lo, double *hi)
{
	double a, b;

	if (!c->valid || !(c->ci_lo > 0) || !(c->ci_hi >= c->ci_lo) || !isfinite(c->ci_hi))
		return -1;
	a = at + log(c->ci_lo) / span;
	b = at + log(c->ci_hi) / span;
	*lo = fmin(a, b);
	*hi = fmax(a, b);
	return 0;
}

/*
 * An interval misses the candidate's true place with at most the engine's
 * error rate, so each call is wrong at most that often for a candidate at
 * an endpoint. Asking only which side of the middle it is on, not whether
 * it equals an endpoint, decides as soon as an interval is narrower than
 * half the premise's change (a quarter-width band needed 4x the runs and,
 * on wall time at 5%, ran out of blocks: docs/bisect.md). A candidate
 * between the endpoints is told by lying more than NEAR from both, which is
 * checked first; one nearer an endpoint than that is called its side: a
 * build differs from its neighbours by a little (code layout) and the
 * intervals are narrow enough to show it.
 */
#define NEAR 0.2
enum bisect_call bisect_decide(const struct bisect_rec_cmp *vs_good, const struct bisect_rec_cmp *vs_bad,
			       double premise)
{
	double span = log(premise), glo, ghi, blo, bhi;
	int g, b, good_side, bad_side;

	if (!isfinite(span) || span == 0)
		return CALL_UNDECIDED;
	g = place(vs_good, span, 0, &glo, &ghi) == 0;
	b = place(vs_bad, span, 1, &blo, &bhi) == 0;
	if (g && b && glo > NEAR && bhi < 1 - NEAR)
		return CALL_NEITHER;
	good_side = (g && ghi < 0.5) || (b && bhi < 0.5);
	bad_side = (g && glo > 0.5) || (b && blo > 0.5);
	if (good_side && !bad_side)
		return CALL_LIKE_GOOD;
	if (bad_side && !good_side)
		return CALL_LIKE_BAD;
	return CALL_UNDECIDED;
}

enum bisect_call bisect_premise(const struct bisect_rec_cmp *bad_vs_good, double target)
{
	return bisect_side_of(bad_vs_good, target) == SIDE_DIFF ? CALL_DIFFER : CALL_SAME;
}

size_t bisect_max_decisions(size_t n)
{
	size_t d = 0;

	while (((size_t)1 << d) < n)
		d++;
	return d;
}

void bisect_dag_line(struct bisect_dag *g, size_t n)
{
	size_t k = 0;

	g->n = n;
	g->first = xcalloc(n + 1, sizeof(*g->first));
	g->par = xcalloc(n ? n : 1, sizeof(*g->par));
	for (size_t i = 0; i < n; i++) {
		g->first[i] = k;
		if (i)
			g->par[k++] = i - 1;
	}
	g->first[n] = k;
}

void bisect_dag_release(struct bisect_dag *g)
{
	free(g->first);
	free(g->par);
	memset(g, 0, sizeof(*g));
}

void bisect_next_release(struct bisect_next *out)
{
	free(out->left);
	out->left = NULL;
	out->nleft = 0;
}

/*
 * The open commits into in[]: the ancestors of bad (itself included) that
 * are not ancestors of a good one. Parents come before children, so one
 * sweep from the newest down carries each property to the parents.
 */
static size_t open_set(const struct bisect_dag *g, const enum bisect_mark *m, size_t bad,
		       unsigned char *in)
{
	unsigned char *gone = xcalloc(g->n, 1);
	size_t count = 0;

	in[bad] = 1;
	for (size_t i = g->n; i-- > 0;) {
		gone[i] |= m[i] == MARK_GOOD && i != bad;
		for (size_t k = g->first[i]; k < g->first[i + 1]; k++) {
			in[g->par[k]] |= in[i];
			gone[g->par[k]] |= gone[i];
		}
	}
	for (size_t i = 0; i < g->n; i++) {
		in[i] = in[i] && (!gone[i] || i == bad);
		count += in[i];
	}
	free(gone);
	return count;
}

/* How many open commits c reaches (itself included), counted afresh: for
 * a merge, whose parents' counts overlap. stamp[] marks this count's
 * visits with tag. */
static size_t reach(const struct bisect_dag *g, const unsigned char *in, size_t c, size_t *stamp,
		    size_t tag, size_t *stack)
{
	size_t top = 0, count = 0;

	stack[top++] = c;
	stamp[c] = tag;
	while (top) {
		size_t i = stack[--top];

		count++;
		for (size_t k = g->first[i]; k < g->first[i + 1]; k++) {
			size_t p = g->par[k];

			if (in[p] && stamp[p] != tag) {
				stamp[p] = tag;
				stack[top++] = p;
			}
		}
	}
	return count;
}

/*
 * Each open commit's weight: the open commits it reaches. One open parent:
 * the parent's weight and one (git's shortcut for lines of history), so
 * only merges are counted by a walk.
 */
static void weigh(const struct bisect_dag *g, const unsigned char *in, size_t *w)
{
	size_t *stamp = xcalloc(g->n, sizeof(*stamp)), *stack = xcalloc(g->n, sizeof(*stack));

	for (size_t i = 0; i < g->n; i++) {
		size_t nopen = 0, last = 0;

		if (!in[i])
			continue;
		for (size_t k = g->first[i]; k < g->first[i + 1]; k++)
			if (in[g->par[k]]) {
				nopen++;
				last = g->par[k];
			}
		w[i] = nopen == 0 ? 1 : nopen == 1 ? w[last] + 1
						   : reach(g, in, i, stamp, i + 1, stack);
	}
	free(stamp);
	free(stack);
}

/* The open commit to test (unknown, not bad) whose weight is nearest half
 * of the open ones, or SIZE_MAX. */
static size_t best_split(const struct bisect_dag *g, const enum bisect_mark *m,
			 const unsigned char *in, size_t bad, size_t nopen)
{
	size_t *w = xcalloc(g->n ? g->n : 1, sizeof(*w)), best = SIZE_MAX, best_score = 0;

	weigh(g, in, w);
	for (size_t i = 0; i < g->n; i++) {
		size_t score;

		if (!in[i] || i == bad || m[i] != MARK_UNKNOWN)
			continue;
		score = w[i] < nopen - w[i] ? w[i] : nopen - w[i];
		if (best == SIZE_MAX || score > best_score) {
			best = i;
			best_score = score;
		}
	}
	free(w);
	return best;
}

/* Where the first bad one may be when only skipped ones are open. */
static void skipped_only(const struct bisect_dag *g, const enum bisect_mark *m,
			 const unsigned char *in, size_t bad, struct bisect_next *out)
{
	out->left = xcalloc(out->nleft, sizeof(*out->left));
	out->nleft = 0;
	for (size_t i = 0; i < g->n; i++)
		if (in[i] && (i == bad || m[i] == MARK_SKIP))
			out->left[out->nleft++] = i;
	out->what = out->nleft > 1 ? NEXT_SKIPPED_ONLY : NEXT_FOUND;
	out->pos = bad;
	if (out->what == NEXT_FOUND)
		bisect_next_release(out);
}

void bisect_next(const struct bisect_dag *g, const enum bisect_mark *m, struct bisect_next *out)
{
	unsigned char *in = xcalloc(g->n ? g->n : 1, 1);
	size_t bad = g->n ? g->n - 1 : 0, pos;

	memset(out, 0, sizeof(*out));
	if (!g->n) {
		free(in);
		out->what = NEXT_FOUND;
		return;
	}
	/* Any bad commit bounds the search; the oldest marked one is the last
	 * one decided (each tested commit is an ancestor of the bad before). */
	for (size_t i = 0; i < g->n; i++)
		if (m[i] == MARK_BAD) {
			bad = i;
			break;
		}
	out->nleft = open_set(g, m, bad, in);
	out->window_hi = bad + 1;
	for (size_t i = 0; i < g->n; i++)
		if (in[i]) {
			out->window_lo = i;
			break;
		}
	pos = best_split(g, m, in, bad, out->nleft);
	if (pos != SIZE_MAX) {
		out->what = NEXT_TEST;
		out->pos = pos;
	} else {
		skipped_only(g, m, in, bad, out);
	}
	free(in);
}

void bisect_cmp_from(const struct result *r, const struct comparison *c, int invert,
		     struct bisect_rec_cmp *out)
{
	struct comparison t = *c;

	memset(out, 0, sizeof(*out));
	if (c->method == CMP_NONE)
		return;
	if (invert) {
		t.ratio = 1 / c->ratio;
		t.ci_lo = 1 / c->ci_hi;
		t.ci_hi = 1 / c->ci_lo;
		t.mean_a = c->mean_b;
		t.mean_b = c->mean_a;
		/* The same interval read the other way: a direction flips,
		 * equivalence and inconclusiveness stay. */
		t.verdict = c->verdict == STATS_SLOWER ? STATS_FASTER
			    : c->verdict == STATS_FASTER ? STATS_SLOWER
			    : c->verdict == STATS_SLOWER_UNSIZED ? STATS_FASTER_UNSIZED
			    : c->verdict == STATS_FASTER_UNSIZED ? STATS_SLOWER_UNSIZED
			    : c->verdict;
	}
	out->valid = 1;
	out->ratio = t.ratio;
	out->ci_lo = t.ci_lo;
	out->ci_hi = t.ci_hi;
	out->mean_this = t.mean_b;
	out->mean_that = t.mean_a;
	out->n = t.n;
	out->exact = t.method == CMP_EXACT;
	out->verdict = (int)t.verdict;
	strncpy(out->word, comparison_verdict_word(r, &t), sizeof(out->word) - 1);
}

static void cmp_words(const struct bisect_rec_cmp *c, const char *whom, struct strbuf *out)
{
	if (!c->valid) {
		strbuf_addf(out, "no comparison with %s", whom);
		return;
	}
	strbuf_addf(out, "%.4fx %s's [%.4f, %.4f], %s", c->ratio, whom, c->ci_lo, c->ci_hi,
		    c->word);
}

void bisect_reason(const struct bisect_rec_step *s, const char *metric, struct strbuf *out)
{
	static const char *const lead[] = {
		[CALL_LIKE_GOOD] = "like good", [CALL_LIKE_BAD] = "like bad",
		[CALL_NEITHER] = "like neither endpoint", [CALL_UNDECIDED] = "undecided",
		[CALL_SKIPPED] = "skipped", [CALL_DIFFER] = "differ", [CALL_SAME] = "no difference",
	};

	strbuf_addf(out, "%s: %s ", lead[s->call], metric);
	cmp_words(&s->vs_good, s->kind == STEP_CONFIRM ? "its parent" : "good", out);
	if (s->kind == STEP_CANDIDATE) {
		strbuf_adds(out, "; ");
		cmp_words(&s->vs_bad, "bad", out);
	}
}
