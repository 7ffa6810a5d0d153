/*
 * Fuzz harness: catalogue files, loaded as with PMUSTAT_DATA_DIR. The input
 * is the file of a uarch named "fuzz" (read beside the real generic.json
 * and uarch-aliases.json), or, when it starts with the line "#generic",
 * the rest replaces generic.json and the real zen4.json is the uarch file.
 * A catalogue that loads is then used the ways the commands use it: every
 * metric resolved ("all", "default") against the zen4 fixture and without
 * a host, capacities, cache geometry, names and presets.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/catalog.h"
#include "core/strbuf.h"
#include "fuzz.h"
#include "host/sysfs.h"

static const char generic_mark[] = "#generic\n";
static struct sysfs_model model;
static struct strbuf generic = STRBUF_INIT, zen4 = STRBUF_INIT;
static char *generic_path, *fuzz_file;

static void slurp(struct strbuf *sb, const char *path)
{
	if (strbuf_read_file(sb, path))
		fuzz_die(path, "cannot read");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct strbuf aliases = STRBUF_INIT;
	struct error err;
	char *dir = fuzz_path("data"), *udir = fuzz_path("data/uarch");
	char *apath = fuzz_path("data/uarch-aliases.json");

	(void)argc;
	(void)argv;
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen4", 1);
	setenv("PMUSTAT_DATA_DIR", dir, 1);
	if (mkdir(dir, 0700) || mkdir(udir, 0700))
		fuzz_die(udir, "cannot create");
	slurp(&generic, FUZZ_DATA "/uarch/generic.json");
	slurp(&zen4, FUZZ_DATA "/uarch/zen4.json");
	slurp(&aliases, FUZZ_DATA "/uarch-aliases.json");
	fuzz_write(apath, aliases.buf, aliases.len);
	generic_path = fuzz_path("data/uarch/generic.json");
	fuzz_file = fuzz_path("data/uarch/fuzz.json");
	if (sysfs_model_load(&model, FUZZ_FIXTURES "/zen4/sys", &err))
		fuzz_die("zen4 fixture", err.msg);
	strbuf_release(&aliases);
	free(dir);
	free(udir);
	free(apath);
	return 0;
}

static void resolve(const struct catalog *cat, const char *list, const struct resolve_ctx *ctx)
{
	struct resolution r;
	struct error err;

	if (catalog_resolve(cat, list, ctx, &r, &err) == 0)
		resolution_release(&r);
}

static void use(const struct catalog *cat)
{
	struct resolve_ctx ctx = { &model, 2, 0, 0 };
	struct catalog_capacity cap;
	struct catalog_caches caches;
	struct error err;
	const char **names = catalog_metric_names(cat);

	for (size_t i = 0; names[i]; i++)
		catalog_preset(cat, names[i]);
	free(names);
	resolve(cat, "all", &ctx);
	resolve(cat, "default", NULL);
	ctx.system_wide = ctx.privileged = 1;
	resolve(cat, "all", &ctx);
	catalog_capacity(cat, &cap);
	catalog_cache_geometry(cat, &caches, &err);
	catalog_description(cat);
	catalog_libpfm_pmu(cat);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t ml = sizeof(generic_mark) - 1;
	int replace = size >= ml && !memcmp(data, generic_mark, ml);
	struct catalog cat;
	struct error err;
	char **names;

	if (replace) {
		fuzz_write(generic_path, data + ml, size - ml);
		fuzz_write(fuzz_file, zen4.buf, zen4.len);
	} else {
		fuzz_write(generic_path, generic.buf, generic.len);
		fuzz_write(fuzz_file, data, size);
	}
	if (catalog_load(&cat, "fuzz", &err) == 0) {
		use(&cat);
		catalog_release(&cat);
	}
	names = catalog_uarch_names();
	catalog_names_free(names);
	return 0;
}
