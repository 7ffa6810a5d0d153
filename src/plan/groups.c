/*
 * Counter grouping. Events are grouped in the order given, so the user's
 * order decides which events share a run's group when there are more than
 * fit; the grouping is recorded in the result for every metric.
 */
#include "plan/groups.h"

#include "catalog/event_kind.h"

void plan_groups(const struct event_spec *evs, size_t n, size_t *leader)
{
	size_t cur = 0, members = 0;
	int open = 0;

	for (size_t i = 0; i < n; i++) {
		if (!event_needs_core_pmu(&evs[i])) {
			leader[i] = i;
			continue;
		}
		if (!open || members == PLAN_GROUP_MAX) {
			cur = i;
			members = 0;
			open = 1;
		}
		leader[i] = cur;
		members++;
	}
}
