/*
 * LC storage "svN": each term list is a small vector with room for SV_N
 * terms inside the LC itself, spilling to the heap on growth, laid out
 * like Rust's smallvec without its "union" feature: a capacity word (the
 * length while inline), a discriminant word, then the inline array or the
 * (pointer, length) of the heap copy. Every access goes through
 * list_data()/list_len(), which branch on inline-vs-heap, as smallvec's
 * triple() does. Spilling allocates the next power of two above the length;
 * later growth doubles. sizeof(lc_t) = 2 * (16 + max(40 N, 16) + 24):
 * 160 / 240 / 400 bytes for N = 1 / 2 / 4, moved by value on every operator.
 */
#ifndef R1CS_LC_SV_H
#define R1CS_LC_SV_H

#include <string.h>

#include "assign.h"
#include "heap.h"

#ifndef SV_N
#error "define SV_N (inline capacity) before including lc_sv.h"
#endif

struct lc_list {
	size_t capacity; /* the length while inline */
	size_t spilled;
	union {
		struct term inl[SV_N];
		struct {
			struct term *ptr;
			size_t len;
		} heap;
	} u;
	struct lc_hint hint;
};

typedef struct lc {
	struct lc_list l[2]; /* [0] inputs, [1] aux */
} lc_t;

static inline struct term *list_data(const struct lc_list *l)
{
	return l->spilled ? l->u.heap.ptr : (struct term *)l->u.inl;
}

static inline size_t list_len(const struct lc_list *l)
{
	return l->spilled ? l->u.heap.len : l->capacity;
}

static inline void list_set_len(struct lc_list *l, size_t n)
{
	if (l->spilled)
		l->u.heap.len = n;
	else
		l->capacity = n;
}

static inline size_t sv_next_pow2(size_t n)
{
	size_t p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

static inline void list_reserve1(struct lc_list *l)
{
	if (!l->spilled) {
		size_t n = l->capacity;
		if (n < SV_N)
			return;
		size_t cap = sv_next_pow2(n + 1);
		struct term *p = heap_alloc(cap * sizeof(struct term));
		memcpy(p, l->u.inl, n * sizeof(struct term));
		l->u.heap.ptr = p;
		l->u.heap.len = n;
		l->capacity = cap;
		l->spilled = 1;
	} else if (l->u.heap.len == l->capacity) {
		size_t cap = 2 * l->capacity;
		l->u.heap.ptr = heap_realloc(l->u.heap.ptr, cap * sizeof(struct term));
		l->capacity = cap;
	}
}

static inline struct lc_list *lc_list(lc_t *lc, int aux)
{
	return &lc->l[aux];
}

static inline const struct lc_list *lc_clist(const lc_t *lc, int aux)
{
	return &lc->l[aux];
}

static inline lc_t lc_new(void)
{
	lc_t lc;
	memset(&lc, 0, sizeof(lc));
	return lc;
}

static inline void lc_release(lc_t *lc)
{
	for (int i = 0; i < 2; i++)
		if (lc->l[i].spilled)
			heap_free(lc->l[i].u.heap.ptr);
}

/* smallvec's clone: inline when it fits, else an exact-size heap copy. */
static inline lc_t lc_clone(const lc_t *src)
{
	lc_t lc = lc_new();
	for (int i = 0; i < 2; i++) {
		const struct lc_list *s = &src->l[i];
		struct lc_list *d = &lc.l[i];
		size_t n = list_len(s);
		d->hint = s->hint;
		if (n <= SV_N) {
			memcpy(d->u.inl, list_data(s), n * sizeof(struct term));
			d->capacity = n;
		} else {
			d->u.heap.ptr = heap_alloc(n * sizeof(struct term));
			memcpy(d->u.heap.ptr, list_data(s), n * sizeof(struct term));
			d->u.heap.len = n;
			d->capacity = n;
			d->spilled = 1;
		}
	}
	return lc;
}

struct lc_pool {
	int unused;
};

static inline void lc_pool_init(struct lc_pool *p)
{
	(void)p;
}

static inline void lc_pool_release(struct lc_pool *p)
{
	(void)p;
}

static inline lc_t lc_pool_take(struct lc_pool *p)
{
	(void)p;
	return lc_new();
}

static inline void lc_pool_give(struct lc_pool *p, lc_t *lc)
{
	(void)p;
	lc_release(lc);
}

static inline void storage_init(void)
{
}

static inline void storage_fini(void)
{
}

#endif
