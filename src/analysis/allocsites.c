/*
 * Computing and rendering allocations by call site (see allocsites.h).
 * Sites are ranked by the size of their change in calls (stat: by calls);
 * the first ALLOCSITES_MAX with any change are shown, so a site that did
 * not change never pushes out one that did.
 */
#include "analysis/allocsites.h"
#include "report/names.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/printable.h"
#include "core/sort.h"
#include "result/json.h"
#include "report/texttable.h"

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

static void signed_count(struct texttable *t, size_t row, size_t col, double d)
{
	texttable_set(t, row, col, "%+.0f", d);
}

static const char *const site_classes[] = { "site", "num", "num", "num", "num", "num" };
static const char *const stat_classes[] = { "site", "num", "num", "num", "where" };

size_t allocsites_table(const struct result *r, const struct allocsite_table *t,
			struct texttable *tt)
{
	int compare = r->nvariants > 1;
	size_t row, shown = 0;

	texttable_init(tt, compare ? 6 : 5, compare ? "lrrrrr" : "lrrrl");
	tt->classes = compare ? site_classes : stat_classes;
	row = texttable_row(tt);
	texttable_set(tt, row, 0, "call site (innermost first)");
	if (compare) {
		texttable_set(tt, row, 1, "baseline calls");
		texttable_set(tt, row, 2, "calls");
		texttable_set(tt, row, 3, "Δ calls");
		texttable_set(tt, row, 4, "Δ bytes");
		texttable_set(tt, row, 5, "Δ temporaries");
	} else {
		texttable_set(tt, row, 1, "calls");
		texttable_set(tt, row, 2, "bytes");
		texttable_set(tt, row, 3, "temporaries");
		texttable_set(tt, row, 4, "where");
	}
	for (size_t i = 0; i < t->n && shown < ALLOCSITES_MAX; i++) {
		const struct allocsite_row *s = &t->row[i];
		struct strbuf k = STRBUF_INIT, w = STRBUF_INIT;

		if (compare && s->b[0] == s->a[0] && s->b[1] == s->a[1] && s->b[2] == s->a[2])
			continue;
		row = texttable_row(tt);
		site_short(&k, s->key, SITE_COLUMN_MAX);
		texttable_set(tt, row, 0, "%s", k.buf ? k.buf : "");
		texttable_title(tt, row, 0, s->key);
		if (compare) {
			texttable_set(tt, row, 1, "%.0f", s->a[0]);
			texttable_set(tt, row, 2, "%.0f", s->b[0]);
			signed_count(tt, row, 3, s->b[0] - s->a[0]);
			signed_count(tt, row, 4, s->b[1] - s->a[1]);
			signed_count(tt, row, 5, s->b[2] - s->a[2]);
		} else {
			texttable_set(tt, row, 1, "%.0f", s->b[0]);
			texttable_set(tt, row, 2, "%.0f", s->b[1]);
			texttable_set(tt, row, 3, "%.0f", s->b[2]);
			where_short(&w, s->origin ? s->origin : "", WHERE_COLUMN_MAX);
			texttable_set(tt, row, 4, "%s", w.buf ? w.buf : "");
			texttable_title(tt, row, 4, s->origin);
		}
		strbuf_release(&k);
		strbuf_release(&w);
		shown++;
	}
	return shown;
}

static void render_compare(const struct result *r, const struct allocsite_table *t,
			   struct strbuf *out)
{
	struct strbuf pa = STRBUF_INIT, pb = STRBUF_INIT;
	struct texttable tt;

	strbuf_addf(out, "  %s vs %s (%zu and %zu traced runs):\n",
		    printable_in(&pb, r->variants[t->variant].name),
		    printable_in(&pa, r->variants[r->baseline].name), t->runs_b, t->runs_a);
	strbuf_release(&pa);
	strbuf_release(&pb);
	if (allocsites_table(r, t, &tt))
		texttable_render(&tt, 4, out);
	else
		strbuf_adds(out, "    no call site changed: the same calls, bytes and temporaries\n");
	texttable_release(&tt);
}

static void render_stat(const struct result *r, const struct allocsite_table *t,
			struct strbuf *out)
{
	struct texttable tt;

	allocsites_table(r, t, &tt);
	texttable_render(&tt, 2, out);
	texttable_release(&tt);
}

void report_allocsites(const struct result *r, const struct table_opts *o, struct strbuf *out)
{
	int header = 0;

	(void)o;
	if (r->nvariants == 1) {
		struct allocsite_table t;

		allocsites_compute(r, 0, &t);
		if (t.runs_b && t.n) {
			strbuf_addf(out, "\nallocations by call site (%zu traced run%s, not timed; "
				    "exact counts per run):\n", t.runs_b, t.runs_b == 1 ? "" : "s");
			render_stat(r, &t, out);
		} else if (t.runs_b) {
			strbuf_addf(out, "\nallocations by call site: none (no allocating call in "
				    "%zu traced run%s)\n", t.runs_b, t.runs_b == 1 ? "" : "s");
		}
		allocsites_release(&t);
		return;
	}
	for (size_t v = 0; v < r->nvariants; v++) {
		struct allocsite_table t;

		if ((int)v == r->baseline)
			continue;
		allocsites_compute(r, v, &t);
		if (t.runs_a && t.runs_b) {
			if (!header++)
				strbuf_adds(out, "\nallocations by call site (traced runs, not timed; "
						 "exact change per run, largest change of calls first):\n");
			render_compare(r, &t, out);
		}
		allocsites_release(&t);
	}
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

json_t *allocsites_json(const struct result *r)
{
	json_t *arr = json_array();

	for (size_t v = 0; v < r->nvariants; v++) {
		int compare = r->nvariants > 1;
		struct allocsite_table t;
		json_t *sites;

		if (r->nvariants > 1 && (int)v == r->baseline)
			continue;
		allocsites_compute(r, v, &t);
		if (!t.runs_b || (compare && !t.runs_a)) {
			allocsites_release(&t);
			continue;
		}
		sites = json_array();
		for (size_t i = 0; i < t.n && i < ALLOCSITES_MAX; i++)
			json_array_append_new(sites, row_json(&t.row[i], compare));
		json_array_append_new(arr, json_pack("{s:o, s:o, s:I, s:I, s:o}", "variant",
			report_json_text(r->variants[v].name), "baseline",
			compare ? report_json_text(r->variants[r->baseline].name) : json_null(),
			"traced_runs", (json_int_t)t.runs_b, "baseline_traced_runs",
			(json_int_t)t.runs_a, "sites", sites));
		allocsites_release(&t);
	}
	if (!json_array_size(arr)) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}
