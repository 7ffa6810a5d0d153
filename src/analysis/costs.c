/*
 * Mechanism costs from the runs (costs.h): the paired instrumented runs of
 * each perturbing mechanism, and the estimate for the region markers.
 */
#include "analysis/costs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

/* The timed runs' wall time and the cost metric's, paired run by run. */
static size_t cost_pairs(const struct result *r, size_t m, size_t v, double *a, double *b)
{
	int wall = result_metric_index(r, "wall-time");
	double last = 0;
	size_t n = 0;

	for (size_t i = 0; wall >= 0 && i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];

		if ((size_t)run->variant != v || run->status != RUN_OK)
			continue;
		if (!run->instrumented && !run->simulated && !run->traced && !run->warmup &&
		    run->values[wall].valid && run->values[wall].value > 0) {
			last = run->values[wall].value;
		} else if (run->instrumented && run->values[m].valid && last > 0 &&
			   run->values[m].value > 0) {
			a[n] = last;
			b[n++] = run->values[m].value;
			last = 0;	/* one instrumented run per timed run */
		}
	}
	return n;
}

size_t mechanism_cost(const struct result *r, size_t m, size_t v, struct stats_paired *out)
{
	double *a = xcalloc(r->nruns + 1, sizeof(double));
	double *b = xcalloc(r->nruns + 1, sizeof(double));
	size_t n = cost_pairs(r, m, v, a, b);

	memset(out, 0, sizeof(*out));
	if (n)
		stats_paired_ratio(a, b, n, 0.95, out, NULL);
	free(a);
	free(b);
	return n;
}

/* A run's region entries: its REGION:entries metrics, summed. */
static double run_entries(const struct result *r, const struct result_run *run)
{
	size_t elen = strlen(REGION_ENTRIES);
	double n = 0;

	for (size_t m = 0; m < r->nmetrics; m++) {
		const char *name = r->metrics[m].name;
		size_t len = strlen(name);

		if (r->metrics[m].source == MSRC_REGION && len > elen &&
		    !strcmp(name + len - elen, REGION_ENTRIES) && run->values[m].valid)
			n += run->values[m].value;
	}
	return n;
}

size_t region_cost(const struct result *r, size_t v, struct region_cost *out)
{
	int wall = result_metric_index(r, "wall-time");
	int cost = result_metric_index(r, REGION_COST_METRIC);
	double w = 0, x = 0, e = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; wall >= 0 && cost >= 0 && i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];
		double n;

		if ((size_t)run->variant != v || run->status != RUN_OK || run->warmup ||
		    run->instrumented || run->simulated || run->traced ||
		    !run->values[wall].valid || !run->values[cost].valid)
			continue;
		n = run_entries(r, run);
		out->entry_ns = run->values[cost].value;
		w += run->values[wall].value;
		x += n * out->entry_ns;
		e += n;
		out->runs++;
	}
	if (out->runs) {
		out->entries = e / (double)out->runs;
		out->ratio = x < w ? w / (w - x) : NAN;
	}
	return out->runs;
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

size_t mechanism_costs_compute(const struct result *r, struct mechanism_cost_row **out)
{
	size_t plen = strlen(COST_METRIC_PREFIX), n = 0;
	struct mechanism_cost_row *rows = NULL;

	for (size_t m = 0; m < r->nmetrics; m++) {
		if (strncmp(r->metrics[m].name, COST_METRIC_PREFIX, plen))
			continue;
		for (size_t v = 0; v < r->nvariants; v++) {
			struct stats_paired p;
			size_t k = mechanism_cost(r, m, v, &p);

			if (!k)
				continue;
			rows = xrealloc(rows, (n + 1) * sizeof(*rows));
			rows[n++] = (struct mechanism_cost_row){ m, v, k, p };
		}
	}
	*out = rows;
	return n;
}

json_t *mechanism_costs_json(const struct result *r, const struct mechanism_cost_row *rows,
			     size_t n, const struct region_cost *regions)
{
	size_t plen = strlen(COST_METRIC_PREFIX);
	json_t *a = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct result_metric *m = &r->metrics[rows[i].metric];
		const struct stats_paired *p = &rows[i].p;

		if (!a)
			a = json_array();
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:I, s:o, s:o, s:o}",
			"mechanism", m->name + plen, "metric", m->name,
			"variant", r->variants[rows[i].variant].name,
			"pairs", (json_int_t)rows[i].pairs, "ratio", num_or_null(p->ratio),
			"ci_low", num_or_null(rows[i].pairs >= 2 ? p->ci_lo : NAN),
			"ci_high", num_or_null(rows[i].pairs >= 2 ? p->ci_hi : NAN)));
	}
	for (size_t v = 0; regions && v < r->nvariants; v++) {
		const struct region_cost *rc = &regions[v];

		if (!rc->runs)
			continue;
		if (!a)
			a = json_array();
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:I, s:o, s:n, s:n, s:f, s:f}",
			"mechanism", "regions", "metric", REGION_COST_METRIC,
			"variant", r->variants[v].name, "pairs", (json_int_t)rc->runs,
			"ratio", num_or_null(rc->ratio), "ci_low", "ci_high",
			"entries", rc->entries, "entry_ns", rc->entry_ns));
	}
	return a;
}
