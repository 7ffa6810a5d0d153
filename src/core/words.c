/*
 * words_split (see words.h): one pass over the string with a quote state;
 * a word is open from its first character (a quote included, so '' is an
 * empty word) until a blank outside quotes.
 */
#include "core/words.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int words_has_blank(const char *s)
{
	for (; *s; s++)
		if (is_blank(*s))
			return 1;
	return 0;
}

static void push_word(char ***v, size_t *n, struct strbuf *w)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(char *));
	(*v)[(*n)++] = strbuf_detach(w);
	(*v)[*n] = NULL;
}

char **words_split(const char *s, struct error *err)
{
	struct strbuf w = STRBUF_INIT;
	char **v = NULL, quote = 0;
	size_t n = 0;
	int open = 0;

	for (const char *p = s; *p; p++) {
		if (quote == '\'' && *p != '\'') {
			strbuf_addch(&w, *p);
		} else if (quote == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\')) {
			strbuf_addch(&w, *++p);
		} else if (quote && *p == quote) {
			quote = 0;
		} else if (quote) {
			strbuf_addch(&w, *p);
		} else if (is_blank(*p)) {
			if (open)
				push_word(&v, &n, &w);
			open = 0;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			open = 1;
		} else if (*p == '\\' && p[1]) {
			strbuf_addch(&w, *++p);
			open = 1;
		} else {
			strbuf_addch(&w, *p);
			open = 1;
		}
	}
	if (quote) {
		strbuf_release(&w);
		strv_free(v);
		error_set(err, ERR_USAGE, "unterminated %s quote in '%s'",
			  quote == '\'' ? "single" : "double", s);
		error_hint(err, "close the quote, or run the command through a shell with "
				"--shell sh");
		return NULL;
	}
	if (open)
		push_word(&v, &n, &w);
	strbuf_release(&w);
	if (!n) {
		error_set(err, ERR_USAGE, "empty command '%s'", s);
		error_hint(err, "give the program to run and its arguments");
		return NULL;
	}
	return v;
}

void words_add(struct words *w, const char *s, size_t len)
{
	ALLOC_GROW(w->v, w->n + 2, w->alloc);
	w->v[w->n++] = xstrndup(s, len);
	w->v[w->n] = NULL;
}

int words_append(struct words *w, const char *s, const char *what, struct error *err)
{
	char **v;

	if (!s[strspn(s, " \t\n")])
		return 0;
	v = words_split(s, err);
	if (!v)
		return error_prefix(err, "%s", what);
	for (char **p = v; *p; p++)
		words_add(w, *p, strlen(*p));
	strv_free(v);
	return 0;
}

void words_release(struct words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}
