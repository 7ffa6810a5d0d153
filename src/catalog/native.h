/*
 * The native events one can name with -e, gathered from the three places
 * pmustat knows them: the catalogue of the chosen uarch (with each event's
 * perf syntax), the host's sysfs aliases (when that catalogue is the host's
 * own, as select.h decides), and libpfm4's tables for the PMUs it finds
 * here. What `pmustat list --events` shows; gathering is the only part that
 * reads anything (libpfm4 is loaded on first use), rendering is
 * report/list.h's.
 */
#ifndef PMU_CATALOG_NATIVE_H
#define PMU_CATALOG_NATIVE_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "catalog/select.h"

struct native_event {
	char *name;		/* as written after -e, or its sysfs alias name */
	char *pmu;		/* "cpu", "msr", "amd64_fam19h_zen4", ... */
	const char *source;	/* "catalogue", "sysfs" or "libpfm4" (static) */
	char *detail;		/* how to write it ("msr/tsc/"), or what it means */
};

struct native_events {
	struct native_event *v;	/* catalogue events first, then sysfs, then libpfm4 */
	size_t n, alloc;
};

/*
 * Gather into out (initialised here). r is h's catalogue resolved with
 * "all". filter NULL keeps every event; else an event is kept when its
 * name (or perf syntax, or "pmu/alias/") contains filter, ignoring case.
 * When libpfm4 cannot be loaded its part is simply empty.
 */
void catalog_native_events(const struct catalog_host *h, const struct resolution *r,
			   const char *filter, struct native_events *out);
void native_events_release(struct native_events *ev);

#endif
