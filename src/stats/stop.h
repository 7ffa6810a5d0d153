/*
 * Stopping rules for a campaign (STATS.md (d)). The precision rule looks only
 * at the interval's half-width on the log scale, never at the effect, so
 * stopping on it leaves the final interval (nearly) valid. The
 * always-valid confidence sequence, whose radius holds simultaneously for
 * every n, may be checked after each block (the default rule of `compare`,
 * stats/sequential.h, stops on it).
 */
#ifndef PMU_STATS_STOP_H
#define PMU_STATS_STOP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Half-width of the t interval of a mean log ratio:
 * t(1 - (1-level)/2, n-1) sd / sqrt(n). exp(+-h) - 1 is then the relative
 * precision of the ratio. NaN for n < 2 or sd NaN.
 */
double stats_ci_halfwidth_log(double sd, size_t n, double level);

/*
 * The precision rule: true once n >= n_min and halfwidth <= target.
 * A NaN halfwidth never satisfies it.
 */
bool stats_precision_reached(double halfwidth, double target, size_t n, size_t n_min);

/*
 * Radius of the normal-mixture confidence sequence for a mean (Robbins
 * 1970; Johari, Pekelis & Walsh, "Always Valid Inference"):
 *   r(n) = sqrt((n + rho) s^2 (ln((n + rho)/rho) + 2 ln(1/alpha))) / n
 * with s the sample sd, rho > 0 the mixing parameter (the n at which the
 * sequence is tightest relative to a fixed-n interval) and 0 < alpha < 1.
 * mean -+ r(n) covers the true mean for all n at once with probability
 * >= 1 - alpha. NaN for n == 0 or arguments out of range.
 */
double stats_cs_radius(size_t n, double s, double rho, double alpha);

/*
 * The always-valid p-value that goes with that sequence (Johari, Pekelis &
 * Walsh, section 4): 1 / Lambda(n) capped at 1, where
 *   Lambda(n) = sqrt(rho / (n + rho)) exp(n^2 mean^2 / (2 s^2 (n + rho)))
 * is the normal-mixture likelihood ratio of mean = 0. It is below alpha
 * exactly when mean -+ stats_cs_radius(n, s, rho, alpha) excludes 0, and
 * Ville's inequality makes it valid at any stopping time. s == 0 gives 1
 * for mean == 0 and 0 otherwise; NaN for n == 0 or rho <= 0.
 */
double stats_cs_pvalue(size_t n, double mean, double s, double rho);

#endif
