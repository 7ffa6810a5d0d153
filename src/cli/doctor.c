/*
 * pmustat doctor: what this machine can measure, and for every gap the cause
 * and the fix. The checks themselves (and the probes that try each one for
 * real) live in host/checks.c, the two renderings in report/doctor.c; this
 * file parses the options and prints.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "core/strbuf.h"
#include "host/checks.h"
#include "host/cpumap.h"
#include "report/doctor.h"

static const char doctor_usage[] = "pmustat doctor [--json] [--uarch U]";

/* ---- the command ------------------------------------------------------------ */

static int print_json(const struct checks *c)
{
	struct cpu_map *m = NULL;
	struct error err;
	json_t *doc;

	error_clear(&err);
	if (cpu_map_load_default(&m, &err))
		return cli_error(&err);
	doc = report_doctor_json(c, m);
	cpu_map_free(m);
	return cli_print_json(doc);
}

int cmd_doctor(int argc, const char **argv)
{
	int help = 0, json = 0, next, r;
	const char *uarch = NULL;
	struct checks c;
	struct error err;
	const struct option opts[] = {
		{ OPT_BOOL, 0, "json", &json, NULL, "print the report as JSON" },
		{ OPT_STRING, 0, "uarch", &uarch, "u", "judge as this uarch (default: detected)" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};

	r = cli_parse(argc, argv, opts, doctor_usage, 0, &next, &help);
	if (r)
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	if (next < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\n"
				"hint: 'pmustat doctor' takes no arguments; see 'pmustat doctor -h'\n",
			argv[next]);
		return PMU_EXIT_USAGE;
	}
	error_clear(&err);
	if (checks_run(&c, uarch, &err)) {
		checks_release(&c);
		return cli_error(&err);
	}
	if (json) {
		r = print_json(&c);
	} else {
		struct strbuf sb = STRBUF_INIT;

		report_doctor_text(&c, &sb);
		r = cli_print(&sb);
	}
	checks_release(&c);
	return r;
}
