/*
 * A tiny growable buffer and the JSON string escaping the report needs.
 * libpmustat lives inside user programs, so it carries no JSON library:
 * the report has a fixed shape, and the only hard part — strings, i.e.
 * region names chosen by the user — is done here once: quotes, backslashes
 * and control characters escaped, invalid UTF-8 replaced by U+FFFD so that
 * every report parses.
 */
#include <stdlib.h>
#include <string.h>

#include "lib.h"

void pmustat__buf_add(struct pm_buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void pmustat__buf_adds(struct pm_buf *b, const char *s)
{
	pmustat__buf_add(b, s, strlen(s));
}

void pmustat__buf_u64(struct pm_buf *b, uint64_t v)
{
	char d[24];
	int i = (int)sizeof(d);

	do
		d[--i] = (char)('0' + v % 10);
	while (v /= 10);
	pmustat__buf_add(b, d + i, sizeof(d) - (size_t)i);
}

/* Length of a valid UTF-8 sequence at s, or 0 (overlongs, surrogates and
 * code points past U+10FFFF are invalid). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void pmustat__buf_json_str(struct pm_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	pmustat__buf_add(b, "\"", 1);
	while (*p) {
		size_t n = utf8_len(p);

		if (!n) {
			pmustat__buf_adds(b, "\\ufffd");
			p++;
		} else if (*p == '"' || *p == '\\') {
			char e[2] = { '\\', (char)*p };

			pmustat__buf_add(b, e, 2);
			p++;
		} else if (*p < 0x20) {
			char e[6] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15] };

			pmustat__buf_add(b, e, 6);
			p++;
		} else {
			pmustat__buf_add(b, (const char *)p, n);
			p += n;
		}
	}
	pmustat__buf_add(b, "\"", 1);
}
