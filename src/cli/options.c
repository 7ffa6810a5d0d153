/*
 * The option rows stat and compare share. Where the two differ it is only
 * in the words of the help (a run of stat is a block of compare), so each
 * row is declared once with both texts.
 */
#include "cli/options.h"

#include <stdlib.h>
#include <string.h>

struct row_words {
	const char *stat, *compare;
};

static const struct row_words warmup_help = { "runs to discard first (default 0)",
					       "warm-up blocks to discard (default 1)" };
static const struct row_words max_time_help = {
	"time budget of the runs, simulated ones included (default: none)",
	"time budget of the campaign, simulated runs included (default 300)" };
static const struct row_words failure_help = { "keep going when the command fails",
						"drop blocks where a variant fails instead of stopping" };
static const struct row_words seed_help = { "random seed (recorded in the result)",
					     "random seed of the schedule (default: random, printed)" };

static const char *words(const struct row_words *w, enum measure_cmd cmd)
{
	return cmd == MEASURE_STAT ? w->stat : w->compare;
}

size_t measure_options(struct option *rows, size_t max, struct measure_args *a,
		       enum measure_cmd cmd)
{
	struct campaign_opts *o = a->o;
	const struct option all[] = {
		{ OPT_LIST, 'm', "metrics", &a->metrics, "list", "portable metrics or presets (default)" },
		{ OPT_LIST, 'e', "events", &a->events, "list", "native events to count (pmustat list --events)" },
		{ OPT_UINT, 0, "warmup", &o->warmup, "n", words(&warmup_help, cmd), 0, 1e6 },
		{ OPT_DOUBLE, 0, "max-time", &o->max_time_s, "s", words(&max_time_help, cmd), 0.001, 1e7 },
		{ OPT_DOUBLE, 0, "timeout", &o->timeout_s, "s", "kill a run after s seconds", 0.001, 1e7 },
		{ OPT_BOOL, 'i', "ignore-failure", &o->ignore_failure, NULL, words(&failure_help, cmd) },
		{ OPT_BOOL, 0, "show-output", &o->show_output, NULL, "let the measured commands' stdout/stderr through" },
		{ OPT_BOOL, 0, "keep-children", &o->keep_children, NULL, "let processes a run leaves behind live on (default: killed, and noted)" },
		{ OPT_STRING, 'o', "output", &o->json_path, "file", "write the result as JSON ('-' = stdout)" },
		{ OPT_STRING, 0, "csv", &o->csv_path, "file", "write every run's raw values as CSV" },
		{ OPT_UINT, 0, "pin", &a->pin, "cpu", "run the measured commands on this CPU only" },
		{ OPT_UINT, 0, "seed", &a->seed, "n", words(&seed_help, cmd), .given = &a->seeded },
		{ OPT_STRING, 0, "backend", &o->backend, "mode", "auto (default), hw, sim or sw: who serves hardware metrics" },
	};
	/* The mechanisms' own rows go here (campaign_mechanism_options). */
	const struct option tail[] = {
		{ OPT_STRING, 0, "uarch", &o->uarch, "name", "microarchitecture to resolve metrics for (default: this host's)" },
		{ OPT_BOOL, 0, "dry-run", &o->dry_run, NULL, "print the counters' perf_event_attr per group, run nothing" },
		{ OPT_CALLBACK, 'S', "shell", NULL, "shell", "run the commands as 'shell -c STRING' (its start-up is measured too; default: no shell)", 0, 0, variant_opt_shell, &a->va },
		{ OPT_BOOL, 'N', "no-shell", &a->va.split, NULL, "split command strings into words and run them without a shell (hyperfine's -N)" },
		{ OPT_CALLBACK, 0, "setup", NULL, "cmd", "run cmd once per variant before the first block, not measured", 0, 0, variant_opt_hook, &a->va.rows[HOOK_SETUP] },
		{ OPT_CALLBACK, 0, "prepare", NULL, "cmd", "run cmd before every run, not measured (no shell unless --shell)", 0, 0, variant_opt_hook, &a->va.rows[HOOK_PREPARE] },
		{ OPT_CALLBACK, 0, "conclude", NULL, "cmd", "run cmd after every run, not measured", 0, 0, variant_opt_hook, &a->va.rows[HOOK_CONCLUDE] },
		{ OPT_CALLBACK, 0, "cleanup", NULL, "cmd", "run cmd once per variant after the last block", 0, 0, variant_opt_hook, &a->va.rows[HOOK_CLEANUP] },
		{ OPT_CALLBACK, 0, "parameter-scan", NULL, "name min max", "one variant per value min, min+d, ..., max of {name} in the command", 0, 0, variant_opt_scan, &a->va, .nargs = 3 },
		{ OPT_DOUBLE, 0, "parameter-step-size", &a->va.step, "d", "the step d of --parameter-scan (default 1)", 1e-12, 1e12, .given = &a->va.step_given },
		{ OPT_CALLBACK, 0, "parameter-list", NULL, "name a,b,c", "one variant per value of {name} in the command", 0, 0, variant_opt_list, &a->va, .nargs = 2 },
		{ OPT_STRING, 0, "input", &o->input, "file", "every run reads this file as stdin (default /dev/null)" },
		{ OPT_STRING, 0, "export-json", &o->json_path, "file", "the same as -o/--output" },
		{ OPT_STRING, 0, "export-csv", &o->csv_path, "file", "the same as --csv" },
		{ OPT_STRING, 0, "export-markdown", &o->markdown_path, "file", "write the result's table as markdown" },
		{ OPT_BOOL, 'q', "quiet", &a->quiet, NULL, "no table" },
		{ OPT_BOOL, 'v', "verbose", &a->verbose, NULL, "the full view: the stopping rule, every table, each warning with its figures" },
		{ OPT_BOOL, 'h', "help", &a->help, NULL, "show this help" },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]) && n < max; i++)
		rows[n++] = all[i];
	n += campaign_mechanism_options(o, rows + n, max - n);
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]) && n < max; i++)
		rows[n++] = tail[i];
	return n;
}

void measure_args_init(struct measure_args *a, struct campaign_opts *o)
{
	*a = (struct measure_args){ .o = o, .pin = (unsigned)-1 };
	variant_args_init(&a->va);
}

void measure_args_apply(struct measure_args *a)
{
	a->o->events = a->events;
	a->o->metrics = a->metrics;
	a->o->seed = a->seed;
	a->o->pin_cpu = (int)a->pin;
	variants_apply(&a->va, a->o);
}

void measure_args_release(struct measure_args *a)
{
	free(a->events);
	free(a->metrics);
	a->events = a->metrics = NULL;
	variant_args_release(&a->va);
}
