/*
 * perf stat's row formats: the interval rows of -I (time since the start,
 * value, unit, event: one row per interval per metric) and the separated
 * rows of -x SEP, in perf's field order (tools/perf/Documentation/
 * perf-stat.txt, "CSV FORMAT", added by Andi Kleen's commit 6b45f7b2 in
 * 2016, with the variance moved before the run time by his later "Correctly
 * document the order where stddev is output" patch; checked against perf
 * 6.1's output here: optional time stamp, counter value, unit, event name,
 * optional variance with -r, run time of the counter, percentage of the time
 * it was running, optional metric value and unit). Pure: a result in, bytes
 * out.
 */
#ifndef PMU_REPORT_PERFROWS_H
#define PMU_REPORT_PERFROWS_H

#include "core/strbuf.h"
#include "result/result.h"

/* The rows of run `run` (an interval): with sep NULL aligned text as perf
 * -I prints it, else -x rows led by the time stamp. header: the column
 * names first (text only). */
void report_interval_rows(const struct result *r, size_t run, const char *sep, int header,
			  struct strbuf *out);

/* -x SEP without -I: one row per metric, the mean over the counted runs
 * (and the relative standard deviation, as perf's variance field, when
 * there are several). */
void report_sep_rows(const struct result *r, const char *sep, struct strbuf *out);

#endif
