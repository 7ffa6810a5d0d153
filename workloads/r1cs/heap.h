/*
 * The workload's own counting allocator. Every heap call the synthesis
 * makes (term buffers, spills, pools, assignment vectors) goes through
 * these wrappers, so "heap operations per row" is exact and independent of
 * which libc or preload shim is in use.
 *
 * The counters are one process-wide struct on purpose: they play the role
 * of Rust's #[global_allocator], which LC operators reach without being
 * handed a context. Nothing else in the workload is global and mutable,
 * apart from the csr arena (lc_csr.h), for the same reason.
 */
#ifndef R1CS_HEAP_H
#define R1CS_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct heap_counts {
	uint64_t mallocs;
	uint64_t reallocs;
	uint64_t frees;
};

extern struct heap_counts heap_counter;

void *heap_fail(size_t size); /* reports out-of-memory and exits 1 */

void *heap_alloc_slow(size_t size);
void *heap_realloc_slow(void *p, size_t size);
void heap_free_slow(void *p);

static inline void *heap_alloc(size_t size)
{
	heap_counter.mallocs++;
	return heap_alloc_slow(size);
}

static inline void *heap_realloc(void *p, size_t size)
{
	heap_counter.reallocs++;
	return heap_realloc_slow(p, size);
}

static inline void heap_free(void *p)
{
	heap_counter.frees++;
	heap_free_slow(p);
}

#endif
