/*
 * How a function's name and origin are shown in tables and flame graphs:
 * C++ template arguments and Rust generic arguments folded to "<…>", a C++
 * name's return type and parameter list left out, and what is still too
 * long cut in the middle, so that the tables fit a terminal. The JSON keeps
 * the names whole, and the HTML shows them whole on hover.
 */
#ifndef PMU_REPORT_NAMES_H
#define PMU_REPORT_NAMES_H

#include <stddef.h>

#include "core/strbuf.h"

/* The widest a table's function or call-site column is, in characters, and
 * the widest its "where" column: with the figures beside them the tables
 * fit 160 columns. */
#define NAME_COLUMN_MAX 56
#define SITE_COLUMN_MAX 92
#define WHERE_COLUMN_MAX 28

/*
 * Append the short form of a demangled name to out:
 * "void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(...)"
 * -> "std::vector<…>::_M_realloc_insert<…>";
 * "core::ptr::drop_in_place::<lcbench::LinearCombination>" ->
 * "core::ptr::drop_in_place::<…>"; a qualified path's own brackets stay
 * ("<Vec<T> as Drop>::drop" -> "<Vec<…> as Drop>::drop"). Then, when
 * longer than max characters (0 = no limit), its middle is replaced by
 * "…" (the start says what, the end which function). Names with no
 * brackets (C's, "[lib.so+0x35000]") are only cut.
 */
void name_short(struct strbuf *out, const char *name, size_t max);

/* An allocation site's key ("inner<caller<main") with each frame's name
 * short, cut in the middle past max characters. */
void site_short(struct strbuf *out, const char *site, size_t max);

/*
 * Append a profile metric's origin ("obj: file; obj2: file2", see
 * docs/profile.md) in short: when it has several parts (objects) and every
 * part has a file, the files alone, each once ("main.rs" for the same
 * file in two builds); else the origin as it is; cut in the middle past
 * max characters.
 */
void where_short(struct strbuf *out, const char *origin, size_t max);

/* Append s cut in the middle to at most max characters (0 = no limit). */
void cut_middle(struct strbuf *out, const char *s, size_t max);

#endif
