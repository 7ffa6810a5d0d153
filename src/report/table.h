/*
 * The human table of `pmustat stat`, in the spirit of perf stat: one row per
 * metric with its mean, the 95% CI of the mean (labelled as such), median,
 * spread and run count; unavailable metrics shown as such; then the notes
 * and warnings. Pure: the analysed model in, text out.
 */
#ifndef PMU_REPORT_TABLE_H
#define PMU_REPORT_TABLE_H

#include "core/strbuf.h"
#include "result/result.h"

struct analysed;

struct table_opts {
	int color;	/* ANSI colours (terminal only) */
	int verbose;	/* -v: every table in full, each warning with its figures */
	int markdown;	/* tables as markdown (--export-markdown), no colour */
	double work_per_run;	/* units of work per run (the demo's constraints):
				 * the reading says allocations per unit; 0 = unknown */
	const char *work_unit;	/* "constraint", or NULL */
};

/* The renderers of the tables take the analysed model (analysis/analysed.h). */
struct analysis;
struct texttable;

/* The table of variant v's metrics (mean, its 95% CI, ±, median, cv,
 * runs), the header row first: the terminal and the HTML page draw it. */
void stat_table_model(const struct result *r, const struct analysis *a, size_t v,
		      const struct table_opts *o, struct texttable *t);

void report_stat_table(const struct analysed *a, const struct table_opts *o, struct strbuf *out);

struct warning_set;

/* The notes and warnings section (shared by every table): the result's
 * notes, then the warnings of w (NULL: the result's own only) — one line
 * per kind, or each in full with o->verbose. */
void report_notes(const struct result *r, const struct warning_set *w,
		  const struct table_opts *o, struct strbuf *out);

/* argv joined for display, quoting arguments that need it. */
void report_command_line(char *const *argv, struct strbuf *out);

#endif
