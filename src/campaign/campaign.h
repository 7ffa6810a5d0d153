/*
 * The campaign: pmustat's measuring engine, shared by `stat`, `compare` and
 * `demo`. A campaign turns a request (metrics, events, call counters) into a
 * plan through its mechanisms (campaign/mechanism.h: process clocks, perf
 * counting, call counters, regions, simulation), checks the programs and the
 * outputs before anything runs, then runs randomized blocks under a stopping
 * rule and a time budget, and records every run as it finishes — appended to
 * a journal, so an interrupt or kill -9 loses no finished run.
 *
 * Lifecycle: campaign_init -> campaign_add_variant... -> campaign_prepare ->
 * campaign_run -> campaign_finish -> campaign_release. Nothing here writes
 * to stdout; progress reaches the terminal through a callback the caller
 * owns.
 */
#ifndef PMU_CAMPAIGN_CAMPAIGN_H
#define PMU_CAMPAIGN_CAMPAIGN_H

#include <stdint.h>

#include <jansson.h>

#include "catalog/select.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "host/sysfs.h"
#include "report/csv.h"
#include "result/result.h"
#include "run/execpath.h"
#include "run/sigwatch.h"
#include "run/spawn.h"

/*
 * When the block loop stops, as a value. STOP_FIXED runs max_blocks blocks.
 * STOP_PRECISION (--target-ci) stops once the primary metric's CI
 * half-width of every variant against the baseline is within target
 * (relative, 0.01 = 1%), after min_blocks. STOP_SEQUENTIAL, compare's
 * default, stops after min_blocks once the primary metric's always-valid
 * confidence sequence of every variant has settled its verdict (clear of
 * the noise band or inside it) or is itself within target
 * (stats/sequential.h, docs/verdicts.md). Both also stop at max_blocks, and
 * the time budget (campaign_opts.max_time_s) applies to every rule. A rule
 * never stops on a p-value. The result records the rule (res.decide,
 * min_blocks, repeat = max_blocks, target) so the estimate can be corrected
 * for it later.
 */
enum stop_kind { STOP_FIXED, STOP_PRECISION, STOP_SEQUENTIAL };

struct comparison_set;

struct stop_rule {
	enum stop_kind kind;
	unsigned min_blocks;
	unsigned max_blocks;	/* measured blocks at most (warm-up excluded) */
	double target;		/* relative half-width, 0.01 = 1% (sequential: 0 = none) */
	/* A caller's own question, in place of the sequential rule's: after
	 * each block (from min_blocks on), 1 stops, with why filled (a bisect
	 * step stops once its candidate is placed, campaign/bisect.c). */
	int (*decide)(void *ctx, const struct result *r, const struct comparison_set *s,
		      struct strbuf *why);
	void *decide_ctx;
};

/* What the progress callback is told after each run. */
struct campaign_progress {
	size_t done, total;	/* runs finished, runs planned at most */
	const char *status;	/* "wall-time CI ±1.20% (target 1.00%)", "simulating", or "" */
	double left_s;		/* time left of the budget, or -1 without one */
};

/* --profile modes (campaign_opts.profile). */
enum { PROFILE_TIME = 1, PROFILE_ALLOCS = 2 };

/*
 * Commands run around the measured ones and never measured (hyperfine's
 * --setup, --prepare, --conclude, --cleanup): setup once per variant before
 * the first block, prepare before and conclude after every run of the
 * variant (warm-up and simulated runs too), cleanup once per variant after
 * the last block. With interleaved blocks, "once per variant" means every
 * variant's setup before the first block and every cleanup after the last.
 * A hook that fails stops the campaign with an error naming the command.
 */
enum hook_kind { HOOK_SETUP, HOOK_PREPARE, HOOK_CONCLUDE, HOOK_CLEANUP, HOOK_KINDS };

/*
 * What stat counts (campaign/target.h). TARGET_COMMAND spawns the command
 * for every run; the others attach to what already runs, as perf stat's
 * -p, -t and -a do, for one session whose runs are its intervals. A
 * command, if given, then only bounds the session.
 */
enum target_kind { TARGET_COMMAND, TARGET_PIDS, TARGET_TIDS, TARGET_SYSTEM };

struct campaign_target {
	enum target_kind kind;
	const char *ids;	/* -p / -t list, as given */
	const char *cpus;	/* -C list, or NULL = every online CPU */
	double duration_s;	/* --duration, 0 = until the command ends or Ctrl-C */
	unsigned interval_ms;	/* -I: one run per interval; 0 = one run in all */
	int per_thread;		/* --per-thread (-p/-t): each thread's counts too */
};

struct campaign_opts {
	const char *events;	/* -e list, or NULL */
	const char *metrics;	/* -m list, or NULL */
	const char *uarch;	/* --uarch, or NULL (PMUSTAT_UARCH, else the host's) */
	const char *backend;	/* --backend auto|hw|sim|sw, or NULL = auto */
	const char *calls;	/* --calls auto|uprobe|preload, or NULL = auto */
	int dry_run;		/* plan and describe the counters, run nothing */
	unsigned warmup;	/* warm-up blocks */
	struct stop_rule stop;
	double timeout_s;
	int show_output;
	int ignore_failure;
	int keep_children;	/* let processes a run leaves behind live on (default: killed) */
	const char *json_path;
	const char *csv_path;
	const char *markdown_path;	/* --export-markdown: the table as markdown */
	uint64_t seed;
	size_t env_pad_max;
	int shuffle;
	int pin_cpu;		/* run every command on this CPU, -1 = no pinning */
	int equal_paths;	/* exec variants through equal-length paths */
	double max_time_s;	/* time budget, simulated runs included; 0 = none */
	unsigned sim_runs;	/* simulated blocks (0: 3) */
	int profile;		/* --profile modes: PROFILE_TIME | PROFILE_ALLOCS */
	int profile_timed;	/* --profile-timed: sample inside the timed runs */
	unsigned trace_runs;	/* traced (untimed) runs per variant (0: 1) */
	unsigned profile_frames;	/* frames per allocation call site (0: 4) */
	unsigned profile_hz;	/* --profile-rate (0: 999) */
	unsigned profile_period;	/* --profile-period: a sample every N events (0: by rate) */
	const char *call_graph;	/* --call-graph: dwarf (NULL: the default), fp, none */
	const char *sim_args;	/* words appended to each command in simulated
				 * runs (a smaller input), or NULL */
	struct campaign_target target;
	const char *done_reason;	/* stop reason when every block ran (NULL: "all runs done") */
	const char *input;	/* --input: every run's stdin (NULL: /dev/null) */
	/* cwd[variant]: the directory the variant's runs start in (bisect: the
	 * candidate's worktree), or cwd NULL for pmustat's own. */
	const char *const *cwd;
	const char *shell;	/* --shell: the commands are 'SHELL -c STRING' (for the note) */
	/* hooks[kind][variant]: the argv run for that variant, or hooks[kind]
	 * NULL (or an entry NULL) for none. The caller owns them. */
	char **const *hooks[HOOK_KINDS];
	/* Called after every run (never while the outputs are written). */
	void (*progress)(const struct campaign_progress *p, void *data);
	void *progress_data;
};

struct mech_slot;
struct journal;
struct target_state;
struct campaign;
struct measure_spec;
struct measure_outcome;

/*
 * How a run is launched and measured: one operation whatever is measured,
 * a command spawned per run (campaign_spawn_launcher, the default) or an
 * interval of an attach session (target.c), so the block loop has no
 * branch for either. A session also decides when the blocks end: ended is
 * asked after each block in place of the stopping rule, the block limit and
 * the budget, and a stop request (Ctrl-C) is its to handle.
 */
struct campaign_launcher {
	int (*measure)(struct campaign *c, const struct measure_spec *spec,
		       struct measure_outcome *out, struct error *err);
	/* After the mechanisms ended run run_index (optional). */
	void (*recorded)(struct campaign *c, size_t run_index);
	/* NULL, or the session's end: 1 with the reason in why. */
	int (*ended)(struct campaign *c, struct strbuf *why);
	/* The loop's clock in ns (the time budget, block durations, progress):
	 * NULL = CLOCK_MONOTONIC; a fake one in the unit tests. */
	uint64_t (*now_ns)(const struct campaign *c);
};

/* A command spawned per run through the spawn server (loop.c). */
extern const struct campaign_launcher campaign_spawn_launcher;

struct campaign {
	const struct campaign_opts *o;
	struct result res;
	struct sysfs_model model;
	struct catalog_host cat;	/* catalogue for the host or --uarch */
	int have_cat;
	int backend;			/* parsed --backend */
	/* The request, split: portable metrics, native events, and per row of
	 * the mechanism table the items it claimed (campaign_claimed). */
	char *req_metrics, *req_events, **req_claimed;
	struct mech_slot *mech;		/* the active mechanisms, in table order */
	size_t nmech;
	size_t groups;			/* counter groups: group of a block = block mod groups */
	int native;			/* native runs are needed */
	unsigned native_blocks;		/* native blocks run (incl. warm-up) */
	uint64_t t0;			/* CLOCK_MONOTONIC ns when the runs began */
	struct journal *journal;	/* -o FILE: runs appended as they finish */
	struct csv_writer csv;
	int output_failed;		/* an output could not be written */
	struct sigwatch sw;
	struct spawner server;		/* forks the measured children */
	char *failure_stderr;		/* stderr tail of the run that stopped us */
	unsigned left_runs;		/* runs that left processes behind */
	unsigned long long left_total;	/* processes they left */
	struct execpaths xp;		/* equal-length links, if used */
	char ***run_argv;		/* per variant: argv as exec'd */
	struct target_state *target;	/* an attach session (target.c), or NULL */
	const struct campaign_launcher *launch;	/* how a run is measured */
};

struct option;

/*
 * The mechanisms' own option rows (--calls, --profile..., --sim-runs...),
 * in table order, for stat and compare to append to theirs (as git's
 * parse_options_concat): at most max rows, values into o; returns how many.
 */
size_t campaign_mechanism_options(struct campaign_opts *o, struct option *rows, size_t max);

/* Start the spawn server and read the host; -1 with err (e.g. a bad
 * --backend word). command is "stat", "compare" or "demo". */
int campaign_init(struct campaign *c, const struct campaign_opts *o, const char *command,
		  struct error *err);
void campaign_release(struct campaign *c);

/* Add a variant to run (argv is copied). */
void campaign_add_variant(struct campaign *c, const char *name, char *const *argv);

/*
 * Plan every mechanism, note what is unavailable, and (unless dry_run)
 * check that the programs can be run and the outputs written.
 */
int campaign_prepare(struct campaign *c, struct error *err);

/* What --dry-run prints: every counter's perf_event_attr, per group. */
void campaign_dry_run(const struct campaign *c, struct strbuf *out);

/*
 * Run the blocks. Returns 0 when the campaign ended normally (its reason in
 * res.stop_reason); -1 with err when a run failed (unless ignore_failure),
 * could not be executed, or an output could not be written. Every finished
 * run is in res and in the journal. res.interrupted is set when SIGINT or
 * SIGTERM stopped it (that returns 0).
 */
int campaign_run(struct campaign *c, struct error *err);

/*
 * Write the final outputs: the full JSON document (atomically), with the
 * analysed sections the caller built once from res (analysis/analysed.h:
 * analysed_json; result/json.h places them), and the end of the CSV.
 * complete is set only when every output was written whole.
 */
int campaign_finish(struct campaign *c, const json_t *sections, struct error *err);

/* Does the campaign have an output at path "-" (JSON to stdout)? */
int campaign_json_to_stdout(const struct campaign *c);

#endif
