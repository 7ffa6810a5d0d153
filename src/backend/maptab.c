/*
 * The table of mappings (see maptab.h). Ends are sorted as the starts are
 * (the ranges are disjoint), so one bisection on the ends finds both the
 * mapping of an address and the first one a new mapping overlaps; putting
 * is then one memmove of the tail.
 */
#include "backend/maptab.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

/* The first element of t ending after addr. */
static size_t first_ending_after(const struct maptab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maptab_at(t, mid)->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void grow(struct maptab *t, size_t need)
{
	if (need <= t->alloc)
		return;
	t->alloc = t->alloc ? 2 * t->alloc : 8;
	if (t->alloc < need)
		t->alloc = need;
	t->v = xrealloc(t->v, t->alloc * t->size);
}

void maptab_put(struct maptab *t, const void *e)
{
	const struct sym_map *m = e;
	size_t lo = first_ending_after(t, m->start), hi = lo, k = 0, z = t->size;
	unsigned char *put = xmalloc(3 * z);
	struct sym_map *piece;

	while (hi < t->n && maptab_at(t, hi)->start < m->end)
		hi++;
	/* [lo, hi) overlap m: what is left of lo before it, m, what is left
	 * of hi - 1 after it */
	if (lo < hi && maptab_at(t, lo)->start < m->start) {
		memcpy(put, maptab_at(t, lo), z);
		((struct sym_map *)(void *)put)->end = m->start;
		k++;
	}
	memcpy(put + k++ * z, e, z);
	if (lo < hi && maptab_at(t, hi - 1)->end > m->end) {
		piece = (struct sym_map *)(void *)(put + k++ * z);
		memcpy(piece, maptab_at(t, hi - 1), z);
		piece->pgoff += m->end - piece->start;
		piece->start = m->end;
	}
	grow(t, t->n - (hi - lo) + k);
	memmove(t->v + (lo + k) * z, t->v + hi * z, (t->n - hi) * z);
	memcpy(t->v + lo * z, put, k * z);
	t->n = t->n - (hi - lo) + k;
	free(put);
}

void *maptab_find(const struct maptab *t, uint64_t addr)
{
	size_t i = first_ending_after(t, addr);

	return i < t->n && maptab_at(t, i)->start <= addr ? maptab_at(t, i) : NULL;
}

void maptab_copy(struct maptab *t, const struct maptab *from)
{
	t->n = 0;
	grow(t, from->n);
	if (from->n)
		memcpy(t->v, from->v, from->n * t->size);
	t->n = from->n;
}

void maptab_release(struct maptab *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->alloc = 0;
}
