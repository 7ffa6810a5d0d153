/*
 * Spawning one measured run. The child is forked into its own process group
 * and blocks on a go-pipe, so the counters can be opened on it before it
 * execs; a second pipe (close-on-exec) carries errno back when exec fails, so
 * "cannot run 'prog'" is told apart from "prog failed". The child's stdout
 * goes to /dev/null and its stderr to a memory file (kept for error reports)
 * unless output is shown; its stdin is /dev/null.
 */
#ifndef PMU_RUN_SPAWN_H
#define PMU_RUN_SPAWN_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "core/error.h"
#include "run/sigwatch.h"

struct spawn_opts {
	char *const *argv;	/* argv[0] is looked up in PATH */
	char *const *envp;	/* NULL: inherit the environment */
	int show_output;	/* let the child's stdout/stderr through */
	int pin_cpu;		/* sched_setaffinity to this CPU before exec; -1 = no */
};

struct spawn {
	pid_t pid;
	int go_fd;		/* write end of the go-pipe, -1 once used */
	int exec_fd;		/* read end of the exec-error pipe */
	int stderr_fd;		/* memfd holding the child's stderr, or -1 */
	uint64_t t_start;	/* CLOCK_MONOTONIC ns at release */
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
	uint64_t wall_ns;
	struct rusage ru;
};

/* Fork the child (blocked before exec). The child gets back the signal mask
 * and dispositions that sw replaced. */
int spawn_start(struct spawn *sp, const struct spawn_opts *o, const struct sigwatch *sw,
		struct error *err);

/*
 * Release the child and wait for it: until it exits, timeout_s passes
 * (0 = none), or sw records a stop request. On timeout or stop the child's
 * process group is killed. Fills res; returns 0, or -1 only if waiting itself
 * failed.
 */
int spawn_run(struct spawn *sp, struct sigwatch *sw, double timeout_s,
	      struct spawn_result *res, struct error *err);

/* Kill and reap a child that was started but will not be run. */
void spawn_abort(struct spawn *sp);

/* The last max bytes the child wrote to stderr (caller frees), or NULL. */
char *spawn_stderr_tail(const struct spawn *sp, size_t max);

void spawn_release(struct spawn *sp);

/* CLOCK_MONOTONIC in ns. */
uint64_t clock_now_ns(void);

#endif
