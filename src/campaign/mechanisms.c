/*
 * The table of measuring mechanisms (mechanism.h), in the order their plans,
 * begins and ends run. To add one: write its file with a `struct
 * mechanism_ops`, declare it in mechanism.h, and add a row here.
 *
 *   process  wall clock and rusage of every native run
 *   perf     perf_event counters (portable metrics and native events)
 *   calls    call counters: uprobes or the LD_PRELOAD shim
 *   sim      cachegrind, in simulated blocks of their own
 *   regions  counts inside the program's marked regions (libpmustat)
 */
#include "campaign/mechanism.h"

const struct mechanism_ops *const campaign_mechanisms[] = {
	&mech_process,
	&mech_perf,
	&mech_calls,
	&mech_sim,
	&mech_regions,
	NULL,
};

size_t run_setup_add_event(struct run_setup *rs, const struct event_spec *ev, size_t leader,
			   size_t metric, int shared)
{
	if (rs->nevents == rs->alloc) {
		rs->alloc = rs->alloc ? 2 * rs->alloc : 16;
		rs->events = xrealloc(rs->events, rs->alloc * sizeof(*rs->events));
		rs->leader = xrealloc(rs->leader, rs->alloc * sizeof(size_t));
		rs->metric = xrealloc(rs->metric, rs->alloc * sizeof(size_t));
		rs->shared = xrealloc(rs->shared, rs->alloc);
	}
	rs->events[rs->nevents] = *ev;
	rs->leader[rs->nevents] = leader;
	rs->metric[rs->nevents] = metric;
	rs->shared[rs->nevents] = (char)shared;
	return rs->nevents++;
}
