/*
 * The sequential rule and its median-unbiased estimate. The simulation
 * works in units of the observed sd: a path of standard normal z gives, at
 * every look i, the running mean zbar_i and the radius of the sequence for
 * sd 1; at a candidate theta the campaign's mean is theta + sd zbar_i and
 * its radius sd rad_i, so the paths are drawn once and reused for every
 * theta (common random numbers: the estimate moves smoothly with theta and
 * the root finder converges). The antithetic path -z shares rad_i.
 */
#include "stats/sequential.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/rng.h"
#include "stats/stop.h"

#define SEQ_PAIRS 200		/* antithetic pairs of simulated campaigns */
#define SEQ_PAIRS_MIN 50	/* fewer than this would make the estimate noisy */
#define SEQ_CELLS 500000	/* pairs x looks kept at most (8 MB) */
#define SEQ_SEED UINT64_C(0x6d75652d73657121)
#define SEQ_KERNEL 0.02		/* smoothing width, in standard errors */

/* The rule's thresholds on the log scale (the simulation's inner loop
 * compares against them millions of times). */
struct seq_bounds {
	double up, down;	/* ln(1 + band), ln(1 - band) */
	double target;		/* ln(1 + target), or -1: none */
};

static struct seq_bounds seq_bounds_of(const struct stats_seq_rule *rule)
{
	return (struct seq_bounds){ log1p(rule->band), log1p(-rule->band),
				    rule->target > 0 ? log1p(rule->target) : -1 };
}

/* Where the log-scale interval [lo, hi] with radius r leaves the rule. */
static enum stats_seq_state seq_state(const struct seq_bounds *b, double lo, double hi, double r)
{
	if (lo > b->up || hi < b->down || (lo >= b->down && hi <= b->up))
		return STATS_SEQ_SETTLED;
	if (r <= b->target)
		return STATS_SEQ_PRECISE;
	return STATS_SEQ_GO_ON;
}

enum stats_seq_state stats_seq_check(const struct stats_seq_rule *rule, size_t n, double mean,
				     double sd)
{
	enum stats_seq_state st = STATS_SEQ_GO_ON;

	if (n >= rule->n_min && n >= 2) {
		double r = stats_cs_radius(n, sd, rule->rho, rule->alpha);
		struct seq_bounds b = seq_bounds_of(rule);

		if (!isnan(r) && !isnan(mean))
			st = seq_state(&b, mean - r, mean + r, r);
	}
	return st == STATS_SEQ_GO_ON && n >= rule->n_max ? STATS_SEQ_LIMIT : st;
}

struct seq_paths {
	size_t pairs, len, first;	/* looks first..len-1 (0-based) */
	double *zbar, *rad;		/* [pair * len + look] */
	struct seq_bounds b;
};

/* Two independent standard normals (Box-Muller). */
static void gauss2(struct rng *g, double *z0, double *z1)
{
	double rad = sqrt(-2.0 * log(1.0 - rng_double(g))), ang = 2.0 * M_PI * rng_double(g);

	*z0 = rad * cos(ang);
	*z1 = rad * sin(ang);
}

/* One path: running means and, through the unit radius per look
 * (stats_cs_radius(i + 1, 1, ...), shared by every path), the radius. */
static void path_draw(struct rng *g, const double *unit, double *zbar, double *rad, size_t len)
{
	double mean = 0, m2 = 0, z[2];

	for (size_t i = 0; i < len; i++) {
		double k = (double)(i + 1), delta;

		if (i % 2 == 0)
			gauss2(g, &z[0], &z[1]);
		delta = z[i % 2] - mean;
		mean += delta / k;
		m2 += delta * (z[i % 2] - mean);
		zbar[i] = mean;
		rad[i] = i ? sqrt(m2 / (k - 1)) * unit[i] : NAN;
	}
}

static int paths_build(struct seq_paths *p, const struct stats_seq_rule *rule, size_t len)
{
	struct rng g;

	p->len = len;
	p->pairs = SEQ_CELLS / len < SEQ_PAIRS ? SEQ_CELLS / len : SEQ_PAIRS;
	p->first = (rule->n_min > 2 ? rule->n_min : 2) - 1;
	p->b = seq_bounds_of(rule);
	if (p->pairs < SEQ_PAIRS_MIN)
		return -1;
	p->zbar = malloc(p->pairs * len * sizeof(double));
	p->rad = malloc(p->pairs * len * sizeof(double));
	if (!p->zbar || !p->rad) {
		free(p->zbar);
		free(p->rad);
		return -1;
	}
	/* The radius is linear in the sd: one table of unit radii per look,
	 * kept in pair 0's row, which is drawn last (look i reads its unit
	 * radius before writing its own). */
	for (size_t i = 0; i < len; i++)
		p->rad[i] = stats_cs_radius(i + 1, 1.0, rule->rho, rule->alpha);
	rng_init(&g, SEQ_SEED);
	for (size_t k = p->pairs; k-- > 0;)
		path_draw(&g, p->rad, p->zbar + k * len, p->rad + k * len, len);
	return 0;
}

/* The mean at which path k (sign +1 or -1) stops at theta, sd. */
static double path_stop_mean(const struct seq_paths *p, size_t k, double sign, double theta,
			     double sd)
{
	const double *zbar = p->zbar + k * p->len, *rad = p->rad + k * p->len;
	size_t i;

	for (i = p->first; i + 1 < p->len; i++) {
		double m = theta + sign * sd * zbar[i], r = sd * rad[i];

		if (seq_state(&p->b, m - r, m + r, r) != STATS_SEQ_GO_ON)
			return m;
	}
	return theta + sign * sd * zbar[p->len - 1];
}

/*
 * P_theta(stopped mean > observed), each path counted through a normal
 * kernel of width h (a smoothed empirical distribution): a step function
 * would leave a flat stretch around the median, and the root finder would
 * land anywhere on it; smoothed, antithetic pairs of a rule that cannot stop
 * early give exactly 1/2 at theta = observed.
 */
static double exceed_prob(const struct seq_paths *p, double theta, double sd, double observed,
			  double h)
{
	double sum = 0;

	for (size_t k = 0; k < p->pairs; k++)
		for (int s = 0; s < 2; s++) {
			double m = path_stop_mean(p, k, s ? -1.0 : 1.0, theta, sd);

			sum += 0.5 * erfc((observed - m) / (h * M_SQRT2));
		}
	return sum / (2.0 * (double)p->pairs);
}

/*
 * The theta in [mean - 4 se, mean + 4 se] where exceed_prob crosses 1/2,
 * to 0.01 se (the simulation's own error is about 0.05 se), by regula falsi
 * with the Illinois modification (Dowell & Jarratt, BIT 11, 1971): the
 * smoothed probability is close to linear near its median, so a handful of
 * evaluations do where bisection takes ten.
 */
static double find_median(const struct seq_paths *p, double mean, double sd, double se)
{
	double h = SEQ_KERNEL * se, a = mean - 4 * se, b = mean + 4 * se;
	double fa = exceed_prob(p, a, sd, mean, h) - 0.5, fb = exceed_prob(p, b, sd, mean, h) - 0.5;
	int side = 0;

	if (!(fa < 0) || !(fb > 0))
		return NAN;
	for (int it = 0; it < 60 && b - a > 1e-2 * se; it++) {
		double c = (a * fb - b * fa) / (fb - fa), fc = exceed_prob(p, c, sd, mean, h) - 0.5;

		if (fc == 0)
			return c;
		if (fc < 0) {
			a = c;
			fa = fc;
			fb *= side == -1 ? 0.5 : 1.0;
			side = -1;
		} else {
			b = c;
			fb = fc;
			fa *= side == 1 ? 0.5 : 1.0;
			side = 1;
		}
		if (fabs(fc) < 1e-4)
			return c;
	}
	return 0.5 * (a + b);
}

double stats_seq_median_unbiased(const struct stats_seq_rule *rule, size_t n, double mean,
				 double sd)
{
	struct seq_paths p;
	size_t len;
	double est;

	if (n < 2 || isnan(mean) || !(sd >= 0.0) || n > rule->n_max)
		return NAN;
	if (sd == 0.0 || n < rule->n_min)
		return mean;
	len = 2 * n + 50 < rule->n_max ? 2 * n + 50 : rule->n_max;
	if (paths_build(&p, rule, len))
		return NAN;
	est = find_median(&p, mean, sd, sd / sqrt((double)n));
	free(p.zbar);
	free(p.rad);
	return est;
}
