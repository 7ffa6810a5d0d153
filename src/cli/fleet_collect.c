/*
 * pmustat fleet after srun returned (cli/fleet_int.h): what each task left
 * in the results directory — its log (first line: task N of M on node H;
 * last line: its exit code, which a task killed by Slurm never writes) and
 * its result — judged task by task, then the finished ones merged by uarch
 * or host and printed, and written as DIR/fleet.json.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/fleet_int.h"
#include "core/sort.h"
#include "report/fleet_render.h"
#include "result/json.h"
#include "run/srun.h"

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
	struct error err;
	int have = 0;

	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	snprintf(json, sizeof(json), "%s/%s.json", dir, name);
	read_log(log, &t);
	if (t.ntasks > c->ntasks)
		c->ntasks = t.ntasks;
	have = stat(json, &st) == 0 && st.st_size > 0;
	if (have && (t.exit == 0 || t.exit == PMU_EXIT_REGRESSION)) {
		words_add(&c->ok, json, strlen(json));
		return;
	}
	srun_telling_line(slurm_msg, why, sizeof(why));
	if (t.exit >= 0)
		error_set(&err, ERR_RUNTIME, "task %s on node '%s' failed (exit %d): %s",
			  name + strlen(fleet_task_host(name)) + 1, fleet_task_host(name), t.exit,
			  t.error[0] ? t.error : why[0] ? why : "see its log");
	else
		error_set(&err, ERR_RUNTIME, "task %s on node '%s' did not finish: %s",
			  name + strlen(fleet_task_host(name)) + 1, fleet_task_host(name),
			  why[0] ? why : "stopped without a message");
	if (have)
		error_hint(&err, "its log is '%s'; what it measured is in '%s' (left out of the "
			   "merge)", log, json);
	else
		error_hint(&err, "its log is '%s'", log);
	cli_error(&err);
	c->failed++;
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
}

/* Merge what came back and print the cross-machine report. */
int fleet_collect_merge(const char *dir, const struct fleet_collected *c, enum fleet_by by)
{
	struct result *rs = xcalloc(c->ok.n, sizeof(*rs));
	struct fleet f;
	struct strbuf table = STRBUF_INIT, path = STRBUF_INIT;
	struct error err;
	json_t *doc;
	int rc;

	error_clear(&err);
	for (size_t i = 0; i < c->ok.n; i++)
		if (report_json_read(&rs[i], c->ok.v[i], &err)) {
			for (size_t j = 0; j < i; j++)
				result_release(&rs[j]);
			free(rs);
			return cli_error(&err);
		}
	rc = fleet_build(&f, rs, (const char *const *)c->ok.v, c->ok.n, by, &err);
	free(rs);
	if (rc)
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

int fleet_collect_verdict(const char *dir, const struct fleet_collected *c, int srun_rc,
			  const char *slurm_msg)
{
	char line[512];
	const char *task;
	struct error err;

	error_clear(&err);
	srun_telling_line(slurm_msg, line, sizeof(line));
	/* A task that ran but could not write to dir said so through srun. */
	if ((task = strstr(slurm_msg, FLEET_TASK_MARK)))
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(task, "\n"), task);
	if (!c->names.n && srun_rc && !task) {
		error_set(&err, ERR_RUNTIME, "srun failed (exit %d), no task ran: %s", srun_rc,
			  line[0] ? line : "no message from Slurm");
		error_hint(&err, "check the --slurm options ('srun --help'), the partition and its "
			   "nodes ('sinfo')");
		return cli_error(&err);
	}
	if (!c->names.n) {
		error_set(&err, ERR_RUNTIME, "no task left anything in '%s'%s%s", dir,
			  line[0] ? ": " : "", line);
		error_hint(&err, "'%s' must be on a filesystem every node shares (NFS, Lustre...): "
			   "give one with '--results DIR'", dir);
		return cli_error(&err);
	}
	if ((int)c->names.n < c->ntasks) {
		error_set(&err, ERR_RUNTIME, "%zu of %d task%s left nothing in '%s'%s%s",
			  (size_t)c->ntasks - c->names.n, c->ntasks, c->ntasks == 1 ? "" : "s", dir,
			  line[0] ? ": " : "", line);
		error_hint(&err, "'%s' must be on a filesystem every node shares (NFS, Lustre...): "
			   "give one with '--results DIR'", dir);
		return cli_error(&err);
	}
	return c->failed ? PMU_EXIT_RUNTIME : 0;
}

