/*
 * What a perturbing mechanism cost each variant, from the runs alone. A
 * mechanism that runs code inside the program (call counters, sampling)
 * runs apart in instrumented runs (campaign/loop.c), whose wall time is the
 * hidden metric "wall-time:with-NAME". Each of a variant's instrumented
 * runs is paired with its last timed run before it; the paired ratio
 * (instrumented / timed, stats_paired_ratio) is the cost. Computed when the
 * result is written, like the comparisons, so `pmustat report` recomputes it.
 */
#ifndef PMU_ANALYSIS_COSTS_H
#define PMU_ANALYSIS_COSTS_H

#include <jansson.h>

#include "result/result.h"
#include "result/vocab.h"
#include "stats/compare.h"

/* Variant v's cost of the mechanism whose cost metric is m: the number of
 * pairs (0: none), and their ratio in *out (interval NaN below 2 pairs). */
size_t mechanism_cost(const struct result *r, size_t m, size_t v, struct stats_paired *out);

/*
 * Region markers stay in the timed runs; their cost is estimated from a
 * measured figure: a run's entries (its REGION:entries metrics, summed)
 * times the time of one entry (REGION_COST_METRIC, timed once with the real
 * library), against its wall time. Over variant v's measured timed runs
 * that carry the figure: their number (0: none), the mean entries per run,
 * the figure, and ratio = wall / (wall - entries x figure), summed over the
 * runs (NaN when the estimate reaches the wall time).
 */
struct region_cost {
	size_t runs;
	double entries, entry_ns, ratio;
};
size_t region_cost(const struct result *r, size_t v, struct region_cost *out);

/* Every (cost metric, variant) with at least one pair, metric-major. */
struct mechanism_cost_row {
	size_t metric, variant;
	size_t pairs;
	struct stats_paired p;
};
/* The rows (*out malloc'd, NULL when none) and their count. */
size_t mechanism_costs_compute(const struct result *r, struct mechanism_cost_row **out);

/* "mechanism_costs": one object per mechanism and variant, or NULL when no
 * mechanism ran apart and no region was entered: rows as
 * mechanism_costs_compute gave them, regions[v] as region_cost gave it for
 * variant v (NULL: none). */
json_t *mechanism_costs_json(const struct result *r, const struct mechanism_cost_row *rows,
			     size_t n, const struct region_cost *regions);

#endif
