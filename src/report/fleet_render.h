/*
 * The cross-machine report of a fleet (analysis/fleet.h: the groups pooled
 * and compared once by fleet_build), as text and as JSON. Pure: the fleet
 * model in, bytes out.
 */
#ifndef PMU_REPORT_FLEET_RENDER_H
#define PMU_REPORT_FLEET_RENDER_H

#include <jansson.h>

#include "analysis/fleet.h"
#include "core/strbuf.h"

/* The cross-machine table: per metric and variant one row per group
 * (hosts, ratio, 95% CI, verdict, host spread), then one line per metric
 * where the groups' verdicts disagree. */
void fleet_table(const struct fleet *f, struct strbuf *out);

/* The same as JSON ("schema": "pmustat.fleet/1"): hosts, groups, rows,
 * disagreements. */
json_t *fleet_json(const struct fleet *f);
#define FLEET_SCHEMA "pmustat.fleet/1"

#endif
