/*
 * LC storage "vec" (and "pool" when LC_POOL is defined): bellpepper's
 * LinearCombination as two heap vectors of terms, Rust Vec growth (first
 * push allocates 4 terms, then capacity doubles through realloc), clone
 * allocates exactly len. sizeof(lc_t) = 2 * (24 + 24) = 96 bytes.
 *
 * With LC_POOL, enforce() takes the term buffers of the three LCs it hands
 * to the gadget from a small stack of recycled buffers and puts the buffers
 * of the evaluated LCs back, instead of starting from empty vectors and
 * freeing them: temporaries built elsewhere still use the heap.
 */
#ifndef R1CS_LC_VEC_H
#define R1CS_LC_VEC_H

#include <string.h>

#include "assign.h"
#include "heap.h"

struct lc_list {
	struct term *ptr;
	size_t cap;
	size_t len;
	struct lc_hint hint;
};

typedef struct lc {
	struct lc_list l[2]; /* [0] inputs, [1] aux */
} lc_t;

static inline struct term *list_data(const struct lc_list *l)
{
	return l->ptr;
}

static inline size_t list_len(const struct lc_list *l)
{
	return l->len;
}

static inline void list_set_len(struct lc_list *l, size_t n)
{
	l->len = n;
}

static inline void list_reserve1(struct lc_list *l)
{
	if (l->len < l->cap)
		return;
	size_t cap = l->cap ? 2 * l->cap : 4;
	l->ptr = l->ptr ? heap_realloc(l->ptr, cap * sizeof(struct term))
			: heap_alloc(cap * sizeof(struct term));
	l->cap = cap;
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
		if (lc->l[i].ptr)
			heap_free(lc->l[i].ptr);
}

static inline lc_t lc_clone(const lc_t *src)
{
	lc_t lc = *src;
	for (int i = 0; i < 2; i++) {
		struct lc_list *l = &lc.l[i];
		l->ptr = NULL;
		l->cap = l->len;
		if (l->len) {
			l->ptr = heap_alloc(l->len * sizeof(struct term));
			memcpy(l->ptr, src->l[i].ptr, l->len * sizeof(struct term));
		}
	}
	return lc;
}

static inline void storage_init(void)
{
}

static inline void storage_fini(void)
{
}

#ifdef LC_POOL

enum { LC_POOL_MAX = 32 };

struct lc_pool {
	struct {
		struct term *ptr;
		size_t cap;
	} buf[LC_POOL_MAX];
	size_t n;
};

static inline void lc_pool_init(struct lc_pool *p)
{
	p->n = 0;
}

static inline void lc_pool_release(struct lc_pool *p)
{
	while (p->n)
		heap_free(p->buf[--p->n].ptr);
}

static inline lc_t lc_pool_take(struct lc_pool *p)
{
	lc_t lc = lc_new();
	for (int i = 0; i < 2 && p->n; i++) {
		p->n--;
		lc.l[i].ptr = p->buf[p->n].ptr;
		lc.l[i].cap = p->buf[p->n].cap;
	}
	return lc;
}

static inline void lc_pool_give(struct lc_pool *p, lc_t *lc)
{
	for (int i = 0; i < 2; i++) {
		if (!lc->l[i].ptr)
			continue;
		if (p->n < LC_POOL_MAX) {
			p->buf[p->n].ptr = lc->l[i].ptr;
			p->buf[p->n].cap = lc->l[i].cap;
			p->n++;
		} else {
			heap_free(lc->l[i].ptr);
		}
	}
}

#else

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

#endif

#endif
