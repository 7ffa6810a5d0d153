/*
 * pmustat demo: the main job of `make demo`. It answers the question the
 * project was born from — does a small-vector LinearCombination beat a heap
 * vector in Groth16 constraint synthesis, and does in-place accumulation
 * beat both? — by comparing variants of the built-in R1CS workload
 * (workloads/r1cs) with `pmustat compare`, every metric the host can give.
 * Compare's reading leads its output; all the demo adds is the choice of
 * variants and sizes (campaign/demo_plan.c) and the constraint count, so
 * that the reading says allocations per constraint. This file parses the
 * options and runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "campaign/demo_plan.h"
#include "cli/cli.h"
#include "cli/compare.h"
#include "core/selfpath.h"
#include "core/strbuf.h"

static int opt_seed(const struct option *opt, const char *arg, struct error *err)
{
	struct demo_opts *d = opt->cb_data;
	char *end;

	errno = 0;
	d->seed = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-')
		return error_set(err, ERR_USAGE, "--seed wants a number, got '%s'", arg);
	d->seeded = 1;
	return 0;
}

int cmd_demo(int argc, const char **argv)
{
	struct demo_opts d;
	int help = 0;
	struct table_opts view = { .work_unit = "constraint" };
	const struct option opts[] = {
		{ OPT_STRING, 0, "variants", &d.variants, "list", "workload variants, baseline first (default vec,sv2,pool-inplace,csr)" },
		{ OPT_UINT, 0, "labels", &d.labels, "n", "workload size: labels per run (default 2, about 1M constraints)", 1, 64 },
		{ OPT_UINT, 0, "sha-blocks", &d.sha_blocks, "n", "SHA-256 compressions per label (default 20)", 1, 1000 },
		{ OPT_UINT, 0, "sim-labels", &d.sim_labels, "n", "size of the simulated runs (default 1, 2 blocks)", 1, 64 },
		{ OPT_BOOL, 0, "no-sim", &d.no_sim, NULL, "no simulated counters (hardware or nothing)" },
		{ OPT_BOOL, 0, "no-profile", &d.no_profile, NULL, "no profile: neither sampled runs nor traced allocation call sites" },
		{ OPT_DOUBLE, 0, "max-time", &d.max_time, "s", "time budget, simulated runs included (default 100)", 0.001, 1e7 },
		{ OPT_UINT, 0, "blocks", &d.blocks, "n", "run exactly n blocks", 1, 1e6 },
		{ OPT_CALLBACK, 0, "seed", NULL, "n", "schedule seed", 0, 0, opt_seed, &d },
		{ OPT_STRING, 'o', "output", &d.out, "file", "where to write the JSON result (default demo-result.json)" },
		{ OPT_BOOL, 'v', "verbose", &view.verbose, NULL, "the full view: the stopping rule, every table, each warning with its figures" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};
	struct demo_run *dr = xcalloc(1, sizeof(*dr));
	struct error err;
	char *synth = NULL;
	int next, r;

	demo_defaults(&d);
	error_clear(&err);
	r = cli_parse(argc, argv, opts, "pmustat demo [options]", 0, &next, &help);
	if (r) {
		free(dr);
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	}
	synth = selfpath_find("PMUSTAT_R1CS", "r1cs-synth", X_OK);
	if (!synth) {
		error_set(&err, ERR_RUNTIME, "cannot find the demo workload 'r1cs-synth'");
		error_hint(&err, "build it with 'make', or set PMUSTAT_R1CS to its path");
		r = cli_error(&err);
	} else if (demo_plan(dr, &d, synth, &err)) {
		r = cli_error(&err);
	} else {
		printf("pmustat demo: R1CS constraint synthesis (workloads/r1cs), LinearCombination "
		       "storage variants %s\n", d.variants);
		fflush(stdout);
		view.work_per_run = demo_count_rows(dr);
		r = compare_run(&dr->co, &view, 0);
		if (r == PMU_EXIT_OK || r == PMU_EXIT_INTERRUPTED)
			printf("\nresult written to %s (re-render: pmustat report %s --html demo.html)\n",
			       d.out, d.out);
	}
	demo_run_release(dr);
	free(dr);
	free(synth);
	return r;
}
