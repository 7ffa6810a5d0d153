/*
 * The result model: everything one pmustat campaign learned, as plain data.
 * Every command builds one of these; every renderer (table, JSON, CSV, HTML)
 * is a pure function of it; `pmustat report` reads it back from JSON. Raw
 * per-run values are always kept, so any result can be re-analysed later.
 *
 * Invariants: runs[i].values has nmetrics entries, in metrics[] order; a value
 * with valid == 0 was not measured in that run (not opened, run failed, ...).
 */
#ifndef PMU_RESULT_RESULT_H
#define PMU_RESULT_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "host/hostinfo.h"

#define RESULT_SCHEMA "pmustat.result/1"
/* What `compare` accepts (campaign/compare_plan.h); a result read back may not hold
 * more, since analysis and tables grow with variants x metrics. */
#define RESULT_MAX_VARIANTS 64

enum metric_source {
	MSRC_CLOCK,	/* wall-time: CLOCK_MONOTONIC around the run */
	MSRC_RUSAGE,	/* user-time, sys-time, max-rss: wait4 */
	MSRC_PERF,	/* a perf_event counter */
	MSRC_FORMULA,	/* computed per run from other metrics of the same run */
	MSRC_CALLS,	/* a call counter (backend: "uprobe" or "preload") */
	MSRC_SIM,	/* simulated by cachegrind, in simulated runs only */
	MSRC_REGION,	/* counted inside a marked region (libpmustat) */
	MSRC_PROFILE,	/* self time of one function, from sampling (--profile) */
	MSRC_HOST,	/* the host around the run (/proc/stat: steal, busy CPUs);
			 * describes the conditions, never compared */
};

struct result_metric {
	char *name;		/* "wall-time", "task-clock", "msr/tsc/" */
	char *unit;		/* unit of value * scale: "ns", "KiB", "" (count), or a sysfs unit */
	enum metric_source source;
	char *backend;		/* "clock", "rusage", "perf" ... as recorded */
	char *pmu;		/* perf only: "software", "msr", ... else NULL */
	uint32_t type;		/* perf only: attr type/config words */
	uint64_t config, config1, config2;
	double scale;		/* sysfs scale: raw values are stored, value * scale is in unit */
	int available;		/* 0 = never counted; reason says why */
	char *reason;		/* why not available, one line, or NULL */
	char *hint;		/* what to do about it, or NULL */
	int group;		/* counter group id within a run, -1 for non-perf */
	char *formula;		/* MSRC_FORMULA: over other metrics' names */
	char *proxy;		/* counted through a proxy: what it measures instead */
	int hidden;		/* an input only (not asked for): JSON/CSV, not the table */
	int core_type;		/* perf only: on one core type of a hybrid part, so
				 * time_running < time_enabled says where the task ran
				 * (the count is whole for that type, not multiplexed) */
	char *origin;		/* MSRC_PROFILE: where the function is ("obj: file, ..."), or NULL */
	int implicit;		/* measured whatever was asked (the process clocks):
				 * shown, but outside the Holm family unless named */
};

struct result_value {
	int valid;
	double value;		/* raw value in the metric's unit (ns, KiB, count) */
	uint64_t enabled, running;	/* perf only: time_enabled/time_running ns */
};

enum run_status {
	RUN_OK,
	RUN_FAILED,		/* exited non-zero */
	RUN_SIGNALED,
	RUN_TIMEOUT,
	RUN_INTERRUPTED,
	RUN_EXEC_FAILED,
};

struct result_run {
	int index;		/* 0-based, in execution order, warm-ups included */
	int variant;		/* index into variants */
	int block, position, group;
	int warmup;		/* 1 = not part of the statistics */
	int simulated;		/* run under cachegrind: only MSRC_SIM values are valid */
	int traced;		/* an untimed traced run: only its tracer's values are valid */
	int instrumented;	/* a perturbing mechanism's own run: only its values and
				 * its hidden wall-time:with-NAME are valid */
	double start_time;	/* seconds since the epoch (CLOCK_REALTIME) */
	size_t env_pad;		/* bytes of environment padding */
	enum run_status status;
	int exit_code;		/* RUN_OK/RUN_FAILED */
	int signal;		/* RUN_SIGNALED / killed by us */
	int exec_errno;		/* RUN_EXEC_FAILED */
	unsigned left_behind;	/* processes alive besides the command when it ended
				 * (or when it was killed) */
	int left_kept;		/* 1: they were let live (--keep-children), 0: killed */
	struct result_value *values;
};

struct result_variant {
	char *name;
	char **argv;		/* NULL-terminated */
	char *exec_path;	/* the path exec'd (equal-length links), or NULL */
};

enum note_level { NOTE_NOTE, NOTE_WARNING };

struct result_note {
	enum note_level level;
	char *metric;		/* the metric it is about, or NULL */
	char *text;
	char *hint;		/* or NULL */
};

struct result {
	char *command;		/* "stat", "compare", "demo" */
	char tool_version[48];	/* the pmustat that wrote it (this one's when built
				 * here; "" when a document does not say) */
	struct hostinfo host;
	double created;		/* epoch seconds */
	int complete;		/* 0 while the campaign is running */
	int interrupted;	/* stopped by SIGINT/SIGTERM */
	char *stop_reason;	/* why the campaign ended, one line */
	uint64_t seed;
	unsigned repeat, warmup;
	double timeout_s;
	int keep_children;	/* processes runs leave behind live on (else killed) */
	int kernel_excluded;	/* counters are user-space only */
	int pin_cpu;		/* CPU the runs were pinned to, -1 = none */
	size_t env_pad_max;	/* padding drawn from [0, env_pad_max] per block */
	/* stat -p/-t/-a/-I (campaign/target.c): the runs are the intervals of
	 * one attach session. kind NULL: a spawned command per run. */
	struct result_target {
		char *kind;	/* "pids", "tids", "system" or "command" (-I alone) */
		char *ids;	/* -p/-t ids, "1234,5678", or NULL */
		char *threads;	/* the threads opened on, or NULL */
		char *cpus;	/* system-wide: the CPUs, "0-1", or NULL */
		unsigned interval_ms;	/* -I, 0 = one run for the whole session */
		double duration_s;	/* --duration, 0 = none */
	} attach;

	/* Comparison settings (compare only; nvariants >= 2). */
	int baseline;		/* variant index the others are compared with */
	double noise_band;	/* delta of STATS.md (b), e.g. 0.01 */
	char *primary;		/* primary metric ("wall-time"); others get Holm */
	int decide;		/* 1 = the sequential rule: always-valid confidence
				 * sequences (the default of compare) */
	double cs_rho;		/* mixing parameter of the confidence sequence */
	unsigned min_blocks;	/* the stopping rule's first look (max: repeat) */
	double target;		/* its precision target (relative), 0 = none */

	struct result_variant *variants;
	size_t nvariants, variants_alloc;
	struct result_metric *metrics;
	size_t nmetrics, metrics_alloc;
	struct result_run *runs;
	size_t nruns, runs_alloc;
	struct result_note *notes;
	size_t nnotes, notes_alloc;
};

void result_init(struct result *r, const char *command);
void result_release(struct result *r);

size_t result_add_variant(struct result *r, const char *name, char *const *argv);
/* Returns the new metric (zeroed but for name/unit/source, available = 1). */
struct result_metric *result_add_metric(struct result *r, const char *name, const char *unit,
					enum metric_source source);
/* Add a metric after runs exist (a region seen for the first time): every
 * earlier run gets an invalid value for it. */
struct result_metric *result_add_metric_late(struct result *r, const char *name,
					     const char *unit, enum metric_source source);
/* -1 if no metric has that name. */
int result_metric_index(const struct result *r, const char *name);
/* Appends a run with nmetrics invalid values; returns it. */
struct result_run *result_add_run(struct result *r);
void result_add_note(struct result *r, enum note_level level, const char *metric,
		     const char *hint, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Append src's runs and notes to dst (for `pmustat report a.json b.json`):
 * both must have the same variants and metrics, in the same order. src's
 * blocks are renumbered after dst's, so pairs stay within their campaign.
 */
int result_merge(struct result *dst, const struct result *src, const char *src_name,
		 struct error *err);

/* Remove the notes about metric (they no longer apply). */
void result_drop_notes(struct result *r, const char *metric);

/* Words for statuses ("ok", "failed", "signal", "timeout", "interrupted", "exec-failed"). */
const char *run_status_name(enum run_status s);
int run_status_parse(const char *s, enum run_status *out);

/*
 * Hybrid parts: which core types a run's threads ran on, from the
 * time_running / time_enabled of its core-type metrics (an event of
 * cpu_atom runs only while a thread is on an E-core). Fills up to max
 * distinct PMU names (the metrics' own strings) with the largest fraction
 * seen for each, *n with how many; returns the set of those that ran (bit
 * k = pmus[k] had time_running > 0), 0 when none did or there are none.
 */
unsigned result_run_placement(const struct result *r, const struct result_run *run,
			      const char **pmus, double *frac, size_t max, size_t *n);

/* "cpu_core (62% of the time) and cpu_atom (38% of the time)": the types
 * that ran, from result_run_placement()'s answer. */
void result_placement_text(struct strbuf *out, const char *const *pmus, const double *frac,
			   size_t n);

/*
 * Was value v of metric m time-shared with other counters (kernel
 * multiplexing: time_running < time_enabled)? Not for a metric on one core
 * type of a hybrid part: there a short time_running is the time the task
 * spent on that type, and the count is whole for it.
 */
int result_value_multiplexed(const struct result *r, size_t m, const struct result_value *v);

/* Does run count toward statistics of metric m? (not warm-up, status usable, value valid,
 * fully scheduled) */
int result_value_usable(const struct result *r, const struct result_run *run, size_t m);

/* Collect the usable values of metric m for variant v (display units applied:
 * scale). Returns the count; *out is malloc'd. */
size_t result_collect(const struct result *r, size_t v, size_t m, double **out);

#endif
