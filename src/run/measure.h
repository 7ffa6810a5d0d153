/*
 * One measured run: spawn the child, open its counters while it waits for the
 * go byte, release it, wait (with timeout and stop requests), read the
 * counters. The caller turns the outcome into a result record.
 */
#ifndef PMU_RUN_MEASURE_H
#define PMU_RUN_MEASURE_H

#include "backend/perf_event.h"
#include "run/spawn.h"

struct measure_spec {
	char *const *argv;
	char *const *envp;		/* NULL: inherit */
	int show_output;
	int pin_cpu;			/* -1: no pinning */
	double timeout_s;		/* 0: none */
	int keep_children;		/* let what the run leaves behind live on */
	const char *input;		/* stdin file (opened per run), NULL = /dev/null */
	const char *cwd;		/* directory to run in, NULL = pmustat's */
	const struct event_spec *events;	/* perf events to count */
	const size_t *group;		/* leader index per event, or NULL */
	size_t nevents;
	/*
	 * Called with the child's pid once its counters are open, before it is
	 * released to exec (a sampling mechanism opens its events here), or
	 * NULL. -1 with err abandons the run before it starts.
	 */
	int (*attach)(void *ctx, pid_t pid, struct error *err);
	void *attach_ctx;
};

struct measure_outcome {
	struct spawn_result sp;
	struct perf_reading *readings;	/* nevents */
	int *read_ok;			/* nevents: 1 = reading valid */
	int *open_errno;		/* nevents: errno if the counter did not open */
	char *stderr_tail;		/* last bytes of the child's stderr, or NULL */
};

/* Returns 0 when the run happened (whatever its outcome), -1 if it could not
 * be carried out at all (fork failed, ...). */
int measure_run(const struct measure_spec *spec, struct spawner *server, struct sigwatch *sw,
		struct measure_outcome *out, struct error *err);
void measure_outcome_release(struct measure_outcome *out);

#endif
