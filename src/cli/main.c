/*
 * pmustat's entry point: one table of subcommands, each a cmd_<name>() in its
 * own file. main() only dispatches, and checks once at exit that everything
 * written to stdout really got out (a full disk or closed pipe is an error,
 * not a silent truncation).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/printable.h"
#include "core/suggest.h"

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "stat", cmd_stat, "count one command over repeated runs" },
	{ "compare", cmd_compare, "interleaved A/B(/C) runs with a verdict per metric" },
	{ "list", cmd_list, "portable metrics and native events usable here (or on --uarch)" },
	{ "explain", cmd_explain, "how a metric or event resolves, where it lives, and why" },
	{ "doctor", cmd_doctor, "what this machine can measure, each gap with cause and fix" },
	{ "report", cmd_report, "re-render, merge or export saved results (HTML, CSV)" },
	{ "fleet", cmd_fleet, "one campaign on many machines through Slurm, merged by uarch" },
	{ "demo", cmd_demo, "the built-in workload, measured (the main job of 'make demo')" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Messages quote names from anywhere (a result file, a recorded tree, the
 * command line): shown with control characters escaped. */
int cli_error(const struct error *err)
{
	struct strbuf sb = STRBUF_INIT;

	fprintf(stderr, "error: %s\n", printable_in(&sb, err->msg));
	if (err->hint[0])
		fprintf(stderr, "hint: %s\n", printable_in(&sb, err->hint));
	strbuf_release(&sb);
	return error_exit_code(err);
}

int cli_stdout_is_tty(void)
{
	return isatty(STDOUT_FILENO);
}

int cli_parse(int argc, const char **argv, const struct option *opts, const char *usage,
	      int flags, int *next, const int *help_flag)
{
	struct error err;

	error_clear(&err);
	*next = parse_options(argc, argv, opts, flags, &err);
	if (*next < 0) {
		cli_error(&err);
		return -1;
	}
	if (help_flag && *help_flag) {
		char *u = parse_options_usage(usage, opts);

		fputs(u, stdout);
		free(u);
		return 1;
	}
	return 0;
}

/* Does option word a take the next argument as its value ("--name value")? */
static int takes_next(const struct option *opts, const char *a)
{
	if (strchr(a, '='))
		return 0;
	for (const struct option *o = opts; o->type != OPT_END; o++)
		if (o->argh && ((a[1] == '-' && o->long_name && !strcmp(a + 2, o->long_name)) ||
				(a[1] != '-' && !a[2] && a[1] == o->short_name)))
			return 1;
	return 0;
}

/* Options (with their values) in the first pass, positional arguments in
 * the second, each in the order given: there is no limit on either. */
int cli_split_positional(int argc, const char **argv, const struct option *opts,
			 const char **out)
{
	int n = 0, first = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < argc; i++) {
			const char *a = argv[i];
			int option = a[0] == '-' && a[1];
			int value = option && i + 1 < argc && takes_next(opts, a);

			if (option == !pass) {
				out[n++] = a;
				if (value)
					out[n++] = argv[i + 1];
			}
			i += value;
		}
		if (!pass)
			first = n;
	}
	return first;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pmustat <command> [options] [-- command...]\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'pmustat <command> -h' shows a command's options.\n");
}

static int unknown_command(const char *name)
{
	const char *names[NCOMMANDS];
	const char *best;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	fprintf(stderr, "error: unknown command '%s'\n", name);
	best = suggest_best(name, names, NCOMMANDS);
	if (best)
		fprintf(stderr, "hint: did you mean 'pmustat %s'?\n", best);
	else
		fprintf(stderr, "hint: run 'pmustat --help' for the list of commands\n");
	return PMU_EXIT_USAGE;
}

/* Report a failure to write stdout once, at exit, as git does (what went
 * through cli_print() was checked, and reported, when written). */
static int finish_stdout(int rc)
{
	if (fflush(stdout) || ferror(stdout) || (fclose(stdout) && errno != EBADF)) {
		int bad = cli_stdout_error(errno);

		return rc ? rc : bad;
	}
	return rc;
}

int main(int argc, const char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return PMU_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("pmustat %s\n", PMUSTAT_VERSION);
		return finish_stdout(0);
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish_stdout(commands[i].fn(argc - 2, argv + 2));
	return unknown_command(argv[1]);
}
