/*
 * What the two files of pmustat fleet share: cli/fleet.c submits the
 * campaign through srun and runs it as a task; cli/fleet_collect.c judges
 * and merges what the tasks left behind.
 */
#ifndef PMU_CLI_FLEET_INT_H
#define PMU_CLI_FLEET_INT_H

#include "core/words.h"
#include "analysis/fleet.h"

struct fleet_collected {
	struct words names;	/* "host-task" of every task that left a log */
	struct words ok;	/* result paths of the tasks that finished */
	int ntasks;		/* the most tasks any log said there were */
	int failed;		/* tasks that left a log but did not finish */
};

/* How a task's own message starts when it cannot even write its log (its
 * stderr is then srun's, which the submitting side reads). */
#define FLEET_TASK_MARK "pmustat fleet task"

/* The node part of a task's "host-task" name (a static buffer). */
const char *fleet_task_host(const char *name);

/* Read every task's files in dir; each task that failed or did not finish
 * is reported (error naming its node, quoting its log or Slurm's message). */
void fleet_collect(const char *dir, struct fleet_collected *c, const char *slurm_msg);

/* The error for what left nothing (no task ran, or dir is not shared), and
 * the exit code: 0 only when every task finished. */
int fleet_collect_verdict(const char *dir, const struct fleet_collected *c, int srun_rc,
			  const char *slurm_msg);

/* Merge the finished tasks' results, print the cross-machine table, write
 * DIR/fleet.json; returns the exit code. */
int fleet_collect_merge(const char *dir, const struct fleet_collected *c, enum fleet_by by);

void fleet_collected_release(struct fleet_collected *c);

#endif
