/*
 * Fuzz harness: metric lists (-m). The input is a -m value, resolved with
 * the real zen4 catalogue against the zen4 fixture (where amd_l3 is
 * present but counts system-wide), and with the generic catalogue and no
 * host: presets, aliases, derived metrics and catalogue event names.
 */
#include <stdlib.h>

#include "catalog/catalog.h"
#include "fuzz.h"
#include "host/sysfs.h"

static struct sysfs_model model;
static struct catalog zen4, generic;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct error err;

	(void)argc;
	(void)argv;
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen4", 1);
	unsetenv("PMUSTAT_DATA_DIR");
	if (sysfs_model_load(&model, FUZZ_FIXTURES "/zen4/sys", &err) ||
	    catalog_load(&zen4, "zen4", &err) || catalog_load(&generic, "generic", &err))
		fuzz_die("zen4 fixture and catalogue", err.msg);
	return 0;
}

static void resolve(const struct catalog *cat, const char *list, const struct resolve_ctx *ctx)
{
	struct resolution r;
	struct error err;

	if (catalog_resolve(cat, list, ctx, &r, &err) == 0)
		resolution_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *list = fuzz_cstr(data, size);
	struct resolve_ctx ctx = { &model, 2, 0, 0 };

	resolve(&zen4, list, &ctx);
	resolve(&generic, list, NULL);
	free(list);
	return 0;
}
