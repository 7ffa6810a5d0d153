/*
 * Fuzz harness: ELF files, as call counters and compare's PIE check read
 * programs and libraries. The input is written to a file and opened; a file
 * that opens is asked what pmustat asks of it: PIE or not, its PT_INTERP,
 * the symbols a call counter would probe (through both tables), file
 * offsets of their addresses, and the function names for "did you mean".
 */
#include <stdlib.h>

#include "backend/elf.h"
#include "fuzz.h"

static const char *const symbols[] = { "malloc", "free", "main", "_start", "memcpy" };
static char *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	path = fuzz_path("prog");
	return 0;
}

static void ask(const struct elf_file *f)
{
	const char **names;
	size_t n;

	elf_interp(f);
	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++)
		for (int t = ELF_DYNSYM; t <= (ELF_DYNSYM | ELF_SYMTAB); t++) {
			struct elf_sym s;
			uint64_t off;

			if (elf_find_symbol(f, symbols[i], t, &s) == ELF_SYM_FOUND)
				elf_vaddr_to_offset(f, s.value, &off);
		}
	n = elf_function_names(f, &names);
	for (size_t i = 0; i < n && i < 4; i++) {
		struct elf_sym s;

		elf_find_symbol(f, names[i], ELF_DYNSYM | ELF_SYMTAB, &s);
	}
	free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_file f;
	struct error err;
	int pie;

	fuzz_write(path, data, size);
	elf_is_pie(path, &pie, &err);
	if (elf_open(&f, path, &err) == 0) {
		ask(&f);
		elf_close(&f);
	}
	return 0;
}
