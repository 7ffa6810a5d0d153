/*
 * Spawning one measured run. Children are not forked by pmustat itself but
 * by a small spawn server, forked once when a campaign starts, while
 * pmustat's heap is still tiny. Why: a forked child's peak RSS (what wait4
 * reports as ru_maxrss) starts from the anonymous memory it inherits, so
 * children of a pmustat that has accumulated results would report pmustat's
 * size, not the program's, for small programs.
 *
 * The child is started with vfork semantics (it shares the server's memory,
 * the server waiting, until it execs: no page table copied), puts itself in
 * its own process group and the run's cgroup, reports its pid and blocks on
 * the socket for the go byte, so the counters can be opened on it before it
 * execs; it leaves exec's errno in the memory it shares with the server, so
 * "cannot run 'prog'" is told apart from "prog failed". Its stdout goes to /dev/null and its stderr to a memory file
 * (kept for error reports) unless output is shown; its stdin is /dev/null,
 * or a file opened afresh for every run (--input).
 * It gets no descriptor of pmustat's or the server's (descriptors pmustat
 * itself inherited pass through, as with any shell command).
 *
 * The server finds what a run leaves behind (run/tree.h), kills it unless
 * asked to keep it, and reports how many; a timeout or a stop request kills
 * every process of the run, not only its process group. Nothing the server
 * forks outlives pmustat, even after a kill -9, but what keep_children kept.
 */
#ifndef PMU_RUN_SPAWN_H
#define PMU_RUN_SPAWN_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "backend/perf_event.h"
#include "core/error.h"
#include "run/sigwatch.h"

/* The spawn server: one per campaign. */
struct spawner {
	pid_t pid;
	int sock;		/* stream socket to the server, -1 when stopped */
	int forked;		/* 1 = no pmustat-spawner found: a fork of pmustat
				 * serves, and children inherit its memory */
	int broken;		/* it stopped answering and was killed */
	struct perf_held held;	/* the campaign's kernel switches (perf_event.h) */
};

/*
 * Start the server: exec the small pmustat-spawner program found next to
 * the pmustat binary (or in ../libexec/pmustat/, or $PMUSTAT_SPAWNER); if
 * there is none, fork pmustat itself and set forked (the caller says so in
 * a note: max-rss is then inflated for small programs). Call before
 * sigwatch_init: the server keeps the signal state it started with and gives
 * it to the children. The server dies with pmustat (PR_SET_PDEATHSIG),
 * after the run it serves; it has a process group of its own, so that a
 * signal to pmustat's group does not kill it before that.
 */
int spawner_start(struct spawner *s, struct error *err);
void spawner_stop(struct spawner *s);

struct spawn_opts {
	char *const *argv;	/* argv[0] is looked up in PATH */
	char *const *envp;	/* NULL: the environment pmustat had when the server started */
	int show_output;	/* let the child's stdout/stderr through */
	int pin_cpu;		/* sched_setaffinity to this CPU before exec; -1 = no */
	int keep_children;	/* let processes the run leaves behind live on */
	const char *input;	/* the child's stdin: this file, or NULL = /dev/null */
	int quick;		/* exec at once, no go byte: the run's counters are
				 * inherited from the server (measure.c) */
	const char *cwd;	/* run in this directory, or NULL = pmustat's */
	int output_fd;		/* > 0: stdout and stderr both go to this file (a
				 * build's log) instead of /dev/null and a memory
				 * file; the run and all it starts share its open
				 * file description (and a flock(2) taken on it:
				 * campaign/revisions.h). 0: none (stdin is never one) */
};

#define SPAWN_PID_LATER ((pid_t)-1)

struct spawn {
	struct spawner *server;
	struct sigwatch *sw;	/* stop requests while waiting for the server */
	pid_t pid;		/* the child, 0 once reaped; SPAWN_PID_LATER: a
				 * quick run's, told with its report */
	int stderr_fd;		/* memfd holding the child's stderr, or -1 */
	int released;		/* go sent */
	int kill_sent;		/* 'k' sent: the server kills the run */
	int stops;		/* stop requests seen while waiting */
	uint64_t grace;		/* give up on the server after this (ns), or 0 */
};

enum spawn_outcome {
	SPAWN_EXITED,		/* status holds the exit code */
	SPAWN_SIGNALED,		/* status holds the signal */
	SPAWN_TIMEOUT,		/* killed by us after the timeout */
	SPAWN_INTERRUPTED,	/* killed by us after SIGINT/SIGTERM */
	SPAWN_EXEC_FAILED,	/* status holds errno of execvp */
};

struct spawn_result {
	enum spawn_outcome outcome;
	int status;
	uint64_t wall_ns;	/* from release to reaping, timed by the server */
	struct rusage ru;
	unsigned left;		/* processes alive besides the child when it ended
				 * (or when the run was killed) */
	int left_kept;		/* 1: they live on (keep_children), 0: killed */
	char left_names[256];	/* "name[pid], ... and N more", printable */
};

/*
 * Have the server fork the child (blocked before exec; for o->quick, already
 * exec'd, and spawn_run only waits); sp->pid is its pid.
 * Waiting for the server also watches sw (which may be NULL): after a stop
 * request the server has a few seconds to answer, and a second request
 * gives up at once; giving up kills the server (an error).
 */
int spawn_start(struct spawn *sp, struct spawner *server, struct sigwatch *sw,
		const struct spawn_opts *o, struct error *err);

/*
 * Release the child and wait for it: until it exits, timeout_s passes
 * (0 = none), or sw records a stop request. On timeout or stop the server
 * kills every process of the run. Fills res (with what the run left behind);
 * returns 0, or -1 only if waiting itself failed (the server died or was
 * given up).
 */
int spawn_run(struct spawn *sp, struct sigwatch *sw, double timeout_s,
	      struct spawn_result *res, struct error *err);

/*
 * spawn_run in steps, for a command that only bounds a measurement
 * (run/attach.h): release the child; poll spawn_fd() (readable once the
 * run is over); then spawn_collect() reads the outcome, first asking the
 * server to kill the run when kill is set (its outcome is then
 * SPAWN_INTERRUPTED). Returns 0, or -1 when the server is gone.
 */
int spawn_go(struct spawn *sp, struct error *err);
int spawn_fd(const struct spawn *sp);
int spawn_collect(struct spawn *sp, int kill, struct spawn_result *res, struct error *err);

/* The last max bytes the child wrote to stderr (caller frees), or NULL. */
char *spawn_stderr_tail(const struct spawn *sp, size_t max);

/* Kill a child that was started but not run, and release everything. */
void spawn_release(struct spawn *sp);

/* CLOCK_MONOTONIC in ns. */
uint64_t clock_now_ns(void);

#endif
