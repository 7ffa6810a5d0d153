/*
 * `pmustat compare` as options (compare.c), so that `demo` builds a
 * comparison directly instead of writing a command line: fill the options
 * (compare_defaults first), settle them into the campaign's, run.
 */
#ifndef PMU_CLI_COMPARE_H
#define PMU_CLI_COMPARE_H

#include <stdint.h>

#include "campaign/campaign.h"
#include "report/result.h"

#define COMPARE_MAX_VARIANTS RESULT_MAX_VARIANTS

struct compare_opts {
	struct campaign_opts o;
	const char *names[COMPARE_MAX_VARIANTS];	/* per variant, NULL = letter */
	char *const *argv[COMPARE_MAX_VARIANTS];
	size_t nvariants;
	const char *pending_name;	/* -n seen, waiting for its variant */
	const char *baseline;		/* name, NULL = the first */
	unsigned blocks, min_blocks, max_blocks;
	double target_ci, noise_band;	/* percent */
	int target_given;		/* --target-ci: the precision rule alone */
	const char *primary;		/* --primary: what the rule and headline follow */
	int primary_given;		/* named by the user: it must be measured */
	int decide, quiet;
	char *fail_on;
	char done[128];			/* the stop reason when every block ran */
	const char *command;		/* the result's command: NULL = "compare" ("demo") */
	/* Called with the result once the campaign ended (also interrupted). */
	void (*after)(const struct result *r, void *data);
	void *after_data;
};

/* compare's defaults: the sequential rule on wall-time, 10..200 blocks,
 * 1% target, 300 s, one warm-up. */
void compare_defaults(struct compare_opts *co);

/* A seed for the schedule when none was given. */
uint64_t compare_random_seed(void);

/* The stopping rule and the schedule's settings from the options. */
void compare_settle(struct compare_opts *co);

/* Run the comparison; returns the exit code (0, 1, 2, 3, 130). */
int compare_run(struct compare_opts *co);

#endif
