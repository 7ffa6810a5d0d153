/*
 * Classifying a parsed event by where it must be counted. Shared by the
 * planner (grouping) and the backend (explaining open failures).
 */
#ifndef PMU_CATALOG_EVENT_KIND_H
#define PMU_CATALOG_EVENT_KIND_H

#include "catalog/event.h"

/* Does this event need a core-PMU hardware counter (generic hardware or
 * cache event, raw, or an event of the cpu / cpu_core / armv8 PMU)? */
int event_needs_core_pmu(const struct event_spec *ev);

#endif
