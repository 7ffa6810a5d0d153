/*
 * Computing and rendering the attribution (see attribution.h). Which
 * functions are shown is decided before any test, from their size alone —
 * at least 1% of the profiled time of either side, or a change of at least
 * 1% of it — and then the largest changes, at most ATTRIBUTION_MAX: the
 * family Holm controls is the one on the screen.
 */
#include "analysis/attribution.h"
#include "analysis/chains.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/printable.h"
#include "core/sort.h"
#include "result/json.h"
#include "report/names.h"
#include "report/texttable.h"
#include "stats/diff.h"
#include "stats/sample.h"
#include "stats/tests.h"

#define SHOW_FRACTION 0.01

static int profiled(const struct result_run *run, int samples)
{
	return !run->warmup && !run->simulated && run->status == RUN_OK &&
	       run->values[samples].valid;
}

int attribution_run_profiled(const struct result *r, const struct result_run *run)
{
	int samples = result_metric_index(r, PROFILE_SAMPLES);

	return samples >= 0 && profiled(run, samples);
}

static void find_pairs(const struct result *r, size_t v, int samples, struct attribution_pairs *p)
{
	size_t base = (size_t)r->baseline;

	p->n = 0;
	p->ia = xcalloc(r->nruns + 1, sizeof(size_t));
	p->ib = xcalloc(r->nruns + 1, sizeof(size_t));
	/* Runs of one block are adjacent in the record: look only near i. */
	for (size_t i = 0; samples >= 0 && i < r->nruns; i++) {
		const struct result_run *a = &r->runs[i];

		if ((size_t)a->variant != base || !profiled(a, samples))
			continue;
		for (size_t j = i >= r->nvariants ? i - r->nvariants : 0;
		     j < r->nruns && j <= i + r->nvariants; j++) {
			const struct result_run *b = &r->runs[j];

			if ((size_t)b->variant == v && b->block == a->block && profiled(b, samples)) {
				p->ia[p->n] = i;
				p->ib[p->n++] = j;
				break;
			}
		}
	}
}

void attribution_pairs(const struct result *r, size_t v, struct attribution_pairs *p)
{
	find_pairs(r, v, result_metric_index(r, PROFILE_SAMPLES), p);
}

void attribution_pairs_release(struct attribution_pairs *p)
{
	free(p->ia);
	free(p->ib);
	memset(p, 0, sizeof(*p));
}

static double value_or_zero(const struct result_run *run, size_t m)
{
	return run->values[m].valid ? run->values[m].value : 0;
}

static double mean_of(const struct result *r, const size_t *idx, size_t n, size_t m)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += value_or_zero(&r->runs[idx[i]], m);
	return n ? s / (double)n : NAN;
}

static int has_prefix(const struct result_metric *m, const char *prefix)
{
	return m->source == MSRC_PROFILE && !strncmp(m->name, prefix, strlen(prefix));
}

static int is_self(const struct result_metric *m)
{
	return has_prefix(m, PROFILE_SELF);
}

static void measure_fn(const struct result *r, const struct attribution_pairs *p, size_t m,
		       struct attribution_fn *f)
{
	double *a = xmalloc((p->n + 1) * sizeof(double)), *b = xmalloc((p->n + 1) * sizeof(double));
	struct stats_diff d;

	for (size_t i = 0; i < p->n; i++) {
		a[i] = value_or_zero(&r->runs[p->ia[i]], m);
		b[i] = value_or_zero(&r->runs[p->ib[i]], m);
	}
	stats_paired_diff(a, b, p->n, 0.95, &d);
	f->metric = m;
	f->n = p->n;
	f->mean_a = mean_of(r, p->ia, p->n, m);
	f->mean_b = mean_of(r, p->ib, p->n, m);
	f->delta = d.mean;
	f->lo = d.lo;
	f->hi = d.hi;
	f->p = d.p;
	free(a);
	free(b);
}

static int by_size(const void *x, const void *y)
{
	double a = fabs(((const struct attribution_fn *)x)->delta);
	double b = fabs(((const struct attribution_fn *)y)->delta);

	return (a < b) - (a > b);
}

/*
 * The functions shown (and tested, one Holm family per table): those with
 * at least SHOW_FRACTION of the profiled time or of its change, largest
 * change first. For inclusive time, functions holding (nearly) all of the
 * profiled time in both variants (the program's entry, main) say nothing
 * the wall time does not (at least 90% of it in both: the entry, main, a
 * driver loop), and are left out.
 */
static size_t choose_and_test(const struct attribution *at, struct attribution_fn *all, size_t n,
			      int inclusive)
{
	double total = fmax(at->total_a, at->total_b), dprof = at->total_b - at->total_a, *p, *adj;
	size_t k = 0, shown;

	for (size_t i = 0; i < n; i++) {
		if (inclusive && all[i].mean_a >= 0.9 * at->total_a &&
		    all[i].mean_b >= 0.9 * at->total_b)
			continue;
		if (fmax(all[i].mean_a, all[i].mean_b) >= SHOW_FRACTION * total ||
		    fabs(all[i].delta) >= SHOW_FRACTION * total)
			all[k++] = all[i];
	}
	sort_n(all, k, sizeof(*all), by_size);
	shown = k < ATTRIBUTION_MAX ? k : ATTRIBUTION_MAX;
	p = xmalloc((shown + 1) * sizeof(double));
	adj = xmalloc((shown + 1) * sizeof(double));
	for (size_t i = 0; i < shown; i++)
		p[i] = isnan(all[i].p) ? 1 : all[i].p;
	stats_holm_adjust(p, shown, adj);
	for (size_t i = 0; i < shown; i++) {
		all[i].p_holm = adj[i];
		all[i].significant = adj[i] < 0.05;
		/* of the profiled change, not of the wall time's: the wall time
		 * also moves with what no sample sees (waiting, other tasks) */
		all[i].share = dprof != 0 ? all[i].delta / dprof : NAN;
	}
	free(p);
	free(adj);
	return shown;
}

/* Inclusive times the cut chains leave uncertain by more than 5% (in the
 * two variants together) are left out, and counted. */
static size_t drop_uncertain(const struct result *r, const struct chain_info *ci,
			     const struct attribution_pairs *p, struct attribution_fn *incl, size_t n,
			     size_t *dropped)
{
	double *wa = chains_weights(ci, r, p->ia, p->n), *wb = chains_weights(ci, r, p->ib, p->n);
	size_t k = 0;

	*dropped = 0;
	for (size_t i = 0; i < n; i++) {
		const char *key = strchr(r->metrics[incl[i].metric].name, ':') + 1;
		double miss = chains_missing(ci, wa, key) + chains_missing(ci, wb, key);

		if (miss > 0.05 * fmax(incl[i].mean_a, incl[i].mean_b))
			(*dropped)++;
		else
			incl[k++] = incl[i];
	}
	free(wa);
	free(wb);
	return k;
}

static void attribute_variant(const struct result *r, size_t v, int samples,
			      const struct chain_info *ci, struct attribution *at)
{
	struct attribution_pairs p;
	struct attribution_fn *all = xcalloc(r->nmetrics + 1, sizeof(*all));
	struct attribution_fn *incl = xcalloc(r->nmetrics + 1, sizeof(*incl));
	int wall = result_metric_index(r, "wall-time");
	size_t n = 0, ni = 0;

	memset(at, 0, sizeof(*at));
	at->variant = v;
	find_pairs(r, v, samples, &p);
	at->blocks = p.n;
	at->dwall = wall >= 0 && p.n ? mean_of(r, p.ib, p.n, (size_t)wall) -
					      mean_of(r, p.ia, p.n, (size_t)wall)
				    : NAN;
	for (size_t m = 0; m < r->nmetrics; m++) {
		if (has_prefix(&r->metrics[m], PROFILE_INCL)) {
			measure_fn(r, &p, m, &incl[ni++]);
			continue;
		}
		if (!is_self(&r->metrics[m]))
			continue;
		measure_fn(r, &p, m, &all[n]);
		at->total_a += all[n].mean_a;
		at->total_b += all[n].mean_b;
		n++;
	}
	at->fn = all;
	at->nfn = choose_and_test(at, all, n, 0);
	at->incl = incl;
	ni = drop_uncertain(r, ci, &p, incl, ni, &at->nuncertain);
	at->nincl = choose_and_test(at, incl, ni, 1);
	attribution_pairs_release(&p);
}

void attribution_compute(const struct result *r, struct attribution_set *out)
{
	int samples = result_metric_index(r, PROFILE_SAMPLES);

	struct chain_info *ci;

	memset(out, 0, sizeof(*out));
	if (samples < 0 || r->nvariants < 2)
		return;
	ci = chains_build(r);
	out->a = xcalloc(r->nvariants, sizeof(*out->a));
	for (size_t v = 0; v < r->nvariants; v++) {
		if ((int)v == r->baseline)
			continue;
		attribute_variant(r, v, samples, ci, &out->a[out->n]);
		if (out->a[out->n].blocks >= 2) {
			out->n++;
		} else {
			free(out->a[out->n].fn);
			free(out->a[out->n].incl);
		}
	}
	chains_free(ci);
}

void attribution_release(struct attribution_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->a[i].fn);
		free(s->a[i].incl);
	}
	free(s->a);
	memset(s, 0, sizeof(*s));
}

/* ---- rendering ---------------------------------------------------------- */

/* The function of a self:, incl: or stack: metric (after the prefix). */
static const char *fn_name(const struct result *r, size_t m)
{
	const char *colon = strchr(r->metrics[m].name, ':');

	return colon ? colon + 1 : r->metrics[m].name;
}

static void ms(struct strbuf *sb, double ns, int sign)
{
	strbuf_addf(sb, sign ? "%+.1f" : "%.1f", ns / 1e6);
}

/* Where a function was found: its self: metric's origin (an incl: metric
 * keeps only the first object and file it was seen in). */
static const char *origin_of(const struct result *r, size_t m)
{
	struct strbuf self = STRBUF_INIT;
	int i;

	strbuf_addf(&self, "%s%s", PROFILE_SELF, fn_name(r, m));
	i = result_metric_index(r, self.buf);
	strbuf_release(&self);
	if (i >= 0 && r->metrics[i].origin)
		return r->metrics[i].origin;
	return r->metrics[m].origin ? r->metrics[m].origin : "";
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

		name_short(&fn, fn_name(r, f->metric), NAME_COLUMN_MAX);
		where_short(&w, origin_of(r, f->metric), WHERE_COLUMN_MAX);
		ms(&d, f->delta, 1);
		strbuf_adds(&ci, "[");
		ms(&ci, f->lo, 1);
		strbuf_adds(&ci, ", ");
		ms(&ci, f->hi, 1);
		strbuf_adds(&ci, "]");
		row = texttable_row(t);
		texttable_set(t, row, 0, "%s%s", fn.buf ? fn.buf : "", f->significant ? " *" : "");
		texttable_title(t, row, 0, fn_name(r, f->metric));
		texttable_set(t, row, 1, "%s", w.buf ? w.buf : "");
		texttable_title(t, row, 1, origin_of(r, f->metric));
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

void report_attribution(const struct result *r, const struct table_opts *o, struct strbuf *out)
{
	struct attribution_set s;

	(void)o;
	attribution_compute(r, &s);
	if (!s.n) {
		attribution_release(&s);
		return;
	}
	strbuf_adds(out, "\nwhere the difference is (self time per run, from samples; "
			 "* = Holm-adjusted p < 0.05 across the functions shown):\n");
	for (size_t i = 0; i < s.n; i++)
		render_variant(r, &s.a[i], out);
	attribution_release(&s);
}

static int by_mean(const void *x, const void *y)
{
	double a = ((const struct attribution_top *)x)->mean;
	double b = ((const struct attribution_top *)y)->mean;

	return (a < b) - (a > b);
}

size_t attribution_top(const struct result *r, struct attribution_top **out, size_t *nruns,
		       double *total)
{
	int samples = result_metric_index(r, PROFILE_SAMPLES);
	struct attribution_top *t = xcalloc(r->nmetrics + 1, sizeof(*t));
	size_t *runs = xcalloc(r->nruns + 1, sizeof(size_t)), n = 0;

	*nruns = 0;
	*total = 0;
	for (size_t i = 0; samples >= 0 && i < r->nruns; i++)
		if (profiled(&r->runs[i], samples))
			runs[(*nruns)++] = i;
	for (size_t m = 0; *nruns && m < r->nmetrics; m++)
		if (is_self(&r->metrics[m])) {
			t[n] = (struct attribution_top){ m, mean_of(r, runs, *nruns, m) };
			*total += t[n].mean;
			n += t[n].mean > 0;	/* a caller only: in the total column */
		}
	sort_n(t, n, sizeof(*t), by_mean);
	free(runs);
	*out = t;
	return n;
}

static const char *const top_classes[] = { "fn", "where", NULL, NULL, NULL };
static const char *const top_head[] = { "function", "where", "self time", "share",
					"total (with all it calls)" };

size_t attribution_top_table(const struct result *r, struct texttable *tt)
{
	struct attribution_top *t;
	size_t nruns, k = 0, *runs;
	double total;
	size_t n = attribution_top(r, &t, &nruns, &total);
	int chains = 0;

	if (!n || total <= 0) {
		free(t);
		return 0;
	}
	runs = xcalloc(r->nruns + 1, sizeof(size_t));
	for (size_t i = 0; i < r->nruns; i++)
		if (attribution_run_profiled(r, &r->runs[i]))
			runs[k++] = i;
	for (size_t m = 0; m < r->nmetrics && !chains; m++)
		chains = has_prefix(&r->metrics[m], PROFILE_INCL);
	texttable_init(tt, chains ? 5 : 4, chains ? "llrrr" : "llrr");
	tt->classes = top_classes;
	tt->head = top_head;
	for (size_t i = 0; i < n && i < ATTRIBUTION_MAX; i++) {
		size_t row = texttable_row(tt);
		const struct result_metric *m = &r->metrics[t[i].metric];
		struct strbuf fn = STRBUF_INIT, w = STRBUF_INIT;

		name_short(&fn, fn_name(r, t[i].metric), NAME_COLUMN_MAX);
		where_short(&w, m->origin ? m->origin : "", WHERE_COLUMN_MAX);
		texttable_set(tt, row, 0, "%s", fn.buf ? fn.buf : "");
		texttable_title(tt, row, 0, fn_name(r, t[i].metric));
		texttable_set(tt, row, 1, "%s", w.buf ? w.buf : "");
		texttable_title(tt, row, 1, m->origin);
		strbuf_release(&fn);
		strbuf_release(&w);
		texttable_set(tt, row, 2, "%.1f ms", t[i].mean / 1e6);
		texttable_set(tt, row, 3, "%.1f%%", 100 * t[i].mean / total);
		if (chains) {
			struct strbuf name = STRBUF_INIT;
			int incl;

			strbuf_addf(&name, "%s%s", PROFILE_INCL, fn_name(r, t[i].metric));
			incl = result_metric_index(r, name.buf);
			if (incl >= 0)
				texttable_set(tt, row, 4, "total %.1f ms",
					      mean_of(r, runs, nruns, (size_t)incl) / 1e6);
			strbuf_release(&name);
		}
	}
	free(runs);
	free(t);
	return nruns;
}

void report_profile_top(const struct result *r, const struct table_opts *o, struct strbuf *out)
{
	struct texttable tt;
	size_t nruns = attribution_top_table(r, &tt);

	(void)o;
	if (!nruns)
		return;
	strbuf_addf(out, "\nwhere the time goes (self time per run%s, %zu profiled runs):\n",
		    tt.ncols == 5 ? "; total: with all it calls" : "", nruns);
	texttable_render(&tt, 2, out);
	texttable_release(&tt);
}

/* ---- simulated counts per function ------------------------------------- */

static const char *const sim_counts[] = { "instructions", "l1d-misses", "llc-misses",
					  "branch-misses" };
#define NSIM (sizeof(sim_counts) / sizeof(sim_counts[0]))

struct sim_fn {
	const char *key;	/* points into the instructions metric's name */
	double a[NSIM], b[NSIM];	/* means per run: baseline, variant */
	/* 1 when no run of that side recorded the function: it ran less
	 * than 0.1% of that side's instructions (the recording threshold),
	 * so its 0 there is a bound, not a count */
	int low_a, low_b;
};

/* The recording threshold of mech_sim: functions below this fraction of a
 * run's instructions are not recorded. */
#define SIM_RECORDED_FRACTION 0.001

static int any_valid(const struct result *r, const size_t *idx, size_t n, size_t m)
{
	for (size_t i = 0; i < n; i++)
		if (r->runs[idx[i]].values[m].valid)
			return 1;
	return 0;
}

static size_t sim_runs(const struct result *r, size_t v, size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nruns; i++)
		if (r->runs[i].simulated && (size_t)r->runs[i].variant == v &&
		    (r->runs[i].status == RUN_OK || r->runs[i].status == RUN_FAILED))
			idx[n++] = i;
	return n;
}

static int sim_metric(const struct result *r, const char *count, const char *key)
{
	struct strbuf name = STRBUF_INIT;
	int m;

	strbuf_addf(&name, "%s%s:%s", PROFILE_SIM, count, key);
	m = result_metric_index(r, name.buf);
	strbuf_release(&name);
	return m;
}

static int by_instructions(const void *x, const void *y)
{
	const struct sim_fn *a = x, *b = y;
	double da = fabs(a->b[0] - a->a[0]), db = fabs(b->b[0] - b->a[0]);

	return (da < db) - (da > db);
}

/* The functions of variant v against the baseline, largest change of
 * instructions first; *total = the baseline's instructions per run. */
static size_t sim_functions(const struct result *r, size_t v, struct sim_fn **out, double *total,
			    double side_total[2])
{
	size_t *ia = xcalloc(r->nruns + 1, sizeof(size_t)), *ib = xcalloc(r->nruns + 1, sizeof(size_t));
	size_t na = sim_runs(r, (size_t)r->baseline, ia), nb = sim_runs(r, v, ib), n = 0;
	size_t plen = strlen(PROFILE_SIM) + strlen(sim_counts[0]) + 1;
	struct sim_fn *f = xcalloc(r->nmetrics + 1, sizeof(*f));

	int ins = result_metric_index(r, "instructions");

	*total = 0;
	side_total[0] = ins >= 0 && na ? mean_of(r, ia, na, (size_t)ins) : NAN;
	side_total[1] = ins >= 0 && nb ? mean_of(r, ib, nb, (size_t)ins) : NAN;
	for (size_t m = 0; na && nb && m < r->nmetrics; m++) {
		const char *name = r->metrics[m].name;

		if (r->metrics[m].source != MSRC_PROFILE || strncmp(name, PROFILE_SIM, strlen(PROFILE_SIM)) ||
		    strncmp(name + strlen(PROFILE_SIM), sim_counts[0], strlen(sim_counts[0])) ||
		    name[plen - 1] != ':')
			continue;
		f[n].key = name + plen;
		f[n].low_a = !any_valid(r, ia, na, m);
		f[n].low_b = !any_valid(r, ib, nb, m);
		for (size_t k = 0; k < NSIM; k++) {
			int mk = sim_metric(r, sim_counts[k], f[n].key);

			f[n].a[k] = mk < 0 ? 0 : mean_of(r, ia, na, (size_t)mk);
			f[n].b[k] = mk < 0 ? 0 : mean_of(r, ib, nb, (size_t)mk);
		}
		*total += f[n].a[0];
		n++;
	}
	sort_n(f, n, sizeof(*f), by_instructions);
	free(ia);
	free(ib);
	*out = f;
	return n;
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
			  const double side_total[2])
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

void report_sim_attribution(const struct result *r, const struct table_opts *o,
			    struct strbuf *out)
{
	int header = 0;

	(void)o;
	for (size_t v = 0; r->nvariants >= 2 && v < r->nvariants; v++) {
		struct sim_fn *f = NULL;
		double total, side[2];
		size_t n = (int)v == r->baseline ? 0 : sim_functions(r, v, &f, &total, side);
		struct texttable t;
		size_t row;

		if (!n) {
			free(f);
			continue;
		}
		if (!header++)
			strbuf_adds(out, "\nwhere the simulated difference is (cachegrind's counts per "
					 "function, per run: a model, exact, not this CPU's):\n");
		{
			struct strbuf pa = STRBUF_INIT, pb = STRBUF_INIT;

			strbuf_addf(out, "  %s vs %s:\n", printable_in(&pb, r->variants[v].name),
				    printable_in(&pa, r->variants[r->baseline].name));
			strbuf_release(&pa);
			strbuf_release(&pb);
		}
		texttable_init(&t, 5, "lrrrr");
		row = texttable_row(&t);
		texttable_set(&t, row, 0, "function");
		for (size_t k = 0; k < NSIM; k++)
			texttable_set(&t, row, k + 1, "Δ %s", sim_counts[k]);
		for (size_t i = 0; i < n && i < ATTRIBUTION_MAX; i++) {
			if (fabs(f[i].b[0] - f[i].a[0]) < SHOW_FRACTION * total / 10)
				break;
			struct strbuf fn = STRBUF_INIT;

			if (f[i].low_a && f[i].low_b)
				continue;
			row = texttable_row(&t);
			name_short(&fn, f[i].key, NAME_COLUMN_MAX);
			texttable_set(&t, row, 0, "%s", fn.buf ? fn.buf : "");
			strbuf_release(&fn);
			for (size_t k = 0; k < NSIM; k++) {
				struct strbuf d = STRBUF_INIT;

				if (f[i].low_a || f[i].low_b)
					sim_delta_low(&d, &f[i], k, side);
				else
					sim_delta(&d, f[i].a[k], f[i].b[k]);
				texttable_set(&t, row, k + 1, "%s", d.buf);
				strbuf_release(&d);
			}
		}
		texttable_render(&t, 4, out);
		texttable_release(&t);
		free(f);
	}
}

json_t *sim_attribution_json(const struct result *r)
{
	json_t *arr = json_array();

	for (size_t v = 0; r->nvariants >= 2 && v < r->nvariants; v++) {
		struct sim_fn *f = NULL;
		double total, side[2];
		size_t n = (int)v == r->baseline ? 0 : sim_functions(r, v, &f, &total, side);
		json_t *fns = json_array();

		for (size_t i = 0; i < n && i < ATTRIBUTION_MAX; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "function", report_json_text(f[i].key));
			if (f[i].low_a || f[i].low_b)
				json_object_set_new(o, "below_threshold",
						    json_string(f[i].low_a ? "baseline" : "variant"));
			for (size_t k = 0; k < NSIM; k++)
				json_object_set_new(o, sim_counts[k],
						    json_pack("{s:f, s:f, s:f}", "baseline", f[i].a[k],
							      "variant", f[i].b[k], "delta",
							      f[i].b[k] - f[i].a[k]));
			json_array_append_new(fns, o);
		}
		if (n)
			json_array_append_new(arr, json_pack("{s:o, s:o, s:o}", "variant",
							     report_json_text(r->variants[v].name),
							     "baseline",
							     report_json_text(r->variants[r->baseline].name),
							     "functions", fns));
		else
			json_decref(fns);
		free(f);
	}
	if (!json_array_size(arr)) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *fn_json(const struct result *r, const struct attribution_fn *f)
{
	json_t *o = json_object();

	json_object_set_new(o, "function", report_json_text(fn_name(r, f->metric)));
	json_object_set_new(o, "metric", report_json_text(r->metrics[f->metric].name));
	if (r->metrics[f->metric].origin)
		json_object_set_new(o, "where", report_json_text(r->metrics[f->metric].origin));
	json_object_set_new(o, "n", json_integer((json_int_t)f->n));
	json_object_set_new(o, "baseline_ns", num_or_null(f->mean_a));
	json_object_set_new(o, "variant_ns", num_or_null(f->mean_b));
	json_object_set_new(o, "delta_ns", num_or_null(f->delta));
	json_object_set_new(o, "ci_ns", json_pack("[o, o]", num_or_null(f->lo), num_or_null(f->hi)));
	json_object_set_new(o, "share", num_or_null(f->share));
	json_object_set_new(o, "p", num_or_null(f->p));
	json_object_set_new(o, "p_holm", num_or_null(f->p_holm));
	json_object_set_new(o, "significant", json_boolean(f->significant));
	return o;
}

json_t *attribution_json(const struct result *r)
{
	struct attribution_set s;
	json_t *arr;

	attribution_compute(r, &s);
	if (!s.n) {
		attribution_release(&s);
		return NULL;
	}
	arr = json_array();
	for (size_t i = 0; i < s.n; i++) {
		const struct attribution *at = &s.a[i];
		json_t *fns = json_array();

		json_t *incl = json_array();

		for (size_t k = 0; k < at->nfn; k++)
			json_array_append_new(fns, fn_json(r, &at->fn[k]));
		for (size_t k = 0; k < at->nincl; k++)
			json_array_append_new(incl, fn_json(r, &at->incl[k]));
		json_array_append_new(arr, json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o}",
			"variant", report_json_text(r->variants[at->variant].name),
			"baseline", report_json_text(r->variants[r->baseline].name),
			"blocks", (json_int_t)at->blocks, "wall_delta_ns", num_or_null(at->dwall),
			"profiled_baseline_ns", num_or_null(at->total_a),
			"profiled_variant_ns", num_or_null(at->total_b), "functions", fns,
			"inclusive", incl));
	}
	attribution_release(&s);
	return arr;
}
