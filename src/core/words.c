/*
 * Shell-like word splitting without a shell (core/words.h). One pass over
 * the text with the quote in force as the only state; a word exists from
 * its first character, quote or not, so '' is an empty word, as in sh.
 */
#include "core/words.h"

#include <string.h>

#include "core/strbuf.h"

void words_add(struct words *w, const char *s, size_t len)
{
	ALLOC_GROW(w->v, w->n + 2, w->alloc);
	w->v[w->n++] = xstrndup(s, len);
	w->v[w->n] = NULL;
}

void words_release(struct words *w)
{
	strv_free(w->v);
	memset(w, 0, sizeof(*w));
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* One character of s inside quote q (0: none) into cur; returns how many
 * characters of s it used. */
static size_t take(const char *s, char *q, struct strbuf *cur)
{
	if (*q && *s == *q) {
		*q = 0;
	} else if (*q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\')) {
		strbuf_addch(cur, s[1]);
		return 2;
	} else if (!*q && (*s == '\'' || *s == '"')) {
		*q = *s;
	} else if (!*q && *s == '\\' && s[1]) {
		strbuf_addch(cur, s[1]);
		return 2;
	} else {
		strbuf_addch(cur, *s);
	}
	return 1;
}

int words_split(const char *s, const char *what, struct words *w, struct error *err)
{
	struct strbuf cur = STRBUF_INIT;
	int in_word = 0;
	char q = 0;

	while (*s) {
		if (!q && is_blank(*s)) {
			if (in_word)
				words_add(w, cur.buf ? cur.buf : "", cur.len);
			strbuf_reset(&cur);
			in_word = 0;
			s++;
			continue;
		}
		in_word = 1;
		s += take(s, &q, &cur);
	}
	if (in_word && !q)
		words_add(w, cur.buf ? cur.buf : "", cur.len);
	strbuf_release(&cur);
	if (q) {
		error_set(err, ERR_USAGE, "%s: unbalanced %c quote", what, q);
		return error_hint(err, "close the quote, or escape it with a backslash");
	}
	return 0;
}
