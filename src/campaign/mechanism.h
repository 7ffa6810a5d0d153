/*
 * A measuring mechanism: one small ops table, several implementations (in
 * the spirit of redis's ae event loop backends). The campaign's planner and
 * block loop iterate over the active mechanisms and name none of them; each
 * mechanism keeps its own state and says what it adds to the request, to a
 * run (environment, counters, a wrapped command line) and to the run's
 * record. Adding a mechanism is one new file and one row of the table in
 * mechanisms.c (and, for its options, their fields in struct campaign_opts:
 * docs/engine.md, "Adding one").
 *
 * Order is the table's: plans run first to last (a later mechanism may read
 * what an earlier one planned from the result's metrics), and so do a run's
 * begins and ends. What a mechanism needs from the schedule is a value its
 * plan returns (struct mech_needs): the kinds of run it takes part in, how
 * many blocks of its own kind, whether it perturbs the program (then its
 * runs are instrumented runs of its own, never the timed ones), its counter
 * groups and what it offers the backend policy.
 */
#ifndef PMU_CAMPAIGN_MECHANISM_H
#define PMU_CAMPAIGN_MECHANISM_H

#include <stddef.h>

#include "campaign/campaign.h"
#include "catalog/event.h"
#include "core/parseopt.h"
#include "run/measure.h"
#include "run/schedule.h"

/*
 * The kinds of run: timed (native: the runs the verdicts come from, which
 * carry only counting that costs the program nothing per event), simulated
 * (cachegrind), traced (untimed runs of their own, e.g. allocation call
 * sites), and instrumented (a perturbing mechanism's own runs, one
 * mechanism per run, scheduled right after a timed block and timed only to
 * measure what the mechanism costs).
 */
enum { MECH_NATIVE = 1, MECH_SIM = 2, MECH_TRACED = 4, MECH_INSTRUMENTED = 8 };

/* How many instrumented blocks a mechanism of exact counts gets (calls,
 * bytes: the same in every run of a deterministic program); more, one per
 * timed block, only once its values differ between runs. */
#define MECH_EXACT_BLOCKS 2

/*
 * What a mechanism needs, returned by its plan (and settled by plan_done).
 * The loop schedules from these values alone and names no mechanism.
 */
struct mech_needs {
	unsigned runs;		/* the kinds of run it takes part in (MECH_*) */
	unsigned blocks;	/* blocks of its own kind (simulated, traced) */
	/* Runs code inside the program per event (a preload shim, uprobes,
	 * sampling with stack copies): it runs in instrumented runs of its
	 * own (runs = MECH_INSTRUMENTED), and its cost is measured there. */
	int perturbs;
	int exact;		/* perturbs with exact counts: MECH_EXACT_BLOCKS
				 * instrumented blocks, more only if they vary */
	char what[160];		/* perturbs: what it does, for the cost note
				 * ("counting calls through the LD_PRELOAD shim") */
	size_t groups;		/* counter groups it lays out (0: none) */
	/* blocks: how to ask for fewer or smaller runs of its kind, for the
	 * note when the time budget cuts them ("lower --sim-runs, ..."). */
	const char *fewer;
	/* For the backend policy: simulation is possible, and which last
	 * level its model has (2, 3; 0 = valgrind's choice). */
	int sim_valgrind, sim_ll_level;
};

/* What one run will do; begin() may change any of it. */
struct run_setup {
	const struct sched_slot *slot;
	char *const *argv;		/* the command as exec'd (wrap it: valgrind ...) */
	char *const *envp;		/* NULL = pmustat's own environment */
	double timeout_s;
	/* The perf events the run opens, in order; parallel arrays. */
	struct event_spec *events;	/* shallow copies, owned by their mechanism */
	size_t *leader;			/* group leader's index, or PLAN_NOT_COUNTED */
	size_t *metric;			/* result metric of each event */
	char *shared;			/* 1 = may be counted inside regions too */
	size_t nevents, alloc;
	/* Called with the child's pid before it execs (run_setup_attach). */
	struct run_attach {
		int (*fn)(void *ctx, pid_t pid, struct error *err);
		void *ctx;
	} attach[4];
	size_t nattach;
};

/* Have fn(ctx, pid) called once the run's child exists, before it execs. */
void run_setup_attach(struct run_setup *rs, int (*fn)(void *ctx, pid_t pid, struct error *err),
		      void *ctx);

/* Append an event; leader is an index in rs (the event's own for a lone or
 * leading event). Returns the event's index. */
size_t run_setup_add_event(struct run_setup *rs, const struct event_spec *ev, size_t leader,
			   size_t metric, int shared);

struct mechanism_ops {
	const char *name;
	size_t run_size;	/* bytes of per-run state given to begin/end */
	/*
	 * What it adds to the request: metrics into c->res, notes, probes.
	 * Sets *state (NULL = not active in this campaign) and fills *need
	 * (zeroed). -1 with err stops the campaign before any run.
	 */
	int (*plan)(struct campaign *c, void **state, struct mech_needs *need, struct error *err);
	/* After every plan ran and the policy decided (optional): settle what
	 * depends on the others, need included. */
	int (*plan_done)(struct campaign *c, void *state, struct mech_needs *need,
			 struct error *err);
	/* Before a run is spawned. run is zeroed, run_size bytes. */
	int (*begin)(struct campaign *c, void *state, struct run_setup *rs, void *run,
		     struct error *err);
	/*
	 * After the run was reaped and recorded as c->res.runs[run_index]: its
	 * values into the record. Failures become notes, never a stop.
	 */
	void (*end)(struct campaign *c, void *state, void *run, const struct measure_outcome *out,
		    size_t run_index);
	/* Free what begin made (optional; called whether or not end ran). */
	void (*run_release)(void *state, void *run);
	/* Is this item of -m/-e its own (optional)? The request's split gives
	 * each item to the first mechanism of the table that claims it (its
	 * plan reads them with campaign_claimed); the items no one claims are
	 * portable metrics (-m) and native events (-e). */
	int (*claims)(const char *item);
	/* Its option rows for stat and compare (optional): written into rows
	 * (at most max), their values into o; returns how many. */
	size_t (*options)(struct campaign_opts *o, struct option *rows, size_t max);
	/* What of the request it cannot serve in an attach session (-p, -t,
	 * -a, -I: tasks that already run, no child per run), as the user
	 * wrote it ("--profile"), or NULL (optional; asked before any plan,
	 * in table order, so the first refusal is the one reported). */
	const char *(*attach_refusal)(const struct campaign *c);
	/* What --dry-run shows for it (optional). */
	void (*dry_run)(const struct campaign *c, const void *state, struct strbuf *out);
	void (*release)(void *state);
};

struct mech_slot {
	const struct mechanism_ops *ops;
	void *state;
	struct mech_needs need;
	size_t cost_metric;	/* perturbs: the hidden wall time of its runs */
	unsigned instr_blocks;	/* perturbs: its instrumented blocks so far */
};

/* Copy a mechanism's n option rows into rows (at most max); how many. */
size_t mech_option_rows(const struct option *mine, size_t n, struct option *rows, size_t max);

/* The most blocks of a kind (MECH_SIM, MECH_TRACED) a mechanism asked for
 * (request.c). */
unsigned campaign_blocks_of(const struct campaign *c, unsigned kind);

/* Does the mechanism in slot i take part in this run? */
int mech_takes_part(const struct campaign *c, size_t i, const struct sched_slot *slot);

/* The table, in order, NULL-terminated (mechanisms.c, which alone names
 * the mechanisms). */
extern const struct mechanism_ops *const campaign_mechanisms[];

/* ---- shared by the mechanisms and the planner (request.c) -------------- */

/* The items of -m/-e that ops claimed, comma-joined (events' first), or
 * NULL: none, or ops is not in the table. */
const char *campaign_claimed(const struct campaign *c, const struct mechanism_ops *ops);

/* The catalogue for the host or --uarch, opened on first use. */
int campaign_catalog(struct campaign *c, struct error *err);

/* A metric cannot be measured: reason and hint replace earlier ones. */
void campaign_mark_unavailable(struct result_metric *m, const char *reason, const char *hint);

/* Set a run's value of metric m (by index; runs may have moved). */
void campaign_set_value(struct campaign *c, size_t run_index, size_t m, double value);

/* Fill the formula metrics of a run from its own event values. */
void campaign_compute_formulas(const struct campaign *c, struct result_run *run);

/* ---- the engine's own steps --------------------------------------------- */

/* Split the request, plan every mechanism, apply the backend policy
 * (request.c). */
int campaign_plan(struct campaign *c, struct error *err);

/* Record a finished run: status from the spawn, then every mechanism's
 * values; returns its index (record.c). */
size_t campaign_record(struct campaign *c, const struct sched_slot *slot, double start,
		       const struct measure_outcome *out);

/* Append the run to the outputs (journal, CSV); -1 with err when one cannot
 * be written (record.c). */
int campaign_persist(struct campaign *c, size_t run_index, struct error *err);

/* Can the outputs be written? Before anything runs (record.c). */
int campaign_outputs_check(const struct campaign *c, struct error *err);

/* Open the outputs' journal and CSV before the first run (record.c). */
int campaign_outputs_open(struct campaign *c, struct error *err);

/* Address space the campaign sets aside for running out of memory
 * (xalloc_reserve): the run that hits the limit finishes, and the campaign
 * stops after it with campaign_out_of_memory's error. */
#define CAMPAIGN_MEMORY_RESERVE (2u << 20)
int campaign_out_of_memory(const struct campaign *c, struct error *err);

/* The error for a run that stops the campaign (record.c). */
int campaign_run_failure(struct campaign *c, size_t run_index, const struct measure_outcome *out,
			 struct error *err);

/* Notes at the end of the runs (record.c). */
void campaign_note_ignored_failures(struct campaign *c);
void campaign_note_left_behind(struct campaign *c);
void campaign_note_interrupted(struct campaign *c, size_t total);

/* The hooks (hooks.c): run kind k's command of one variant, or of every
 * variant in order (an interrupt ends them quietly); -1 with err naming the
 * command when one fails. */
int campaign_hook(struct campaign *c, enum hook_kind k, size_t variant, struct error *err);
int campaign_hooks_all(struct campaign *c, enum hook_kind k, struct error *err);
/* Before any run: the hooks' programs exist, --input can be read by every
 * run; each adds its note. */
int campaign_hooks_check(struct campaign *c, struct error *err);
int campaign_input_check(struct campaign *c, struct error *err);
/* The notes on the shell the commands start through and on a stdin that
 * the measured command does not get. */
void campaign_note_surroundings(struct campaign *c);

/* The perturbing mechanisms' cost (cost.c): the hidden metric of each
 * one's instrumented wall time, planned before any run; after the runs,
 * one note per mechanism with its cost per variant against the timed runs
 * next to its own. */
void campaign_cost_plan(struct campaign *c);
/* Did mechanism k's values differ between its instrumented runs of one
 * variant (exact counts that are not)? */
int campaign_mech_varies(const struct campaign *c, size_t k);
void campaign_note_costs(struct campaign *c);

/* Should the block loop stop after `blocks` measured blocks (stop.c)? 1 with
 * the reason in why; status gets the progress words ("wall-time CI ±2%"). */
int campaign_stop_check(const struct campaign *c, unsigned blocks, struct strbuf *why,
			struct strbuf *status);

#endif
