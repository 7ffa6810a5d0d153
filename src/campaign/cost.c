/*
 * What a perturbing mechanism costs, measured rather than assumed. A
 * mechanism that runs code inside the program per event (the preload shim,
 * uprobes, sampling with stack copies) takes part only in instrumented runs
 * of its own (loop.c), and the engine times those runs too, into a hidden
 * metric "wall-time:with-NAME". Each instrumented run is paired with the same
 * variant's timed run of the block just before it, and the ratio of the
 * pairs (analysis/costs.c, also the JSON's "mechanism_costs") is the
 * mechanism's cost for that variant, stated in one note per mechanism. The
 * verdicts never see these runs: their wall time is not the wall-time
 * metric's. Region markers stay in the timed runs; their note states what
 * they cost there, from the time of one entry timed with the real library
 * (mech_regions.c) and the entries of each run.
 */
#include <math.h>
#include <stdlib.h>

#include "campaign/mechanism.h"
#include "core/strbuf.h"
#include "analysis/costs.h"
#include "stats/compare.h"

void campaign_cost_plan(struct campaign *c)
{
	struct strbuf name = STRBUF_INIT;

	for (size_t k = 0; k < c->nmech; k++) {
		if (!c->mech[k].need.perturbs)
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, COST_METRIC_PREFIX "%s", c->mech[k].ops->name);
		result_add_metric(&c->res, name.buf, "ns", MSRC_CLOCK)->hidden = 1;
		c->mech[k].cost_metric = c->res.nmetrics - 1;
	}
	strbuf_release(&name);
}

/* An instrumented run of mechanism k that finished and was timed. */
static int instr_run_of(const struct campaign *c, size_t k, const struct result_run *run)
{
	size_t m = c->mech[k].cost_metric;

	return run->instrumented && m < c->res.nmetrics && run->values[m].valid &&
	       run->status == RUN_OK;
}

int campaign_mech_varies(const struct campaign *c, size_t k)
{
	const struct result *r = &c->res;

	for (size_t v = 0; v < r->nvariants; v++) {
		const struct result_run *first = NULL;

		for (size_t i = 0; i < r->nruns; i++) {
			const struct result_run *run = &r->runs[i];

			if ((size_t)run->variant != v || !instr_run_of(c, k, run))
				continue;
			if (!first) {
				first = run;
				continue;
			}
			for (size_t m = 0; m < r->nmetrics; m++)
				if (m != c->mech[k].cost_metric &&
				    run->values[m].valid != first->values[m].valid)
					return 1;
				else if (m != c->mech[k].cost_metric && run->values[m].valid &&
					 run->values[m].value != first->values[m].value)
					return 1;
		}
	}
	return 0;
}

static void add_cost(struct strbuf *sb, const struct campaign *c, size_t v,
		     const struct stats_paired *p, size_t n)
{
	const char *name = c->res.variants[v].name;

	strbuf_addf(sb, "%s%+.1f%%", sb->len ? ", " : "", 100 * (p->ratio - 1));
	if (n >= 2 && isfinite(p->ci_lo))
		strbuf_addf(sb, " [%+.1f%%, %+.1f%%]", 100 * (p->ci_lo - 1), 100 * (p->ci_hi - 1));
	strbuf_addf(sb, " to %s%s (%zu pair%s)", c->res.nvariants > 1 ? name : "the",
		    c->res.nvariants > 1 ? "'s" : " command's", n, n == 1 ? "" : "s");
}

static void add_region_cost(struct strbuf *sb, const struct campaign *c, size_t v,
			    const struct region_cost *rc)
{
	const char *name = c->res.variants[v].name;

	strbuf_addf(sb, "%s%.0f entries per run added ", sb->len ? "; " : "", rc->entries);
	if (isfinite(rc->ratio))
		strbuf_addf(sb, "about %+.1f%% to", 100 * (rc->ratio - 1));
	else	/* the one timing overstates the runs' own entries */
		strbuf_adds(sb, "more than the whole of");
	strbuf_addf(sb, " %s%s wall time", c->res.nvariants > 1 ? name : "the",
		    c->res.nvariants > 1 ? "'s" : " command's");
}

/* The region markers' note: their cost inside the timed runs. */
static void note_region_cost(struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;
	struct region_cost rc;
	double ns = 0;

	for (size_t v = 0; v < c->res.nvariants; v++)
		if (region_cost(&c->res, v, &rc)) {
			add_region_cost(&sb, c, v, &rc);
			ns = rc.entry_ns;
		}
	if (sb.len)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"region markers ran inside the timed runs, so the verdicts carry "
				"their cost: one entry (an enter/exit pair) took %.2f us of CPU "
				"time, timed once with libpmustat and this campaign's events (time, "
				"not instructions): %s", ns / 1e3, sb.buf);
	strbuf_release(&sb);
}

void campaign_note_costs(struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;

	note_region_cost(c);
	for (size_t k = 0; k < c->nmech; k++) {
		size_t runs = 0;

		if (!c->mech[k].need.perturbs || c->mech[k].cost_metric >= c->res.nmetrics)
			continue;
		strbuf_reset(&sb);
		for (size_t v = 0; v < c->res.nvariants; v++) {
			struct stats_paired p;
			size_t n = mechanism_cost(&c->res, c->mech[k].cost_metric, v, &p);

			runs += n;
			if (n)
				add_cost(&sb, c, v, &p, n);
		}
		if (!runs)
			continue;
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"%s ran in runs of its own, never in the timed runs the verdicts "
				"come from: it added %s wall time (each of its runs against the "
				"timed run before it, 95%% interval)",
				c->mech[k].need.what, sb.buf);
	}
	strbuf_release(&sb);
}
