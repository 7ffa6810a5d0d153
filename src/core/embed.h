/*
 * Data files compiled into the binary. Per-CPU knowledge lives as JSON under
 * data/ (DESIGN.md: knowledge is data, not code), but pmustat must be one
 * self-contained file with no runtime data path. So at build time every
 * data/NAME.json and data/DIR/NAME.json is turned into a byte array by a small C
 * generator (data/embedgen.c, driven by data/build.mk; no python or xxd), and
 * this header is how library code finds them again.
 *
 * Invariants: names are the repository paths ("data/cpus.json",
 * "data/uarch/zen4.json"); the table is sorted by name; every file's bytes
 * are followed by a NUL not counted in len, so JSON text can be handed to
 * json_loadb() or used as a C string. Adding a data file needs no change to
 * any Makefile or C file: it is picked up on the next `make`.
 */
#ifndef PMU_CORE_EMBED_H
#define PMU_CORE_EMBED_H

#include <stddef.h>

struct embed_file {
	const char *name;		/* "data/cpus.json" */
	const unsigned char *data;	/* len bytes, then a NUL */
	size_t len;
};

/*
 * The bytes of the embedded file `name` (e.g. "data/cpus.json"), NUL-
 * terminated, with its length in *len (len may be NULL); NULL when no such
 * file was embedded.
 */
const char *embed_find(const char *name, size_t *len);

/*
 * All embedded files, sorted by name; *n is set to their number. To visit
 * one folder (e.g. every uarch file), walk the array and keep the names that
 * start with "data/uarch/".
 */
const struct embed_file *embed_files(size_t *n);

#endif
