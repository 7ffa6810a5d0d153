/*
 * The human table of `pmustat compare`: the variants, how many blocks ran
 * and why the campaign stopped, then per metric and variant the centres, the
 * ratio against the baseline with its asymmetric 95% CI, the p-value (Holm-
 * adjusted) with n beside it, and the verdict word; then notes and warnings.
 * Pure: the analysed model in, text out.
 */
#ifndef PMU_REPORT_COMPARE_TABLE_H
#define PMU_REPORT_COMPARE_TABLE_H

#include "core/strbuf.h"
#include "analysis/analysed.h"
#include "result/result.h"
#include "report/table.h"
#include "report/texttable.h"

/* The verdict as the table shows it: the direction (or EQUIVALENT,
 * INCONCLUSIVE) in capitals, a qualifier after it in lower case; a metric
 * outside the family in brackets and lower case, as a reading, not a claim;
 * '*' when Holm held the direction back. The HTML page and the fleet's
 * cross-machine table (analysis/fleet.c) show the same. */
void compare_verdict_text(const struct result *r, const struct comparison *c, char *word,
			  size_t size);

/* The table's model, the header row first: per metric and variant the
 * centres, ratio, interval, p, n and verdict; the metrics not counted are
 * named in uncounted (o->verbose: a row each). row_class (or NULL) names
 * each compared row for the HTML page. The terminal and the page draw it. */
void compare_table_model(const struct analysed *a, const struct table_opts *o,
			 const char *(*row_class)(const struct comparison *c), struct texttable *t,
			 struct strbuf *uncounted);

void report_compare_table(const struct analysed *a, const struct table_opts *o,
			  struct strbuf *out);

#endif
