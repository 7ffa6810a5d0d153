/*
 * The perf_event_open backend: opens the counters of one run on a child that
 * has not exec'd yet (disabled, enable_on_exec, inherit), reads them with
 * TOTAL_TIME_ENABLED/TOTAL_TIME_RUNNING so that multiplexing is always
 * visible, and explains open failures in words a user can act on.
 *
 * Invariants: an event that fails to open never stops the others; a counter
 * set owns its fds and closes them on release.
 */
#ifndef PMU_BACKEND_PERF_EVENT_H
#define PMU_BACKEND_PERF_EVENT_H

#include <stdint.h>
#include <sys/types.h>

#include "catalog/event.h"
#include "core/error.h"

struct perf_reading {
	uint64_t value;		/* raw count (not scaled) */
	uint64_t enabled;	/* time_enabled, ns */
	uint64_t running;	/* time_running, ns */
};

struct perf_counter {
	const struct event_spec *ev;
	int fd;			/* -1 when not open */
	int open_errno;		/* why it did not open (0 if open) */
};

struct perf_set {
	struct perf_counter *c;
	size_t n;
};

/*
 * Open evs[i] for process pid (group[i] = index of its group leader in evs,
 * i for a leader, or (size_t)-1 to leave it closed in this run; group may be
 * NULL: every event alone). Counters start
 * disabled and are enabled by the kernel when pid execs, or, inherited, when
 * a child pid forks after this call execs. Returns the number
 * of counters opened; failures are kept per counter in open_errno.
 */
/* 1 when every event of evs is inherited by the children of the process it
 * is opened on (all but uprobes): they can then be opened on the spawn
 * server before it forks the run, instead of on the run's child. */
int perf_events_inherited(const struct event_spec *evs, size_t n);

size_t perf_set_open(struct perf_set *s, const struct event_spec *evs, const size_t *group,
		     size_t n, pid_t pid);

/* Read counter i; -1 (with err) if it is not open or the read fails. */
int perf_set_read(const struct perf_set *s, size_t i, struct perf_reading *r,
		  struct error *err);

void perf_set_release(struct perf_set *s);

/*
 * The kernel switches some of its perf code on and off with static keys:
 * one per software event kind (page-faults, context-switches, ...) and one
 * for any per-task event. Switching rewrites kernel text and stops every
 * CPU to do so; with a run's counters the only ones of their kind, that
 * happens twice per kind and per run. A campaign holds one disabled event of
 * each software kind it counts (and a dummy) on pmustat itself, opened
 * once, so the keys stay on: what the runs' counters count does not change.
 * Opening is best effort (a refused one only costs time).
 */
#define PERF_HELD_MAX 16
struct perf_held {
	uint32_t kinds;		/* software configs tried, a bit each */
	size_t n;
	int fd[PERF_HELD_MAX];
};
void perf_hold(struct perf_held *h, const struct event_spec *evs, size_t n);
void perf_held_release(struct perf_held *h);

/*
 * Attaching (run/attach.h): open one counting event on a running task
 * (pid >= 0, cpu -1) or on one CPU for every task (pid -1, cpu >= 0), not
 * waiting for an exec. Leaders (group_fd -1) start disabled and are enabled
 * with perf_enable_group() once every counter is open, so all of them start
 * together. inherit: threads and children created later count too (not
 * with pid -1, where the kernel refuses it). Returns the fd, or -1 with
 * errno set.
 */
int perf_open_attached(const struct event_spec *ev, pid_t pid, int cpu, int group_fd,
		       int inherit);
int perf_enable_group(int leader_fd);
/* Read one fd's value and times; -1 with errno on a failed or short read. */
int perf_read_fd(int fd, struct perf_reading *r);

/*
 * Can this event be opened here at all? Opens it on the calling process,
 * disabled, and closes it again. Returns 0 or -1 with err explaining why not
 * (no hardware PMU, permissions, unknown to the kernel, ...).
 */
struct hostinfo;
int perf_probe(const struct event_spec *ev, const struct hostinfo *host, struct error *err);
/* The same on one CPU for every task (pid -1), as system-wide counting opens
 * it; cpu < 0 is perf_probe(). */
int perf_probe_cpu(const struct event_spec *ev, const struct hostinfo *host, int cpu,
		   struct error *err);

/*
 * Does counting kernel-mode activity require privileges this process lacks?
 * Probes task-clock with the kernel included. 1 = kernel must be excluded.
 */
int perf_kernel_excluded(void);

/* Describe an open failure of ev with errnum as message + hint; host facts
 * (PMU present, VM) tell "no PMU here" apart from "event unsupported". */
void perf_open_strerror(const struct event_spec *ev, int errnum, const struct hostinfo *host,
			struct error *err);

#endif
