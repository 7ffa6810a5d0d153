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
#include "campaign/target.h"
#include "report/perfrows.h"
#include "report/table.h"

static const char stat_usage[] = "pmustat stat [options] [--] command [args...]\n"
				 "   or: pmustat stat -p PID[,PID] | -t TID | -a [-C CPUS] [options] [-- command]";

/* perf stat's habits: what to count besides a command, and how to print. */
struct perf_habits {
	const char *pids, *tids, *cpus, *sep;
	int all_cpus;
	struct campaign *c;	/* for the interval rows, while it runs */
	size_t printed;		/* runs whose interval rows are out */
	int quiet;
	struct table_opts view;	/* -v */
};

/* -x SEP without intervals: perf's separated rows replace the table. The
 * renderer has no data pointer, hence the file's one static. */
static const char *sep_rows;

static void render_sep(const struct analysed *a, const struct table_opts *o, struct strbuf *out)
{
	(void)o;
	report_sep_rows(a->r, sep_rows, out);
}

/* -I: each finished interval's rows as it ends, like perf stat -I. */
static void interval_rows(const struct campaign_progress *p, void *data)
{
	struct perf_habits *h = data;
	const struct result *r = &h->c->res;
	struct strbuf sb = STRBUF_INIT;
	FILE *f = campaign_json_to_stdout(h->c) ? stderr : stdout;

	(void)p;
	for (; h->printed < r->nruns; h->printed++)
		report_interval_rows(r, h->printed, h->sep, h->printed == 0, &sb);
	if (!h->quiet)
		fputs(sb.buf ? sb.buf : "", f);
	fflush(f);
	strbuf_release(&sb);
}

static int stat_campaign(struct campaign_opts *o, const struct variant_args *va, char *const *argv,
			 struct perf_habits *h)
{
	struct campaign c;
	struct analysed an = { 0 };
	struct error err;
	campaign_renderer render = report_stat_table;
	int rc;

	error_clear(&err);
	h->c = &c;
	if (o->target.interval_ms) {
		o->progress = interval_rows;
		o->progress_data = h;
	}
	if (campaign_init(&c, o, "stat", &err)) {
		campaign_release(&c);
		return cli_error(&err);
	}
	/* One variant, or one per parameter value (--parameter-list); an
	 * attached session without a command: one variant of no command. */
	for (size_t v = 0; v < va->n; v++)
		campaign_add_variant(&c, va->names[v] ? va->names[v] : "A", va->argv[v]);
	if (!va->n)
		campaign_add_variant(&c, "A", argv);
	if (h->sep && !o->target.interval_ms) {
		sep_rows = h->sep;
		render = render_sep;
	}
	/* -I -x: the rows were the output; -I alone: the summary follows. */
	rc = campaign_prepare(&c, &err) ? cli_error(&err)
					: cli_campaign_conclude(&c, render, &h->view, h->quiet ||
								(h->sep && o->target.interval_ms),
								&an);
	analysed_release(&an);
	campaign_release(&c);
	return rc;
}

static int usage_error(const char *msg, const char *hint)
{
	fprintf(stderr, "error: %s\nhint: %s\n", msg, hint);
	return PMU_EXIT_USAGE;
}

/* The target options into o->target; a usage error's exit code, or 0. */
static int apply_habits(struct campaign_opts *o, struct perf_habits *h, int have_cmd,
			int repeat_given)
{
	int kinds = !!h->pids + !!h->tids + (h->all_cpus || h->cpus);

	if (kinds > 1)
		return usage_error("-p, -t and -a/-C count different things: give one of them",
				   "attach to processes (-p), threads (-t), or all CPUs (-a)");
	o->target.kind = h->pids ? TARGET_PIDS : h->tids ? TARGET_TIDS
			 : kinds ? TARGET_SYSTEM : TARGET_COMMAND;
	o->target.ids = h->pids ? h->pids : h->tids;
	o->target.cpus = h->cpus;
	if (o->target.interval_ms && o->target.interval_ms < 10)
		/* perf stat refused < 10 ms until 4.x; 6.1 takes 1 ms, but rows
		 * that short mostly time pmustat's own reading and recording. */
		return usage_error("print interval must be >= 10 ms (-I)",
				   "give -I 10 or more, e.g. -I 1000");
	if (h->sep && o->json_path && strcmp(o->json_path, "-"))
		return usage_error("-o writes pmustat's JSON result, not perf's -x rows",
				   "send the rows to a file with 'pmustat stat -x, ... > FILE', "
				   "or drop -x to write the JSON");
	if (h->sep && !*h->sep)
		return usage_error("-x needs a separator, e.g. -x ,", "give one character: -x ,");
	if (o->target.per_thread && !h->pids && !h->tids)
		return usage_error("--per-thread needs -p or -t",
				   "attach to the process: 'pmustat stat -p PID --per-thread'");
	if (!kinds && o->target.duration_s > 0)
		return usage_error("--duration bounds counting with -p, -t or -a",
				   "with a command use --max-time, or attach with -p/-t/-a");
	if (campaign_target_session(o) && (repeat_given || o->warmup))
		return usage_error("-r and --warmup repeat a command; an attached session is "
				   "counted once", "print intervals with -I MS instead");
	if (!kinds && !have_cmd)
		return usage_error("no command to measure",
				   "give one after the options, e.g. 'pmustat stat -r 10 -- ls', "
				   "or attach with -p PID, -t TID or -a");
	return 0;
}

int cmd_stat(int argc, const char **argv)
{
	struct campaign_opts o = { 0 };
	struct measure_args ma;
	struct perf_habits h = { 0 };
	char *const no_command[] = { NULL };
	struct option opts[88] = {
		{ OPT_UINT, 'r', "repeat", &o.stop.max_blocks, "n", "measured runs (default 10)", 1, 1e6 },
		{ OPT_STRING, 'p', "pid", &h.pids, "pids", "count these running processes (and their threads)" },
		{ OPT_STRING, 't', "tid", &h.tids, "tids", "count these running threads" },
		{ OPT_BOOL, 'a', "all-cpus", &h.all_cpus, NULL, "count every task on every CPU (system-wide)" },
		{ OPT_STRING, 'C', "cpu", &h.cpus, "cpus", "system-wide on these CPUs only, e.g. 0-3,8" },
		{ OPT_DOUBLE, 0, "duration", &o.target.duration_s, "s", "with -p/-t/-a: stop counting after s seconds", 0.001, 1e7 },
		{ OPT_UINT, 'I', "interval-print", &o.target.interval_ms, "ms", "one run per interval of ms, rows printed as they end", 1, 1e8 },
		{ OPT_STRING, 'x', "field-separator", &h.sep, "sep", "perf stat's separated rows instead of the table" },
		{ OPT_BOOL, 0, "per-thread", &o.target.per_thread, NULL, "with -p/-t: each thread's counts too, as NAME[TID]" },
	};
	struct error err;
	int next, r, repeat_given;

	measure_args_init(&ma, &o);
	measure_options(opts + 9, 78, &ma, MEASURE_STAT);
	r = cli_parse(argc, argv, opts, stat_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &ma.help);
	if (r) {
		measure_args_release(&ma);
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	}
	repeat_given = o.stop.max_blocks != 0;
	if (!o.stop.max_blocks)
		o.stop.max_blocks = campaign_target_session(&o) ? 1 : 10;
	o.stop.kind = STOP_FIXED;
	if ((r = apply_habits(&o, &h, next < argc, repeat_given))) {
		measure_args_release(&ma);
		return r;
	}
	if (campaign_target_session(&o))
		o.stop.max_blocks = 1;
	error_clear(&err);
	if (next < argc && (variant_add(&ma.va, NULL, argv + next, (size_t)(argc - next), 0, &err) ||
			    variants_build(&ma.va, &err))) {
		measure_args_release(&ma);
		return cli_error(&err);
	}
	measure_args_apply(&ma);
	h.quiet = ma.quiet;
	h.view.verbose = ma.verbose;
	if (!campaign_target_session(&o))
		cli_campaign_progress(&o, ma.quiet);
	r = stat_campaign(&o, &ma.va, next < argc ? (char *const *)(argv + next) : no_command, &h);
	measure_args_release(&ma);
	return r;
}
