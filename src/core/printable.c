/*
 * Terminal-safe text (see printable.h). The UTF-8 check follows the
 * Unicode standard's table of well-formed byte sequences (Table 3-7): no
 * overlong forms, no surrogates, nothing past U+10FFFF. A byte that does
 * not start a well-formed sequence is escaped alone and the next byte is
 * looked at afresh, so one bad byte never hides the text after it.
 */
#include "core/printable.h"

#include <string.h>

/* Length of the well-formed UTF-8 sequence at p (1-4), or 0 if none. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* Is the 2- or 3-byte sequence at p a bidirectional formatting character
 * (Unicode UAX #9, "Explicit Directional Embeddings, Overrides and
 * Isolates", and the implicit marks): U+061C ALM, U+200E LRM, U+200F RLM,
 * U+202A-U+202E LRE RLE PDF LRO RLO, U+2066-U+2069 LRI RLI FSI PDI? They
 * reorder the text shown after them (a name that reads as another). */
static int bidi_control(const unsigned char *p, size_t n)
{
	if (n == 2)
		return p[0] == 0xd8 && p[1] == 0x9c;
	if (n != 3 || p[0] != 0xe2)
		return 0;
	if (p[1] == 0x80)
		return p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae);
	return p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9;
}

/* How many bytes at p must be escaped (0: the sequence there is kept). */
static size_t escape_len(const unsigned char *p, size_t *keep)
{
	size_t n = utf8_len(p);

	*keep = n;
	if (n == 1)
		return p[0] < 0x20 || p[0] == 0x7f;
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 2;	/* a C1 control */
	if (bidi_control(p, n))
		return n;
	return n ? 0 : 1;
}

void strbuf_add_printable(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	strbuf_grow(sb, strlen(s));	/* sb->buf is a string even for "" */
	while (*p) {
		size_t keep, esc = escape_len(p, &keep);

		if (!esc) {
			strbuf_add(sb, p, keep);
			p += keep;
			continue;
		}
		for (size_t i = 0; i < esc; i++)
			strbuf_addf(sb, "\\x%02x", p[i]);
		p += esc;
	}
}

void strbuf_add_printable_lines(struct strbuf *sb, const char *s)
{
	struct strbuf line = STRBUF_INIT;

	for (;;) {
		size_t len = strcspn(s, "\n");

		strbuf_reset(&line);
		strbuf_add(&line, s, len);
		strbuf_add_printable(sb, line.buf);
		if (!s[len])
			break;
		strbuf_addch(sb, '\n');
		s += len + 1;
	}
	strbuf_release(&line);
}

const char *printable_in(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	strbuf_add_printable(sb, s);
	return sb->buf;
}

int printable_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (!n)
			return 0;
		p += n;
	}
	return 1;
}

int printable_needs_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t keep;

		if (escape_len(p, &keep))
			return 1;
		p += keep;
	}
	return 0;
}
