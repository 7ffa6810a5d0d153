/*
 * The human table of `pmustat stat`, in the spirit of perf stat: one row per
 * metric with its mean, the 95% CI of the mean (labelled as such), median,
 * spread and run count; unavailable metrics shown as such; then the notes
 * and warnings. Pure: result in, text out.
 */
#ifndef PMU_REPORT_TABLE_H
#define PMU_REPORT_TABLE_H

#include "core/strbuf.h"
#include "result/result.h"

struct table_opts {
	int color;	/* ANSI colours (terminal only) */
	int verbose;	/* also quartiles, MAD and outlier counts */
	int markdown;	/* tables as markdown (--export-markdown), no colour */
};

void report_stat_table(const struct result *r, const struct table_opts *o, struct strbuf *out);

/* The notes and warnings section (shared by every table). */
void report_notes(const struct result *r, const struct result_note *extra, size_t nextra,
		  const struct table_opts *o, struct strbuf *out);

/* argv joined for display, quoting arguments that need it. */
void report_command_line(char *const *argv, struct strbuf *out);

#endif
