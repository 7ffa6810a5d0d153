/*
 * Every warning a result raises, in one list and grouped by kind: the
 * comparisons' (the host's noise, counts that should not vary), the
 * result's own (the campaign's) and the summaries' (drift, outliers, ...
 * per metric and variant). The terminal shows one line per group and each
 * warning under -v; the JSON keeps both ("warning_groups"). Pure.
 */
#ifndef PMU_ANALYSIS_WARNINGS_H
#define PMU_ANALYSIS_WARNINGS_H

#include <jansson.h>

#include "analysis/warngroups.h"
#include "analysis/analysis.h"
#include "analysis/comparison.h"
#include "result/result.h"

struct warning_set {
	struct warn_item *item;	/* borrows from the result and the analysis */
	size_t n, alloc;
	char **owned;		/* the texts built here */
	size_t nowned, owned_alloc;
	struct warn_groups groups;
};

/* s may be NULL (stat: no comparisons). r, a and s must outlive w. */
void warnings_build(const struct result *r, const struct analysis *a,
		    const struct comparison_set *s, struct warning_set *w);
void warnings_release(struct warning_set *w);

/* The "warning_groups" array of the JSON document: per group its kind
 * (null: a warning of its own), summary, hint, metrics, variants and
 * details (each warning's metric, variant and text). */
json_t *warnings_json(const struct warning_set *w);

#endif
