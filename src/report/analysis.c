/*
 * Summaries and derived warnings. The warning texts say what was seen and
 * what to do, since "drift detected" alone leaves the user nowhere to go.
 */
#include "report/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

/* Below this many runs "far from the median" says little: with 3 runs of
 * tick-granular times one run is always "far". */
#define OUTLIER_WARN_MIN_N 5

static void add_warning(struct analysis *a, const char *metric, const char *hint,
			const char *text)
{
	struct result_note *n;

	ALLOC_GROW(a->warnings, a->nwarnings + 1, a->warnings_alloc);
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
		else if (r->metrics[ms->metric].source == MSRC_PERF && v->running < v->enabled)
			ms->n_multiplexed++;
	}
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

	/* A slow first run is a warm-up effect on time; on counts it is noise. */
	if (ms->s.slow_first_run && !strcmp(r->metrics[ms->metric].unit, "ns"))
		add_warning(a, name, "use --warmup 1 (or more) to run and discard warm-up runs",
			    "the first run was slower than all others (above their upper "
			    "Tukey fence): a cold start");
	if (ms->s.drift) {
		strbuf_addf(&sb, "values drift with run order (Spearman rho %.2f, p %.3g): "
			    "the runs are not interchangeable", ms->s.drift_rho, ms->s.drift_p);
		add_warning(a, name, "look for thermal or frequency changes, background load, "
				     "or state the program leaves behind", sb.buf);
		strbuf_reset(&sb);
	}
	/* With MAD 0 (most runs identical, typical of small counts) any
	 * difference is "infinitely" far: not worth a warning. */
	if (ms->s.outlier_warning && isfinite(ms->s.max_modified_z) &&
	    ms->s.n >= OUTLIER_WARN_MIN_N) {
		strbuf_addf(&sb, "a run lies %.1f robust deviations (MAD) from the median; "
			    "%zu mild and %zu extreme outliers kept", ms->s.max_modified_z,
			    ms->s.outliers_mild, ms->s.outliers_extreme);
		add_warning(a, name, "check for interference (other load, swapping); "
				     "outliers are never dropped", sb.buf);
		strbuf_reset(&sb);
	}
	if (ms->n_multiplexed) {
		strbuf_addf(&sb, "%zu run%s left out: the counter was not scheduled for the "
			    "whole run (multiplexed)", ms->n_multiplexed,
			    ms->n_multiplexed == 1 ? "" : "s");
		add_warning(a, name, "count fewer events at once, or free counters "
				     "('sysctl kernel.nmi_watchdog=0')", sb.buf);
	}
	ms->warn_count = a->nwarnings - ms->warn_first;
	strbuf_release(&sb);
	strbuf_release(&label);
}

void analysis_compute(const struct result *r, struct analysis *a)
{
	memset(a, 0, sizeof(*a));
	a->sum = xcalloc(r->nvariants * r->nmetrics + 1, sizeof(*a->sum));
	for (size_t v = 0; v < r->nvariants; v++)
		for (size_t m = 0; m < r->nmetrics; m++) {
			struct metric_summary *ms;
			double *x;
			size_t n;

			if (!r->metrics[m].available)
				continue;
			ms = &a->sum[a->nsum++];
			ms->variant = v;
			ms->metric = m;
			n = result_collect(r, v, m, &x);
			/* Values are finite by construction (counts, clocks). */
			stats_summary_compute(x, n, &ms->s, NULL);
			free(x);
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
	free(a->sum);
	memset(a, 0, sizeof(*a));
}

const struct metric_summary *analysis_find(const struct analysis *a, size_t variant,
					   size_t metric)
{
	for (size_t i = 0; i < a->nsum; i++)
		if (a->sum[i].variant == variant && a->sum[i].metric == metric)
			return &a->sum[i];
	return NULL;
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
	json_t *o = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "variant", r->variants[ms->variant].name,
			      "metric", r->metrics[ms->metric].name, "n", (json_int_t)s->n,
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
	json_object_set_new(o, "unit", json_string(r->metrics[ms->metric].unit));
	for (size_t i = ms->warn_first; i < ms->warn_first + ms->warn_count; i++)
		json_array_append_new(w, json_string(a->warnings[i].text));
	json_object_set_new(o, "warnings", w);
	return o;
}

json_t *analysis_summaries_json(const struct result *r)
{
	struct analysis a;
	json_t *arr = json_array();

	analysis_compute(r, &a);
	for (size_t i = 0; i < a.nsum; i++)
		json_array_append_new(arr, summary_json(r, &a, &a.sum[i]));
	analysis_release(&a);
	return arr;
}
