/*
 * What the catalogue's unit tests share: load a uarch's catalogue, resolve a
 * metric list, find a resolved metric — each failing the test with the
 * catalogue's own message when it cannot. Include after <cmocka.h>.
 */
#ifndef PMU_TESTS_CATALOG_CHECK_H
#define PMU_TESTS_CATALOG_CHECK_H

#include "catalog/catalog.h"

static inline void load(struct catalog *cat, const char *uarch)
{
	struct error err;

	error_clear(&err);
	if (catalog_load(cat, uarch, &err) < 0)
		fail_msg("loading %s: %s (%s)", uarch, err.msg, err.hint);
}

static inline void resolve(const struct catalog *cat, const char *list,
			   const struct resolve_ctx *ctx, struct resolution *r)
{
	struct error err;

	error_clear(&err);
	if (catalog_resolve(cat, list, ctx, r, &err) < 0)
		fail_msg("resolving '%s' on %s: %s", list, cat->uarch, err.msg);
}

static inline const struct resolved_metric *metric(const struct resolution *r, const char *name)
{
	int i = resolution_metric_index(r, name);

	if (i < 0)
		fail_msg("%s: metric '%s' not in the resolution", r->uarch, name);
	return &r->metrics[i];
}

#endif
