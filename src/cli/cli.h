/*
 * What the subcommands share: their entry points (one file each, dispatched
 * from main.c's command table) and how errors reach the user — one line
 * "error: ..." plus, when there is a next step, "hint: ...".
 */
#ifndef PMU_CLI_CLI_H
#define PMU_CLI_CLI_H

#include "core/error.h"
#include "core/parseopt.h"

int cmd_stat(int argc, const char **argv);
int cmd_demo(int argc, const char **argv);

/* Print err to stderr; returns its exit code. */
int cli_error(const struct error *err);

/* Parse options; on -h print usage and return 1 (caller exits 0); on a bad
 * option print the error and return -1. Otherwise 0, with *next = first
 * unparsed argument. */
int cli_parse(int argc, const char **argv, const struct option *opts, const char *usage,
	      int flags, int *next, const int *help_flag);

/* Is stdout a terminal (for colour and progress)? */
int cli_stdout_is_tty(void);

#endif
