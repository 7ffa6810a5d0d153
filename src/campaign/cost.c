/*
 * What a perturbing mechanism costs, measured rather than assumed. A
 * mechanism that runs code inside the program per event (the preload shim,
 * uprobes, sampling with stack copies) takes part only in instrumented runs
 * of its own (loop.c), and the engine times those runs too, into a hidden
 * metric "wall-time:with-NAME". Each instrumented run is paired with the same
 * variant's timed run of the block just before it, and the ratio of the
 * pairs (stats_paired_ratio: a log-ratio mean with its t interval) is the
 * mechanism's cost for that variant, stated in one note per mechanism. The
 * verdicts never see these runs: their wall time is not the wall-time
 * metric's.
 */
#include <math.h>
#include <stdlib.h>

#include "campaign/mechanism.h"
#include "core/strbuf.h"
#include "stats/compare.h"

void campaign_cost_plan(struct campaign *c)
{
	struct strbuf name = STRBUF_INIT;

	for (size_t k = 0; k < c->nmech; k++) {
		if (!c->mech[k].need.perturbs)
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "wall-time:with-%s", c->mech[k].ops->name);
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

/* Pairs of (timed, instrumented) wall time of variant v for mechanism k:
 * each instrumented run with the variant's last timed run before it. */
static size_t cost_pairs(const struct campaign *c, size_t k, size_t v, double *a, double *b)
{
	const struct result *r = &c->res;
	int wall = result_metric_index(r, "wall-time");
	double last = 0;
	size_t n = 0;

	for (size_t i = 0; wall >= 0 && i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];

		if ((size_t)run->variant != v)
			continue;
		if (!run->instrumented && !run->simulated && !run->traced && !run->warmup &&
		    run->status == RUN_OK && run->values[wall].valid && run->values[wall].value > 0)
			last = run->values[wall].value;
		else if (instr_run_of(c, k, run) && last > 0 &&
			 run->values[c->mech[k].cost_metric].value > 0) {
			a[n] = last;
			b[n++] = run->values[c->mech[k].cost_metric].value;
			last = 0;	/* one instrumented run per timed run */
		}
	}
	return n;
}

static void add_cost(struct strbuf *sb, const struct campaign *c, size_t v, const double *a,
		     const double *b, size_t n)
{
	struct stats_paired p;
	const char *name = c->res.variants[v].name;

	stats_paired_ratio(a, b, n, 0.95, &p, NULL);
	strbuf_addf(sb, "%s%+.1f%%", sb->len ? ", " : "", 100 * (p.ratio - 1));
	if (n >= 2 && isfinite(p.ci_lo))
		strbuf_addf(sb, " [%+.1f%%, %+.1f%%]", 100 * (p.ci_lo - 1), 100 * (p.ci_hi - 1));
	strbuf_addf(sb, " to %s%s (%zu pair%s)", c->res.nvariants > 1 ? name : "the",
		    c->res.nvariants > 1 ? "'s" : " command's", n, n == 1 ? "" : "s");
}

void campaign_note_costs(struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;
	double *a = xcalloc(c->res.nruns + 1, sizeof(double));
	double *b = xcalloc(c->res.nruns + 1, sizeof(double));

	for (size_t k = 0; k < c->nmech; k++) {
		size_t runs = 0;

		if (!c->mech[k].need.perturbs || c->mech[k].cost_metric >= c->res.nmetrics)
			continue;
		strbuf_reset(&sb);
		for (size_t v = 0; v < c->res.nvariants; v++) {
			size_t n = cost_pairs(c, k, v, a, b);

			runs += n;
			if (n)
				add_cost(&sb, c, v, a, b, n);
		}
		if (!runs)
			continue;
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"%s ran in runs of its own, never in the timed runs the verdicts "
				"come from: it added %s wall time (each of its runs against the "
				"timed run before it, 95%% interval)",
				c->mech[k].need.what, sb.buf);
	}
	free(a);
	free(b);
	strbuf_release(&sb);
}
