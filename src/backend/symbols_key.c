/*
 * symbol_key (see symbols.h): the name a function is matched by across
 * builds. Compilers name the copies and pieces of a function they make by
 * appending dotted suffixes to its name: GCC's IPA passes .isra.N (scalar
 * replacement of aggregates), .constprop.N (constant propagation), .part.N
 * (partial inlining) and .cold (the cold part split off), LTO's
 * .lto_priv.N, GCC's .localalias, LLVM's .llvm.N; the demangler renders the
 * same suffixes of a C++ name as " [clone .isra.0]". A suffix is removed
 * only when everything after the dot is made of such words (each optionally
 * followed by a number), so a dot that is part of a name (Go's "main.main")
 * stays.
 */
#include "backend/symbols.h"

#include <string.h>

#include "core/strbuf.h"

static int clone_word(const char *w, size_t len)
{
	static const char *const words[] = { "isra", "constprop", "part", "cold", "lto_priv",
		"localalias", "clone", "llvm", "specialized" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && !memcmp(words[i], w, len))
			return 1;
	return 0;
}

static int all_digits(const char *w, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (w[i] < '0' || w[i] > '9')
			return 0;
	return len > 0;
}

/* Is [p, end), which starts with '.', made of clone suffixes only
 * (".word" or ".word.N" repeated)? */
static int clone_suffixes(const char *p, const char *end)
{
	int after_word = 0;

	while (p < end) {
		const char *w = p + 1, *q = memchr(w, '.', (size_t)(end - w));
		size_t len;

		if (!q)
			q = end;
		len = (size_t)(q - w);
		if (clone_word(w, len))
			after_word = 1;
		else if (!after_word || !all_digits(w, len))
			return 0;
		p = q;
	}
	return 1;
}

/* The length of name without trailing " [clone .xxx]" groups (what the
 * demangler makes of clone suffixes). */
static size_t strip_clone_groups(const char *name, size_t len)
{
	static const char tag[] = " [clone .";

	while (len && name[len - 1] == ']') {
		size_t i = len - 1;

		while (i && name[i] != '[')
			i--;
		if (i < 1 || strncmp(name + i - 1, tag, sizeof(tag) - 1))
			break;
		len = i - 1;
	}
	return len;
}

char *symbol_key(const char *name)
{
	size_t len = strip_clone_groups(name, strlen(name));

	for (size_t i = 1; i < len; i++)
		if (name[i] == '.' && clone_suffixes(name + i, name + len))
			return xstrndup(name, i);
	return xstrndup(name, len);
}
