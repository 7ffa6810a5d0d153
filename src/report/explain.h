/*
 * Rendering `pmustat explain NAME`: what the name turned out to be — a
 * metric (or catalogue event) with its whole chain of alternatives as
 * resolved, a native event string with its encoding, or a preset — as text
 * for people and as JSON for tools, from the same data. Pure functions:
 * the caller loads the catalogue, resolves or parses the name, and writes
 * the bytes.
 */
#ifndef PMU_REPORT_EXPLAIN_H
#define PMU_REPORT_EXPLAIN_H

#include <jansson.h>

#include "catalog/catalog.h"
#include "catalog/event.h"
#include "catalog/select.h"
#include "core/strbuf.h"

/* A metric resolved on h's catalogue: m is one of r's metrics; r's events
 * are every event its chain considered (chosen or not). */
void report_explain_metric_text(const struct catalog_host *h, const struct resolution *r,
				const struct resolved_metric *m, struct strbuf *out);
json_t *report_explain_metric_json(const struct catalog_host *h, const struct resolution *r,
				   const struct resolved_metric *m);

/* A native event string (-e syntax) as parsed: PMU, attr, scope, modes. */
void report_explain_event_text(const struct event_spec *ev, struct strbuf *out);
json_t *report_explain_event_json(const struct event_spec *ev);

/* A preset for -m and its expansion (metrics, "*" = every metric);
 * uarch_opt, --uarch as given or NULL, goes into the 'pmustat list' hint. */
void report_explain_preset_text(const char *name, const char *metrics, const char *uarch_opt,
				struct strbuf *out);
json_t *report_explain_preset_json(const char *name, const char *metrics);

#endif
