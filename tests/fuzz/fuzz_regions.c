/*
 * Fuzz harness: the region library's report lines (one JSON object per
 * process that used libpmustat, merged by region name). The first byte
 * chooses how many events the run planned (0-16, the library's limit);
 * the rest is the report file, parsed and its rows turned into metric
 * names as the campaign does.
 */
#include <stdlib.h>

#include "backend/regions.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct regions_result res = { 0 };
	size_t nevents;

	if (!size)
		return 0;
	nevents = data[0] % 17;
	regions_parse((const char *)data + 1, size - 1, nevents, &res);
	for (size_t i = 0; i < res.nrows; i++)
		free(regions_metric_name(res.rows[i].name, "task-clock"));
	regions_result_release(&res);
	return 0;
}
