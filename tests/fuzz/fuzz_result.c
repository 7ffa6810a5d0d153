/*
 * Fuzz harness: result files, as `pmustat report FILE` reads them. The input
 * is written to a file and read back (a full document, a campaign's
 * skeleton with the journal it names, or a journal: the reader decides);
 * a result that loads goes through every renderer behind report — the stat
 * and compare tables, HTML, CSV, the JSON document with its summaries and
 * comparisons — and is merged with itself.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "result/json.h"

static char *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	path = fuzz_path("result.json");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result r;
	struct error err;

	fuzz_write(path, data, size);
	if (report_json_read(&r, path, &err) == 0) {
		fuzz_render_result(&r);
		result_release(&r);
	}
	return 0;
}
