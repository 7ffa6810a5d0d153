/*
 * pmustat fleet: one campaign on many machines through Slurm. The campaign
 * (a compare or stat command line) is given one seed for all and run once
 * per Slurm task by `srun` — allocation, partition, constraints, node list
 * and time limit are the user's srun options, passed through. Each task is
 * this pmustat again in task mode (the hidden --task-of DIR): it writes its
 * table and messages to DIR/<host>-<task>.log and its result to
 * DIR/<host>-<task>.json. When srun returns, the results are collected,
 * merged by uarch (report/fleet.h) and printed; what did not come back is
 * an error naming the node and quoting Slurm's message, and the finished
 * nodes' results are merged and kept all the same. See docs/fleet.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/strbuf.h"
#include "report/fleet.h"
#include "report/json.h"

static const char fleet_usage[] =
	"pmustat fleet [--slurm \"SRUN-OPTIONS\"] [--results DIR] [--by uarch|host] "
	"-- compare|stat [options] -- command...";

/* Slurm's own messages kept to quote (srun's stderr), at most this much. */
#define SRUN_MSG_MAX 65536

struct words {
	char **v;
	size_t n, alloc;
};

static void words_add(struct words *w, const char *s, size_t len)
{
	ALLOC_GROW(w->v, w->n + 2, w->alloc);
	w->v[w->n++] = xstrndup(s, len);
	w->v[w->n] = NULL;
}

/*
 * Split --slurm's text into words as a shell would split a plain command
 * line, without running one: blanks separate, '...' and "..." quote,
 * backslash escapes (outside '...'). Nothing is expanded ($, *, ~ stay as
 * they are), so the options reach srun exactly as written.
 */
static int split_words(const char *s, struct words *w, struct error *err)
{
	struct strbuf cur = STRBUF_INIT;
	int in_word = 0;
	char quote = 0;

	for (; *s; s++) {
		if (quote) {
			if (*s == quote)
				quote = 0;
			else if (*s == '\\' && quote == '"' && (s[1] == '"' || s[1] == '\\'))
				strbuf_addch(&cur, *++s);
			else
				strbuf_addch(&cur, *s);
		} else if (*s == ' ' || *s == '\t' || *s == '\n') {
			if (in_word)
				words_add(w, cur.buf, cur.len);
			strbuf_reset(&cur);
			in_word = 0;
		} else {
			in_word = 1;
			if (*s == '\'' || *s == '"')
				quote = *s;
			else if (*s == '\\' && s[1])
				strbuf_addch(&cur, *++s);
			else
				strbuf_addch(&cur, *s);
		}
	}
	if (in_word && !quote)
		words_add(w, cur.buf, cur.len);
	strbuf_release(&cur);
	if (quote) {
		error_set(err, ERR_USAGE, "--slurm: unbalanced %c quote", quote);
		return error_hint(err, "quote the srun options as a whole, e.g. --slurm \"-N4 "
				       "--constraint='zen4|spr'\"");
	}
	return 0;
}

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

/* srun on PATH, or NULL. */
static char *find_srun(void)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;

	while (path && *path) {
		size_t n = strcspn(path, ":");

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*s/srun", (int)n, n ? path : ".");
		if (access(sb.buf, X_OK) == 0)
			return strbuf_detach(&sb);
		path += n + (path[n] == ':');
	}
	strbuf_release(&sb);
	return NULL;
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
static const char *host_of(const char *name)
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
	const char *ntasks = getenv("SLURM_NTASKS"), *job = getenv("SLURM_JOB_ID");

	task_name(name, sizeof(name), &task);
	pretend_cpu(task);
	snprintf(path, sizeof(path), "%s/%s.log", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		fprintf(stderr, "error: task %d cannot write '%s': %s\n", task, path,
			strerror(errno));
		free(args);
		return PMU_EXIT_RUNTIME;
	}
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	printf("pmustat fleet: task %d of %s on node %s (Slurm job %s)\n", task,
	       ntasks ? ntasks : "1", host_of(name), job ? job : "-");
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

/* Run argv, keeping its stderr (Slurm's messages) in msg and showing it. */
static int run_srun(char **argv, struct strbuf *msg, struct error *err)
{
	int pipefd[2], status;
	pid_t pid;
	char buf[4096];
	ssize_t n;

	if (pipe(pipefd))
		return error_set(err, ERR_RUNTIME, "cannot start srun: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return error_set(err, ERR_RUNTIME, "cannot start srun: %s", strerror(errno));
	if (!pid) {
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		execv(argv[0], argv);
		fprintf(stderr, "srun: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	/* ^C goes to srun (same process group), which cancels the step and
	 * returns: then the finished tasks' results are still collected. */
	signal(SIGINT, SIG_IGN);
	while ((n = read(pipefd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
		if (n <= 0)
			continue;
		if (write(STDERR_FILENO, buf, (size_t)n) < 0) {
			/* stderr gone: keep reading so srun is never blocked */
		}
		if (msg->len < SRUN_MSG_MAX)
			strbuf_add(msg, buf, (size_t)n);
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	signal(SIGINT, SIG_DFL);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The most telling line of Slurm's messages: slurmstepd's "*** ... ***"
 * banner (time limit, node failure), else the last "error" line, else the
 * first line (srun's complaint about an option comes first). */
static void slurm_line(const char *msg, char *out, size_t len)
{
	const char *banner = NULL, *error = NULL, *first = NULL;

	out[0] = '\0';
	for (const char *p = msg; *p;) {
		size_t n = strcspn(p, "\n");

		if (n && !first)
			first = p;
		if (n && memmem(p, n, "***", 3))
			banner = p;
		else if (n && memmem(p, n, "error", 5))
			error = p;
		p += n + (p[n] == '\n');
	}
	if (banner || error || first) {
		const char *l = banner ? banner : error ? error : first;

		snprintf(out, len, "%.*s", (int)strcspn(l, "\n"), l);
	}
}

struct collected {
	struct words names;	/* "host-task" of every task that left a log */
	struct words ok;	/* result paths of the tasks that finished */
	int ntasks;		/* the most tasks any log said there were */
	int failed;
};

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
static void check_task(const char *dir, const char *name, struct collected *c,
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
	slurm_line(slurm_msg, why, sizeof(why));
	if (t.exit >= 0)
		error_set(&err, ERR_RUNTIME, "task %s on node '%s' failed (exit %d): %s",
			  name + strlen(host_of(name)) + 1, host_of(name), t.exit,
			  t.error[0] ? t.error : why[0] ? why : "see its log");
	else
		error_set(&err, ERR_RUNTIME, "task %s on node '%s' did not finish: %s",
			  name + strlen(host_of(name)) + 1, host_of(name),
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

static void collect(const char *dir, struct collected *c, const char *slurm_msg)
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
		qsort(c->names.v, c->names.n, sizeof(char *), by_name);
	for (size_t i = 0; i < c->names.n; i++)
		check_task(dir, c->names.v[i], c, slurm_msg);
}

static void words_release(struct words *w)
{
	strv_free(w->v);
	memset(w, 0, sizeof(*w));
}

/* Merge what came back and print the cross-machine report. */
static int merge(const char *dir, struct collected *c, enum fleet_by by)
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

static int report_missing(const char *dir, const struct collected *c, int srun_rc,
			  const char *slurm_msg)
{
	char line[512];
	struct error err;

	error_clear(&err);
	slurm_line(slurm_msg, line, sizeof(line));
	if (!c->names.n && srun_rc) {
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
	struct collected c = { 0 };
	struct strbuf msg = STRBUF_INIT;
	struct error err;
	char seed[24], self[4096], absdir[4096], **av, *srun;
	ssize_t n;
	int rc;

	error_clear(&err);
	if (check_campaign(argc, argv, &err) || (slurm && split_words(slurm, &opts, &err)) ||
	    check_dir(dir, &err)) {
		words_release(&opts);
		return cli_error(&err);
	}
	if (!(srun = find_srun())) {
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
	rc = run_srun(av, &msg, &err);
	strv_free(av);
	free(srun);
	words_release(&opts);
	if (rc < 0) {
		strbuf_release(&msg);
		return cli_error(&err);
	}
	collect(dir, &c, msg.buf ? msg.buf : "");
	rc = report_missing(dir, &c, rc, msg.buf ? msg.buf : "");
	if (c.ok.n) {
		int mrc = merge(dir, &c, by);

		rc = rc ? rc : mrc;
	}
	words_release(&c.names);
	words_release(&c.ok);
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
