/*
 * The page's tables: the verdicts (rows styled by verdict, the primary
 * metric's headline above), the stat summary, and the profile sections
 * from the attribution (the same numbers as the terminal's "where the time
 * goes", "where the difference is" and "where the simulated difference
 * is"). Numbers in the units units.c picks,
 * one scale per row or table so they compare by eye.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/profile.h"
#include "report/compare_table.h"
#include "report/html_common.h"
#include "report/names.h"

/* ---- verdicts ------------------------------------------------------------ */

static void headline(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	int m = r->primary ? result_metric_index(r, r->primary) : -1;

	for (size_t i = 0; m >= 0 && i < c->cmp.n; i++) {
		const struct comparison *k = &c->cmp.c[i];
		char word[64];

		if ((int)k->metric != m || k->method == CMP_NONE || !isfinite(k->ratio))
			continue;
		compare_verdict_text(r, k, word, sizeof(word));
		strbuf_addf(out, "<p class=\"headline %s\">", html_verdict_class(k));
		html_text(out, r->primary);
		strbuf_adds(out, ": <b>");
		html_text(out, r->variants[k->variant].name);
		strbuf_adds(out, "</b> is <span class=\"verdict\">");
		html_text(out, word);
		strbuf_addf(out, "</span>, %+.1f%%", 100 * (k->ratio - 1));
		if (isfinite(k->ci_lo) && isfinite(k->ci_hi))
			strbuf_addf(out, " [%+.1f%%, %+.1f%%]", 100 * (k->ci_lo - 1),
				    100 * (k->ci_hi - 1));
		strbuf_addf(out, " (n %zu)</p>\n", k->n);
	}
}

/* The terminal's table (compare_table_model), each compared row styled by
 * its verdict; the metrics not counted here named under it, as there. */
void html_verdicts(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	struct table_opts o = { 0 };
	struct strbuf uncounted = STRBUF_INIT;
	struct texttable t;

	if (r->nvariants < 2)
		return;
	headline(c, out);
	compare_table_model(c->a, &o, html_verdict_class, &t, &uncounted);
	html_texttable(out, &t, "verdicts");
	texttable_release(&t);
	if (uncounted.len) {
		strbuf_adds(out, "<p class=\"note\">Not counted here: ");
		html_text(out, uncounted.buf);
		strbuf_adds(out, " (see the notes).</p>\n");
	}
	strbuf_release(&uncounted);
	strbuf_adds(out, "<p class=\"legend\">ratio = variant / ");
	html_text(out, r->variants[r->baseline].name);
	strbuf_addf(out, "; verdicts against a ±%.1f%% noise band; centres are means ± cv; "
		    "p Holm-adjusted across the metrics asked for; [..]: measured but not asked "
		    "for (no claim); *: the interval alone gives a direction, the adjusted p does "
		    "not. See the terminal's table below for how each ratio was estimated.</p>\n",
		    100 * r->noise_band);
}

/* ---- stat ---------------------------------------------------------------- */

/* stat: the terminal's table of the metrics (stat_table_model). */
void html_stat_table(const struct html_ctx *c, struct strbuf *out)
{
	struct table_opts o = { 0 };
	struct texttable t;

	if (c->r->nvariants != 1)
		return;
	stat_table_model(c->r, &c->an, 0, &o, &t);
	html_texttable(out, &t, "stat");
	texttable_release(&t);
}

/* ---- profile ------------------------------------------------------------- */

/* The profile's tables are the terminal's (attribution.c, allocsites.c
 * build them; html_texttable draws them), with the page's headings. */
static void difference(const struct result *r, const struct attribution *at, struct strbuf *out)
{
	struct unit_scale us = unit_pick("ns", fmax(at->total_a, at->total_b) / 10);
	struct texttable t;

	strbuf_adds(out, "<h3>Where the difference is: ");
	html_text(out, r->variants[at->variant].name);
	strbuf_adds(out, " vs ");
	html_text(out, r->variants[r->baseline].name);
	strbuf_addf(out, "</h3>\n<p>%zu paired blocks; profiled time ", at->blocks);
	html_value(out, &us, at->total_a);
	strbuf_adds(out, " → ");
	html_value(out, &us, at->total_b);
	strbuf_adds(out, " per run");
	if (isfinite(at->dwall)) {
		struct unit_scale uw = unit_pick("ns", at->dwall);

		strbuf_adds(out, ", wall-time ");
		strbuf_adds(out, at->dwall >= 0 ? "+" : "");
		html_value(out, &uw, at->dwall);
	}
	strbuf_adds(out, ". Self time: the function's own code.</p>\n");
	attribution_fns_table(r, at, 0, &t);
	html_texttable(out, &t, "profile diff");
	texttable_release(&t);
	if (at->nincl) {
		strbuf_adds(out, "<h4>Inclusive time (the function and all it calls)</h4>\n");
		attribution_fns_table(r, at, 1, &t);
		html_texttable(out, &t, "profile diff incl");
		texttable_release(&t);
	}
	if (at->nuncertain)
		strbuf_addf(out, "<p class=\"note\">%zu function%s left out of the inclusive "
			    "table: call chains cut short above them could hide more than 5%% of "
			    "their time.</p>\n", at->nuncertain, at->nuncertain == 1 ? "" : "s");
}

static void time_goes(const struct analysed *a, struct strbuf *out)
{
	struct texttable t;
	size_t nruns = attribution_top_table(a, &t);

	if (!nruns)
		return;
	strbuf_addf(out, "<h3>Where the time goes</h3>\n<p>Self time per run, mean over %zu "
		    "profiled runs%s.</p>\n", nruns,
		    t.ncols == 5 ? "; total: with all it calls" : "");
	html_texttable(out, &t, "profile top");
	texttable_release(&t);
}

/* Allocations by call site: per variant against the baseline (compare) or
 * the top sites (stat), from the traced runs. */
static void allocation_sites(const struct analysed *an, struct strbuf *out)
{
	const struct result *r = an->r;

	for (size_t v = 0; v < r->nvariants; v++) {
		const struct allocsite_table *a = &an->sites[v];
		struct texttable t;
		int compare = r->nvariants > 1;

		if (compare && (int)v == r->baseline)
			continue;
		if (!a->runs_b || (compare && !a->runs_a))
			continue;
		strbuf_adds(out, "<h3>Allocations by call site");
		if (compare) {
			strbuf_adds(out, ": ");
			html_text(out, r->variants[v].name);
			strbuf_adds(out, " vs ");
			html_text(out, r->variants[r->baseline].name);
		}
		if (compare)
			strbuf_addf(out, "</h3>\n<p>From %zu and %zu traced runs (not timed): the "
				    "exact change per run of the sites whose counts changed, largest "
				    "change of calls first.</p>\n", a->runs_b, a->runs_a);
		else
			strbuf_addf(out, "</h3>\n<p>From %zu traced run%s (not timed): exact counts "
				    "per run, most calls first.</p>\n", a->runs_b,
				    a->runs_b == 1 ? "" : "s");
		if (allocsites_table(r, a, &t))
			html_texttable(out, &t, "allocsites");
		else
			strbuf_adds(out, "<p>No call site changed: the same calls, bytes and "
					 "temporaries.</p>\n");
		texttable_release(&t);
	}
}

/* Cachegrind's counts per function: the terminal's table. */
static void simulated(const struct analysed *a, struct strbuf *out)
{
	const struct result *r = a->r;
	int any = 0;

	for (size_t v = 0; r->nvariants >= 2 && v < r->nvariants; v++) {
		struct texttable t;

		if (!a->sim[v].n)
			continue;
		any = 1;
		strbuf_adds(out, "<h3>Where the simulated difference is: ");
		html_text(out, r->variants[v].name);
		strbuf_adds(out, " vs ");
		html_text(out, r->variants[r->baseline].name);
		strbuf_adds(out, "</h3>\n");
		sim_attribution_table(a, v, &t);
		html_texttable(out, &t, "profile sim");
		texttable_release(&t);
	}
	if (any)
		strbuf_adds(out, "<p class=\"legend\">Cachegrind's counts per function, per "
				 "simulated run: a model, exact, not this CPU's; no interval "
				 "needed.</p>\n");
}

void html_profile(const struct html_ctx *c, struct strbuf *out)
{
	if (c->r->nvariants < 2) {
		time_goes(c->a, out);
		allocation_sites(c->a, out);
		return;
	}
	for (size_t i = 0; i < c->at.n; i++)
		difference(c->r, &c->at.a[i], out);
	if (c->at.n)
		strbuf_adds(out, "<p class=\"legend\">Self time per run, from samples; each "
				 "variant's run paired with the baseline's of the same block; "
				 "* = Holm-adjusted p &lt; 0.05 across the functions shown.</p>\n");
	allocation_sites(c->a, out);
	simulated(c->a, out);
}
