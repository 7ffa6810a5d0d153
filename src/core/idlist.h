/*
 * Lists of numbers as perf and the kernel write them: "0-3,8,10-11" for CPUs
 * (-C, sysfs cpumask and cpulist files), "1234,5678" for process and thread
 * ids (-p, -t). Parsing is strict, since a typo in a CPU list would otherwise
 * count the wrong CPUs: every item is a number or an ascending range, and a
 * number may appear only once.
 */
#ifndef PMU_CORE_IDLIST_H
#define PMU_CORE_IDLIST_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

/* Largest id accepted (the kernel's PID_MAX_LIMIT is 4194304). */
#define IDLIST_MAX 4194304

/*
 * Parse list into a sorted array of distinct ids (*ids malloc'd, *n set).
 * ranges: "a-b" items allowed. what names the list in errors ("CPU list",
 * "pid list"). -1 with a usage error naming the bad item.
 */
int idlist_parse(const char *list, int ranges, const char *what, int **ids, size_t *n,
		 struct error *err);

/* ids (sorted) as "0-3,8": ranges of three or more folded. */
void idlist_format(const int *ids, size_t n, struct strbuf *out);

/* Is id in the sorted array? */
int idlist_has(const int *ids, size_t n, int id);

#endif
