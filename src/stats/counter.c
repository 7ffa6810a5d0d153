/*
 * Scaling of multiplexed readings and the two ratio estimators. Both ratio
 * intervals are first-order (delta method) and symmetric; they are adequate
 * because counter ratios have small relative spread, and the interval on a
 * ratio metric's A/B change is taken on the log scale elsewhere.
 */
#include "stats/counter.h"

#include "stats/dist.h"
#include "stats/sample.h"

#include <math.h>

enum stats_count_state stats_counter_scale(uint64_t value, uint64_t enabled,
					   uint64_t running, double *scaled)
{
	if (running == 0) {
		*scaled = NAN;
		return STATS_COUNT_MISSING;
	}
	if (running >= enabled) {
		*scaled = (double)value;
		return STATS_COUNT_EXACT;
	}
	/* enabled / running first: value * enabled may overflow 64 bits */
	*scaled = (double)value * ((double)enabled / (double)running);
	return STATS_COUNT_MULTIPLEXED;
}

static void ratio_reset(struct stats_ratio *out, size_t n_y, size_t n_x, double level)
{
	out->n_y = n_y;
	out->n_x = n_x;
	out->level = level;
	out->r = out->se = out->df = out->ci_lo = out->ci_hi = NAN;
}

static void ratio_interval(struct stats_ratio *out)
{
	double half;

	if (!isfinite(out->se))
		return;
	half = stats_t_quantile(1.0 - 0.5 * (1.0 - out->level), out->df) * out->se;
	out->ci_lo = out->r - half;
	out->ci_hi = out->r + half;
}

/*
 * Written with wy = var(y)/n_y and wx = R^2 var(x)/n_x, which equal
 * mean(x)^2 R^2 cY and mean(x)^2 R^2 cX: the same se and df as the header's
 * formula, but still defined when mean(y) == 0.
 */
int stats_ratio_cross(const double *y, size_t n_y, const double *x, size_t n_x,
		      double level, struct stats_ratio *out, struct error *err)
{
	double my, sy, mx, sx, wy, wx;

	(void)err;
	ratio_reset(out, n_y, n_x, level);
	stats_mean_sd(y, n_y, &my, &sy);
	stats_mean_sd(x, n_x, &mx, &sx);
	if (n_y == 0 || n_x == 0 || mx == 0.0)
		return 0;
	out->r = my / mx;
	if (n_y < 2 || n_x < 2)
		return 0;
	wy = sy * sy / (double)n_y;
	wx = out->r * out->r * sx * sx / (double)n_x;
	out->se = sqrt(wy + wx) / fabs(mx);
	if (out->se == 0.0) {
		out->ci_lo = out->ci_hi = out->r;
		return 0;
	}
	out->df = (wy + wx) * (wy + wx) /
		  (wy * wy / (double)(n_y - 1) + wx * wx / (double)(n_x - 1));
	ratio_interval(out);
	return 0;
}

int stats_ratio_same(const double *y, const double *x, size_t n, double level,
		     struct stats_ratio *out, struct error *err)
{
	double my, mx, ss = 0.0, e;
	size_t i;

	(void)err;
	ratio_reset(out, n, n, level);
	stats_mean_sd(y, n, &my, NULL);
	stats_mean_sd(x, n, &mx, NULL);
	if (n == 0 || mx == 0.0)
		return 0;
	out->r = my / mx;
	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		e = y[i] - out->r * x[i];
		ss += e * e;
	}
	out->df = (double)(n - 1);
	out->se = sqrt(ss / ((double)(n - 1) * (double)n * mx * mx));
	if (out->se == 0.0)
		out->ci_lo = out->ci_hi = out->r;
	else
		ratio_interval(out);
	return 0;
}
