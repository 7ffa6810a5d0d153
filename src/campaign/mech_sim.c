/*
 * The simulation mechanism: hardware metrics from valgrind's cachegrind,
 * for hosts whose counters cannot give them (see backend/sim.h). Its plan
 * finds valgrind and the caches to simulate; the backend policy
 * (policy.c) then says which metrics it serves. Simulated runs are blocks
 * of their own, a few per variant (counts of a model are exact); they carry
 * only the simulated values — a simulated run's time is valgrind's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sim.h"
#include "backend/sim_select.h"
#include "backend/symbols.h"
#include "campaign/mechanism.h"
#include "core/strbuf.h"
#include "host/caches.h"
#include "analysis/attribution.h"

struct sim_state {
	char *valgrind;
	struct cache_geometry geom;
	const char *geometry_from;	/* where the caches came from, or NULL */
	size_t *metric;			/* result metrics served by simulation */
	size_t n;
	unsigned failed;		/* simulated runs that gave no counts */
};

struct sim_one {
	struct sim_run run;		/* valgrind argv, output directory */
	int prepared;
	char **argv;			/* command + --sim-args words (owned array) */
	char *words;			/* the words' storage */
};

static void level_from_catalog(struct cache_level *l, const struct catalog_cache *cc)
{
	l->size = cc->size;
	l->assoc = cc->assoc;
	l->line = cc->line;
}

static void level_from_host(struct cache_level *l, const struct host_cache *hc)
{
	l->size = hc->size;
	l->assoc = hc->assoc;
	l->line = hc->line;
}

static void geometry_from_catalog(struct cache_geometry *g, const struct catalog_caches *cc)
{
	level_from_catalog(&g->l1i, &cc->l1i);
	level_from_catalog(&g->l1d, &cc->l1d);
	level_from_catalog(&g->ll, cc->l3.size ? &cc->l3 : &cc->l2);
	g->ll_level = cc->l3.size ? 3 : 2;
}

/* The caches to simulate: --uarch's from the catalogue; else this host's
 * from sysfs, else its uarch's from the catalogue. Returns a phrase saying
 * where they came from, or NULL (valgrind's own guess). */
static const char *choose_geometry(struct campaign *c, struct cache_geometry *g)
{
	struct catalog_caches cc;
	struct host_caches hc;
	struct error e;
	int have_cat;

	error_clear(&e);
	have_cat = campaign_catalog(c, &e) == 0 &&
		   catalog_cache_geometry(&c->cat.cat, &cc, &e) == 0;
	if (have_cat && c->o->uarch) {
		geometry_from_catalog(g, &cc);
		return "the catalogue's for --uarch";
	}
	if (host_cache_geometry(NULL, &hc, &e) == 0 && hc.l1d.size && hc.l1i.size) {
		level_from_host(&g->l1i, &hc.l1i);
		level_from_host(&g->l1d, &hc.l1d);
		level_from_host(&g->ll, hc.l3.size ? &hc.l3 : &hc.l2);
		g->ll_level = hc.l3.size ? 3 : 2;
		return "this host's, from sysfs";
	}
	if (have_cat) {
		geometry_from_catalog(g, &cc);
		return "the catalogue's for this host's uarch";
	}
	return NULL;
}

static void sim_release(void *state)
{
	struct sim_state *s = state;

	free(s->valgrind);
	free(s->metric);
	free(s);
}

static int sim_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct sim_state *s;
	struct error none;
	char *vg = NULL;

	error_clear(&none);
	if (c->backend == BACKEND_HW || c->backend == BACKEND_SW)
		return 0;
	if (sim_find_valgrind(NULL, &vg, c->backend == BACKEND_SIM ? err : &none))
		return c->backend == BACKEND_SIM ? -1 : 0;	/* auto: "not counted" notes */
	s = xcalloc(1, sizeof(*s));
	s->valgrind = vg;
	s->geometry_from = choose_geometry(c, &s->geom);
	need->runs = MECH_SIM;
	need->sim_valgrind = 1;
	need->sim_ll_level = s->geom.ll_level;
	need->fewer = "lower --sim-runs, or make simulated runs smaller with --sim-args";
	*state = s;
	return 0;
}

static void note_simulated(struct campaign *c, const struct sim_state *s, unsigned blocks,
			   const struct strbuf *names)
{
	const char *ll = s->geom.ll_level == 2 ? "the L2 as last level"
			 : s->geom.ll_level == 3 ? "the L3 as last level"
						 : "a last level of valgrind's choosing";
	const char *args = c->o->sim_args;

	result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
			"%s: simulated by cachegrind (%s), in %u extra run%s per variant%s%s%s: "
			"counts of a cache and branch-predictor model (L1i, L1d, %s), not "
			"of this CPU, and never a time",
			names->buf, c->backend == BACKEND_SIM ? "--backend sim"
							      : "no hardware counter here",
			blocks, blocks == 1 ? "" : "s", args ? " with '" : "",
			args ? args : "", args ? "' appended" : "", ll);
}

static void note_geometry(struct campaign *c, struct sim_state *s)
{
	struct cache_level *lv[] = { &s->geom.l1i, &s->geom.l1d, &s->geom.ll };
	const char *names[] = { "L1i", "L1d", "LL" };
	struct strbuf sb = STRBUF_INIT;

	if (!s->geometry_from) {
		result_add_note(&c->res, NOTE_WARNING, NULL,
				"name a uarch to simulate its caches, e.g. '--uarch zen4'",
				"simulated caches: neither this host (no sysfs cache description) "
				"nor the catalogue (uarch '%s') describes them, so valgrind guesses "
				"from CPUID, which a VM may report oddly",
				c->have_cat ? c->cat.cat.uarch : "?");
		return;
	}
	for (size_t i = 0; i < 3; i++) {
		int fitted = sim_level_fit(lv[i]);

		strbuf_addf(&sb, "%s%s %llu KiB %u-way %u B%s", i ? ", " : "", names[i],
			    (unsigned long long)(lv[i]->size / 1024), lv[i]->assoc, lv[i]->line,
			    fitted == 1 ? " (ways adjusted to a power-of-two set count)" : "");
	}
	result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "simulated caches (%s): %s",
			s->geometry_from, sb.buf);
	strbuf_release(&sb);
}

/* After the policy: the metrics it gave us, and the blocks they need. */
static int sim_plan_done(struct campaign *c, void *state, struct mech_needs *need,
			     struct error *err)
{
	struct sim_state *s = state;
	struct strbuf names = STRBUF_INIT;

	(void)err;
	s->metric = xcalloc(c->res.nmetrics + 1, sizeof(size_t));
	for (size_t i = 0; i < c->res.nmetrics; i++)
		if (c->res.metrics[i].source == MSRC_SIM) {
			s->metric[s->n++] = i;
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", c->res.metrics[i].name);
		}
	need->blocks = s->n ? (c->o->sim_runs ? c->o->sim_runs : 3) : 0;
	if (s->n) {
		note_simulated(c, s, need->blocks, &names);
		note_geometry(c, s);
	}
	strbuf_release(&names);
	return 0;
}

/* argv followed by the blank-separated words of extra (--sim-args). */
static char **with_sim_args(char *const *argv, const char *extra, char **storage)
{
	size_t n = 0, k = 0;
	char **out, *save = NULL;

	while (argv[n])
		n++;
	*storage = xstrdup(extra);
	out = xcalloc(n + strlen(extra) / 2 + 2, sizeof(char *));
	memcpy(out, argv, n * sizeof(char *));
	for (char *w = strtok_r(*storage, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		out[n + k++] = w;
	return out;
}

static int sim_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
		     struct error *err)
{
	struct sim_state *s = state;
	struct sim_one *r = run;

	if (c->o->sim_args)
		rs->argv = r->argv = with_sim_args(rs->argv, c->o->sim_args, &r->words);
	if (sim_prepare(&r->run, s->valgrind, &s->geom, rs->argv, err))
		return -1;
	r->prepared = 1;
	rs->argv = r->run.argv;
	rs->timeout_s = 0;	/* valgrind is 20-100x slower than the program */
	return 0;
}

/* --profile: cachegrind's counts per function, for the functions that hold
 * at least 0.1% of the run's instructions; metrics sim:COUNT:FUNCTION. */
static const char *const fn_counts[] = { "instructions", "l1d-misses", "llc-misses",
					 "branch-misses" };

struct fn_ctx {
	struct campaign *c;
	size_t run_index;
	uint64_t min_ir;
	int ll_level;
};

static void add_fn_value(struct campaign *c, size_t run_index, const char *count,
			 const char *key, double v)
{
	struct strbuf name = STRBUF_INIT;
	struct result_value *rv;
	int m;

	strbuf_addf(&name, "%s%s:%s", PROFILE_SIM, count, key);
	m = result_metric_index(&c->res, name.buf);
	if (m < 0) {
		result_add_metric_late(&c->res, name.buf, "", MSRC_PROFILE)->hidden = 1;
		m = (int)c->res.nmetrics - 1;
	}
	rv = &c->res.runs[run_index].values[m];
	rv->value = (rv->valid ? rv->value : 0) + v;	/* processes of one run add up */
	rv->valid = 1;
	strbuf_release(&name);
}

static void on_function(void *ctx, const char *fn, const uint64_t *ev)
{
	struct fn_ctx *f = ctx;
	struct sim_counts one;
	char *key, *name;

	if (ev[SIM_IR] < f->min_ir)
		return;
	memset(&one, 0, sizeof(one));
	memcpy(one.ev, ev, sizeof(one.ev));
	one.have = (1u << SIM_NEVENTS) - 1;
	one.used.ll_level = f->ll_level;
	/* cachegrind runs with --demangle=no; "???" is its unnamed code,
	 * spelled as the profile spells code it cannot place */
	name = symbol_demangle(strcmp(fn, "???") ? fn : "[unknown]");
	key = symbol_key(name);
	free(name);
	for (size_t i = 0; i < sizeof(fn_counts) / sizeof(fn_counts[0]); i++) {
		double v;

		if (sim_metric_value(&one, fn_counts[i], &v) == 0)
			add_fn_value(f->c, f->run_index, fn_counts[i], key, v);
	}
	free(key);
}

static void record_functions(struct campaign *c, struct sim_state *s, const struct sim_one *r,
			     const struct sim_counts *total, size_t run_index)
{
	struct fn_ctx f = { c, run_index, total->ev[SIM_IR] / 1000 + 1, s->geom.ll_level };
	struct error err;

	error_clear(&err);
	if (sim_collect_functions(&r->run, on_function, &f, &err) && s->failed++ == 0)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"a simulated run gave no per-function counts: %s", err.msg);
}

static void sim_end(struct campaign *c, void *state, void *run,
		    const struct measure_outcome *out, size_t run_index)
{
	struct sim_state *s = state;
	const struct sim_one *r = run;
	enum run_status st = c->res.runs[run_index].status;
	struct sim_counts counts;
	struct error err;

	(void)out;
	if (st != RUN_OK && st != RUN_FAILED)
		return;
	error_clear(&err);
	memset(&counts, 0, sizeof(counts));
	if (sim_collect(&r->run, &counts, &err)) {
		if (s->failed++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
					"a simulated run gave no counts: %s", err.msg);
		return;
	}
	for (size_t k = 0; k < s->n; k++) {
		double v;

		if (sim_metric_value(&counts, c->res.metrics[s->metric[k]].name, &v) == 0)
			campaign_set_value(c, run_index, s->metric[k], v);
	}
	if (c->o->profile & PROFILE_TIME)
		record_functions(c, s, r, &counts, run_index);
}

static void sim_run_free(void *state, void *run)
{
	struct sim_one *r = run;

	(void)state;
	free(r->argv);
	free(r->words);
	if (r->prepared)
		sim_run_release(&r->run);
}

static size_t sim_options(struct campaign_opts *o, struct option *rows, size_t max)
{
	const struct option mine[] = {
		{ OPT_UINT, 0, "sim-runs", &o->sim_runs, "n", "simulated runs per variant (default 3)", 1, 1e6 },
		{ OPT_STRING, 0, "sim-args", &o->sim_args, "words", "append these arguments in simulated runs (e.g. a smaller input)" },
	};

	return mech_option_rows(mine, sizeof(mine) / sizeof(mine[0]), rows, max);
}

/* Cachegrind runs the program itself: --backend sim asks for it alone. */
static const char *sim_attach_refusal(const struct campaign *c)
{
	return c->backend == BACKEND_SIM ? "--backend sim" : NULL;
}

const struct mechanism_ops mech_sim = {
	.name = "sim",
	.run_size = sizeof(struct sim_one),
	.plan = sim_plan,
	.options = sim_options,
	.attach_refusal = sim_attach_refusal,
	.plan_done = sim_plan_done,
	.begin = sim_begin,
	.end = sim_end,
	.run_release = sim_run_free,
	.release = sim_release,
};
