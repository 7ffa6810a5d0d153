/*
 * pmustat fleet's orchestration (fleet_run.c), the campaign layer's part of
 * `pmustat fleet`: what is checked before srun (the campaign's command
 * line, the results directory), each task's name and pretended CPU, srun's
 * command line, and, once srun returned, what each task left in the results
 * directory judged task by task and the finished ones merged (analysis/
 * fleet.h). cli/fleet.c parses, runs a task by re-entering compare or stat,
 * prints, and writes DIR/fleet.json. See docs/fleet.md.
 */
#ifndef PMU_CAMPAIGN_FLEET_RUN_H
#define PMU_CAMPAIGN_FLEET_RUN_H

#include <stddef.h>

#include "analysis/fleet.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/words.h"

/* How a task's own message starts when it cannot even write its log (its
 * stderr is then srun's, which the submitting side reads). */
#define FLEET_TASK_MARK "pmustat fleet task"

/* Does the campaign's command line (compare|stat OPTIONS -- ...) give
 * --long_name (or -short_name) before its first "--"? */
int fleet_campaign_has(int argc, const char **argv, const char *long_name, char short_name);

/* The campaign fleet may run: compare or stat, without -o. */
int fleet_check_campaign(int argc, const char **argv, struct error *err);

/* DIR must be a writable directory without an earlier fleet's files before
 * anything runs; created if missing. */
int fleet_check_dir(const char *dir, struct error *err);

/* This task's "host-task" name (its files' names) and number. */
void fleet_task_name(char *out, size_t len, int *task);

/* The node part of a "host-task" name (a static buffer). */
const char *fleet_task_host(const char *name);

/* PMUSTAT_CPU_TASKS="ID0,ID1,...": task N pretends to be the Nth CPU
 * (PMUSTAT_CPU), so one machine can stand in for a fleet (tests, demos). */
void fleet_pretend_cpu(int task);

/* srun's command line: srun, its options, this pmustat in task mode on dir,
 * the campaign (with --seed seed unless NULL). NULL-terminated, malloc'd. */
char **fleet_srun_argv(const char *srun, const struct words *opts, const char *self,
		       const char *dir, int argc, const char **argv, const char *seed);

/* "fleet-YYYYmmdd-HHMMSS". */
void fleet_default_dir(char *out, size_t len);

/* What the tasks left in the results directory. */
struct fleet_collected {
	struct words names;	/* "host-task" of every task that left a log */
	struct words ok;	/* result paths of the tasks that finished */
	int ntasks;		/* the most tasks any log said there were */
	int failed;		/* tasks that left a log but did not finish */
	struct error *errors;	/* one per failed task, naming its node, in name order */
};

/* Read every task's files in dir; each task that failed or did not finish
 * gets an error in c->errors (its node, its log's or Slurm's words). */
void fleet_collect(const char *dir, struct fleet_collected *c, const char *slurm_msg);

/* For what left nothing (no task ran, or dir is not shared): -1 with err.
 * Else 1 when a task failed (its error is in c->errors), 0 when all
 * finished. */
int fleet_collect_verdict(const char *dir, const struct fleet_collected *c, int srun_rc,
			  const char *slurm_msg, struct error *err);

/* Merge the finished tasks' results into f (analysis/fleet.h): 0, or -1
 * with err when a result cannot be read or merged. f then needs
 * fleet_release(). */
int fleet_collect_merge(const struct fleet_collected *c, enum fleet_by by, struct fleet *f,
			struct error *err);

void fleet_collected_release(struct fleet_collected *c);

#endif
