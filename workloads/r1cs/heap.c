/*
 * Backing calls of the counting allocator (see heap.h). Kept out of line so
 * the inline wrappers stay a counter increment plus a call, like a Rust
 * global allocator that forwards to the system one.
 */
#include "heap.h"

#include <stdio.h>
#include <stdlib.h>

struct heap_counts heap_counter;

void *heap_fail(size_t size)
{
	fprintf(stderr, "error: out of memory allocating %zu bytes\n", size);
	fprintf(stderr, "hint: use a smaller --labels or --blocks\n");
	exit(1);
}

void *heap_alloc_slow(size_t size)
{
	void *p = malloc(size);
	return p ? p : heap_fail(size);
}

void *heap_realloc_slow(void *p, size_t size)
{
	void *q = realloc(p, size);
	return q ? q : heap_fail(size);
}

void heap_free_slow(void *p)
{
	free(p);
}
