/*
 * The stopping rule of the block loop, evaluated after every measured block
 * (STATS.md (d), docs/verdicts.md). The rule is a value (struct stop_rule,
 * campaign.h). The sequential rule, compare's default, stops once the
 * primary metric's always-valid confidence sequence settles its verdict
 * for every variant, or is as narrow as the target; it is the same rule the
 * reported estimate's simulation runs (stats/sequential.h), through
 * comparison_seq_rule(). The precision rule (--target-ci) looks only at the
 * interval's half-width, never at the effect. A fixed rule runs its blocks.
 * The budget and the block limit are the loop's (loop.c).
 */
#include <math.h>

#include "campaign/mechanism.h"
#include "analysis/comparison.h"
#include "stats/sequential.h"
#include "stats/stop.h"

/* Where one comparison leaves the sequential rule. Intervals that are not
 * confidence sequences (exact counts, unpaired values, too few pairs) count
 * by their verdict and width. */
static enum stats_seq_state seq_state_of(const struct stats_seq_rule *rule,
					 const struct comparison *c)
{
	if (c->sequential)
		return stats_seq_check(rule, c->n, c->mean_d, c->sd_d);
	if (c->n < rule->n_min)
		return STATS_SEQ_GO_ON;
	if (c->verdict == STATS_SLOWER || c->verdict == STATS_FASTER ||
	    c->verdict == STATS_EQUIVALENT)
		return STATS_SEQ_SETTLED;
	return rule->target > 0 && c->half_log <= log1p(rule->target) ? STATS_SEQ_PRECISE
								      : STATS_SEQ_GO_ON;
}

struct primary_look {
	double worst;			/* widest half-width (log scale) */
	size_t settled, precise, open;	/* comparisons in each state */
	const struct comparison *last;	/* one of them, for the words */
};

static void look_at_primary(const struct result *r, const struct comparison_set *s, int m,
			    struct primary_look *pl)
{
	struct stats_seq_rule rule;

	comparison_seq_rule(r, &rule);
	*pl = (struct primary_look){ 0 };
	for (size_t i = 0; i < s->n; i++) {
		const struct comparison *c = &s->c[i];
		enum stats_seq_state st;

		if ((int)c->metric != m)
			continue;
		pl->worst = fmax(pl->worst, isfinite(c->half_log) ? c->half_log : INFINITY);
		pl->last = c;
		st = seq_state_of(&rule, c);
		pl->settled += st == STATS_SEQ_SETTLED;
		pl->precise += st == STATS_SEQ_PRECISE;
		pl->open += st == STATS_SEQ_GO_ON || st == STATS_SEQ_LIMIT;
	}
}

static int sequential_check(const struct campaign *c, const struct comparison_set *s, int m,
			    unsigned blocks, struct strbuf *why, struct strbuf *status)
{
	const struct result *r = &c->res;
	struct primary_look pl;

	look_at_primary(r, s, m, &pl);
	if (!pl.last)
		return 0;
	strbuf_addf(status, "%s ±%.2f%%, %s", r->primary, 100 * expm1(pl.worst),
		    pl.open ? "undecided" : comparison_verdict_word(r, pl.last));
	if (pl.open || blocks < c->o->stop.min_blocks)
		return 0;
	if (!pl.precise && pl.settled == 1)
		strbuf_addf(why, "verdict settled after %u blocks: %s %s, its %s [%.4f, %.4f] "
			    "%s the ±%.1f%% noise band", blocks, r->primary,
			    comparison_verdict_word(r, pl.last),
			    pl.last->sequential ? "95% confidence sequence"
				: pl.last->method == CMP_EXACT ? "exact range" : "95% interval",
			    pl.last->ci_lo, pl.last->ci_hi,
			    pl.last->verdict == STATS_EQUIVALENT ? "inside" : "clear of",
			    100 * r->noise_band);
	else if (!pl.precise)
		strbuf_addf(why, "verdict settled after %u blocks: every %s confidence sequence "
			    "is clear of the ±%.1f%% noise band or inside it", blocks, r->primary,
			    100 * r->noise_band);
	else
		strbuf_addf(why, "precision reached after %u blocks: %s confidence sequence "
			    "half-width %.2f%% <= %.2f%%, verdict not settled", blocks, r->primary,
			    100 * expm1(pl.worst), 100 * c->o->stop.target);
	return 1;
}

static int precision_check(const struct campaign *c, const struct comparison_set *s, int m,
			   unsigned blocks, struct strbuf *why, struct strbuf *status)
{
	const struct stop_rule *rule = &c->o->stop;
	const struct result *r = &c->res;
	double worst = 0;

	for (size_t i = 0; i < s->n; i++)
		if ((int)s->c[i].metric == m)
			worst = fmax(worst, isfinite(s->c[i].half_log) ? s->c[i].half_log
								       : INFINITY);
	strbuf_addf(status, "%s CI ±%.2f%% (target %.2f%%)", r->primary, 100 * expm1(worst),
		    100 * rule->target);
	if (!stats_precision_reached(worst, log1p(rule->target), blocks, rule->min_blocks))
		return 0;
	strbuf_addf(why, "precision reached: %s CI half-width %.2f%% <= %.2f%% after %u blocks",
		    r->primary, 100 * expm1(worst), 100 * rule->target, blocks);
	return 1;
}

int campaign_stop_check(const struct campaign *c, unsigned blocks, struct strbuf *why,
			struct strbuf *status)
{
	const struct result *r = &c->res;
	int m = r->primary ? result_metric_index(r, r->primary) : -1;
	struct comparison_set s;
	int stop;

	if (c->o->stop.kind == STOP_FIXED || m < 0 || r->nvariants < 2)
		return 0;
	/* Verdicts and intervals only: the estimate's simulation is for the end. */
	comparisons_compute_plain(r, &s);
	if (c->o->stop.decide)
		stop = blocks >= c->o->stop.min_blocks &&
		       c->o->stop.decide(c->o->stop.decide_ctx, r, &s, why);
	else if (c->o->stop.kind == STOP_SEQUENTIAL)
		stop = sequential_check(c, &s, m, blocks, why, status);
	else
		stop = precision_check(c, &s, m, blocks, why, status);
	comparisons_release(&s);
	return stop;
}
