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

static const struct cli_command commands[] = {
	{ "stat", cmd_stat, "count one command over repeated runs" },
	{ "compare", cmd_compare, "interleaved A/B(/C) runs with a verdict per metric" },
	{ "list", cmd_list, "portable metrics and native events usable here (or on --uarch)" },
	{ "explain", cmd_explain, "how a metric or event resolves, where it lives, and why" },
	{ "doctor", cmd_doctor, "what this machine can measure, each gap with cause and fix" },
	{ "report", cmd_report, "re-render, merge or export saved results (HTML, CSV)" },
	{ "bisect", cmd_bisect, "the first commit that changed a metric, each step decided by compare" },
	{ "fleet", cmd_fleet, "one campaign on many machines through Slurm, merged by uarch" },
	{ "demo", cmd_demo, "the built-in workload, measured (the main job of 'make demo')" },
	{ "completion", cmd_completion, "print a bash or zsh completion script (from the option tables)" },
	{ "help", cmd_help, "show a command's options: pmustat help CMD" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Set while the completion generator walks the commands (cli_visit_options):
 * the one piece of mutable state of the CLI, so that the option tables,
 * which each command builds on its stack, need no second copy. */
static struct {
	cli_option_visitor fn;
	void *data;
} visitor;

const struct cli_command *cli_commands(size_t *n)
{
	*n = NCOMMANDS;
	return commands;
}

void cli_visit_options(const struct cli_command *cmd, cli_option_visitor fn, void *data)
{
	visitor.fn = fn;
	visitor.data = data;
	cmd->fn(0, NULL);
	visitor.fn = NULL;
	visitor.data = NULL;
}

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

void cli_hint_also(const struct error *also)
{
	struct strbuf sb = STRBUF_INIT, hint = STRBUF_INIT;

	fprintf(stderr, "hint: the result was not written either (%s)", printable_in(&sb, also->msg));
	if (also->hint[0])
		fprintf(stderr, "; %s", printable_in(&hint, also->hint));
	fputc('\n', stderr);
	strbuf_release(&sb);
	strbuf_release(&hint);
}

int cli_stdout_is_tty(void)
{
	return isatty(STDOUT_FILENO);
}

int cli_parse(int argc, const char **argv, const struct option *opts, const char *usage,
	      int flags, int *next, const int *help_flag)
{
	struct error err;

	if (visitor.fn) {
		visitor.fn(opts, visitor.data);
		return 1;	/* as after -h: the command does nothing else */
	}
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
	fprintf(f, "\n'pmustat help <command>' (or 'pmustat <command> -h') shows a command's "
		   "options;\n'pmustat -V' the version.\n");
}

static const struct cli_command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	const char *names[NCOMMANDS];
	const char *best;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	fprintf(stderr, "error: unknown command '%s'\n", name);
	best = suggest_option(name, names, NCOMMANDS);
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

/* pmustat help [CMD]: the list of commands, or CMD's options (as CMD -h). */
int cmd_help(int argc, const char **argv)
{
	static const char *dash_h[] = { "-h", NULL };
	const struct cli_command *cmd;

	if (visitor.fn)
		return 0;	/* no options of its own */
	if (argc < 1) {
		usage(stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "error: help takes one command, got %d words\n"
				"hint: pmustat help %s\n", argc, argv[0]);
		return PMU_EXIT_USAGE;
	}
	cmd = find_command(argv[0]);
	if (!cmd)
		return unknown_command(argv[0]);
	if (cmd->fn == cmd_help || cmd->fn == cmd_completion) {
		printf("usage: pmustat %s\n", cmd->fn == cmd_help ? "help [command]"
								  : "completion bash|zsh");
		return 0;
	}
	return cmd->fn(1, dash_h);
}

int main(int argc, const char **argv)
{
	const struct cli_command *cmd;

	if (argc < 2) {
		usage(stderr);
		return PMU_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version") ||
	    !strcmp(argv[1], "version")) {
		printf("pmustat %s\n", PMUSTAT_VERSION);
		return finish_stdout(0);
	}
	cmd = find_command(argv[1]);
	if (cmd)
		return finish_stdout(cmd->fn(argc - 2, argv + 2));
	return unknown_command(argv[1]);
}
