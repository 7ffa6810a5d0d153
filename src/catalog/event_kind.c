/*
 * Event classification. The core PMU's sysfs name differs by architecture
 * and hybrid topology (cpu, cpu_core, cpu_atom, armv8_pmuv3_0): match them
 * by name prefix rather than listing every model.
 */
#include "catalog/event_kind.h"

#include <string.h>

int event_needs_core_pmu(const struct event_spec *ev)
{
	return ev->attr.type == PERF_TYPE_HARDWARE || ev->attr.type == PERF_TYPE_HW_CACHE ||
	       ev->attr.type == PERF_TYPE_RAW || !strcmp(ev->pmu, "cpu") ||
	       !strncmp(ev->pmu, "cpu_", 4) || !strncmp(ev->pmu, "armv8_", 6);
}
