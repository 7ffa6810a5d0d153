/*
 * Building and querying the result model. Growth is by ALLOC_GROW; strings
 * are owned copies so a result outlives the options and specs it came from.
 */
#include "result/result.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/strbuf.h"

static const char *const status_names[] = {
	[RUN_OK] = "ok",
	[RUN_FAILED] = "failed",
	[RUN_SIGNALED] = "signal",
	[RUN_TIMEOUT] = "timeout",
	[RUN_INTERRUPTED] = "interrupted",
	[RUN_EXEC_FAILED] = "exec-failed",
};

const char *run_status_name(enum run_status s)
{
	return status_names[s];
}

int run_status_parse(const char *s, enum run_status *out)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(*status_names); i++)
		if (!strcmp(s, status_names[i])) {
			*out = (enum run_status)i;
			return 0;
		}
	return -1;
}

void result_init(struct result *r, const char *command)
{
	struct timespec ts;

	memset(r, 0, sizeof(*r));
	r->command = xstrdup(command);
	snprintf(r->tool_version, sizeof(r->tool_version), "%s", PMUSTAT_VERSION);
	clock_gettime(CLOCK_REALTIME, &ts);
	r->created = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	r->pin_cpu = -1;
	r->noise_band = 0.01;
	r->cs_rho = 10;
	r->min_blocks = 10;
}

void result_release(struct result *r)
{
	free(r->attach.kind);
	free(r->attach.ids);
	free(r->attach.threads);
	free(r->attach.cpus);
	for (size_t i = 0; i < r->nvariants; i++) {
		free(r->variants[i].name);
		free(r->variants[i].exec_path);
		strv_free(r->variants[i].argv);
	}
	for (size_t i = 0; i < r->nmetrics; i++) {
		struct result_metric *m = &r->metrics[i];

		free(m->name); free(m->unit); free(m->backend); free(m->pmu);
		free(m->reason); free(m->hint); free(m->formula); free(m->proxy);
		free(m->origin);
	}
	for (size_t i = 0; i < r->nruns; i++)
		free(r->runs[i].values);
	for (size_t i = 0; i < r->nnotes; i++) {
		free(r->notes[i].metric); free(r->notes[i].text); free(r->notes[i].hint);
	}
	free(r->variants); free(r->metrics); free(r->runs); free(r->notes);
	free(r->command); free(r->stop_reason); free(r->primary);
	memset(r, 0, sizeof(*r));
}

size_t result_add_variant(struct result *r, const char *name, char *const *argv)
{
	struct result_variant *v;
	size_t n = 0;

	ALLOC_GROW(r->variants, r->nvariants + 1, r->variants_alloc);
	v = &r->variants[r->nvariants];
	v->name = xstrdup(name);
	v->exec_path = NULL;
	while (argv && argv[n])
		n++;
	v->argv = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v->argv[i] = xstrdup(argv[i]);
	return r->nvariants++;
}

static const char *const source_backends[] = {
	[MSRC_CLOCK] = "clock", [MSRC_RUSAGE] = "rusage", [MSRC_PERF] = "perf",
	[MSRC_FORMULA] = "derived", [MSRC_CALLS] = "calls", [MSRC_SIM] = "sim",
	[MSRC_REGION] = "region", [MSRC_PROFILE] = "profile", [MSRC_HOST] = "host",
};

struct result_metric *result_add_metric(struct result *r, const char *name, const char *unit,
					enum metric_source source)
{
	struct result_metric *m;

	ALLOC_GROW(r->metrics, r->nmetrics + 1, r->metrics_alloc);
	m = &r->metrics[r->nmetrics++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->unit = xstrdup(unit ? unit : "");
	m->source = source;
	m->backend = xstrdup(source_backends[source]);
	m->scale = 1.0;
	m->available = 1;
	m->group = -1;
	return m;
}

struct result_metric *result_add_metric_late(struct result *r, const char *name,
					     const char *unit, enum metric_source source)
{
	size_t had = r->metrics_alloc;
	struct result_metric *m = result_add_metric(r, name, unit, source);

	/* Every run has room for metrics_alloc values (result_add_run), grown
	 * with it: thousands of late metrics cost no realloc each per run. */
	for (size_t i = 0; i < r->nruns; i++) {
		if (r->metrics_alloc != had)
			r->runs[i].values = xrealloc(r->runs[i].values,
						     r->metrics_alloc * sizeof(*r->runs[i].values));
		memset(&r->runs[i].values[r->nmetrics - 1], 0, sizeof(*r->runs[i].values));
	}
	return m;
}

int result_metric_index(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return (int)i;
	return -1;
}

struct result_run *result_add_run(struct result *r)
{
	struct result_run *run;

	ALLOC_GROW(r->runs, r->nruns + 1, r->runs_alloc);
	run = &r->runs[r->nruns];
	memset(run, 0, sizeof(*run));
	run->index = (int)r->nruns++;
	run->values = xcalloc(r->metrics_alloc > r->nmetrics ? r->metrics_alloc : r->nmetrics + 1,
			      sizeof(*run->values));
	return run;
}

void result_add_note(struct result *r, enum note_level level, const char *metric,
		     const char *hint, const char *fmt, ...)
{
	struct result_note *n;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_grow(&sb, 128);
	sb.len = (size_t)vsnprintf(sb.buf, sb.alloc, fmt, ap);
	va_end(ap);
	if (sb.len >= sb.alloc) {
		strbuf_grow(&sb, sb.len);
		va_start(ap, fmt);
		vsnprintf(sb.buf, sb.alloc, fmt, ap);
		va_end(ap);
	}
	ALLOC_GROW(r->notes, r->nnotes + 1, r->notes_alloc);
	n = &r->notes[r->nnotes++];
	n->level = level;
	n->metric = metric ? xstrdup(metric) : NULL;
	n->hint = hint && *hint ? xstrdup(hint) : NULL;
	n->text = strbuf_detach(&sb);
}

int result_value_usable(const struct result *r, const struct result_run *run, size_t m)
{
	const struct result_value *v = &run->values[m];

	if (run->warmup || !v->valid)
		return 0;
	if (run->status != RUN_OK && run->status != RUN_FAILED)
		return 0;
	if (result_value_multiplexed(r, m, v))
		return 0;
	return 1;
}

int result_value_multiplexed(const struct result *r, size_t m, const struct result_value *v)
{
	return r->metrics[m].source == MSRC_PERF && v->running < v->enabled &&
	       !r->metrics[m].core_type;
}

size_t result_collect(const struct result *r, size_t v, size_t m, double **out)
{
	size_t n = 0;

	*out = xmalloc((r->nruns ? r->nruns : 1) * sizeof(double));
	for (size_t i = 0; i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];

		if (run->variant != (int)v || !result_value_usable(r, run, m))
			continue;
		(*out)[n++] = run->values[m].value * r->metrics[m].scale;
	}
	return n;
}

static int same_shape(const struct result *a, const struct result *b)
{
	if (a->nvariants != b->nvariants || a->nmetrics != b->nmetrics)
		return 0;
	for (size_t i = 0; i < a->nvariants; i++)
		if (strcmp(a->variants[i].name, b->variants[i].name))
			return 0;
	for (size_t i = 0; i < a->nmetrics; i++)
		if (strcmp(a->metrics[i].name, b->metrics[i].name))
			return 0;
	return 1;
}

static int has_note(const struct result *r, const struct result_note *n)
{
	for (size_t i = 0; i < r->nnotes; i++)
		if (!strcmp(r->notes[i].text, n->text))
			return 1;
	return 0;
}

int result_merge(struct result *dst, const struct result *src, const char *src_name,
		 struct error *err)
{
	int block0 = 0;

	if (!same_shape(dst, src)) {
		error_set(err, ERR_USAGE, "cannot merge '%s': its variants or metrics differ",
			  src_name);
		return error_hint(err, "merge only results of the same command line "
				       "(same variants, -m and -e)");
	}
	for (size_t i = 0; i < dst->nruns; i++)
		if (dst->runs[i].block + 1 > block0)
			block0 = dst->runs[i].block + 1;
	for (size_t i = 0; i < src->nruns; i++)
		if (src->runs[i].block >= INT_MAX - block0) {
			error_set(err, ERR_USAGE, "cannot merge '%s': its blocks, numbered after "
				  "the others', would pass %d", src_name, INT_MAX);
			return error_hint(err, "merge fewer results at once");
		}
	for (size_t i = 0; i < src->nruns; i++) {
		struct result_run *run = result_add_run(dst);
		int index = run->index;
		struct result_value *vals = run->values;

		*run = src->runs[i];
		run->index = index;
		run->block += block0;
		run->values = vals;
		memcpy(vals, src->runs[i].values, dst->nmetrics * sizeof(*vals));
	}
	for (size_t i = 0; i < src->nnotes; i++)
		if (!has_note(dst, &src->notes[i]))
			result_add_note(dst, src->notes[i].level, src->notes[i].metric,
					src->notes[i].hint, "%s", src->notes[i].text);
	dst->interrupted |= src->interrupted;
	dst->complete &= src->complete;
	return 0;
}

void result_drop_notes(struct result *r, const char *metric)
{
	size_t k = 0;

	for (size_t i = 0; i < r->nnotes; i++) {
		struct result_note *n = &r->notes[i];

		if (n->metric && !strcmp(n->metric, metric)) {
			free(n->metric);
			free(n->text);
			free(n->hint);
			continue;
		}
		r->notes[k++] = *n;
	}
	r->nnotes = k;
}

unsigned result_run_placement(const struct result *r, const struct result_run *run,
			      const char **pmus, double *frac, size_t max, size_t *n)
{
	unsigned set = 0;

	*n = 0;
	for (size_t m = 0; m < r->nmetrics; m++) {
		const struct result_metric *met = &r->metrics[m];
		const struct result_value *v = &run->values[m];
		size_t k;

		if (met->source != MSRC_PERF || !met->core_type || !met->pmu || !v->valid ||
		    !v->enabled)
			continue;
		for (k = 0; k < *n && strcmp(pmus[k], met->pmu); k++)
			;
		if (k == *n) {
			if (*n == max)
				continue;
			pmus[k] = met->pmu;
			frac[k] = 0;
			(*n)++;
		}
		if ((double)v->running / (double)v->enabled > frac[k])
			frac[k] = (double)v->running / (double)v->enabled;
	}
	for (size_t k = 0; k < *n && k < 32; k++)
		if (frac[k] > 0)
			set |= 1u << k;
	return set;
}

void result_placement_text(struct strbuf *out, const char *const *pmus, const double *frac,
			   size_t n)
{
	size_t said = 0, total = 0;

	for (size_t k = 0; k < n; k++)
		total += frac[k] > 0;
	/* "a and b", or "a, b and c" with Arrow Lake-H's three core types */
	for (size_t k = 0; k < n; k++)
		if (frac[k] > 0) {
			strbuf_addf(out, "%s%s (%.0f%% of the time)",
				    !said ? "" : said + 1 == total ? " and " : ", ", pmus[k],
				    100 * frac[k]);
			said++;
		}
	if (!said)
		strbuf_adds(out, "no core type that counted anything");
}
