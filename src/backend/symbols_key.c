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
 *
 * Rust's names carry build hashes that differ between two builds of one
 * source: the legacy mangling ends every path in "::h" and 16 hex digits,
 * and v0's crate disambiguators print as "crate[1a2b3c4d]" when a
 * demangler is asked to show them. The key drops both, so that a function
 * is one function across builds.
 *
 * symbol_demangle is the one demangler of the tree, libiberty's
 * cplus_demangle (Debian's libiberty-dev, the demangler of binutils and
 * GCC, kept with them): its automatic style covers the Itanium C++ ABI
 * (_Z), Rust's legacy mangling (_ZN...17h<hash>E, where it leaves the hash
 * out) and Rust's v0 mangling (_R, where it leaves out the crate
 * disambiguators and the instantiating crate), as perf and valgrind show
 * them.
 */
#include "backend/symbols.h"

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

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

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* The length of name without a trailing legacy Rust hash "::h" + 16 hex. */
static size_t strip_rust_hash(const char *name, size_t len)
{
	if (len < 19 || memcmp(name + len - 19, "::h", 3))
		return len;
	for (size_t i = len - 16; i < len; i++)
		if (!is_hex(name[i]))
			return len;
	return len - 19;
}

/* Copy [name, name+len) to a new string without v0 crate disambiguators
 * ("core[5b1e7c8d9a0f1234]::ptr" -> "core::ptr"): a '[' after an
 * identifier character, then hex digits only, then ']'. */
static char *strip_disambiguators(const char *name, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		size_t j = i + 1;

		if (name[i] == '[' && i > 0 && name[i - 1] != ' ' && name[i - 1] != '[') {
			while (j < len && is_hex(name[j]))
				j++;
			if (j < len && j > i + 1 && name[j] == ']') {
				i = j;
				continue;
			}
		}
		out[o++] = name[i];
	}
	out[o] = 0;
	return out;
}

char *symbol_key(const char *name)
{
	size_t len = strip_clone_groups(name, strlen(name));

	for (size_t i = 1; i < len; i++)
		if (name[i] == '.' && clone_suffixes(name + i, name + len)) {
			len = i;
			break;
		}
	return strip_disambiguators(name, strip_rust_hash(name, len));
}

char *symbol_demangle(const char *raw)
{
	const char *at = strchr(raw, '@');
	char *plain = at && at > raw ? xstrndup(raw, (size_t)(at - raw)) : xstrdup(raw);
	char *d = NULL;

	/* Only mangled names: cplus_demangle's automatic style would also take
	 * some plain C names for other manglings. */
	if ((plain[0] == '_' && (plain[1] == 'Z' || plain[1] == 'R')) ||
	    (plain[0] == '_' && plain[1] == '_' && plain[2] == 'Z'))
		d = cplus_demangle(plain, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
	if (!d)
		return plain;
	free(plain);
	/* libiberty allocates with malloc: a copy keeps the caller's free()
	 * paired with xmalloc's family, as everywhere in the tree. */
	plain = xstrdup(d);
	free(d);
	return plain;
}
