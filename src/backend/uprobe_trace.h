/*
 * Uprobes that follow a program into the threads and processes it starts:
 * trace events made in tracefs (a line "p:GROUP/EVENT PATH:0xOFFSET", or
 * "r:..." for a return probe, appended to uprobe_events), opened as
 * PERF_TYPE_TRACEPOINT events by their id. Unlike the kernel's uprobe PMU,
 * whose inherited events re-read attr.config1 (a pointer valid in pmustat
 * only, backend/callcount.h), these are inherited like any tracepoint, so a
 * forked child's and a thread's calls are sampled into the same buffers.
 *
 * They are global state, and they pin the file they probe (its file system
 * cannot be unmounted while they exist): the group is named after this
 * process ("pmustat_PID_START_KEY", core/owner.h), removed by
 * uprobe_trace_remove once no event is open, and a group left by a pmustat
 * that was killed is removed by uprobe_trace_sweep, which every campaign
 * calls as it starts. Making them needs write access to tracefs (root);
 * without it the caller falls back to the uprobe PMU.
 */
#ifndef PMU_BACKEND_UPROBE_TRACE_H
#define PMU_BACKEND_UPROBE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/strbuf.h"

/*
 * A group or event name holds at most 63 characters and follows the rules
 * of a C identifier (kernel/trace/trace_probe.c, traceprobe_parse_event_name:
 * "Group name is too long" past MAX_EVENT_NAME_LEN - 1, 64 in
 * kernel/trace/trace_probe.h; is_good_name in kernel/trace/trace.h; both
 * seen on Linux 6.18). Ours: "pmustat_" 8, a pid at most 7 digits
 * (PID_MAX_LIMIT, 4194304), a start time at most 20, a key at most 16 hex
 * digits and two '_': 53.
 */
#define UPROBE_NAME_MAX 64

struct uprobe_trace {
	char group[UPROBE_NAME_MAX];
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

/*
 * Remove the trace events that pmustat processes killed before they could
 * remove them left in tracefs: those of groups named as ours whose owner
 * is gone (core/owner.h: no such pid, or a pid reused by another process).
 * A live pmustat's are kept, and so is an event still open (a run
 * orphaned by the kill still has it: the next sweep takes it). One read of
 * uprobe_events; nothing when tracefs cannot be read (not root). Returns
 * how many events were removed, their groups appended to removed (", "
 * between them) unless NULL.
 */
size_t uprobe_trace_sweep(struct strbuf *removed);

#endif
