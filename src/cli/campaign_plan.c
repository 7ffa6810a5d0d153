/*
 * Planning a campaign's metrics (part of the campaign, see campaign.h):
 * portable metrics (-m, or the default preset) are resolved through the
 * catalogue for the host's uarch or --uarch; native events (-e) are parsed
 * directly. Every event is probed once before any run, and everything that
 * cannot be counted becomes a metric marked unavailable with its reason and a
 * note. Counted events are then laid out in groups that fit the PMU (one
 * group per run, rotating over blocks), and metrics defined by a formula are
 * computed per run from the events of that run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/perf_event.h"
#include "catalog/event_kind.h"
#include "cli/campaign.h"
#include "core/strbuf.h"
#include "plan/groups.h"

/* Process metrics: always measured, they cost nothing extra (wait4 + clock). */
static const struct { const char *name, *unit; enum metric_source src; } process_metrics[] = {
	{ "wall-time", "ns", MSRC_CLOCK },
	{ "user-time", "ns", MSRC_RUSAGE },
	{ "sys-time", "ns", MSRC_RUSAGE },
	{ "max-rss", "KiB", MSRC_RUSAGE },
};
#define NPROCESS (sizeof(process_metrics) / sizeof(process_metrics[0]))

static void plan_process_metrics(struct campaign *c)
{
	for (size_t k = 0; k < NPROCESS; k++)
		result_add_metric(&c->res, process_metrics[k].name, process_metrics[k].unit,
				  process_metrics[k].src);
}

/* The kernel's clocks count nanoseconds; keep them in ns (scale 1) so they
 * share the auto-scaled time display of wall-time, rather than perf's fixed
 * msec. Other events keep their sysfs scale and unit. */
static int is_clock_event(const struct event_spec *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

static struct result_metric *add_event_metric(struct campaign *c, const struct event_spec *ev)
{
	int clock = is_clock_event(ev);
	struct result_metric *m = result_add_metric(&c->res, ev->name, clock ? "ns" : ev->unit,
						    MSRC_PERF);

	m->pmu = xstrdup(ev->pmu);
	m->type = ev->attr.type;
	m->config = ev->attr.config;
	m->config1 = ev->attr.config1;
	m->config2 = ev->attr.config2;
	m->scale = !clock && ev->scale > 0 ? ev->scale : 1.0;
	return m;
}

/* "'cycles' not counted: no PMU" -> "no PMU": the metric's name is shown
 * next to its reason anyway. */
static const char *reason_of(const char *msg)
{
	const char *p = strstr(msg, " not counted: ");

	return p ? p + strlen(" not counted: ") : msg;
}

static void mark_unavailable(struct result_metric *m, const char *reason, const char *hint)
{
	m->available = 0;
	free(m->reason);
	free(m->hint);
	m->reason = xstrdup(reason);
	m->hint = hint && *hint ? xstrdup(hint) : NULL;
}

/*
 * Count ev (a shallow copy is kept; owned says whether the campaign must
 * release it). Probes it first: an event that cannot be opened here is
 * recorded as an unavailable metric and not counted. Returns its metric.
 */
static struct result_metric *count_event(struct campaign *c, struct event_spec *ev, int owned,
					 const struct plan_event *pe, int hidden)
{
	struct result_metric *m;
	struct error why;

	if (c->res.kernel_excluded) {
		ev->attr.exclude_kernel = 1;
		ev->attr.exclude_hv = 1;
	}
	m = add_event_metric(c, ev);
	m->hidden = hidden;
	error_clear(&why);
	/* A dry run plans for the uarch asked for, which may not be this host:
	 * nothing is opened, so nothing is probed. */
	if (!c->o->dry_run && perf_probe(ev, &c->res.host, &why)) {
		mark_unavailable(m, reason_of(why.msg), why.hint);
		if (owned)
			event_spec_release(ev);
		return m;
	}
	ALLOC_GROW(c->events, c->nevents + 1, c->events_alloc);
	c->event_metric = xrealloc(c->event_metric, c->events_alloc * sizeof(size_t));
	c->owned = xrealloc(c->owned, c->events_alloc);
	c->pev = xrealloc(c->pev, c->events_alloc * sizeof(*c->pev));
	c->events[c->nevents] = *ev;
	c->event_metric[c->nevents] = c->res.nmetrics - 1;
	c->owned[c->nevents] = (char)owned;
	c->pev[c->nevents++] = *pe;
	return m;
}

/* How the planner sees a native event given with -e. */
static struct plan_event plan_event_of(const struct event_spec *ev)
{
	struct plan_event pe = { 0 };
	int generic = ev->attr.type == PERF_TYPE_HARDWARE;

	pe.core = event_needs_core_pmu(ev) && !ev->uncore;
	pe.anchor = generic && (ev->attr.config == PERF_COUNT_HW_CPU_CYCLES ||
				ev->attr.config == PERF_COUNT_HW_INSTRUCTIONS);
	pe.fixed = pe.anchor;
	pe.cycles = generic && ev->attr.config == PERF_COUNT_HW_CPU_CYCLES;
	pe.unit = -1;
	return pe;
}

static int plan_native_events(struct campaign *c, const char *list, struct error *err)
{
	char **items = NULL;
	int n = event_list_split(list, &items, err);

	for (int i = 0; i < n; i++) {
		struct event_spec ev;
		struct plan_event pe;

		if (event_parse(&c->model, items[i], &ev, err)) {
			n = -1;
			break;
		}
		if (result_metric_index(&c->res, ev.name) >= 0) {
			error_set(err, ERR_USAGE, "event '%s' is listed twice", ev.name);
			error_hint(err, "list each event and metric once in -e/-m");
			event_spec_release(&ev);
			n = -1;
			break;
		}
		pe = plan_event_of(&ev);
		count_event(c, &ev, 1, &pe, 0);
	}
	event_list_free(items);
	return n < 0 ? -1 : 0;
}

static void add_resolution_notes(struct campaign *c, const struct resolved_metric *rm)
{
	for (size_t k = 0; k < rm->nnotes; k++)
		result_add_note(&c->res, NOTE_NOTE, rm->name, NULL, "%s", rm->notes[k]);
}

/* Count the chosen events of one available metric (once each); returns 0
 * when all of them could be opened, else the first failing event's metric. */
static const struct result_metric *count_metric_events(struct campaign *c,
						       const struct resolved_metric *rm,
						       const struct plan_event *pev)
{
	for (size_t k = 0; k < rm->nevents; k++) {
		struct resolved_event *re = &c->resol.events[rm->events[k]];
		int m = result_metric_index(&c->res, re->spec.name);

		if (m < 0)
			count_event(c, &re->spec, 0, &pev[rm->events[k]], 1);
		m = result_metric_index(&c->res, re->spec.name);
		if (!c->res.metrics[m].available)
			return &c->res.metrics[m];
	}
	return NULL;
}

static void plan_resolved_metric(struct campaign *c, const struct resolved_metric *rm,
				 const struct plan_event *pev)
{
	const struct result_metric *bad;
	struct result_metric *m;
	int same;

	if (rm->kind == MK_PROCESS || result_metric_index(&c->res, rm->name) >= 0)
		return;
	add_resolution_notes(c, rm);
	bad = rm->available ? count_metric_events(c, rm, pev) : NULL;
	/* A metric that is exactly one event of its own name is that event. */
	same = rm->available && rm->nevents == 1 &&
	       !strcmp(c->resol.events[rm->events[0]].spec.name, rm->name) &&
	       rm->formula && !strcmp(rm->formula, rm->name);
	if (same && !bad) {
		m = &c->res.metrics[result_metric_index(&c->res, rm->name)];
		m->hidden = rm->implied;
		m->proxy = rm->proxy ? xstrdup(rm->proxy) : NULL;
		return;
	}
	if (same)
		return;	/* the event's own metric already says why not */
	m = result_add_metric(&c->res, rm->name, rm->unit ? rm->unit : "", MSRC_FORMULA);
	m->hidden = rm->implied;
	m->formula = rm->formula ? xstrdup(rm->formula) : NULL;
	m->proxy = rm->proxy ? xstrdup(rm->proxy) : NULL;
	if (!rm->available)
		mark_unavailable(m, rm->reason ? rm->reason : "not countable here", rm->hint);
	else if (bad) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "needs '%s': %s", bad->name, bad->reason);
		mark_unavailable(m, sb.buf, bad->hint);
		strbuf_release(&sb);
	}
}

static int plan_portable_metrics(struct campaign *c, const char *list, struct error *err)
{
	struct plan_event *pev;

	if (catalog_host_open(&c->cat, c->o->uarch, err))
		return -1;
	c->have_cat = 1;
	if (c->cat.note[0])
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "%s", c->cat.note);
	if (catalog_resolve(&c->cat.cat, list, &c->cat.ctx, &c->resol, err))
		return -1;
	c->have_resol = 1;
	pev = xcalloc(c->resol.nevents + 1, sizeof(*pev));
	plan_events_from_resolution(&c->resol, pev);
	for (size_t i = 0; i < c->resol.nmetrics; i++)
		plan_resolved_metric(c, &c->resol.metrics[i], pev);
	free(pev);
	return 0;
}

/* One note per distinct reason, naming every metric it applies to, so four
 * hardware events missing for one cause read as one line, not four. */
static void note_unavailable(struct campaign *c)
{
	size_t n = c->res.nmetrics;
	char *done = xcalloc(n ? n : 1, 1);

	for (size_t i = 0; i < n; i++) {
		const struct result_metric *m = &c->res.metrics[i];
		struct strbuf names = STRBUF_INIT;

		if (m->available || done[i] || m->hidden)
			continue;
		for (size_t j = i; j < n; j++) {
			const struct result_metric *o = &c->res.metrics[j];

			if (o->available || done[j] || o->hidden || strcmp(o->reason, m->reason))
				continue;
			done[j] = 1;
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", o->name);
		}
		result_add_note(&c->res, NOTE_NOTE, m->name, m->hint, "%s: not counted — %s",
				names.buf, m->reason);
		strbuf_release(&names);
	}
	free(done);
}

static int watchdog_on(void)
{
	char path[4096];
	FILE *f;
	int v = 0;

	snprintf(path, sizeof(path), "%s/sys/kernel/nmi_watchdog", procfs_root());
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v == 1;
}

/* Lay the counted events out in groups that fit the core PMU. */
static int plan_counter_groups(struct campaign *c, struct error *err)
{
	struct plan_capacity cap = { PLAN_GROUP_MAX, 0, 0 };

	if (c->have_cat) {
		struct catalog_capacity cc;

		catalog_capacity(&c->cat.cat, &cc);
		plan_capacity_from_catalog(&cc, watchdog_on(), &cap);
	}
	if (plan_build(c->pev, c->nevents, &cap, 0, &c->plan, err))
		return -1;
	c->have_plan = 1;
	for (size_t k = 0; k < c->plan.nnotes; k++)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "%s", c->plan.notes[k]);
	for (size_t g = 0; g < c->plan.ngroups; g++)
		for (size_t k = 0; k < c->plan.groups[g].n; k++)
			c->res.metrics[c->event_metric[c->plan.groups[g].ev[k]]].group = (int)g;
	c->leaders = xcalloc(c->nevents + 1, sizeof(size_t));
	return 0;
}

static int plan_requests(struct campaign *c, struct error *err)
{
	char *calls = NULL;
	char *metrics = campaign_take_calls(c->o->metrics, &calls);
	char *events = campaign_take_calls(c->o->events, &calls);
	int rc = -1;

	if (!metrics && !events && !calls)
		metrics = xstrdup("default");
	if (metrics && plan_portable_metrics(c, metrics, err))
		goto out;
	if (events && plan_native_events(c, events, err))
		goto out;
	if (calls && !c->o->dry_run && campaign_plan_calls(c, calls, err))
		goto out;
	if (calls && c->o->dry_run)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "call counters (%s) are resolved "
				"against the program when it runs", calls);
	rc = 0;
out:
	free(calls);
	free(metrics);
	free(events);
	return rc;
}

int campaign_plan(struct campaign *c, struct error *err)
{
	plan_process_metrics(c);
	c->res.kernel_excluded = perf_kernel_excluded();
	if (plan_requests(c, err) || campaign_plan_sim(c, err))
		return -1;
	campaign_decide_native(c);
	if (plan_counter_groups(c, err))
		return -1;
	if (c->res.kernel_excluded && c->nevents)
		result_add_note(&c->res, NOTE_NOTE, NULL,
				"run as root, or 'sysctl kernel.perf_event_paranoid=1'",
				"counters count user space only: kernel.perf_event_paranoid=%d "
				"forbids kernel counting for this user", c->res.host.paranoid);
	note_unavailable(c);
	return 0;
}

/* Formula metrics read the same run's values of the events they name. */
struct run_lookup {
	const struct result *r;
	const struct result_run *run;
};

static int lookup_value(void *ctx, const char *name, double *v)
{
	const struct run_lookup *l = ctx;
	int m = result_metric_index(l->r, name);
	const struct result_value *rv;

	if (m < 0)
		return -1;
	rv = &l->run->values[m];
	/* A multiplexed count covers part of the run: not the same run's value. */
	if (!rv->valid || (l->r->metrics[m].source == MSRC_PERF && rv->running < rv->enabled))
		return -1;
	*v = l->run->values[m].value * l->r->metrics[m].scale;
	return 0;
}

void campaign_compute_formulas(const struct campaign *c, struct result_run *run)
{
	struct run_lookup l = { &c->res, run };

	for (size_t m = 0; m < c->res.nmetrics; m++) {
		const struct result_metric *met = &c->res.metrics[m];
		double v;

		if (met->source != MSRC_FORMULA || !met->available || !met->formula)
			continue;
		if (formula_eval(met->formula, lookup_value, &l, &v, NULL) == 0 && v == v) {
			run->values[m].valid = 1;
			run->values[m].value = v;
		}
	}
}

int campaign_dry_run(const struct campaign *c, struct strbuf *out)
{
	const char **labels = xcalloc(c->nevents + 1, sizeof(char *));

	strbuf_addf(out, "dry run on %s: the perf_event_attr of every counter, per group "
		    "(group = block mod %zu)\n", c->have_cat ? c->cat.cat.uarch : "this host",
		    c->plan.ngroups ? c->plan.ngroups : 1);
	plan_render_dry_run(&c->plan, c->events, labels, c->nevents, out);
	free(labels);
	return 0;
}
