/*
 * Fuzz harness: a bisect's document (bisect.json), as `pmustat report
 * DIR/bisect.json` reads it. The input is written to a file and read back;
 * a document that loads goes through the terminal's text (plain and -v) and
 * the page, whose path of the search indexes commits by the positions the
 * document gives.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "report/bisect.h"
#include "result/bisect_read.h"

static char *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	path = fuzz_path("bisect.json");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bisect_result d;
	struct error err;
	struct strbuf out = STRBUF_INIT, page = STRBUF_INIT;

	fuzz_write(path, data, size);
	if (bisect_result_read(&d, path, &err) == 0) {
		report_bisect_text(&d, 0, &out);
		report_bisect_text(&d, 1, &out);
		report_bisect_html(&d, NULL, NULL, out.buf, &page);
		bisect_result_release(&d);
	}
	strbuf_release(&out);
	strbuf_release(&page);
	return 0;
}
