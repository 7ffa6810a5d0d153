/*
 * pmustat stat: count one command over repeated runs. parse -> plan -> check
 * -> run -> render; everything else lives in the layers below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "cli/options.h"
#include "report/table.h"

static const char stat_usage[] = "pmustat stat [options] [--] command [args...]";

static int stat_campaign(const struct campaign_opts *o, const struct variant_args *va, int quiet)
{
	struct campaign c;
	struct error err;
	int rc;

	error_clear(&err);
	if (campaign_init(&c, o, "stat", &err)) {
		campaign_release(&c);
		return cli_error(&err);
	}
	/* One variant, or one per parameter value (--parameter-list). */
	for (size_t v = 0; v < va->n; v++)
		campaign_add_variant(&c, va->names[v] ? va->names[v] : "A", va->argv[v]);
	rc = campaign_prepare(&c, &err) ? cli_error(&err)
					: cli_campaign_conclude(&c, report_stat_table, quiet);
	campaign_release(&c);
	return rc;
}

int cmd_stat(int argc, const char **argv)
{
	struct campaign_opts o = { 0 };
	struct measure_args ma;
	struct option opts[80] = {
		{ OPT_UINT, 'r', "repeat", &o.stop.max_blocks, "n", "measured runs (default 10)", 1, 1e6 },
	};
	struct error err;
	int next, r;

	measure_args_init(&ma, &o);
	measure_options(opts + 1, 78, &ma, MEASURE_STAT);
	r = cli_parse(argc, argv, opts, stat_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &ma.help);
	if (r) {
		measure_args_release(&ma);
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	}
	if (!o.stop.max_blocks)
		o.stop.max_blocks = 10;
	o.stop.kind = STOP_FIXED;
	if (next >= argc) {
		measure_args_release(&ma);
		fprintf(stderr, "error: no command to measure\n"
				"hint: give one after the options, e.g. 'pmustat stat -r 10 -- ls'\n");
		return PMU_EXIT_USAGE;
	}
	error_clear(&err);
	if (variant_add(&ma.va, NULL, argv + next, (size_t)(argc - next), 0, &err) ||
	    variants_build(&ma.va, &err)) {
		measure_args_release(&ma);
		return cli_error(&err);
	}
	measure_args_apply(&ma);
	cli_campaign_progress(&o, ma.quiet);
	r = stat_campaign(&o, &ma.va, ma.quiet);
	measure_args_release(&ma);
	return r;
}
