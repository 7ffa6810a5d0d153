/*
 * The arithmetic of the stopping rules. The campaign loop (run layer)
 * decides when to call these; keeping them here keeps the statistics of
 * "when may we stop" in one tested place.
 */
#include "stats/stop.h"

#include "stats/dist.h"

#include <math.h>

double stats_ci_halfwidth_log(double sd, size_t n, double level)
{
	if (n < 2 || !(sd >= 0.0) || !(level > 0.0 && level < 1.0))
		return NAN;
	return stats_t_quantile(1.0 - 0.5 * (1.0 - level), (double)(n - 1)) *
	       sd / sqrt((double)n);
}

bool stats_precision_reached(double halfwidth, double target, size_t n, size_t n_min)
{
	return n >= n_min && halfwidth <= target;
}

double stats_cs_radius(size_t n, double s, double rho, double alpha)
{
	double m = (double)n;

	if (n == 0 || !(s >= 0.0) || !(rho > 0.0) || !(alpha > 0.0 && alpha < 1.0))
		return NAN;
	return sqrt((m + rho) * s * s * (log((m + rho) / rho) + 2.0 * log(1.0 / alpha))) / m;
}

double stats_cs_pvalue(size_t n, double mean, double s, double rho)
{
	double m = (double)n, log_lambda;

	if (n == 0 || !(rho > 0.0) || isnan(mean) || !(s >= 0.0))
		return NAN;
	if (s == 0.0)
		return mean == 0.0 ? 1.0 : 0.0;
	log_lambda = 0.5 * log(rho / (m + rho)) + m * m * mean * mean / (2.0 * s * s * (m + rho));
	return log_lambda <= 0.0 ? 1.0 : exp(-log_lambda);
}
