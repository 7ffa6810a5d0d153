/*
 * Internals of libpmustat shared between its files: event lists, per-thread
 * counter sets (read() and rdpmc reads), and the JSON report writer. All
 * names start with pmustat__ because in the static library they are global
 * symbols inside a user's program; the shared library exports none of them
 * (pmustat.map). Nothing here depends on the pmustat tool's layers.
 */
#ifndef PMUSTAT_LIB_H
#define PMUSTAT_LIB_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

/* One event to count: what to open and what to call it in the report. */
struct pm_event {
	char name[64];
	struct perf_event_attr attr;
	int leader;		/* index of the group leader (itself if a leader) */
};

struct pm_event_list {
	struct pm_event ev[PMUSTAT_MAX_EVENTS];
	int n;
};

/*
 * Parse PMUSTAT_EVENTS (names, rNNNN, or numeric items; all events form one
 * group) or PMUSTAT_REGION_ATTRS (numeric items with explicit leaders).
 * Returns 0, or -1 with a one-line message in err.
 */
int pmustat__parse_events(const char *s, struct pm_event_list *out, char *err, size_t errlen);
int pmustat__parse_attrs(const char *s, struct pm_event_list *out, char *err, size_t errlen);

/* A reading of one event: raw count and the kernel's time_enabled/running. */
struct pm_reading {
	uint64_t value, enabled, running;
};

/* The rdpmc and rdtsc instructions, replaceable by tests. */
struct pm_pmc_ops {
	uint64_t (*rdpmc)(uint32_t counter);
	uint64_t (*rdtsc)(void);
};

/* The instructions themselves; NULL members where the ISA has none wired. */
extern const struct pm_pmc_ops pmustat__pmc_native;

/*
 * Read one event through its perf mmap page (the seqlock protocol of
 * linux/perf_event.h). Returns 0 and fills r, or -1 when the page does not
 * allow it now (no cap_user_rdpmc or cap_user_time, or the event is not on a
 * hardware counter at this instant: index 0): then read() must be used.
 */
int pmustat__mmap_read(volatile struct perf_event_mmap_page *pc, const struct pm_pmc_ops *ops,
		       struct pm_reading *r);

struct pm_group {
	int fd;			/* leader fd, opened with PERF_FORMAT_GROUP */
	int nmemb;
	int memb[PMUSTAT_MAX_EVENTS];	/* event indices, in the kernel's read order */
	int rdpmc;		/* every member has a page with cap_user_rdpmc */
};

/* The counters of one thread. */
struct pm_counters {
	int n;					/* events */
	int fd[PMUSTAT_MAX_EVENTS];		/* -1 if not open */
	int err[PMUSTAT_MAX_EVENTS];		/* errno of the failed open, else 0 */
	int user_only[PMUSTAT_MAX_EVENTS];	/* opened with the kernel excluded after EACCES */
	/* read at least once without a system call: a page that says
	 * cap_user_rdpmc is not enough (arm64 sets it also while
	 * kernel.perf_user_access=0 keeps the index at 0) */
	int user_read[PMUSTAT_MAX_EVENTS];
	volatile struct perf_event_mmap_page *page[PMUSTAT_MAX_EVENTS];	/* or NULL */
	struct pm_group grp[PMUSTAT_MAX_EVENTS];
	int ngrp;
	const struct pm_pmc_ops *ops;		/* NULL: never rdpmc */
	uint64_t read_errors;
};

/* Open evs on the calling thread (pid 0, any CPU), counting from now on. */
void pmustat__counters_open(struct pm_counters *cs, const struct pm_event_list *evs);
/* Read every open event into r[0..n) (events not open are left alone).
 * Returns the number of groups whose read failed. */
int pmustat__counters_read(struct pm_counters *cs, struct pm_reading *r);
void pmustat__counters_close(struct pm_counters *cs);

/* A growable output buffer for the report (allocation failure sets oom). */
struct pm_buf {
	char *p;
	size_t len, cap;
	int oom;
};

void pmustat__buf_add(struct pm_buf *b, const char *s, size_t n);
void pmustat__buf_adds(struct pm_buf *b, const char *s);
void pmustat__buf_u64(struct pm_buf *b, uint64_t v);
/* A JSON string literal: quotes, escapes, invalid UTF-8 as U+FFFD. */
void pmustat__buf_json_str(struct pm_buf *b, const char *s);

#endif
