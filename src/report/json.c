/*
 * Result <-> JSON. The document mirrors the result model one to one; derived
 * numbers (summaries, comparisons) are added by report_analysis so a reader
 * can check them against the raw runs.
 */
#include "report/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/outfile.h"
#include "core/strbuf.h"
#include "report/analysis.h"
#include "report/comparison.h"

static json_t *json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *json_int_or_null(long v, long unknown)
{
	return v == unknown ? json_null() : json_integer(v);
}

static json_t *host_json(const struct hostinfo *h)
{
	return json_pack("{s:s, s:s, s:{s:s, s:o, s:o, s:o, s:s}, s:i, s:o, s:o, s:o, s:o, s:b}",
			 "kernel", h->kernel, "machine", h->machine,
			 "cpu", "vendor", h->vendor,
			 "family", json_int_or_null(h->family, -1),
			 "model", json_int_or_null(h->model, -1),
			 "stepping", json_int_or_null(h->stepping, -1),
			 "model_name", h->model_name,
			 "ncpus", h->ncpus,
			 "hypervisor", h->hypervisor < 0 ? json_null() : json_boolean(h->hypervisor),
			 "perf_event_paranoid", json_int_or_null(h->paranoid, -100),
			 "aslr", json_int_or_null(h->aslr, -1),
			 "governor", *h->governor ? json_string(h->governor) : json_null(),
			 "hw_pmu", h->hw_pmu);
}

static json_t *metric_json(const struct result_metric *m)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:f}", "name", m->name, "unit", m->unit,
			      "backend", m->backend, "available", m->available,
			      "scale", m->scale);

	if (m->source == MSRC_PERF) {
		json_object_set_new(o, "pmu", json_str_or_null(m->pmu));
		json_object_set_new(o, "type", json_integer(m->type));
		json_object_set_new(o, "config", json_integer((json_int_t)m->config));
		json_object_set_new(o, "config1", json_integer((json_int_t)m->config1));
		json_object_set_new(o, "config2", json_integer((json_int_t)m->config2));
		json_object_set_new(o, "group", json_integer(m->group));
	}
	if (m->formula)
		json_object_set_new(o, "formula", json_string(m->formula));
	if (m->proxy)
		json_object_set_new(o, "proxy", json_string(m->proxy));
	json_object_set_new(o, "hidden", json_boolean(m->hidden));
	if (m->reason)
		json_object_set_new(o, "reason", json_string(m->reason));
	if (m->hint)
		json_object_set_new(o, "hint", json_string(m->hint));
	return o;
}

static json_t *argv_json(char **argv)
{
	json_t *a = json_array();

	for (; argv && *argv; argv++)
		json_array_append_new(a, json_string(*argv));
	return a;
}

static json_t *value_json(const struct result_metric *m, const struct result_value *v)
{
	json_t *o;

	if (!v->valid)
		return json_null();
	/* Counts and clocks are integers: keep them exact in the document. */
	if (v->value == floor(v->value) && fabs(v->value) < 9007199254740992.0)
		o = json_pack("{s:I}", "value", (json_int_t)v->value);
	else
		o = json_pack("{s:f}", "value", v->value);
	if (m->source == MSRC_PERF) {
		json_object_set_new(o, "time_enabled", json_integer((json_int_t)v->enabled));
		json_object_set_new(o, "time_running", json_integer((json_int_t)v->running));
	}
	return o;
}

static json_t *run_json(const struct result *r, const struct result_run *run)
{
	json_t *vals = json_object();
	json_t *o = json_pack("{s:i, s:i, s:i, s:i, s:i, s:b, s:f, s:I, s:s}",
			      "index", run->index, "variant", run->variant,
			      "block", run->block, "position", run->position,
			      "group", run->group, "warmup", run->warmup,
			      "start_time", run->start_time, "env_pad", (json_int_t)run->env_pad,
			      "status", run_status_name(run->status));

	if (run->status == RUN_OK || run->status == RUN_FAILED)
		json_object_set_new(o, "exit_code", json_integer(run->exit_code));
	if (run->simulated)
		json_object_set_new(o, "simulated", json_true());
	if (run->signal)
		json_object_set_new(o, "signal", json_integer(run->signal));
	if (run->status == RUN_EXEC_FAILED)
		json_object_set_new(o, "error", json_string(strerror(run->exec_errno)));
	for (size_t m = 0; m < r->nmetrics; m++)
		json_object_set_new(vals, r->metrics[m].name,
				    value_json(&r->metrics[m], &run->values[m]));
	json_object_set_new(o, "values", vals);
	return o;
}

static json_t *note_json(const struct result_note *n)
{
	json_t *o = json_pack("{s:s, s:o, s:s}", "level",
			      n->level == NOTE_WARNING ? "warning" : "note",
			      "metric", json_str_or_null(n->metric), "text", n->text);

	if (n->hint)
		json_object_set_new(o, "hint", json_string(n->hint));
	return o;
}

json_t *report_json(const struct result *r)
{
	json_t *doc = json_object(), *a;

	json_object_set_new(doc, "schema", json_string(RESULT_SCHEMA));
	json_object_set_new(doc, "tool", json_pack("{s:s, s:s}", "name", "pmustat",
						   "version", PMUSTAT_VERSION));
	json_object_set_new(doc, "command", json_string(r->command));
	json_object_set_new(doc, "created", json_real(r->created));
	json_object_set_new(doc, "complete", json_boolean(r->complete));
	json_object_set_new(doc, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(doc, "stop_reason", json_str_or_null(r->stop_reason));
	json_object_set_new(doc, "host", host_json(&r->host));
	json_object_set_new(doc, "options",
			    json_pack("{s:I, s:i, s:i, s:f, s:b, s:o, s:I}", "seed",
				      (json_int_t)r->seed, "repeat", (int)r->repeat, "warmup",
				      (int)r->warmup, "timeout", r->timeout_s, "kernel_excluded",
				      r->kernel_excluded,
				      "pin_cpu", r->pin_cpu < 0 ? json_null() : json_integer(r->pin_cpu),
				      "env_pad_max", (json_int_t)r->env_pad_max));
	a = json_array();
	for (size_t i = 0; i < r->nvariants; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "name", r->variants[i].name,
						   "argv", argv_json(r->variants[i].argv),
						   "exec_path", json_str_or_null(r->variants[i].exec_path)));
	json_object_set_new(doc, "variants", a);
	a = json_array();
	for (size_t i = 0; i < r->nmetrics; i++)
		json_array_append_new(a, metric_json(&r->metrics[i]));
	json_object_set_new(doc, "metrics", a);
	a = json_array();
	for (size_t i = 0; i < r->nruns; i++)
		json_array_append_new(a, run_json(r, &r->runs[i]));
	json_object_set_new(doc, "runs", a);
	json_object_set_new(doc, "summaries", analysis_summaries_json(r));
	if (r->nvariants >= 2) {
		json_object_set_new(doc, "comparison",
				    json_pack("{s:s, s:f, s:o, s:b, s:f}", "baseline",
					      r->variants[r->baseline].name, "noise_band",
					      r->noise_band, "primary", json_str_or_null(r->primary),
					      "sequential", r->decide, "cs_rho", r->cs_rho));
		json_object_set_new(doc, "comparisons", comparisons_json(r));
	}
	a = json_array();
	for (size_t i = 0; i < r->nnotes; i++)
		json_array_append_new(a, note_json(&r->notes[i]));
	json_object_set_new(doc, "notes", a);
	return doc;
}

int report_json_write(const struct result *r, const char *path, struct error *err)
{
	json_t *doc = report_json(r);
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	struct strbuf sb = STRBUF_INIT;
	int rc;

	json_decref(doc);
	if (!text)
		return error_set(err, ERR_RUNTIME, "cannot encode the result of '%s' as JSON",
				 path);
	strbuf_adds(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	rc = outfile_replace(path, sb.buf, sb.len, err);
	strbuf_release(&sb);
	return rc;
}

/* ---- reading a result back ---------------------------------------------- */

static char *jdup(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

static double jnum(json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static int jbool(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

static void copy_str(char *dst, size_t len, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static void read_host(struct hostinfo *h, json_t *o)
{
	json_t *cpu = json_object_get(o, "cpu");

	memset(h, 0, sizeof(*h));
	copy_str(h->kernel, sizeof(h->kernel), o, "kernel");
	copy_str(h->machine, sizeof(h->machine), o, "machine");
	copy_str(h->vendor, sizeof(h->vendor), cpu, "vendor");
	copy_str(h->model_name, sizeof(h->model_name), cpu, "model_name");
	copy_str(h->governor, sizeof(h->governor), o, "governor");
	h->family = (int)jnum(cpu, "family", -1);
	h->model = (int)jnum(cpu, "model", -1);
	h->stepping = (int)jnum(cpu, "stepping", -1);
	h->ncpus = (int)jnum(o, "ncpus", 0);
	h->hypervisor = json_is_boolean(json_object_get(o, "hypervisor")) ?
				jbool(o, "hypervisor") : -1;
	h->paranoid = (int)jnum(o, "perf_event_paranoid", -100);
	h->aslr = (int)jnum(o, "aslr", -1);
	h->hw_pmu = jbool(o, "hw_pmu");
}

static const struct { const char *name; enum metric_source src; } backends[] = {
	{ "clock", MSRC_CLOCK }, { "rusage", MSRC_RUSAGE }, { "derived", MSRC_FORMULA },
	{ "uprobe", MSRC_CALLS }, { "preload", MSRC_CALLS }, { "sim", MSRC_SIM },
	{ "region", MSRC_REGION },
};

static void read_metric(struct result *r, json_t *o)
{
	const char *backend = json_string_value(json_object_get(o, "backend"));
	enum metric_source src = MSRC_PERF;
	struct result_metric *m;

	for (size_t i = 0; backend && i < sizeof(backends) / sizeof(*backends); i++)
		if (!strcmp(backend, backends[i].name))
			src = backends[i].src;
	m = result_add_metric(r, json_string_value(json_object_get(o, "name")),
			      json_string_value(json_object_get(o, "unit")), src);
	if (backend) {
		free(m->backend);
		m->backend = xstrdup(backend);
	}
	m->pmu = jdup(o, "pmu");
	m->type = (uint32_t)jnum(o, "type", 0);
	m->config = (uint64_t)json_integer_value(json_object_get(o, "config"));
	m->config1 = (uint64_t)json_integer_value(json_object_get(o, "config1"));
	m->config2 = (uint64_t)json_integer_value(json_object_get(o, "config2"));
	m->group = (int)jnum(o, "group", -1);
	m->scale = jnum(o, "scale", 1.0);
	m->available = jbool(o, "available");
	m->reason = jdup(o, "reason");
	m->hint = jdup(o, "hint");
	m->formula = jdup(o, "formula");
	m->proxy = jdup(o, "proxy");
	m->hidden = jbool(o, "hidden");
}

static void read_run(struct result *r, json_t *o)
{
	struct result_run *run = result_add_run(r);
	json_t *vals = json_object_get(o, "values");
	enum run_status st = RUN_OK;

	run->variant = (int)jnum(o, "variant", 0);
	run->block = (int)jnum(o, "block", 0);
	run->position = (int)jnum(o, "position", 0);
	run->group = (int)jnum(o, "group", 0);
	run->warmup = jbool(o, "warmup");
	run->simulated = jbool(o, "simulated");
	run->start_time = jnum(o, "start_time", 0);
	run->env_pad = (size_t)jnum(o, "env_pad", 0);
	if (json_is_string(json_object_get(o, "status")))
		run_status_parse(json_string_value(json_object_get(o, "status")), &st);
	run->status = st;
	run->exit_code = (int)jnum(o, "exit_code", 0);
	run->signal = (int)jnum(o, "signal", 0);
	for (size_t m = 0; m < r->nmetrics; m++) {
		json_t *v = json_object_get(vals, r->metrics[m].name);

		if (!json_is_object(v))
			continue;
		run->values[m].valid = 1;
		run->values[m].value = jnum(v, "value", 0);
		run->values[m].enabled = (uint64_t)jnum(v, "time_enabled", 0);
		run->values[m].running = (uint64_t)jnum(v, "time_running", 0);
	}
}

static char **read_argv(json_t *a)
{
	size_t n = json_array_size(a);
	char **argv = xcalloc(n + 1, sizeof(char *));

	for (size_t i = 0; i < n; i++)
		argv[i] = xstrdup(json_is_string(json_array_get(a, i)) ?
					  json_string_value(json_array_get(a, i)) : "");
	return argv;
}

static void read_doc(struct result *r, json_t *doc)
{
	json_t *opt = json_object_get(doc, "options"), *cmp = json_object_get(doc, "comparison");
	json_t *a;
	size_t i;

	r->created = jnum(doc, "created", 0);
	r->complete = jbool(doc, "complete");
	r->interrupted = jbool(doc, "interrupted");
	r->stop_reason = jdup(doc, "stop_reason");
	read_host(&r->host, json_object_get(doc, "host"));
	r->seed = (uint64_t)json_integer_value(json_object_get(opt, "seed"));
	r->repeat = (unsigned)jnum(opt, "repeat", 0);
	r->warmup = (unsigned)jnum(opt, "warmup", 0);
	r->timeout_s = jnum(opt, "timeout", 0);
	r->kernel_excluded = jbool(opt, "kernel_excluded");
	r->pin_cpu = (int)jnum(opt, "pin_cpu", -1);
	r->env_pad_max = (size_t)jnum(opt, "env_pad_max", 0);
	json_array_foreach(json_object_get(doc, "variants"), i, a) {
		char **argv = read_argv(json_object_get(a, "argv"));

		result_add_variant(r, json_string_value(json_object_get(a, "name")), argv);
		r->variants[r->nvariants - 1].exec_path = jdup(a, "exec_path");
		for (char **p = argv; *p; p++)
			free(*p);
		free(argv);
	}
	json_array_foreach(json_object_get(doc, "metrics"), i, a)
		read_metric(r, a);
	json_array_foreach(json_object_get(doc, "runs"), i, a)
		read_run(r, a);
	json_array_foreach(json_object_get(doc, "notes"), i, a)
		result_add_note(r, !strcmp(jstr(a, "level"), "warning") ? NOTE_WARNING : NOTE_NOTE,
				json_string_value(json_object_get(a, "metric")),
				json_string_value(json_object_get(a, "hint")), "%s", jstr(a, "text"));
	if (json_is_object(cmp)) {
		const char *base = json_string_value(json_object_get(cmp, "baseline"));

		for (i = 0; base && i < r->nvariants; i++)
			if (!strcmp(r->variants[i].name, base))
				r->baseline = (int)i;
		r->noise_band = jnum(cmp, "noise_band", 0.01);
		r->primary = jdup(cmp, "primary");
		r->decide = jbool(cmp, "sequential");
		r->cs_rho = jnum(cmp, "cs_rho", 10);
	}
}

/* The shape checks that make the rest of reading safe. */
static int check_doc(json_t *doc, const char *path, struct error *err)
{
	json_t *schema = json_object_get(doc, "schema");
	size_t i;
	json_t *a;

	if (!json_is_string(schema) || strcmp(json_string_value(schema), RESULT_SCHEMA)) {
		error_set(err, ERR_USAGE, "'%s' is not a pmustat result (schema %s expected)",
			  path, RESULT_SCHEMA);
		return error_hint(err, "give a file written by 'pmustat stat/compare -o FILE'");
	}
	json_array_foreach(json_object_get(doc, "metrics"), i, a)
		if (!json_is_string(json_object_get(a, "name")) ||
		    !json_is_string(json_object_get(a, "unit")))
			return error_set(err, ERR_USAGE, "'%s': metric %zu has no name or unit",
					 path, i);
	json_array_foreach(json_object_get(doc, "variants"), i, a)
		if (!json_is_string(json_object_get(a, "name")))
			return error_set(err, ERR_USAGE, "'%s': variant %zu has no name", path, i);
	json_array_foreach(json_object_get(doc, "runs"), i, a) {
		double v = jnum(a, "variant", -1);
		size_t nv = json_array_size(json_object_get(doc, "variants"));

		if (v < 0 || v >= (double)nv)
			return error_set(err, ERR_USAGE, "'%s': run %zu names variant %g of %zu",
					 path, i, v, nv);
	}
	return 0;
}

int report_json_read(struct result *r, const char *path, struct error *err)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	const char *cmd;

	if (!doc) {
		if (je.line > 0)
			error_set(err, ERR_RUNTIME, "cannot read '%s': %s (line %d)", path,
				  je.text, je.line);
		else
			error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, je.text);
		return error_hint(err, "check that the file is a complete JSON result");
	}
	if (check_doc(doc, path, err)) {
		json_decref(doc);
		return -1;
	}
	cmd = json_string_value(json_object_get(doc, "command"));
	result_init(r, cmd ? cmd : "stat");
	read_doc(r, doc);
	json_decref(doc);
	return 0;
}
