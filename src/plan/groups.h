/*
 * Which counters share a group (and so are scheduled onto the PMU together,
 * making same-run ratios like IPC exact). Pure: a function of the event list.
 * Until the catalogue knows each uarch's counter capacity, core-PMU events
 * are grouped at most PLAN_GROUP_MAX at a time, a size every supported core
 * PMU holds; software and other dynamic-PMU events count alone (they never
 * compete for hardware counters).
 */
#ifndef PMU_PLAN_GROUPS_H
#define PMU_PLAN_GROUPS_H

#include <stddef.h>

#include "catalog/event.h"

#define PLAN_GROUP_MAX 4

/* leader[i] = index of event i's group leader (i itself for a leader). */
void plan_groups(const struct event_spec *evs, size_t n, size_t *leader);

#endif
