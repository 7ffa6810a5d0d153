/*
 * Hypothesis tests and rank estimators for comparing variants: Welch's t,
 * Mann-Whitney U, Wilcoxon signed-rank, Hodges-Lehmann, Spearman's rho, and
 * Holm's step-down correction across metrics. All p-values are two-sided.
 *
 * Conventions for every function here: inputs must be finite (no NaN/inf);
 * a result field that is undefined for the data (too few values, zero
 * spread) is NaN, never a made-up number; a function that returns int
 * returns 0, or -1 with err set, only when memory runs out.
 */
#ifndef PMU_STATS_TESTS_H
#define PMU_STATS_TESTS_H

#include <stdbool.h>
#include <stddef.h>

struct error;

/* Exact null distributions are used up to this many values per sample. */
#define STATS_EXACT_MAX_N 50

/*
 * Welch's unequal-variance t test of mean(b) - mean(a) (Welch 1947, with the
 * Welch-Satterthwaite df). Needs n_a, n_b >= 2 and a nonzero standard error;
 * otherwise everything but n and diff is NaN (diff needs n >= 1 each).
 */
struct stats_welch {
	size_t n_a, n_b;
	double diff;		/* mean(b) - mean(a) */
	double se;		/* sqrt(var_a/n_a + var_b/n_b) */
	double t, df, p;
	double level;		/* confidence level of [ci_lo, ci_hi] */
	double ci_lo, ci_hi;	/* diff -+ t(1 - (1-level)/2, df) * se */
};
void stats_welch(const double *a, size_t n_a, const double *b, size_t n_b,
		 double level, struct stats_welch *out);

/*
 * Mann-Whitney U (Wilcoxon rank-sum) test. u is the statistic of sample a:
 * the number of pairs with a_i > b_j, ties counting 1/2 (so u = 0 when every
 * a is below every b). Exact p from the permutation distribution when there
 * are no ties in the pooled sample and both n <= STATS_EXACT_MAX_N; else the
 * normal approximation with the tie-corrected variance and a 0.5 continuity
 * correction (|U - n_a n_b / 2| - 0.5, floored at 0). Needs n_a, n_b >= 1.
 */
struct stats_mann_whitney {
	size_t n_a, n_b;
	double u;
	double z;		/* NaN when exact */
	double p;
	bool exact;
};
int stats_mann_whitney(const double *a, size_t n_a, const double *b, size_t n_b,
		       struct stats_mann_whitney *out, struct error *err);

/*
 * Wilcoxon signed-rank test that d is symmetric about 0. Zeros are
 * discarded before ranking (Wilcoxon's 1945 convention, scipy's default
 * "wilcox"), so n_used = n - n_zero; mid-ranks for tied |d|. Exact p from the
 * null distribution of W+ when no |d| ties and n_used <= STATS_EXACT_MAX_N
 * (valid conditionally on the number of zeros); else normal approximation
 * with the tie-corrected variance and a 0.5 continuity correction. With
 * n_used == 0 the statistic and p are NaN. Note the exact two-sided p cannot
 * go below 2^(1 - n_used): 0.0625 at 5 pairs, < 0.05 only from 6.
 */
struct stats_signed_rank {
	size_t n, n_zero, n_used;
	double w_plus;		/* sum of ranks of the positive d */
	double z;		/* NaN when exact */
	double p;
	bool exact;
};
int stats_signed_rank(const double *d, size_t n, struct stats_signed_rank *out,
		      struct error *err);

/*
 * Hodges-Lehmann one-sample estimate: the median of the n(n+1)/2 Walsh
 * averages (d_i + d_j)/2, i <= j (Hodges & Lehmann 1963), each computed as
 * the double 0.5 * (d_i + d_j); for an even count the mean 0.5 * (lo + hi)
 * of the middle two. For paired data pass the differences. *est is NaN for
 * n == 0. Selected without forming the averages: O(n log n) time expected,
 * O(n) memory (32 bytes a value).
 */
int stats_hodges_lehmann(const double *d, size_t n, double *est,
			 struct error *err);

/*
 * Spearman's rank correlation of x and y (Pearson's r of their mid-ranks)
 * and its two-sided p from t = rho sqrt((n-2)/(1-rho^2)) on n-2 df, the
 * usual large-sample approximation (p = 0 at |rho| = 1; it overstates
 * significance for small n, see STATS_DRIFT_MIN_N in summary.h). Needs
 * n >= 3 and some spread in both; otherwise rho, t, p are NaN.
 */
struct stats_corr {
	size_t n;
	double rho, t, p;
};
int stats_spearman(const double *x, const double *y, size_t n,
		   struct stats_corr *out, struct error *err);

/*
 * Holm's step-down adjusted p-values (Holm 1979), in the input order:
 * sort ascending, adj_(i) = max_{j <= i} min(1, (k' - j + 1) p_(j)), where k'
 * counts the p that are not NaN. NaN p stay NaN and do not count. Tied p get
 * the same adjusted value. Rejecting "adj[i] <= alpha" controls the
 * family-wise error at alpha. adj must not overlap p.
 */
void stats_holm_adjust(const double *p, size_t k, double *adj);

#endif
