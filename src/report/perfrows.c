/*
 * perf stat's -I and -x rows (see perfrows.h). Values are printed in the
 * metric's own unit ("ns" for task-clock, where perf prints msec), with its
 * scale applied, so a row reads the same as pmustat's JSON. Metrics that
 * are hidden inputs or unavailable have no rows; a value a run did not
 * measure prints perf's "<not counted>".
 */
#include "report/perfrows.h"

#include "core/printable.h"

#include <math.h>
#include <string.h>

static int shown(const struct result_metric *m)
{
	/* wall-time is the interval itself: the time stamp column says it. */
	return strcmp(m->name, "wall-time") && m->available && !m->hidden && m->source != MSRC_PROFILE &&
	       m->source != MSRC_HOST;
}

static double scaled(const struct result_metric *m, const struct result_value *v)
{
	return v->value * (m->source == MSRC_PERF && m->scale > 0 ? m->scale : 1.0);
}

/* Seconds from the start of counting to the end of interval i: intervals
 * follow each other without gaps (each is the time between two reads of
 * the same counters), so their wall times add up. */
static double stamp(const struct result *r, size_t i)
{
	int w = result_metric_index(r, "wall-time");
	double t = 0;

	for (size_t k = 0; w >= 0 && k <= i; k++)
		if (r->runs[k].values[w].valid)
			t += r->runs[k].values[w].value / 1e9;
	return t;
}

static void number(struct strbuf *out, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		strbuf_addf(out, "%.0f", v);
	else
		strbuf_addf(out, "%.2f", v);
}

static void times(struct strbuf *out, const char *sep, const struct result_metric *m,
		  const struct result_value *v)
{
	if (m->source == MSRC_PERF && v->enabled)
		strbuf_addf(out, "%s%llu%s%.2f", sep, (unsigned long long)v->running, sep,
			    100.0 * (double)v->running / (double)v->enabled);
	else
		strbuf_addf(out, "%s%s", sep, sep);
}

void report_interval_rows(const struct result *r, size_t run, const char *sep, int header,
			  struct strbuf *out)
{
	const struct result_run *rr = &r->runs[run];
	double ts = stamp(r, run);

	if (header && !sep)
		strbuf_adds(out, "#           time             counts unit events\n");
	for (size_t m = 0; m < r->nmetrics; m++) {
		const struct result_metric *met = &r->metrics[m];
		const struct result_value *v = &rr->values[m];
		struct strbuf num = STRBUF_INIT;

		if (!shown(met))
			continue;
		if (v->valid)
			number(&num, scaled(met, v));
		if (sep) {
			strbuf_addf(out, "%.9f%s%s%s%s%s", ts, sep,
				    v->valid ? num.buf : "<not counted>", sep, met->unit, sep);
			strbuf_add_printable(out, met->name);
			times(out, sep, met, v);
			strbuf_addf(out, "%s%s\n", sep, sep);
		} else {
			strbuf_addf(out, "%16.9f %18s %-4s ", ts,
				    v->valid ? num.buf : "<not counted>", met->unit);
			strbuf_add_printable(out, met->name);
			strbuf_addch(out, '\n');
		}
		strbuf_release(&num);
	}
}

void report_sep_rows(const struct result *r, const char *sep, struct strbuf *out)
{
	for (size_t m = 0; m < r->nmetrics; m++) {
		const struct result_metric *met = &r->metrics[m];
		struct result_value mean = { 0 };
		double sum = 0, sum2 = 0;
		size_t n = 0;

		if (!shown(met))
			continue;
		for (size_t i = 0; i < r->nruns; i++) {
			const struct result_value *v = &r->runs[i].values[m];
			double x;

			if (!result_value_usable(r, &r->runs[i], m))
				continue;
			x = scaled(met, v);
			sum += x;
			sum2 += x * x;
			mean.enabled += v->enabled;
			mean.running += v->running;
			n++;
		}
		if (!n) {
			strbuf_addf(out, "<not counted>%s%s%s", sep, met->unit, sep);
			strbuf_add_printable(out, met->name);
			strbuf_addf(out, "%s%s%s\n", sep, sep, sep);
			continue;
		}
		mean.valid = 1;
		mean.enabled /= n;
		mean.running /= n;
		number(out, sum / (double)n);
		strbuf_addf(out, "%s%s%s", sep, met->unit, sep);
		strbuf_add_printable(out, met->name);
		if (n > 1) {
			double mu = sum / (double)n;
			double var = (sum2 - (double)n * mu * mu) / (double)(n - 1);

			strbuf_addf(out, "%s%.2f%%", sep, mu ? 100.0 * sqrt(var > 0 ? var : 0) /
					 fabs(mu) / sqrt((double)n) : 0.0);
		}
		times(out, sep, met, &mean);
		strbuf_addf(out, "%s%s\n", sep, sep);
	}
}
