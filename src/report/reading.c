/*
 * The demo's reading (see reading.h). Every figure in it comes from the
 * comparisons and the attribution of the result, so a re-rendered result
 * reads the same as the campaign did.
 */
#include "report/reading.h"

#include <math.h>
#include <string.h>

#include "analysis/allocsites.h"
#include "analysis/attribution.h"
#include "analysis/comparison.h"

static const struct comparison *find_cmp(const struct result *r, const struct comparison_set *s,
					 const char *metric, size_t v)
{
	int m = result_metric_index(r, metric);

	return m < 0 ? NULL : comparisons_find(s, (size_t)m, v);
}

static void say_change(struct strbuf *sb, const struct result *r, const struct comparison *c,
		       const char *what)
{
	double pct = 100 * (c->ratio - 1);

	if (c->method == CMP_NONE || !isfinite(c->ratio))
		return;
	strbuf_addf(sb, "; %s %+.1f%%", what, pct);
	if (c->method != CMP_EXACT && isfinite(c->ci_lo))
		strbuf_addf(sb, " [%+.1f%%, %+.1f%%]", 100 * (c->ci_lo - 1), 100 * (c->ci_hi - 1));
	strbuf_addf(sb, " (%s)", comparison_verdict_word(r, c));
}

/* "f +1.2 ms (30% of the change), g ..." for the significant functions of
 * fns, at most max; the number named. */
static int name_fns(struct strbuf *sb, const struct result *r, const struct attribution_fn *fns,
		    size_t n, int max)
{
	int shown = 0;

	for (size_t k = 0; k < n && shown < max; k++) {
		const char *name = strchr(r->metrics[fns[k].metric].name, ':') + 1;

		if (!fns[k].significant)
			continue;
		strbuf_addf(sb, "%s%s %+.1f ms", shown ? ", " : "", name, fns[k].delta / 1e6);
		if (isfinite(fns[k].share))
			strbuf_addf(sb, " (%.0f%% of the change)", 100 * fns[k].share);
		shown++;
	}
	return shown;
}

/* Where the variant's time went, from its profile: the functions whose
 * self time changed significantly, largest first, and the callers whose
 * inclusive time did — measured, not guessed. */
static void say_where(const struct result *r, const struct attribution_set *at, size_t v,
		      struct strbuf *out)
{
	for (size_t i = 0; i < at->n; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (at->a[i].variant != v)
			continue;
		if (name_fns(&sb, r, at->a[i].fn, at->a[i].nfn, 4))
			strbuf_addf(out, "    -> the time changed in: %s\n", sb.buf);
		else
			strbuf_adds(out, "    -> no function's self time changed significantly (see "
					 "the profile section above)\n");
		strbuf_reset(&sb);
		if (name_fns(&sb, r, at->a[i].incl, at->a[i].nincl, 3))
			strbuf_addf(out, "       under (inclusive time): %s\n", sb.buf);
		strbuf_release(&sb);
	}
}

/* The functions whose simulated instructions changed most (cachegrind's
 * model, exact per function), from the result's sim attribution. */
static void say_sim_where(const struct result *r, json_t *sim, size_t v, struct strbuf *out)
{
	json_t *e, *f;
	size_t i, k;

	json_array_foreach(sim, i, e) {
		struct strbuf sb = STRBUF_INIT;
		int shown = 0;

		if (strcmp(json_string_value(json_object_get(e, "variant")), r->variants[v].name))
			continue;
		json_array_foreach(json_object_get(e, "functions"), k, f) {
			json_t *in = json_object_get(f, "instructions");
			double d = json_real_value(json_object_get(in, "delta"));

			if (shown == 3 || d == 0)
				break;
			strbuf_addf(&sb, "%s%s %+.0f", shown++ ? ", " : "",
				    json_string_value(json_object_get(f, "function")), d);
		}
		if (shown)
			strbuf_addf(out, "       simulated instructions per run changed in: %s\n",
				    sb.buf);
		strbuf_release(&sb);
	}
}

/* The call sites whose allocations changed most (exact counts of the
 * traced runs): where the allocations came from, or went. */
static void say_sites(const struct result *r, size_t v, struct strbuf *out)
{
	struct allocsite_table t;
	struct strbuf sb = STRBUF_INIT;
	int shown = 0;

	allocsites_compute(r, v, &t);
	if (!t.runs_a || !t.runs_b) {
		allocsites_release(&t);
		return;
	}
	for (size_t i = 0; i < t.n && shown < 2; i++) {
		const struct allocsite_row *row = &t.row[i];
		double d = row->b[0] - row->a[0];

		if (d == 0)
			break;
		/* the whole site, innermost first: "heap_alloc<lc_new<bool_lc<..." */
		strbuf_addf(&sb, "%s%s %+.0f calls (%+.0f temporary)", shown++ ? "; " : "",
			    row->key, d, row->b[2] - row->a[2]);
	}
	if (shown)
		strbuf_addf(out, "       allocations per run changed at: %s\n", sb.buf);
	strbuf_release(&sb);
	allocsites_release(&t);
}

void report_demo_reading(const struct result *r, double rows, struct strbuf *out)
{
	struct comparison_set s;
	const struct comparison *any = NULL;
	struct attribution_set at;
	json_t *sim = sim_attribution_json(r);

	comparisons_compute(r, &s);
	attribution_compute(r, &at);
	strbuf_addf(out, "\nReading (each variant against %s):\n", r->variants[r->baseline].name);
	for (size_t v = 0; v < r->nvariants; v++) {
		const struct comparison *t = find_cmp(r, &s, "wall-time", v);
		const struct comparison *al = find_cmp(r, &s, "allocs", v);
		const struct comparison *in = find_cmp(r, &s, "instructions", v);
		const struct comparison *ll = find_cmp(r, &s, "llc-misses", v);

		if ((int)v == r->baseline || !t)
			continue;
		any = t;
		strbuf_addf(out, "  %s: %s", r->variants[v].name, comparison_verdict_word(r, t));
		if (isfinite(t->ratio) && isfinite(t->ci_lo) && isfinite(t->ci_hi))
			strbuf_addf(out, ", wall time %+.1f%% [%+.1f%%, %+.1f%%] (n %zu)",
				    100 * (t->ratio - 1), 100 * (t->ci_lo - 1), 100 * (t->ci_hi - 1),
				    t->n);
		else if (isfinite(t->ratio))
			strbuf_addf(out, ", wall time %+.1f%% [unbounded] (n %zu)",
				    100 * (t->ratio - 1), t->n);
		if (al && isfinite(rows) && rows > 0 && isfinite(al->mean_b))
			strbuf_addf(out, "; %.2f allocations per constraint vs %.2f",
				    al->mean_b / rows, al->mean_a / rows);
		if (in)
			say_change(out, r, in, "instructions");
		if (ll)
			say_change(out, r, ll, "llc-misses");
		strbuf_addch(out, '\n');
		say_where(r, &at, v, out);
		if (sim)
			say_sim_where(r, sim, v, out);
		say_sites(r, v, out);
	}
	if (!any)
		strbuf_adds(out, "  (no comparison of wall-time: see the notes above)\n");
	attribution_release(&at);
	comparisons_release(&s);
	json_decref(sim);
}
