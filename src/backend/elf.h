/*
 * Reading ELF files, for call counters and the PIE check of compare. A
 * uprobe is placed at a file offset in an inode, so counting calls of
 * `malloc` needs three facts only this module knows: where the function's
 * symbol points (.dynsym, then .symtab), which file offset that address is
 * loaded from (through the PT_LOAD program headers), and which shared
 * objects a program loads (to find the one the dynamic loader binds the name
 * to: normally libc).
 *
 * Parsing is elfutils' libelf: it knows the format's corners (extended
 * section and program header numbering when e_shnum or e_phnum overflow,
 * string tables that must end in NUL, sections past the end of the file),
 * so a truncated or hostile file is an error or an absent table here, never
 * a read out of bounds. Only native-endian ELF64 is accepted: pmustat runs on
 * x86-64 and arm64, and a uprobe can only count code this kernel runs.
 */
#ifndef PMU_BACKEND_ELF_H
#define PMU_BACKEND_ELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

struct Elf;	/* libelf's descriptor; callers need not include <libelf.h> */

struct elf_file {
	char *path;
	struct Elf *elf;		/* NULL when not open */
	const Elf64_Ehdr *eh;		/* the file header (e_type: ET_EXEC, ET_DYN) */
	const char *image;		/* the whole file, as libelf mapped or read it */
	size_t size;
	size_t phnum;			/* program headers (PN_XNUM resolved) */
};

/* The symbol tables a lookup may search (a bit set). */
enum {
	ELF_DYNSYM = 1,		/* what the dynamic loader binds */
	ELF_SYMTAB = 2,		/* the full table; absent in stripped files */
};

struct elf_sym {
	const char *name;	/* points into the file's image */
	uint64_t value;		/* virtual address */
	uint64_t size;
	unsigned char type;	/* STT_FUNC, STT_GNU_IFUNC, STT_OBJECT, ... */
	unsigned char bind;	/* STB_GLOBAL, STB_WEAK, STB_LOCAL */
	int table;		/* ELF_DYNSYM or ELF_SYMTAB */
};

enum elf_lookup {
	ELF_SYM_NONE = 0,	/* no defined symbol of that name */
	ELF_SYM_FOUND,
	ELF_SYM_AMBIGUOUS,	/* only file-local definitions, at several addresses */
};

/* Open and validate path (headers and header tables in bounds). Errors:
 * "cannot read 'p': ...", "'p' is not an ELF file", "'p' is a 32-bit ELF
 * file ...", "'p' has corrupt section headers" (or program headers).
 * elf_close is harmless on a zeroed or already closed elf_file. */
int elf_open(struct elf_file *f, const char *path, struct error *err);
void elf_close(struct elf_file *f);

/*
 * Is path a position-independent file (ET_DYN: a PIE, a static-pie or a
 * shared object) rather than one linked at fixed addresses (ET_EXEC)? What
 * ASLR can move. 0 with *pie set, or -1 with elf_open's errors (a script, a
 * missing file), which callers that only warn may ignore.
 */
int elf_is_pie(const char *path, int *pie, struct error *err);

/* The PT_INTERP path (the dynamic loader it asks for), or NULL when the
 * file is statically linked (static-pie included) or a shared library. */
const char *elf_interp(const struct elf_file *f);

/*
 * The defined symbol `name` in the tables selected, chosen as the dynamic
 * loader would: a global or weak .dynsym entry of the default version
 * (memcpy@@GLIBC_2.14 over memcpy@GLIBC_2.2.5), else a global or weak
 * .symtab entry, else a file-local one if all local definitions share one
 * address. Undefined entries (imports) never match.
 */
enum elf_lookup elf_find_symbol(const struct elf_file *f, const char *name, int tables,
				struct elf_sym *out);

/* The file offset holding virtual address vaddr (via PT_LOAD p_offset and
 * p_filesz); -1 when no loaded segment covers it. */
int elf_vaddr_to_offset(const struct elf_file *f, uint64_t vaddr, uint64_t *off);

/* Names of the defined functions in both tables, sorted, without
 * duplicates, for "did you mean". *names is malloc'd (the strings point
 * into the file's image); returns the count. */
size_t elf_function_names(const struct elf_file *f, const char ***names);

/*
 * The objects the dynamic loader maps for the dynamically linked program
 * prog, in its symbol search order: prog first, then LD_PRELOAD entries,
 * then the DT_NEEDED libraries breadth-first (the vDSO, which has no file,
 * is left out). This is the loader's own answer: prog's PT_INTERP is run as
 * `INTERP --list PROG` with envp (so LD_LIBRARY_PATH, LD_PRELOAD, RUNPATH,
 * $ORIGIN, glibc-hwcaps and /etc/ld.so.cache all apply exactly as they will
 * at run time); prog itself is never executed. envp NULL = our environment.
 * *paths is NULL-terminated (free with elf_paths_free). A library the loader
 * cannot find is an error naming it.
 */
int elf_loaded_objects(const struct elf_file *prog, char *const *envp, char ***paths,
		       struct error *err);

/*
 * Parse the loader's --list output (lines "\tlibc.so.6 => /lib/.../libc.so.6
 * (0x...)", "\t/lib64/ld-linux-x86-64.so.2 (0x...)", "\tlinux-vdso.so.1
 * (0x...)"). Appends the paths to *paths after first (the program), which may
 * be NULL. "NAME => not found" is an error naming NAME and prog.
 */
int elf_parse_loader_list(const char *text, const char *prog, char ***paths,
			  struct error *err);
void elf_paths_free(char **paths);

#endif
