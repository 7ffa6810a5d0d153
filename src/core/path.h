/*
 * Finding programs and making private directories, the two file-system
 * chores several layers share. A program named on the command line is found
 * the way execvp(3) will find it, so that what pmustat inspects (the ELF file
 * behind call counters, the link behind an equal-length exec path, valgrind)
 * is the file that will run. Private directories live under $TMPDIR, or /tmp,
 * and are readable by their owner only.
 */
#ifndef PMU_CORE_PATH_H
#define PMU_CORE_PATH_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

/* PATH when the environment has none (the project's long-standing choice). */
#define PATH_DEFAULT "/usr/local/bin:/usr/bin:/bin"

/* Is path a regular file that access(2) allows mode on (X_OK, R_OK)? */
int path_usable(const char *path, int mode);

/*
 * The file execvp would take for name (malloc'd), or NULL. A name holding a
 * '/' is taken as is, without a check (the caller decides what a missing
 * file means); otherwise each entry of path_env (NULL: $PATH, or
 * PATH_DEFAULT when unset) is tried in order for a regular file that allows
 * mode, an empty entry meaning the current directory. An empty name is
 * never found.
 */
char *path_search(const char *name, const char *path_env, int mode);

/*
 * Create a fresh directory <$TMPDIR or /tmp>/<prefix><pid>-<start>-XXXXXX,
 * mode 0700, and return its path in *out (caller frees); pid and start (its
 * start time, core/owner.h) name the process that owns it. prefix must be
 * one tmpdir_sweep knows (path.c). On failure -1 with "cannot create a
 * directory in '<dir>': <reason>" and a hint about TMPDIR.
 */
int tmpdir_make(const char *prefix, char **out, struct error *err);

/*
 * Remove the directories that pmustat processes killed before they could
 * clean up left under $TMPDIR (or /tmp): tmpdir_make's names, this user's,
 * whose owner is gone (core/owner.h; several pmustat processes may run at
 * once: a live one's directory is kept). Each goes with what it holds,
 * without following a link, without leaving the file system, and only
 * down to the depth pmustat makes; an entry of another user is left, and
 * the directory with it. Returns how many were removed, their paths
 * appended to removed (", " between them) unless NULL.
 */
size_t tmpdir_sweep(struct strbuf *removed);

#endif
