/*
 * The result as JSON (schema pmustat.result/1), built with jansson so numbers
 * stay numbers and strings are escaped. Writing to a file is atomic and safe
 * as root (core/outfile.h: a new temporary file renamed over a regular file,
 * never through a link or onto a device), so a reader — or an interrupted
 * campaign — never sees half a document.
 */
#ifndef PMU_REPORT_JSON_H
#define PMU_REPORT_JSON_H

#include <jansson.h>

#include "core/error.h"
#include "report/result.h"

/* A new JSON document for r (caller decrefs). */
json_t *report_json(const struct result *r);

/* Write r as JSON to path ("-" = stdout). */
int report_json_write(const struct result *r, const char *path, struct error *err);

/* Read a result back from a JSON file written by report_json_write. */
int report_json_read(struct result *r, const char *path, struct error *err);

#endif
