/*
 * Computing comparisons. Runs are first laid out as a block x variant table
 * (of the blocks present, in block order); a block counts only when every
 * variant ran to a clean exit in it, so a
 * variant that failed under -i drops the whole block for all comparisons
 * and pairs stay pairs. Then, per variant: the roles (primary, the family
 * asked for, outside it), Holm across the family, and after the sequential
 * rule the estimates corrected for the early stop.
 */
#include "analysis/comparison.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "analysis/analysis.h"
#include "result/json.h"
#include "stats/sample.h"
#include "stats/sequential.h"
#include "stats/stop.h"
#include "stats/tests.h"

struct layout {
	size_t nblocks;		/* distinct block numbers among the runs */
	int *run_at;		/* [block * nvariants + variant] = run index or -1 */
	char *complete;		/* per block */
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The block numbers present, ascending and each once, into blocks. */
static size_t distinct_blocks(const struct result *r, int *blocks)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nruns; i++)
		blocks[i] = r->runs[i].block;
	sort_n(blocks, r->nruns, sizeof(int), cmp_int);
	for (size_t i = 0; i < r->nruns; i++)
		if (!n || blocks[n - 1] != blocks[i])
			blocks[n++] = blocks[i];
	return n;
}

/* Blocks are laid out in their order, but only those present: the table
 * grows with the runs, never with the largest block number a file holds. */
static void layout_build(const struct result *r, struct layout *l)
{
	size_t nv = r->nvariants;
	int *blocks = xmalloc((r->nruns + 1) * sizeof(int));

	l->nblocks = distinct_blocks(r, blocks);
	l->run_at = xmalloc((l->nblocks * nv + 1) * sizeof(int));
	for (size_t i = 0; i < l->nblocks * nv; i++)
		l->run_at[i] = -1;
	for (size_t i = 0; i < r->nruns; i++) {
		const int *at = bsearch(&r->runs[i].block, blocks, l->nblocks, sizeof(int), cmp_int);

		l->run_at[(size_t)(at - blocks) * nv + (size_t)r->runs[i].variant] = (int)i;
	}
	free(blocks);
	l->complete = xcalloc(l->nblocks + 1, 1);
	for (size_t b = 0; b < l->nblocks; b++) {
		int ok = 1;

		for (size_t v = 0; v < nv && ok; v++) {
			int i = l->run_at[b * nv + v];

			ok = i >= 0 && !r->runs[i].warmup && r->runs[i].status == RUN_OK;
		}
		l->complete[b] = (char)ok;
	}
}

static void layout_release(struct layout *l)
{
	free(l->run_at);
	free(l->complete);
}

/* Values of (metric m, variant v) from complete blocks, in block order;
 * paired with the baseline only where both are usable. */
static size_t collect_pairs(const struct result *r, const struct layout *l, size_t m,
			    size_t v, double *a, double *b)
{
	size_t nv = r->nvariants, n = 0, base = (size_t)r->baseline;

	for (size_t blk = 0; blk < l->nblocks; blk++) {
		int ia = l->run_at[blk * nv + base], ib = l->run_at[blk * nv + v];

		if (!l->complete[blk] || !result_value_usable(r, &r->runs[ia], m) ||
		    !result_value_usable(r, &r->runs[ib], m))
			continue;
		a[n] = r->runs[ia].values[m].value * r->metrics[m].scale;
		b[n] = r->runs[ib].values[m].value * r->metrics[m].scale;
		n++;
	}
	return n;
}

static int all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return 0;
	return 1;
}

static void fill_centres(struct comparison *c, const double *a, const double *b, size_t n)
{
	double sa = 0, sb = 0, qa = 0, qb = 0;

	for (size_t i = 0; i < n; i++) {
		sa += a[i];
		sb += b[i];
	}
	c->mean_a = n ? sa / (double)n : NAN;
	c->mean_b = n ? sb / (double)n : NAN;
	for (size_t i = 0; i < n; i++) {
		qa += (a[i] - c->mean_a) * (a[i] - c->mean_a);
		qb += (b[i] - c->mean_b) * (b[i] - c->mean_b);
	}
	c->cv_a = n > 1 && c->mean_a ? sqrt(qa / (double)(n - 1)) / fabs(c->mean_a) : NAN;
	c->cv_b = n > 1 && c->mean_b ? sqrt(qb / (double)(n - 1)) / fabs(c->mean_b) : NAN;
}

/*
 * A statistic that could not allocate its memory is left out, and c->lost
 * says what, for the warning (from_comparisons, warnings.c) and the JSON:
 * never a NaN p that reads like "no test" (#38: `report` under ulimit -v
 * showed "—" for wall time's p 0.038 and said nothing else). The stats
 * functions fail only for memory here, the values being positive. A
 * comparison lost whole is CMP_NONE.
 */
static void out_of_memory(struct comparison *c, const char *lost, int whole)
{
	c->lost = lost;
	if (whole) {
		c->method = CMP_NONE;
		c->why = "out of memory computing it";
	}
}

/* ranks 0: a sequential comparison gets no rank statistics (its p is the
 * confidence sequence's; the Hodges-Lehmann estimate is only reported), so
 * that the stopping rule's look after every block stays O(n). */
static void compare_paired(const struct result *r, struct comparison *c, const double *a,
			   const double *b, size_t n, int ranks)
{
	struct stats_paired p;
	struct error err;
	int rc;

	if (ranks || !(r->decide && n >= COMPARE_CS_MIN_N))
		rc = stats_paired_ratio(a, b, n, 0.95, &p, &err);
	else
		rc = stats_paired_moments(a, b, n, 0.95, &p, &err);
	/* The moments come first: when only the ranks ran out, the interval
	 * and verdict stand, without the p that Holm needs (#38). */
	if (rc < 0 && isnan(p.mean_d)) {
		out_of_memory(c, "the whole comparison", 1);
		return;
	}
	if (rc < 0)
		out_of_memory(c, "its signed-rank p-value and Hodges-Lehmann estimate", 0);
	c->method = CMP_PAIRED;
	c->ratio = p.ratio;
	c->p = p.p_signed_rank;
	c->hl_ratio = p.hl_ratio;
	c->mean_d = p.mean_d;
	c->sd_d = p.sd_d;
	if (n >= 2 && p.sd_d == 0) {
		/* Every block shows the same ratio: a deterministic count. */
		c->method = CMP_EXACT;
		c->ci_lo = c->ci_hi = c->ratio;
		c->half_log = 0;
		c->p = NAN;
		return;
	}
	c->ci_lo = p.ci_lo;
	c->ci_hi = p.ci_hi;
	c->half_log = p.half_log;
	if (r->decide && n >= COMPARE_CS_MIN_N) {
		/* Always-valid: the interval may be looked at after every block. */
		double rad = stats_cs_radius(n, p.sd_d, r->cs_rho, COMPARE_ALPHA);

		c->ci_lo = exp(p.mean_d - rad);
		c->ci_hi = exp(p.mean_d + rad);
		c->half_log = rad;
		c->sequential = 1;
		/* A signed-rank p at a data-chosen n is not a p-value; this one is. */
		c->p = stats_cs_pvalue(n, p.mean_d, p.sd_d, r->cs_rho);
		if (c->lost)
			c->lost = "its Hodges-Lehmann estimate";
	}
}

static void compare_unpaired(struct comparison *c, const double *a, size_t na, const double *b,
			     size_t nb)
{
	struct stats_unpaired u;
	struct error err;

	if (stats_unpaired_ratio(a, na, b, nb, 0.95, &u, &err) < 0)
		out_of_memory(c, "its Mann-Whitney p-value", 0);
	c->method = CMP_UNPAIRED;
	c->ratio = u.ratio;
	c->ci_lo = u.ci_lo;
	c->ci_hi = u.ci_hi;
	c->p = u.p_mw;
	c->half_log = isfinite(u.ci_lo) && u.ci_lo > 0 ? log(u.ci_hi / u.ci_lo) / 2 : NAN;
}

/* Counts that are exact by construction: simulated counts of a model, and
 * call counts. Only their tiny run-to-run wobble (layout, environment) is
 * left, so they are compared directly (STATS.md (b), "exact" metrics): the
 * interval is the range of the per-block ratios, and a spread wider than
 * EXACT_SPREAD is reported rather than silently averaged. */
#define EXACT_SPREAD 0.001

static int exact_kind(const struct result_metric *m)
{
	return m->source == MSRC_SIM || m->source == MSRC_CALLS;
}

static void compare_exact(struct comparison *c, const double *a, const double *b, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		double q = b[i] / a[i];

		lo = fmin(lo, q);
		hi = fmax(hi, q);
	}
	c->method = CMP_EXACT;
	c->ratio = c->mean_b / c->mean_a;
	c->ci_lo = fmin(lo, c->ratio);
	c->ci_hi = fmax(hi, c->ratio);
	c->exact_varies = c->ci_hi / c->ci_lo - 1 > EXACT_SPREAD;
}

/* Paired log differences of metric m (variant v against the baseline). */
static size_t log_diffs(const struct result *r, const struct layout *l, size_t m, size_t v,
			double *d)
{
	size_t cap = l->nblocks + 1, n, k = 0;
	double *a = xmalloc(cap * sizeof(double)), *b = xmalloc(cap * sizeof(double));

	n = collect_pairs(r, l, m, v, a, b);
	for (size_t i = 0; i < n; i++)
		if (a[i] > 0 && b[i] > 0)
			d[k++] = log(b[i]) - log(a[i]);
	free(a);
	free(b);
	return k;
}

/* Mean of metric m over variant v's usable runs (NaN if none). */
static double variant_mean(const struct result *r, size_t v, size_t m)
{
	double *x, sum = 0;
	size_t n = result_collect(r, v, m, &x);

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	free(x);
	return n ? sum / (double)n : NAN;
}

/*
 * STATS.md (f): a ratio R = Y / X whose Y and X were counted in different
 * blocks (groups rotate by block; every variant of a block runs the same
 * group). ln(R_B / R_A) = mean(dY) - mean(dX) with the paired log
 * differences of each input, and Welch's interval for that difference.
 */
static int compare_cross(const struct result *r, const struct layout *l, struct comparison *c)
{
	size_t cap = l->nblocks + 1, ny, nx;
	double *dy, *dx, k;
	struct stats_welch w;
	int num, den;

	if (r->metrics[c->metric].source != MSRC_FORMULA ||
	    !analysis_ratio_shape(r, r->metrics[c->metric].formula, &num, &den, &k))
		return 0;
	dy = xmalloc(cap * sizeof(double));
	dx = xmalloc(cap * sizeof(double));
	ny = log_diffs(r, l, (size_t)num, c->variant, dy);
	nx = log_diffs(r, l, (size_t)den, c->variant, dx);
	if (ny >= 2 && nx >= 2) {
		c->mean_a = k * variant_mean(r, (size_t)r->baseline, (size_t)num) /
			    variant_mean(r, (size_t)r->baseline, (size_t)den);
		c->mean_b = k * variant_mean(r, c->variant, (size_t)num) /
			    variant_mean(r, c->variant, (size_t)den);
		stats_welch(dx, nx, dy, ny, 0.95, &w);	/* mean(dY) - mean(dX) */
		c->method = CMP_CROSS;
		c->ratio = exp(w.diff);
		c->ci_lo = exp(w.ci_lo);
		c->ci_hi = exp(w.ci_hi);
		c->half_log = (w.ci_hi - w.ci_lo) / 2;
		c->p = w.p;
		c->n = ny < nx ? ny : nx;
		c->n_a = ny;
		c->n_b = nx;
	}
	free(dy);
	free(dx);
	return c->method == CMP_CROSS;
}

static void compare_one(const struct result *r, const struct layout *l, struct comparison *c,
			int full)
{
	size_t cap = l->nblocks + 1;
	double *a = xmalloc(cap * sizeof(double)), *b = xmalloc(cap * sizeof(double));
	size_t n = collect_pairs(r, l, c->metric, c->variant, a, b);

	c->n = c->n_a = c->n_b = n;
	c->ratio = c->ci_lo = c->ci_hi = c->p = c->p_holm = c->hl_ratio = c->half_log = NAN;
	c->mean_d = c->sd_d = NAN;
	c->estimate = EST_PLAIN;
	c->lost = NULL;
	fill_centres(c, a, b, n);
	if (n == 0 && compare_cross(r, l, c)) {
		/* inputs from different groups: done above */
	} else if (n == 0) {
		c->method = CMP_NONE;
		c->why = "no complete blocks with usable values";
	} else if (exact_kind(&r->metrics[c->metric]) && all_positive(a, n) &&
		   all_positive(b, n)) {
		compare_exact(c, a, b, n);
	} else if (all_positive(a, n) && all_positive(b, n)) {
		compare_paired(r, c, a, b, n, full);
	} else if (c->mean_a == 0 && c->mean_b == 0) {
		c->method = CMP_EXACT;
		c->ratio = c->ci_lo = c->ci_hi = 1;
	} else if (!(c->mean_a > 0)) {
		c->method = CMP_NONE;
		c->why = "the baseline's values are zero: no ratio";
	} else {
		compare_unpaired(c, a, n, b, n);
	}
	c->verdict = c->method == CMP_NONE ? STATS_INCONCLUSIVE
					   : stats_verdict(c->ci_lo, c->ci_hi, r->noise_band);
	c->ratio_plain = c->ratio;
	free(a);
	free(b);
}

static int is_primary(const struct result *r, size_t metric)
{
	return r->primary && !strcmp(r->metrics[metric].name, r->primary);
}

/* The family is what was asked: -m, -e, the preset. Formula inputs
 * (hidden) and the clocks measured anyway (implicit) are outside it. */
static enum cmp_role role_of(const struct result *r, size_t metric)
{
	const struct result_metric *m = &r->metrics[metric];

	if (is_primary(r, metric))
		return ROLE_PRIMARY;
	return m->hidden || m->implicit ? ROLE_OUTSIDE : ROLE_FAMILY;
}

/* Holm across the family of one variant; the primary metric, the one
 * question asked up front, keeps its own p, and metrics outside the family
 * get none. Directions the adjusted p does not support are withheld. */
static void apply_holm(const struct result *r, struct comparison_set *s, size_t v)
{
	double *p = xmalloc((s->n + 1) * sizeof(double));
	double *adj = xmalloc((s->n + 1) * sizeof(double));
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
		s->c[i].role = role_of(r, s->c[i].metric);
		/* A p lost to memory may have been any p: counting it as 1
		 * keeps the family's size and can only raise the others'
		 * adjusted p, never lower them (#38). */
		if (s->c[i].variant == v && s->c[i].role == ROLE_FAMILY)
			p[k++] = s->c[i].lost && isnan(s->c[i].p) ? 1.0 : s->c[i].p;
	}
	stats_holm_adjust(p, k, adj);
	k = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct comparison *c = &s->c[i];

		if (c->variant != v || c->role == ROLE_OUTSIDE)
			continue;
		if (c->role == ROLE_PRIMARY) {
			c->p_holm = c->p;
			continue;
		}
		c->p_holm = c->lost && isnan(c->p) ? NAN : adj[k];
		k++;
		if (stats_verdict_directional(c->verdict) && c->method != CMP_EXACT &&
		    !(c->p_holm < COMPARE_ALPHA)) {
			c->held_by_holm = 1;
			c->verdict = STATS_INCONCLUSIVE;
		}
	}
	free(p);
	free(adj);
}

void comparison_seq_rule(const struct result *r, struct stats_seq_rule *rule)
{
	rule->n_min = r->min_blocks > COMPARE_CS_MIN_N ? r->min_blocks : COMPARE_CS_MIN_N;
	rule->n_max = r->repeat;
	rule->rho = r->cs_rho;
	rule->alpha = COMPARE_ALPHA;
	rule->band = r->noise_band;
	rule->target = r->target;
}

/* Keep an adjusted estimate inside the interval it came with. */
static void set_estimate(struct comparison *c, double log_est, enum cmp_estimate how)
{
	double lo = log(c->ci_lo), hi = log(c->ci_hi);

	if (!isfinite(log_est))
		return;
	c->ratio = exp(log_est < lo ? lo : log_est > hi ? hi : log_est);
	c->estimate = how;
}

/* The log ratios of metrics m and p in the blocks where both are usable. */
static size_t paired_logs(const struct result *r, const struct layout *l, size_t m, size_t p,
			  size_t v, double *dm, double *dp)
{
	size_t nv = r->nvariants, base = (size_t)r->baseline, n = 0;

	for (size_t blk = 0; blk < l->nblocks; blk++) {
		const struct result_run *ra, *rb;

		if (!l->complete[blk])
			continue;
		ra = &r->runs[l->run_at[blk * nv + base]];
		rb = &r->runs[l->run_at[blk * nv + v]];
		if (!result_value_usable(r, ra, m) || !result_value_usable(r, rb, m) ||
		    !result_value_usable(r, ra, p) || !result_value_usable(r, rb, p) ||
		    !(ra->values[m].value > 0 && rb->values[m].value > 0 &&
		      ra->values[p].value > 0 && rb->values[p].value > 0))
			continue;
		dm[n] = log(rb->values[m].value) - log(ra->values[m].value);
		dp[n] = log(rb->values[p].value) - log(ra->values[p].value);
		n++;
	}
	return n;
}

/*
 * A metric watched alongside the primary shares part of its early-stop
 * bias: given the primary's log ratios, its own mean is expected to move by
 * beta (mean_p - theta_p), beta the regression slope of its log ratios on
 * the primary's (Whitehead, "Supplementary analysis at the conclusion of a
 * sequential clinical trial", Biometrics 42, 1986). So it is corrected by
 * beta times the primary's correction.
 */
static void regression_adjust(const struct result *r, const struct layout *l,
			      struct comparison *c, const struct comparison *prim)
{
	size_t cap = l->nblocks + 1, n;
	double *dm = xmalloc(cap * sizeof(double)), *dp = xmalloc(cap * sizeof(double));
	double mm, mp, sxy = 0, sxx = 0;

	n = paired_logs(r, l, c->metric, prim->metric, c->variant, dm, dp);
	stats_mean_sd(dm, n, &mm, NULL);
	stats_mean_sd(dp, n, &mp, NULL);
	for (size_t i = 0; i < n; i++) {
		sxy += (dm[i] - mm) * (dp[i] - mp);
		sxx += (dp[i] - mp) * (dp[i] - mp);
	}
	if (n >= 2 && sxx > 0)
		set_estimate(c, mm - sxy / sxx * (mp - log(prim->ratio)), EST_REGRESSION);
	free(dm);
	free(dp);
}

/* After the sequential rule: the primary's median-unbiased estimate, then
 * every other sequential comparison of the variant through its regression. */
static void adjust_estimates(const struct result *r, const struct layout *l,
			     struct comparison_set *s, size_t v)
{
	struct comparison *prim = NULL;
	struct stats_seq_rule rule;

	for (size_t i = 0; i < s->n; i++)
		if (s->c[i].variant == v && s->c[i].role == ROLE_PRIMARY && s->c[i].sequential)
			prim = &s->c[i];
	comparison_seq_rule(r, &rule);
	/* More pairs than the rule allows: campaigns merged by `report`,
	 * each stopped by its own rule; no single design to correct for. */
	if (!prim || prim->n > rule.n_max)
		return;
	/* The design's last look: the limit when the rule could have run on
	 * (it stopped itself, or reached the limit), the end itself when
	 * something else cut it short (budget, interrupt). */
	if (stats_seq_check(&rule, prim->n, prim->mean_d, prim->sd_d) == STATS_SEQ_GO_ON)
		rule.n_max = prim->n;
	set_estimate(prim, stats_seq_median_unbiased(&rule, prim->n, prim->mean_d, prim->sd_d),
		     EST_MEDIAN_UNBIASED);
	if (prim->estimate != EST_MEDIAN_UNBIASED)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (s->c[i].variant == v && &s->c[i] != prim && s->c[i].sequential)
			regression_adjust(r, l, &s->c[i], prim);
}

static void count_blocks(const struct result *r, const struct layout *l,
			 struct comparison_set *out)
{
	for (size_t b = 0; b < l->nblocks; b++) {
		int measured = 0, sim = 0;

		for (size_t v = 0; v < r->nvariants; v++) {
			int i = l->run_at[b * r->nvariants + v];

			measured |= i >= 0 && !r->runs[i].warmup && !r->runs[i].traced &&
				    !r->runs[i].instrumented;
			sim |= i >= 0 && r->runs[i].simulated;
		}
		if (sim) {
			out->blocks_simulated++;
			continue;
		}
		out->blocks_total += measured;
		out->blocks_complete += measured && l->complete[b] != 0;
	}
}

static void compute(const struct result *r, struct comparison_set *out, int adjust)
{
	struct layout l;

	memset(out, 0, sizeof(*out));
	if (r->nvariants < 2)
		return;
	layout_build(r, &l);
	out->c = xcalloc(r->nmetrics * r->nvariants + 1, sizeof(*out->c));
	out->nvariants = r->nvariants;
	out->nmetrics = r->nmetrics;
	out->at = xmalloc((r->nmetrics * r->nvariants + 1) * sizeof(*out->at));
	for (size_t i = 0; i < r->nmetrics * r->nvariants; i++)
		out->at[i] = SIZE_MAX;
	count_blocks(r, &l, out);
	for (size_t v = 0; v < r->nvariants; v++) {
		if ((int)v == r->baseline)
			continue;
		for (size_t m = 0; m < r->nmetrics; m++) {
			struct comparison *c;

			/* Profiles are compared function by function (attribution.c);
			 * the host's conditions are not a property of a variant. */
			if (!r->metrics[m].available || r->metrics[m].source == MSRC_PROFILE ||
			    r->metrics[m].source == MSRC_HOST)
				continue;
			out->at[v * r->nmetrics + m] = out->n;
			c = &out->c[out->n++];
			c->metric = m;
			c->variant = v;
			compare_one(r, &l, c, adjust);
		}
		apply_holm(r, out, v);
		if (adjust && r->decide)
			adjust_estimates(r, &l, out, v);
	}
	layout_release(&l);
}

void comparisons_compute(const struct result *r, struct comparison_set *out)
{
	compute(r, out, 1);
}

void comparisons_compute_plain(const struct result *r, struct comparison_set *out)
{
	compute(r, out, 0);
}

void comparisons_release(struct comparison_set *s)
{
	free(s->c);
	free(s->at);
	memset(s, 0, sizeof(*s));
}

const struct comparison *comparisons_find(const struct comparison_set *s, size_t metric,
					  size_t variant)
{
	size_t i;

	if (!s->at || variant >= s->nvariants || metric >= s->nmetrics)
		return NULL;
	i = s->at[variant * s->nmetrics + metric];
	return i == SIZE_MAX ? NULL : &s->c[i];
}

const char *comparison_verdict_word(const struct result *r, const struct comparison *c)
{
	int time = !strcmp(r->metrics[c->metric].unit, "ns");

	switch (c->verdict) {
	case STATS_SLOWER:
		return time ? "slower" : "higher";
	case STATS_FASTER:
		return time ? "faster" : "lower";
	case STATS_SLOWER_UNSIZED:
		return time ? "slower (size uncertain)" : "higher (size uncertain)";
	case STATS_FASTER_UNSIZED:
		return time ? "faster (size uncertain)" : "lower (size uncertain)";
	default:
		return stats_verdict_word(c->verdict);
	}
}

static const char *const method_names[] = {
	[CMP_PAIRED] = "paired", [CMP_UNPAIRED] = "unpaired",
	[CMP_EXACT] = "exact", [CMP_CROSS] = "cross-group", [CMP_NONE] = "none",
};

static const char *const role_names[] = {
	[ROLE_PRIMARY] = "primary", [ROLE_FAMILY] = "family", [ROLE_OUTSIDE] = "outside",
};

static const char *const estimate_names[] = {
	[EST_PLAIN] = "plain", [EST_MEDIAN_UNBIASED] = "median-unbiased",
	[EST_REGRESSION] = "regression-adjusted",
};

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *noise_json(const struct result *r, const struct comparison_noise *n)
{
	struct strbuf text = STRBUF_INIT, hint = STRBUF_INIT;
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:b}", "steal_share", num(n->steal),
			      "other_load_share", num(n->other_load), "spread", num(n->spread),
			      "task_clock_spread", num(n->cpu_spread), "dominated", n->dominated);

	comparisons_noise_note(r, n, &text, &hint);
	if (text.len) {
		json_object_set_new(o, "note", json_string(text.buf));
		json_object_set_new(o, "hint", json_string(hint.buf));
	}
	strbuf_release(&text);
	strbuf_release(&hint);
	return o;
}

static json_t *comparison_json(const struct result *r, const struct comparison *c,
			       const struct comparison_noise *noise)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:s}",
			      "metric", report_json_text(r->metrics[c->metric].name),
			      "baseline", report_json_text(r->variants[r->baseline].name),
			      "variant", report_json_text(r->variants[c->variant].name),
			      "method", method_names[c->method],
			      "ratio", num(c->ratio), "ci_low", num(c->ci_lo),
			      "ci_high", num(c->ci_hi), "p", num(c->p),
			      "p_holm", num(c->p_holm), "n", (json_int_t)c->n,
			      "verdict", comparison_verdict_word(r, c));

	json_object_set_new(o, "role", json_string(role_names[c->role]));
	json_object_set_new(o, "estimate", json_string(estimate_names[c->estimate]));
	json_object_set_new(o, "ratio_plain", num(c->ratio_plain));
	json_object_set_new(o, "mean_baseline", num(c->mean_a));
	json_object_set_new(o, "mean_variant", num(c->mean_b));
	json_object_set_new(o, "hodges_lehmann_ratio", num(c->hl_ratio));
	json_object_set_new(o, "held_by_holm", json_boolean(c->held_by_holm));
	json_object_set_new(o, "sequential", json_boolean(c->sequential));
	json_object_set_new(o, "exact_varies", json_boolean(c->exact_varies));
	if (c->why)
		json_object_set_new(o, "why", json_string(c->why));
	if (c->lost)
		json_object_set_new(o, "lost_to_memory", json_string(c->lost));
	if (c->role == ROLE_PRIMARY && isfinite(noise->spread))
		json_object_set_new(o, "host_noise", noise_json(r, noise));
	return o;
}

json_t *comparisons_json(const struct result *r, const struct comparison_set *s,
			const struct comparison_noise *noise)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(arr, comparison_json(r, &s->c[i], noise));
	return arr;
}

/* The sum of metric m (display units) over the measured native runs where
 * it and wall-time are both usable, and the sum of their wall times. */
static double sum_runs(const struct result *r, int m, int wall, double *wall_sum)
{
	double sum = 0;

	*wall_sum = 0;
	for (size_t i = 0; i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];

		if (run->simulated || !result_value_usable(r, run, (size_t)m) ||
		    !result_value_usable(r, run, (size_t)wall))
			continue;
		sum += run->values[m].value * r->metrics[m].scale;
		*wall_sum += run->values[wall].value;
	}
	return sum;
}

/* Share of the wall time of the runs that metric NAME took, or NaN. */
static double share_of(const struct result *r, const char *name, int wall)
{
	int m = result_metric_index(r, name);
	double w, x;

	if (m < 0 || !r->metrics[m].available)
		return NAN;
	x = sum_runs(r, m, wall, &w);
	return w > 0 ? x / w : NAN;
}

/* Other tasks' share of the CPUs the runs could use: their busy time less
 * the program's own CPU time, spread over those CPUs. */
static double other_load_share(const struct result *r, int wall)
{
	double busy = share_of(r, "host-busy", wall);
	double user = share_of(r, "user-time", wall), sys = share_of(r, "sys-time", wall);
	double own = isnan(user) ? sys : isnan(sys) ? user : user + sys;
	double ncpu = r->pin_cpu >= 0 ? 1 : r->host.ncpus > 0 ? r->host.ncpus : 1;
	double x = busy - own / ncpu;

	return isnan(x) ? NAN : x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The largest sd of the paired log ratios of a metric over the variants. */
static double spread_of(const struct result *r, const struct comparison_set *s, const char *name)
{
	int m = result_metric_index(r, name);
	double worst = NAN;

	for (size_t i = 0; m >= 0 && i < s->n; i++)
		if ((int)s->c[i].metric == m && isfinite(s->c[i].sd_d))
			worst = isnan(worst) || s->c[i].sd_d > worst ? s->c[i].sd_d : worst;
	return worst;
}

#define NOISE_STEAL_SHARE 0.01
#define NOISE_OTHER_SHARE 0.10
#define NOISE_SPREAD_FACTOR 2.0

void comparisons_noise(const struct result *r, const struct comparison_set *s,
		       struct comparison_noise *out)
{
	int wall = result_metric_index(r, "wall-time"), named, noisy;

	out->steal = out->other_load = out->spread = out->cpu_spread = NAN;
	out->dominated = 0;
	if (wall < 0 || !r->primary || strcmp(r->primary, "wall-time"))
		return;
	out->steal = share_of(r, "host-steal", wall);
	out->other_load = other_load_share(r, wall);
	out->spread = spread_of(r, s, "wall-time");
	out->cpu_spread = spread_of(r, s, "task-clock");
	named = out->steal >= NOISE_STEAL_SHARE || out->other_load >= NOISE_OTHER_SHARE;
	noisy = isfinite(out->cpu_spread) ? out->spread >= NOISE_SPREAD_FACTOR * out->cpu_spread
					  : out->spread >= NOISE_SPREAD_FACTOR * r->noise_band;
	out->dominated = named && noisy;
}

void comparisons_noise_note(const struct result *r, const struct comparison_noise *n,
			    struct strbuf *text, struct strbuf *hint)
{
	int steal = n->steal >= NOISE_STEAL_SHARE;

	(void)r;
	if (!n->dominated)
		return;
	strbuf_adds(text, "wall-time is dominated by noise from outside the measured program: "
			  "during the runs ");
	if (steal)
		strbuf_addf(text, "the hypervisor took %.1f%% of the CPUs' time (steal, "
			    "/proc/stat)", 100 * n->steal);
	if (n->other_load >= NOISE_OTHER_SHARE)
		strbuf_addf(text, "%sother tasks used %.0f%% of %s", steal ? " and " : "",
			    100 * n->other_load, steal ? "it" : "the CPUs' time");
	strbuf_addf(text, "; its block-to-block spread is ±%.1f%%", 100 * n->spread);
	if (isfinite(n->cpu_spread)) {
		strbuf_addf(text, " against ±%.1f%% for task-clock, which counts only the "
			    "program's own CPU time", 100 * n->cpu_spread);
		strbuf_adds(hint, "use --primary task-clock: the stopping rule and the headline "
				  "verdict then follow it");
	} else {
		strbuf_adds(hint, "measure task-clock too (-m ...,task-clock) and use --primary "
				  "task-clock");
	}
}
