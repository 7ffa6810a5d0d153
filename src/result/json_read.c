/*
 * JSON -> result (see json.h). Every object is read through a table of its
 * fields (key, type, where the value goes, allowed range), so each field is
 * checked in one place: a missing optional field keeps its default, null
 * counts as missing, and a value of the wrong type or out of range is an
 * error that names the field and shows the value. Indexes (variant, block,
 * position, group) are bounded integers before anything uses them, and what
 * the result takes in memory is bounded by the bytes it came from.
 */
#include "result/json.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "result/json_fields.h"

/* Blocks are numbered, not counted (analysis lays out only the blocks
 * present), but bounded so that merging results (blocks renumbered after
 * each other's) stays far from INT_MAX. 16 M blocks is weeks of the
 * shortest runs. */
#define MAX_BLOCK ((1 << 24) - 1)

/*
 * Memory a result takes once loaded and analysed: each run holds a value per
 * metric and a cell per variant in the comparison layout, each (variant,
 * metric) pair a summary, a comparison and a table row. It must stay within
 * report_json_budget() of the bytes it was read from: a run's JSON is some
 * hundred bytes and a value tens, so a real result is far inside (a run may
 * lack a value for over a thousand metrics), while a hostile one — a hundred
 * thousand empty runs times ten thousand metric names — cannot turn a few
 * hundred kilobytes into tens of gigabytes.
 */
#define PAIR_BYTES 1024.0
#define ENTRY_BYTES 64.0

size_t report_json_budget(size_t bytes)
{
	size_t extra = bytes > (SIZE_MAX - ((size_t)64 << 20)) / 256 ? SIZE_MAX / 2 : bytes * 256;

	return ((size_t)64 << 20) + extra;
}

static double cost(size_t runs, size_t metrics, size_t variants)
{
	return (double)runs * (double)metrics * (double)sizeof(struct result_value) +
	       (double)runs * (double)variants * (double)sizeof(int) +
	       (double)variants * (double)metrics * PAIR_BYTES +
	       (double)(runs + metrics + variants) * ENTRY_BYTES;
}

/* Would r with one more run, metric or variant still fit the budget? */
static int within_budget(const struct result *r, size_t runs, size_t metrics,
			 size_t variants, size_t budget, struct error *err)
{
	if (cost(r->nruns + runs, r->nmetrics + metrics, r->nvariants + variants) <=
	    (double)budget)
		return 0;
	/* A result pmustat wrote holds the values of its runs: not this one. */
	return error_set(err, ERR_USAGE, "too large for its size: %zu runs, %zu metrics and "
			 "%zu variant%s would take over %zu MiB", r->nruns + runs,
			 r->nmetrics + metrics, r->nvariants + variants,
			 r->nvariants + variants == 1 ? "" : "s", budget >> 20);
}

static const char *want_text(const struct field *f, char *buf, size_t len)
{
	switch (f->type) {
	case F_NUM:
		return "a number";
	case F_BOOL:
		return "true or false";
	case F_STR:
	case F_CHARS:
		return "a string";
	default:
		snprintf(buf, len, "an integer from %lld to %lld", f->lo, f->hi);
		return buf;
	}
}

/* "'block' is 1e+300, not an integer from 0 to 16777215" */
static int bad_value(const char *key, json_t *v, const char *want, struct error *err)
{
	char *shown;

	if (!v)
		return error_set(err, ERR_USAGE, "'%s' is missing (%s expected)", key, want);
	shown = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
	error_set(err, ERR_USAGE, "'%s' is %.40s%s, not %s", key, shown ? shown : "a value",
		  shown && strlen(shown) > 40 ? "..." : "", want);
	free(shown);
	return -1;
}

static int read_integer(const struct field *f, json_t *v, struct error *err)
{
	char want[80];
	json_int_t x = json_is_integer(v) ? json_integer_value(v) : 0;

	if (!json_is_integer(v) || x < f->lo || x > f->hi)
		return bad_value(f->key, v, want_text(f, want, sizeof(want)), err);
	if (f->type == F_INT)
		*(int *)f->dst = (int)x;
	else if (f->type == F_UINT)
		*(unsigned *)f->dst = (unsigned)x;
	else if (f->type == F_U32)
		*(uint32_t *)f->dst = (uint32_t)x;
	else if (f->type == F_SIZE)
		*(size_t *)f->dst = (size_t)x;
	else
		*(uint64_t *)f->dst = (uint64_t)x;
	return 0;
}

static int read_field(const struct field *f, json_t *v, struct error *err)
{
	switch (f->type) {
	case F_NUM:
		if (!json_is_number(v))
			return bad_value(f->key, v, "a number", err);
		*(double *)f->dst = json_number_value(v);
		return 0;
	case F_BOOL:
		if (!json_is_boolean(v))
			return bad_value(f->key, v, "true or false", err);
		*(int *)f->dst = json_is_true(v);
		return 0;
	case F_STR:
		if (!json_is_string(v))
			return bad_value(f->key, v, "a string", err);
		free(*(char **)f->dst);
		*(char **)f->dst = xstrdup(json_string_value(v));
		return 0;
	case F_CHARS:
		if (!json_is_string(v))
			return bad_value(f->key, v, "a string", err);
		snprintf((char *)f->dst, (size_t)f->hi, "%s", json_string_value(v));
		return 0;
	default:
		return read_integer(f, v, err);
	}
}

/* Read the fields of object o (what: its name, for an error when it is not
 * an object; a missing o has every field missing). */
static int read_fields(json_t *o, const char *what, const struct field *fields, size_t n,
		       struct error *err)
{
	char want[80];

	if (o && !json_is_null(o) && !json_is_object(o))
		return bad_value(what, o, "an object", err);
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_object_get(o, fields[i].key);

		if (v && !json_is_null(v)) {
			if (read_field(&fields[i], v, err))
				return -1;
		} else if (fields[i].required) {
			return bad_value(fields[i].key, NULL,
					 want_text(&fields[i], want, sizeof(want)), err);
		}
	}
	return 0;
}

int json_fields_read(json_t *o, const char *what, const struct field *fields, size_t n,
		     struct error *err)
{
	return read_fields(o, what, fields, n, err);
}

int json_field_bad(const char *key, json_t *v, const char *want, struct error *err)
{
	return bad_value(key, v, want, err);
}

/* A required string member: its value, or NULL with err set. */
static const char *need_string(json_t *o, const char *key, struct error *err)
{
	json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		return json_string_value(v);
	bad_value(key, v, "a string", err);
	return NULL;
}

static int read_host(struct hostinfo *h, json_t *o, struct error *err)
{
	json_t *cpu = json_object_get(o, "cpu");
	const struct field host[] = {
		{ "kernel", F_CHARS, h->kernel, 0, sizeof(h->kernel) },
		{ "machine", F_CHARS, h->machine, 0, sizeof(h->machine) },
		{ "governor", F_CHARS, h->governor, 0, sizeof(h->governor) },
		{ "ncpus", F_INT, &h->ncpus, 0, INT_MAX },
		{ "hypervisor", F_BOOL, &h->hypervisor },
		{ "perf_event_paranoid", F_INT, &h->paranoid, INT_MIN, INT_MAX },
		{ "aslr", F_INT, &h->aslr, INT_MIN, INT_MAX },
		{ "hw_pmu", F_BOOL, &h->hw_pmu },
		{ "hostname", F_CHARS, h->hostname, 0, sizeof(h->hostname) },
		{ "uarch", F_CHARS, h->uarch, 0, sizeof(h->uarch) },
		{ "smt", F_BOOL, &h->smt },
	};
	const struct field slurm[] = {
		{ "job_id", F_CHARS, h->slurm_job, 0, sizeof(h->slurm_job) },
		{ "step_id", F_CHARS, h->slurm_step, 0, sizeof(h->slurm_step) },
		{ "task_id", F_INT, &h->slurm_task, -1, INT_MAX },
		{ "node", F_CHARS, h->slurm_node, 0, sizeof(h->slurm_node) },
	};
	const struct field cpuf[] = {
		{ "vendor", F_CHARS, h->vendor, 0, sizeof(h->vendor) },
		{ "model_name", F_CHARS, h->model_name, 0, sizeof(h->model_name) },
		{ "family", F_INT, &h->family, -1, INT_MAX },
		{ "model", F_INT, &h->model, -1, INT_MAX },
		{ "stepping", F_INT, &h->stepping, -1, INT_MAX },
	};

	memset(h, 0, sizeof(*h));
	h->family = h->model = h->stepping = -1;
	h->hypervisor = -1;
	h->paranoid = -100;
	h->aslr = -1;
	h->smt = -1;
	h->slurm_task = -1;
	if (read_fields(o, "host", host, NFIELDS(host), err) ||
	    read_fields(cpu, "cpu", cpuf, NFIELDS(cpuf), err) ||
	    read_fields(json_object_get(o, "slurm"), "slurm", slurm, NFIELDS(slurm), err))
		return error_prefix(err, "host");
	return 0;
}

static const struct {
	const char *name;
	enum metric_source src;
} backends[] = {
	{ "clock", MSRC_CLOCK }, { "rusage", MSRC_RUSAGE }, { "derived", MSRC_FORMULA },
	{ "calls", MSRC_CALLS }, { "uprobe", MSRC_CALLS }, { "preload", MSRC_CALLS },
	{ "sim", MSRC_SIM },	 { "region", MSRC_REGION }, { "profile", MSRC_PROFILE },
	{ "host", MSRC_HOST },
};

/* The source a recorded backend name stands for; anything else is perf. */
static enum metric_source backend_source(json_t *o)
{
	const char *backend = json_string_value(json_object_get(o, "backend"));

	for (size_t i = 0; backend && i < NFIELDS(backends); i++)
		if (!strcmp(backend, backends[i].name))
			return backends[i].src;
	return MSRC_PERF;
}

int report_json_add_metric(struct result *r, json_t *o, size_t budget, struct error *err)
{
	const char *name, *unit;
	struct result_metric *m;

	if (!json_is_object(o))
		return bad_value("metric", o, "an object", err);
	if (!(name = need_string(o, "name", err)) || !(unit = need_string(o, "unit", err)) ||
	    within_budget(r, 0, 1, 0, budget, err))
		return -1;
	m = result_add_metric_late(r, name, unit, backend_source(o));
	m->available = 0;
	const struct field fields[] = {
		{ "backend", F_STR, &m->backend },
		{ "pmu", F_STR, &m->pmu },
		{ "type", F_U32, &m->type, 0, UINT32_MAX },
		{ "config", F_U64, &m->config, LLONG_MIN, LLONG_MAX },
		{ "config1", F_U64, &m->config1, LLONG_MIN, LLONG_MAX },
		{ "config2", F_U64, &m->config2, LLONG_MIN, LLONG_MAX },
		{ "group", F_INT, &m->group, -1, INT_MAX },
		{ "scale", F_NUM, &m->scale },
		{ "available", F_BOOL, &m->available },
		{ "core_type", F_BOOL, &m->core_type },
		{ "reason", F_STR, &m->reason },
		{ "hint", F_STR, &m->hint },
		{ "formula", F_STR, &m->formula },
		{ "proxy", F_STR, &m->proxy },
		{ "hidden", F_BOOL, &m->hidden },
		{ "origin", F_STR, &m->origin },
		{ "implicit", F_BOOL, &m->implicit },
	};

	return read_fields(o, "metric", fields, NFIELDS(fields), err);
}

/* One value of a run: null or missing = not measured. */
static int read_value(struct result_value *x, const char *name, json_t *v, struct error *err)
{
	const struct field fields[] = {
		{ "value", F_NUM, &x->value, 0, 0, 1 },
		{ "time_enabled", F_U64, &x->enabled, 0, LLONG_MAX },
		{ "time_running", F_U64, &x->running, 0, LLONG_MAX },
	};

	if (!v || json_is_null(v))
		return 0;
	if (read_fields(v, name, fields, NFIELDS(fields), err))
		return error_prefix(err, "value of '%s'", name);
	x->valid = 1;
	return 0;
}

static int read_values(const struct result *r, struct result_run *run, json_t *vals,
		       struct error *err)
{
	if (!vals || json_is_null(vals))
		return 0;
	if (!json_is_object(vals))
		return bad_value("values", vals, "an object", err);
	for (size_t m = 0; m < r->nmetrics; m++)
		if (read_value(&run->values[m], r->metrics[m].name,
			       json_object_get(vals, r->metrics[m].name), err))
			return -1;
	return 0;
}

static int read_status(struct result_run *run, json_t *o, struct error *err)
{
	json_t *v = json_object_get(o, "status");

	run->status = RUN_OK;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v) || run_status_parse(json_string_value(v), &run->status))
		return bad_value("status", v, "a run status ('ok', 'failed', ...)", err);
	return 0;
}

int report_json_add_run(struct result *r, json_t *o, size_t budget, struct error *err)
{
	struct result_run *run;

	if (!json_is_object(o))
		return bad_value("run", o, "an object", err);
	if (within_budget(r, 1, 0, 0, budget, err))
		return -1;
	run = result_add_run(r);
	const struct field fields[] = {
		{ "variant", F_INT, &run->variant, 0, (long long)r->nvariants - 1 },
		{ "block", F_INT, &run->block, 0, MAX_BLOCK },
		{ "position", F_INT, &run->position, 0, INT_MAX },
		{ "group", F_INT, &run->group, -1, INT_MAX },
		{ "warmup", F_BOOL, &run->warmup },
		{ "simulated", F_BOOL, &run->simulated },
		{ "traced", F_BOOL, &run->traced },
		{ "instrumented", F_BOOL, &run->instrumented },
		{ "start_time", F_NUM, &run->start_time },
		{ "env_pad", F_SIZE, &run->env_pad, 0, LLONG_MAX },
		{ "exit_code", F_INT, &run->exit_code, INT_MIN, INT_MAX },
		{ "signal", F_INT, &run->signal, 0, INT_MAX },
		{ "left_behind", F_UINT, &run->left_behind, 0, INT_MAX },
		{ "left_kept", F_BOOL, &run->left_kept },
	};

	if (read_fields(o, "run", fields, NFIELDS(fields), err) || read_status(run, o, err))
		return -1;
	return read_values(r, run, json_object_get(o, "values"), err);
}

static int note_level(const char *level, enum note_level *out, struct error *err)
{
	if (!level || !strcmp(level, "note"))
		*out = NOTE_NOTE;
	else if (!strcmp(level, "warning"))
		*out = NOTE_WARNING;
	else
		return error_set(err, ERR_USAGE, "'level' is '%.40s', not 'note' or 'warning'",
				 level);
	return 0;
}

int report_json_add_note(struct result *r, json_t *o, size_t budget, struct error *err)
{
	char *level = NULL, *metric = NULL, *hint = NULL, *text = NULL;
	const struct field fields[] = {
		{ "level", F_STR, &level },
		{ "metric", F_STR, &metric },
		{ "text", F_STR, &text, 0, 0, 1 },
		{ "hint", F_STR, &hint },
	};
	enum note_level lvl = NOTE_NOTE;
	int rc = read_fields(o, "note", fields, NFIELDS(fields), err);

	(void)budget;	/* a note is its own text: no more than its bytes */
	if (!rc)
		rc = note_level(level, &lvl, err);
	if (!rc)
		result_add_note(r, lvl, metric, hint, "%s", text);
	free(level);
	free(metric);
	free(hint);
	free(text);
	return rc;
}

static char **read_argv(json_t *a, struct error *err)
{
	size_t n = json_array_size(a);
	char **argv;

	if (a && !json_is_array(a)) {
		bad_value("argv", a, "an array of strings", err);
		return NULL;
	}
	argv = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		json_t *s = json_array_get(a, i);

		argv[i] = xstrdup(json_is_string(s) ? json_string_value(s) : "");
	}
	return argv;
}

static int read_variant(struct result *r, json_t *o, size_t budget, struct error *err)
{
	const char *name;
	char **argv;
	size_t v;

	if (!json_is_object(o))
		return bad_value("variant", o, "an object", err);
	if (r->nvariants == RESULT_MAX_VARIANTS)	/* what compare can run */
		return error_set(err, ERR_USAGE, "more than %d variants", RESULT_MAX_VARIANTS);
	if (within_budget(r, 0, 0, 1, budget, err))
		return -1;
	if (!(name = need_string(o, "name", err)) || !(argv = read_argv(json_object_get(o, "argv"), err)))
		return -1;
	v = result_add_variant(r, name, argv);
	strv_free(argv);
	const struct field fields[] = {
		{ "exec_path", F_STR, &r->variants[v].exec_path },
	};

	return read_fields(o, "variant", fields, NFIELDS(fields), err);
}

/* Each element of doc[key] through add; errors say which ("run 3: ..."). */
static int read_array(struct result *r, json_t *doc, const char *key, const char *what,
		      int (*add)(struct result *, json_t *, size_t, struct error *), size_t budget,
		      struct error *err)
{
	json_t *a = json_object_get(doc, key), *o;
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return bad_value(key, a, "an array", err);
	json_array_foreach(a, i, o)
		if (add(r, o, budget, err))
			return error_prefix(err, "%s %zu", what, i);
	return 0;
}

static int read_comparison(struct result *r, json_t *cmp, struct error *err)
{
	char *base = NULL;
	const struct field fields[] = {
		{ "baseline", F_STR, &base },
		{ "noise_band", F_NUM, &r->noise_band },
		{ "primary", F_STR, &r->primary },
		{ "sequential", F_BOOL, &r->decide },
		{ "cs_rho", F_NUM, &r->cs_rho },
		{ "min_blocks", F_UINT, &r->min_blocks, 0, INT_MAX },
		{ "target", F_NUM, &r->target },
	};
	int rc = read_fields(cmp, "comparison", fields, NFIELDS(fields), err);

	for (size_t i = 0; !rc && base && i < r->nvariants; i++)
		if (!strcmp(r->variants[i].name, base))
			r->baseline = (int)i;
	free(base);
	return rc;
}

static int read_doc(struct result *r, json_t *doc, size_t budget, struct error *err)
{
	const struct field top[] = {
		{ "created", F_NUM, &r->created },
		{ "complete", F_BOOL, &r->complete },
		{ "interrupted", F_BOOL, &r->interrupted },
		{ "stop_reason", F_STR, &r->stop_reason },
	};
	const struct field opts[] = {
		{ "seed", F_U64, &r->seed, LLONG_MIN, LLONG_MAX },
		{ "repeat", F_UINT, &r->repeat, 0, INT_MAX },
		{ "warmup", F_UINT, &r->warmup, 0, INT_MAX },
		{ "timeout", F_NUM, &r->timeout_s },
		{ "keep_children", F_BOOL, &r->keep_children },
		{ "kernel_excluded", F_BOOL, &r->kernel_excluded },
		{ "pin_cpu", F_INT, &r->pin_cpu, -1, INT_MAX },
		{ "env_pad_max", F_SIZE, &r->env_pad_max, 0, LLONG_MAX },
	};

	const struct field tool[] = {
		{ "version", F_CHARS, r->tool_version, 0, sizeof(r->tool_version) },
	};

	r->complete = 0;
	r->tool_version[0] = '\0';
	if (read_fields(doc, "result", top, NFIELDS(top), err) ||
	    read_fields(json_object_get(doc, "tool"), "tool", tool, NFIELDS(tool), err) ||
	    read_host(&r->host, json_object_get(doc, "host"), err))
		return -1;
	const struct field target[] = {	/* stat -p/-t/-a/-I (campaign/target.c) */
		{ "kind", F_STR, &r->attach.kind },
		{ "ids", F_STR, &r->attach.ids },
		{ "threads", F_STR, &r->attach.threads },
		{ "cpus", F_STR, &r->attach.cpus },
		{ "interval_ms", F_UINT, &r->attach.interval_ms, 0, INT_MAX },
		{ "duration_s", F_NUM, &r->attach.duration_s },
	};

	if (read_fields(json_object_get(doc, "options"), "options", opts, NFIELDS(opts), err))
		return error_prefix(err, "options");
	if (read_fields(json_object_get(json_object_get(doc, "options"), "target"), "target",
			target, NFIELDS(target), err))
		return error_prefix(err, "options");
	if (read_array(r, doc, "variants", "variant", read_variant, budget, err) ||
	    read_array(r, doc, "metrics", "metric", report_json_add_metric, budget, err) ||
	    read_array(r, doc, "runs", "run", report_json_add_run, budget, err) ||
	    read_array(r, doc, "notes", "note", report_json_add_note, budget, err))
		return -1;
	return read_comparison(r, json_object_get(doc, "comparison"), err);
}

static int check_schema(json_t *doc, const char *path, struct error *err)
{
	json_t *schema = json_object_get(doc, "schema");
	json_t *cmd = json_object_get(doc, "command");

	if (!json_is_string(schema) || strcmp(json_string_value(schema), RESULT_SCHEMA)) {
		error_set(err, ERR_USAGE, "'%s' is not a pmustat result (schema %s expected)",
			  path, RESULT_SCHEMA);
		return error_hint(err, "give a file written by 'pmustat stat/compare -o FILE'");
	}
	if (cmd && !json_is_string(cmd)) {
		bad_value("command", cmd, "a string", err);
		return error_prefix(err, "'%s'", path);
	}
	if (!json_array_size(json_object_get(doc, "variants"))) {
		error_set(err, ERR_USAGE, "'%s' has no variants", path);
		return error_hint(err, "give a file written by 'pmustat stat/compare -o FILE'");
	}
	return 0;
}

int report_json_load(struct result *r, json_t *doc, const char *path, size_t budget,
		     struct error *err)
{
	const char *cmd = json_string_value(json_object_get(doc, "command"));

	memset(r, 0, sizeof(*r));
	if (check_schema(doc, path, err))
		return -1;
	result_init(r, cmd ? cmd : "stat");
	if (read_doc(r, doc, budget, err)) {
		result_release(r);
		error_prefix(err, "'%s'", path);
		return error_hint(err, "check that the file is a result written by pmustat");
	}
	return 0;
}

/* ---- files: a result, a skeleton with its journal, or a journal --------- */
