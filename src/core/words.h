/*
 * A command line written as one string (--prepare 'make clean', --setup
 * "cp 'a b' c"), split into words without a shell: blanks separate words;
 * single quotes keep everything up to the next single quote; double quotes
 * keep everything up to the next double quote, where a backslash escapes
 * only '"' and itself; outside quotes a backslash takes the next character
 * literally. Nothing else is interpreted: no variables, globs,
 * redirections or pipes. For those there is --shell.
 */
#ifndef PMU_CORE_WORDS_H
#define PMU_CORE_WORDS_H

#include "core/error.h"

/*
 * The words of s as a NULL-terminated vector of malloc'd strings (free with
 * strv_free), or NULL with a usage error for an unterminated quote or a
 * string with no words at all.
 */
char **words_split(const char *s, struct error *err);

/* Does s hold a blank (space, tab, newline)? A command word that does was
 * most likely meant as a command line. */
int words_has_blank(const char *s);

#endif
