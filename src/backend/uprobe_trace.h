/*
 * Uprobes that follow a program into the threads and processes it starts:
 * trace events made in tracefs (a line "p:GROUP/EVENT PATH:0xOFFSET", or
 * "r:..." for a return probe, appended to uprobe_events), opened as
 * PERF_TYPE_TRACEPOINT events by their id. Unlike the kernel's uprobe PMU,
 * whose inherited events re-read attr.config1 (a pointer valid in pmustat
 * only, backend/callcount.h), these are inherited like any tracepoint, so a
 * forked child's and a thread's calls are sampled into the same buffers.
 *
 * They are global state: the group is named after this process
 * ("pmustat_PID_N"), removed by uprobe_trace_remove once no event is open,
 * and a group left by a pmustat that was killed (its pid no longer alive)
 * is removed by the next uprobe_trace_make. Making them needs write access
 * to tracefs (root); without it the caller falls back to the uprobe PMU.
 */
#ifndef PMU_BACKEND_UPROBE_TRACE_H
#define PMU_BACKEND_UPROBE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

struct uprobe_trace {
	char group[64];
	const char *root;	/* the tracefs mount */
	size_t n;		/* events made: "p0".."p<n-1>" */
	uint64_t *ids;		/* their tracepoint ids (attr.config) */
};

/* Make n events, probe i at (path[i], offset[i]), a return probe where
 * ret[i]; key tells this set's group from the process's others. -1 with
 * err (nothing left made) when tracefs is not there or not writable, or a
 * path cannot be written in its syntax (white space). */
int uprobe_trace_make(struct uprobe_trace *t, const char *const *path, const uint64_t *offset,
		      const unsigned char *ret, size_t n, uintptr_t key, struct error *err);
/* Remove the events made (none may be open). */
void uprobe_trace_remove(struct uprobe_trace *t);

#endif
