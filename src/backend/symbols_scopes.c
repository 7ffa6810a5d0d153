/*
 * The scope index (see symbols_scopes.h). Building it: a depth-first walk
 * of the unit collects each scope's ranges (dwarf_ranges reads both
 * DW_AT_low_pc/high_pc and DW_AT_ranges) tagged with the scope's depth;
 * sorted by start, wider first and shallower first among equals, a sweep
 * with a stack of open ranges emits each stretch of addresses under the
 * deepest range open there. Ranges of sane DWARF nest (an inlined
 * instance lies inside its caller); ranges that do not still give disjoint
 * segments, each under the range opened last.
 */
#include "backend/symbols_scopes.h"

#include <dwarf.h>
#include <stdlib.h>

#include "core/sort.h"
#include "core/strbuf.h"

struct range_in {
	Dwarf_Addr lo, hi;
	int scope, depth;
};

struct segment {
	Dwarf_Addr lo, hi;
	int scope;
};

struct scope_index {
	struct scope *scopes;
	size_t nscopes, ascopes;
	struct range_in *ranges;	/* while building */
	size_t nranges, aranges;
	struct segment *segs;		/* sorted by lo, disjoint */
	size_t nsegs, asegs;
};

/* Tags whose children may hold subprograms or inlined instances. */
static int may_contain_code(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_entry_point:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		return 1;
	default:
		return 0;
	}
}

static int scope_add(struct scope_index *x, Dwarf_Die *die, int parent, int depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int i = (int)x->nscopes;

	ALLOC_GROW(x->scopes, x->nscopes + 1, x->ascopes);
	x->scopes[x->nscopes++] = (struct scope){ *die, parent,
						  dwarf_tag(die) == DW_TAG_inlined_subroutine };
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		ALLOC_GROW(x->ranges, x->nranges + 1, x->aranges);
		x->ranges[x->nranges++] = (struct range_in){ lo, hi, i, depth };
	}
	return i;
}

static void walk(struct scope_index *x, Dwarf_Die *die, int parent, int depth)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child), here = parent, d = depth;

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		    tag == DW_TAG_entry_point) {
			here = scope_add(x, &child, parent, depth);
			d = depth + 1;
		}
		if (may_contain_code(tag))
			walk(x, &child, here, d);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int by_start(const void *a, const void *b)
{
	const struct range_in *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;	/* the wider one opens first */
	return x->depth - y->depth;
}

static void emit(struct scope_index *x, Dwarf_Addr lo, Dwarf_Addr hi, int scope)
{
	if (lo >= hi)
		return;
	ALLOC_GROW(x->segs, x->nsegs + 1, x->asegs);
	x->segs[x->nsegs++] = (struct segment){ lo, hi, scope };
}

/* Close the open range on top of the stack: what is left of it up to its
 * end is its own. */
static void pop(struct scope_index *x, const struct range_in **stack, size_t *n, Dwarf_Addr *cur)
{
	const struct range_in *top = stack[--*n];

	emit(x, *cur, top->hi, top->scope);
	if (top->hi > *cur)
		*cur = top->hi;
}

static void flatten(struct scope_index *x)
{
	const struct range_in **stack = xmalloc((x->nranges + 1) * sizeof(*stack));
	size_t n = 0;
	Dwarf_Addr cur = 0;

	sort_n(x->ranges, x->nranges, sizeof(*x->ranges), by_start);
	for (size_t i = 0; i < x->nranges; i++) {
		const struct range_in *r = &x->ranges[i];

		while (n && stack[n - 1]->hi <= r->lo)
			pop(x, stack, &n, &cur);
		if (n)
			emit(x, cur, r->lo, stack[n - 1]->scope);
		cur = r->lo;
		stack[n++] = r;
	}
	while (n)
		pop(x, stack, &n, &cur);
	free(stack);
}

struct scope_index *scope_index_build(Dwarf_Die *cudie)
{
	struct scope_index *x = xcalloc(1, sizeof(*x));

	walk(x, cudie, -1, 0);
	flatten(x);
	free(x->ranges);
	x->ranges = NULL;
	x->nranges = x->aranges = 0;
	return x;
}

void scope_index_free(struct scope_index *x)
{
	if (!x)
		return;
	free(x->scopes);
	free(x->ranges);
	free(x->segs);
	free(x);
}

int scope_index_find(const struct scope_index *x, Dwarf_Addr pc)
{
	size_t lo = 0, hi = x->nsegs;

	while (lo < hi) {	/* the first segment starting after pc */
		size_t mid = lo + (hi - lo) / 2;

		if (x->segs[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || pc >= x->segs[lo - 1].hi)
		return -1;
	return x->segs[lo - 1].scope;
}

const struct scope *scope_index_get(const struct scope_index *x, int i)
{
	return &x->scopes[i];
}
