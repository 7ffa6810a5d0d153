/*
 * Membership in a separated list of names: is "wall-time" one of the
 * metrics in "-m cycles,wall-time", is "hypervisor" among a cpuinfo flags
 * line. Whole items only, never substrings: "time" is not in
 * "wall-time,cycles", which a bare strstr() would claim.
 */
#ifndef PMU_CORE_STRLIST_H
#define PMU_CORE_STRLIST_H

/* Is name one of the comma-separated items of list? A NULL list has no
 * items; an empty name is never found (empty items are not names). */
int strlist_has(const char *list, const char *name);

/* The same with another separator, e.g. ' ' for /proc/cpuinfo flags. */
int strlist_has_sep(const char *list, const char *name, char sep);

#endif
