/*
 * pmustat bisect: the first commit between --good and --bad that changed a
 * metric, each step decided by the compare engine (campaign/bisect.c). This
 * file parses the command line, prints the search as it goes (one line per
 * step) and the result at the end (report/bisect.c), and turns the outcome
 * into an exit code: 0 found, 4 good and bad do not differ, 5 no single
 * first bad commit (a candidate like neither endpoint, an undecided step,
 * only unbuildable commits left), 130 interrupted (rerun to resume).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/bisect.h"
#include "campaign/compare_plan.h"
#include "cli/cli.h"
#include "cli/measure.h"
#include "cli/report_bisect.h"
#include "core/printable.h"

static const char bisect_usage[] =
	"pmustat bisect --good REV --bad REV [--build CMD] [--shell] [--build-timeout S] "
	"[-m METRIC | --primary METRIC] [--max-time S] [--profile] [-o DIR] -- CMD [ARG...]";

/* A line of the search: subjects and a build's output are anyone's bytes,
 * shown as text (an escape sequence in them must not act on the terminal). */
static void say_to(const char *line, const char *lead)
{
	struct strbuf safe = STRBUF_INIT;

	strbuf_add_printable_lines(&safe, line);
	fprintf(stderr, "%s%s%s", lead, safe.buf, safe.len && safe.buf[safe.len - 1] == '\n' ? "" : "\n");
	strbuf_release(&safe);
}

static void say_line(const char *line, void *data)
{
	(void)data;
	say_to(line, "\r\033[K");
}

static void say_plain(const char *line, void *data)
{
	(void)data;
	say_to(line, "");
}

static int exit_code(const struct bisect_result *b)
{
	switch (b->outcome) {
	case BISECT_FOUND:
		return PMU_EXIT_OK;
	case BISECT_NO_DIFFERENCE:
		return PMU_EXIT_NO_DIFFERENCE;
	case BISECT_INTERRUPTED:
		return PMU_EXIT_INTERRUPTED;
	default:
		return PMU_EXIT_NO_CULPRIT;
	}
}

static int check_command(int argc, const char **argv, int next, struct error *err)
{
	if (next < argc && next > 0 && !strcmp(argv[next - 1], "--"))
		return 0;
	if (next < argc)
		error_set(err, ERR_USAGE, "unexpected '%s': the command comes after '--'",
			  argv[next]);
	else
		error_set(err, ERR_USAGE, "no command to measure");
	return error_hint(err, "pmustat bisect --good v1.0 --bad HEAD --build make -- ./prog ARG");
}

static int check_revs(const struct bisect_opts *o, struct error *err)
{
	if (o->good && o->bad)
		return 0;
	error_set(err, ERR_USAGE, "%s is missing", o->good ? "--bad REV" : "--good REV");
	return error_hint(err, "name the last good and the first known bad revision: --good v1.0 "
			       "--bad HEAD");
}

/* The search, then its document shown as pmustat report shows it (read
 * back: what is printed is what was written). */
static int run(struct bisect_opts *o, int quiet, int verbose)
{
	struct report_bisect_opts view = { .quiet = quiet, .verbose = verbose };
	struct bisect_result b;
	struct strbuf doc = STRBUF_INIT;
	struct error err;
	int rc;

	error_clear(&err);
	rc = bisect_run(o, &b, &err);
	if (rc) {
		rc = cli_error(&err);
		bisect_result_release(&b);
		return rc;
	}
	strbuf_addf(&doc, "%s/bisect.json", o->dir);
	rc = report_bisect(doc.buf, &view);
	if (!rc && !quiet)
		fprintf(stderr, "result: %s\n", doc.buf);
	if (!rc)
		rc = exit_code(&b);
	strbuf_release(&doc);
	bisect_result_release(&b);
	return rc;
}

int cmd_bisect(int argc, const char **argv)
{
	struct bisect_opts o = { .dir = "pmustat-bisect" };
	struct campaign_opts progress = { 0 };
	char *metrics = NULL, **cmd;
	unsigned seed = 0;
	int help = 0, quiet = 0, verbose = 0, seeded = 0, next, r;
	struct error err;
	const struct option opts[] = {
		{ OPT_STRING, 0, "good", &o.good, "rev", "a revision where the metric is as it should be" },
		{ OPT_STRING, 0, "bad", &o.bad, "rev", "a later revision where it changed" },
		{ OPT_STRING, 0, "build", &o.build, "cmd", "build each candidate with cmd in its worktree (words, no shell unless --shell)" },
		{ OPT_BOOL, 0, "shell", &o.shell, NULL, "run the --build command as 'sh -c CMD'" },
		{ OPT_DOUBLE, 0, "build-timeout", &o.build_timeout_s, "s", "kill a build that runs longer (all of it): a candidate is skipped, an endpoint is an error", 0.001, 1e7 },
		{ OPT_LIST, 'm', "metrics", &metrics, "list", "metrics to measure; the first is followed unless --primary (default wall-time)" },
		{ OPT_STRING, 0, "primary", &o.primary, "metric", "the metric every decision follows (an exact count such as allocs or call:FN decides in a few runs)" },
		{ OPT_DOUBLE, 0, "max-time", &o.max_time_s, "s", "time budget of each comparison (default 300)", 0.001, 1e7 },
		{ OPT_DOUBLE, 0, "timeout", &o.timeout_s, "s", "a run longer than s seconds is stopped; a candidate's skips it (default: 10 times the premise's slowest run, at least 10 s)", 0.001, 1e7 },
		{ OPT_BOOL, 0, "first-parent", &o.first_parent, NULL, "follow bad's first-parent line only: a merge is tested as one commit" },
		{ OPT_BOOL, 0, "profile", &o.profile, NULL, "profile the culprit against its parent: where the difference is" },
		{ OPT_STRING, 'o', "output", &o.dir, "dir", "results directory: journal, result, steps, builds, worktrees (default pmustat-bisect)" },
		{ OPT_BOOL, 0, "keep-worktrees", &o.keep_worktrees, NULL, "keep the candidates' worktrees when the search ends" },
		{ OPT_UINT, 0, "seed", &seed, "n", "random seed of the schedules (default: random)", .given = &seeded },
		{ OPT_BOOL, 'q', "quiet", &quiet, NULL, "no progress lines and no table" },
		{ OPT_BOOL, 'v', "verbose", &verbose, NULL, "each step's reason and stopping rule in the table" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};

	error_clear(&err);
	r = cli_parse(argc, argv, opts, bisect_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &help);
	if (r) {
		free(metrics);
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	}
	if (check_revs(&o, &err) || check_command(argc, argv, next, &err)) {
		free(metrics);
		return cli_error(&err);
	}
	o.metrics = metrics;
	cmd = xcalloc((size_t)(argc - next) + 1, sizeof(char *));
	for (int i = next; i < argc; i++)
		cmd[i - next] = (char *)argv[i];
	o.argv = cmd;
	o.seed = seeded ? seed : compare_random_seed();
	cli_campaign_progress(&progress, quiet);
	o.progress = progress.progress;
	o.say = quiet ? NULL : progress.progress ? say_line : say_plain;
	r = run(&o, quiet, verbose);
	free(cmd);
	free(metrics);
	return r;
}
