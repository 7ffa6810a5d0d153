/*
 * Variant-versus-baseline comparisons (STATS.md (b)) computed from the raw
 * runs of a result: per metric and non-baseline variant, the paired
 * log-ratio over complete blocks (the primary path), the unpaired ratio of
 * means when runs do not pair up or are not all positive, or the exact ratio
 * when every block shows the same ratio (deterministic counts). Verdicts use
 * the interval against the noise band; the metrics asked for besides the
 * primary one form the Holm family and also need an adjusted p below 0.05
 * before a direction is said; metrics measured without being asked (the
 * process clocks, formula inputs) are shown outside the family. After the
 * sequential rule (r->decide) intervals are confidence sequences and the
 * primary's estimate is median-unbiased under the rule (docs/verdicts.md).
 * Pure.
 */
#ifndef PMU_ANALYSIS_COMPARISON_H
#define PMU_ANALYSIS_COMPARISON_H

#include <jansson.h>

#include "core/strbuf.h"
#include "result/result.h"
#include "stats/compare.h"

#define COMPARE_ALPHA 0.05
/* The confidence sequence's radius uses the sample sd, which is too unsure
 * below this many blocks: its coverage fell to 74% at 2 and 92% at 5 in
 * simulation (tests/unit/test_calibration.c), 95%+ from 10 on. */
#define COMPARE_CS_MIN_N 10

/* Where a comparison stands in the multiplicity control. */
enum cmp_role {
	ROLE_PRIMARY,	/* the one question asked up front: its own alpha */
	ROLE_FAMILY,	/* asked for (-m, -e, the preset): Holm across these */
	ROLE_OUTSIDE,	/* measured anyway, not asked for: no verdict claimed */
};

/* How the reported ratio was estimated. */
enum cmp_estimate {
	EST_PLAIN,		/* exp(mean log ratio), ratio of means, ... */
	EST_MEDIAN_UNBIASED,	/* the primary after the sequential rule */
	EST_REGRESSION,		/* another metric, corrected through its
				 * regression on the primary (Whitehead 1986) */
};

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
	double ratio, ci_lo, ci_hi;	/* B / A: the reported estimate and interval */
	double ratio_plain;		/* the unadjusted estimate (= ratio for EST_PLAIN) */
	enum cmp_estimate estimate;
	double mean_d, sd_d;		/* paired: of the log ratios; NaN otherwise */
	double half_log;		/* CI half-width on the log scale (paired) */
	double p;			/* signed-rank (paired), always-valid (sequential)
					 * or Mann-Whitney; NaN if none */
	double p_holm;			/* Holm-adjusted across the family; = p for the
					 * primary metric, NaN outside the family */
	double hl_ratio;		/* exp(Hodges-Lehmann) for paired */
	enum cmp_role role;
	enum stats_verdict verdict;
	int held_by_holm;		/* the interval alone said a direction */
	int sequential;			/* interval is an always-valid confidence sequence */
	int exact_varies;		/* an exact-kind count varied more than expected */
	const char *why;		/* CMP_NONE: reason (static string) */
	const char *lost;		/* what running out of memory left out of it
					 * (static string: a warning says so), or NULL */
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

/* The same without the estimate adjustments (the simulation behind the
 * median-unbiased estimate) and, for sequential comparisons, without the
 * rank statistics (hodges_lehmann_ratio NaN): intervals and verdicts are
 * identical. What the stopping rule looks at after every block. */
void comparisons_compute_plain(const struct result *r, struct comparison_set *out);

/* The sequential rule r ran under (r->decide), as a value: first look at
 * max(min_blocks, COMPARE_CS_MIN_N), last at repeat, the confidence
 * sequence of cs_rho and COMPARE_ALPHA, the noise band, the target. The
 * campaign's stopping check and the estimate's simulation both use it. */
struct stats_seq_rule;
void comparison_seq_rule(const struct result *r, struct stats_seq_rule *rule);
void comparisons_release(struct comparison_set *s);

/* The comparison of (metric, variant), or NULL. */
const struct comparison *comparisons_find(const struct comparison_set *s, size_t metric,
					  size_t variant);

/* "slower"/"faster" for time metrics, "higher"/"lower" for others (each
 * also with " (size uncertain)"), "equivalent", "inconclusive". */
const char *comparison_verdict_word(const struct result *r, const struct comparison *c);

/*
 * What the host can say about the primary metric's noise when that is wall
 * time: the share of the runs' wall time the hypervisor stole from the CPUs
 * (host-steal, /proc/stat), the share of the CPUs other tasks used during
 * the runs (host-busy less the program's own user + sys time), and the
 * block-to-block spread (sd of the paired log ratios, largest over the
 * variants) of wall time against task-clock's. dominated: wall time is at
 * least twice as spread as task-clock (or, without it, as the noise band)
 * and steal >= 1% or other load >= 10% names a cause.
 */
struct comparison_noise {
	double steal, other_load;	/* shares in [0, 1]; NaN when not measured */
	double spread, cpu_spread;	/* NaN when not known */
	int dominated;
};
void comparisons_noise(const struct result *r, const struct comparison_set *s,
		       struct comparison_noise *out);

/* The note saying so, with its figures, and its hint (empty unless dominated). */
void comparisons_noise_note(const struct result *r, const struct comparison_noise *n,
			    struct strbuf *text, struct strbuf *hint);

/* The "comparisons" array of the JSON document: s and its noise as
 * comparisons_compute and comparisons_noise gave them. */
json_t *comparisons_json(const struct result *r, const struct comparison_set *s,
			const struct comparison_noise *noise);

#endif
