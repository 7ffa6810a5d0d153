/*
 * Region markers, the tool's side. A measured program linked with
 * libpmustat (include/pmustat.h) counts its own regions; this module hands
 * it the run's event plan and reads back what it counted, so that regions
 * become metrics ("synth:task-clock") like any other.
 *
 * The hand-off (lib/pmustat/protocol.h): regions_prepare encodes the planned
 * events (already parsed, so any syntax pmustat accepts works inside
 * regions) into PMUSTAT_REGION_ATTRS, and creates a memory file that the
 * child opens as PMUSTAT_REGION_PATH=/proc/<pmustat>/fd/N (the spawn server
 * forks children, so they do not inherit pmustat's descriptors; a directly
 * forked child would use PMUSTAT_REGION_FD=N:INODE). Each process of the
 * run that used markers appends one JSON line to it at exit;
 * regions_collect merges the lines by region name. pmustat must stay alive
 * until the run ends (it does: it waits for it). A program that does not use libpmustat writes
 * nothing: collect then reports zero regions, and that is not an error.
 *
 * Per run, in this order:
 *   regions_prepare (before spawn_start)  -> env for the child via regions_env
 *   ... the run ...
 *   regions_collect (after the child was reaped) -> rows
 *   regions_release
 *
 * Invariants: rows[i].values has nevents entries, in the order of the events
 * given to regions_prepare; a value with valid == 0 was not counted (the
 * event did not open inside the program). Counts are summed over threads
 * and processes.
 */
#ifndef PMU_BACKEND_REGIONS_H
#define PMU_BACKEND_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "catalog/event.h"
#include "core/error.h"

struct regions_handoff {
	int fd;			/* memfd the child writes to (inherited), -1 if none */
	char *vars[4];		/* "PMUSTAT_REGION_FD=N:INO", "PMUSTAT_REGION_PATH=/proc/..",
				 * "PMUSTAT_REGION_ATTRS=...", NULL */
	size_t nevents;
};

struct region_value {
	int valid;
	uint64_t value;		/* raw count, summed */
	uint64_t enabled, running;	/* time_enabled / time_running, ns, summed */
};

struct region_row {
	char *name;
	uint64_t count;		/* completed enter/exit pairs */
	uint64_t threads;	/* threads (over all processes) that used it */
	uint64_t unbalanced;	/* exits without an enter */
	uint64_t open;		/* entries still open at exit */
	struct region_value *values;	/* nevents */
};

struct regions_result {
	struct region_row *rows;	/* in order of first appearance */
	size_t nrows, rows_alloc;
	size_t nevents;
	unsigned nreports;	/* processes that reported (0: no libpmustat inside) */
	uint64_t dropped;	/* entries of regions past the library's limit */
	uint64_t read_errors;	/* counter reads that failed inside the program */
	char *problem;		/* first problem seen (malformed line, library error,
				 * event that did not open), one line, or NULL */
	char *problem_hint;	/* what to do about it, or NULL */
};

/*
 * Prepare the hand-off for one run of evs[0..n) (group[i] = leader index as
 * from plan_groups, or NULL). n may be 0: regions are then only counted.
 * Returns 0, or -1 with err (more events than the library counts, no memfd).
 */
int regions_prepare(struct regions_handoff *h, const struct event_spec *evs, const size_t *group,
		    size_t n, struct error *err);

/*
 * The child's environment: base (NULL: this process's environ) without any
 * stale PMUSTAT_REGION_* entry, plus h->vars. The array is malloc'd, its
 * strings are borrowed from base and h: free it with regions_env_free before
 * regions_release.
 */
char **regions_env(const struct regions_handoff *h, char *const *base);
void regions_env_free(char **env);

/* Read what the run's processes reported. Returns 0 (res filled, possibly
 * with zero rows and a problem noted), or -1 with err if the memory file
 * cannot be read. */
int regions_collect(const struct regions_handoff *h, struct regions_result *res,
		    struct error *err);

/* Close the memory file and free the variables. */
void regions_release(struct regions_handoff *h);

/* Parse report lines (pure; what regions_collect uses). Always returns 0:
 * malformed lines are skipped and noted in res->problem. */
int regions_parse(const char *text, size_t len, size_t nevents, struct regions_result *res);

void regions_result_release(struct regions_result *res);

/* The metric name of event ev in region: "synth:task-clock" (malloc'd). */
char *regions_metric_name(const char *region, const char *event);

/* One item of PMUSTAT_REGION_ATTRS for ev with leader index leader, into
 * buf: "TYPE:CONFIG:CONFIG1:CONFIG2:FLAGS:LEADER" (hex). */
void regions_encode_attr(const struct perf_event_attr *a, size_t leader, char *buf, size_t len);

#endif
