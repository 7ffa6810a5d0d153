/*
 * Aligned text tables for terminals: cells are strings, widths are computed
 * from the content, each column is left- or right-aligned. Every human table
 * of pmustat (stat, compare, list, doctor) goes through this, so they all
 * line up the same way. Cells are always printable: control characters in
 * what a cell is given (a variant name from a result file, a PMU name from
 * a recorded tree) are escaped (core/printable.h); colour is an attribute
 * of the cell, added around it when the table is rendered.
 */
#ifndef PMU_REPORT_TEXTTABLE_H
#define PMU_REPORT_TEXTTABLE_H

#include <stddef.h>

#include "core/strbuf.h"

struct texttable {
	size_t ncols;
	const char *align;	/* one char per column: 'l' or 'r' */
	char **cells;		/* rows * ncols, row-major; NULL = empty */
	const char **colors;	/* rows * ncols: an SGR sequence ("\033[1;31m") or NULL */
	size_t nrows, alloc;
	int *span;		/* per row: 1 = the second cell runs across the rest */
	char **titles;		/* rows * ncols: the whole text of a shortened cell, or NULL */
	/* Per column, what the HTML page calls it ("fn", "num"), or NULL:
	 * a static array the builder of the table sets. */
	const char *const *classes;
	/* Column headings when the first row is not a header (the terminal
	 * shows some tables without one; the HTML page always has one), or
	 * NULL: a static array too. */
	const char *const *head;
	const char **row_classes;	/* per row: what the HTML page calls it, or NULL */
};

void texttable_init(struct texttable *t, size_t ncols, const char *align);
void texttable_release(struct texttable *t);
/* Start a new row; returns its index. */
size_t texttable_row(struct texttable *t);
/* Set cell (row, col) to a printf-formatted string, control characters
 * escaped. */
void texttable_set(struct texttable *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Show cell (row, col) in colour: sgr (a static string such as "\033[33m")
 * before it, a reset after it. */
void texttable_color(struct texttable *t, size_t row, size_t col, const char *sgr);
/* The whole text of cell (row, col) when the cell shows it shortened (a
 * function's name cut to fit the column): the text renderers leave it out,
 * the HTML page shows it on hover. */
void texttable_title(struct texttable *t, size_t row, size_t col, const char *s);
/* What the HTML page calls the row (a static string: "v-up"); the text
 * renderers leave it out. */
void texttable_row_class(struct texttable *t, size_t row, const char *cls);
/* Let the row's second cell run across the remaining columns (which stay
 * empty), e.g. "not counted (see notes)"; it does not widen its column. */
void texttable_span(struct texttable *t, size_t row);
/* Render with `indent` leading spaces and two spaces between columns. */
void texttable_render(const struct texttable *t, size_t indent, struct strbuf *out);
/* The same table as markdown (--export-markdown): the first row is the
 * header, alignment in the separator row, '|' in cells escaped, no colour. */
void texttable_render_markdown(const struct texttable *t, struct strbuf *out);

#endif
