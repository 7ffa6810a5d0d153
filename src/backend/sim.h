/*
 * The simulation backend: hardware-style counts from valgrind's cachegrind,
 * for hosts without a PMU (most VMs, CI runners, containers). A simulated
 * run executes the program under
 *   valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes
 * with a private output directory, and the file it writes is turned into
 * portable metrics:
 *   instructions = Ir           l1d-accesses = Dr+Dw        l1d-misses = D1mr+D1mw
 *   l1i-misses   = I1mr         llc-misses   = DLmr+DLmw+ILmr (alias l3-misses)
 *   llc-accesses = I1mr+D1mr+D1mw (every L1 miss looks up the LL in the model)
 *   branches     = Bc+Bi        branch-misses = Bcm+Bim
 * plus the ratios branch-miss-ratio and *-mpki. Cachegrind models two cache
 * levels: L1 (i and d) and one last level "LL" that stands for the L3 (or
 * the L2 when the geometry says there is no L3); its counts are exact for
 * that model and say nothing about prefetchers, TLBs or timing.
 *
 * TIME IS NOT SIMULATED. A simulated run's wall clock, rusage and perf
 * counters measure valgrind, 20-100x slower than the program. This API
 * therefore never yields a time: struct sim_counts has none, and
 * sim_metric_value() answers only the metrics above. A campaign records
 * from a simulated run exactly the values sim_metric_value() gives and
 * leaves every other metric of that run invalid.
 *
 * Children: --trace-children=yes simulates every program the command
 * execs, each into its own file (cg.<pid>), and the files are summed, as
 * perf's inherit=1 sums a process tree. Setuid programs cannot run under
 * valgrind.
 */
#ifndef PMU_BACKEND_SIM_H
#define PMU_BACKEND_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* One simulated cache: size and line in bytes, ways. All 0 = valgrind's
 * own choice (from CPUID of the host). */
struct cache_level {
	uint64_t size;
	unsigned assoc;
	unsigned line;
};

struct cache_geometry {
	struct cache_level l1i, l1d, ll;
	int ll_level;		/* which real level LL stands for: 3, 2, or 0 when
				 * unknown (valgrind's host detection) */
};

/*
 * Can cachegrind simulate c? It requires a power-of-two line of at least
 * 16 bytes, a power-of-two number of sets, and assoc <= lines. which names
 * the cache in the error ("LL"): "cannot simulate LL cache of 12582912 B,
 * 16-way, 64 B lines: 12288 sets is not a power of two".
 */
int sim_level_check(const struct cache_level *c, const char *which, struct error *err);

/*
 * Make a real cache simulable (a 12 MiB 12-way L3 has 16384 sets, fine; a
 * 1.875 MiB-per-core sliced L3 is not): keep the line and the total size as
 * far as possible, round the set count down to a power of two and raise the
 * associativity to make up the size. Returns 1 when c was changed (say so in
 * a note), 0 when it was simulable already, -1 when the line itself is
 * unusable.
 */
int sim_level_fit(struct cache_level *c);

/* The cachegrind event columns pmustat reads, in valgrind 3.19's order. */
enum sim_event {
	SIM_IR, SIM_I1MR, SIM_ILMR, SIM_DR, SIM_D1MR, SIM_DLMR, SIM_DW, SIM_D1MW,
	SIM_DLMW, SIM_BC, SIM_BCM, SIM_BI, SIM_BIM, SIM_NEVENTS
};

/* Counts of one simulated run, summed over the processes it simulated.
 * Deliberately no time: see the top of this file. */
struct sim_counts {
	uint64_t ev[SIM_NEVENTS];
	unsigned have;			/* bit (1 << sim_event) per event present */
	unsigned files;			/* output files summed (processes simulated) */
	struct cache_geometry used;	/* from the files' desc: lines */
};

/* "Ir", "D1mr", ... */
const char *sim_event_name(enum sim_event e);

/*
 * Parse one cachegrind output file (the text of cachegrind.out.<pid>) and
 * add its totals to acc: the `events:` line names the columns, `summary:`
 * holds the totals (per-line records are not needed). `desc: I1/D1/LL
 * cache:` lines fill acc->used. Errors name the problem: "no 'summary:'
 * line", "'summary:' has 5 values for 13 events".
 */
int sim_parse(const char *text, struct sim_counts *acc, struct error *err);

/*
 * Per-function totals of one cachegrind file (for --profile): cb is called
 * once per function with its name as cachegrind wrote it ("fn=" lines) and
 * its counts ev[SIM_NEVENTS], summed over every part of the file that names
 * it. Errors as sim_parse's.
 */
typedef void (*sim_fn_cb)(void *ctx, const char *fn, const uint64_t *ev);
int sim_parse_functions(const char *text, sim_fn_cb cb, void *ctx, struct error *err);

/* The metrics a simulation yields, NULL-terminated. */
const char *const *sim_metric_names(void);

/* Does simulation yield name (for a geometry with LL = ll_level)? l2-*
 * names are simulated only when LL stands for the L2. */
int sim_metric_known(const char *name, int ll_level);

/*
 * The value of metric name from c: 0, or -1 when the simulation does not
 * produce it (unknown name, a needed event column absent, or a ratio whose
 * denominator is 0). Never a time.
 */
int sim_metric_value(const struct sim_counts *c, const char *name, double *value);

/*
 * Is valgrind installed? Searches path_env (a PATH value; NULL = $PATH) for
 * `valgrind`. *path is malloc'd. Error: "cannot simulate: valgrind is not
 * installed" / "hint: install it with 'apt-get install valgrind', or use
 * '--backend hw' or '--backend sw'".
 */
int sim_find_valgrind(const char *path_env, char **path, struct error *err);

/* One simulated run: the command line to spawn and where its output goes. */
struct sim_run {
	char **argv;		/* valgrind ... -- PROG ARGS, NULL-terminated */
	char *dir;		/* private output directory (removed on release) */
	int ll_level;		/* the geometry's, copied into the counts */
};

/*
 * Prepare a simulated run of argv with valgrind at path valgrind. geometry
 * NULL or all-zero levels = valgrind's host detection; each non-zero level
 * must pass sim_level_check(). Creates the private directory under $TMPDIR
 * (or /tmp). Spawn r->argv as the run's command.
 */
int sim_prepare(struct sim_run *r, const char *valgrind, const struct cache_geometry *geometry,
		char *const *argv, struct error *err);

/*
 * After the run: parse and sum every output file. -1 when there is none
 * (valgrind failed before the program started: its stderr says why; the
 * caller has it) or one does not parse.
 */
int sim_collect(const struct sim_run *r, struct sim_counts *out, struct error *err);

/* sim_parse_functions over every output file of the run. */
int sim_collect_functions(const struct sim_run *r, sim_fn_cb cb, void *ctx, struct error *err);

/* Remove the output directory and free the command line. */
void sim_run_release(struct sim_run *r);

#endif
