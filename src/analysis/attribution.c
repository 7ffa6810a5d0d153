/*
 * Computing the attribution (see attribution.h). Which
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

#include "core/sort.h"
#include "result/json.h"
#include "stats/diff.h"
#include "stats/sample.h"
#include "stats/tests.h"

#define SHOW_FRACTION ATTRIBUTION_SHOW_FRACTION

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

/* A timed run: one that carries the clean figures (not a mechanism's own). */
static int timed(const struct result_run *run)
{
	return !run->warmup && !run->simulated && !run->traced && !run->instrumented &&
	       run->status == RUN_OK;
}

/*
 * The mean wall-time difference of variant v from the baseline, paired by
 * block over the campaign's timed runs: the profiled runs are blocks of
 * their own whose wall time is not a valid value (it carries the sampler's
 * cost), so reading it there gave +0 ns for every variant.
 */
static double timed_wall_delta(const struct result *r, size_t v, const struct attribution_pairs *p)
{
	int wall = result_metric_index(r, "wall-time"), nblocks = 0;
	double *wa, *wb, sum = 0;
	size_t n = 0;

	if (wall < 0 || !p->n)
		return NAN;
	for (size_t i = 0; i < r->nruns; i++)
		nblocks = r->runs[i].block + 1 > nblocks ? r->runs[i].block + 1 : nblocks;
	wa = xcalloc((size_t)nblocks + 1, sizeof(*wa));
	wb = xcalloc((size_t)nblocks + 1, sizeof(*wb));
	for (size_t i = 0; i < (size_t)nblocks; i++)
		wa[i] = wb[i] = NAN;
	for (size_t i = 0; i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];
		double *into = (size_t)run->variant == (size_t)r->baseline ? wa
			       : (size_t)run->variant == v ? wb : NULL;

		if (into && run->block >= 0 && timed(run) && run->values[wall].valid)
			into[run->block] = run->values[wall].value;
	}
	for (size_t b = 0; b < (size_t)nblocks; b++)
		if (isfinite(wa[b]) && isfinite(wb[b])) {
			sum += wb[b] - wa[b];
			n++;
		}
	free(wa);
	free(wb);
	return n ? sum / (double)n : NAN;
}

static void attribute_variant(const struct result *r, size_t v, int samples,
			      const struct chain_info *ci, struct attribution *at)
{
	struct attribution_pairs p;
	struct attribution_fn *all = xcalloc(r->nmetrics + 1, sizeof(*all));
	struct attribution_fn *incl = xcalloc(r->nmetrics + 1, sizeof(*incl));
	size_t n = 0, ni = 0;

	memset(at, 0, sizeof(*at));
	at->variant = v;
	find_pairs(r, v, samples, &p);
	at->blocks = p.n;
	at->dwall = timed_wall_delta(r, v, &p);
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

/* ---- lookups the renderers share ------------------------------------- */

const char *attribution_fn_name(const struct result *r, size_t m)
{
	const char *colon = strchr(r->metrics[m].name, ':');

	return colon ? colon + 1 : r->metrics[m].name;
}

/* An incl: metric keeps only the first object and file it was seen in:
 * the self: metric's origin is preferred. */
const char *attribution_fn_origin(const struct result *r, size_t m)
{
	struct strbuf self = STRBUF_INIT;
	int i;

	strbuf_addf(&self, "%s%s", PROFILE_SELF, attribution_fn_name(r, m));
	i = result_metric_index(r, self.buf);
	strbuf_release(&self);
	if (i >= 0 && r->metrics[i].origin)
		return r->metrics[i].origin;
	return r->metrics[m].origin ? r->metrics[m].origin : "";
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
			t[n] = (struct attribution_top){ m, mean_of(r, runs, *nruns, m), NAN };
			*total += t[n].mean;
			n += t[n].mean > 0;	/* a caller only: in the total column */
		}
	sort_n(t, n, sizeof(*t), by_mean);
	for (size_t i = 0; i < n && i < ATTRIBUTION_MAX; i++) {
		struct strbuf name = STRBUF_INIT;
		int incl;

		strbuf_addf(&name, "%s%s", PROFILE_INCL, attribution_fn_name(r, t[i].metric));
		incl = result_metric_index(r, name.buf);
		if (incl >= 0)
			t[i].incl = mean_of(r, runs, *nruns, (size_t)incl);
		strbuf_release(&name);
	}
	free(runs);
	*out = t;
	return n;
}

/* ---- simulated counts per function ------------------------------------- */

const char *const sim_count_names[SIM_NCOUNTS] = { "instructions", "l1d-misses", "llc-misses",
					      "branch-misses" };
#define NSIM SIM_NCOUNTS

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

static size_t sim_functions(const struct result *r, size_t v, struct sim_fn **out, double *total,
			    double *side_total)
{
	size_t *ia = xcalloc(r->nruns + 1, sizeof(size_t)), *ib = xcalloc(r->nruns + 1, sizeof(size_t));
	size_t na = sim_runs(r, (size_t)r->baseline, ia), nb = sim_runs(r, v, ib), n = 0;
	size_t plen = strlen(PROFILE_SIM) + strlen(sim_count_names[0]) + 1;
	struct sim_fn *f = xcalloc(r->nmetrics + 1, sizeof(*f));

	int ins = result_metric_index(r, "instructions");

	*total = 0;
	side_total[0] = ins >= 0 && na ? mean_of(r, ia, na, (size_t)ins) : NAN;
	side_total[1] = ins >= 0 && nb ? mean_of(r, ib, nb, (size_t)ins) : NAN;
	for (size_t m = 0; na && nb && m < r->nmetrics; m++) {
		const char *name = r->metrics[m].name;

		if (r->metrics[m].source != MSRC_PROFILE || strncmp(name, PROFILE_SIM, strlen(PROFILE_SIM)) ||
		    strncmp(name + strlen(PROFILE_SIM), sim_count_names[0], strlen(sim_count_names[0])) ||
		    name[plen - 1] != ':')
			continue;
		f[n].key = name + plen;
		f[n].low_a = !any_valid(r, ia, na, m);
		f[n].low_b = !any_valid(r, ib, nb, m);
		for (size_t k = 0; k < NSIM; k++) {
			int mk = sim_metric(r, sim_count_names[k], f[n].key);

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

void sim_attribution_compute(const struct result *r, size_t v, struct sim_attribution *out)
{
	memset(out, 0, sizeof(*out));
	out->variant = v;
	out->side[0] = out->side[1] = NAN;
	if (r->nvariants < 2 || (int)v == r->baseline)
		return;
	out->n = sim_functions(r, v, &out->f, &out->total, out->side);
	if (!out->n) {
		free(out->f);
		out->f = NULL;
	}
}

void sim_attribution_release(struct sim_attribution *s)
{
	free(s->f);
	memset(s, 0, sizeof(*s));
}

json_t *sim_attribution_json(const struct result *r, const struct sim_attribution *sim)
{
	json_t *arr = json_array();

	for (size_t v = 0; r->nvariants >= 2 && v < r->nvariants; v++) {
		const struct sim_fn *f = sim[v].f;
		size_t n = sim[v].n;
		json_t *fns = json_array();

		for (size_t i = 0; i < n && i < ATTRIBUTION_MAX; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "function", report_json_text(f[i].key));
			if (f[i].low_a || f[i].low_b)
				json_object_set_new(o, "below_threshold",
						    json_string(f[i].low_a ? "baseline" : "variant"));
			for (size_t k = 0; k < NSIM; k++)
				json_object_set_new(o, sim_count_names[k],
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

	json_object_set_new(o, "function", report_json_text(attribution_fn_name(r, f->metric)));
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

json_t *attribution_json(const struct result *r, const struct attribution_set *s)
{
	json_t *arr;

	if (!s->n)
		return NULL;
	arr = json_array();
	for (size_t i = 0; i < s->n; i++) {
		const struct attribution *at = &s->a[i];
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
	return arr;
}
