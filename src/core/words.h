/*
 * A command line written as one string (--prepare 'make clean', --setup
 * "cp 'a b' c"), split into words without a shell: blanks separate words;
 * single quotes keep everything up to the next single quote; double quotes
 * keep everything up to the next double quote, where a backslash escapes
 * only '"' and itself; outside quotes a backslash takes the next character
 * literally. Nothing else is interpreted: no variables, globs,
 * redirections or pipes. For those there is --shell. The same splitting
 * serves `pmustat fleet --slurm "-N4 --constraint='zen4|spr'"`, whose words
 * reach srun exactly as typed.
 */
#ifndef PMU_CORE_WORDS_H
#define PMU_CORE_WORDS_H

#include <stddef.h>

#include "core/error.h"

/*
 * The words of s as a NULL-terminated vector of malloc'd strings (free with
 * strv_free), or NULL with a usage error for an unterminated quote or a
 * string with no words at all.
 */
char **words_split(const char *s, struct error *err);

/* A growing vector of malloc'd strings. */
struct words {
	char **v;		/* NULL-terminated (NULL while empty) */
	size_t n, alloc;
};

/* Append the len bytes at s as one word. */
void words_add(struct words *w, const char *s, size_t len);

/* Append the words of s to w (none for a blank or empty s). A quote left
 * open is a usage error whose message starts with what (the option the
 * text came from). */
int words_append(struct words *w, const char *s, const char *what, struct error *err);

void words_release(struct words *w);

/* Does s hold a blank (space, tab, newline)? A command word that does was
 * most likely meant as a command line. */
int words_has_blank(const char *s);

#endif
