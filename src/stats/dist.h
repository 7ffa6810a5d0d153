/*
 * Probability distributions the tests and intervals need: regularized
 * incomplete beta, Student t and the standard normal. Everything is computed
 * (never tabled), so non-integer Welch degrees of freedom and any confidence
 * level work the same way. Pure functions of their arguments: no state, no
 * errno contract, NaN out for arguments outside the domain.
 */
#ifndef PMU_STATS_DIST_H
#define PMU_STATS_DIST_H

/*
 * Regularized incomplete beta I_x(a, b) for a > 0, b > 0, 0 <= x <= 1.
 * Relative accuracy about 1e-14 for moderate a, b; NaN outside the domain.
 */
double stats_beta_inc(double a, double b, double x);

/*
 * P(Bin(n, 1/2) <= k): the sign-test / order-statistic tail used for
 * distribution-free median intervals. 0 for k < 0, 1 for k >= n.
 */
double stats_binom_half_cdf(long n, long k);

/*
 * Student t with df > 0 degrees of freedom (df need not be an integer;
 * df == INFINITY is the standard normal). NaN for df <= 0 or NaN inputs.
 *   stats_t_cdf(t, df)   P(T <= t)
 *   stats_t_sf(t, df)    P(T > t), accurate in the upper tail
 *   stats_t_p2(t, df)    two-sided p-value P(|T| >= |t|)
 *   stats_t_quantile(p, df)  the t with P(T <= t) = p, 0 < p < 1
 *                             (+-INFINITY at p = 1 / p = 0, or when the
 *                             quantile exceeds the double range, df << 1)
 * Accuracy: about 1e-12 relative for df <= 1e6 (pmustat's df are run
 * counts); beyond that the quantile stays exact (series) but the cdf/sf
 * degrade roughly in proportion to df (1e-8 at df = 1e9).
 */
double stats_t_pdf(double t, double df);
double stats_t_cdf(double t, double df);
double stats_t_sf(double t, double df);
double stats_t_p2(double t, double df);
double stats_t_quantile(double p, double df);

/*
 * The standard normal: density, P(Z <= z), P(Z > z) (accurate in the upper
 * tail) and the quantile (|relative error| about 1e-15).
 */
double stats_normal_pdf(double z);
double stats_normal_cdf(double z);
double stats_normal_sf(double z);
double stats_normal_quantile(double p);

#endif
