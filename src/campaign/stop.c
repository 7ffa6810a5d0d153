/*
 * The stopping rule of the block loop, evaluated after every measured block
 * (STATS.md (d)). The rule is a value (struct stop_rule, campaign.h): the
 * precision rule looks only at the primary metric's interval half-width,
 * never at the effect, so stopping on it leaves the final interval valid;
 * the sequential rule stops when every always-valid confidence sequence of
 * the primary metric has left the undecided zone. A fixed rule runs its
 * blocks. The budget and the block limit are the loop's (loop.c).
 */
#include <math.h>

#include "campaign/mechanism.h"
#include "report/comparison.h"
#include "stats/stop.h"

int campaign_stop_check(const struct campaign *c, unsigned blocks, struct strbuf *why,
			struct strbuf *status)
{
	const struct stop_rule *rule = &c->o->stop;
	const struct result *r = &c->res;
	int m = r->primary ? result_metric_index(r, r->primary) : -1;
	struct comparison_set s;
	double worst = 0;
	int decided = 1;

	if (rule->kind == STOP_FIXED || m < 0 || r->nvariants < 2)
		return 0;
	comparisons_compute(r, &s);
	for (size_t i = 0; i < s.n; i++) {
		const struct comparison *cmp = &s.c[i];

		if ((int)cmp->metric != m)
			continue;
		worst = fmax(worst, isfinite(cmp->half_log) ? cmp->half_log : INFINITY);
		decided &= cmp->verdict == STATS_SLOWER || cmp->verdict == STATS_FASTER ||
			   cmp->verdict == STATS_EQUIVALENT;
	}
	comparisons_release(&s);
	strbuf_addf(status, "%s CI ±%.2f%% (target %.2f%%)", r->primary, 100 * expm1(worst),
		    100 * rule->target);
	if (blocks < rule->min_blocks)
		return 0;
	if (rule->kind == STOP_SEQUENTIAL && decided && blocks >= COMPARE_CS_MIN_N) {
		strbuf_addf(why, "decided: every %s confidence sequence left the undecided "
			    "zone after %u blocks", r->primary, blocks);
		return 1;
	}
	if (rule->kind == STOP_PRECISION &&
	    stats_precision_reached(worst, log1p(rule->target), blocks, rule->min_blocks)) {
		strbuf_addf(why, "precision reached: %s CI half-width %.2f%% <= %.2f%% after %u "
			    "blocks", r->primary, 100 * expm1(worst), 100 * rule->target, blocks);
		return 1;
	}
	return 0;
}
