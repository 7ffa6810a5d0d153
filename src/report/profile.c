/*
 * The profile's sections of the text tables: "where the time goes" (stat
 * --profile), "where the difference is" (compare --profile, per function,
 * self and inclusive time), cachegrind's counts per function, and
 * allocations by call site — each as one table model (report/texttable.h)
 * that the terminal and the HTML page both draw. Pure: the analysed model
 * in, text out; the numbers are the model's (analysis/attribution.c,
 * analysis/allocsites.c).
 */
#include "report/profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/printable.h"
#include "report/names.h"

/* ---- where the difference is ------------------------------------------- */

static void ms(struct strbuf *sb, double ns, int sign)
{
	strbuf_addf(sb, sign ? "%+.1f" : "%.1f", ns / 1e6);
}

static const char *const fns_classes[] = { "fn", "where", NULL, NULL, NULL, NULL, NULL, NULL };

void attribution_fns_table(const struct result *r, const struct attribution *at, int incl,
			   struct texttable *t)
{
	const struct attribution_fn *fns = incl ? at->incl : at->fn;
	size_t n = incl ? at->nincl : at->nfn, row;

	texttable_init(t, 8, "llrrrrrr");
	t->classes = fns_classes;
	row = texttable_row(t);
	texttable_set(t, row, 0, "function");
	texttable_set(t, row, 1, "where");
	texttable_set(t, row, 2, "%s ms", r->variants[r->baseline].name);
	texttable_set(t, row, 3, "%s ms", r->variants[at->variant].name);
	texttable_set(t, row, 4, "Δ ms");
	texttable_set(t, row, 5, "95%% CI of Δ");
	texttable_set(t, row, 6, "share");
	texttable_set(t, row, 7, "p (Holm)");
	for (size_t i = 0; i < n; i++) {
		const struct attribution_fn *f = &fns[i];
		struct strbuf d = STRBUF_INIT, ci = STRBUF_INIT, fn = STRBUF_INIT, w = STRBUF_INIT;

		name_short(&fn, attribution_fn_name(r, f->metric), NAME_COLUMN_MAX);
		where_short(&w, attribution_fn_origin(r, f->metric), WHERE_COLUMN_MAX);
		ms(&d, f->delta, 1);
		strbuf_adds(&ci, "[");
		ms(&ci, f->lo, 1);
		strbuf_adds(&ci, ", ");
		ms(&ci, f->hi, 1);
		strbuf_adds(&ci, "]");
		row = texttable_row(t);
		texttable_set(t, row, 0, "%s%s", fn.buf ? fn.buf : "", f->significant ? " *" : "");
		texttable_title(t, row, 0, attribution_fn_name(r, f->metric));
		texttable_set(t, row, 1, "%s", w.buf ? w.buf : "");
		texttable_title(t, row, 1, attribution_fn_origin(r, f->metric));
		texttable_set(t, row, 2, "%.1f", f->mean_a / 1e6);
		texttable_set(t, row, 3, "%.1f", f->mean_b / 1e6);
		texttable_set(t, row, 4, "%s", d.buf);
		texttable_set(t, row, 5, "%s", ci.buf);
		if (isfinite(f->share))
			texttable_set(t, row, 6, "%.0f%%", 100 * f->share);
		texttable_set(t, row, 7, "%.2g", f->p_holm);
		strbuf_release(&d);
		strbuf_release(&ci);
		strbuf_release(&fn);
		strbuf_release(&w);
	}
}

static void render_fns(const struct result *r, const struct attribution *at, int incl,
		       struct strbuf *out)
{
	struct texttable t;

	attribution_fns_table(r, at, incl, &t);
	texttable_render(&t, 4, out);
	texttable_release(&t);
}

static void render_variant(const struct result *r, const struct attribution *at,
			   struct strbuf *out)
{
	const char *base = r->variants[r->baseline].name, *name = r->variants[at->variant].name;
	struct strbuf pa = STRBUF_INIT, pb = STRBUF_INIT;

	strbuf_addf(out, "  %s vs %s (%zu blocks): profiled time %.1f -> %.1f ms per run",
		    printable_in(&pb, name), printable_in(&pa, base), at->blocks, at->total_a / 1e6,
		    at->total_b / 1e6);
	strbuf_release(&pa);
	strbuf_release(&pb);
	if (isfinite(at->dwall))
		strbuf_addf(out, ", wall-time %+.1f ms", at->dwall / 1e6);
	strbuf_addch(out, '\n');
	render_fns(r, at, 0, out);
	if (at->nincl) {
		strbuf_adds(out, "    inclusive time (the function and all it calls):\n");
		render_fns(r, at, 1, out);
	}
	if (at->nuncertain)
		strbuf_addf(out, "    (%zu function%s left out of the inclusive table: call chains cut "
			    "short above them could hide more than 5%% of their time)\n",
			    at->nuncertain, at->nuncertain == 1 ? "" : "s");
}

void report_attribution(const struct analysed *a, const struct table_opts *o, struct strbuf *out)
{
	(void)o;
	if (!a->at.n)
		return;
	strbuf_adds(out, "\nwhere the difference is (self time per run, from samples; "
			 "* = Holm-adjusted p < 0.05 across the functions shown):\n");
	for (size_t i = 0; i < a->at.n; i++)
		render_variant(a->r, &a->at.a[i], out);
}

static const char *const top_classes[] = { "fn", "where", NULL, NULL, NULL };
static const char *const top_head[] = { "function", "where", "self time", "share",
					"total (with all it calls)" };

size_t attribution_top_table(const struct analysed *a, struct texttable *tt)
{
	const struct result *r = a->r;
	const struct attribution_top *t = a->top;
	size_t n = a->ntop, nruns = a->top_runs;
	double total = a->top_total;
	int chains = a->chains;

	if (!n || total <= 0)
		return 0;
	texttable_init(tt, chains ? 5 : 4, chains ? "llrrr" : "llrr");
	tt->classes = top_classes;
	tt->head = top_head;
	for (size_t i = 0; i < n && i < ATTRIBUTION_MAX; i++) {
		size_t row = texttable_row(tt);
		const struct result_metric *m = &r->metrics[t[i].metric];
		struct strbuf fn = STRBUF_INIT, w = STRBUF_INIT;

		name_short(&fn, attribution_fn_name(r, t[i].metric), NAME_COLUMN_MAX);
		where_short(&w, m->origin ? m->origin : "", WHERE_COLUMN_MAX);
		texttable_set(tt, row, 0, "%s", fn.buf ? fn.buf : "");
		texttable_title(tt, row, 0, attribution_fn_name(r, t[i].metric));
		texttable_set(tt, row, 1, "%s", w.buf ? w.buf : "");
		texttable_title(tt, row, 1, m->origin);
		strbuf_release(&fn);
		strbuf_release(&w);
		texttable_set(tt, row, 2, "%.1f ms", t[i].mean / 1e6);
		texttable_set(tt, row, 3, "%.1f%%", 100 * t[i].mean / total);
		if (chains && isfinite(t[i].incl))
			texttable_set(tt, row, 4, "total %.1f ms", t[i].incl / 1e6);
	}
	return nruns;
}

void report_profile_top(const struct analysed *a, const struct table_opts *o, struct strbuf *out)
{
	struct texttable tt;
	size_t nruns = attribution_top_table(a, &tt);

	(void)o;
	if (!nruns)
		return;
	strbuf_addf(out, "\nwhere the time goes (self time per run%s, %zu profiled runs):\n",
		    tt.ncols == 5 ? "; total: with all it calls" : "", nruns);
	texttable_render(&tt, 2, out);
	texttable_release(&tt);
}

static void sim_delta(struct strbuf *sb, double a, double b)
{
	strbuf_addf(sb, "%+.0f", b - a);
	if (a > 0)
		strbuf_addf(sb, " (%+.1f%%)", 100 * (b - a) / a);
}

/* A function one side did not record (below 0.1% of its instructions):
 * no -100% or +inf, but the range the change lies in for instructions
 * ("-48000000..-43200000") and "<0.1%" for the counts no threshold
 * bounds. */
static void sim_delta_low(struct strbuf *sb, const struct sim_fn *f, size_t k,
			  const double *side_total)
{
	double bound = SIM_RECORDED_FRACTION * side_total[f->low_a ? 0 : 1];

	if (k != 0 || !isfinite(bound)) {
		strbuf_addf(sb, "? (%s <0.1%%)", f->low_a ? "baseline" : "variant");
		return;
	}
	if (f->low_b)
		strbuf_addf(sb, "%+.0f..%+.0f", -f->a[0], bound - f->a[0]);
	else
		strbuf_addf(sb, "%+.0f..%+.0f", f->b[0] - bound, f->b[0]);
}

static const char *const sim_classes[] = { "fn", NULL, NULL, NULL, NULL };

size_t sim_attribution_table(const struct analysed *a, size_t v, struct texttable *t)
{
	const struct sim_fn *f = a->sim[v].f;
	double total = a->sim[v].total;
	const double *side = a->sim[v].side;
	size_t n = a->sim[v].n, row, shown = 0;

	texttable_init(t, 5, "lrrrr");
	t->classes = sim_classes;
	row = texttable_row(t);
	texttable_set(t, row, 0, "function");
	for (size_t k = 0; k < SIM_NCOUNTS; k++)
		texttable_set(t, row, k + 1, "Δ %s", sim_count_names[k]);
	for (size_t i = 0; i < n && i < ATTRIBUTION_MAX; i++) {
		if (fabs(f[i].b[0] - f[i].a[0]) < ATTRIBUTION_SHOW_FRACTION * total / 10)
			break;
		struct strbuf fn = STRBUF_INIT;

		if (f[i].low_a && f[i].low_b)
			continue;
		row = texttable_row(t);
		name_short(&fn, f[i].key, NAME_COLUMN_MAX);
		texttable_set(t, row, 0, "%s", fn.buf ? fn.buf : "");
		texttable_title(t, row, 0, f[i].key);
		strbuf_release(&fn);
		for (size_t k = 0; k < SIM_NCOUNTS; k++) {
			struct strbuf d = STRBUF_INIT;

			if (f[i].low_a || f[i].low_b)
				sim_delta_low(&d, &f[i], k, side);
			else
				sim_delta(&d, f[i].a[k], f[i].b[k]);
			texttable_set(t, row, k + 1, "%s", d.buf);
			strbuf_release(&d);
		}
		shown++;
	}
	return shown;
}

void report_sim_attribution(const struct analysed *a, const struct table_opts *o,
			    struct strbuf *out)
{
	const struct result *r = a->r;
	int header = 0;

	(void)o;
	for (size_t v = 0; r->nvariants >= 2 && v < r->nvariants; v++) {
		struct strbuf pa = STRBUF_INIT, pb = STRBUF_INIT;
		struct texttable t;

		if (!a->sim[v].n)
			continue;
		if (!header++)
			strbuf_adds(out, "\nwhere the simulated difference is (cachegrind's counts per "
					 "function, per run: a model, exact, not this CPU's):\n");
		strbuf_addf(out, "  %s vs %s:\n", printable_in(&pb, r->variants[v].name),
			    printable_in(&pa, r->variants[r->baseline].name));
		strbuf_release(&pa);
		strbuf_release(&pb);
		sim_attribution_table(a, v, &t);
		texttable_render(&t, 4, out);
		texttable_release(&t);
	}
}

/* ---- allocations by call site ------------------------------------------ */

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

void report_allocsites(const struct analysed *a, const struct table_opts *o, struct strbuf *out)
{
	const struct result *r = a->r;
	int header = 0;

	(void)o;
	if (r->nvariants == 1) {
		const struct allocsite_table *t = &a->sites[0];

		if (t->runs_b && t->n) {
			strbuf_addf(out, "\nallocations by call site (%zu traced run%s, not timed; "
				    "exact counts per run):\n", t->runs_b, t->runs_b == 1 ? "" : "s");
			render_stat(r, t, out);
		} else if (t->runs_b) {
			strbuf_addf(out, "\nallocations by call site: none (no allocating call in "
				    "%zu traced run%s)\n", t->runs_b, t->runs_b == 1 ? "" : "s");
		}
		return;
	}
	for (size_t v = 0; v < r->nvariants; v++) {
		const struct allocsite_table *t = &a->sites[v];

		if ((int)v == r->baseline)
			continue;
		if (t->runs_a && t->runs_b) {
			if (!header++)
				strbuf_adds(out, "\nallocations by call site (traced runs, not timed; "
						 "exact change per run, largest change of calls first):\n");
			render_compare(r, t, out);
		}
	}
}
