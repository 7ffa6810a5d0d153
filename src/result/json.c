/*
 * Result -> JSON. The document mirrors the result model one to one; derived
 * numbers (summaries, comparisons, ...) are the analysed model's sections
 * (analysis/analysed.h), placed here beside the raw runs they come from so a
 * reader can check them; this layer computes none of them. The pieces (a run, a metric, a note,
 * the skeleton) are exported because the run journal writes the same
 * encodings one line at a time. Reading is in json_read.c.
 */
#include "result/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/outfile.h"
#include "core/printable.h"
#include "core/strbuf.h"

json_t *report_json_text(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *v;

	if (!s)
		return json_null();
	if (printable_utf8_valid(s))
		return json_string(s);
	strbuf_add_printable(&sb, s);
	v = json_string(sb.buf);
	strbuf_release(&sb);
	return v;
}

const char *report_json_key(struct strbuf *tmp, const char *s)
{
	return printable_utf8_valid(s) ? s : printable_in(tmp, s);
}

static json_t *json_str_or_null(const char *s)
{
	return report_json_text(s);
}

static json_t *json_int_or_null(long v, long unknown)
{
	return v == unknown ? json_null() : json_integer(v);
}

/* Under Slurm: which job, step and task wrote the result; else null. */
static json_t *slurm_json(const struct hostinfo *h)
{
	if (!h->slurm_job[0])
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o}", "job_id", report_json_text(h->slurm_job),
			 "step_id", *h->slurm_step ? report_json_text(h->slurm_step) : json_null(),
			 "task_id", json_int_or_null(h->slurm_task, -1),
			 "node", *h->slurm_node ? report_json_text(h->slurm_node) : json_null());
}

json_t *report_json_host(const struct hostinfo *h)
{
	json_t *o = json_pack("{s:o, s:o, s:{s:o, s:o, s:o, s:o, s:o}, s:i, s:o, s:o, s:o, s:o, s:b}",
			 "kernel", report_json_text(h->kernel),
			 "machine", report_json_text(h->machine),
			 "cpu", "vendor", report_json_text(h->vendor),
			 "family", json_int_or_null(h->family, -1),
			 "model", json_int_or_null(h->model, -1),
			 "stepping", json_int_or_null(h->stepping, -1),
			 "model_name", report_json_text(h->model_name),
			 "ncpus", h->ncpus,
			 "hypervisor", h->hypervisor < 0 ? json_null() : json_boolean(h->hypervisor),
			 "perf_event_paranoid", json_int_or_null(h->paranoid, -100),
			 "aslr", json_int_or_null(h->aslr, -1),
			 "governor", *h->governor ? report_json_text(h->governor) : json_null(),
			 "hw_pmu", h->hw_pmu);

	json_object_set_new(o, "hostname", *h->hostname ? report_json_text(h->hostname)
							 : json_null());
	json_object_set_new(o, "uarch", *h->uarch ? report_json_text(h->uarch) : json_null());
	json_object_set_new(o, "smt", h->smt < 0 ? json_null() : json_boolean(h->smt));
	json_object_set_new(o, "slurm", slurm_json(h));
	return o;
}

json_t *report_json_metric(const struct result_metric *m)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:b, s:f}", "name", report_json_text(m->name),
			      "unit", report_json_text(m->unit),
			      "backend", report_json_text(m->backend), "available", m->available,
			      "scale", m->scale);

	if (m->source == MSRC_PERF) {
		json_object_set_new(o, "pmu", json_str_or_null(m->pmu));
		json_object_set_new(o, "type", json_integer(m->type));
		json_object_set_new(o, "config", json_integer((json_int_t)m->config));
		json_object_set_new(o, "config1", json_integer((json_int_t)m->config1));
		json_object_set_new(o, "config2", json_integer((json_int_t)m->config2));
		if (m->core_type)
			json_object_set_new(o, "core_type", json_true());
		json_object_set_new(o, "group", json_integer(m->group));
	}
	if (m->formula)
		json_object_set_new(o, "formula", report_json_text(m->formula));
	if (m->proxy)
		json_object_set_new(o, "proxy", report_json_text(m->proxy));
	if (m->origin)
		json_object_set_new(o, "origin", report_json_text(m->origin));
	json_object_set_new(o, "hidden", json_boolean(m->hidden));
	json_object_set_new(o, "implicit", json_boolean(m->implicit));
	if (m->reason)
		json_object_set_new(o, "reason", report_json_text(m->reason));
	if (m->hint)
		json_object_set_new(o, "hint", report_json_text(m->hint));
	return o;
}

static json_t *argv_json(char **argv)
{
	json_t *a = json_array();

	for (; argv && *argv; argv++)
		json_array_append_new(a, report_json_text(*argv));
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

json_t *report_json_run(const struct result *r, const struct result_run *run)
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
	if (run->traced)
		json_object_set_new(o, "traced", json_true());
	if (run->instrumented)
		json_object_set_new(o, "instrumented", json_true());
	if (run->signal)
		json_object_set_new(o, "signal", json_integer(run->signal));
	if (run->status == RUN_EXEC_FAILED)
		json_object_set_new(o, "error", json_string(strerror(run->exec_errno)));
	if (run->left_behind) {
		json_object_set_new(o, "left_behind", json_integer(run->left_behind));
		json_object_set_new(o, "left_kept", json_boolean(run->left_kept));
	}
	struct strbuf key = STRBUF_INIT;

	/* A profile has hundreds of functions and stacks, most without a
	 * sample in a given run: those are left out (read back as null). */
	for (size_t m = 0; m < r->nmetrics; m++)
		if (run->values[m].valid || r->metrics[m].source != MSRC_PROFILE)
			json_object_set_new(vals, report_json_key(&key, r->metrics[m].name),
					    value_json(&r->metrics[m], &run->values[m]));
	json_object_set_new(o, "values", vals);
	strbuf_release(&key);
	return o;
}

json_t *report_json_note(const struct result_note *n)
{
	json_t *o = json_pack("{s:s, s:o, s:o}", "level",
			      n->level == NOTE_WARNING ? "warning" : "note",
			      "metric", json_str_or_null(n->metric), "text", report_json_text(n->text));

	if (n->hint)
		json_object_set_new(o, "hint", report_json_text(n->hint));
	return o;
}

static json_t *target_json(const struct result_target *t)
{
	return json_pack("{s:s, s:o, s:o, s:o, s:i, s:f}", "kind", t->kind, "ids",
			 json_str_or_null(t->ids), "threads", json_str_or_null(t->threads),
			 "cpus", json_str_or_null(t->cpus), "interval_ms", (int)t->interval_ms,
			 "duration_s", t->duration_s);
}

static json_t *options_json(const struct result *r)
{
	json_t *o = json_pack("{s:I, s:i, s:i, s:f, s:b, s:b, s:o, s:I}", "seed", (json_int_t)r->seed,
			 "repeat", (int)r->repeat, "warmup", (int)r->warmup,
			 "timeout", r->timeout_s, "keep_children", r->keep_children,
			 "kernel_excluded", r->kernel_excluded,
			 "pin_cpu", r->pin_cpu < 0 ? json_null() : json_integer(r->pin_cpu),
			 "env_pad_max", (json_int_t)r->env_pad_max);

	if (r->attach.kind)
		json_object_set_new(o, "target", target_json(&r->attach));
	return o;
}

static json_t *variants_json(const struct result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->nvariants; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:o}",
						   "name", report_json_text(r->variants[i].name),
						   "argv", argv_json(r->variants[i].argv),
						   "exec_path", json_str_or_null(r->variants[i].exec_path)));
	return a;
}

/* What is known before the first run: identity, host, options, variants,
 * metrics. */
static void add_head(json_t *doc, const struct result *r)
{
	json_t *a = json_array();

	json_object_set_new(doc, "schema", json_string(RESULT_SCHEMA));
	json_object_set_new(doc, "tool", json_pack("{s:s, s:s}", "name", "pmustat",
						   "version", PMUSTAT_VERSION));
	json_object_set_new(doc, "command", report_json_text(r->command));
	json_object_set_new(doc, "created", json_real(r->created));
	json_object_set_new(doc, "complete", json_boolean(r->complete));
	json_object_set_new(doc, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(doc, "stop_reason", json_str_or_null(r->stop_reason));
	json_object_set_new(doc, "host", report_json_host(&r->host));
	json_object_set_new(doc, "options", options_json(r));
	json_object_set_new(doc, "variants", variants_json(r));
	for (size_t i = 0; i < r->nmetrics; i++)
		json_array_append_new(a, report_json_metric(&r->metrics[i]));
	json_object_set_new(doc, "metrics", a);
}

/* The comparison settings (not its results): compare only. */
static void add_comparison_settings(json_t *doc, const struct result *r)
{
	if (r->nvariants < 2)
		return;
	json_object_set_new(doc, "comparison",
			    json_pack("{s:o, s:f, s:o, s:b, s:f, s:i, s:f}", "baseline",
				      report_json_text(r->variants[r->baseline].name),
				      "noise_band", r->noise_band,
				      "primary", json_str_or_null(r->primary),
				      "sequential", r->decide, "cs_rho", r->cs_rho,
				      "min_blocks", (int)r->min_blocks, "target", r->target));
}

static void add_notes(json_t *doc, const struct result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->nnotes; i++)
		json_array_append_new(a, report_json_note(&r->notes[i]));
	json_object_set_new(doc, "notes", a);
}

json_t *report_json_skeleton(const struct result *r)
{
	json_t *doc = json_object();

	add_head(doc, r);
	add_comparison_settings(doc, r);
	add_notes(doc, r);
	return doc;
}

/* The analysed sections that go right after the runs; the others follow
 * the comparison settings. */
static int before_settings(const char *key)
{
	return !strcmp(key, "summaries") || !strcmp(key, "warning_groups");
}

/* The document with an empty "runs" array in its place: everything but
 * the runs, in the document's order. */
static json_t *doc_without_runs(const struct result *r, const json_t *sections)
{
	json_t *doc = json_object(), *v;
	const char *key;

	add_head(doc, r);
	json_object_set_new(doc, "runs", json_array());
	json_object_foreach((json_t *)sections, key, v)
		if (before_settings(key))
			json_object_set(doc, key, v);
	add_comparison_settings(doc, r);
	json_object_foreach((json_t *)sections, key, v)
		if (!before_settings(key))
			json_object_set(doc, key, v);
	add_notes(doc, r);
	return doc;
}

json_t *report_json(const struct result *r, const json_t *sections)
{
	json_t *doc = doc_without_runs(r, sections), *a = json_object_get(doc, "runs");

	for (size_t i = 0; i < r->nruns; i++)
		json_array_append_new(a, report_json_run(r, &r->runs[i]));
	return doc;
}

/* ---- the document, streamed ------------------------------------------------ */

/*
 * json_dumps of the whole document needs the tree of every run at once (9
 * KB a run: 275 MB at the end of `stat -r 30000`, which ran in 18 MB), and
 * then its text twice. Instead each top-level member is dumped in turn, and
 * each run on its own, its tree freed before the next is made. jansson
 * indents a value by its depth, so a value dumped alone gets its depth's
 * spaces after every newline it writes (a newline inside a string is
 * written as \n, never raw): the bytes are those json_dumps writes for the
 * whole document (tests/unit/test_journal.c compares them).
 */
#define DOC_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(17))

struct stream {
	report_json_sink *sink;
	void *data;
	int depth;		/* spaces after each newline of the value dumped */
	int failed;
};

static int put(struct stream *st, const char *buf, size_t len)
{
	if (!st->failed && len && st->sink(buf, len, st->data))
		st->failed = 1;
	return st->failed ? -1 : 0;
}

static int put_indented(const char *buf, size_t len, void *data)
{
	static const char pad[] = "\n    ";
	struct stream *st = data;
	const char *nl;

	while (len && (nl = memchr(buf, '\n', len))) {
		put(st, buf, (size_t)(nl - buf));
		put(st, pad, 1 + (size_t)st->depth);
		len -= (size_t)(nl + 1 - buf);
		buf = nl + 1;
	}
	return put(st, buf, len);
}

static void put_value(struct stream *st, const json_t *v, int depth)
{
	st->depth = depth;
	if (json_dump_callback(v, put_indented, st, DOC_FLAGS | JSON_ENCODE_ANY))
		st->failed = 1;
}

/* ",\n "key": " (the key escaped as jansson escapes it) */
static void put_key(struct stream *st, const char *key, int first)
{
	json_t *k = json_string(key);

	put(st, first ? "\n " : ",\n ", first ? 2 : 3);
	if (k)
		put_value(st, k, 1);
	else
		st->failed = 1;
	json_decref(k);
	put(st, ": ", 2);
}

static void put_runs(struct stream *st, const struct result *r)
{
	if (!r->nruns) {
		put(st, "[]", 2);
		return;
	}
	put(st, "[", 1);
	for (size_t i = 0; i < r->nruns && !st->failed; i++) {
		json_t *run = report_json_run(r, &r->runs[i]);

		put(st, i ? ",\n  " : "\n  ", i ? 4 : 3);
		put_value(st, run, 2);
		json_decref(run);
	}
	put(st, "\n ]", 3);
}

int report_json_stream(const struct result *r, const json_t *sections, report_json_sink *sink,
		       void *data)
{
	struct stream st = { sink, data, 0, 0 };
	json_t *doc = doc_without_runs(r, sections), *v;
	const char *key;
	int first = 1;

	put(&st, "{", 1);
	json_object_foreach(doc, key, v) {
		put_key(&st, key, first);
		first = 0;
		if (!strcmp(key, "runs"))
			put_runs(&st, r);
		else
			put_value(&st, v, 1);
	}
	put(&st, "\n}\n", 3);
	json_decref(doc);
	return st.failed ? -1 : 0;
}

static int to_outfile(const char *buf, size_t len, void *data)
{
	return outfile_stream_write(data, buf, len);
}

/* The stream failed with no write error of the file's own: the encoding
 * did (out of memory). */
static int encode_failed(struct outfile_stream *out, const char *path, struct error *err)
{
	outfile_stream_abort(out);
	return error_set(err, ERR_RUNTIME, "cannot encode the result for '%s' as JSON", path);
}

/* Both writers stream their text into the temporary file that replaces
 * path (core/outfile.h): the text is never held whole, nor the tree of
 * every run. A failed write ends the stream and commit reports it. */
int report_json_write_doc(json_t *doc, const char *path, struct error *err)
{
	struct outfile_stream out;

	if (outfile_stream_open(&out, path, err))
		return -1;
	if (json_dump_callback(doc, to_outfile, &out, DOC_FLAGS) && !out.errnum)
		return encode_failed(&out, path, err);
	outfile_stream_write(&out, "\n", 1);
	return outfile_stream_commit(&out, err);
}

int report_json_write(const struct result *r, const json_t *sections, const char *path,
		      struct error *err)
{
	struct outfile_stream out;

	if (outfile_stream_open(&out, path, err))
		return -1;
	if (report_json_stream(r, sections, to_outfile, &out) && !out.errnum)
		return encode_failed(&out, path, err);
	return outfile_stream_commit(&out, err);
}
