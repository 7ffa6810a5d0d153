/*
 * The reading: what a comparison concluded, said first. Per variant
 * against the baseline, one line with the verdict of the primary metric
 * (the word, the change with its interval, the ratio, n); then the other
 * asked-for metrics that moved, and where the difference is — the
 * functions whose time changed significantly (--profile), the functions
 * whose simulated instructions changed, the allocation call sites whose
 * calls changed. Every figure comes from the comparisons and attribution
 * of the result, so a re-rendered result reads the same. Pure: the
 * analysed model in, text out.
 */
#ifndef PMU_REPORT_READING_H
#define PMU_REPORT_READING_H

#include "core/strbuf.h"
#include "analysis/analysed.h"
#include "report/table.h"
#include "result/result.h"

/* Lines " NAME vs BASE: VERDICT, ..." for each variant, then lines
 * indented by four spaces saying what moved and where. o: work_per_run and
 * work_unit say allocations per unit of work (the demo's constraints). */
void report_reading(const struct analysed *a, const struct table_opts *o, struct strbuf *out);

/* "Reading (each variant against BASE):" and the reading; rows: the
 * constraints per run, or NaN when unknown (a result read back). The HTML
 * page of a demo result shows it. */
void report_demo_reading(const struct analysed *a, double rows, struct strbuf *out);

#endif
