/*
 * Gathering the native events for `pmustat list --events` (see native.h):
 * one small function per source, each appending to the same list in the
 * order they are shown.
 */
#include "catalog/native.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/libpfm.h"

static int matches(const char *s, const char *filter)
{
	return !filter || strcasestr(s, filter) != NULL;
}

/* Append one event; detail is taken over (malloc'd). */
static void add(struct native_events *ev, const char *name, const char *pmu,
		const char *source, char *detail)
{
	struct native_event *e;

	ALLOC_GROW(ev->v, ev->n + 1, ev->alloc);
	e = &ev->v[ev->n++];
	e->name = xstrdup(name);
	e->pmu = xstrdup(pmu);
	e->source = source;
	e->detail = detail;
}

static void add_catalogue(struct native_events *ev, const struct resolution *r,
			  const char *filter)
{
	for (size_t i = 0; i < r->nevents; i++) {
		const struct resolved_event *e = &r->events[i];

		if (matches(e->name, filter) || matches(e->syntax, filter))
			add(ev, e->name, e->spec.pmu, "catalogue", xstrdup(e->syntax));
	}
}

static void add_sysfs(struct native_events *ev, const struct sysfs_model *m,
		      const char *filter)
{
	for (size_t p = 0; p < m->npmus; p++)
		for (size_t a = 0; a < m->pmus[p].naliases; a++) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s/%s/", m->pmus[p].name, m->pmus[p].aliases[a].name);
			if (matches(sb.buf, filter))
				add(ev, m->pmus[p].aliases[a].name, m->pmus[p].name, "sysfs",
				    strbuf_detach(&sb));
			strbuf_release(&sb);
		}
}

/* The events of one libpfm4 PMU. */
static void add_libpfm_pmu(struct native_events *ev, const pfm_pmu_info_t *pi,
			   const char *filter)
{
	for (int e = pi->first_event; e != -1; e = lpfm_get_event_next(e)) {
		pfm_event_info_t ei;

		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		if (lpfm_get_event_info(e, PFM_OS_NONE, &ei) == PFM_SUCCESS &&
		    matches(ei.name, filter))
			add(ev, ei.name, pi->name, "libpfm4", xstrdup(ei.desc ? ei.desc : ""));
	}
}

/* Every PMU libpfm4 detects here, but not its names for the kernel's
 * generic events: the catalogue lists those, by their perf names. */
static void add_libpfm(struct native_events *ev, const char *filter)
{
	if (lpfm_initialize() != PFM_SUCCESS)
		return;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (lpfm_get_pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && pi.is_present &&
		    pi.type != PFM_PMU_TYPE_OS_GENERIC)
			add_libpfm_pmu(ev, &pi, filter);
	}
}

void catalog_native_events(const struct catalog_host *h, const struct resolution *r,
			   const char *filter, struct native_events *out)
{
	memset(out, 0, sizeof(*out));
	add_catalogue(out, r, filter);
	if (h->checked)
		add_sysfs(out, &h->model, filter);
	add_libpfm(out, filter);
}

void native_events_release(struct native_events *ev)
{
	for (size_t i = 0; i < ev->n; i++) {
		free(ev->v[i].name);
		free(ev->v[i].pmu);
		free(ev->v[i].detail);
	}
	free(ev->v);
	memset(ev, 0, sizeof(*ev));
}
