/*
 * Table-driven option parsing (after git's parse-options): a command declares
 * its options once, as an array that is both the parser's input and the help
 * text. Values are checked here (numbers in range, required arguments), so
 * commands receive only well-formed input and every bad option produces the
 * same kind of message.
 */
#ifndef PMU_CORE_PARSEOPT_H
#define PMU_CORE_PARSEOPT_H

#include "core/error.h"

enum opt_type {
	OPT_END = 0,
	OPT_BOOL,	/* int *: set to 1 */
	OPT_COUNT,	/* int *: incremented each time (-v -v) */
	OPT_UINT,	/* unsigned *: decimal, within [min, max] */
	OPT_DOUBLE,	/* double *: finite, within [min, max] */
	OPT_STRING,	/* const char **: last one wins */
	OPT_LIST,	/* char **: comma-joined across repeats (-e a -e b = "a,b") */
	OPT_CALLBACK,	/* the callback decides */
	OPT_GROUP,	/* a heading in the help text */
};

struct option;
typedef int (*opt_cb)(const struct option *opt, const char *arg, struct error *err);

struct option {
	enum opt_type type;
	char short_name;	/* 0 if none */
	const char *long_name;	/* NULL if none */
	void *value;
	const char *argh;	/* argument placeholder in help, NULL for flags */
	const char *help;
	double min, max;	/* for OPT_UINT / OPT_DOUBLE; both 0 = no bounds */
	opt_cb callback;
	void *cb_data;
	int *given;		/* if not NULL, set to 1 when the option appears, so a
				 * command can tell "--seed 0" from no --seed; name it
				 * last: { OPT_UINT, 0, "seed", &seed, "n", "...",
				 * .given = &seeded } */
	unsigned nargs;		/* OPT_CALLBACK taking several words (hyperfine's
				 * --parameter-scan NAME MIN MAX): 0/1 = one; more
				 * are handed over joined by PARSE_OPT_SEP, in a
				 * string that lives only during the callback */
	int optional_arg;	/* long only: the value comes only as --name=VALUE;
				 * a bare --name passes NULL (argh: "[=modes]") */
};

/* What joins the words of an option with nargs > 1 (never typed). */
#define PARSE_OPT_SEP '\x1f'

/* Stop parsing at the first non-option argument (the command to run). */
#define PARSE_OPT_STOP_AT_NON_OPTION 1

/*
 * Parse argv[0..argc) (argv[0] is the first argument, not the program name).
 * Returns the index of the first unparsed argument ("--" is consumed), or -1
 * with a usage error ("unknown option '--rpeat'", hint with near names).
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  int flags, struct error *err);

/* Append the option table's help text to *out (caller frees). */
char *parse_options_usage(const char *usage_line, const struct option *opts);

#endif
