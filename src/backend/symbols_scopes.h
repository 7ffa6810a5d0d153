/*
 * The DWARF scopes of one compilation unit as an address index, for the
 * symbolizer (symbols.h). libdw's dwarf_getscopes answers "which
 * subprogram and inlined instances contain this address" by walking the
 * unit's whole DIE tree, about a millisecond per address on a unit of a few
 * thousand DIEs: too slow for the thousands of distinct addresses of one
 * profile. This walks the tree once, keeps every DW_TAG_subprogram and
 * DW_TAG_inlined_subroutine with its enclosing one, and flattens their
 * address ranges (which nest) into disjoint segments, each naming the
 * innermost scope: a lookup is then a binary search.
 *
 * Invariants: an index belongs to the Dwarf of the unit it was built from
 * and is used while that Dwarf is open (its scopes hold Dwarf_Die values).
 * Addresses are DWARF's own (the module's DWARF bias already removed).
 */
#ifndef PMU_BACKEND_SYMBOLS_SCOPES_H
#define PMU_BACKEND_SYMBOLS_SCOPES_H

#include <elfutils/libdw.h>

struct scope {
	Dwarf_Die die;		/* a subprogram or an inlined instance */
	int parent;		/* the scope it is in, or -1 */
	int inlined;		/* 1 for DW_TAG_inlined_subroutine */
};

struct scope_index;

/* The index of the unit cudie (never NULL; empty when the unit has no
 * scope with addresses). */
struct scope_index *scope_index_build(Dwarf_Die *cudie);
void scope_index_free(struct scope_index *x);

/* The innermost scope containing pc, or -1. */
int scope_index_find(const struct scope_index *x, Dwarf_Addr pc);
const struct scope *scope_index_get(const struct scope_index *x, int i);

#endif
