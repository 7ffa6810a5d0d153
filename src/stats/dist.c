/*
 * Distribution functions, written from the textbook formulas so the whole
 * statistics layer depends on nothing but libm. The incomplete beta carries
 * the t distribution (and so every t interval and p-value); the normal comes
 * from erfc. Tails are computed directly rather than as 1 - cdf, because the
 * interesting p-values are the small ones.
 */
#include "stats/dist.h"

#include <math.h>

#define BETA_CF_EPS	1e-15
#define BETA_CF_TINY	1e-300
#define BETA_CF_MAXIT	100000
#define TQ_MAXIT	400
/*
 * Above this df the t quantile comes straight from its Cornish-Fisher
 * series, whose truncation error O(df^-5) is then far below rounding, while
 * the incomplete-beta route loses digits roughly in proportion to df
 * (1.6e-9 relative at df = 1e9).
 */
#define T_EXPANSION_DF	1e6

/*
 * Stirling's series remainder: ln Gamma(x) - ((x - 1/2) ln x - x + ln sqrt(2 pi))
 * (DLMF 5.11.1, Bernoulli terms to x^-9; error below 1e-14 for x >= 10).
 */
static double stirling_corr(double x)
{
	double r = 1.0 / (x * x);

	return (1.0 / 12.0 - r * (1.0 / 360.0 - r * (1.0 / 1260.0 - r *
		(1.0 / 1680.0 - r / 1188.0)))) / x;
}

/*
 * ln B(a, b). For a large argument the naive lgamma(a) + lgamma(b) -
 * lgamma(a + b) subtracts two huge, nearly equal numbers (df = 1e7 lost nine
 * digits), so with big >= 10 the two Stirling expansions are subtracted
 * analytically first, as in Didonato & Morris (ACM TOMS 708, 1992, algdiv).
 * lgamma_r because plain lgamma writes the global signgam.
 */
static double log_beta(double a, double b)
{
	double big = fmax(a, b), small = fmin(a, b);
	int s1, s2, s3;

	if (big < 10.0)
		return lgamma_r(a, &s1) + lgamma_r(b, &s2) - lgamma_r(a + b, &s3);
	/* ln Gamma(big) - ln Gamma(big + small) */
	return lgamma_r(small, &s1) - (big - 0.5) * log1p(small / big) -
	       small * log(big + small) + small +
	       stirling_corr(big) - stirling_corr(big + small);
}

/*
 * I_x(a, b) by its continued fraction (Abramowitz & Stegun 26.5.8, DLMF
 * 8.17.22), evaluated with the modified Lentz algorithm (Thompson & Barnett
 * 1986). Converges quickly for x < (a + 1) / (a + b + 2); the caller uses the
 * symmetry I_x(a, b) = 1 - I_{1-x}(b, a) for the other side. y is 1 - x and
 * lx, ly their logarithms, passed separately: the prefactor x^a y^b / B(a, b)
 * multiplies ln x by a, so for t with df = 1e6 a rounding of x itself would
 * cost six digits, while callers like t_tail2() know ln x to full precision.
 */
static double beta_cf(double a, double b, double x, double lx, double ly)
{
	double front, f, c, d, delta, num;
	int m;

	front = exp(a * lx + b * ly - log_beta(a, b)) / a;
	f = 1.0;
	c = 1.0;
	d = 0.0;
	for (m = 1; m <= 2 * BETA_CF_MAXIT; m++) {
		int k = m / 2;

		if (m % 2)	/* d_{2k+1} */
			num = -(a + k) * (a + b + k) * x / ((a + 2 * k) * (a + 2 * k + 1));
		else		/* d_{2k} */
			num = k * (b - k) * x / ((a + 2 * k - 1) * (a + 2 * k));
		d = 1.0 + num * d;
		if (fabs(d) < BETA_CF_TINY)
			d = BETA_CF_TINY;
		c = 1.0 + num / c;
		if (fabs(c) < BETA_CF_TINY)
			c = BETA_CF_TINY;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < BETA_CF_EPS)
			break;
	}
	return front / f;
}

/* I_x(a, b) given x, y = 1 - x and their logarithms (lx may be finite when x underflowed). */
static double beta_inc_log(double a, double b, double x, double y, double lx, double ly)
{
	if (lx == -INFINITY)
		return 0.0;
	if (ly == -INFINITY)
		return 1.0;
	if (x < (a + 1.0) / (a + b + 2.0))
		return beta_cf(a, b, x, lx, ly);
	return 1.0 - beta_cf(b, a, y, ly, lx);
}

static double beta_inc_xy(double a, double b, double x, double y)
{
	return beta_inc_log(a, b, x, y, log(x), log(y));
}

double stats_beta_inc(double a, double b, double x)
{
	if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0))
		return NAN;
	return beta_inc_xy(a, b, x, 1.0 - x);
}

/* The binomial tail as a beta integral (A&S 26.5.24): P(X <= k) = I_{1/2}(n-k, k+1). */
double stats_binom_half_cdf(long n, long k)
{
	if (n < 0)
		return NAN;
	if (k < 0)
		return 0.0;
	if (k >= n)
		return 1.0;
	return beta_inc_xy((double)(n - k), (double)k + 1.0, 0.5, 0.5);
}

double stats_normal_pdf(double z)
{
	return exp(-0.5 * z * z) / sqrt(2.0 * M_PI);
}

double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

double stats_normal_sf(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

/*
 * Lower-half normal quantile, 0 < p <= 0.5: Acklam's rational approximation
 * (P. J. Acklam, "An algorithm for computing the inverse normal cumulative
 * distribution function", 2003; relative error 1.15e-9), then one Halley
 * step against erfc, which brings it to full double precision.
 */
static double normal_quantile_lower(double p)
{
	static const double a[6] = {
		-3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02,
		-3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[5] = {
		-5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01,
		-1.328068155288572e+01 };
	static const double c[6] = {
		-7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00,
		4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[4] = {
		7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r, x, e, u;

	if (p < 0.02425) {
		q = sqrt(-2.0 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
	}
	e = stats_normal_cdf(x) - p;
	u = e * sqrt(2.0 * M_PI) * exp(0.5 * x * x);
	if (isfinite(u))
		x -= u / (1.0 + 0.5 * x * u);
	return x;
}

double stats_normal_quantile(double p)
{
	if (isnan(p) || p < 0.0 || p > 1.0)
		return NAN;
	if (p == 0.0)
		return -INFINITY;
	if (p == 1.0)
		return INFINITY;
	if (p <= 0.5)
		return normal_quantile_lower(p);
	return -normal_quantile_lower(1.0 - p);	/* 1 - p is exact here */
}

/* f(t) = (1 + t^2/df)^(-(df+1)/2) / (sqrt(df) B(df/2, 1/2)) */
double stats_t_pdf(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0.0)
		return NAN;
	if (isinf(df))
		return stats_normal_pdf(t);
	return exp(-0.5 * (df + 1.0) * log1p(t * t / df) - 0.5 * log(df) -
		   log_beta(0.5 * df, 0.5));
}

/*
 * P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2) (A&S 26.7.1 via 26.5.27). x,
 * 1 - x and their logarithms are all formed from r = t^2/df, so none loses
 * digits for large df or large t.
 */
static double t_tail2(double t, double df)
{
	double r = t * t / df, lx;

	if (isinf(t))
		return 0.0;
	if (isinf(r)) {	/* t^2 overflowed; ln x = ln df - 2 ln|t| did not */
		lx = log(df) - 2.0 * log(fabs(t));
		return beta_inc_log(0.5 * df, 0.5, exp(lx), 1.0, lx, -exp(lx));
	}
	lx = -log1p(r);
	return beta_inc_log(0.5 * df, 0.5, 1.0 / (1.0 + r), r / (1.0 + r), lx, log(r) + lx);
}

static int t_args_bad(double t, double df)
{
	return isnan(t) || isnan(df) || df <= 0.0;
}

double stats_t_p2(double t, double df)
{
	if (t_args_bad(t, df))
		return NAN;
	if (isinf(df))
		return 2.0 * stats_normal_sf(fabs(t));
	return t_tail2(t, df);
}

double stats_t_sf(double t, double df)
{
	double half;

	if (t_args_bad(t, df))
		return NAN;
	if (isinf(df))
		return stats_normal_sf(t);
	half = 0.5 * t_tail2(t, df);
	return t > 0.0 ? half : 1.0 - half;
}

double stats_t_cdf(double t, double df)
{
	return stats_t_sf(-t, df);
}

/*
 * Starting point for the t quantile: the Cornish-Fisher expansion in 1/df
 * around the normal quantile (A&S 26.7.5). Good for moderate df; poor for
 * tiny df far in the tail, which the bracketing in t_upper() absorbs.
 */
static double t_quantile_guess(double z, double df)
{
	double z2 = z * z;
	double g1 = (z2 + 1.0) * z / 4.0;
	double g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
	double g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
	double g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 -
		     945.0) * z / 92160.0;

	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

/*
 * The t > 0 with P(T > t) = q, 0 < q < 1/2: Newton's method on the survival
 * function, safeguarded by a bisection bracket [lo, hi] that always holds
 * the root (the "rtsafe" scheme of Press et al., Numerical Recipes 9.4).
 */
static double t_upper(double q, double df)
{
	double lo = 0.0, hi, t, f, next;
	int i;

	t = t_quantile_guess(-stats_normal_quantile(q), df);
	if (!(t > 0.0) || !isfinite(t))
		t = 1.0;
	hi = t;
	while (stats_t_sf(hi, df) > q) {
		lo = hi;
		hi *= 2.0;
		if (isinf(hi))	/* possible for df << 1: beyond any double */
			return INFINITY;
	}
	for (i = 0; i < TQ_MAXIT; i++) {
		f = stats_t_sf(t, df) - q;
		if (f == 0.0)
			return t;
		if (f > 0.0)
			lo = t;
		else
			hi = t;
		next = t + f / stats_t_pdf(t, df);
		if (!(next > lo && next < hi))
			next = 0.5 * (lo + hi);
		if (fabs(next - t) <= 1e-14 * next)
			return next;
		t = next;
	}
	return t;
}

double stats_t_quantile(double p, double df)
{
	double q, t;

	if (isnan(p) || isnan(df) || df <= 0.0 || p < 0.0 || p > 1.0)
		return NAN;
	if (p == 0.0)
		return -INFINITY;
	if (p == 1.0)
		return INFINITY;
	if (p == 0.5)
		return 0.0;
	if (isinf(df))
		return stats_normal_quantile(p);
	q = p < 0.5 ? p : 1.0 - p;
	if (df == 1.0)		/* Cauchy: closed form */
		t = 1.0 / tan(M_PI * q);
	else if (df == 2.0)	/* closed form from F(t) = 1/2 + t / (2 sqrt(t^2 + 2)) */
		t = (1.0 - 2.0 * q) / sqrt(2.0 * q * (1.0 - q));
	else if (df > T_EXPANSION_DF)
		t = t_quantile_guess(-stats_normal_quantile(q), df);
	else
		t = t_upper(q, df);
	return p < 0.5 ? -t : t;
}
