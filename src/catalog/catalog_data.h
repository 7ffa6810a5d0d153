/*
 * Internal to src/catalog: the parsed catalogue JSON and its accessors,
 * shared by catalog.c (load, validation) and resolve.c (resolution). Only
 * these functions know the file layout of data/uarch/NAME.json.
 */
#ifndef PMU_CATALOG_CATALOG_DATA_H
#define PMU_CATALOG_CATALOG_DATA_H

#include <jansson.h>

#include "catalog/catalog.h"

struct cat_data {
	json_t *g;	/* generic.json: definitions, presets, generic events */
	json_t *u;	/* the uarch's file (== g for "generic") */
	char *gfile, *ufile;	/* the files they were read from, for messages:
				 * "data/uarch/zen4.json" or $PMUSTAT_DATA_DIR's */
};

/* Encoding fields of a native event, in display order. */
static const char *const cat_fields[] = {
	"event", "umask", "cmask", "inv", "edge", "any", "threadmask", "enallslices",
	"enallcores", "sliceid", "coreid", "ldlat", "frontend", "offcore_rsp",
};
#define CAT_NFIELDS (sizeof(cat_fields) / sizeof(cat_fields[0]))

/*
 * Check that root has the shape of a catalogue file: only known keys, each
 * of its type, required names present (schema.c). The error names file, the
 * entry ("events[3] 'ls_not_halted_cyc'") and the key.
 */
int catalog_check_shape(json_t *root, const char *file, struct error *err);

/* What the entries of a loaded catalogue (of the right shape) mean
 * together, checked once at load (validate.c). */
int catalog_validate(const struct catalog *cat, struct error *err);

const char *jstr(const json_t *o, const char *key);
json_t *cat_event(const struct cat_data *d, const char *name);
json_t *cat_pmu(const struct cat_data *d, const char *role);
json_t *cat_chain(const struct cat_data *d, const char *metric);
json_t *cat_definition(const struct cat_data *d, const char *name);

#endif
