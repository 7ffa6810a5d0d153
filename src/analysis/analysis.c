/*
 * Summaries and derived warnings. The warning texts say what was seen and
 * what to do, since "drift detected" alone leaves the user nowhere to go.
 */
#include "analysis/analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "core/strbuf.h"
#include "result/json.h"

/* Below this many runs "far from the median" says little: with 3 runs of
 * tick-granular times one run is always "far". */
#define OUTLIER_WARN_MIN_N 5

/* kind: what warnings of the same sort share (analysis.h lists them). */
static void add_warning(struct analysis *a, const char *kind, const char *metric,
			const char *hint, const char *text)
{
	struct result_note *n;

	ALLOC_GROW(a->warnings, a->nwarnings + 1, a->warnings_alloc);
	ALLOC_GROW(a->warn_kind, a->nwarnings + 1, a->warn_kind_alloc);
	a->warn_kind[a->nwarnings] = kind;
	n = &a->warnings[a->nwarnings++];
	n->level = NOTE_WARNING;
	n->metric = xstrdup(metric);
	n->text = xstrdup(text);
	n->hint = hint ? xstrdup(hint) : NULL;
}

static void count_excluded(const struct result *r, struct metric_summary *ms)
{
	for (size_t i = 0; i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];
		const struct result_value *v = &run->values[ms->metric];

		if (run->warmup || (int)ms->variant != run->variant)
			continue;
		if (run->status != RUN_OK && run->status != RUN_FAILED)
			continue;
		if (!v->valid)
			ms->n_missing++;
		else if (result_value_multiplexed(r, ms->metric, v))
			ms->n_multiplexed++;
	}
}

/* A hardware counter (not a software event) that read 0 in every run. */
static int counted_zero(const struct result *r, const struct metric_summary *ms)
{
	const struct result_metric *m = &r->metrics[ms->metric];

	return m->source == MSRC_PERF && m->type != PERF_TYPE_SOFTWARE &&
	       m->type != PERF_TYPE_TRACEPOINT && ms->s.n > 0 && ms->s.max == 0;
}

static void warn_for(struct analysis *a, const struct result *r, struct metric_summary *ms)
{
	struct strbuf label = STRBUF_INIT, sb = STRBUF_INIT;
	const char *name;

	/* With several variants a warning must say whose runs it is about. */
	if (r->nvariants > 1)
		strbuf_addf(&label, "%s (%s)", r->metrics[ms->metric].name,
			    r->variants[ms->variant].name);
	else
		strbuf_adds(&label, r->metrics[ms->metric].name);
	name = label.buf;
	ms->warn_first = a->nwarnings;
	/* The host's conditions are context, not a measurement to warn about. */
	if (r->metrics[ms->metric].source == MSRC_HOST)
		goto out;

	/* A slow first run is a warm-up effect on time; on counts it is noise. */
	if (ms->s.slow_first_run && !strcmp(r->metrics[ms->metric].unit, "ns"))
		add_warning(a, "cold-start", name,
			    "use --warmup 1 (or more) to run and discard warm-up runs",
			    "the first run was slower than all others (above their upper "
			    "Tukey fence): a cold start");
	if (ms->s.drift) {
		strbuf_addf(&sb, "values drift with run order (Spearman rho %.2f, p %.3g): "
			    "the runs are not interchangeable", ms->s.drift_rho, ms->s.drift_p);
		add_warning(a, "drift", name, "look for thermal or frequency changes, background "
			    "load, or state the program leaves behind", sb.buf);
		strbuf_reset(&sb);
	}
	/* With MAD 0 (most runs identical, typical of small counts) any
	 * difference is "infinitely" far: not worth a warning. */
	if (ms->s.outlier_warning && isfinite(ms->s.max_modified_z) &&
	    ms->s.n >= OUTLIER_WARN_MIN_N) {
		strbuf_addf(&sb, "a run lies %.1f robust deviations (MAD) from the median; "
			    "%zu mild and %zu extreme outliers kept", ms->s.max_modified_z,
			    ms->s.outliers_mild, ms->s.outliers_extreme);
		add_warning(a, "outliers", name, "check for interference (other load, swapping); "
				     "outliers are never dropped", sb.buf);
		strbuf_reset(&sb);
	}
	if (counted_zero(r, ms)) {
		strbuf_addf(&sb, "counted 0 in every run: this PMU may not implement it (an "
			    "event number the PMU does not implement can open and count nothing)");
		add_warning(a, "counted-zero", name, "'pmustat list' and the PMU's sysfs events/ "
			    "say which events it implements", sb.buf);
		strbuf_reset(&sb);
	}
	if (ms->zero_denominator) {
		strbuf_addf(&sb, "undefined in every run: its denominator '%s' counted 0 "
			    "(both inputs were counted in the same runs)",
			    ms->zero_denominator);
		add_warning(a, "zero-denominator", name, "see the note on the denominator", sb.buf);
		strbuf_reset(&sb);
	}
	if (ms->has_cross) {
		strbuf_addf(&sb, "its inputs were never counted in the same run (different "
			    "counter groups): ratio of their means across runs, se = "
			    "R*sqrt(cY+cX), df %.1f", ms->cross.df);
		add_warning(a, "cross-group", name,
			    "count fewer events, so that both fit in one group",
			    sb.buf);
		strbuf_reset(&sb);
	}
	if (ms->n_multiplexed) {
		strbuf_addf(&sb, "%zu run%s left out: the counter was not scheduled for the "
			    "whole run (multiplexed)", ms->n_multiplexed,
			    ms->n_multiplexed == 1 ? "" : "s");
		add_warning(a, "multiplexed", name, "count fewer events at once, or free counters "
				     "('sysctl kernel.nmi_watchdog=0')", sb.buf);
	}
out:
	ms->warn_count = a->nwarnings - ms->warn_first;
	strbuf_release(&sb);
	strbuf_release(&label);
}

struct factor_ctx {
	const char *num, *den;
	double num_value;
};

static int unit_inputs(void *ctx, const char *name, double *v)
{
	const struct factor_ctx *f = ctx;

	if (strcmp(name, f->num) && strcmp(name, f->den))
		return -1;
	*v = strcmp(name, f->num) ? 1 : f->num_value;
	return 0;
}

/*
 * Is formula "K * a / b" (or "a / b")? Then *num, *den are the input metrics
 * and *k the constant: the formula at a = b = 1, checked again at a = 2 so
 * that only a ratio linear in a qualifies.
 */
int analysis_ratio_shape(const struct result *r, const char *formula, int *num, int *den,
			 double *k)
{
	char **names = NULL;
	size_t n = 0;
	struct factor_ctx f;
	int ok = 0;

	if (!formula || formula_names(formula, &names, &n, NULL) || n != 2)
		goto out;
	/* Division order: the name after the last '/' is the denominator. */
	f.den = strstr(formula, names[1]) > strrchr(formula, '/') ? names[1] : names[0];
	f.num = f.den == names[0] ? names[1] : names[0];
	*num = result_metric_index(r, f.num);
	*den = result_metric_index(r, f.den);
	f.num_value = 1;
	ok = *num >= 0 && *den >= 0 && strrchr(formula, '/') &&
	     formula_eval(formula, unit_inputs, &f, k, NULL) == 0 && isfinite(*k);
	if (ok) {
		double k2;

		f.num_value = 2;
		ok = formula_eval(formula, unit_inputs, &f, &k2, NULL) == 0 &&
		     fabs(k2 - 2 * *k) <= 1e-12 * fabs(*k);
	}
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok;
}

/* Was run i of variant v counted with both metrics a and b? */
static int counted_together(const struct result *r, size_t v, int a, int b)
{
	for (size_t i = 0; i < r->nruns; i++)
		if (r->runs[i].variant == (int)v && result_value_usable(r, &r->runs[i], (size_t)a) &&
		    result_value_usable(r, &r->runs[i], (size_t)b))
			return 1;
	return 0;
}

/* A ratio with no per-run value: its inputs were counted in different runs
 * (estimated across runs), or together with a denominator of 0 in every
 * run (undefined: said so, never called a cross-group ratio). */
static void cross_group_ratio(const struct result *r, struct metric_summary *ms)
{
	const struct result_metric *met = &r->metrics[ms->metric];
	double *y = NULL, *x = NULL, k;
	size_t ny, nx;
	int num, den;

	if (met->source != MSRC_FORMULA || ms->s.n ||
	    !analysis_ratio_shape(r, met->formula, &num, &den, &k))
		return;
	if (counted_together(r, ms->variant, num, den)) {
		ms->zero_denominator = r->metrics[den].name;
		return;
	}
	ny = result_collect(r, ms->variant, (size_t)num, &y);
	nx = result_collect(r, ms->variant, (size_t)den, &x);
	if (ny >= 2 && nx >= 2) {
		stats_ratio_cross(y, ny, x, nx, 0.95, &ms->cross, NULL);
		ms->cross.r *= k;
		ms->cross.se *= fabs(k);
		ms->cross.ci_lo *= k;
		ms->cross.ci_hi *= k;
		ms->has_cross = 1;
	}
	free(y);
	free(x);
}

void analysis_compute(const struct result *r, struct analysis *a)
{
	memset(a, 0, sizeof(*a));
	a->nvariants = r->nvariants;
	a->nmetrics = r->nmetrics;
	a->sum = xcalloc(r->nvariants * r->nmetrics + 1, sizeof(*a->sum));
	a->at = xmalloc((r->nvariants * r->nmetrics + 1) * sizeof(*a->at));
	for (size_t v = 0; v < r->nvariants; v++)
		for (size_t m = 0; m < r->nmetrics; m++) {
			struct metric_summary *ms;
			double *x;
			size_t n;

			a->at[v * r->nmetrics + m] = SIZE_MAX;
			if (!r->metrics[m].available || r->metrics[m].source == MSRC_PROFILE)
				continue;
			a->at[v * r->nmetrics + m] = a->nsum;
			ms = &a->sum[a->nsum++];
			ms->variant = v;
			ms->metric = m;
			n = result_collect(r, v, m, &x);
			/* Values are finite by construction (counts, clocks). */
			stats_summary_compute(x, n, &ms->s, NULL);
			free(x);
			cross_group_ratio(r, ms);
			count_excluded(r, ms);
			warn_for(a, r, ms);
		}
}

void analysis_release(struct analysis *a)
{
	for (size_t i = 0; i < a->nwarnings; i++) {
		free(a->warnings[i].metric);
		free(a->warnings[i].text);
		free(a->warnings[i].hint);
	}
	free(a->warnings);
	free(a->warn_kind);
	free(a->sum);
	free(a->at);
	memset(a, 0, sizeof(*a));
}

const struct metric_summary *analysis_find(const struct analysis *a, size_t variant,
					   size_t metric)
{
	size_t i;

	if (variant >= a->nvariants || metric >= a->nmetrics)
		return NULL;
	i = a->at[variant * a->nmetrics + metric];
	return i == SIZE_MAX ? NULL : &a->sum[i];
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *summary_json(const struct result *r, const struct analysis *a,
			    const struct metric_summary *ms)
{
	const struct stats_summary *s = &ms->s;
	json_t *w = json_array();
	json_t *o = json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "variant", report_json_text(r->variants[ms->variant].name),
			      "metric", report_json_text(r->metrics[ms->metric].name),
			      "n", (json_int_t)s->n,
			      "mean", num(s->mean), "sd", num(s->sd), "cv", num(s->cv),
			      "min", num(s->min), "max", num(s->max), "median", num(s->median),
			      "q1", num(s->q1), "q3", num(s->q3), "mad", num(s->mad),
			      "mad_raw", num(s->mad_raw));

	json_object_set_new(o, "mean_ci", json_pack("{s:f, s:o, s:o}", "level",
						     STATS_LEVEL_DEFAULT, "low", num(s->mean_ci_lo),
						     "high", num(s->mean_ci_hi)));
	json_object_set_new(o, "median_ci",
			    json_pack("{s:o, s:o, s:o}", "low", num(s->median_ci.lo), "high",
				      num(s->median_ci.hi), "coverage",
				      num(s->median_ci.coverage)));
	json_object_set_new(o, "outliers", json_pack("{s:I, s:I, s:o}", "mild",
						     (json_int_t)s->outliers_mild, "extreme",
						     (json_int_t)s->outliers_extreme,
						     "max_modified_z", num(s->max_modified_z)));
	json_object_set_new(o, "drift", json_pack("{s:o, s:o, s:b}", "rho", num(s->drift_rho),
						  "p", num(s->drift_p), "flag", s->drift));
	json_object_set_new(o, "slow_first_run", json_boolean(s->slow_first_run));
	json_object_set_new(o, "multiplexed_runs_left_out", json_integer((json_int_t)ms->n_multiplexed));
	json_object_set_new(o, "unit", report_json_text(r->metrics[ms->metric].unit));
	if (ms->has_cross)
		json_object_set_new(o, "cross_group_ratio",
				    json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:I}", "ratio",
					      num(ms->cross.r), "se", num(ms->cross.se), "df",
					      num(ms->cross.df), "ci_low", num(ms->cross.ci_lo),
					      "ci_high", num(ms->cross.ci_hi), "n_numerator",
					      (json_int_t)ms->cross.n_y, "n_denominator",
					      (json_int_t)ms->cross.n_x));
	for (size_t i = ms->warn_first; i < ms->warn_first + ms->warn_count; i++)
		json_array_append_new(w, report_json_text(a->warnings[i].text));
	json_object_set_new(o, "warnings", w);
	return o;
}

json_t *analysis_summaries_json(const struct result *r, const struct analysis *a)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < a->nsum; i++)
		json_array_append_new(arr, summary_json(r, a, &a->sum[i]));
	return arr;
}
