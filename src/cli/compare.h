/*
 * `pmustat compare` as a call (compare.c), so that `demo` builds a
 * comparison directly instead of writing a command line: fill the plan
 * (campaign/compare_plan.h: compare_defaults first), settle it, run.
 */
#ifndef PMU_CLI_COMPARE_H
#define PMU_CLI_COMPARE_H

#include "campaign/compare_plan.h"

#include "report/table.h"

/* Run the settled comparison and render it with the table options view
 * (-v; the demo's unit of work); returns the exit code (0, 1, 2, 3, 130). */
int compare_run(struct compare_plan *p, const struct table_opts *view, int quiet);

#endif
