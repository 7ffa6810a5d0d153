/*
 * Lifecycle, digests and the a*b=c check of the proving assignment. The
 * digests exist so that runs with different LC storage and gadget style can
 * be compared by one printed number: they must agree bit for bit.
 */
#include "assign.h"

#include <stdlib.h>
#include <string.h>

/* Rust Vec growth: first 4, then doubling. */
void fr_vec_grow(struct fr_vec *vec)
{
	size_t cap = vec->cap ? 2 * vec->cap : 4;
	vec->v = vec->v ? heap_realloc(vec->v, cap * sizeof(fr))
			: heap_alloc(cap * sizeof(fr));
	vec->cap = cap;
}

void assign_init(struct assign *as)
{
	memset(as, 0, sizeof(*as));
}

static void fr_vec_release(struct fr_vec *v)
{
	if (v->v)
		heap_free(v->v);
	memset(v, 0, sizeof(*v));
}

static void density_release(struct density *d)
{
	if (d->bits)
		heap_free(d->bits);
	memset(d, 0, sizeof(*d));
}

void assign_release(struct assign *as)
{
	fr_vec_release(&as->input);
	fr_vec_release(&as->aux);
	fr_vec_release(&as->a);
	fr_vec_release(&as->b);
	fr_vec_release(&as->c);
	density_release(&as->a_aux);
	density_release(&as->b_input);
	density_release(&as->b_aux);
}

/* A multiply-rotate mix over 64-bit words: fast, order-sensitive, and not
 * meant to be cryptographic (it only detects differences between runs). */
static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w;
	h *= 0x9e3779b97f4a7c15ULL;
	return (h << 31) | (h >> 33);
}

static uint64_t hash_fr(uint64_t h, const fr *x)
{
	for (int i = 0; i < 4; i++)
		h = mix(h, x->l[i]);
	return h;
}

uint64_t assign_abc_hash(const struct assign *as)
{
	uint64_t h = mix(0x243f6a8885a308d3ULL, as->a.len);
	for (size_t i = 0; i < as->a.len; i++) {
		h = hash_fr(h, &as->a.v[i]);
		h = hash_fr(h, &as->b.v[i]);
		h = hash_fr(h, &as->c.v[i]);
	}
	return h ^ (h >> 29);
}

uint64_t assign_aux_hash(const struct assign *as)
{
	uint64_t h = mix(0x13198a2e03707344ULL, as->aux.len);
	for (size_t i = 0; i < as->aux.len; i++)
		h = hash_fr(h, &as->aux.v[i]);
	for (size_t i = 0; i < as->input.len; i++)
		h = hash_fr(h, &as->input.v[i]);
	return h ^ (h >> 29);
}

size_t assign_first_unsatisfied(const struct assign *as)
{
	for (size_t i = 0; i < as->a.len; i++) {
		fr ab;
		fr_mul(&ab, &as->a.v[i], &as->b.v[i]);
		if (!fr_eq(&ab, &as->c.v[i]))
			return i;
	}
	return SIZE_MAX;
}
