/*
 * One unmeasured run of a command, its stdout kept (capture.c).
 */
#ifndef PMU_RUN_CAPTURE_H
#define PMU_RUN_CAPTURE_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

/* Run argv (argv[0] a path; no shell, stdin /dev/null, stderr inherited),
 * append at most max bytes of its stdout to out, and give the wait status.
 * -1 with err when it cannot be started. */
int run_capture(char *const *argv, size_t max, struct strbuf *out, int *status,
		struct error *err);

/* The same with the environment envp (the region markers' cost: the
 * hand-off of a run). */
int run_capture_env(char *const *argv, char *const *envp, size_t max, struct strbuf *out,
		    int *status, struct error *err);

#endif
