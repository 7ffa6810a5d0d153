/*
 * The default stopping rule of `pmustat compare` and the estimate it
 * reports (docs/verdicts.md). After every block from n_min on, the rule
 * looks at the always-valid confidence sequence of the primary metric's mean
 * log ratio (stats/stop.h: normal mixture, Robbins 1970; Johari, Pekelis &
 * Walsh, "Always Valid Inference") and stops as soon as the verdict it gives
 * is settled — wholly beyond the noise band (SLOWER, FASTER) or wholly
 * inside it (EQUIVALENT) — or the sequence is as narrow as the precision
 * target, at n_max at the latest. The sequence covers the truth at every n
 * at once, so the interval at the stop is valid whatever made it stop.
 *
 * The mean at the stop is not: a campaign stops early when its mean happens
 * to lie far from zero, so early stops overstate the effect. The estimate
 * reported instead is median-unbiased under the rule: the theta at which
 * the rule, run on N(theta, sd^2) log ratios, ends with a mean at least as
 * large as the one observed exactly half the time (the "MLE ordering" of the
 * sample space; Emerson & Fleming, "Parameter estimation following group
 * sequential hypothesis testing", Biometrika 77, 1990; Jennison & Turnbull,
 * "Group Sequential Methods", 2000, ch. 8). That probability is found by
 * simulating the rule itself, with a fixed seed, so the same data always
 * give the same estimate.
 */
#ifndef PMU_STATS_SEQUENTIAL_H
#define PMU_STATS_SEQUENTIAL_H

#include <stddef.h>

/* The rule, as a value. */
struct stats_seq_rule {
	size_t n_min;		/* first look (>= 2): no stop before */
	size_t n_max;		/* the last look: the rule stops here whatever it saw */
	double rho, alpha;	/* the confidence sequence (stats_cs_radius) */
	double band;		/* noise band delta of stats_verdict(), 0.01 = +-1% */
	double target;		/* relative half-width that also stops; 0 = none */
};

enum stats_seq_state {
	STATS_SEQ_GO_ON,	/* keep going */
	STATS_SEQ_SETTLED,	/* the sequence's verdict is SLOWER, FASTER or EQUIVALENT */
	STATS_SEQ_PRECISE,	/* not settled, but the sequence is within the target */
	STATS_SEQ_LIMIT,	/* n_max reached */
};

/*
 * The rule after n blocks whose log ratios have this mean and sd (sample
 * sd, n - 1). The sequence is mean -+ stats_cs_radius(n, sd, rho, alpha),
 * judged on the log scale against ln(1 - band) and ln(1 + band), which is
 * stats_verdict() on its exponentiated ends. NaN mean or sd never stops
 * before n_max.
 */
enum stats_seq_state stats_seq_check(const struct stats_seq_rule *rule, size_t n, double mean,
				     double sd);

/*
 * Median-unbiased estimate of the mean log ratio of a campaign the rule
 * ended after n blocks with this mean and sd (see the top of this file).
 * Paths are simulated in antithetic pairs, so a rule that cannot stop
 * before n returns mean itself (up to 0.01 standard errors). The paths are
 * followed to n_max, or to 2n + 50 blocks when that is sooner (a path still
 * going there is taken as stopped; its mean is then within a standard error
 * of theta, and it is one of the many paths that did not stop early).
 * mean itself when sd == 0 or n < n_min (the rule never looked). NaN when
 * the estimate cannot be made: n < 2, mean or sd NaN, n > n_max (merged
 * campaigns), a design too long to simulate in bounded memory, or no memory.
 */
double stats_seq_median_unbiased(const struct stats_seq_rule *rule, size_t n, double mean,
				 double sd);

#endif
