/*
 * Computing allocations by call site (see allocsites.h).
 * Sites are ranked by the size of their change in calls (stat: by calls);
 * the first ALLOCSITES_MAX with any change are shown, so a site that did
 * not change never pushes out one that did.
 */
#include "analysis/allocsites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "result/json.h"

static const char *const prefixes[3] = { ALLOC_CALLS, ALLOC_BYTES, ALLOC_TEMPS };

static int traced_ok(const struct result_run *run, int marker)
{
	return run->traced && (run->status == RUN_OK || run->status == RUN_FAILED) &&
	       run->values[marker].valid;
}

static size_t traced_runs(const struct result *r, size_t v, int marker, size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nruns; i++)
		if ((size_t)r->runs[i].variant == v && traced_ok(&r->runs[i], marker))
			idx[n++] = i;
	return n;
}

/* Mean of metric m over the runs; a run without a value had 0. */
static double mean_or_zero(const struct result *r, const size_t *idx, size_t n, int m)
{
	double s = 0;

	if (m < 0 || !n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (r->runs[idx[i]].values[m].valid)
			s += r->runs[idx[i]].values[m].value;
	return s / (double)n;
}

static int site_metric(const struct result *r, size_t k, const char *key)
{
	struct strbuf name = STRBUF_INIT;
	int m;

	strbuf_addf(&name, "%s%s", prefixes[k], key);
	m = result_metric_index(r, name.buf);
	strbuf_release(&name);
	return m;
}

static int by_rank(const void *x, const void *y)
{
	double a = ((const struct allocsite_row *)x)->rank;
	double b = ((const struct allocsite_row *)y)->rank;
	int c = (a < b) - (a > b);

	return c ? c : strcmp(((const struct allocsite_row *)x)->key,
			      ((const struct allocsite_row *)y)->key);
}

int allocsites_compute(const struct result *r, size_t v, struct allocsite_table *out)
{
	int marker = result_metric_index(r, ALLOC_SITES);
	size_t base = (size_t)r->baseline, *ia, *ib;
	size_t plen = strlen(ALLOC_CALLS);

	memset(out, 0, sizeof(*out));
	out->variant = v;
	if (marker < 0)
		return 0;
	ia = xcalloc(r->nruns + 1, sizeof(size_t));
	ib = xcalloc(r->nruns + 1, sizeof(size_t));
	out->runs_b = traced_runs(r, v, marker, ib);
	out->runs_a = v == base ? 0 : traced_runs(r, base, marker, ia);
	out->row = xcalloc(r->nmetrics + 1, sizeof(*out->row));
	for (size_t m = 0; m < r->nmetrics && (out->runs_a || out->runs_b); m++) {
		struct allocsite_row *row = &out->row[out->n];

		if (r->metrics[m].source != MSRC_PROFILE || strncmp(r->metrics[m].name, ALLOC_CALLS, plen))
			continue;
		row->key = r->metrics[m].name + plen;
		row->origin = r->metrics[m].origin;
		for (size_t k = 0; k < 3; k++) {
			int mk = site_metric(r, k, row->key);

			row->a[k] = mean_or_zero(r, ia, out->runs_a, mk);
			row->b[k] = mean_or_zero(r, ib, out->runs_b, mk);
		}
		row->rank = v == base ? row->b[0] : fabs(row->b[0] - row->a[0]);
		out->n++;
	}
	sort_n(out->row, out->n, sizeof(*out->row), by_rank);
	free(ia);
	free(ib);
	return 0;
}

void allocsites_release(struct allocsite_table *t)
{
	free(t->row);
	memset(t, 0, sizeof(*t));
}

static json_t *row_json(const struct allocsite_row *s, int compare)
{
	static const char *const names[3] = { "calls", "bytes", "temporaries" };
	json_t *o = json_object();

	json_object_set_new(o, "site", report_json_text(s->key));
	if (s->origin)
		json_object_set_new(o, "where", report_json_text(s->origin));
	for (size_t k = 0; k < 3; k++)
		json_object_set_new(o, names[k], compare
			? json_pack("{s:f, s:f, s:f}", "baseline", s->a[k], "variant", s->b[k],
				    "delta", s->b[k] - s->a[k])
			: json_real(s->b[k]));
	return o;
}

json_t *allocsites_json(const struct result *r, const struct allocsite_table *sites)
{
	json_t *arr = json_array();

	for (size_t v = 0; v < r->nvariants; v++) {
		int compare = r->nvariants > 1;
		const struct allocsite_table *t = &sites[v];
		json_t *s;

		if (r->nvariants > 1 && (int)v == r->baseline)
			continue;
		if (!t->runs_b || (compare && !t->runs_a))
			continue;
		s = json_array();
		for (size_t i = 0; i < t->n && i < ALLOCSITES_MAX; i++)
			json_array_append_new(s, row_json(&t->row[i], compare));
		json_array_append_new(arr, json_pack("{s:o, s:o, s:I, s:I, s:o}", "variant",
			report_json_text(r->variants[v].name), "baseline",
			compare ? report_json_text(r->variants[r->baseline].name) : json_null(),
			"traced_runs", (json_int_t)t->runs_b, "baseline_traced_runs",
			(json_int_t)t->runs_a, "sites", s));
	}
	if (!json_array_size(arr)) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}
