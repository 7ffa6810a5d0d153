/*
 * pmustat fleet: one campaign on many machines through Slurm. The campaign
 * (a compare or stat command line) is given one seed for all and run once
 * per Slurm task by `srun` — allocation, partition, constraints, node list
 * and time limit are the user's srun options, passed through. Each task is
 * this pmustat again in task mode (the hidden --task-of DIR): it writes its
 * table and messages to DIR/<host>-<task>.log and its result to
 * DIR/<host>-<task>.json. When srun returns, the results are collected,
 * merged by uarch (analysis/fleet.h) and printed; what did not come back is
 * an error naming the node and quoting Slurm's message, and the finished
 * nodes' results are merged and kept all the same. The checks, the tasks'
 * names, srun's command line and the judging and merging of what the tasks
 * left are the campaign layer's (campaign/fleet_run.c); this file parses,
 * runs a task by re-entering compare or stat with its output in the task's
 * log, and prints. See docs/fleet.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "campaign/fleet_run.h"
#include "core/outfile.h"
#include "core/strbuf.h"
#include "report/fleet_render.h"
#include "result/json.h"
#include "run/srun.h"

static const char fleet_usage[] =
	"pmustat fleet [--slurm \"SRUN-OPTIONS\"] [--results DIR] [--by uarch|host] "
	"-- compare|stat [options] -- command...";

/* ---- task mode: one Slurm task ---- */

static int run_task(const char *dir, int argc, const char **argv)
{
	char name[160], path[4096];
	const char **args = xcalloc((size_t)argc + 3, sizeof(char *));
	int task, fd, rc;
	struct error err;
	const char *ntasks = getenv("SLURM_NTASKS"), *job = getenv("SLURM_JOB_ID");

	error_clear(&err);
	fleet_task_name(name, sizeof(name), &task);
	fleet_pretend_cpu(task);
	snprintf(path, sizeof(path), "%s/%s.log", dir, name);
	/* The results directory may be writable by others (a shared file
	 * system): the log is an output like any other, never a planted
	 * link's target nor a FIFO (core/outfile.h). */
	fd = outfile_open_append(path, 1, &err);
	if (fd < 0) {
		/* srun passes this on; the submitting side quotes it */
		fprintf(stderr, "error: " FLEET_TASK_MARK " %d on node %s: %s\n", task,
			fleet_task_host(name), err.msg);
		fprintf(stderr, "hint: remove '%s', or give the fleet a new results directory\n",
			path);
		free(args);
		return PMU_EXIT_RUNTIME;
	}
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	printf("pmustat fleet: task %d of %s on node %s (Slurm job %s)\n", task,
	       ntasks ? ntasks : "1", fleet_task_host(name), job ? job : "-");
	fflush(stdout);
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	/* "compare -o DIR/host-task.json OPTIONS... -- COMMANDS": what main()
	 * would hand cmd_compare (its argv starts after the command name). */
	args[0] = "-o";
	args[1] = path;
	for (int i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	rc = !strcmp(argv[0], "compare") ? cmd_compare(argc + 1, args) : cmd_stat(argc + 1, args);
	/* The last line says the task finished, and how: a task killed by
	 * Slurm (time limit, node failure) never writes it. */
	printf("pmustat fleet: task %d exit %d\n", task, rc);
	fflush(stdout);
	free(args);
	return rc;
}

/* ---- the submitting side ---- */

/* Merge what came back, write DIR/fleet.json and print the cross-machine
 * report (also when the file cannot be written). */
static int merge(const char *dir, const struct fleet_collected *c, enum fleet_by by)
{
	struct strbuf table = STRBUF_INIT, path = STRBUF_INIT;
	struct fleet f;
	struct error err;
	json_t *doc;
	int rc;

	error_clear(&err);
	if (fleet_collect_merge(c, by, &f, &err))
		return cli_error(&err);
	fleet_table(&f, &table);
	doc = fleet_json(&f);
	strbuf_addf(&path, "%s/fleet.json", dir);
	rc = report_json_write_doc(doc, path.buf, &err) ? cli_error(&err) : 0;
	if (!rc)
		strbuf_addf(&table, "\nper-node results and logs in %s/, this report in %s\n",
			    dir, path.buf);
	json_decref(doc);
	fleet_release(&f);
	strbuf_release(&path);
	return cli_print(&table) ? PMU_EXIT_RUNTIME : rc;
}

static int submit(const char *slurm, const char *dir, enum fleet_by by, int argc,
		  const char **argv)
{
	struct words opts = { 0 };
	struct fleet_collected c = { 0 };
	struct strbuf msg = STRBUF_INIT;
	struct error err;
	char seed[24], self[4096], absdir[4096], **av, *srun;
	ssize_t n;
	int rc;

	error_clear(&err);
	if (fleet_check_campaign(argc, argv, &err) ||
	    (slurm && words_append(&opts, slurm, "--slurm", &err)) || fleet_check_dir(dir, &err)) {
		words_release(&opts);
		return cli_error(&err);
	}
	if (!(srun = srun_find())) {
		words_release(&opts);
		fprintf(stderr, "error: 'srun' not found on PATH: pmustat fleet runs through Slurm\n"
				"hint: install Slurm ('apt-get install slurm-client'), or run the "
				"campaign with the same --seed on each machine and merge with "
				"'pmustat report --by uarch RESULT...'\n");
		return PMU_EXIT_RUNTIME;
	}
	/* Tasks may start in another directory: give them DIR absolute. */
	if (!realpath(dir, absdir))
		snprintf(absdir, sizeof(absdir), "%s", dir);
	dir = absdir;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	/* One seed for every node: the same schedule everywhere. */
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)time(NULL) ^ (unsigned)getpid());
	av = fleet_srun_argv(srun, &opts, self, dir, argc, argv,
			     fleet_campaign_has(argc, argv, "seed", 0) ? NULL : seed);
	fflush(stdout);
	rc = srun_run(av, STDERR_FILENO, &msg, &err);
	strv_free(av);
	free(srun);
	words_release(&opts);
	if (rc < 0) {
		strbuf_release(&msg);
		return cli_error(&err);
	}
	fleet_collect(dir, &c, msg.buf ? msg.buf : "");
	for (int i = 0; i < c.failed; i++)
		cli_error(&c.errors[i]);
	rc = fleet_collect_verdict(dir, &c, rc, msg.buf ? msg.buf : "", &err);
	rc = rc < 0 ? cli_error(&err) : rc ? PMU_EXIT_RUNTIME : PMU_EXIT_OK;
	if (c.ok.n) {
		int mrc = merge(dir, &c, by);

		rc = rc ? rc : mrc;
	}
	fleet_collected_release(&c);
	strbuf_release(&msg);
	return rc;
}

int cmd_fleet(int argc, const char **argv)
{
	const char *slurm = NULL, *dir = NULL, *task_of = NULL, *by = "uarch";
	char dflt[64];
	int help = 0, next, r;
	enum fleet_by by_what = FLEET_BY_UARCH;
	const struct option opts[] = {
		{ OPT_STRING, 0, "slurm", &slurm, "srun-options",
		  "srun's options, one string: allocation, partition, constraint, time limit" },
		{ OPT_STRING, 0, "results", &dir, "dir",
		  "where every node writes its result (shared; default fleet-DATE-TIME)" },
		{ OPT_STRING, 0, "by", &by, "uarch|host", "one verdict per uarch (default) or host" },
		{ OPT_STRING, 0, "task-of", &task_of, "dir", "(internal) run as one Slurm task" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};

	r = cli_parse(argc, argv, opts, fleet_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &help);
	if (r)
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	if (task_of)
		return run_task(task_of, argc - next, argv + next);
	if (!strcmp(by, "host"))
		by_what = FLEET_BY_HOST;
	else if (strcmp(by, "uarch")) {
		fprintf(stderr, "error: --by '%s': expected 'uarch' or 'host'\n"
				"hint: run 'pmustat fleet -h'\n", by);
		return PMU_EXIT_USAGE;
	}
	if (!dir) {
		fleet_default_dir(dflt, sizeof(dflt));
		dir = dflt;
	}
	return submit(slurm, dir, by_what, argc - next, argv + next);
}
