/*
 * Words of a command line given as one string (`pmustat fleet --slurm
 * "-N4 --constraint='zen4|spr'"`), split as a POSIX shell splits a plain
 * command line: blanks separate words, '...' quotes literally, "..."
 * quotes with \" and \\ as escapes, a backslash elsewhere escapes the next
 * character. Nothing is expanded — $VAR, globs and ~ stay as written — and
 * no shell is run, so the words reach the program exactly as typed.
 */
#ifndef PMU_CORE_WORDS_H
#define PMU_CORE_WORDS_H

#include <stddef.h>

#include "core/error.h"

struct words {
	char **v;		/* NULL-terminated (NULL while empty) */
	size_t n, alloc;
};

/* Append the len bytes at s as one word. */
void words_add(struct words *w, const char *s, size_t len);

/* Append the words of s to w. An unbalanced quote is a usage error naming
 * it (what: the option the text came from, for the message). */
int words_split(const char *s, const char *what, struct words *w, struct error *err);

void words_release(struct words *w);

#endif
