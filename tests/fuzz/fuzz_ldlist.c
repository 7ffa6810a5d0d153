/*
 * Fuzz harness: the dynamic loader's --list output, which call counters
 * read to learn which objects a program loads and in which order. The
 * input is that output; the paths it yields are freed.
 */
#include <stdlib.h>

#include "backend/elf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), **paths = NULL;
	struct error err;

	if (elf_parse_loader_list(text, "/bin/prog", &paths, &err) == 0)
		elf_paths_free(paths);
	free(text);
	return 0;
}
