/*
 * Paired differences (see diff.h): the Student t interval of the mean
 * difference, t = mean / (sd / sqrt(n)) with n - 1 degrees of freedom.
 * When every difference is the same, the interval is that value and p is
 * 0 or 1 (no spread: the difference is exact, or exactly zero).
 */
#include "stats/diff.h"

#include <math.h>
#include <stdlib.h>

#include "core/strbuf.h"
#include "stats/dist.h"
#include "stats/sample.h"

int stats_paired_diff(const double *a, const double *b, size_t n, double level,
		      struct stats_diff *out)
{
	double *d, mean, sd, half;

	out->n = n;
	out->mean = out->lo = out->hi = out->p = NAN;
	if (n < 2)
		return -1;
	d = xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	stats_mean_sd(d, n, &mean, &sd);
	free(d);
	out->mean = mean;
	if (!(sd > 0)) {
		out->lo = out->hi = mean;
		out->p = mean == 0 ? 1 : 0;
		return 0;
	}
	half = stats_t_quantile(1 - (1 - level) / 2, (double)(n - 1)) * sd / sqrt((double)n);
	out->lo = mean - half;
	out->hi = mean + half;
	out->p = stats_t_p2(mean / (sd / sqrt((double)n)), (double)(n - 1));
	return 0;
}
