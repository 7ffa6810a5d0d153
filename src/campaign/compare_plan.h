/*
 * compare's plan (compare_plan.c): what `pmustat compare` and `demo` decide
 * before and after a comparison runs, kept out of cli/ so that the CLI only
 * parses options and renders. The defaults, the variants' names, the choice
 * of stopping rule, the result's comparison settings, the checks of the
 * metrics the options name (--primary, --fail-on-regression), and the
 * regression verdict that --fail-on-regression turns into exit code 3.
 */
#ifndef PMU_CAMPAIGN_COMPARE_PLAN_H
#define PMU_CAMPAIGN_COMPARE_PLAN_H

#include <stdint.h>

#include "analysis/comparison.h"
#include "campaign/campaign.h"
#include "core/strbuf.h"
#include "result/result.h"

#define COMPARE_MAX_VARIANTS RESULT_MAX_VARIANTS

struct compare_plan {
	struct campaign_opts o;
	const char *names[COMPARE_MAX_VARIANTS];	/* per variant, NULL = letter */
	char *const *argv[COMPARE_MAX_VARIANTS];
	size_t nvariants;
	const char *baseline;		/* name, NULL = the first */
	unsigned blocks, min_blocks, max_blocks;
	double target_ci, noise_band;	/* percent */
	int target_given;		/* --target-ci: the precision rule alone */
	const char *primary;		/* --primary: what the rule and headline follow */
	int primary_given;		/* named by the user: it must be measured */
	int decide;
	char *fail_on;			/* --fail-on-regression: metrics, comma-separated */
	char done[128];			/* the stop reason when every block ran */
	const char *command;		/* the result's command: NULL = "compare" ("demo") */
	char letters[COMPARE_MAX_VARIANTS][4];	/* the names given to unnamed variants */
};

/* compare's defaults: the sequential rule on wall-time, 10..200 blocks,
 * 1% target, 300 s, one warm-up. */
void compare_defaults(struct compare_plan *p);

/* A seed for the schedule when none was given. */
uint64_t compare_random_seed(void);

/* At least two variants; the unnamed ones get letters (A, B, ...); no name
 * twice. A usage error otherwise. */
int compare_name_variants(struct compare_plan *p, struct error *err);

/* The stopping rule and the schedule's settings from the options. */
void compare_settle(struct compare_plan *p);

/*
 * The campaign of the comparison, prepared: initialised with the variants,
 * the baseline found, the result's comparison settings (noise band, primary
 * metric, the stopping rule's record), every mechanism planned, and the
 * metrics named by --primary and --fail-on-regression checked against what
 * is measured. On error the campaign still needs campaign_release().
 */
int compare_prepare(struct campaign *c, struct compare_plan *p, struct error *err);

/*
 * --fail-on-regression: whether a metric of the comma-separated list got
 * worse (a SLOWER verdict) in a variant, from s (the comparisons of r
 * computed once for the command); one line per regression is added
 * to out ("regression: wall-time of 'B' is 1.0520x the baseline's ...").
 */
int compare_regressions(const struct result *r, const struct comparison_set *s, const char *list,
			struct strbuf *out);

#endif
