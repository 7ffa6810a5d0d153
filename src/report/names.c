/*
 * Short names for tables (see names.h). Demangled names are read as
 * nested brackets: '<' opens generic arguments unless it opens a path
 * segment (Rust's "<T as Trait>::f" and v0's "<Vec<T>>::push" at the
 * start, "core::num::<impl u64>" after "::") or belongs to an operator's name
 * ("operator<<"); '(' '[' '{' nest too, so that a space or a bracket inside
 * them is not taken for the top level. Widths count characters (UTF-8 code
 * points), as a terminal shows them.
 */
#include "report/names.h"

#include <stdlib.h>
#include <string.h>

/* Does name[0..i) end with "operator" (then name[i] is part of an
 * operator's name, not a bracket)? */
static int after_operator(const char *name, size_t i)
{
	return i >= 8 && !strncmp(name + i - 8, "operator", 8);
}

/* The index past the '>' closing the '<' at name[i], or 0 when none
 * closes it. "->" inside (a Rust fn type's arrow) closes nothing. */
static size_t close_angle(const char *name, size_t i)
{
	int depth = 0;

	for (; name[i]; i++) {
		if (name[i] == '<')
			depth++;
		else if (name[i] == '>' && !(i > 0 && name[i - 1] == '-') && --depth == 0)
			return i + 1;
	}
	return 0;
}

static size_t skip_angle(const char *name, size_t i)
{
	size_t end = close_angle(name, i);

	return end ? end : strlen(name);
}

/* name with generic arguments folded into tmp. */
static void fold_generics(struct strbuf *tmp, const char *name)
{
	for (size_t i = 0; name[i];) {
		/* "<T as Trait>::f", "<<T as A>::B as C>": a path's own
		 * brackets; after "::" only "<impl T>" is one ("::<T>" is
		 * Rust's turbofish, generic arguments) */
		int segment_start = i == 0 || name[i - 1] == '<' ||
				    (i >= 2 && !strncmp(name + i - 2, "::", 2) &&
				     !strncmp(name + i, "<impl ", 6));

		if (name[i] == '<' && !segment_start && !after_operator(name, i)) {
			strbuf_adds(tmp, "<…>");
			i = skip_angle(name, i);
			continue;
		}
		strbuf_addch(tmp, name[i]);
		i++;
	}
}

/* The length of s without a trailing C++ parameter list and the
 * qualifiers after it ("(int) const &"). */
static size_t strip_params(const char *s, size_t len)
{
	static const char *const quals[] = { " const", " volatile", " &&", " &" };
	int again = 1, depth = 0;

	while (again) {
		again = 0;
		for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
			size_t ql = strlen(quals[q]);

			if (len > ql && !strncmp(s + len - ql, quals[q], ql)) {
				len -= ql;
				again = 1;
			}
		}
	}
	if (!len || s[len - 1] != ')')
		return len;
	for (size_t i = len; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i > 0 && !after_operator(s, i) ? i : len;
	}
	return len;
}

/* The start of the name proper in s[0..len): past a C++ return type, the
 * last space at the top level that is not in "operator new" and the like. */
static size_t skip_return_type(const char *s, size_t len)
{
	size_t start = 0;
	int depth = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '<' || s[i] == '(' || s[i] == '[' || s[i] == '{')
			depth++;
		else if ((s[i] == '>' || s[i] == ')' || s[i] == ']' || s[i] == '}') && depth > 0)
			depth--;
		else if (s[i] == ' ' && !depth && !after_operator(s, i))
			start = i + 1;
	}
	return start;
}

static size_t utf8_len(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The byte offset of the k-th character of s (k <= its length). */
static size_t utf8_offset(const char *s, size_t k)
{
	size_t i = 0;

	for (size_t c = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == k)
			return i;
	}
	return i;
}

void cut_middle(struct strbuf *out, const char *s, size_t max)
{
	size_t n = strlen(s), chars = utf8_len(s, n), head, tail;

	if (!max || chars <= max || max < 3) {
		strbuf_adds(out, s);
		return;
	}
	/* The end names the function: give it the larger half. */
	head = (max - 1) * 2 / 5;
	tail = max - 1 - head;
	strbuf_addf(out, "%.*s…%s", (int)utf8_offset(s, head), s,
		    s + utf8_offset(s, chars - tail));
}

void name_short(struct strbuf *out, const char *name, size_t max)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t len, start;

	fold_generics(&tmp, name);
	if (!tmp.len) {
		strbuf_release(&tmp);
		return;
	}
	len = strip_params(tmp.buf, tmp.len);
	start = skip_return_type(tmp.buf, len);
	if (start < len)
		tmp.buf[len] = '\0';
	else
		start = 0;
	cut_middle(out, tmp.buf + start, max);
	strbuf_release(&tmp);
}

/* The length of the first frame of an allocation site's key
 * ("inner<caller<main", frames joined by '<'): up to the first '<' at the
 * top level that no '>' closes, the others being generic arguments. */
static size_t first_frame(const char *site)
{
	for (size_t i = 0; site[i]; i++) {
		if (site[i] != '<' || after_operator(site, i))
			continue;
		size_t end = close_angle(site, i);

		if (!end)
			return i;
		/* closed: generic arguments, go on after them */
		i = end - 1;
	}
	return strlen(site);
}

void site_short(struct strbuf *out, const char *site, size_t max)
{
	struct strbuf all = STRBUF_INIT;

	while (*site) {
		size_t n = first_frame(site);
		char *frame = xstrndup(site, n);

		if (all.len)
			strbuf_addch(&all, '<');
		name_short(&all, frame, 0);
		free(frame);
		site += n + (site[n] == '<');
	}
	cut_middle(out, all.len ? all.buf : "", max);
	strbuf_release(&all);
}

/* The file of one "obj: file" part, or NULL when it has none. */
static const char *part_file(const char *part, size_t len, size_t *flen)
{
	const char *colon = memchr(part, ':', len);

	if (!colon || colon + 2 > part + len || colon[1] != ' ')
		return NULL;
	*flen = (size_t)(part + len - (colon + 2));
	return colon + 2;
}

void where_short(struct strbuf *out, const char *origin, size_t max)
{
	struct strbuf files = STRBUF_INIT;
	const char *p = origin;
	int all = 1;

	while (*p && all) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p), flen = 0;
		const char *f = part_file(p, len, &flen);

		if (!f) {
			all = 0;
		} else {
			/* "obj: a.c, b.c": each file once in the list */
			struct strbuf one = STRBUF_INIT;

			strbuf_addf(&one, "%.*s", (int)flen, f);
			if (!strstr(files.buf ? files.buf : "", one.buf))
				strbuf_addf(&files, "%s%s", files.len ? ", " : "", one.buf);
			strbuf_release(&one);
		}
		p = end ? end + 2 : p + len;
	}
	/* one part: object and file both, as they fit */
	cut_middle(out, all && files.len && strstr(origin, "; ") ? files.buf : origin, max);
	strbuf_release(&files);
}
