/*
 * Near-name suggestions (see suggest.h). The distance is the classic
 * dynamic programme over three rolling rows (the previous two rows are
 * needed for the transposition step), so memory is O(len(b)) and no
 * candidate list is ever copied. Only a band of max cells either side of
 * the diagonal is computed, and a pair whose lengths differ by more than
 * max is not computed at all: a suggestion is offered within a distance of
 * 3, so a 10,000-character typo is turned down in time linear in its length
 * against thousands of libpfm4 names, instead of the quadratic cost per
 * pair that once took a second to reject one such event.
 */
#include "core/suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

static int same_letter(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/*
 * Row i of the band: cells j with |i - j| <= max (the others cannot be
 * within max), plus the cells next to the band that the next rows read,
 * set to "beyond" (max + 1). Returns the smallest cell of the band.
 */
static size_t band_row(const char *a, const char *b, size_t i, size_t lb, size_t max,
		       size_t *prev2, const size_t *prev, size_t *cur)
{
	size_t beyond = max + 1, lo = i > max ? i - max : 1, hi = i + max < lb ? i + max : lb;
	size_t best = beyond;

	cur[0] = i <= max ? i : beyond;
	cur[lo - 1] = lo == 1 ? cur[0] : beyond;
	if (hi < lb)
		cur[hi + 1] = beyond;
	for (size_t j = lo; j <= hi; j++) {
		size_t cost = same_letter(a[i - 1], b[j - 1]) ? 0 : 1;
		size_t d = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);

		if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) &&
		    same_letter(a[i - 2], b[j - 1]) && prev2[j - 2] + 1 < d)
			d = prev2[j - 2] + 1;
		cur[j] = d < beyond ? d : beyond;
		if (cur[j] < best)
			best = cur[j];
	}
	return lo <= hi ? best : cur[0];
}

size_t suggest_distance_max(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b), beyond, d;
	size_t *prev2, *prev, *cur;

	if (max > la + lb)
		max = la + lb;	/* no distance is larger */
	beyond = max + 1;
	if ((la > lb ? la - lb : lb - la) > max)
		return beyond;	/* each missing letter costs one */
	prev2 = xcalloc(lb + 2, sizeof(size_t));
	prev = xcalloc(lb + 2, sizeof(size_t));
	cur = xcalloc(lb + 2, sizeof(size_t));
	for (size_t j = 0; j <= lb && j <= max + 1; j++)
		prev[j] = j <= max ? j : beyond;
	d = la ? 0 : prev[lb];
	for (size_t i = 1; i <= la; i++) {
		size_t *t;

		if (band_row(a, b, i, lb, max, prev2, prev, cur) > max) {
			d = beyond;
			break;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
		d = prev[lb];
	}
	free(prev2);
	free(prev);
	free(cur);
	return d < beyond ? d : beyond;
}

size_t suggest_distance(const char *a, const char *b)
{
	return suggest_distance_max(a, b, (size_t)-1);
}

size_t suggest_threshold(size_t len)
{
	if (len < 4)
		return 1;
	return len < 8 ? 2 : 3;
}

static int is_prefix_ci(const char *word, const char *cand)
{
	size_t n = strlen(word);

	return n >= 3 && strlen(cand) > n && strncasecmp(word, cand, n) == 0;
}

/*
 * Is cand word with one letter replaced (same length, distance 1, and not
 * two adjacent letters swapped)? In a word of three letters that is a
 * different word more often than a typo: '--pid' is perf's habit, and
 * offering '--pin' would pin the workload instead of attaching to a pid.
 */
static int one_letter_replaced(const char *word, const char *cand)
{
	size_t n = strlen(word), i = 0;

	if (strlen(cand) != n)
		return 0;
	while (i < n && same_letter(word[i], cand[i]))
		i++;
	if (i + 1 < n && same_letter(word[i], cand[i + 1]) &&
	    same_letter(word[i + 1], cand[i]) && !strcasecmp(word + i + 2, cand + i + 2))
		return 0;	/* a swap */
	return i < n;
}

/* Score of one candidate, or (size_t)-1 when it is not worth offering. */
static size_t score(const char *word, const char *cand, size_t limit, int strict)
{
	size_t d;

	if (is_prefix_ci(word, cand))
		return 1;
	d = suggest_distance_max(word, cand, limit);
	if (strict && d == 1 && strlen(word) < 4 && one_letter_replaced(word, cand))
		return (size_t)-1;
	return d <= limit ? d : (size_t)-1;
}

static size_t pick(const char *word, const char *const *cands, size_t ncands, size_t *out,
		   size_t max, int strict)
{
	size_t limit = suggest_threshold(strlen(word));
	size_t best = (size_t)-1, n = 0, i;

	if (!max)
		return 0;
	for (i = 0; i < ncands; i++) {
		size_t s;

		if (!cands[i])
			continue;
		s = score(word, cands[i], limit, strict);
		if (s == (size_t)-1 || s > best)
			continue;
		if (s < best) {
			best = s;
			n = 0;
		}
		if (n < max)
			out[n++] = i;
	}
	return n;
}

size_t suggest_pick(const char *word, const char *const *cands, size_t ncands,
		    size_t *out, size_t max)
{
	return pick(word, cands, ncands, out, max, 0);
}

const char *suggest_best(const char *word, const char *const *cands, size_t ncands)
{
	size_t i;

	return pick(word, cands, ncands, &i, 1, 0) ? cands[i] : NULL;
}

const char *suggest_option(const char *word, const char *const *cands, size_t ncands)
{
	size_t i;

	return pick(word, cands, ncands, &i, 1, 1) ? cands[i] : NULL;
}

void suggest_format(struct strbuf *sb, const char *const *names, size_t n)
{
	size_t i;

	if (!n)
		return;
	strbuf_adds(sb, "did you mean ");
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_adds(sb, i + 1 == n ? " or " : ", ");
		strbuf_addf(sb, "'%s'", names[i]);
	}
	strbuf_addch(sb, '?');
}
