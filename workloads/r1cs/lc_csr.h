/*
 * LC storage "csr": no LinearCombination objects. An LC is an 8-byte handle
 * naming a slot of reusable row arrays; terms are appended straight into
 * the slot's input and aux arrays, which keep their capacity when the slot
 * is released, so after warm-up building a row touches no allocator. This
 * is the shape a CSR-style constraint system has, where enforce writes into
 * matrix rows instead of building and dropping objects.
 *
 * The arena is file-static (one per process, like the Rust allocator the
 * other variants use): operators such as lc + term get no context, exactly
 * as in bellpepper. Pointers returned by lc_list() are valid until the next
 * lc_new(), which may move the slot table.
 */
#ifndef R1CS_LC_CSR_H
#define R1CS_LC_CSR_H

#include <stdint.h>
#include <string.h>

#include "assign.h"
#include "heap.h"

struct lc_list {
	struct term *ptr;
	size_t cap;
	size_t len;
	struct lc_hint hint;
};

struct csr_slot {
	struct lc_list l[2];
};

static struct csr_arena {
	struct csr_slot *slots;
	uint32_t *free_ids;
	size_t nslots, nfree;
} csr;

typedef struct lc {
	uint64_t slot;
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

static inline void list_reserve_n(struct lc_list *l, size_t n)
{
	if (n <= l->cap)
		return;
	size_t cap = l->cap ? l->cap : 4;
	while (cap < n)
		cap *= 2;
	l->ptr = l->ptr ? heap_realloc(l->ptr, cap * sizeof(struct term))
			: heap_alloc(cap * sizeof(struct term));
	l->cap = cap;
}

static inline void list_reserve1(struct lc_list *l)
{
	list_reserve_n(l, l->len + 1);
}

static inline struct lc_list *lc_list(lc_t *lc, int aux)
{
	return &csr.slots[lc->slot].l[aux];
}

static inline const struct lc_list *lc_clist(const lc_t *lc, int aux)
{
	return &csr.slots[lc->slot].l[aux];
}

static void csr_grow(void)
{
	size_t n = csr.nslots ? 2 * csr.nslots : 32;
	csr.slots = csr.slots ? heap_realloc(csr.slots, n * sizeof(*csr.slots))
			      : heap_alloc(n * sizeof(*csr.slots));
	csr.free_ids = csr.free_ids ? heap_realloc(csr.free_ids, n * sizeof(uint32_t))
				    : heap_alloc(n * sizeof(uint32_t));
	memset(csr.slots + csr.nslots, 0, (n - csr.nslots) * sizeof(*csr.slots));
	for (size_t i = n; i > csr.nslots; i--)
		csr.free_ids[csr.nfree++] = (uint32_t)(i - 1);
	csr.nslots = n;
}

static inline lc_t lc_new(void)
{
	if (!csr.nfree)
		csr_grow();
	return (lc_t){ csr.free_ids[--csr.nfree] };
}

static inline void lc_release(lc_t *lc)
{
	struct csr_slot *s = &csr.slots[lc->slot];
	for (int i = 0; i < 2; i++) {
		s->l[i].len = 0;
		s->l[i].hint.valid = 0;
	}
	csr.free_ids[csr.nfree++] = (uint32_t)lc->slot;
}

static inline lc_t lc_clone(const lc_t *src)
{
	lc_t lc = lc_new();
	for (int i = 0; i < 2; i++) {
		const struct lc_list *s = lc_clist(src, i);
		struct lc_list *d = lc_list(&lc, i);
		list_reserve_n(d, s->len);
		if (s->len)
			memcpy(d->ptr, s->ptr, s->len * sizeof(struct term));
		d->len = s->len;
		d->hint = s->hint;
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
	memset(&csr, 0, sizeof(csr));
}

static inline void storage_fini(void)
{
	for (size_t i = 0; i < csr.nslots; i++)
		for (int j = 0; j < 2; j++)
			if (csr.slots[i].l[j].ptr)
				heap_free(csr.slots[i].l[j].ptr);
	if (csr.slots)
		heap_free(csr.slots);
	if (csr.free_ids)
		heap_free(csr.free_ids);
	memset(&csr, 0, sizeof(csr));
}

#endif
