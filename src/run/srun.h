/*
 * Slurm's srun as pmustat fleet uses it: found on PATH, run with its
 * stderr both passed through (the user sees Slurm's messages as they come)
 * and kept (to quote the telling line in pmustat's own error), waited for.
 * pmustat does no scheduling of its own: allocation, placement, limits and
 * cancellation are srun's.
 */
#ifndef PMU_RUN_SRUN_H
#define PMU_RUN_SRUN_H

#include "core/error.h"
#include "core/strbuf.h"

/* Slurm's messages kept to quote, at most this much. */
#define SRUN_MSG_MAX 65536

/* The path of srun on $PATH (malloc'd), or NULL. */
char *srun_find(void);

/*
 * Run argv (argv[0] a path), copying its stderr to echo_fd and into msg
 * (up to SRUN_MSG_MAX bytes). SIGINT is ignored meanwhile: ^C reaches srun
 * through the terminal's process group, and srun cancels its step and
 * returns. Returns srun's exit code (128 + signal when killed), or -1 with
 * err set when it could not be started.
 */
int srun_run(char *const *argv, int echo_fd, struct strbuf *msg, struct error *err);

/*
 * The most telling line of Slurm's messages: slurmstepd's "*** ... ***"
 * banner (time limit, node failure), else the last line saying "error",
 * else the first line (srun's complaint about an option comes first);
 * "" when msg has none.
 */
void srun_telling_line(const char *msg, char *out, size_t len);

#endif
