/*
 * Glue between a catalogue resolution and the planner: which events need
 * a core counter, which are anchors or fixed-counter capable, which
 * counters each may use, and which belong to one metric (a unit kept in one
 * group when it fits). Pure.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "plan/groups.h"

void plan_events_from_resolution(const struct resolution *r, struct plan_event *out)
{
	for (size_t i = 0; i < r->nevents; i++) {
		const struct resolved_event *e = &r->events[i];

		memset(&out[i], 0, sizeof(out[i]));
		out[i].core = e->chosen && !e->system && strcmp(e->pmu_role, "software");
		out[i].anchor = e->anchor;
		out[i].fixed = e->fixed || (e->anchor && e->spec.attr.type == PERF_TYPE_HARDWARE);
		out[i].counters = e->counters;
		out[i].unit = -1;
		out[i].pmu = e->core_index > 0 ? (unsigned)e->core_index : 0;
	}
	for (size_t m = 0; m < r->nmetrics; m++) {
		const struct resolved_metric *rm = &r->metrics[m];

		for (size_t k = 0; k < rm->nevents; k++) {
			struct plan_event *pe = &out[rm->events[k]];

			if (!strcmp(rm->name, "cycles"))
				pe->cycles = 1;
			/* derived metrics come after their inputs' units are set:
			 * an event keeps the unit of the first base metric using it */
			if (pe->unit < 0 && rm->kind != MK_DERIVED)
				pe->unit = (int)m;
		}
	}
}

void plan_capacity_from_catalog(const struct catalog_capacity *cc, int watchdog_on,
				struct plan_capacity *cap)
{
	cap->gp = cc->gp;
	cap->fixed = cc->fixed;
	cap->watchdog = watchdog_on ? cc->watchdog : 0;
}

void plan_pmus_from_catalog(const struct catalog *cat, int watchdog_on, struct plan_pmus *pm)
{
	struct catalog_core_pmu cp[CATALOG_MAX_CORE_PMUS];
	size_t n = catalog_core_pmus(cat, cp, CATALOG_MAX_CORE_PMUS);

	memset(pm, 0, sizeof(*pm));
	for (size_t k = 0; k < n && k < PLAN_MAX_PMUS; k++) {
		struct catalog_capacity cc;

		catalog_capacity(cat, &cc);
		cc.gp = cp[k].cap.gp;
		cc.fixed = cp[k].cap.fixed;
		cc.watchdog = cp[k].cap.watchdog;
		plan_capacity_from_catalog(&cc, watchdog_on, &pm->cap[k]);
		pm->name[k] = cp[k].sysfs;
		pm->n++;
	}
	if (!pm->n) {
		struct catalog_capacity cc;

		catalog_capacity(cat, &cc);
		plan_capacity_from_catalog(&cc, watchdog_on, &pm->cap[0]);
		pm->n = 1;
	}
}

int plan_dry_run_metrics(const struct catalog *cat, const char *metrics,
			 const struct resolve_ctx *ctx, int watchdog_on, int multiplex,
			 struct strbuf *out, struct error *err)
{
	struct resolution r;
	struct plan_pmus pm;
	struct plan_event *pe;
	struct event_spec *evs;
	struct plan p;
	int rc;

	if (catalog_resolve(cat, metrics, ctx, &r, err) < 0)
		return -1;
	pe = xcalloc(r.nevents + 1, sizeof(*pe));
	evs = xcalloc(r.nevents + 1, sizeof(*evs));
	plan_events_from_resolution(&r, pe);
	plan_pmus_from_catalog(cat, watchdog_on, &pm);
	/* Events of unchosen alternatives are described, never opened. */
	for (size_t i = 0; i < r.nevents; i++) {
		evs[i] = r.events[i].spec;
		if (!r.events[i].chosen)
			pe[i].core = 0;
	}
	rc = plan_build_pmus(pe, r.nevents, &pm, multiplex, &p, err);
	if (!rc) {
		struct plan q = p;
		size_t keep = 0;

		/* only chosen events appear among the "every run" ones */
		q.always = xcalloc(p.nalways + 1, sizeof(size_t));
		for (size_t k = 0; k < p.nalways; k++)
			if (r.events[p.always[k]].chosen)
				q.always[keep++] = p.always[k];
		q.nalways = keep;
		strbuf_addf(out, "uarch %s: metrics %s\n", r.uarch, metrics);
		plan_render_dry_run(&q, evs, NULL, r.nevents, out);
		for (size_t m = 0; m < r.nmetrics; m++) {
			const struct resolved_metric *rm = &r.metrics[m];

			for (size_t k = 0; k < rm->nnotes; k++)
				strbuf_addf(out, "  note: %s\n", rm->notes[k]);
			if (!rm->available && rm->kind != MK_PROCESS)
				strbuf_addf(out, "  note: %s: not counted — %s\n", rm->name,
					    rm->reason ? rm->reason : "unavailable");
		}
		free(q.always);
		plan_release(&p);
	}
	free(evs);
	free(pe);
	resolution_release(&r);
	return rc;
}
