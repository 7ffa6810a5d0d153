/*
 * The measuring session shared by `stat`, `compare` and `demo`: turn the
 * requested metrics/events into a result skeleton and a counter list, check
 * them against the host (every unavailable counter becomes a visible note,
 * never a silent drop), check outputs before anything runs, then run the
 * schedule, recording and persisting each run as it finishes.
 */
#ifndef PMU_CLI_CAMPAIGN_H
#define PMU_CLI_CAMPAIGN_H

#include "backend/callcount.h"
#include "backend/regions.h"
#include "backend/sim.h"
#include "backend/sim_select.h"
#include "catalog/event.h"
#include "catalog/select.h"
#include "plan/groups.h"
#include "core/strbuf.h"
#include "host/sysfs.h"
#include "report/csv.h"
#include "report/result.h"
#include "report/table.h"
#include "run/execpath.h"
#include "run/sigwatch.h"
#include "run/spawn.h"

struct campaign_opts {
	const char *events;	/* -e list, or NULL */
	const char *metrics;	/* -m list, or NULL */
	const char *uarch;	/* --uarch, or NULL (PMUSTAT_UARCH, else the host's) */
	int dry_run;		/* plan and print the counters' attrs, run nothing */
	unsigned repeat;	/* measured blocks */
	unsigned warmup;	/* warm-up blocks */
	double timeout_s;
	int show_output;
	int ignore_failure;
	int quiet;
	const char *json_path;
	const char *csv_path;
	uint64_t seed;
	size_t env_pad_max;
	int shuffle;
	int pin_cpu;		/* run every command on this CPU, -1 = no pinning */
	int equal_paths;	/* exec variants through equal-length paths */
	double max_time_s;	/* stop before a block that would exceed it; 0 = none */
	/*
	 * Called after each measured block (blocks counted from 1, warm-up
	 * excluded). Returns 1 to stop, with the reason in *why; may append a
	 * status to *progress for the terminal progress line.
	 */
	int (*after_block)(const struct result *r, unsigned blocks, void *data,
			   struct strbuf *why, struct strbuf *progress);
	void *after_data;
	const char *done_reason;	/* stop reason when every block ran (NULL: "all runs done") */
	enum backend_mode backend;	/* --backend: auto, hw, sim, sw */
	unsigned sim_runs;		/* simulated blocks (0: 3) */
	const char *sim_args;		/* words appended to each command in simulated
					 * runs (a smaller input), or NULL */
	enum callcount_mech call_mech;	/* call counters: auto, uprobe, preload */
};

struct campaign {
	const struct campaign_opts *o;
	struct result res;
	struct sysfs_model model;
	struct event_spec *events;	/* perf events counted (by group, see plan) */
	size_t *event_metric;		/* result metric index of each event */
	char *owned;			/* per event: 1 = spec owned (from -e), 0 = the
					 * resolution's */
	struct plan_event *pev;		/* per event: what the planner needs */
	size_t nevents, events_alloc;
	struct plan plan;		/* groups; group of a run = block mod G */
	size_t *leaders;		/* scratch: leader per event for one run */
	struct catalog_host cat;	/* catalogue for the host or --uarch */
	struct resolution resol;	/* the metrics asked for, resolved */
	int have_cat, have_resol, have_plan;
	/* call counters (campaign_ext.c): one set per variant */
	struct callcount_set *calls;
	struct event_spec **call_events;	/* uprobe mode: per variant, its probes */
	size_t *call_metric;		/* result metric of each call metric */
	size_t ncalls;
	unsigned calls_incomplete;
	/* simulation (campaign_ext.c) */
	char *valgrind;
	struct cache_geometry geom;
	size_t *sim_metric;		/* result metrics served by simulation */
	size_t nsim;
	unsigned sim_runs;		/* simulated blocks to run */
	int native;			/* native runs are needed */
	unsigned native_blocks;		/* native blocks run (incl. warm-up) */
	uint64_t t0;			/* CLOCK_MONOTONIC ns when the runs began */
	unsigned sim_failed;
	unsigned regions_noted, regions_dropped;
	struct csv_writer csv;
	struct sigwatch sw;
	struct spawner server;		/* forks the measured children */
	char *failure_stderr;		/* stderr tail of the run that stopped us */
	struct execpaths xp;		/* equal-length links, if used */
	char ***run_argv;		/* per variant: argv as exec'd */
};

int campaign_init(struct campaign *c, const struct campaign_opts *o, const char *command,
		  struct error *err);
void campaign_release(struct campaign *c);

/* Add a variant to run (argv is copied). */
void campaign_add_variant(struct campaign *c, const char *name, char *const *argv);

/* Build the metric list and the counters, probe them, note what is
 * unavailable, and group the counters (campaign_plan.c). */
int campaign_plan(struct campaign *c, struct error *err);

/* Fill the formula metrics of a run from its event values. */
void campaign_compute_formulas(const struct campaign *c, struct result_run *run);

/* campaign_ext.c: call counters and simulation. */
char *campaign_take_calls(const char *list, char **calls);
int campaign_plan_calls(struct campaign *c, const char *items, struct error *err);
void campaign_release_calls(struct campaign *c);
size_t campaign_call_events(const struct campaign *c, int variant,
			    const struct event_spec **evs);
struct measure_outcome;
void campaign_record_calls(struct campaign *c, struct result_run *run,
			   struct callcount_run *cr, const struct measure_outcome *out,
			   size_t base);
int campaign_plan_sim(struct campaign *c, struct error *err);
void campaign_decide_native(struct campaign *c);
void campaign_release_sim(struct campaign *c);
void campaign_record_sim(struct campaign *c, struct result_run *run, const struct sim_run *sr);

/* Regions counted by libpmustat inside the program, per run. */
#define REGIONS_MAX_EVENTS 16
struct run_regions {
	struct regions_handoff h;
	char **env;
	size_t metric[REGIONS_MAX_EVENTS];	/* result metric of each handed event */
	size_t n;
	int active;
};
int campaign_regions_begin(struct campaign *c, struct run_regions *rg, char *const *base,
			   char ***envp, struct error *err);
void campaign_regions_end(struct campaign *c, struct run_regions *rg, size_t run_index);

/* What --dry-run prints: every counter's perf_event_attr, per group. */
int campaign_dry_run(const struct campaign *c, struct strbuf *out);

/* Check the programs can be run and the outputs written, before any run. */
int campaign_check(struct campaign *c, struct error *err);

/*
 * Run the schedule. Returns 0 when all runs finished; -1 with err when a run
 * failed (unless ignore_failure) or could not be executed; the result then
 * holds every run that finished, and has been written to the outputs.
 * c->res.interrupted is set when a SIGINT/SIGTERM stopped it.
 */
int campaign_run(struct campaign *c, struct error *err);

/* Write the final outputs (JSON); CSV rows are already written. */
int campaign_finish(struct campaign *c, struct error *err);

/* --backend and --calls words into o (usage errors name the valid ones). */
int campaign_opts_modes(struct campaign_opts *o, const char *backend, const char *calls,
			struct error *err);

/* campaign_plan + campaign_check (no check on a dry run: the program need
 * not exist here). */
int campaign_prepare(struct campaign *c, struct error *err);

typedef void (*campaign_renderer)(const struct result *r, const struct table_opts *o,
				  struct strbuf *out);

/*
 * What every measuring command does once prepared: run, write the outputs,
 * render the table (to stdout, or stderr when the JSON goes to stdout),
 * report a failure with the failing run's stderr. Returns the exit code:
 * 0, 1 (a run failed or an output could not be written) or 130 (interrupted).
 */
int campaign_conclude(struct campaign *c, campaign_renderer render);

#endif
