/*
 * Reading a bisect's document (bisect.json, schema "pmustat.bisect/1") back
 * into the model its writer fills (result/bisect.h), for `pmustat report`
 * and for the end of `pmustat bisect` itself, which prints what it wrote.
 */
#ifndef PMU_RESULT_BISECT_READ_H
#define PMU_RESULT_BISECT_READ_H

#include "core/error.h"
#include "result/bisect.h"

/* Is the file at path a bisect's document (a regular file whose first
 * member "schema" is BISECT_SCHEMA)? A pipe or an unreadable file is not:
 * it is left to the result reader, which reads anything once and says
 * what is wrong. */
int bisect_result_sniff(const char *path);
/* Read path into b (initialised here). Every field is checked for its type
 * and range; an error names the field. On failure b holds nothing to
 * release. */
int bisect_result_read(struct bisect_result *b, const char *path, struct error *err);

#endif
