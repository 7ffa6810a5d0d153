/*
 * From raw runs to what a reader needs: per variant and metric, the summary
 * of STATS.md (a), and the warnings it raises (slow first run, drift,
 * outliers, multiplexed runs left out). Pure: recomputed from the result each
 * time, so a saved result re-rendered later says exactly the same.
 */
#ifndef PMU_ANALYSIS_ANALYSIS_H
#define PMU_ANALYSIS_ANALYSIS_H

#include <jansson.h>

#include "result/result.h"
#include "stats/counter.h"
#include "stats/summary.h"

struct metric_summary {
	size_t variant, metric;
	struct stats_summary s;	/* in display units: value * metric scale */
	size_t n_multiplexed;	/* runs left out: counter not always scheduled */
	size_t n_missing;	/* measured runs without a value */
	size_t warn_first, warn_count;	/* its warnings in analysis.warnings */
	/*
	 * A ratio metric ("a / b", "1000 * a / b") whose inputs were never
	 * counted in the same run (different counter groups): no per-run
	 * values, so the ratio of the inputs' means across runs, with
	 * se = R sqrt(cY + cX) and Welch df (STATS.md (f)). has_cross = 0
	 * otherwise.
	 */
	int has_cross;
	/* a ratio whose inputs were counted together, with a denominator of
	 * 0 in every run: the denominator's name (else NULL) */
	const char *zero_denominator;
	struct stats_ratio cross;	/* scaled by the formula's constant factor */
};

struct analysis {
	struct metric_summary *sum;	/* one per (variant, available metric) */
	size_t nsum;
	size_t *at;			/* [variant * nmetrics + metric]: index into sum,
					 * or SIZE_MAX (analysis_find is O(1)) */
	size_t nvariants, nmetrics;
	struct result_note *warnings;	/* derived warnings, in metric order */
	size_t nwarnings, warnings_alloc;
	/* warn_kind[i]: the sort of warnings[i], a static string that
	 * warnings of the same sort share (analysis/warnings.c groups by it):
	 * cold-start, drift, outliers, counted-zero, zero-denominator,
	 * cross-group, multiplexed */
	const char **warn_kind;
	size_t warn_kind_alloc;
};

void analysis_compute(const struct result *r, struct analysis *a);
void analysis_release(struct analysis *a);

/* The summary of (variant, metric), or NULL if the metric is unavailable. */
const struct metric_summary *analysis_find(const struct analysis *a, size_t variant,
					   size_t metric);

/* Is formula "K * a / b" (or "a / b", linear in a)? Then the metric
 * indices of a and b and the constant K. */
int analysis_ratio_shape(const struct result *r, const char *formula, int *num, int *den,
			 double *k);

/* The "summaries" array of the JSON document (summary fields + warnings). */
json_t *analysis_summaries_json(const struct result *r, const struct analysis *a);

#endif
