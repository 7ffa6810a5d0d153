/*
 * pmustat compare: interleaved, randomized A/B(/C...) runs with a verdict per
 * metric. Variants are separated by "--"; "-n NAME" right before a "--"
 * names the variant that follows it. The campaign stops when the primary
 * metric's verdict is settled or precise enough (the sequential rule,
 * docs/verdicts.md), by the precision rule alone with --target-ci, after
 * --blocks, or when the time budget is spent; never on a p-value.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "cli/measure.h"
#include "cli/options.h"
#include "core/printable.h"
#include "core/strlist.h"
#include "core/suggest.h"
#include "report/compare_table.h"
#include "report/comparison.h"

static const char compare_usage[] =
	"pmustat compare [options] [-n NAME] -- CMD_A [ARG...] [-n NAME] -- CMD_B [ARG...] ...";

static int opt_name(const struct option *opt, const char *arg, struct error *err)
{
	struct compare_opts *co = opt->cb_data;

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

static int add_variant(struct compare_opts *co, struct variant_args *va, const char **seg,
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
static int split_strings(struct compare_opts *co, struct variant_args *va, int argc,
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
static int split_variants(struct compare_opts *co, struct variant_args *va, int argc,
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
static int build_variants(struct compare_opts *co, struct variant_args *va, int argc,
			  const char **argv, int after_dashes, struct error *err)
{
	if ((after_dashes ? split_variants(co, va, argc, argv, err)
			  : split_strings(co, va, argc, argv, err)) ||
	    variants_build(va, err))
		return -1;
	for (size_t v = 0; v < va->n; v++) {
		co->names[v] = va->names[v];
		co->argv[v] = va->argv[v];
	}
	co->nvariants = va->n;
	return 0;
}

static int check_names(struct compare_opts *co, char defaults[][4], struct error *err)
{
	if (co->nvariants < 2) {
		error_set(err, ERR_USAGE, "compare needs at least two variants, got %zu",
			  co->nvariants);
		return error_hint(err, "separate the commands with '--': pmustat compare -- "
				       "./old -- ./new");
	}
	for (size_t i = 0; i < co->nvariants; i++) {
		if (!co->names[i]) {
			snprintf(defaults[i], 4, "%c", (char)('A' + i % 26));
			co->names[i] = defaults[i];
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(co->names[i], co->names[j])) {
				error_set(err, ERR_USAGE, "variant name '%s' is used twice",
					  co->names[i]);
				return error_hint(err, "give each variant its own -n NAME");
			}
	}
	return 0;
}

static int find_baseline(const struct compare_opts *co, struct error *err)
{
	const char *best;

	if (!co->baseline)
		return 0;
	for (size_t i = 0; i < co->nvariants; i++)
		if (!strcmp(co->names[i], co->baseline))
			return (int)i;
	error_set(err, ERR_USAGE, "no variant is named '%s'", co->baseline);
	best = suggest_best(co->baseline, co->names, co->nvariants);
	if (best)
		return error_hint(err, "did you mean '--baseline %s'?", best);
	return error_hint(err, "name variants with -n NAME before each '--'");
}

/* --fail-on-regression: exit 3 when a listed metric got worse in a variant. */
static int regressions(const struct result *r, const char *list)
{
	struct strbuf pm = STRBUF_INIT, pv = STRBUF_INIT;
	struct comparison_set s;
	int found = 0;

	comparisons_compute(r, &s);
	for (size_t i = 0; i < s.n; i++) {
		const struct comparison *c = &s.c[i];
		const char *name = r->metrics[c->metric].name;

		if (!strlist_has(list, name) || c->verdict != STATS_SLOWER)
			continue;
		fprintf(stderr, "regression: %s of '%s' is %.4fx the baseline's [%.4f, %.4f] "
			"(n %zu)\n", printable_in(&pm, name),
			printable_in(&pv, r->variants[c->variant].name), c->ratio, c->ci_lo,
			c->ci_hi, c->n);
		found = 1;
	}
	comparisons_release(&s);
	strbuf_release(&pm);
	strbuf_release(&pv);
	return found;
}

/* A metric --fail-on-regression may name: measured, and a question asked
 * (the primary metric or the family), since only those get a tested verdict. */
static int check_fail_metric(const struct campaign *c, const char *t, struct error *err)
{
	int m = result_metric_index(&c->res, t);
	const struct result_metric *rm = m >= 0 ? &c->res.metrics[m] : NULL;

	if (!rm) {
		error_set(err, ERR_USAGE, "--fail-on-regression names '%s', which is not measured",
			  t);
		return error_hint(err, "use metrics from -m/-e, e.g. --fail-on-regression "
				       "wall-time");
	}
	if ((rm->hidden || rm->implicit) && strcmp(t, c->res.primary)) {
		error_set(err, ERR_USAGE, "--fail-on-regression names '%s', which is measured "
			  "but not asked for, so it gets no tested verdict", t);
		return error_hint(err, "add it to -m (e.g. -m default,%s)", t);
	}
	return 0;
}

static int check_fail_list(const struct campaign *c, const char *list, struct error *err)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
		rc = check_fail_metric(c, t, err);
	free(copy);
	return rc;
}

/* A --primary the user named must be a metric this campaign measures (the
 * default, wall-time, may be missing: under --backend sim nothing runs
 * natively, and there is then no primary metric). */
static int check_primary(const struct campaign *c, struct error *err)
{
	int m = result_metric_index(&c->res, c->res.primary);

	if (m >= 0 && c->res.metrics[m].available)
		return 0;
	if (m < 0) {
		error_set(err, ERR_USAGE, "--primary names '%s', which is not measured",
			  c->res.primary);
		return error_hint(err, "add it to -m (e.g. -m wall-time,task-clock --primary "
				       "task-clock); 'pmustat list' shows the metrics");
	}
	error_set(err, ERR_USAGE, "--primary names '%s', which cannot be counted here",
		  c->res.primary);
	return error_hint(err, "'pmustat explain %s' says why; or follow another metric",
			  c->res.primary);
}

int compare_run(struct compare_opts *co)
{
	struct campaign c;
	struct error err;
	int rc, base;

	error_clear(&err);
	if (campaign_init(&c, &co->o, co->command ? co->command : "compare", &err))
		goto fail;
	for (size_t v = 0; v < co->nvariants; v++)
		campaign_add_variant(&c, co->names[v], co->argv[v]);
	base = find_baseline(co, &err);
	if (base < 0)
		goto fail;
	c.res.baseline = base;
	c.res.noise_band = co->noise_band / 100;
	c.res.primary = xstrdup(co->primary);
	c.res.decide = co->o.stop.kind == STOP_SEQUENTIAL;
	c.res.cs_rho = co->o.stop.min_blocks;
	c.res.min_blocks = co->o.stop.min_blocks;
	c.res.target = co->o.stop.kind == STOP_FIXED ? 0 : co->o.stop.target;
	if (campaign_prepare(&c, &err) || (co->primary_given && check_primary(&c, &err)) ||
	    (co->fail_on && check_fail_list(&c, co->fail_on, &err)))
		goto fail;
	rc = cli_campaign_conclude(&c, report_compare_table, co->quiet);
	if (rc == PMU_EXIT_OK && co->fail_on && regressions(&c.res, co->fail_on))
		rc = PMU_EXIT_REGRESSION;
	if ((rc == PMU_EXIT_OK || rc == PMU_EXIT_INTERRUPTED) && co->after)
		co->after(&c.res, co->after_data);
	campaign_release(&c);
	return rc;
fail:
	rc = cli_error(&err);
	campaign_release(&c);
	return rc;
}

void compare_defaults(struct compare_opts *co)
{
	memset(co, 0, sizeof(*co));
	co->min_blocks = 10;
	co->max_blocks = 200;
	co->target_ci = 1.0;
	co->noise_band = 100 * STATS_NOISE_BAND_DEFAULT;
	co->primary = "wall-time";
	co->o.max_time_s = 300;
	co->o.warmup = 1;
	co->o.pin_cpu = -1;
	co->o.env_pad_max = 4095;
}

uint64_t compare_random_seed(void)
{
	unsigned seed;

	return getrandom(&seed, sizeof(seed), 0) == sizeof(seed) ? seed : 0;
}

void compare_settle(struct compare_opts *co)
{
	struct campaign_opts *o = &co->o;

	o->shuffle = 1;
	o->equal_paths = 1;
	/* --target-ci alone asks for a width: the precision rule, which never
	 * looks at the effect. With --decide too, the sequential rule keeps it
	 * as its precision target. */
	o->stop.kind = co->blocks ? STOP_FIXED
		       : co->target_given && !co->decide ? STOP_PRECISION : STOP_SEQUENTIAL;
	o->stop.max_blocks = co->blocks ? co->blocks : co->max_blocks;
	o->stop.min_blocks = co->min_blocks > o->stop.max_blocks ? o->stop.max_blocks
								  : co->min_blocks;
	o->stop.target = co->target_ci / 100;
	if (co->blocks)
		snprintf(co->done, sizeof(co->done), "the %u blocks asked for ran", co->blocks);
	else if (o->stop.kind == STOP_PRECISION)
		snprintf(co->done, sizeof(co->done), "block limit of %u reached before the "
			 "target precision", o->stop.max_blocks);
	else
		snprintf(co->done, sizeof(co->done), "block limit of %u reached before the %s "
			 "verdict settled", o->stop.max_blocks, co->primary);
	o->done_reason = co->done;
	cli_campaign_progress(o, co->quiet);
}

int cmd_compare(int argc, const char **argv)
{
	struct compare_opts co;
	struct campaign_opts *o = &co.o;
	struct measure_args ma;
	char defaults[COMPARE_MAX_VARIANTS][4];
	unsigned envpad = 4095;
	int next, r;
	struct error err;
	struct option opts[80] = {
		{ OPT_CALLBACK, 'n', "name", NULL, "name", "name of the next variant", 0, 0, opt_name, &co },
		{ OPT_STRING, 0, "baseline", &co.baseline, "name", "variant the others are compared with (default: the first)" },
		{ OPT_UINT, 0, "blocks", &co.blocks, "n", "run exactly n blocks (no stopping rule)", 1, 1e6 },
		{ OPT_UINT, 0, "min-blocks", &co.min_blocks, "n", "blocks before the stopping rule may stop (default 10)", 2, 1e6 },
		{ OPT_UINT, 0, "max-blocks", &co.max_blocks, "n", "at most n blocks (default 200)", 2, 1e6 },
		{ OPT_STRING, 0, "primary", &co.primary, "metric", "the metric the stopping rule and the headline verdict follow (default wall-time)", .given = &co.primary_given },
		{ OPT_DOUBLE, 0, "target-ci", &co.target_ci, "pct", "stop only when the primary metric's CI half-width is below pct (default: the verdict or 1%)", 0.001, 100, .given = &co.target_given },
		{ OPT_BOOL, 0, "decide", &co.decide, NULL, "the sequential rule (the default), also with --target-ci" },
		{ OPT_DOUBLE, 0, "noise-band", &co.noise_band, "pct", "changes within ±pct are equivalent (default 1)", 0, 100 },
		{ OPT_UINT, 0, "env-pad", &envpad, "bytes", "largest environment padding per block (default 4095; 0 = off)", 0, 65536 },
		{ OPT_LIST, 0, "fail-on-regression", &co.fail_on, "list", "exit 3 if one of these metrics is SLOWER in a variant" },
	};

	compare_defaults(&co);
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
	    check_names(&co, defaults, &err)) {
		r = cli_error(&err);
		goto out;
	}
	measure_args_apply(&ma);
	if (!ma.seeded)
		o->seed = compare_random_seed();
	o->env_pad_max = envpad;
	co.quiet = ma.quiet;
	compare_settle(&co);
	r = compare_run(&co);
out:
	measure_args_release(&ma);
	free(co.fail_on);
	return r;
}
