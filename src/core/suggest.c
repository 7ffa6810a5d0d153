/*
 * Near-name suggestions (see suggest.h). The distance is the classic
 * dynamic programme over three rolling rows (the previous two rows are
 * needed for the transposition step), so memory is O(len(b)) and no
 * candidate list is ever copied. Names are short (< 100 bytes) and lists
 * are a few hundred entries at most, so quadratic cost per pair is fine;
 * suggestions are only computed on the error path.
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

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *prev2 = xcalloc(lb + 1, sizeof(size_t));
	size_t *prev = xcalloc(lb + 1, sizeof(size_t));
	size_t *cur = xcalloc(lb + 1, sizeof(size_t));
	size_t i, j, d;

	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		size_t *t;

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = same_letter(a[i - 1], b[j - 1]) ? 0 : 1;

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) &&
			    same_letter(a[i - 2], b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
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

/* Score of one candidate, or (size_t)-1 when it is not worth offering. */
static size_t score(const char *word, const char *cand, size_t limit)
{
	size_t d;

	if (is_prefix_ci(word, cand))
		return 1;
	d = suggest_distance(word, cand);
	return d <= limit ? d : (size_t)-1;
}

size_t suggest_pick(const char *word, const char *const *cands, size_t ncands,
		    size_t *out, size_t max)
{
	size_t limit = suggest_threshold(strlen(word));
	size_t best = (size_t)-1, n = 0, i;

	if (!max)
		return 0;
	for (i = 0; i < ncands; i++) {
		size_t s;

		if (!cands[i])
			continue;
		s = score(word, cands[i], limit);
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

const char *suggest_best(const char *word, const char *const *cands, size_t ncands)
{
	size_t i;

	return suggest_pick(word, cands, ncands, &i, 1) ? cands[i] : NULL;
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
