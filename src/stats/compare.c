/*
 * Effect sizes with intervals for A versus B, and the verdict. The paired
 * path works on log ratios so that "B is 3% slower" is the same statement
 * whatever the scale of the metric, and so that a multiplicative noise
 * (frequency, cache state) becomes additive and roughly symmetric, which is
 * what the t interval and the signed-rank test assume.
 */
#include "stats/compare.h"

#include "core/error.h"
#include "stats/dist.h"
#include "stats/sample.h"
#include "stats/tests.h"

#include <math.h>
#include <stdlib.h>

static int log_ratios(const double *a, const double *b, size_t n, double *d,
		      struct error *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(a[i] > 0.0 && b[i] > 0.0 && isfinite(a[i]) && isfinite(b[i])))
			return error_set(err, ERR_RUNTIME,
					 "cannot take a log ratio in block %zu: values must be positive and finite",
					 i);
		d[i] = log(b[i]) - log(a[i]);
	}
	return 0;
}

static void paired_reset(struct stats_paired *out, size_t n, double level)
{
	out->n = n;
	out->level = level;
	out->mean_d = out->sd_d = out->ratio = out->half_log = NAN;
	out->ci_lo = out->ci_hi = out->t = out->df = out->p_t = NAN;
	out->p_signed_rank = out->hl_ratio = NAN;
	out->signed_rank_exact = false;
	out->n_zero = 0;
}

/* Student t on the mean log ratio: interval on the ratio, paired t test. */
static void paired_t(struct stats_paired *out)
{
	double n = (double)out->n, se;

	if (out->n < 2)
		return;
	out->df = n - 1.0;
	se = out->sd_d / sqrt(n);
	out->half_log = stats_t_quantile(1.0 - 0.5 * (1.0 - out->level), out->df) * se;
	out->ci_lo = exp(out->mean_d - out->half_log);
	out->ci_hi = exp(out->mean_d + out->half_log);
	if (se > 0.0) {
		out->t = out->mean_d / se;
		out->p_t = stats_t_p2(out->t, out->df);
	}
}

static int paired_ranks(const double *d, struct stats_paired *out, struct error *err)
{
	struct stats_signed_rank sr;
	double hl;

	if (stats_signed_rank(d, out->n, &sr, err) < 0 ||
	    stats_hodges_lehmann(d, out->n, &hl, err) < 0)
		return -1;
	out->p_signed_rank = sr.p;
	out->signed_rank_exact = sr.exact;
	out->n_zero = sr.n_zero;
	out->hl_ratio = exp(hl);
	return 0;
}

static int paired(const double *a, const double *b, size_t n, double level, int ranks,
		  struct stats_paired *out, struct error *err)
{
	double *d;
	int rc;

	paired_reset(out, n, level);
	if (n == 0)
		return 0;
	d = malloc(n * sizeof(double));
	if (!d)
		return error_set(err, ERR_RUNTIME, "out of memory comparing %zu blocks", n);
	rc = log_ratios(a, b, n, d, err);
	if (rc == 0) {
		stats_mean_sd(d, n, &out->mean_d, &out->sd_d);
		out->ratio = exp(out->mean_d);
		paired_t(out);
		if (ranks)
			rc = paired_ranks(d, out, err);
	}
	free(d);
	return rc;
}

int stats_paired_ratio(const double *a, const double *b, size_t n, double level,
		       struct stats_paired *out, struct error *err)
{
	return paired(a, b, n, level, 1, out, err);
}

int stats_paired_moments(const double *a, const double *b, size_t n, double level,
			 struct stats_paired *out, struct error *err)
{
	return paired(a, b, n, level, 0, out, err);
}

/*
 * Fieller's interval for mb / ma with independent means (Fieller, "Some
 * problems in interval estimation", JRSS B 16, 1954), solving
 * (mb - theta ma)^2 = t^2 (vb + theta^2 va) for theta: with
 * g = t^2 va / ma^2, theta = (R -+ (t/|ma|) sqrt(vb (1 - g) + R^2 va)) / (1 - g),
 * where va, vb are the variances of the two means.
 */
static void fieller(double ma, double va, double mb, double vb, size_t n_a,
		    size_t n_b, struct stats_unpaired *out)
{
	double r = mb / ma, spread = vb + r * r * va, tq, g, half;

	out->df = spread * spread /
		  (vb * vb / (double)(n_b - 1) + r * r * r * r * va * va / (double)(n_a - 1));
	if (spread == 0.0) {
		out->ci_lo = out->ci_hi = r;
		return;
	}
	tq = stats_t_quantile(1.0 - 0.5 * (1.0 - out->level), out->df);
	g = tq * tq * va / (ma * ma);
	if (!(g < 1.0)) {
		out->ci_unbounded = true;
		out->ci_lo = -INFINITY;
		out->ci_hi = INFINITY;
		return;
	}
	half = tq / fabs(ma) * sqrt(vb * (1.0 - g) + r * r * va);
	out->ci_lo = (r - half) / (1.0 - g);
	out->ci_hi = (r + half) / (1.0 - g);
}

int stats_unpaired_ratio(const double *a, size_t n_a, const double *b, size_t n_b,
			 double level, struct stats_unpaired *out, struct error *err)
{
	struct stats_mann_whitney mw;
	double sa, sb;

	out->n_a = n_a;
	out->n_b = n_b;
	out->level = level;
	out->df = out->ci_lo = out->ci_hi = NAN;
	out->ci_unbounded = false;
	stats_mean_sd(a, n_a, &out->mean_a, &sa);
	stats_mean_sd(b, n_b, &out->mean_b, &sb);
	out->ratio = out->mean_b / out->mean_a;
	if (n_a >= 2 && n_b >= 2 && out->mean_a != 0.0)
		fieller(out->mean_a, sa * sa / (double)n_a, out->mean_b,
			sb * sb / (double)n_b, n_a, n_b, out);
	if (stats_mann_whitney(a, n_a, b, n_b, &mw, err) < 0)
		return -1;
	out->u = mw.u;
	out->p_mw = mw.p;
	out->mw_exact = mw.exact;
	return 0;
}

enum stats_verdict stats_verdict(double ci_lo, double ci_hi, double delta)
{
	if (isnan(ci_lo) || isnan(ci_hi) || isnan(delta) || ci_lo > ci_hi)
		return STATS_INCONCLUSIVE;
	if (ci_lo > 1.0 + delta)
		return STATS_SLOWER;
	if (ci_hi < 1.0 - delta)
		return STATS_FASTER;
	if (ci_lo >= 1.0 - delta && ci_hi <= 1.0 + delta)
		return STATS_EQUIVALENT;
	if (ci_lo > 1.0)
		return STATS_SLOWER_UNSIZED;
	if (ci_hi < 1.0)
		return STATS_FASTER_UNSIZED;
	return STATS_INCONCLUSIVE;
}

int stats_verdict_directional(enum stats_verdict v)
{
	return v == STATS_SLOWER || v == STATS_FASTER || v == STATS_SLOWER_UNSIZED ||
	       v == STATS_FASTER_UNSIZED;
}

const char *stats_verdict_word(enum stats_verdict v)
{
	switch (v) {
	case STATS_SLOWER:
		return "slower";
	case STATS_FASTER:
		return "faster";
	case STATS_EQUIVALENT:
		return "equivalent";
	case STATS_SLOWER_UNSIZED:
		return "slower (size uncertain)";
	case STATS_FASTER_UNSIZED:
		return "faster (size uncertain)";
	case STATS_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}
