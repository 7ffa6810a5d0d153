/*
 * The analysed model: everything the renderers show, computed once per
 * result by analysed_build() — the summaries and their warnings, the
 * comparisons with the host's noise and its note, the attribution of a
 * profile (per function, the top of a lone variant, the paired blocks the
 * flame graphs average), cachegrind's counts per function, allocations by
 * call site, and what each perturbing mechanism cost. Renderers (report/)
 * take this model and never call the compute functions themselves, so a
 * command that prints a table, writes JSON, CSV and HTML computes each
 * comparison once (tests/unit/test_analysed.c counts it). See docs/analysis.md.
 */
#ifndef PMU_ANALYSIS_ANALYSED_H
#define PMU_ANALYSIS_ANALYSED_H

#include <jansson.h>

#include "analysis/allocsites.h"
#include "analysis/analysis.h"
#include "analysis/attribution.h"
#include "analysis/comparison.h"
#include "analysis/costs.h"
#include "analysis/warnings.h"
#include "core/strbuf.h"
#include "result/result.h"

struct analysed {
	const struct result *r;		/* not owned: it must outlive the model */
	struct analysis an;		/* summaries and warnings per (variant, metric) */
	struct comparison_set cmp;	/* 2+ variants; else empty */
	struct comparison_noise noise;	/* 2+ variants; else NaN, not dominated */
	/* The noise warning, when wall time's spread is dominated by the host
	 * (comparisons_noise_note): its text and hint, both empty otherwise. */
	struct strbuf noise_text, noise_hint;
	struct attribution_set at;	/* 2+ variants with profiles */
	/* Every function's mean self time over the profiled runs, largest
	 * first (attribution_top): what a lone variant's profile shows. */
	struct attribution_top *top;
	size_t ntop, top_runs;
	double top_total;
	int chains;			/* call chains recorded (incl: metrics) */
	/* Per variant: the runs whose profile a flame graph averages — with
	 * 2+ variants the blocks paired with the baseline (pairs[v].ib its
	 * runs, .ia the baseline's), else every profiled run (profiled). */
	struct attribution_pairs *pairs;	/* [nvariants], 2+ variants */
	size_t *profiled, nprofiled;
	struct sim_attribution *sim;	/* [nvariants], 2+ variants */
	struct allocsite_table *sites;	/* [nvariants]: the baseline's unused when comparing */
	struct mechanism_cost_row *costs;
	size_t ncosts;
	struct region_cost *regions;	/* [nvariants]: the region markers' cost */
	/* Every warning (the comparisons', the result's, the summaries'), one
	 * list and grouped by kind (analysis/warnings.h). */
	struct warning_set warnings;
};

/* Analyse r. The model points into r (names, metrics): keep r alive and
 * unchanged while it is used. Always succeeds (allocation failure aborts,
 * as everywhere in pmustat). */
void analysed_build(const struct result *r, struct analysed *a);
void analysed_release(struct analysed *a);

/*
 * The analysed sections of the result document, as an object whose members
 * the result's JSON writer places (result/json.h: report_json): "summaries",
 * "warning_groups", and with 2+ variants "comparisons", then "attribution", "sim_attribution",
 * "alloc_sites" and "mechanism_costs" when there are any. Caller decrefs.
 */
json_t *analysed_json(const struct analysed *a);

#endif
