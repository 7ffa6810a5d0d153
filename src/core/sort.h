/*
 * qsort for arrays that may be empty. The C standard requires qsort's base
 * to be a valid pointer even when there is nothing to sort, and an empty
 * array here is often NULL (grown on first use): UBSan stops on that. Every
 * sort in pmustat goes through this.
 */
#ifndef PMU_CORE_SORT_H
#define PMU_CORE_SORT_H

#include <stdlib.h>

static inline void sort_n(void *base, size_t n, size_t size,
			  int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

#endif
