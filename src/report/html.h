/*
 * A self-contained HTML page for a result, for a person rather than a
 * terminal: the verdict table styled by verdict, a forest plot of every
 * ratio with its interval, per metric the distribution of each variant's
 * runs and every run in execution order (axes with units), the profile's
 * "where the time goes" / "where the difference is" with flame graphs
 * (differential against the baseline), the demo's reading, the notes, the
 * host, and the terminal's table. Inline CSS and SVG, no script, nothing
 * fetched. Pure: the analysed model in, bytes out. docs/report.md describes the page.
 */
#ifndef PMU_REPORT_HTML_H
#define PMU_REPORT_HTML_H

#include "core/strbuf.h"
#include "analysis/analysed.h"

/* table: the rendered text table of r (stat or compare), shown folded at
 * the end; NULL for none. */
void report_html(const struct analysed *a, const char *table, struct strbuf *out);

#endif
