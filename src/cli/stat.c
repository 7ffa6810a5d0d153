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
#include "report/table.h"

static const char stat_usage[] = "pmustat stat [options] [--] command [args...]";

static int stat_campaign(const struct campaign_opts *o, char *const *argv, int quiet)
{
	struct campaign c;
	struct error err;
	int rc;

	error_clear(&err);
	if (campaign_init(&c, o, "stat", &err)) {
		campaign_release(&c);
		return cli_error(&err);
	}
	campaign_add_variant(&c, "A", argv);
	rc = campaign_prepare(&c, &err) ? cli_error(&err)
					: cli_campaign_conclude(&c, report_stat_table, quiet);
	campaign_release(&c);
	return rc;
}

int cmd_stat(int argc, const char **argv)
{
	struct campaign_opts o = { 0 };
	unsigned seed = 0, pin = (unsigned)-1;
	int help = 0, quiet = 0, next, r;
	char *events = NULL, *metrics = NULL;
	const struct option opts[] = {
		{ OPT_LIST, 'e', "events", &events, "list", "native events to count (pmustat list --events)" },
		{ OPT_LIST, 'm', "metrics", &metrics, "list", "portable metrics or presets (default)" },
		{ OPT_UINT, 'r', "repeat", &o.stop.max_blocks, "n", "measured runs (default 10)", 1, 1e6 },
		{ OPT_UINT, 0, "warmup", &o.warmup, "n", "runs to discard first (default 0)", 0, 1e6 },
		{ OPT_DOUBLE, 0, "max-time", &o.max_time_s, "s", "time budget of the runs, simulated ones included (default: none)", 0.001, 1e7 },
		{ OPT_DOUBLE, 0, "timeout", &o.timeout_s, "s", "kill a run after s seconds", 0.001, 1e7 },
		{ OPT_BOOL, 'i', "ignore-failure", &o.ignore_failure, NULL, "keep going when the command fails" },
		{ OPT_BOOL, 0, "show-output", &o.show_output, NULL, "let the command's stdout/stderr through" },
		{ OPT_STRING, 'o', "output", &o.json_path, "file", "write the result as JSON ('-' = stdout)" },
		{ OPT_STRING, 0, "csv", &o.csv_path, "file", "write every run's raw values as CSV" },
		{ OPT_UINT, 0, "pin", &pin, "cpu", "run the command on this CPU only" },
		{ OPT_UINT, 0, "seed", &seed, "n", "random seed (recorded in the result)" },
		{ OPT_STRING, 0, "backend", &o.backend, "mode", "auto (default), hw, sim or sw: who serves hardware metrics" },
		{ OPT_UINT, 0, "sim-runs", &o.sim_runs, "n", "simulated runs per variant (default 3)", 1, 1e6 },
		{ OPT_STRING, 0, "sim-args", &o.sim_args, "words", "append these arguments in simulated runs (e.g. a smaller input)" },
		{ OPT_STRING, 0, "calls", &o.calls, "mech", "call counters by auto (default), uprobe or preload" },
		{ OPT_STRING, 0, "uarch", &o.uarch, "name", "microarchitecture to resolve metrics for (default: this host's)" },
		{ OPT_BOOL, 0, "dry-run", &o.dry_run, NULL, "print the counters' perf_event_attr per group, run nothing" },
		{ OPT_BOOL, 'q', "quiet", &quiet, NULL, "no table" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};

	r = cli_parse(argc, argv, opts, stat_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &help);
	if (r)
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	if (!o.stop.max_blocks)
		o.stop.max_blocks = 10;
	o.stop.kind = STOP_FIXED;
	if (next >= argc) {
		fprintf(stderr, "error: no command to measure\n"
				"hint: give one after the options, e.g. 'pmustat stat -r 10 -- ls'\n");
		return PMU_EXIT_USAGE;
	}
	o.events = events;
	o.metrics = metrics;
	o.seed = seed;
	o.pin_cpu = (int)pin;
	cli_campaign_progress(&o, quiet);
	r = stat_campaign(&o, (char *const *)(argv + next), quiet);
	free(events);
	free(metrics);
	return r;
}
