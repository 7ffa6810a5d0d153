/*
 * Fuzz harness: formulas (derived metrics, multi-event mappings). The
 * input is a formula; its names are collected, and it is evaluated with a
 * lookup that knows every name but those starting with 'x' (unknown), and
 * gives each name a value from its spelling, zero included, so division by
 * zero and NaN are reached.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "fuzz.h"

static int lookup(void *ctx, const char *name, double *v)
{
	size_t len = strlen(name);

	(void)ctx;
	if (name[0] == 'x')
		return -1;
	*v = (double)(len % 4) - 1;	/* -1, 0, 1 or 2 */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *f = fuzz_cstr(data, size), **names;
	struct error err;
	size_t n;
	double v;

	if (formula_names(f, &names, &n, &err) == 0) {
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
	}
	formula_eval(f, lookup, NULL, &v, &err);
	free(f);
	return 0;
}
