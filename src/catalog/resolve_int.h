/*
 * Internal to src/catalog: what resolve.c shares with hybrid.c (the split
 * of a hybrid part's metrics into one part per core type). Not an API.
 */
#ifndef PMU_CATALOG_RESOLVE_INT_H
#define PMU_CATALOG_RESOLVE_INT_H

#include "catalog/catalog_data.h"

struct sysfs_model;
struct sysfs_pmu;

/* One resolution in progress. */
struct rx {
	const struct catalog *cat;
	const struct resolve_ctx *ctx;
	struct resolution *r;
	struct error *err;
};

char *rx_dupn(const char *s);
/* The host PMU playing this catalogue PMU's role, or NULL. */
const struct sysfs_pmu *rx_host_pmu(const struct sysfs_model *m, json_t *pmu);
/* Is f a plain sum of names ("a + b + c")? */
int rx_plain_sum(const char *f);
struct resolved_metric *rx_new_metric(struct resolution *r, const char *name,
				   const char *requested, json_t *def);
void rx_add_note(struct resolved_metric *m, char *note);
/* Replace each metric name in f by "(its formula)". */
char *rx_expand(struct rx *x, const char *f);

/* hybrid.c: NAME.cpu_core / NAME.cpu_atom parts, after resolution. */
void split_core_types(struct rx *x);

#endif
