/*
 * Counting what is already running: threads of existing processes (pmustat
 * stat -p/-t) or every task on some CPUs (-a/-C), as perf stat does, instead
 * of a child pmustat spawns. One session lasts the whole measurement; its
 * counters stay open and each read gives what was counted since the last one,
 * so intervals (-I) cover the time without gaps.
 *
 * An instance is one (pid, cpu) pair every event is opened on: a thread
 * (pid = tid, cpu -1, inherit: threads and children it creates later count
 * too) or a CPU (pid -1, cpu N). A process that exits shows as its pidfd
 * becoming readable; a thread (pidfd_open takes thread-group leaders only
 * before Linux 6.9) by its /proc entry going away or turning zombie,
 * checked every 200 ms. (A counting event's own fd cannot tell: without a
 * ring buffer, poll() on it reports POLLHUP at once, kernel perf_poll().) A
 * command, if given, bounds the session: it is spawned through the spawn
 * server (so it is killed with the run), not counted unless it runs on the
 * counted CPUs.
 */
#ifndef PMU_RUN_ATTACH_H
#define PMU_RUN_ATTACH_H

#include <stdint.h>

#include "backend/perf_event.h"
#include "run/spawn.h"

struct attach_opts {
	const pid_t *pids;	/* instances on tasks: the thread ids, or NULL */
	const int *cpus;	/* instances on CPUs (pids NULL) */
	size_t ninst;
	/* nevents x ninst: 0 = do not open event i on instance j (an uncore
	 * event outside its PMU's cpumask), or NULL: every event everywhere. */
	const unsigned char *where;
	struct spawn_opts cmd;	/* cmd.argv NULL: no command */
	int count_cmd;		/* the one instance is the command itself (stat -I
				 * without -p/-t/-a); its counters start just before
				 * it is released to exec */
};

struct attach {
	size_t ninst, nevents;
	pid_t *pid;		/* per instance, -1 on CPUs */
	int *cpu;		/* per instance, -1 on tasks */
	int *fd;		/* nevents x ninst, -1 = not open */
	struct perf_reading *last;	/* the readings of the previous read */
	int *hup;		/* per instance: its task exited */
	int *pidfd;		/* per instance, or -1 (checked through /proc) */
	int have_cmd, cmd_over;
	struct spawn sp;
	struct spawn_result cmd_res;	/* once cmd_over */
	uint64_t t_last;	/* CLOCK_MONOTONIC ns of the previous read */
};

/* What ended a wait. */
enum attach_wake {
	ATTACH_TIME,		/* until came */
	ATTACH_TASK_EXITED,	/* an instance's task exited (see hup) */
	ATTACH_CMD_EXITED,	/* the command is over (cmd_res) */
	ATTACH_STOP,		/* SIGINT or SIGTERM (sw->stop_signal) */
};

/*
 * Open evs (group[i]: leader index, i for a leader, (size_t)-1 = not
 * counted) on every instance, start the command, enable every counter.
 * Per-event failures are kept: open_errno[i] gets the first errno of
 * event i (0 if it opened everywhere it should). -1 with err when the
 * command cannot be started.
 */
int attach_open(struct attach *a, const struct attach_opts *o, const struct event_spec *evs,
		const size_t *group, size_t n, int *open_errno, struct spawner *server,
		struct sigwatch *sw, struct error *err);

/* Wait until `until` (CLOCK_MONOTONIC ns, 0 = no limit) or something ends. */
enum attach_wake attach_wait(struct attach *a, struct sigwatch *sw, uint64_t until);

/*
 * What was counted since the previous read (or the start): per event the
 * sum over instances of value, time enabled and time running; ok[i] = 0 when
 * event i is open nowhere. per and per_ok (nevents x ninst, or NULL) get
 * each instance's own part (--per-thread). *wall_ns is the time since the
 * previous read.
 */
void attach_read(struct attach *a, struct perf_reading *r, int *ok, struct perf_reading *per,
		 int *per_ok, uint64_t *wall_ns);

/* End the command if it still runs (killed, outcome in cmd_res) and close
 * the counters. */
void attach_close(struct attach *a, struct error *err);

#endif
