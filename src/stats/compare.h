/*
 * A versus B for one metric (STATS.md (b)). The primary path is paired: in
 * each randomized block both variants ran under the same conditions, so the
 * per-block log ratio d_b = ln B_b - ln A_b cancels block-to-block drift and
 * its mean is an unbiased log effect (Kalibera & Jones 2012). The unpaired
 * fallback, for runs that do not pair up, is the ratio of means with
 * Fieller's interval. Both end in a verdict against a noise band.
 */
#ifndef PMU_STATS_COMPARE_H
#define PMU_STATS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct error;

/* Default noise band delta: changes within +-1% are called equivalent. */
#define STATS_NOISE_BAND_DEFAULT 0.01

/*
 * Paired log-ratio comparison. Invariants: ratio = exp(mean_d) and the
 * interval is exp(mean_d -+ half_log), so ratio lies inside it; every field
 * but n and the zero counts is NaN when n < 2 (mean_d, ratio and hl_ratio
 * need only n >= 1); the t fields are NaN also when sd_d == 0.
 */
struct stats_paired {
	size_t n;			/* blocks (pairs) */
	double level;
	double mean_d, sd_d;		/* of d = ln b - ln a */
	double ratio;			/* exp(mean_d): B relative to A */
	double half_log;		/* t(1 - (1-level)/2, n-1) sd_d / sqrt(n) */
	double ci_lo, ci_hi;		/* on the ratio */
	double t, df, p_t;		/* paired t test of mean_d = 0 */
	double p_signed_rank;		/* Wilcoxon on d, see stats_signed_rank() */
	bool signed_rank_exact;
	size_t n_zero;			/* pairs with a == b, dropped by signed-rank */
	double hl_ratio;		/* exp(Hodges-Lehmann estimate of d) */
};

/*
 * Compare b against a, pair by pair (a[i] and b[i] ran in block i). Every
 * value must be finite and > 0 (it is logged). Returns 0, or -1 with err set
 * for a non-positive or non-finite value or when memory runs out.
 */
int stats_paired_ratio(const double *a, const double *b, size_t n, double level,
		       struct stats_paired *out, struct error *err);

/* The same without the rank statistics (p_signed_rank and hl_ratio stay
 * NaN): O(n) where the ranks and the Hodges-Lehmann estimate take
 * O(n log n), for a stopping rule that looks after every block and reads
 * only the moments. */
int stats_paired_moments(const double *a, const double *b, size_t n, double level,
			 struct stats_paired *out, struct error *err);

/*
 * Unpaired comparison: ratio = mean(b) / mean(a) with Fieller's (1954)
 * interval, the set of theta for which mean(b) - theta mean(a) is not
 * significantly nonzero, at df from Welch-Satterthwaite for that contrast
 * evaluated at theta = ratio. When mean(a) is itself not clearly nonzero
 * (g = t^2 var(mean a) / mean(a)^2 >= 1) the set is unbounded:
 * ci_unbounded is set and the bounds are -inf/+inf. p_mw is Mann-Whitney's
 * two-sided p. Needs n_a, n_b >= 2 for the interval; values must be finite.
 */
struct stats_unpaired {
	size_t n_a, n_b;
	double level;
	double mean_a, mean_b;
	double ratio;
	double df;
	double ci_lo, ci_hi;
	bool ci_unbounded;
	double u, p_mw;
	bool mw_exact;
};
int stats_unpaired_ratio(const double *a, size_t n_a, const double *b, size_t n_b,
			 double level, struct stats_unpaired *out, struct error *err);

/*
 * Verdict of a ratio interval (B relative to A, lower is better, as for
 * time) against the noise band [1 - delta, 1 + delta], tested in this order:
 *   SLOWER          ci_lo > 1 + delta
 *   FASTER          ci_hi < 1 - delta
 *   EQUIVALENT      1 - delta <= ci_lo and ci_hi <= 1 + delta
 *   SLOWER_UNSIZED  1 < ci_lo <= 1 + delta: wholly above 1, so slower, but the
 *                   near end reaches into the band (the far end is then
 *                   beyond it): a slowdown of uncertain size
 *   FASTER_UNSIZED  the mirror image below 1
 *   INCONCLUSIVE    anything else, including NaN or ci_lo > ci_hi
 * The two UNSIZED verdicts name a direction the interval is sure of; they
 * never say "within noise", which the interval does not show.
 */
enum stats_verdict {
	STATS_SLOWER,
	STATS_FASTER,
	STATS_EQUIVALENT,
	STATS_SLOWER_UNSIZED,
	STATS_FASTER_UNSIZED,
	STATS_INCONCLUSIVE,
};
enum stats_verdict stats_verdict(double ci_lo, double ci_hi, double delta);

/* Is the verdict a direction (SLOWER, FASTER or one of the UNSIZED two)? */
int stats_verdict_directional(enum stats_verdict v);

/* "slower", "faster", "equivalent", "slower (size uncertain)",
 * "faster (size uncertain)", "inconclusive". */
const char *stats_verdict_word(enum stats_verdict v);

#endif
