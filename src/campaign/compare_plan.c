/*
 * compare's plan: everything `pmustat compare` (and `demo`, which builds a
 * comparison directly) decides around the campaign, moved here from cli/ so
 * that the CLI parses and renders only. The stopping rule is chosen from the
 * options (--blocks: fixed; --target-ci alone: precision; otherwise the
 * sequential rule), the metrics the options name are checked once every
 * mechanism has planned (only a measured metric that was asked for gets a
 * tested verdict), and the regression verdict reads the comparisons of the
 * finished result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "campaign/compare_plan.h"
#include "core/printable.h"
#include "core/strlist.h"
#include "core/suggest.h"
#include "analysis/comparison.h"

void compare_defaults(struct compare_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->min_blocks = 10;
	p->max_blocks = 200;
	p->target_ci = 1.0;
	p->noise_band = 100 * STATS_NOISE_BAND_DEFAULT;
	p->primary = "wall-time";
	p->o.max_time_s = 300;
	p->o.warmup = 1;
	p->o.pin_cpu = -1;
	p->o.env_pad_max = 4095;
}

uint64_t compare_random_seed(void)
{
	unsigned seed;

	return getrandom(&seed, sizeof(seed), 0) == sizeof(seed) ? seed : 0;
}

int compare_name_variants(struct compare_plan *p, struct error *err)
{
	if (p->nvariants < 2) {
		error_set(err, ERR_USAGE, "compare needs at least two variants, got %zu",
			  p->nvariants);
		return error_hint(err, "separate the commands with '--': pmustat compare -- "
				       "./old -- ./new");
	}
	for (size_t i = 0; i < p->nvariants; i++) {
		if (!p->names[i]) {
			snprintf(p->letters[i], sizeof(p->letters[i]), "%c", (char)('A' + i % 26));
			p->names[i] = p->letters[i];
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->names[i], p->names[j])) {
				error_set(err, ERR_USAGE, "variant name '%s' is used twice",
					  p->names[i]);
				return error_hint(err, "give each variant its own -n NAME");
			}
	}
	return 0;
}

void compare_settle(struct compare_plan *p)
{
	struct campaign_opts *o = &p->o;

	o->shuffle = 1;
	o->equal_paths = 1;
	/* --target-ci alone asks for a width: the precision rule, which never
	 * looks at the effect. With --decide too, the sequential rule keeps it
	 * as its precision target. */
	o->stop.kind = p->blocks ? STOP_FIXED
		       : p->target_given && !p->decide ? STOP_PRECISION : STOP_SEQUENTIAL;
	o->stop.max_blocks = p->blocks ? p->blocks : p->max_blocks;
	o->stop.min_blocks = p->min_blocks > o->stop.max_blocks ? o->stop.max_blocks
								 : p->min_blocks;
	o->stop.target = p->target_ci / 100;
	if (p->blocks)
		snprintf(p->done, sizeof(p->done), "the %u blocks asked for ran", p->blocks);
	else if (o->stop.kind == STOP_PRECISION)
		snprintf(p->done, sizeof(p->done), "block limit of %u reached before the "
			 "target precision", o->stop.max_blocks);
	else
		snprintf(p->done, sizeof(p->done), "block limit of %u reached before the %s "
			 "verdict settled", o->stop.max_blocks, p->primary);
	o->done_reason = p->done;
}

static int find_baseline(const struct compare_plan *p, struct error *err)
{
	const char *best;

	if (!p->baseline)
		return 0;
	for (size_t i = 0; i < p->nvariants; i++)
		if (!strcmp(p->names[i], p->baseline))
			return (int)i;
	error_set(err, ERR_USAGE, "no variant is named '%s'", p->baseline);
	best = suggest_best(p->baseline, p->names, p->nvariants);
	if (best)
		return error_hint(err, "did you mean '--baseline %s'?", best);
	return error_hint(err, "name variants with -n NAME before each '--'");
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

int compare_prepare(struct campaign *c, struct compare_plan *p, struct error *err)
{
	int base;

	if (campaign_init(c, &p->o, p->command ? p->command : "compare", err))
		return -1;
	for (size_t v = 0; v < p->nvariants; v++)
		campaign_add_variant(c, p->names[v], p->argv[v]);
	base = find_baseline(p, err);
	if (base < 0)
		return -1;
	c->res.baseline = base;
	c->res.noise_band = p->noise_band / 100;
	c->res.primary = xstrdup(p->primary);
	c->res.decide = p->o.stop.kind == STOP_SEQUENTIAL;
	c->res.cs_rho = p->o.stop.min_blocks;
	c->res.min_blocks = p->o.stop.min_blocks;
	c->res.target = p->o.stop.kind == STOP_FIXED ? 0 : p->o.stop.target;
	if (campaign_prepare(c, err) || (p->primary_given && check_primary(c, err)) ||
	    (p->fail_on && check_fail_list(c, p->fail_on, err)))
		return -1;
	return 0;
}

int compare_regressions(const struct result *r, const struct comparison_set *s, const char *list,
			struct strbuf *out)
{
	struct strbuf pm = STRBUF_INIT, pv = STRBUF_INIT;
	int found = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct comparison *c = &s->c[i];
		const char *name = r->metrics[c->metric].name;

		if (!strlist_has(list, name) || c->verdict != STATS_SLOWER)
			continue;
		strbuf_addf(out, "regression: %s of '%s' is %.4fx the baseline's [%.4f, %.4f] "
			    "(n %zu)\n", printable_in(&pm, name),
			    printable_in(&pv, r->variants[c->variant].name), c->ratio, c->ci_lo,
			    c->ci_hi, c->n);
		found = 1;
	}
	strbuf_release(&pm);
	strbuf_release(&pv);
	return found;
}
