/*
 * The human table of `pmustat compare`: the variants, how many blocks ran
 * and why the campaign stopped, then per metric and variant the centres, the
 * ratio against the baseline with its asymmetric 95% CI, the p-value (Holm-
 * adjusted) with n beside it, and the verdict word; then notes and warnings.
 * Pure: result in, text out.
 */
#ifndef PMU_REPORT_COMPARE_TABLE_H
#define PMU_REPORT_COMPARE_TABLE_H

#include "core/strbuf.h"
#include "report/result.h"
#include "report/table.h"

void report_compare_table(const struct result *r, const struct table_opts *o,
			  struct strbuf *out);

/* The verdict of c as the table words it ("SLOWER", "HIGHER (size
 * uncertain)", "[faster]" outside the family, "*" when Holm held it), for
 * other tables of comparisons (report/fleet.c). */
struct comparison;
void report_verdict_text(const struct result *r, const struct comparison *c, char *word,
			 size_t size);

#endif
