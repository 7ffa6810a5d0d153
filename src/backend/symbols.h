/*
 * The symbolizer of the time profiler: sampled instruction addresses of one
 * measured process turned into functions, with the functions inlined at
 * that address, their source files and lines. The profiler records the
 * kernel's PERF_RECORD_MMAP2 records of a run (address, length, file offset,
 * file name) and its samples; after the run it gives the mappings here, then
 * looks the addresses up.
 *
 * Reading ELF and DWARF is elfutils' libdwfl/libdw: one Dwfl module per
 * (file, load bias), reported offline at that bias, with libdwfl's standard
 * search for separate debug information (.gnu_debuglink next to the file,
 * in .debug/ and under /usr/lib/debug, and /usr/lib/debug/.build-id/; a
 * debuginfod server too when DEBUGINFOD_URLS names one). Files are opened
 * lazily, at the first address looked up in them, and every address is
 * symbolized once: later lookups of it are a hash-table probe.
 */
#ifndef PMU_BACKEND_SYMBOLS_H
#define PMU_BACKEND_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* One executable mapping of the process, [start, end), as the kernel
 * reported it (MMAP2: addr, addr + len, pgoff, filename). */
struct sym_map {
	uint64_t start, end, pgoff;
	char *path;
};

/*
 * Invariants:
 * - A symbolizer describes one address space (one process, or processes
 *   that share their layout): the maps given must be that process's.
 *   Where a map overlaps one given earlier, the later one wins over the
 *   overlap, as the kernel's newer mapping replaced the older one.
 * - Every string a lookup returns stays valid until symbolizer_free.
 * - Not thread-safe: one thread at a time per symbolizer.
 * - Files are read at the first lookup in them, as they are then: a file
 *   rebuilt or replaced since the run is symbolized as it is now.
 * - Memory running out inside a lookup (libdw's or ours) leaves the
 *   symbolizer broken (core/oomguard.h): that and every later lookup
 *   answers nothing (0), symbolizer_gaps none, and symbolizer_free leaves
 *   it alone; files that cannot be read or lack symbols are not errors but
 *   "[unknown]" frames and lines of symbolizer_gaps.
 */
struct symbolizer;

struct symbolizer *symbolizer_new(void);
void symbolizer_free(struct symbolizer *s);

/*
 * Add an executable mapping as the kernel reported it: MMAP2's addr, len,
 * pgoff and filename (an absolute path). The same file may be mapped at
 * several ranges. Mappings of no file are accepted: "[vdso]" symbolizes to
 * "[vdso]", any other name not starting with one '/' ("//anon", "[heap]",
 * "") to "[unknown]". Maps may be added between lookups (records read in
 * order): addresses already looked up in the new range are symbolized
 * again. Nothing is opened here. -1 (a usage error) for an empty range or
 * one past the end of the address space.
 */
int symbolizer_add_map(struct symbolizer *s, uint64_t start, uint64_t len, uint64_t pgoff,
		       const char *path, struct error *err);
/* The same for n maps at once (stops at the first error). */
int symbolizer_add_maps(struct symbolizer *s, const struct sym_map *maps, size_t n,
			struct error *err);

struct sym_frame {
	/* The function: the symbol table's name, demangled when it is a C++
	 * or Rust name (symbol_demangle); DWARF's name for an
	 * inlined function (or where the symbol table has none); "[plt]" in
	 * a PLT stub; "[object+0xPAGE]" (the 4 KiB page of the object's own
	 * addresses) when nothing names an address in a file that could be
	 * read; "[unknown]" when nothing names it elsewhere; "[vdso]" in the
	 * vDSO. */
	const char *function;
	/* The matching key: function with compiler suffixes removed
	 * (symbol_key), so that sp_norm.constprop.0 in one build and sp_norm
	 * in another are one function. */
	const char *key;
	/* Path of the ELF file, or "[vdso]", or "[unknown]". */
	const char *object;
	/* Source file and line when DWARF has them (else NULL and 0), the
	 * file as DWARF records it (relative to the compilation directory
	 * unless absolute). For the innermost frame: the address's line; for
	 * each frame containing an inlined one: the line of that call. */
	const char *file;
	int line;
	/* The compilation unit (the file given to the compiler, DW_AT_name),
	 * or NULL: what tells apart static functions of one name in several
	 * translation units when file is the header they were written in.
	 * NULL for Rust, whose units are codegen units ("crate.hash-cgu.7"),
	 * named by no source file. */
	const char *unit;
	/* 1 when this frame is a function inlined into the next frame. */
	int inlined;
	/* The address in the object's own terms (its ELF virtual address, what
	 * nm and addr2line -e use): address-range buckets of files without
	 * symbols. 0 for "[vdso]", "[unknown]" and files that cannot be read. */
	uint64_t vaddr;
};

/*
 * Symbolize addr: fill up to max frames (max >= 1), innermost first: the
 * functions inlined at addr from DWARF's DW_TAG_inlined_subroutine scopes,
 * innermost first, then the function containing them. Returns the number
 * of frames filled, >= 1: an address in no known mapping gives one
 * "[unknown]" frame of object "[unknown]"; one where its file names no
 * function, a frame of that file named by its 4 KiB page of the file's own
 * addresses, "[libfoo.so+0x35000]" (with vaddr), when the file could be
 * read, else "[unknown]". When the inline chain is deeper than max, the innermost
 * frames are kept and the containing function is dropped.
 */
int symbolizer_lookup(struct symbolizer *s, uint64_t addr, struct sym_frame *out, int max);

/*
 * What the lookups so far lacked, for a note, one line each (about objects
 * that were looked up in, not every mapping): objects with no symbols at
 * all ("'/usr/bin/x' is stripped: self time is by address range only;
 * install its debug symbols (...) or build it with -g"), objects with
 * symbols but no DWARF (no inlined functions, no source lines), files that
 * could not be read, addresses in no file mapping. NULL-terminated, owned
 * by s and valid until the next call or symbolizer_free.
 */
const char *const *symbolizer_gaps(struct symbolizer *s);

/*
 * Each ELF file of the mappings given so far with its load bias (the
 * address of its virtual address 0), once per (file, bias), opening files
 * as needed; files that cannot be read are left out. For the unwinder
 * (backend/unwind.h), which needs the address space whole.
 */
void symbolizer_each_file(struct symbolizer *s,
			  void (*cb)(void *ctx, const char *path, uint64_t bias), void *ctx);

/*
 * The key of a raw symbol name: the name without the suffixes compilers
 * append to the copies and parts of a function they make (GCC's .isra.N,
 * .constprop.N, .part.N, .cold, .cold.N, .lto_priv.N, .localalias,
 * .clone.N, .specialized.N; LLVM's .llvm.N; a demangled C++ name's
 * " [clone .isra.0]"). "foo.constprop.3.cold" -> "foo". Also without
 * Rust's build hashes: a legacy name's trailing "::h" + 16 hex digits and
 * v0's crate disambiguators "[hex]" ("core[1f2e]::ptr::write::h0123456789abcdef"
 * -> "core::ptr::write"). A dot followed by
 * anything else is part of the name (Go's "main.main"). Caller frees.
 */
char *symbol_key(const char *name);

/*
 * The name of a raw symbol to show: demangled when it is a C++ (Itanium
 * ABI) or Rust (legacy or v0) name, through libiberty; without the symbol
 * version a shared library's symbol table may append ("malloc@@GLIBC_2.2.5"
 * -> "malloc"); otherwise the name as it is. Caller frees.
 */
char *symbol_demangle(const char *raw);

#endif
