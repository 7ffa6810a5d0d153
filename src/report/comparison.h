/*
 * Variant-versus-baseline comparisons (STATS.md (b)) computed from the raw
 * runs of a result: per metric and non-baseline variant, the paired
 * log-ratio over complete blocks (the primary path), the unpaired ratio of
 * means when runs do not pair up or are not all positive, or the exact ratio
 * when every block shows the same ratio (deterministic counts). Verdicts use
 * the CI against the noise band; metrics other than the primary one also
 * need a Holm-adjusted p below 0.05 before SLOWER/FASTER is said. Pure.
 */
#ifndef PMU_REPORT_COMPARISON_H
#define PMU_REPORT_COMPARISON_H

#include <jansson.h>

#include "report/result.h"
#include "stats/compare.h"

#define COMPARE_ALPHA 0.05
/* The confidence sequence's radius uses the sample sd, which is too unsure
 * below this many blocks: its coverage fell to 74% at 2 and 92% at 5 in
 * simulation (tests/unit/test_calibration.c), 95%+ from 10 on. */
#define COMPARE_CS_MIN_N 10

enum cmp_method {
	CMP_PAIRED,	/* paired log-ratio, t interval, signed-rank p */
	CMP_UNPAIRED,	/* ratio of means, Fieller interval, Mann-Whitney p */
	CMP_EXACT,	/* a count exact by nature (simulated, calls) or the same
			 * ratio in every block: compared directly, the interval
			 * is the range of the blocks' ratios */
	CMP_CROSS,	/* a ratio whose inputs ran in different groups:
			 * ln(R_B/R_A) = mean(dY) - mean(dX), Welch interval */
	CMP_NONE,	/* no comparison possible; why says why */
};

struct comparison {
	size_t metric, variant;		/* variant against r->baseline */
	enum cmp_method method;
	size_t n;			/* pairs (paired/exact) or min(n_a, n_b) */
	size_t n_a, n_b;		/* values of baseline / variant used */
	double mean_a, mean_b;		/* display units */
	double cv_a, cv_b;
	double ratio, ci_lo, ci_hi;	/* B / A */
	double half_log;		/* CI half-width on the log scale (paired) */
	double p;			/* signed-rank (paired) or Mann-Whitney; NaN if none */
	double p_holm;			/* Holm-adjusted across secondary metrics; = p
					 * for the primary metric */
	double hl_ratio;		/* exp(Hodges-Lehmann) for paired */
	enum stats_verdict verdict;
	int held_by_holm;		/* CI alone said SLOWER/FASTER/changed */
	int sequential;			/* interval is an always-valid confidence sequence */
	int exact_varies;		/* an exact-kind count varied more than expected */
	const char *why;		/* CMP_NONE: reason (static string) */
};

struct comparison_set {
	struct comparison *c;
	size_t n;
	size_t *at;			/* [variant * nmetrics + metric]: index into c,
					 * or SIZE_MAX (comparisons_find is O(1)) */
	size_t nvariants, nmetrics;
	size_t blocks_total;		/* measured blocks (warm-up excluded) */
	size_t blocks_complete;		/* every variant ran OK in it */
	size_t blocks_simulated;	/* blocks run under cachegrind (not in the two above) */
};

void comparisons_compute(const struct result *r, struct comparison_set *out);
void comparisons_release(struct comparison_set *s);

/* The comparison of (metric, variant), or NULL. */
const struct comparison *comparisons_find(const struct comparison_set *s, size_t metric,
					  size_t variant);

/* "slower"/"faster" for time metrics, "higher"/"lower" for others, and
 * "equivalent", "changed, within noise", "inconclusive". */
const char *comparison_verdict_word(const struct result *r, const struct comparison *c);

/* The "comparisons" array of the JSON document. */
json_t *comparisons_json(const struct result *r);

#endif
