/*
 * Which counters share a group, and which group runs when. Pure: a
 * function of the events and the PMU's capacity, no syscalls.
 *
 * Two planners live here:
 *  - plan_groups(): the original grouping of one run's events in the order
 *    given, at most PLAN_GROUP_MAX core-PMU events per group (every event
 *    is opened on every run, so groups beyond the PMU's capacity are
 *    multiplexed by the kernel and flagged by time_running < time_enabled);
 *  - plan_build(): capacity-aware rotation (shared/STATS.md section f).
 *    Core-PMU events are packed into groups that fit the uarch's counters
 *    (general-purpose, fixed, counter restrictions, a counter taken by the
 *    NMI watchdog); the anchor events (instructions, cycles) are in every
 *    group so same-run ratios exist in every run; a run opens exactly one
 *    group, group = block mod G, so every count is exact for its run.
 *    Events of other PMUs (software, uncore) are counted on every run.
 *    With multiplex set, all events form one set opened at once, and the
 *    plan says that counts will be scaled.
 */
#ifndef PMU_PLAN_GROUPS_H
#define PMU_PLAN_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "catalog/event.h"
#include "core/error.h"
#include "core/strbuf.h"

#define PLAN_GROUP_MAX 4

/* leader[i] = index of event i's group leader (i itself for a leader). */
void plan_groups(const struct event_spec *evs, size_t n, size_t *leader);

/* ---- capacity-aware rotation ------------------------------------------- */

struct plan_capacity {
	unsigned gp;		/* general-purpose counters per thread */
	unsigned fixed;		/* fixed counters that anchor/fixed events may use */
	int watchdog;		/* NMI watchdog on and holding: 0 none, 1 a
				 * general-purpose counter, 2 the cycles fixed counter */
};

/* What the planner needs to know of one event. */
struct plan_event {
	int core;		/* needs a core-PMU counter; else counted every run */
	int anchor;		/* instructions/cycles: put in every group */
	int fixed;		/* may use a fixed counter */
	int cycles;		/* the cycles anchor (loses its fixed counter to the watchdog) */
	uint32_t counters;	/* general-purpose counters allowed (bit i); 0 = any */
	int unit;		/* events with the same unit >= 0 (one metric's events)
				 * are kept in one group when they fit; -1 none */
	unsigned pmu;		/* which core PMU (index into plan_pmus): 0 but on
				 * hybrid parts, whose core types have their own */
};

/* The core PMUs to plan for: one, or one per core type of a hybrid part
 * (cpu_core, cpu_atom), each with its own counters. */
#define PLAN_MAX_PMUS 4
struct plan_pmus {
	size_t n;
	struct plan_capacity cap[PLAN_MAX_PMUS];
	const char *name[PLAN_MAX_PMUS];	/* for notes and --dry-run; may be NULL */
};

struct plan_group {
	size_t *ev;		/* indices into the event list; ev[0] leads */
	size_t *lead;		/* lead[k]: the leader of member k (ev[0] on one
				 * PMU; on a hybrid part one leader per core PMU,
				 * since a group cannot span PMUs) */
	size_t n;
	unsigned gp_used, fixed_used;
	unsigned gp_by[PLAN_MAX_PMUS], fixed_by[PLAN_MAX_PMUS];	/* per core PMU */
};

struct plan {
	struct plan_group *groups;	/* G >= 1 when there is any core event */
	size_t ngroups;
	size_t *always;			/* non-core events: counted on every run */
	size_t nalways;
	int multiplex;			/* one set, opened at once, kernel-scaled */
	unsigned gp, fixed;		/* capacity planned for (after the watchdog), PMU 0 */
	size_t npmus;			/* core PMUs planned for (1, or 2 on hybrid parts) */
	unsigned gp_by[PLAN_MAX_PMUS], fixed_by[PLAN_MAX_PMUS];
	const char *pmu_name[PLAN_MAX_PMUS];
	char **notes;			/* for the result: rotation, watchdog, ... */
	size_t nnotes;
};

/*
 * Plan n events for capacity cap. Fails (usage error) only when one event
 * alone cannot be scheduled (it needs a counter the PMU does not have left,
 * e.g. all of its allowed counters are taken by the anchors).
 */
int plan_build(const struct plan_event *ev, size_t n, const struct plan_capacity *cap,
	       int multiplex, struct plan *out, struct error *err);

/*
 * The same for several core PMUs: each PMU's events are packed into groups
 * that fit its own counters, with its own anchors; run group g opens group
 * g mod G_p of every PMU p (G = the largest G_p), so a thread counts
 * wherever it runs. With one PMU this is plan_build().
 */
int plan_build_pmus(const struct plan_event *ev, size_t n, const struct plan_pmus *pm,
		    int multiplex, struct plan *out, struct error *err);
void plan_release(struct plan *p);

/* The group a block runs (STATS.md (c): group = block mod G). */
size_t plan_group_of_block(const struct plan *p, unsigned block);

/*
 * The events one run opens: for group g, fill leader[i] for all n events
 * with the group leader's index, i itself for a leader or a lone event, or
 * PLAN_NOT_COUNTED when event i is not counted in this run. With
 * multiplex, every core event is opened (core events in groups of the
 * planned ones, so same-run ratios still share a group).
 */
#define PLAN_NOT_COUNTED ((size_t)-1)
void plan_run_leaders(const struct plan *p, size_t g, size_t n, size_t *leader);

/*
 * The perf_event_attr of every event of every group, as `--dry-run`
 * prints them, so golden "attr tests" can run on any host. labels[i] names
 * event i (metric or event name; NULL: the event's own name); evs[i] is its
 * encoding.
 */
void plan_render_dry_run(const struct plan *p, const struct event_spec *evs,
			 const char *const *labels, size_t n, struct strbuf *out);

/* ---- from a catalogue resolution --------------------------------------- */

struct resolution;
struct catalog_capacity;

/*
 * Plan inputs for the chosen events of a resolution: out[i] for
 * r->events[i] (unchosen events get core = 0 and are best left out by the
 * caller). Events of one metric share a unit, so a ratio's numerator and
 * denominator land in one group when they fit.
 */
void plan_events_from_resolution(const struct resolution *r, struct plan_event *out);

/* The planner's capacity from the catalogue's; watchdog_on = the host's
 * kernel.nmi_watchdog is 1. */
void plan_capacity_from_catalog(const struct catalog_capacity *cc, int watchdog_on,
				struct plan_capacity *cap);

struct catalog;

/* Every core PMU of the catalogue with its capacity (one, or one per core
 * type of a hybrid part). */
void plan_pmus_from_catalog(const struct catalog *cat, int watchdog_on, struct plan_pmus *pm);

struct resolve_ctx;

/*
 * Resolve metrics on cat, plan the chosen events, and append the dry-run
 * rendering (attrs per group, then one note per fallback or unavailable
 * metric) to out: what `stat --dry-run -m LIST` prints. ctx may be NULL
 * (no host checks: any uarch on any host, as attr tests need).
 */
int plan_dry_run_metrics(const struct catalog *cat, const char *metrics,
			 const struct resolve_ctx *ctx, int watchdog_on, int multiplex,
			 struct strbuf *out, struct error *err);

#endif
