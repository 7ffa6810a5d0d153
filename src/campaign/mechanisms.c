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
 *   profile  where the time goes: sampled, symbolized self time per function
 *   allocsites  allocation call sites, in traced runs of their own (untimed)
 *   host     steal and busy CPU time around each run (/proc/stat), for the
 *            comparison's noise note; last, so its reads sit closest to the run
 */
#include "campaign/mechanism.h"

const struct mechanism_ops *const campaign_mechanisms[] = {
	&mech_process,
	&mech_perf,
	&mech_calls,
	&mech_sim,
	&mech_regions,
	&mech_profile,
	&mech_allocsites,
	&mech_host,
	NULL,
};
