/*
 * pmustat demo: the main job of `make demo`. Until the R1CS workload and
 * `compare` land it measures a small built-in command with `stat -r 10`, so a
 * newcomer sees the table, the notes on what this host cannot count, and a
 * saved result.
 */
#include <stdio.h>
#include <string.h>

#include "cli/campaign.h"
#include "cli/cli.h"

int stat_campaign(const struct campaign_opts *o, char *const *argv, const char *command);

int cmd_demo(int argc, const char **argv)
{
	struct campaign_opts o = { 0 };
	const char *out = "demo-result.json";
	int help = 0, next, r;
	char *cmd[] = { "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", NULL };
	const struct option opts[] = {
		{ OPT_UINT, 'r', "repeat", &o.repeat, "n", "measured runs (default 10)", 1, 1e6 },
		{ OPT_STRING, 'o', "output", &out, "file", "where to write the JSON result" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};

	o.repeat = 10;
	o.pin_cpu = -1;
	r = cli_parse(argc, argv, opts, "pmustat demo [options]", 0, &next, &help);
	if (r)
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	o.json_path = out;
	printf("pmustat demo: counting a small shell loop, %u runs\n", o.repeat);
	fflush(stdout);
	r = stat_campaign(&o, cmd, "demo");
	if (!r)
		printf("\nresult written to %s\n", out);
	return r;
}
