/*
 * Fuzz harness: results of one campaign from several machines, merged into a
 * fleet view as `pmustat report --by uarch|host FILE...` and `pmustat fleet`
 * merge them. The input is up to MAX_RESULTS result documents separated by
 * lines "%%" (the first byte, before the first document, picks --by: an odd
 * byte groups by host); each is written to its own file and read as report
 * reads it, and the ones that load are checked against each other, grouped,
 * pooled and compared (fleet_build), then rendered as the cross-machine
 * table and its JSON document.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "fuzz.h"
#include "report/fleet_render.h"
#include "result/json.h"

#define MAX_RESULTS 4

static char *paths[MAX_RESULTS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < MAX_RESULTS; i++) {
		char name[32];

		snprintf(name, sizeof(name), "host%d.json", i);
		paths[i] = fuzz_path(name);
	}
	return 0;
}

/* Split the input at "\n%%\n" into files; how many were written. */
static size_t write_parts(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	size_t n = 0;

	while (n < MAX_RESULTS && p <= end) {
		const uint8_t *sep = memmem(p, (size_t)(end - p), "\n%%\n", 4);
		const uint8_t *stop = sep ? sep : end;

		fuzz_write(paths[n++], p, (size_t)(stop - p));
		if (!sep)
			break;
		p = sep + 4;
	}
	return n;
}

static void render(const struct fleet *f)
{
	struct strbuf out = STRBUF_INIT;
	json_t *doc = fleet_json(f);
	char *text = json_dumps(doc, JSON_COMPACT);

	fleet_table(f, &out);
	free(text);
	json_decref(doc);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result rs[MAX_RESULTS];
	const char *files[MAX_RESULTS];
	enum fleet_by by;
	struct fleet f;
	struct error err;
	size_t n, loaded = 0;

	if (size < 1)
		return 0;
	by = data[0] & 1 ? FLEET_BY_HOST : FLEET_BY_UARCH;
	n = write_parts(data + 1, size - 1);
	for (size_t i = 0; i < n; i++)
		if (report_json_read(&rs[loaded], paths[i], &err) == 0)
			files[loaded++] = paths[i];
	if (!loaded)
		return 0;
	if (fleet_build(&f, rs, files, loaded, by, &err) == 0) {
		render(&f);
		fleet_release(&f);
	}
	return 0;
}
