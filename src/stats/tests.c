/*
 * Two-sided hypothesis tests. The rank tests use their exact permutation
 * distributions whenever those are valid (no ties) and cheap (small n),
 * because the normal approximation is poorest exactly where pmustat lives:
 * 5-20 blocks. Exact distributions are built by counting, with additions
 * only, so no cancellation creeps into the tail probabilities.
 */
#include "stats/tests.h"

#include "core/error.h"
#include "core/rng.h"
#include "stats/dist.h"
#include "stats/sample.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Any seed: the pivots change only how fast the selection ends, never its
 * answer. Fixed, so that a slow case is slow every time. */
#define HL_SEED UINT64_C(0x686f64676573)

static int oom(struct error *err, const char *what)
{
	return error_set(err, ERR_RUNTIME, "out of memory computing %s", what);
}

/* Two-sided exact p from a null distribution given as counts over 0..max. */
static double exact_p2(const double *count, size_t max, double stat)
{
	double total = 0.0, below = 0.0, above = 0.0, p;
	size_t s;

	for (s = 0; s <= max; s++) {
		total += count[s];
		if ((double)s <= stat)
			below += count[s];
		if ((double)s >= stat)
			above += count[s];
	}
	p = 2.0 * fmin(below, above) / total;
	return fmin(p, 1.0);
}

/* --- Welch ------------------------------------------------------------- */

void stats_welch(const double *a, size_t n_a, const double *b, size_t n_b,
		 double level, struct stats_welch *out)
{
	double ma, sa, mb, sb, va, vb, tq;

	stats_mean_sd(a, n_a, &ma, &sa);
	stats_mean_sd(b, n_b, &mb, &sb);
	out->n_a = n_a;
	out->n_b = n_b;
	out->level = level;
	out->diff = mb - ma;
	out->se = out->t = out->df = out->p = out->ci_lo = out->ci_hi = NAN;
	if (n_a < 2 || n_b < 2)
		return;
	va = sa * sa / (double)n_a;
	vb = sb * sb / (double)n_b;
	out->se = sqrt(va + vb);
	if (!(out->se > 0.0))
		return;
	/* Welch-Satterthwaite: (va + vb)^2 / (va^2/(n_a-1) + vb^2/(n_b-1)) */
	out->df = (va + vb) * (va + vb) /
		  (va * va / (double)(n_a - 1) + vb * vb / (double)(n_b - 1));
	out->t = out->diff / out->se;
	out->p = stats_t_p2(out->t, out->df);
	tq = stats_t_quantile(1.0 - 0.5 * (1.0 - level), out->df);
	out->ci_lo = out->diff - tq * out->se;
	out->ci_hi = out->diff + tq * out->se;
}

/* --- Mann-Whitney ------------------------------------------------------ */

/*
 * Null distribution of U for m and n untied values, as counts of the
 * C(m+n, m) orderings. The largest pooled value is either an a (beating all
 * n b's) or a b, giving Mann & Whitney's (1947) recurrence
 * f(i, j)[u] = f(i-1, j)[u - j] + f(i, j-1)[u]. Two layers over i, each
 * holding j = 0..n with room for u = 0..m n. Returns NULL on OOM; the
 * caller frees the result, which has m n + 1 entries.
 */
static double *mw_null_counts(size_t m, size_t n)
{
	size_t len = m * n + 1, i, j, u;
	double *prev = calloc((n + 1) * len, sizeof(double));
	double *cur = calloc((n + 1) * len, sizeof(double));
	double *res = NULL, *tmp;

	if (!prev || !cur)
		goto out;
	for (j = 0; j <= n; j++)	/* i = 0: a single ordering, u = 0 */
		prev[j * len] = 1.0;
	for (i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * len * sizeof(double));
		cur[0] = 1.0;		/* j = 0 */
		for (j = 1; j <= n; j++)
			for (u = 0; u <= i * j; u++)
				cur[j * len + u] = (u >= j ? prev[j * len + u - j] : 0.0) +
						   cur[(j - 1) * len + u];
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	res = malloc(len * sizeof(double));
	if (res)
		memcpy(res, prev + n * len, len * sizeof(double));
out:
	free(prev);
	free(cur);
	return res;
}

static int mw_exact(struct stats_mann_whitney *out, struct error *err)
{
	double *count = mw_null_counts(out->n_a, out->n_b);

	if (!count)
		return oom(err, "the Mann-Whitney distribution");
	out->p = exact_p2(count, out->n_a * out->n_b, out->u);
	out->exact = true;
	free(count);
	return 0;
}

/* Normal approximation, tie-corrected variance (Lehmann, Nonparametrics, 1975, 1.4). */
static void mw_normal(struct stats_mann_whitney *out, double tie_term)
{
	double m = (double)out->n_a, n = (double)out->n_b, N = m + n;
	double mu = m * n / 2.0;
	double var = m * n / 12.0 * ((N + 1.0) - tie_term / (N * (N - 1.0)));

	if (!(var > 0.0))
		return;
	out->z = fmax(fabs(out->u - mu) - 0.5, 0.0) / sqrt(var);
	out->p = fmin(1.0, 2.0 * stats_normal_sf(out->z));
}

int stats_mann_whitney(const double *a, size_t n_a, const double *b, size_t n_b,
		       struct stats_mann_whitney *out, struct error *err)
{
	size_t n = n_a + n_b, i;
	double *pool, *ranks, tie_term, rsum = 0.0;

	out->n_a = n_a;
	out->n_b = n_b;
	out->u = out->z = out->p = NAN;
	out->exact = false;
	if (n_a == 0 || n_b == 0)
		return 0;
	pool = malloc(2 * n * sizeof(double));
	if (!pool)
		return oom(err, "Mann-Whitney U");
	ranks = pool + n;
	memcpy(pool, a, n_a * sizeof(double));
	memcpy(pool + n_a, b, n_b * sizeof(double));
	if (stats_ranks(pool, n, ranks, &tie_term, err) < 0) {
		free(pool);
		return -1;
	}
	for (i = 0; i < n_a; i++)
		rsum += ranks[i];
	free(pool);
	out->u = rsum - (double)n_a * ((double)n_a + 1.0) / 2.0;
	if (tie_term == 0.0 && n_a <= STATS_EXACT_MAX_N && n_b <= STATS_EXACT_MAX_N)
		return mw_exact(out, err);
	mw_normal(out, tie_term);
	return 0;
}

/* --- Wilcoxon signed-rank ---------------------------------------------- */

/*
 * Null distribution of W+ for n untied ranks: each rank's sign is a fair
 * coin, so the counts are the coefficients of prod_{r=1..n} (1 + q^r).
 * Counts stay exact integers in a double up to n = 53 (total 2^n).
 */
static int sr_exact(struct stats_signed_rank *out, struct error *err)
{
	size_t n = out->n_used, max = n * (n + 1) / 2, r, w;
	double *count = calloc(max + 1, sizeof(double));

	if (!count)
		return oom(err, "the signed-rank distribution");
	count[0] = 1.0;
	for (r = 1; r <= n; r++)
		for (w = r * (r + 1) / 2; w >= r; w--)
			count[w] += count[w - r];
	out->p = exact_p2(count, max, out->w_plus);
	out->exact = true;
	free(count);
	return 0;
}

/* Normal approximation with tie-corrected variance (Lehmann 1975, 3.2). */
static void sr_normal(struct stats_signed_rank *out, double tie_term)
{
	double n = (double)out->n_used;
	double mu = n * (n + 1.0) / 4.0;
	double var = n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - tie_term / 48.0;

	if (!(var > 0.0))
		return;
	out->z = fmax(fabs(out->w_plus - mu) - 0.5, 0.0) / sqrt(var);
	out->p = fmin(1.0, 2.0 * stats_normal_sf(out->z));
}

int stats_signed_rank(const double *d, size_t n, struct stats_signed_rank *out,
		      struct error *err)
{
	double *absd, *ranks, *sign, tie_term;
	size_t i, k = 0;

	out->n = n;
	out->n_zero = out->n_used = 0;
	out->w_plus = out->z = out->p = NAN;
	out->exact = false;
	absd = malloc(3 * (n ? n : 1) * sizeof(double));
	if (!absd)
		return oom(err, "the signed-rank test");
	ranks = absd + n;
	sign = ranks + n;
	for (i = 0; i < n; i++)
		if (d[i] != 0.0) {
			absd[k] = fabs(d[i]);
			sign[k++] = d[i] > 0.0;
		}
	out->n_used = k;
	out->n_zero = n - k;
	if (k == 0 || stats_ranks(absd, k, ranks, &tie_term, err) < 0) {
		free(absd);
		return k == 0 ? 0 : -1;
	}
	out->w_plus = 0.0;
	for (i = 0; i < k; i++)
		out->w_plus += sign[i] * ranks[i];
	free(absd);
	if (tie_term == 0.0 && k <= STATS_EXACT_MAX_N)
		return sr_exact(out, err);
	sr_normal(out, tie_term);
	return 0;
}

/* --- Hodges-Lehmann ---------------------------------------------------- */

/*
 * The median of the n(n+1)/2 Walsh averages without forming them: a
 * selection over the matrix w(i, j) = 0.5 (x_i + x_j), i <= j, of the sorted
 * x, whose rows and columns are nondecreasing (rounding is monotone, so this
 * holds for the computed doubles too, and addition commutes, so they are bit
 * for bit the averages the definition takes). It follows Monahan's Algorithm
 * 616 (ACM TOMS 10(3), 1984, 265-270, DOI 10.1145/1271.319414): each row
 * keeps the columns [lo, hi) still in play; a pivot drawn from them splits
 * the matrix, counted in O(n) by a walk along the staircase where w crosses
 * it; the side holding the k-th smallest is kept. A random pivot takes
 * O(log n) rounds expected: O(n log n) time with the sort, O(n) memory,
 * where the averages themselves took O(n^2) (3 GB at 20,000 blocks). Unlike
 * Algorithm 616, a round counts both w < pivot and w <= pivot, so ties
 * (tick-granular times, equal counts) end the search at the pivot rather
 * than needing its midrange fallback, and the answer is one of the averages,
 * never a sum rescaled afterwards.
 */
struct hl_walk {
	const double *x;	/* sorted */
	size_t n;
	size_t *lo, *hi;	/* row i: columns [lo[i], hi[i]) still in play */
	size_t *cut;		/* row i: its first column at or above the pivot */
	struct rng rng;
};

static double walsh(const struct hl_walk *h, size_t i, size_t j)
{
	return 0.5 * (h->x[i] + h->x[j]);
}

static int above(double w, double p, int inclusive)
{
	return inclusive ? w >= p : w > p;
}

/*
 * Per row, the first column j >= i with w(i, j) >= p (inclusive) or > p,
 * n if none, into h->cut; returns how many averages lie left of the cuts:
 * the count of w < p (inclusive) or of w <= p. Row i + 1 is row i moved up
 * by x_{i+1} - x_i >= 0, so its cut is never right of row i's (or of its
 * diagonal): one walk down the staircase, O(n).
 */
static size_t hl_cut(struct hl_walk *h, double p, int inclusive)
{
	size_t j = h->n, below = 0;

	for (size_t i = 0; i < h->n; i++) {
		if (j < i)
			j = i;
		while (j > i && above(walsh(h, i, j - 1), p, inclusive))
			j--;
		h->cut[i] = j;
		below += j - i;
	}
	return below;
}

/* A uniformly drawn average among those still in play (there is one). */
static double hl_pivot(struct hl_walk *h)
{
	size_t left = 0, i;

	for (i = 0; i < h->n; i++)
		left += h->hi[i] - h->lo[i];
	left = (size_t)rng_below(&h->rng, left);
	for (i = 0; left >= h->hi[i] - h->lo[i]; i++)
		left -= h->hi[i] - h->lo[i];
	return walsh(h, i, h->lo[i] + left);
}

/* The k-th smallest (from 0) Walsh average. Every round drops at least
 * the pivot from play, so it ends. */
static double hl_select(struct hl_walk *h, size_t k)
{
	for (size_t i = 0; i < h->n; i++) {
		h->lo[i] = i;
		h->hi[i] = h->n;
	}
	for (;;) {
		double p = hl_pivot(h);

		if (k < hl_cut(h, p, 1)) {		/* below p */
			memcpy(h->hi, h->cut, h->n * sizeof(size_t));
			continue;
		}
		if (k < hl_cut(h, p, 0))		/* equal to p */
			return p;
		memcpy(h->lo, h->cut, h->n * sizeof(size_t));	/* above p */
	}
}

int stats_hodges_lehmann(const double *d, size_t n, double *est, struct error *err)
{
	size_t m = n * (n + 1) / 2;
	struct hl_walk h = { .n = n };
	double *x;

	*est = NAN;
	if (n == 0)
		return 0;
	x = malloc(n * sizeof(double));
	h.lo = malloc(3 * n * sizeof(size_t));
	if (!x || !h.lo) {
		free(x);
		free(h.lo);
		return oom(err, "the Hodges-Lehmann estimate");
	}
	memcpy(x, d, n * sizeof(double));
	stats_sort(x, n);
	h.x = x;
	h.hi = h.lo + n;
	h.cut = h.hi + n;
	rng_init(&h.rng, HL_SEED);
	/* The same middle one, or the same mean of the middle two, as
	 * stats_median_sorted() over the sorted averages. */
	if (m % 2)
		*est = hl_select(&h, m / 2);
	else
		*est = 0.5 * (hl_select(&h, m / 2 - 1) + hl_select(&h, m / 2));
	free(x);
	free(h.lo);
	return 0;
}

/* --- Spearman ---------------------------------------------------------- */

/* Pearson's r; NaN when either has no spread. */
static double pearson(const double *x, const double *y, size_t n)
{
	double mx, my, sxy = 0.0, sxx = 0.0, syy = 0.0;
	size_t i;

	stats_mean_sd(x, n, &mx, NULL);
	stats_mean_sd(y, n, &my, NULL);
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (!(sxx > 0.0) || !(syy > 0.0))
		return NAN;
	return fmax(-1.0, fmin(1.0, sxy / sqrt(sxx * syy)));
}

int stats_spearman(const double *x, const double *y, size_t n,
		   struct stats_corr *out, struct error *err)
{
	double *rx, df = (double)n - 2.0;
	int rc = 0;

	out->n = n;
	out->rho = out->t = out->p = NAN;
	if (n < 3)
		return 0;
	rx = malloc(2 * n * sizeof(double));
	if (!rx)
		return oom(err, "Spearman's rho");
	if (stats_ranks(x, n, rx, NULL, err) < 0 ||
	    stats_ranks(y, n, rx + n, NULL, err) < 0)
		rc = -1;
	else
		out->rho = pearson(rx, rx + n, n);
	free(rx);
	if (rc || isnan(out->rho))
		return rc;
	if (fabs(out->rho) == 1.0)
		out->t = copysign(INFINITY, out->rho);
	else
		out->t = out->rho * sqrt(df / (1.0 - out->rho * out->rho));
	out->p = stats_t_p2(out->t, df);
	return 0;
}

/* --- Holm -------------------------------------------------------------- */

/* Does p[j] sort before p[i]? Ties keep input order, like a stable sort. */
static bool holm_before(const double *p, size_t j, size_t i)
{
	return p[j] < p[i] || (p[j] == p[i] && j < i);
}

/* w_j = min(1, (k' - r_j + 1) p_j) for p[j] at sorted position r_j (1-based). */
static double holm_step(const double *p, size_t k, size_t valid, size_t j)
{
	size_t l, r = 1;

	for (l = 0; l < k; l++)
		r += !isnan(p[l]) && l != j && holm_before(p, l, j);
	return fmin(1.0, (double)(valid - r + 1) * p[j]);
}

/* The last p in sorted order that sorts before p[last] (all if last == k). */
static size_t holm_prev(const double *p, size_t k, size_t last)
{
	size_t j, found = k;

	for (j = 0; j < k; j++) {
		if (isnan(p[j]) || (last < k && !holm_before(p, j, last)))
			continue;
		if (found == k || holm_before(p, found, j))
			found = j;
	}
	return found;
}

/*
 * Allocation-free, O(k^2) (k is the number of metrics in one comparison):
 * first adj holds each step value w_j, then the running maximum over sorted
 * order is taken from the largest p down, so each w read is not yet
 * overwritten.
 */
void stats_holm_adjust(const double *p, size_t k, double *adj)
{
	size_t i, j, valid = 0, last = k;
	double best;

	for (i = 0; i < k; i++)
		valid += !isnan(p[i]);
	for (j = 0; j < k; j++)
		adj[j] = isnan(p[j]) ? NAN : holm_step(p, k, valid, j);
	while ((i = holm_prev(p, k, last)) < k) {
		best = adj[i];
		for (j = 0; j < k; j++)
			if (!isnan(p[j]) && holm_before(p, j, i))
				best = fmax(best, adj[j]);
		adj[i] = best;
		last = i;
	}
}
