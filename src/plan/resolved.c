/*
 * Glue between a catalogue resolution and the planner: which events need
 * a core counter, which are anchors or fixed-counter capable, which
 * counters each may use, and which belong to one metric (a unit kept in one
 * group when it fits). Pure.
 */
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
