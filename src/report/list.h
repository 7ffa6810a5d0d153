/*
 * Rendering `pmustat list`: the portable metrics of a uarch with whether
 * each can be counted here and why not, or the native events gathered by
 * catalog/native.h; each as text for people and as JSON for tools, from the
 * same data. Pure functions: nothing is read or probed here (whether
 * valgrind is installed is the caller's to find out).
 */
#ifndef PMU_REPORT_LIST_H
#define PMU_REPORT_LIST_H

#include <jansson.h>

#include "catalog/catalog.h"
#include "catalog/native.h"
#include "catalog/select.h"
#include "core/strbuf.h"

/* What `pmustat list` shows about the metrics. */
struct list_metrics {
	const struct catalog_host *host;	/* the catalogue and how it was chosen */
	const struct resolution *res;		/* host's catalogue resolved with "all" */
	int valgrind;				/* installed: cachegrind may stand in */
};

/* The table (metric, here, counted as, why), then aliases and presets. */
void report_list_metrics_text(const struct list_metrics *l, struct strbuf *out);
/* The same as one JSON object: uarch, host_checked, metrics[], presets{}. */
json_t *report_list_metrics_json(const struct list_metrics *l);

/* The native events table for h's uarch, headed by what filter matched. */
void report_list_events_text(const struct catalog_host *h, const struct native_events *ev,
			     const char *filter, struct strbuf *out);
/* The same as a JSON array of {name, pmu, source, detail}. */
json_t *report_list_events_json(const struct native_events *ev);

/* The names --uarch accepts (NULL-terminated), one a line. */
void report_list_uarchs(char *const *names, struct strbuf *out);

#endif
