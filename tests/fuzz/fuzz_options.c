/*
 * Fuzz harness: command-line options (core/parseopt). The input is an
 * argument vector, one argument per line, parsed against a table with
 * every option type the commands use — flags, counters, bounded integers
 * and numbers, strings, repeatable lists, a callback, a group heading and
 * "given" markers, an option of three words — first stopping at the first
 * non-option, then not; the help text is rendered too. A callback splits
 * its value into words without a shell (core/words, as --prepare does).
 */
#include <stdlib.h>
#include <string.h>

#include "core/parseopt.h"
#include "core/strbuf.h"
#include "core/words.h"
#include "fuzz.h"

static int refuse_bad(const struct option *opt, const char *arg, struct error *err)
{
	(void)opt;
	if (arg && !strcmp(arg, "bad"))
		return error_set(err, ERR_USAGE, "bad value");
	return 0;
}

static int split_words(const struct option *opt, const char *arg, struct error *err)
{
	char **w = words_split(arg, err);

	(void)opt;
	strv_free(w);
	return w ? 0 : -1;
}

static void parse(int argc, const char **argv, int flags)
{
	int quiet = 0, verbose = 0, seeded = 0, used = 0;
	unsigned repeat = 0, seed = 0;
	double timeout = 0, band = 0;
	const char *out = NULL;
	char *events = NULL;
	struct error err;
	const struct option opts[] = {
		{ OPT_GROUP, 0, NULL, NULL, NULL, "measuring:" },
		{ OPT_UINT, 'r', "repeat", &repeat, "n", "runs", 1, 100000 },
		{ OPT_UINT, 0, "seed", &seed, "n", "seed", .given = &seeded },
		{ OPT_DOUBLE, 0, "timeout", &timeout, "s", "per run", 0.001, 86400 },
		{ OPT_DOUBLE, 0, "noise-band", &band, "x", "band" },
		{ OPT_LIST, 'e', "events", &events, "list", "events" },
		{ OPT_STRING, 'o', "output", &out, "file", "result" },
		{ OPT_CALLBACK, 0, "backend", NULL, "name", "backend", 0, 0, refuse_bad, NULL,
		  &used },
		{ OPT_CALLBACK, 0, "prepare", NULL, "cmd", "hook", 0, 0, split_words, NULL },
		{ OPT_CALLBACK, 0, "parameter-scan", NULL, "name min max", "scan", 0, 0, split_words,
		  NULL, .nargs = 3 },
		{ OPT_BOOL, 'q', "quiet", &quiet, NULL, "quiet" },
		{ OPT_COUNT, 'v', "verbose", &verbose, NULL, "more" },
		{ OPT_END },
	};
	char *usage;

	parse_options(argc, argv, opts, flags, &err);
	usage = parse_options_usage("pmustat fuzz [opts]", opts);
	free(usage);
	free(events);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	const char **argv = NULL;
	int argc = 0;

	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		argv = realloc(argv, (size_t)(argc + 1) * sizeof(*argv));
		argv[argc++] = line;
	}
	parse(argc, argv, PARSE_OPT_STOP_AT_NON_OPTION);
	parse(argc, argv, 0);
	free(argv);
	free(text);
	return 0;
}
