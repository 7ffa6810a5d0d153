/*
 * Fuzz harness: cachegrind output files. The input is one file's text;
 * it is parsed into counts twice (as two processes of one run are summed),
 * and every simulated metric is taken from the counts, for each meaning of
 * the last level (unknown, L2, L3).
 */
#include <stdlib.h>

#include "backend/sim.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct sim_counts c = { 0 };
	struct error err;

	if (sim_parse(text, &c, &err) == 0 && sim_parse(text, &c, &err) == 0)
		for (int ll = 0; ll <= 3; ll++) {
			c.used.ll_level = ll;
			for (const char *const *m = sim_metric_names(); *m; m++) {
				double v;

				sim_metric_value(&c, *m, &v);
				sim_metric_known(*m, ll);
			}
		}
	free(text);
	return 0;
}
