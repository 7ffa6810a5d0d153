/*
 * pmustat fleet's orchestration (fleet_run.h): before srun, the checks of
 * the campaign and of the results directory, the task's identity and srun's
 * command line; after it, each task's log (first line: task N of M on node
 * H; last line: its exit code, which a task killed by Slurm never writes)
 * and result judged task by task, and the finished ones merged by uarch or
 * host. Nothing here prints or renders: failures are errors the CLI says,
 * and the merged fleet is the CLI's to print and write as DIR/fleet.json
 * (cli/fleet.c, report/fleet_render.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "campaign/fleet_run.h"
#include "core/sort.h"
#include "result/json.h"
#include "run/srun.h"

/* The campaign's options: the words before its first "--". */
int fleet_campaign_has(int argc, const char **argv, const char *long_name, char short_name)
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

int fleet_check_campaign(int argc, const char **argv, struct error *err)
{
	if (argc < 1 || (strcmp(argv[0], "compare") && strcmp(argv[0], "stat"))) {
		error_set(err, ERR_USAGE, "fleet runs 'compare' or 'stat', not '%s'",
			  argc < 1 ? "" : argv[0]);
		return error_hint(err, "e.g. 'pmustat fleet --slurm \"-N4\" -- compare -m allocs "
				       "-- ./a -- ./b'");
	}
	if (fleet_campaign_has(argc, argv, "output", 'o')) {
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
int fleet_check_dir(const char *dir, struct error *err)
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

/* "host-task" (the name of a task's files). */
void fleet_task_name(char *out, size_t len, int *task)
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
void fleet_pretend_cpu(int task)
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

char **fleet_srun_argv(const char *srun, const struct words *opts, const char *self,
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

void fleet_default_dir(char *out, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(out, len, "fleet-%Y%m%d-%H%M%S", &tm);
}

/* What a task's log says: how many tasks there were, its exit code (-1:
 * it never finished) and its last "error: ..." line. */
struct task_log {
	int ntasks, exit;
	char error[512];
};

static void read_log(const char *path, struct task_log *t)
{
	struct strbuf sb = STRBUF_INIT;
	int task;

	memset(t, 0, sizeof(*t));
	t->exit = -1;
	if (strbuf_read_regular(&sb, path, 1 << 20) < 0)
		return;
	sscanf(sb.buf, "pmustat fleet: task %d of %d", &task, &t->ntasks);
	for (const char *p = sb.buf; *p;) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "error: ", 7))
			snprintf(t->error, sizeof(t->error), "%.*s", (int)(n - 7), p + 7);
		else if (!strncmp(p, "pmustat fleet: task ", 20) && memmem(p, n, " exit ", 6))
			sscanf(p, "pmustat fleet: task %d exit %d", &task, &t->exit);
		p += n + (p[n] == '\n');
	}
	strbuf_release(&sb);
}

/* A task counts when it finished (exit 0, or 3: a regression found) and
 * left its result; otherwise the error names its node and task and says
 * why, in the task's words or Slurm's. */
static void check_task(const char *dir, const char *name, struct fleet_collected *c,
		       const char *slurm_msg)
{
	char json[4096], log[4096], why[512];
	struct task_log t;
	struct stat st;
	struct error *err;
	int have = 0;

	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	snprintf(json, sizeof(json), "%s/%s.json", dir, name);
	read_log(log, &t);
	if (t.ntasks > c->ntasks)
		c->ntasks = t.ntasks;
	have = stat(json, &st) == 0 && st.st_size > 0;
	/* exit 3 (a regression found) finished too */
	if (have && (t.exit == PMU_EXIT_OK || t.exit == PMU_EXIT_REGRESSION)) {
		words_add(&c->ok, json, strlen(json));
		return;
	}
	srun_telling_line(slurm_msg, why, sizeof(why));
	c->errors = xrealloc(c->errors, (size_t)(c->failed + 1) * sizeof(*c->errors));
	err = &c->errors[c->failed++];
	error_clear(err);
	if (t.exit >= 0)
		error_set(err, ERR_RUNTIME, "task %s on node '%s' failed (exit %d): %s",
			  name + strlen(fleet_task_host(name)) + 1, fleet_task_host(name), t.exit,
			  t.error[0] ? t.error : why[0] ? why : "see its log");
	else
		error_set(err, ERR_RUNTIME, "task %s on node '%s' did not finish: %s",
			  name + strlen(fleet_task_host(name)) + 1, fleet_task_host(name),
			  why[0] ? why : "stopped without a message");
	if (have)
		error_hint(err, "its log is '%s'; what it measured is in '%s' (left out of the "
			   "merge)", log, json);
	else
		error_hint(err, "its log is '%s'", log);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void fleet_collect(const char *dir, struct fleet_collected *c, const char *slurm_msg)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 4 && !strcmp(e->d_name + n - 4, ".log") && strcmp(e->d_name, "srun.log"))
			words_add(&c->names, e->d_name, n - 4);
	}
	if (d)
		closedir(d);
	if (c->names.n)
		sort_n(c->names.v, c->names.n, sizeof(char *), by_name);
	for (size_t i = 0; i < c->names.n; i++)
		check_task(dir, c->names.v[i], c, slurm_msg);
}

void fleet_collected_release(struct fleet_collected *c)
{
	words_release(&c->names);
	words_release(&c->ok);
	free(c->errors);
	c->errors = NULL;
}

/* Merge what came back. */
int fleet_collect_merge(const struct fleet_collected *c, enum fleet_by by, struct fleet *f,
			struct error *err)
{
	struct result *rs = xcalloc(c->ok.n, sizeof(*rs));
	int rc;

	for (size_t i = 0; i < c->ok.n; i++)
		if (report_json_read(&rs[i], c->ok.v[i], err)) {
			for (size_t j = 0; j < i; j++)
				result_release(&rs[j]);
			free(rs);
			return -1;
		}
	rc = fleet_build(f, rs, (const char *const *)c->ok.v, c->ok.n, by, err);
	free(rs);
	return rc ? -1 : 0;
}

int fleet_collect_verdict(const char *dir, const struct fleet_collected *c, int srun_rc,
			  const char *slurm_msg, struct error *err)
{
	char line[512];
	const char *task;

	srun_telling_line(slurm_msg, line, sizeof(line));
	/* A task that ran but could not write to dir said so through srun. */
	if ((task = strstr(slurm_msg, FLEET_TASK_MARK)))
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(task, "\n"), task);
	if (!c->names.n && srun_rc && !task) {
		error_set(err, ERR_RUNTIME, "srun failed (exit %d), no task ran: %s", srun_rc,
			  line[0] ? line : "no message from Slurm");
		error_hint(err, "check the --slurm options ('srun --help'), the partition and its "
			   "nodes ('sinfo')");
		return -1;
	}
	if (!c->names.n) {
		error_set(err, ERR_RUNTIME, "no task left anything in '%s'%s%s", dir,
			  line[0] ? ": " : "", line);
		error_hint(err, "'%s' must be on a filesystem every node shares (NFS, Lustre...): "
			   "give one with '--results DIR'", dir);
		return -1;
	}
	if ((int)c->names.n < c->ntasks) {
		error_set(err, ERR_RUNTIME, "%zu of %d task%s left nothing in '%s'%s%s",
			  (size_t)c->ntasks - c->names.n, c->ntasks, c->ntasks == 1 ? "" : "s", dir,
			  line[0] ? ": " : "", line);
		error_hint(err, "'%s' must be on a filesystem every node shares (NFS, Lustre...): "
			   "give one with '--results DIR'", dir);
		return -1;
	}
	return c->failed ? 1 : 0;
}

