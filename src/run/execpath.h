/*
 * Equal-length exec paths (STATS.md (e)): the path a program is exec'd
 * through is copied onto its initial stack (argv[0], AT_EXECFN), so variants
 * reached through paths of different lengths start with differently aligned
 * stacks — a layout bias unrelated to the change being measured. Each
 * variant's program is reached through a symlink in a private directory,
 * with directory names padded so every full path has the same length and
 * the program's own basename is kept (multi-call programs look at it).
 */
#ifndef PMU_RUN_EXECPATH_H
#define PMU_RUN_EXECPATH_H

#include <stddef.h>

#include "core/error.h"

struct execpaths {
	char *dir;		/* the private directory, removed on release */
	char **paths;		/* one per program, all of equal length */
	size_t n;
};

/* Resolve each of progs[0..n) like execvp and link it. */
int execpaths_make(struct execpaths *e, const char *const *progs, size_t n, struct error *err);
void execpaths_release(struct execpaths *e);

/* Resolve prog through PATH like execvp; the absolute path (caller frees),
 * or NULL with a "cannot run" error. */
char *execpath_resolve(const char *prog, struct error *err);

#endif
