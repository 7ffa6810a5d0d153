/*
 * The demo's reading: one plain line per variant against the baseline (its
 * wall-time verdict with the interval, allocations per constraint,
 * instructions and llc-misses), then where its profile says the time went —
 * the functions whose change is significant. Shared by `pmustat demo`, which
 * prints it under the table, and the HTML page of a demo result. Pure.
 */
#ifndef PMU_REPORT_READING_H
#define PMU_REPORT_READING_H

#include "core/strbuf.h"
#include "result/result.h"

/* Lines prefixed "  NAME: " for a variant and "    -> " for where its time
 * changed. rows: constraints per run (the workload's count), or NaN when
 * unknown (a result read back): the allocations-per-constraint part is left
 * out then. */
void report_demo_reading(const struct result *r, double rows, struct strbuf *out);

#endif
