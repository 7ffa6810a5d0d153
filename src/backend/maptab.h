/*
 * A process's executable mappings as a table: sorted by start, disjoint, an
 * address placed by bisection. A mapping put over older ones replaces the
 * parts of them it overlaps, as the kernel's newer mapping replaced the
 * older (what is left of an older one keeps its file offsets). The one
 * table of mappings behind both the stack-sampling pipeline's per-process
 * tables (backend/stackpipe.h) and the symbolizer's index of its address
 * space (backend/symbols.c).
 *
 * Elements are of the caller's type, of size bytes, each beginning with a
 * struct sym_map (start, end, pgoff, path): the symbolizer keeps what it
 * learns of a range beside it. Putting copies the element; a piece cut
 * from one is a copy of it with the range narrowed.
 */
#ifndef PMU_BACKEND_MAPTAB_H
#define PMU_BACKEND_MAPTAB_H

#include <stddef.h>
#include <stdint.h>

#include "backend/symbols.h"

struct maptab {
	unsigned char *v;	/* n elements of size bytes */
	size_t n, alloc;	/* alloc in elements */
	size_t size;
};

#define MAPTAB_INIT(type) { NULL, 0, 0, sizeof(type) }

static inline struct sym_map *maptab_at(const struct maptab *t, size_t i)
{
	return (struct sym_map *)(void *)(t->v + i * t->size);
}

/* Put e (its range non-empty) over what t holds. */
void maptab_put(struct maptab *t, const void *e);
/* The element holding addr, or NULL. */
void *maptab_find(const struct maptab *t, uint64_t addr);
/* Make t a copy of from's elements (the same size). */
void maptab_copy(struct maptab *t, const struct maptab *from);
void maptab_release(struct maptab *t);

#endif
