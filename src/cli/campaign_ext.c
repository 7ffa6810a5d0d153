/*
 * The campaign's optional measuring mechanisms beyond perf counters (part of
 * the campaign, see campaign.h):
 *   call counters  -e call:SYM, -m allocs/frees: one callcount_set per
 *                  variant (programs differ), uprobe events added to the
 *                  run's counters or the LD_PRELOAD shim's environment;
 *   simulation     hardware metrics from cachegrind, in extra simulated
 *                  blocks after the native ones; those runs carry only the
 *                  simulated values (their time is valgrind's).
 * Each says which mechanism served a metric, in the metric's backend and a
 * note.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/perf_event.h"
#include "cli/campaign.h"
#include "core/strbuf.h"
#include "host/caches.h"
#include "run/measure.h"

/* ---- splitting requests ------------------------------------------------- */

/* Move call-counter items of list into *calls (comma-joined); returns the
 * rest (caller frees both; either may be NULL). */
char *campaign_take_calls(const char *list, char **calls)
{
	struct strbuf rest = STRBUF_INIT, cl = STRBUF_INIT;
	char **items = NULL;
	int n;

	if (!list)
		return NULL;
	n = event_list_split(list, &items, NULL);
	if (n < 0)
		return xstrdup(list);	/* let the real parser report the error */
	for (int i = 0; i < n; i++) {
		struct strbuf *to = callcount_is_call(items[i]) ? &cl : &rest;

		strbuf_addf(to, "%s%s", to->len ? "," : "", items[i]);
	}
	event_list_free(items);
	if (cl.len) {
		if (*calls) {
			strbuf_addf(&cl, ",%s", *calls);
			free(*calls);
		}
		*calls = strbuf_detach(&cl);
	}
	strbuf_release(&cl);
	if (!rest.len) {
		strbuf_release(&rest);
		return NULL;
	}
	return strbuf_detach(&rest);
}

/* ---- call counters ------------------------------------------------------ */

static int resolve_variant_calls(struct campaign *c, size_t v, const char *items,
				 enum callcount_mech force, struct error *err)
{
	struct callcount_set *cs = &c->calls[v];
	struct callcount_opts co = { force, &c->model, NULL, NULL };
	char *copy = xstrdup(items), *save = NULL;
	int rc = 0;

	callcount_init(cs);
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
		rc = callcount_add(cs, t, err);
	free(copy);
	if (!rc)
		rc = callcount_resolve(cs, &co, c->res.variants[v].argv[0], err);
	if (rc && c->res.nvariants > 1)
		error_prefix(err, "variant '%s'", c->res.variants[v].name);
	return rc;
}

/* uprobe mode: the variant's probe events, probed once here so a refusal
 * (no uprobe PMU, permissions) is known before any run. */
static void copy_probe_events(struct campaign *c, size_t v)
{
	struct callcount_set *cs = &c->calls[v];

	c->call_events[v] = xcalloc(cs->nprobes + 1, sizeof(struct event_spec));
	for (size_t i = 0; i < cs->nprobes; i++)
		callcount_event_copy(cs, i, &c->call_events[v][i]);
}

static void add_call_metrics(struct campaign *c)
{
	struct callcount_set *cs = &c->calls[0];

	c->call_metric = xcalloc(cs->nmetrics + 1, sizeof(size_t));
	for (size_t m = 0; m < cs->nmetrics; m++) {
		struct result_metric *rm = result_add_metric(&c->res, cs->metrics[m].name, "calls",
							     MSRC_CALLS);
		char *desc = callcount_describe(cs, m);

		free(rm->backend);
		rm->backend = xstrdup(callcount_mech_name(cs->mech));
		rm->proxy = desc;	/* what exactly is counted, for JSON */
		result_add_note(&c->res, NOTE_NOTE, rm->name, NULL, "%s: %s", rm->name, desc);
		c->call_metric[m] = c->res.nmetrics - 1;
	}
	if (cs->mech_reason)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "call counters: %s",
				cs->mech_reason);
}

int campaign_plan_calls(struct campaign *c, const char *items, struct error *err)
{
	size_t nv = c->res.nvariants;
	struct error why;

	c->calls = xcalloc(nv, sizeof(*c->calls));
	c->call_events = xcalloc(nv, sizeof(*c->call_events));
	c->ncalls = nv;
	for (size_t v = 0; v < nv; v++)
		/* Every variant counts the same way as the first: one metric,
		 * one mechanism. */
		if (resolve_variant_calls(c, v, items, v ? c->calls[0].mech : c->o->call_mech, err))
			return -1;
	add_call_metrics(c);
	if (c->calls[0].mech != CALLCOUNT_UPROBE)
		return 0;
	for (size_t v = 0; v < nv; v++)
		copy_probe_events(c, v);
	error_clear(&why);
	for (size_t i = 0; i < c->calls[0].nprobes; i++)
		if (perf_probe(&c->call_events[0][i], &c->res.host, &why)) {
			for (size_t m = 0; m < c->calls[0].nmetrics; m++) {
				struct result_metric *rm = &c->res.metrics[c->call_metric[m]];

				rm->available = 0;
				rm->reason = xstrdup(why.msg);
				rm->hint = why.hint[0] ? xstrdup(why.hint) : NULL;
			}
			break;
		}
	return 0;
}

void campaign_release_calls(struct campaign *c)
{
	for (size_t v = 0; v < c->ncalls; v++) {
		for (size_t i = 0; c->call_events && c->call_events[v] &&
				   i < c->calls[v].nprobes; i++)
			event_spec_release(&c->call_events[v][i]);
		if (c->call_events)
			free(c->call_events[v]);
		callcount_release(&c->calls[v]);
	}
	free(c->calls);
	free(c->call_events);
	free(c->call_metric);
	c->calls = NULL;
	c->call_events = NULL;
	c->ncalls = 0;
}

/* Extra counters of a run (uprobe mode): how many follow the base events. */
size_t campaign_call_events(const struct campaign *c, int variant,
			    const struct event_spec **evs)
{
	if (!c->ncalls || c->calls[0].mech != CALLCOUNT_UPROBE ||
	    !c->res.metrics[c->call_metric[0]].available)
		return 0;
	*evs = c->call_events[variant];
	return c->calls[variant].nprobes;
}

static void note_incomplete(struct campaign *c, const char *why)
{
	if (c->calls_incomplete++ == 0)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"call counts of some runs are left out: %s", why);
}

/* Record a run's call counts: from the probes' readings (uprobe) or from
 * the shim's report file (preload). */
void campaign_record_calls(struct campaign *c, struct result_run *run,
			   struct callcount_run *cr, const struct measure_outcome *out,
			   size_t base)
{
	struct callcount_set *cs;
	struct callcount_values v = { 0 };
	struct error err;
	char why[256];
	int rc;

	if (!c->ncalls || run->status == RUN_EXEC_FAILED || run->simulated)
		return;
	cs = &c->calls[run->variant];
	error_clear(&err);
	if (cs->mech == CALLCOUNT_PRELOAD) {
		rc = callcount_run_end(cs, cr, &v, &err);
	} else {
		size_t k = cs->nprobes;
		uint64_t *raw = xcalloc(k + 1, sizeof(uint64_t));

		for (size_t i = 0; i < k; i++)
			raw[i] = out->readings[base + i].value;
		rc = callcount_uprobe_values(cs, raw, out->read_ok + base, &v, &err);
		free(raw);
	}
	if (rc) {
		note_incomplete(c, err.msg);
	} else if (callcount_values_incomplete(&v, why, sizeof(why))) {
		note_incomplete(c, why);
	} else {
		for (size_t m = 0; m < cs->nmetrics; m++) {
			run->values[c->call_metric[m]].valid = 1;
			run->values[c->call_metric[m]].value = v.value[m];
		}
	}
	callcount_values_release(&v);
}

/* ---- simulation --------------------------------------------------------- */

/* Should metric m (resolved, maybe unavailable) be simulated? */
static int wants_sim(const struct campaign *c, const struct result_metric *m)
{
	if (!sim_metric_known(m->name, c->geom.ll_level))
		return 0;
	if (m->hidden)
		return 0;	/* an input: the simulation yields ratios directly */
	switch (c->o->backend) {
	case BACKEND_SIM:
		return 1;
	case BACKEND_AUTO:
		/* Only metrics the user named: simulating the implicit default
		 * set would make every plain `stat` 20-100x slower. */
		return !m->available && c->o->metrics != NULL;
	default:
		return 0;
	}
}

static void note_simulated(struct campaign *c, const struct strbuf *names)
{
	const char *ll = c->geom.ll_level == 2 ? "the L2 as last level"
			 : c->geom.ll_level == 3 ? "the L3 as last level"
						 : "a last level of valgrind's choosing";

	result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
			"%s: simulated by cachegrind (%s), in %u extra run%s per variant%s%s%s: "
			"counts of a cache and branch-predictor model (L1i, L1d, %s), not "
			"of this CPU, and never a time",
			names->buf, c->o->backend == BACKEND_SIM ? "--backend sim"
								 : "no hardware counter here",
			c->sim_runs, c->sim_runs == 1 ? "" : "s",
			c->o->sim_args ? " with '" : "", c->o->sim_args ? c->o->sim_args : "",
			c->o->sim_args ? "' appended" : "", ll);
}

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

/* The caches to simulate: --uarch's from the catalogue; else this host's
 * from sysfs, else its uarch's from the catalogue. Returns a phrase saying
 * where they came from, or NULL (valgrind's own guess). */
static const char *choose_geometry(struct campaign *c)
{
	struct catalog_caches cc;
	struct host_caches hc;
	struct error e;
	int have_cat = c->have_cat && catalog_cache_geometry(&c->cat.cat, &cc, &e) == 0;

	error_clear(&e);
	if (have_cat && c->o->uarch) {
		level_from_catalog(&c->geom.l1i, &cc.l1i);
		level_from_catalog(&c->geom.l1d, &cc.l1d);
		level_from_catalog(&c->geom.ll, cc.l3.size ? &cc.l3 : &cc.l2);
		c->geom.ll_level = cc.l3.size ? 3 : 2;
		return "the catalogue's for --uarch";
	}
	if (host_cache_geometry(NULL, &hc, &e) == 0 && hc.l1d.size && hc.l1i.size) {
		level_from_host(&c->geom.l1i, &hc.l1i);
		level_from_host(&c->geom.l1d, &hc.l1d);
		level_from_host(&c->geom.ll, hc.l3.size ? &hc.l3 : &hc.l2);
		c->geom.ll_level = hc.l3.size ? 3 : 2;
		return "this host's, from sysfs";
	}
	if (have_cat) {
		level_from_catalog(&c->geom.l1i, &cc.l1i);
		level_from_catalog(&c->geom.l1d, &cc.l1d);
		level_from_catalog(&c->geom.ll, cc.l3.size ? &cc.l3 : &cc.l2);
		c->geom.ll_level = cc.l3.size ? 3 : 2;
		return "the catalogue's for this host's uarch";
	}
	return NULL;
}

static void note_geometry(struct campaign *c, const char *from)
{
	struct cache_level *lv[] = { &c->geom.l1i, &c->geom.l1d, &c->geom.ll };
	const char *names[] = { "L1i", "L1d", "LL" };
	struct strbuf sb = STRBUF_INIT;

	if (!from) {
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
	result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "simulated caches (%s): %s", from,
			sb.buf);
	strbuf_release(&sb);
}

int campaign_plan_sim(struct campaign *c, struct error *err)
{
	struct strbuf names = STRBUF_INIT;
	const char *geometry_from;
	char *vg = NULL;
	struct error none;

	error_clear(&none);
	if (c->o->backend == BACKEND_HW || c->o->backend == BACKEND_SW)
		return 0;
	if (sim_find_valgrind(NULL, &vg, c->o->backend == BACKEND_SIM ? err : &none)) {
		if (c->o->backend == BACKEND_SIM)
			return -1;
		return 0;	/* auto without valgrind: the notes say "not counted" */
	}
	c->valgrind = vg;
	geometry_from = choose_geometry(c);
	c->sim_metric = xcalloc(c->res.nmetrics + 1, sizeof(size_t));
	for (size_t i = 0; i < c->res.nmetrics; i++) {
		struct result_metric *m = &c->res.metrics[i];

		if (m->source == MSRC_CALLS || m->source == MSRC_CLOCK ||
		    m->source == MSRC_RUSAGE || !wants_sim(c, m))
			continue;
		m->source = MSRC_SIM;
		free(m->backend);
		m->backend = xstrdup("sim");
		m->available = 1;
		free(m->reason);
		free(m->hint);
		free(m->formula);
		m->reason = m->hint = m->formula = NULL;
		c->sim_metric[c->nsim++] = i;
		/* How the hardware would have counted it no longer applies. */
		result_drop_notes(&c->res, m->name);
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", m->name);
	}
	c->sim_runs = c->o->sim_runs ? c->o->sim_runs : 3;
	/* Under --backend sim the hidden inputs of simulated ratios are not
	 * counted by hardware either: their fallback notes do not apply. */
	for (size_t i = 0; c->o->backend == BACKEND_SIM && i < c->res.nmetrics; i++)
		if (c->res.metrics[i].hidden)
			result_drop_notes(&c->res, c->res.metrics[i].name);
	if (c->nsim) {
		note_simulated(c, &names);
		note_geometry(c, geometry_from);
	}
	strbuf_release(&names);
	return 0;
}

void campaign_release_sim(struct campaign *c)
{
	free(c->valgrind);
	free(c->sim_metric);
	c->valgrind = NULL;
	c->sim_metric = NULL;
	c->nsim = 0;
}

void campaign_record_sim(struct campaign *c, struct result_run *run, const struct sim_run *sr)
{
	struct sim_counts counts;
	struct error err;

	error_clear(&err);
	memset(&counts, 0, sizeof(counts));
	if (run->status != RUN_OK && run->status != RUN_FAILED)
		return;
	if (sim_collect(sr, &counts, &err)) {
		if (c->sim_failed++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
					"a simulated run gave no counts: %s", err.msg);
		return;
	}
	for (size_t k = 0; k < c->nsim; k++) {
		size_t m = c->sim_metric[k];
		double v;

		if (sim_metric_value(&counts, c->res.metrics[m].name, &v) == 0) {
			run->values[m].valid = 1;
			run->values[m].value = v;
		}
	}
}

/* Is a process metric named in the -m list? */
static int named(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list ? strstr(list, name) : NULL; p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
	return 0;
}

/*
 * Under --backend sim the program runs natively only when something needs
 * it: a software or call metric, or a process metric named with -m. Without
 * native runs the process metrics are not measured — time under valgrind is
 * not the program's.
 */
void campaign_decide_native(struct campaign *c)
{
	int need = c->o->backend != BACKEND_SIM || c->o->dry_run;

	for (size_t i = 0; i < c->res.nmetrics && !need; i++) {
		const struct result_metric *m = &c->res.metrics[i];

		if (m->source == MSRC_CLOCK || m->source == MSRC_RUSAGE)
			need = named(c->o->metrics, m->name);
		else if (m->available && !m->hidden && m->source != MSRC_SIM)
			need = 1;
	}
	c->native = need;
	if (need)
		return;
	for (size_t i = 0; i < c->res.nmetrics; i++) {
		struct result_metric *m = &c->res.metrics[i];

		if (m->source != MSRC_CLOCK && m->source != MSRC_RUSAGE)
			continue;
		m->available = 0;
		m->reason = xstrdup("not measured: --backend sim runs the program under "
				    "valgrind only, and time under simulation is not the "
				    "program's");
		m->hint = xstrdup("name it in -m to add native runs for it");
	}
}

/* ---- regions (libpmustat markers in the measured program) ---------------- */

/* The events this run counts, compacted (regions count the same group). */
static size_t run_events(const struct campaign *c, struct event_spec *evs, size_t *lead,
			 size_t *metric, size_t max)
{
	size_t n = 0, *map = xcalloc(c->nevents + 1, sizeof(size_t));

	for (size_t i = 0; i < c->nevents && n < max; i++) {
		if (c->leaders[i] == PLAN_NOT_COUNTED)
			continue;
		map[i] = n;
		evs[n] = c->events[i];
		metric[n] = c->event_metric[i];
		lead[n] = c->leaders[i] == i ? n : map[c->leaders[i]];
		n++;
	}
	free(map);
	return n;
}

int campaign_regions_begin(struct campaign *c, struct run_regions *rg, char *const *base,
			   char ***envp, struct error *err)
{
	struct event_spec evs[REGIONS_MAX_EVENTS];
	size_t lead[REGIONS_MAX_EVENTS];

	memset(rg, 0, sizeof(*rg));
	rg->n = run_events(c, evs, lead, rg->metric, REGIONS_MAX_EVENTS);
	if (regions_prepare(&rg->h, evs, lead, rg->n, err))
		return -1;
	rg->active = 1;
	rg->env = regions_env(&rg->h, base);
	*envp = rg->env;
	return 0;
}

/* The metric region:what, created on first sight with the unit and scale of
 * the whole-run metric like (by index: adding a metric moves the array). */
static size_t region_metric(struct campaign *c, const char *region, const char *what, int like)
{
	char *name = regions_metric_name(region, what);
	int i = result_metric_index(&c->res, name);
	char *unit = xstrdup(like >= 0 ? c->res.metrics[like].unit : "");
	double scale = like >= 0 ? c->res.metrics[like].scale : 1.0;
	struct result_metric *m;

	if (i < 0) {
		m = result_add_metric_late(&c->res, name, unit, MSRC_REGION);
		m->scale = scale;
		i = (int)c->res.nmetrics - 1;
	}
	free(unit);
	free(name);
	return (size_t)i;
}

static void record_region_row(struct campaign *c, struct run_regions *rg, size_t run_index,
			      const struct region_row *row)
{
	size_t mi = region_metric(c, row->name, "entries", -1);
	struct result_run *run;

	c->res.runs[run_index].values[mi].valid = 1;
	c->res.runs[run_index].values[mi].value = (double)row->count;
	for (size_t k = 0; k < rg->n; k++) {
		const struct region_value *v = &row->values[k];

		if (!v->valid)
			continue;
		/* Late metrics move the arrays: look everything up by index. */
		char *event = xstrdup(c->res.metrics[rg->metric[k]].name);

		mi = region_metric(c, row->name, event, (int)rg->metric[k]);
		free(event);
		run = &c->res.runs[run_index];
		run->values[mi].valid = 1;
		run->values[mi].value = (double)v->value;
		run->values[mi].enabled = v->enabled;
		run->values[mi].running = v->running;
	}
}

void campaign_regions_end(struct campaign *c, struct run_regions *rg, size_t run_index)
{
	struct regions_result res;
	struct error err;

	if (!rg->active)
		return;
	error_clear(&err);
	memset(&res, 0, sizeof(res));
	if (regions_collect(&rg->h, &res, &err) == 0) {
		for (size_t i = 0; i < res.nrows; i++)
			record_region_row(c, rg, run_index, &res.rows[i]);
		if (res.problem && c->regions_noted++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, res.problem_hint,
					"regions: %s", res.problem);
		if (res.dropped && c->regions_dropped++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, NULL, "regions: %llu entries "
					"of regions past the library's limit were not counted",
					(unsigned long long)res.dropped);
	} else if (c->regions_noted++ == 0) {
		result_add_note(&c->res, NOTE_WARNING, NULL, err.hint, "regions: %s", err.msg);
	}
	regions_result_release(&res);
	regions_env_free(rg->env);
	regions_release(&rg->h);
	rg->active = 0;
}
