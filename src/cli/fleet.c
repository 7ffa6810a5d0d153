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
 * nodes' results are merged and kept all the same (cli/fleet_collect.c).
 * See docs/fleet.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/fleet_int.h"
#include "core/outfile.h"
#include "core/strbuf.h"
#include "run/srun.h"

static const char fleet_usage[] =
	"pmustat fleet [--slurm \"SRUN-OPTIONS\"] [--results DIR] [--by uarch|host] "
	"-- compare|stat [options] -- command...";

/* The campaign's options: the words before its first "--". */
static int campaign_has(int argc, const char **argv, const char *long_name, char short_name)
{
	size_t n = strlen(long_name);

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];

		if (a[0] == '-' && a[1] == '-' && !strncmp(a + 2, long_name, n) &&
		    (!a[2 + n] || a[2 + n] == '='))
			return 1;
		if (short_name && a[0] == '-' && a[1] == short_name)
			return 1;
	}
	return 0;
}

static int check_campaign(int argc, const char **argv, struct error *err)
{
	if (argc < 1 || (strcmp(argv[0], "compare") && strcmp(argv[0], "stat"))) {
		error_set(err, ERR_USAGE, "fleet runs 'compare' or 'stat', not '%s'",
			  argc < 1 ? "" : argv[0]);
		return error_hint(err, "e.g. 'pmustat fleet --slurm \"-N4\" -- compare -m allocs "
				       "-- ./a -- ./b'");
	}
	if (campaign_has(argc, argv, "output", 'o')) {
		error_set(err, ERR_USAGE, "fleet writes each node's result itself: drop -o/--output");
		return error_hint(err, "name the directory with 'pmustat fleet --results DIR'");
	}
	return 0;
}

/* Does dir hold a task's files already? Those would be merged with ours. */
static int holds_results(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		found = n > 4 && (!strcmp(e->d_name + n - 4, ".log") ||
				  !strcmp(e->d_name + n - 5, ".json"));
	}
	if (d)
		closedir(d);
	return found;
}

/* DIR must be a writable directory before anything runs; created if missing. */
static int check_dir(const char *dir, struct error *err)
{
	struct stat st;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		error_set(err, ERR_USAGE, "cannot create results directory '%s': %s", dir,
			  strerror(errno));
		return error_hint(err, "choose a writable directory on a filesystem all nodes "
				       "share with '--results DIR'");
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK)) {
		error_set(err, ERR_USAGE, "results directory '%s' is not a writable directory", dir);
		return error_hint(err, "choose a writable directory on a filesystem all nodes "
				       "share with '--results DIR'");
	}
	if (holds_results(dir)) {
		error_set(err, ERR_USAGE, "results directory '%s' holds an earlier fleet's results",
			  dir);
		return error_hint(err, "give a new directory with '--results DIR' (merge the old "
				       "ones with 'pmustat report --by uarch DIR/*-*.json')");
	}
	return 0;
}

/* ---- task mode: one Slurm task ---- */

/* "host-task" (the name of a task's files). */
static void task_name(char *out, size_t len, int *task)
{
	char host[64];
	const char *id = getenv("SLURM_PROCID");

	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	*task = id && *id ? atoi(id) : 0;
	snprintf(out, len, "%s-%d", host, *task);
}

/* The node part of a "host-task" name. */
const char *fleet_task_host(const char *name)
{
	static char host[160];
	const char *dash = strrchr(name, '-');

	snprintf(host, sizeof(host), "%.*s", dash ? (int)(dash - name) : (int)strlen(name), name);
	return host;
}

/* PMUSTAT_CPU_TASKS="ID0,ID1,...": task N pretends to be the Nth CPU
 * (PMUSTAT_CPU), so one machine can stand in for a fleet (tests, demos). */
static void pretend_cpu(int task)
{
	const char *list = getenv("PMUSTAT_CPU_TASKS");
	int i = 0;

	for (const char *p = list; p && *p; i++) {
		size_t n = strcspn(p, ",");

		if (i == task) {
			char *id = xstrndup(p, n);

			setenv("PMUSTAT_CPU", id, 1);
			free(id);
			return;
		}
		p += n + (p[n] == ',');
	}
}

static int run_task(const char *dir, int argc, const char **argv)
{
	char name[160], path[4096];
	const char **args = xcalloc((size_t)argc + 3, sizeof(char *));
	int task, fd, rc;
	struct error err;
	const char *ntasks = getenv("SLURM_NTASKS"), *job = getenv("SLURM_JOB_ID");

	error_clear(&err);
	task_name(name, sizeof(name), &task);
	pretend_cpu(task);
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

static char **srun_argv(const char *srun, const struct words *opts, const char *self,
			const char *dir, int argc, const char **argv, const char *seed)
{
	struct words w = { 0 };

	words_add(&w, srun, strlen(srun));
	for (size_t i = 0; i < opts->n; i++)
		words_add(&w, opts->v[i], strlen(opts->v[i]));
	words_add(&w, self, strlen(self));
	words_add(&w, "fleet", 5);
	words_add(&w, "--task-of", 9);
	words_add(&w, dir, strlen(dir));
	words_add(&w, "--", 2);
	words_add(&w, argv[0], strlen(argv[0]));
	if (seed) {
		words_add(&w, "--seed", 6);
		words_add(&w, seed, strlen(seed));
	}
	for (int i = 1; i < argc; i++)
		words_add(&w, argv[i], strlen(argv[i]));
	return w.v;
}

static void default_dir(char *out, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(out, len, "fleet-%Y%m%d-%H%M%S", &tm);
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
	if (check_campaign(argc, argv, &err) || (slurm && words_append(&opts, slurm, "--slurm", &err)) ||
	    check_dir(dir, &err)) {
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
	av = srun_argv(srun, &opts, self, dir, argc, argv,
		       campaign_has(argc, argv, "seed", 0) ? NULL : seed);
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
	rc = fleet_collect_verdict(dir, &c, rc, msg.buf ? msg.buf : "");
	if (c.ok.n) {
		int mrc = fleet_collect_merge(dir, &c, by);

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
		default_dir(dflt, sizeof(dflt));
		dir = dflt;
	}
	return submit(slurm, dir, by_what, argc - next, argv + next);
}
