/*
 * A self-contained HTML page for a result: the same table the terminal
 * shows (not a third printer of the numbers), then one small SVG plot per
 * metric of every run's value in execution order, coloured by variant — the
 * picture that shows drift, warm-up and outliers at a glance. Pure.
 */
#ifndef PMU_REPORT_HTML_H
#define PMU_REPORT_HTML_H

#include "core/strbuf.h"
#include "report/result.h"

/* table: the rendered text table of r (stat or compare). */
void report_html(const struct result *r, const char *table, struct strbuf *out);

#endif
