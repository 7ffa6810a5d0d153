/*
 * Fuzz harness: native event strings (-e). The input is an -e list, split
 * as pmustat splits it, and each item is parsed against the constructed
 * zen4 machine (tests/fixtures/zen4: a core PMU with split format ranges,
 * aliases with scale and unit, uncore PMUs with a cpumask), with libpfm4
 * forced to the same core so its names are known too; the whole input is
 * also parsed as one event, with the model and without.
 */
#include <stdlib.h>

#include "catalog/event.h"
#include "fuzz.h"
#include "host/sysfs.h"

static struct sysfs_model model;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct error err;

	(void)argc;
	(void)argv;
	/* Read by libpfm4's first initialisation only: set before any parse. */
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen4", 1);
	if (sysfs_model_load(&model, FUZZ_FIXTURES "/zen4/sys", &err))
		fuzz_die("zen4 fixture", err.msg);
	return 0;
}

static void parse(const struct sysfs_model *m, const char *s)
{
	struct event_spec ev;
	struct error err;

	if (event_parse(m, s, &ev, &err) == 0)
		event_spec_release(&ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), **items;
	struct error err;
	int n = event_list_split(s, &items, &err);

	for (int i = 0; i < n; i++)
		parse(&model, items[i]);
	if (n >= 0)
		event_list_free(items);
	parse(&model, s);
	parse(NULL, s);
	free(s);
	return 0;
}
