/*
 * The table of measuring mechanisms (mechanism.h), in the order their plans,
 * begins and ends run. To add one: write its file with a `const struct
 * mechanism_ops mech_NAME`, and add its row here (the X-macro below declares
 * it and puts it in the table); a mechanism with options also needs the
 * fields they set in struct campaign_opts. docs/engine.md ("Adding one")
 * lists the few other places that name a mechanism, and why.
 *
 *   process  wall clock and rusage of every native run
 *   perf     perf_event counters (portable metrics and native events)
 *   calls    call counters: uprobes or the LD_PRELOAD shim, in instrumented
 *            runs of their own (they perturb the program)
 *   sim      cachegrind, in simulated blocks of their own
 *   regions  counts inside the program's marked regions (libpmustat)
 *   profile  where the time goes: sampled, symbolized self time per function,
 *            in instrumented runs of its own (or the timed ones: --profile-timed)
 *   allocsites  allocation call sites, in traced runs of their own (untimed)
 *   host     steal and busy CPU time around each run (/proc/stat), for the
 *            comparison's noise note; last, so its reads sit closest to the run
 */
#include "campaign/mechanism.h"

#define MECHANISMS(X) \
	X(mech_process) \
	X(mech_perf) \
	X(mech_calls) \
	X(mech_sim) \
	X(mech_regions) \
	X(mech_profile) \
	X(mech_allocsites) \
	X(mech_host)

#define DECLARE(m) extern const struct mechanism_ops m;
#define ROW(m) &m,

MECHANISMS(DECLARE)

const struct mechanism_ops *const campaign_mechanisms[] = {
	MECHANISMS(ROW)
	NULL,
};

size_t campaign_mechanism_options(struct campaign_opts *o, struct option *rows, size_t max)
{
	size_t n = 0;

	for (const struct mechanism_ops *const *t = campaign_mechanisms; *t; t++)
		if ((*t)->options)
			n += (*t)->options(o, rows + n, max - n);
	return n;
}
