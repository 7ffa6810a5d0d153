/*
 * Building the analysed model (analysed.h): each part computed by its own
 * analysis function, once, in the order the renderers read them.
 */
#include "analysis/analysed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void profile_parts(const struct result *r, struct analysed *a)
{
	size_t nv = r->nvariants;

	a->ntop = attribution_top(r, &a->top, &a->top_runs, &a->top_total);
	for (size_t m = 0; m < r->nmetrics && !a->chains; m++)
		a->chains = !strncmp(r->metrics[m].name, PROFILE_INCL, strlen(PROFILE_INCL));
	a->profiled = xcalloc(r->nruns + 1, sizeof(size_t));
	for (size_t i = 0; i < r->nruns; i++)
		if (attribution_run_profiled(r, &r->runs[i]))
			a->profiled[a->nprofiled++] = i;
	if (nv < 2)
		return;
	attribution_compute(r, &a->at);
	a->pairs = xcalloc(nv, sizeof(*a->pairs));
	a->sim = xcalloc(nv, sizeof(*a->sim));
	for (size_t v = 0; v < nv; v++) {
		if ((int)v != r->baseline)
			attribution_pairs(r, v, &a->pairs[v]);
		sim_attribution_compute(r, v, &a->sim[v]);
	}
}

static void alloc_parts(const struct result *r, struct analysed *a)
{
	a->sites = xcalloc(r->nvariants + 1, sizeof(*a->sites));
	for (size_t v = 0; v < r->nvariants; v++)
		if (r->nvariants == 1 || (int)v != r->baseline)
			allocsites_compute(r, v, &a->sites[v]);
}

void analysed_build(const struct result *r, struct analysed *a)
{
	memset(a, 0, sizeof(*a));
	a->r = r;
	strbuf_init(&a->noise_text);
	strbuf_init(&a->noise_hint);
	a->noise = (struct comparison_noise){ NAN, NAN, NAN, NAN, 0 };
	analysis_compute(r, &a->an);
	if (r->nvariants >= 2) {
		comparisons_compute(r, &a->cmp);
		comparisons_noise(r, &a->cmp, &a->noise);
		comparisons_noise_note(r, &a->noise, &a->noise_text, &a->noise_hint);
	}
	warnings_build(r, &a->an, r->nvariants >= 2 ? &a->cmp : NULL, &a->warnings);
	profile_parts(r, a);
	alloc_parts(r, a);
	a->ncosts = mechanism_costs_compute(r, &a->costs);
	a->regions = xcalloc(r->nvariants + 1, sizeof(*a->regions));
	for (size_t v = 0; v < r->nvariants; v++)
		region_cost(r, v, &a->regions[v]);
}

void analysed_release(struct analysed *a)
{
	const struct result *r = a->r;

	if (!r)
		return;
	warnings_release(&a->warnings);
	analysis_release(&a->an);
	if (r->nvariants >= 2)
		comparisons_release(&a->cmp);
	strbuf_release(&a->noise_text);
	strbuf_release(&a->noise_hint);
	attribution_release(&a->at);
	free(a->top);
	free(a->profiled);
	for (size_t v = 0; a->pairs && v < r->nvariants; v++)
		attribution_pairs_release(&a->pairs[v]);
	free(a->pairs);
	for (size_t v = 0; a->sim && v < r->nvariants; v++)
		sim_attribution_release(&a->sim[v]);
	free(a->sim);
	for (size_t v = 0; a->sites && v < r->nvariants; v++)
		allocsites_release(&a->sites[v]);
	free(a->sites);
	free(a->costs);
	free(a->regions);
	memset(a, 0, sizeof(*a));
}

json_t *analysed_json(const struct analysed *a)
{
	const struct result *r = a->r;
	json_t *doc = json_object(), *x;

	json_object_set_new(doc, "summaries", analysis_summaries_json(r, &a->an));
	json_object_set_new(doc, "warning_groups", warnings_json(&a->warnings));
	if (r->nvariants >= 2)
		json_object_set_new(doc, "comparisons", comparisons_json(r, &a->cmp, &a->noise));
	if (r->nvariants >= 2 && (x = attribution_json(r, &a->at)))
		json_object_set_new(doc, "attribution", x);
	if (r->nvariants >= 2 && (x = sim_attribution_json(r, a->sim)))
		json_object_set_new(doc, "sim_attribution", x);
	if ((x = allocsites_json(r, a->sites)))
		json_object_set_new(doc, "alloc_sites", x);
	if ((x = mechanism_costs_json(r, a->costs, a->ncosts, a->regions)))
		json_object_set_new(doc, "mechanism_costs", x);
	return doc;
}
