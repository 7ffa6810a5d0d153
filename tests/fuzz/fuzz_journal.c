/*
 * Fuzz harness: the run journal a campaign appends to (JSON Lines: a
 * header with the result's skeleton, then run, metric and note lines; a
 * torn last line is dropped). The input is read as a journal file; a
 * result that comes out goes through every renderer, as in fuzz_result.c.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "result/journal.h"

static char *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	path = fuzz_path("run.journal");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result r;
	struct error err;

	fuzz_write(path, data, size);
	if (journal_read(&r, path, &err) == 0) {
		fuzz_render_result(&r);
		result_release(&r);
	}
	return 0;
}
