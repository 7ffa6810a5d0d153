/*
 * pmustat compare: interleaved, randomized A/B(/C...) runs with a verdict per
 * metric. Variants are separated by "--"; "-n NAME" right before a "--"
 * names the variant that follows it. The campaign stops when the primary
 * metric's verdict is settled or precise enough (the sequential rule,
 * docs/verdicts.md), by the precision rule alone with --target-ci, after
 * --blocks, or when the time budget is spent; never on a p-value. This file
 * parses the command line and renders; the plan (defaults, the stopping
 * rule, the metric checks, the regression verdict) is the campaign's
 * (campaign/compare_plan.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "cli/measure.h"
#include "cli/options.h"
#include "report/compare_table.h"

static const char compare_usage[] =
	"pmustat compare [options] [-n NAME] -- CMD_A [ARG...] [-n NAME] -- CMD_B [ARG...] ...";

/* What compare's command line fills: the plan, and a "-n NAME" waiting for
 * the variant it names. */
struct compare_cmd {
	struct compare_plan p;
	const char *pending_name;
};

static int opt_name(const struct option *opt, const char *arg, struct error *err)
{
	struct compare_cmd *co = opt->cb_data;

	if (!*arg)
		return error_set(err, ERR_USAGE, "empty variant name given to -n");
	co->pending_name = arg;
	return 0;
}

/* Is a segment's tail "-n NAME" (naming the next variant)? */
static int tail_names_next(const char **seg, size_t len)
{
	return len >= 3 && (!strcmp(seg[len - 2], "-n") || !strcmp(seg[len - 2], "--name"));
}

static int add_variant(struct compare_cmd *co, struct variant_args *va, const char **seg,
		       size_t len, struct error *err)
{
	if (!len) {
		error_set(err, ERR_USAGE, "variant %zu has no command", va->nseg + 1);
		return error_hint(err, "write each variant as '-- CMD [ARG...]'");
	}
	if (variant_add(va, co->pending_name, seg, len, 0, err))
		return -1;
	co->pending_name = NULL;
	return 0;
}

/* hyperfine's form: "pmustat compare [-n A] 'CMD A' [-n B] 'CMD B'", each
 * argument one command string. */
static int split_strings(struct compare_cmd *co, struct variant_args *va, int argc,
			 const char **argv, struct error *err)
{
	for (int i = 0; i < argc; i++) {
		if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--name")) && i + 1 < argc) {
			co->pending_name = argv[++i];
			continue;
		}
		if (argv[i][0] == '-') {
			error_set(err, ERR_USAGE, "unexpected '%s' after the command '%s'", argv[i],
				  argv[i - 1]);
			return error_hint(err, "options come first; then either command strings "
					       "or '-- CMD [ARG...]' per variant");
		}
		if (variant_add(va, co->pending_name, argv + i, 1, 1, err))
			return -1;
		co->pending_name = NULL;
	}
	return 0;
}

/* Split "CMD_A ... [-n NAME] -- CMD_B ... " into variants. */
static int split_variants(struct compare_cmd *co, struct variant_args *va, int argc,
			  const char **argv, struct error *err)
{
	int start = 0;

	for (int i = 0; i <= argc; i++) {
		size_t len;

		if (i < argc && strcmp(argv[i], "--"))
			continue;
		len = (size_t)(i - start);
		if (i < argc && tail_names_next(argv + start, len)) {
			if (add_variant(co, va, argv + start, len - 2, err))
				return -1;
			co->pending_name = argv[i - 1];
		} else if (add_variant(co, va, argv + start, len, err)) {
			return -1;
		}
		start = i + 1;
	}
	return 0;
}

/* The commands as written, then expanded (parameters, --shell) into the
 * variants compare_run adds. */
static int build_variants(struct compare_cmd *co, struct variant_args *va, int argc,
			  const char **argv, int after_dashes, struct error *err)
{
	if ((after_dashes ? split_variants(co, va, argc, argv, err)
			  : split_strings(co, va, argc, argv, err)) ||
	    variants_build(va, err))
		return -1;
	for (size_t v = 0; v < va->n; v++) {
		co->p.names[v] = va->names[v];
		co->p.argv[v] = va->argv[v];
	}
	co->p.nvariants = va->n;
	return 0;
}

int compare_run(struct compare_plan *p, const struct table_opts *view, int quiet)
{
	struct strbuf regress = STRBUF_INIT;
	struct analysed an = { 0 };
	struct campaign c;
	struct error err;
	int rc;

	error_clear(&err);
	cli_campaign_progress(&p->o, quiet);
	if (compare_prepare(&c, p, &err)) {
		rc = cli_error(&err);
		campaign_release(&c);
		return rc;
	}
	rc = cli_campaign_conclude(&c, report_compare_table, view, quiet, &an);
	if (rc == PMU_EXIT_OK && p->fail_on &&
	    compare_regressions(&c.res, &an.cmp, p->fail_on, &regress))
		rc = PMU_EXIT_REGRESSION;
	if (regress.len)
		fputs(regress.buf, stderr);
	strbuf_release(&regress);
	analysed_release(&an);
	campaign_release(&c);
	return rc;
}

int cmd_compare(int argc, const char **argv)
{
	struct compare_cmd co;
	struct campaign_opts *o = &co.p.o;
	struct measure_args ma;
	unsigned envpad = 4095;
	int next, r;
	struct error err;
	struct option opts[80] = {
		{ OPT_CALLBACK, 'n', "name", NULL, "name", "name of the next variant", 0, 0, opt_name, &co },
		{ OPT_STRING, 0, "baseline", &co.p.baseline, "name", "variant the others are compared with (default: the first)" },
		{ OPT_UINT, 0, "blocks", &co.p.blocks, "n", "run exactly n blocks (no stopping rule)", 1, 1e6 },
		{ OPT_UINT, 0, "min-blocks", &co.p.min_blocks, "n", "blocks before the stopping rule may stop (default 10)", 2, 1e6 },
		{ OPT_UINT, 0, "max-blocks", &co.p.max_blocks, "n", "at most n blocks (default 200)", 2, 1e6 },
		{ OPT_STRING, 0, "primary", &co.p.primary, "metric", "the metric the stopping rule and the headline verdict follow (default wall-time)", .given = &co.p.primary_given },
		{ OPT_DOUBLE, 0, "target-ci", &co.p.target_ci, "pct", "stop only when the primary metric's CI half-width is below pct (default: the verdict or 1%)", 0.001, 100, .given = &co.p.target_given },
		{ OPT_BOOL, 0, "decide", &co.p.decide, NULL, "the sequential rule (the default), also with --target-ci" },
		{ OPT_DOUBLE, 0, "noise-band", &co.p.noise_band, "pct", "changes within ±pct are equivalent (default 1)", 0, 100 },
		{ OPT_UINT, 0, "env-pad", &envpad, "bytes", "largest environment padding per block (default 4095; 0 = off)", 0, 65536 },
		{ OPT_LIST, 0, "fail-on-regression", &co.p.fail_on, "list", "exit 3 if one of these metrics is SLOWER in a variant" },
	};

	memset(&co, 0, sizeof(co));
	compare_defaults(&co.p);
	measure_args_init(&ma, o);
	measure_options(opts + 11, 68, &ma, MEASURE_COMPARE);
	error_clear(&err);
	r = cli_parse(argc, argv, opts, compare_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next,
		      &ma.help);
	if (r) {
		r = r > 0 ? 0 : PMU_EXIT_USAGE;
		goto out;
	}
	if (next >= argc) {
		error_set(&err, ERR_USAGE, "no variants to compare");
		error_hint(&err, "pmustat compare -- ./old -- ./new");
		r = cli_error(&err);
		goto out;
	}
	if (build_variants(&co, &ma.va, argc - next, argv + next,
			   next > 0 && !strcmp(argv[next - 1], "--"), &err) ||
	    compare_name_variants(&co.p, &err)) {
		r = cli_error(&err);
		goto out;
	}
	measure_args_apply(&ma);
	if (!ma.seeded)
		o->seed = compare_random_seed();
	o->env_pad_max = envpad;
	compare_settle(&co.p);
	r = compare_run(&co.p, &(struct table_opts){ .verbose = ma.verbose }, ma.quiet);
out:
	measure_args_release(&ma);
	free(co.p.fail_on);
	return r;
}
