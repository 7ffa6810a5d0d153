/*
 * The profile's sections of the stat and compare tables (report/profile.c),
 * and the table models the HTML page draws the same way. Each section
 * prints nothing when the result has nothing for it.
 */
#ifndef PMU_REPORT_PROFILE_H
#define PMU_REPORT_PROFILE_H

#include "analysis/analysed.h"
#include "core/strbuf.h"
#include "report/table.h"
#include "report/texttable.h"

/* The table of at's functions (self time; incl: inclusive time) as the
 * terminal shows it, for the terminal and the HTML page to draw. */
void attribution_fns_table(const struct result *r, const struct attribution *at, int incl,
			   struct texttable *t);

/* compare: "where the difference is", per non-baseline variant. */
void report_attribution(const struct analysed *a, const struct table_opts *o, struct strbuf *out);

/* The table of "where the time goes" (no header row: the terminal shows
 * none; a fifth column "total ..." with call chains) and the count of
 * profiled runs it averages; 0 and no table when there is nothing. */
size_t attribution_top_table(const struct analysed *a, struct texttable *tt);

/* stat --profile: where the time goes, the functions with the most self
 * time per run (mean over the profiled runs). */
void report_profile_top(const struct analysed *a, const struct table_opts *o, struct strbuf *out);

/* Variant v's cachegrind counts per function against the baseline as the
 * terminal's table (a->sim[v].n must be nonzero); returns the rows. */
size_t sim_attribution_table(const struct analysed *a, size_t v, struct texttable *t);

/* compare with simulated runs: the exact change of cachegrind's counts per
 * function. */
void report_sim_attribution(const struct analysed *a, const struct table_opts *o,
			    struct strbuf *out);

/* t as the terminal's table (compare: the sites whose counts changed;
 * stat: the top sites), for the terminal and the HTML page to draw; returns
 * how many sites it holds. */
size_t allocsites_table(const struct result *r, const struct allocsite_table *t,
			struct texttable *tt);

/* compare: "allocations by call site" per non-baseline variant; stat: the
 * top sites by calls. */
void report_allocsites(const struct analysed *a, const struct table_opts *o, struct strbuf *out);

#endif
