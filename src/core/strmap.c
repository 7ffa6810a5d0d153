/*
 * The string map (see strmap.h): open addressing with linear probing over
 * a table kept at most half full, FNV-1a as the hash (the keys are names,
 * not adversarial inputs a hash flood would need: a result crafted to
 * collide only slows its own report down).
 */
#include "core/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

struct strmap_slot {
	const char *key;	/* NULL = empty */
	size_t len, value;
};

static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* The slot holding s, or the empty one where it would go. */
static struct strmap_slot *find(const struct strmap *m, const char *s, size_t len)
{
	size_t i = (size_t)fnv1a(s, len) & (m->cap - 1);

	while (m->slot[i].key && (m->slot[i].len != len || memcmp(m->slot[i].key, s, len)))
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

int strmap_get(const struct strmap *m, const char *s, size_t len, size_t *value)
{
	const struct strmap_slot *x = m->cap ? find(m, s, len) : NULL;

	if (!x || !x->key)
		return -1;
	*value = x->value;
	return 0;
}

static void grow(struct strmap *m)
{
	struct strmap bigger = { NULL, m->cap ? m->cap * 2 : 64, m->n };

	bigger.slot = xcalloc(bigger.cap, sizeof(*bigger.slot));
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].key)
			*find(&bigger, m->slot[i].key, m->slot[i].len) = m->slot[i];
	free(m->slot);
	*m = bigger;
}

void strmap_put(struct strmap *m, const char *key, size_t len, size_t value)
{
	struct strmap_slot *x;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	x = find(m, key, len);
	if (!x->key)
		m->n++;
	*x = (struct strmap_slot){ key, len, value };
}

void strmap_release(struct strmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}
