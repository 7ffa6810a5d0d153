/*
 * Which backend serves each metric, under `--backend auto|hw|sim|sw`. Pure:
 * the caller says what the host can do for a metric (a hardware counter
 * opened, cachegrind simulates it, valgrind is installed) and gets back the
 * backend and, whenever the answer is not the obvious one, the reason in
 * words for the result's notes. Nothing here probes or runs anything.
 *
 *   mode   hardware metric                         software  call    process
 *   auto   counter if it opens, else simulated     native    native  native
 *          when named with -m (extra runs under
 *          cachegrind, labelled), else not measured
 *   hw     counter if it opens, else not measured  native    native  native
 *   sim    simulated (valgrind required)           native    native  native*
 *   sw     not measured                            native    native  native
 * (*) --backend sim runs the program natively only when some metric needs
 * it (a software or call metric, or wall-time asked for by name); without
 * native runs, the process metrics are not measured: time under valgrind is
 * not the program's time.
 */
#ifndef PMU_BACKEND_SIM_SELECT_H
#define PMU_BACKEND_SIM_SELECT_H

#include <stddef.h>

#include "core/error.h"

enum backend_mode {
	BACKEND_AUTO = 0,
	BACKEND_HW,
	BACKEND_SIM,
	BACKEND_SW,
};

/* "auto", "hw", "sim", "sw"; -1 with a usage error naming the valid ones. */
int backend_mode_parse(const char *s, enum backend_mode *m, struct error *err);
const char *backend_mode_name(enum backend_mode m);

enum metric_class {
	MCLASS_HARDWARE,	/* a PMU event: cycles, instructions, caches, branches */
	MCLASS_SOFTWARE,	/* a kernel software event: task-clock, page-faults */
	MCLASS_CALL,		/* call:SYMBOL, allocs, frees */
	MCLASS_PROCESS,		/* wall-time, user-time, sys-time, max-rss */
};

enum backend_kind {
	BK_NONE,	/* not measured: reason says why */
	BK_PERF,	/* perf_event counter, in the native runs */
	BK_SIM,		/* cachegrind, in extra simulated runs: label it "simulated" */
	BK_CALL,	/* call counter (uprobe or preload), in the native runs */
	BK_PROCESS,	/* clock / rusage of the native runs */
};

/* What the host can do for one metric. */
struct backend_caps {
	int hw_countable;	/* its hardware counter opens here */
	int simulable;		/* sim_metric_known(name, ll_level) */
	int valgrind;		/* valgrind is installed (sim_find_valgrind) */
	int requested;		/* named by the user (-m), not added by default */
};

struct backend_choice {
	enum backend_kind kind;
	char reason[256];	/* BK_NONE: why not measured; BK_SIM under auto: why
				 * simulated; else "" */
	char hint[256];		/* what to do about it, or "" */
};

/* "perf", "sim", "call", "process" or "none". */
const char *backend_kind_name(enum backend_kind k);

/*
 * Decide for one metric. Returns 0 with *out filled; -1 with err only when
 * the mode itself cannot work here (--backend sim without valgrind), which
 * should stop the campaign before any run.
 */
int backend_choose(enum backend_mode mode, enum metric_class cls, const struct backend_caps *caps,
		   struct backend_choice *out, struct error *err);

/*
 * Which runs the choices need: *native (some metric is counted natively,
 * or the mode is not sim) and *sim (some metric is simulated). Under
 * --backend sim without native runs, the process metrics' choices (in
 * classes[], parallel to choices) become BK_NONE with the reason.
 */
void backend_plan_runs(enum backend_mode mode, const enum metric_class *classes,
		       const struct backend_caps *caps, struct backend_choice *choices, size_t n,
		       int *native, int *sim);

#endif
