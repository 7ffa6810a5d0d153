/*
 * What the subcommands share: their entry points (one file each, dispatched
 * from main.c's command table) and how errors reach the user — one line
 * "error: ..." plus, when there is a next step, "hint: ...".
 */
#ifndef PMU_CLI_CLI_H
#define PMU_CLI_CLI_H

#include <jansson.h>

#include "core/error.h"
#include "core/parseopt.h"
#include "core/strbuf.h"

int cmd_stat(int argc, const char **argv);
int cmd_compare(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_demo(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_explain(int argc, const char **argv);
int cmd_doctor(int argc, const char **argv);
int cmd_completion(int argc, const char **argv);
int cmd_help(int argc, const char **argv);

/* The command table (main.c): what `pmustat help` lists and completion
 * completes. */
struct cli_command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};
const struct cli_command *cli_commands(size_t *n);

/*
 * Hand cmd's option table to fn instead of running it: cmd is called with
 * no arguments, and its cli_parse() gives its table to fn and returns 1
 * (as after -h), so the command does nothing else. How the completion
 * scripts are generated from the very tables the parser reads.
 */
typedef void (*cli_option_visitor)(const struct option *opts, void *data);
void cli_visit_options(const struct cli_command *cmd, cli_option_visitor fn, void *data);
int cmd_fleet(int argc, const char **argv);
int cmd_bisect(int argc, const char **argv);

/* Print err to stderr; returns its exit code. */
int cli_error(const struct error *err);
/* After cli_error: a second failure that follows from the first (the result
 * document, on the same full disk), as one more hint line. */
void cli_hint_also(const struct error *also);

/* Parse options; on -h print usage and return 1 (caller exits 0); on a bad
 * option print the error and return -1. Otherwise 0, with *next = first
 * unparsed argument. */
int cli_parse(int argc, const char **argv, const struct option *opts, const char *usage,
	      int flags, int *next, const int *help_flag);

/* Put options first and positional arguments (names, not '-x' and not an
 * option's value) after them, so "explain l3-misses --uarch zen4" parses
 * like "explain --uarch zen4 l3-misses". out has room for argc entries;
 * returns the index of the first positional argument in out. */
int cli_split_positional(int argc, const char **argv, const struct option *opts,
			 const char **out);

/*
 * Write what a command rendered to stdout, flush it, and release sb (the
 * text is given over, as a JSON document is to cli_print_json). A failed
 * write is reported on stderr, once ("error: cannot write to stdout: No
 * space left on device"), and returns PMU_EXIT_RUNTIME; a closed pipe is
 * the reader's choice and returns 0 unreported. See cli/output.c.
 */
int cli_print(struct strbuf *sb);
/* The same for a JSON view (indented by 2, keys in insertion order, then a
 * newline). Takes the reference to doc, as json_object_set_new() does. */
int cli_print_json(json_t *doc);
/* Report a failed write to stdout (errnum = its errno); returns the exit
 * code: PMU_EXIT_RUNTIME, or 0 for EPIPE. For main()'s check at exit. */
int cli_stdout_error(int errnum);

/* Is stdout a terminal (for colour and progress)? */
int cli_stdout_is_tty(void);

#endif
