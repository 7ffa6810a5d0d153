/*
 * Aligned text tables for terminals: cells are strings, widths are computed
 * from the content, each column is left- or right-aligned. Every human table
 * of pmustat (stat, compare, list, doctor) goes through this, so they all
 * line up the same way.
 */
#ifndef PMU_REPORT_TEXTTABLE_H
#define PMU_REPORT_TEXTTABLE_H

#include <stddef.h>

#include "core/strbuf.h"

struct texttable {
	size_t ncols;
	const char *align;	/* one char per column: 'l' or 'r' */
	char **cells;		/* rows * ncols, row-major; NULL = empty */
	size_t nrows, alloc;
	int *span;		/* per row: 1 = the second cell runs across the rest */
};

void texttable_init(struct texttable *t, size_t ncols, const char *align);
void texttable_release(struct texttable *t);
/* Start a new row; returns its index. */
size_t texttable_row(struct texttable *t);
/* Set cell (row, col) to a printf-formatted string. */
void texttable_set(struct texttable *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Let the row's second cell run across the remaining columns (which stay
 * empty), e.g. "not counted (see notes)"; it does not widen its column. */
void texttable_span(struct texttable *t, size_t row);
/* Render with `indent` leading spaces and two spaces between columns. */
void texttable_render(const struct texttable *t, size_t indent, struct strbuf *out);

#endif
