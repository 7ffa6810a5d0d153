/*
 * The perf_event counting mechanism. Portable metrics (-m, or the default
 * preset) are resolved through the catalogue for the host's uarch or
 * --uarch; native events (-e) are parsed directly. Every event is probed
 * once before any run, and what cannot be counted becomes a metric marked
 * unavailable with its reason. Once the backend policy has settled which
 * metrics are counted here, the events are laid out in groups that fit the
 * PMU (one group per run, rotating over blocks: group = block mod G), and
 * each native run opens its block's group before the program execs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/perf_event.h"
#include "campaign/mechanism.h"
#include "campaign/target.h"
#include "catalog/catalog.h"
#include "catalog/event_kind.h"
#include "core/strbuf.h"
#include "host/sysctl.h"
#include "plan/groups.h"

struct perf_state {
	struct event_spec *events;	/* counted events (by group, see plan) */
	size_t *event_metric;		/* result metric of each event */
	char *owned;			/* 1 = spec owned (from -e), 0 = the resolution's */
	struct plan_event *pev;		/* what the planner needs of each */
	size_t nevents, alloc;
	struct plan plan;
	struct resolution resol;
	int have_plan, have_resol;
	size_t *leaders;		/* scratch: one run's leaders */
	unsigned placements_noted;	/* hybrid: sets of core types already
					 * said (bit = set of types that ran) */
	char *said_missing;		/* per event: why a run had no value, said */
};

struct perf_run {
	size_t base;			/* index of our first event in the run's list */
};

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
	m->core_type = ev->core_type;
	return m;
}

/* "'cycles' not counted: no PMU" -> "no PMU": the metric's name is shown
 * next to its reason anyway. */
static const char *reason_of(const char *msg)
{
	const char *p = strstr(msg, " not counted: ");

	return p ? p + strlen(" not counted: ") : msg;
}

/*
 * Count ev (a shallow copy is kept; owned says whether we must release it).
 * Probes it first: an event that cannot be opened here is recorded as an
 * unavailable metric and not counted.
 */
static void count_event(struct campaign *c, struct perf_state *s, struct event_spec *ev,
			int owned, const struct plan_event *pe, int hidden)
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
	 * nothing is opened, so nothing is probed. The kernel's switch for a
	 * software event's kind is held first (docs/spawn.md, "static keys"):
	 * the probe's open and close would each flip it, and the runs' first
	 * open flip it again. */
	if (!c->o->dry_run)
		perf_hold(&c->server.held, ev, 1);
	if (!c->o->dry_run &&
	    perf_probe_cpu(ev, &c->res.host, campaign_target_probe_cpu(c), &why)) {
		campaign_mark_unavailable(m, reason_of(why.msg), why.hint);
		if (owned)
			event_spec_release(ev);
		return;
	}
	if (s->nevents == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->events = xrealloc(s->events, s->alloc * sizeof(*s->events));
		s->event_metric = xrealloc(s->event_metric, s->alloc * sizeof(size_t));
		s->owned = xrealloc(s->owned, s->alloc);
		s->pev = xrealloc(s->pev, s->alloc * sizeof(*s->pev));
	}
	s->events[s->nevents] = *ev;
	s->event_metric[s->nevents] = c->res.nmetrics - 1;
	s->owned[s->nevents] = (char)owned;
	s->pev[s->nevents++] = *pe;
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

static int plan_native_events(struct campaign *c, struct perf_state *s, struct error *err)
{
	char **items = NULL;
	int n = event_list_split(c->req_events, &items, err);

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
		count_event(c, s, &ev, 1, &pe, 0);
	}
	event_list_free(items);
	return n < 0 ? -1 : 0;
}

/* Count the chosen events of one available metric (once each); returns NULL
 * when all of them could be opened, else the first failing event's metric. */
static const struct result_metric *count_metric_events(struct campaign *c, struct perf_state *s,
						       const struct resolved_metric *rm,
						       const struct plan_event *pev)
{
	for (size_t k = 0; k < rm->nevents; k++) {
		struct resolved_event *re = &s->resol.events[rm->events[k]];
		int m = result_metric_index(&c->res, re->spec.name);

		if (m < 0)
			count_event(c, s, &re->spec, 0, &pev[rm->events[k]], 1);
		m = result_metric_index(&c->res, re->spec.name);
		if (!c->res.metrics[m].available)
			return &c->res.metrics[m];
	}
	return NULL;
}

static void plan_resolved_metric(struct campaign *c, struct perf_state *s,
				 const struct resolved_metric *rm, const struct plan_event *pev)
{
	const struct result_metric *bad;
	struct result_metric *m;
	int same;

	if (rm->kind == MK_PROCESS) {
		int i = result_metric_index(&c->res, rm->name);

		/* Asked for (by name or preset): in the Holm family. */
		if (i >= 0 && !rm->implied)
			c->res.metrics[i].implicit = 0;
		return;
	}
	if (result_metric_index(&c->res, rm->name) >= 0)
		return;
	for (size_t k = 0; k < rm->nnotes; k++)
		result_add_note(&c->res, NOTE_NOTE, rm->name, NULL, "%s", rm->notes[k]);
	bad = rm->available ? count_metric_events(c, s, rm, pev) : NULL;
	/* A metric that is exactly one event of its own name is that event. */
	same = rm->available && rm->nevents == 1 &&
	       !strcmp(s->resol.events[rm->events[0]].spec.name, rm->name) &&
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
	m->implicit = rm->part;	/* a core type's part: shown, the sum is tested */
	m->formula = rm->formula ? xstrdup(rm->formula) : NULL;
	m->proxy = rm->proxy ? xstrdup(rm->proxy) : NULL;
	if (!rm->available)
		campaign_mark_unavailable(m, rm->reason ? rm->reason : "not countable here",
					  rm->hint);
	else if (bad) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "needs '%s': %s", bad->name, bad->reason);
		campaign_mark_unavailable(m, sb.buf, bad->hint);
		strbuf_release(&sb);
	}
}

static int plan_portable_metrics(struct campaign *c, struct perf_state *s, struct error *err)
{
	struct plan_event *pev;

	if (campaign_catalog(c, err))
		return -1;
	if (catalog_resolve(&c->cat.cat, c->req_metrics, &c->cat.ctx, &s->resol, err))
		return -1;
	s->have_resol = 1;
	pev = xcalloc(s->resol.nevents + 1, sizeof(*pev));
	plan_events_from_resolution(&s->resol, pev);
	for (size_t i = 0; i < s->resol.nmetrics; i++)
		plan_resolved_metric(c, s, &s->resol.metrics[i], pev);
	free(pev);
	return 0;
}

static void perf_release(void *state)
{
	struct perf_state *s = state;

	for (size_t i = 0; i < s->nevents; i++)
		if (s->owned[i])
			event_spec_release(&s->events[i]);
	free(s->events);
	free(s->event_metric);
	free(s->owned);
	free(s->pev);
	free(s->leaders);
	free(s->said_missing);
	if (s->have_plan)
		plan_release(&s->plan);
	if (s->have_resol)
		resolution_release(&s->resol);
	free(s);
}

static int perf_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct perf_state *s = xcalloc(1, sizeof(*s));

	*state = s;
	need->runs = MECH_NATIVE;
	c->res.kernel_excluded = perf_kernel_excluded();
	if (c->req_metrics && plan_portable_metrics(c, s, err))
		return -1;
	if (c->req_events && plan_native_events(c, s, err))
		return -1;
	return 0;
}

/* Events the backend policy took away (--backend sw, or an input of a
 * simulated ratio) are not opened. */
static void drop_unserved(struct campaign *c, struct perf_state *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nevents; i++) {
		const struct result_metric *m = &c->res.metrics[s->event_metric[i]];

		if (m->source != MSRC_PERF || !m->available) {
			if (s->owned[i])
				event_spec_release(&s->events[i]);
			continue;
		}
		s->events[n] = s->events[i];
		s->event_metric[n] = s->event_metric[i];
		s->owned[n] = s->owned[i];
		s->pev[n++] = s->pev[i];
	}
	s->nevents = n;
}

/* Native events alone (-e) need no catalogue to resolve, but their groups
 * must fit this host's counters, which only its uarch's entry knows: without
 * it every group got PLAN_GROUP_MAX general-purpose counters and no fixed
 * one, and an event list that fits the PMU could be refused. A host whose
 * uarch is unknown keeps that default. */
static void open_catalog_for_capacity(struct campaign *c, const struct perf_state *s)
{
	struct error e;
	int core = 0;

	for (size_t i = 0; i < s->nevents; i++)
		core |= s->pev[i].core;
	error_clear(&e);
	if (core && !c->have_cat)
		(void)campaign_catalog(c, &e);
}

/* Lay the counted events out in groups that fit the core PMU. */
static int perf_plan_done(struct campaign *c, void *state, struct mech_needs *need,
			     struct error *err)
{
	struct perf_state *s = state;
	struct plan_pmus pm = { 1, { { PLAN_GROUP_MAX, 0, 0 } }, { NULL } };
	int watchdog = 0;

	drop_unserved(c, s);
	open_catalog_for_capacity(c, s);
	if (c->have_cat) {
		if (host_sysctl_int("kernel/nmi_watchdog", &watchdog))
			watchdog = 0;
		/* one capacity per core PMU: two on a hybrid part */
		plan_pmus_from_catalog(&c->cat.cat, watchdog == 1, &pm);
	}
	if (plan_build_pmus(s->pev, s->nevents, &pm, 0, &s->plan, err))
		return -1;
	s->have_plan = 1;
	for (size_t k = 0; k < s->plan.nnotes; k++)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "%s", s->plan.notes[k]);
	for (size_t g = 0; g < s->plan.ngroups; g++)
		for (size_t k = 0; k < s->plan.groups[g].n; k++)
			c->res.metrics[s->event_metric[s->plan.groups[g].ev[k]]].group = (int)g;
	s->leaders = xcalloc(s->nevents + 1, sizeof(size_t));
	s->said_missing = xcalloc(s->nevents + 1, 1);
	need->groups = s->plan.ngroups;
	if (c->res.kernel_excluded && s->nevents)
		result_add_note(&c->res, NOTE_NOTE, NULL,
				"run as root, or 'sysctl kernel.perf_event_paranoid=1'",
				"counters count user space only: kernel.perf_event_paranoid=%d "
				"forbids kernel counting for this user", c->res.host.paranoid);
	return 0;
}

static int perf_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
		      struct error *err)
{
	struct perf_state *s = state;
	struct perf_run *pr = run;

	(void)c;
	(void)err;
	pr->base = rs->nevents;
	plan_run_leaders(&s->plan, (size_t)rs->slot->group, s->nevents, s->leaders);
	/* An attach session counts its intervals with one set of counters:
	 * every group at once, multiplexed by the kernel as perf stat does
	 * (time_running says how much each counted). */
	for (size_t g = 1; c->target && g < s->plan.ngroups; g++) {
		size_t *more = xcalloc(s->nevents + 1, sizeof(size_t));

		plan_run_leaders(&s->plan, g, s->nevents, more);
		for (size_t i = 0; i < s->nevents; i++)
			if (s->leaders[i] == PLAN_NOT_COUNTED)
				s->leaders[i] = more[i];
		free(more);
	}
	for (size_t i = 0; i < s->nevents; i++) {
		size_t l = s->leaders[i];

		run_setup_add_event(rs, &s->events[i], l == PLAN_NOT_COUNTED ? l : pr->base + l,
				    s->event_metric[i], 1);
	}
	return 0;
}

static void note_placement(struct campaign *c, struct perf_state *s, const struct result_run *rec,
			   size_t run_index);

/*
 * Event i of this run's group has no value: its counter could not be
 * opened on the child (open_errno), or not read. Said once per event, as a
 * warning on it (in the table's notes and the result's JSON), since the
 * table can only say "no usable runs": the probe before the runs opened
 * the event alone, so a refusal here is the kernel's answer to the event
 * in its group, or to something that changed since.
 */
static void note_missing(struct campaign *c, struct perf_state *s, size_t i, int errnum,
			 size_t run_index)
{
	const struct event_spec *ev = &s->events[i];
	size_t lead = s->leaders[i];
	struct strbuf sb = STRBUF_INIT, hint = STRBUF_INIT;
	struct error why;

	if (s->said_missing[i] || lead == PLAN_NOT_COUNTED || c->target)
		return;	/* an attach session says its own (target.c) */
	s->said_missing[i] = 1;
	error_clear(&why);
	if (errnum) {
		perf_open_strerror(ev, errnum, &c->res.host, &why);
		strbuf_addf(&sb, "no value from run %zu on where it cannot be opened: %s", run_index + 1,
			    reason_of(why.msg));
		if (lead != i)
			strbuf_addf(&sb, " (as a member of the group led by '%s'; it opened "
				    "alone when probed before the runs)", s->events[lead].name);
		strbuf_addf(&hint, "%s; 'pmustat explain %s' says what it counts%s%s",
			    why.hint[0] ? why.hint : "see 'pmustat list' for the events usable here",
			    ev->name, lead != i ? ", and counting it alone (-e " : "",
			    lead != i ? ev->name : "");
		if (lead != i)
			strbuf_adds(&hint, ") shows whether the group is the cause");
	} else {
		strbuf_addf(&sb, "no value from run %zu on where it cannot be read: its counter "
			    "opened, but read(2) returned no count", run_index + 1);
		strbuf_addf(&hint, "see 'pmustat doctor' and 'pmustat explain %s'", ev->name);
	}
	result_add_note(&c->res, NOTE_WARNING, ev->name, hint.buf, "%s", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&hint);
}

static void perf_end(struct campaign *c, void *state, void *run,
		     const struct measure_outcome *out, size_t run_index)
{
	struct perf_state *s = state;
	const struct perf_run *pr = run;
	struct result_run *rec = &c->res.runs[run_index];

	if (rec->status == RUN_EXEC_FAILED)
		return;
	for (size_t i = 0; i < s->nevents; i++) {
		struct result_value *v = &rec->values[s->event_metric[i]];
		size_t k = pr->base + i;

		if (!out->read_ok[k]) {
			note_missing(c, s, i, out->open_errno ? out->open_errno[k] : 0, run_index);
			continue;
		}
		v->valid = 1;
		v->value = (double)out->readings[k].value;
		v->enabled = out->readings[k].enabled;
		v->running = out->readings[k].running;
	}
	note_placement(c, state, rec, run_index);
}

/*
 * Hybrid parts: say where the run's threads ran (result_run_placement()),
 * once per distinct placement: the first run's, and a run that used two
 * (or three) core types.
 */
static void note_placement(struct campaign *c, struct perf_state *s, const struct result_run *rec,
			   size_t run_index)
{
	const char *pmu[8];
	double frac[8];
	size_t np;
	unsigned set = result_run_placement(&c->res, rec, pmu, frac, 8, &np), ntypes = 0;
	struct strbuf sb = STRBUF_INIT;

	if (!np || set >= 32 || (s->placements_noted & (1u << set)))
		return;
	s->placements_noted |= 1u << set;
	strbuf_addf(&sb, "run %zu: the threads ran on ", run_index);
	result_placement_text(&sb, pmu, frac, np);
	for (unsigned b = set; b; b &= b - 1)
		ntypes++;
	if (ntypes > 1)	/* two types, or three on Arrow Lake-H (cpu_lowpower) */
		strbuf_addf(&sb, ": %s core types, so each type's part counts its own share and "
			    "the sum is the whole run", ntypes == 2 ? "both" : "three");
	else
		strbuf_adds(&sb, ": one core type; each type's part counts only while the threads "
			    "run there");
	result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "%s", sb.buf);
	strbuf_release(&sb);
}

static void perf_dry_run(const struct campaign *c, const void *state, struct strbuf *out)
{
	const struct perf_state *s = state;
	const char **labels = xcalloc(s->nevents + 1, sizeof(char *));

	strbuf_addf(out, "dry run on %s: the perf_event_attr of every counter, per group "
		    "(group = block mod %zu)\n", c->have_cat ? c->cat.cat.uarch : "this host",
		    s->plan.ngroups ? s->plan.ngroups : 1);
	plan_render_dry_run(&s->plan, s->events, labels, s->nevents, out);
	free(labels);
}

const struct mechanism_ops mech_perf = {
	.name = "perf",
	.run_size = sizeof(struct perf_run),
	.plan = perf_plan,
	.plan_done = perf_plan_done,
	.begin = perf_begin,
	.end = perf_end,
	.dry_run = perf_dry_run,
	.release = perf_release,
};
