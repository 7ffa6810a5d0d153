/*
 * `pmustat compare` as a call (compare.c), so that `demo` builds a
 * comparison directly instead of writing a command line: fill the plan
 * (campaign/compare_plan.h: compare_defaults first), settle it, run.
 */
#ifndef PMU_CLI_COMPARE_H
#define PMU_CLI_COMPARE_H

#include "campaign/compare_plan.h"

/* Called with the result once the campaign ended (also interrupted). */
typedef void (*compare_after_fn)(const struct result *r, void *data);

/* Run the settled comparison and render it; returns the exit code (0, 1,
 * 2, 3, 130). */
int compare_run(struct compare_plan *p, int quiet, compare_after_fn after, void *after_data);

#endif
