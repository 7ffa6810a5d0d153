/*
 * Native event strings -> perf_event_attr. This is the one place that knows
 * the event syntaxes pmustat accepts on -e:
 *   kernel generic and software events   cycles, instructions, task-clock, page-faults
 *   (with optional :u/:k/:h modifiers)   cycles:u
 *   dynamic PMUs, by sysfs alias          msr/tsc/
 *   dynamic PMUs, by format terms         cpu/event=0x76,umask=0x0/  amd_l3/event=0x04,umask=0x01/
 *                                         (terms encoded through the PMU's sysfs `format` files,
 *                                          including split ranges like config:0-7,32-35)
 *   raw                                   r01c2 (config for the core PMU)
 *   libpfm4 names                         RETIRED_OPS, amd64_fam19h_zen4::RETIRED_OPS:u
 * Parsing is pure with respect to the measured process: it reads the PMU
 * model (host/sysfs.h) but never opens a counter. Whether an event can be
 * counted is decided later, by opening it.
 */
#ifndef PMU_CATALOG_EVENT_H
#define PMU_CATALOG_EVENT_H

#include <linux/perf_event.h>
#include <stddef.h>

#include "core/error.h"

struct sysfs_model;

enum event_origin {
	EVO_GENERIC,	/* kernel generic hardware / cache event */
	EVO_SOFTWARE,	/* kernel software event */
	EVO_PMU,	/* dynamic PMU, by alias or terms */
	EVO_RAW,	/* rNNNN */
	EVO_LIBPFM,	/* encoded by libpfm4 */
};

struct event_spec {
	char *name;		/* canonical display name, e.g. "task-clock", "msr/tsc/";
				 * aliases are folded ("cs" -> "context-switches",
				 * "cpu-cycles" -> "cycles"), modifiers kept ("cycles:u") */
	char *pmu;		/* PMU name: "software", "cpu", "msr", ... (never NULL);
				 * "cpu" for generic, cache and raw events */
	enum event_origin origin;
	struct perf_event_attr attr;	/* type/config/config1/config2/exclude_* filled */
	double scale;		/* count * scale is in `unit`: sysfs .scale, or a
				 * known one (1e-6 for the ns clocks, shown in
				 * msec as perf does), 1.0 if none */
	char *unit;		/* sysfs .unit, or a known unit ("msec" for task-clock), or "" */
	int uncore;		/* the PMU's cpumask says it counts per package/complex,
				 * not per process (system-wide only) */
	int core_type;		/* on one core type of a hybrid part (cpu_core,
				 * cpu_atom): counts only while the task runs on
				 * that type, so time_running < time_enabled is where
				 * the task ran, not multiplexing; never scaled */
};

void event_spec_release(struct event_spec *ev);

/*
 * Parse one event string. On error returns -1 with a message such as
 * "unknown event 'tsk-clock'" and a hint "did you mean 'task-clock'? (pmustat list)",
 * or "PMU 'msr' has no format term 'umask'" with the valid terms listed.
 * model may be NULL (then only generic/software/raw syntaxes are available).
 */
int event_parse(const struct sysfs_model *model, const char *str,
		struct event_spec *ev, struct error *err);

/*
 * Split a comma-separated -e list into items, respecting slashes:
 * "task-clock,cpu/event=0x76,umask=0/,msr/tsc/" -> 3 items. Items are
 * trimmed of blanks. Empty items and an unclosed '/' are errors. Returns the count, or -1. *items is a NULL-terminated array of
 * malloc'd strings (free with event_list_free).
 */
int event_list_split(const char *list, char ***items, struct error *err);
void event_list_free(char **items);

/* Names of the generic and software events known without sysfs (for
 * suggestions and `pmustat list`). NULL-terminated. */
const char *const *event_builtin_names(void);

#endif
