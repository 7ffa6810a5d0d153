/*
 * Rendering `pmustat doctor`: text and JSON views of struct checks.
 */
#ifndef PMU_REPORT_DOCTOR_H
#define PMU_REPORT_DOCTOR_H

#include <jansson.h>

#include "core/strbuf.h"
#include "host/checks.h"
#include "host/cpumap.h"

/* The text report: the verdict line, then every check grouped by area. */
void report_doctor_text(const struct checks *c, struct strbuf *out);

/* The JSON document (schema pmustat.doctor/1); m names the uarch rules. */
json_t *report_doctor_json(const struct checks *c, const struct cpu_map *m);

#endif
