/*
 * bisect.json -> struct bisect_doc (result/bisect_doc.h). The document comes
 * from anywhere (copied from another machine, edited, cut short by a kill),
 * so every field goes through the same field tables as a result
 * (result/json_fields.h): a wrong type or an out-of-range number is an error
 * naming the field and the step it is in, never a crash; a missing optional
 * field stays absent and the renderers show less. The file is read only if
 * it is a regular file of at most REPORT_FILE_MAX bytes.
 */
#include "result/bisect_doc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safeopen.h"
#include "core/strbuf.h"
#include "result/json.h"
#include "result/json_fields.h"

/* Positions, counts and indexes: far above any real history, far below
 * what an int or a size_t arithmetic on them could overflow. */
#define MAX_COUNT (1LL << 40)

static int read_commit(struct bisect_commit *c, json_t *o, const char *what,
		       struct error *err)
{
	const struct field f[] = {
		{ "rev", F_STR, &c->rev },
		{ "commit", F_STR, &c->commit },
		{ "short", F_STR, &c->abbrev },
		{ "subject", F_STR, &c->subject },
	};

	return json_fields_read(o, what, f, NFIELDS(f), err);
}

static int read_cmp(struct bisect_cmp *k, json_t *o, const char *what, struct error *err)
{
	const struct field f[] = {
		{ "metric", F_STR, &k->metric },
		{ "verdict", F_STR, &k->verdict },
		{ "ratio", F_NUM, &k->ratio },
		{ "ci_lo", F_NUM, &k->ci_lo },
		{ "ci_hi", F_NUM, &k->ci_hi },
		{ "mean_this", F_NUM, &k->mean_this },
		{ "mean_that", F_NUM, &k->mean_that },
		{ "n", F_SIZE, &k->n, 0, MAX_COUNT },
		{ "exact", F_BOOL, &k->exact },
	};

	k->ratio = k->ci_lo = k->ci_hi = k->mean_this = k->mean_that = NAN;
	if (!o || json_is_null(o))
		return 0;
	k->present = 1;
	return json_fields_read(o, what, f, NFIELDS(f), err);
}

static int read_step(struct bisect_step *s, json_t *o, const char *what, struct error *err)
{
	json_t *build = json_object_get(o, "build"), *win = json_object_get(o, "window");
	const struct field f[] = {
		{ "index", F_INT, &s->index, 0, INT_MAX },
		{ "kind", F_STR, &s->kind },
		{ "position", F_SIZE, &s->position, 0, MAX_COUNT },
		{ "outcome", F_STR, &s->outcome },
		{ "reason", F_STR, &s->reason },
		{ "runs", F_SIZE, &s->runs, 0, MAX_COUNT },
		{ "blocks", F_SIZE, &s->blocks, 0, MAX_COUNT },
		{ "stop_reason", F_STR, &s->stop_reason },
		{ "result", F_STR, &s->result },
	};
	const struct field b[] = {
		{ "status", F_STR, &s->build_status },
		{ "log", F_STR, &s->build_log },
		{ "exit", F_INT, &s->build_exit, INT_MIN, INT_MAX },
	};
	const struct field w[] = {
		{ "lo", F_SIZE, &s->window_lo, 0, MAX_COUNT, 1 },
		{ "hi", F_SIZE, &s->window_hi, 0, MAX_COUNT, 1 },
	};

	if (!o || json_is_null(o))
		return 0;
	s->present = 1;
	s->build_exit = INT_MIN;
	if (json_fields_read(o, what, f, NFIELDS(f), err) ||
	    read_commit(&s->c, o, what, err) ||
	    json_fields_read(build, "build", b, NFIELDS(b), err) ||
	    (win && !json_is_null(win) && json_fields_read(win, "window", w, NFIELDS(w), err)) ||
	    read_cmp(&s->vs_good, json_object_get(o, "vs_good"), "vs_good", err) ||
	    read_cmp(&s->vs_bad, json_object_get(o, "vs_bad"), "vs_bad", err))
		return -1;	/* the caller names the step */
	s->has_build_exit = s->build_exit != INT_MIN;
	s->has_window = win && !json_is_null(win);
	return 0;
}

/* The array member key of o (absent or null: none), each element read by
 * one(elem, index); *n counts the elements touched so far, so that a
 * failure leaves what was read releasable. */
typedef int read_elem_fn(struct bisect_doc *d, json_t *e, size_t i, struct error *err);

static int read_array(struct bisect_doc *d, json_t *o, const char *key, void **arr,
		      size_t size, size_t *n, read_elem_fn *one, struct error *err)
{
	json_t *a = json_object_get(o, key);

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return json_field_bad(key, a, "an array", err);
	*arr = xcalloc(json_array_size(a) + 1, size);
	for (size_t i = 0; i < json_array_size(a); i++) {
		*n = i + 1;	/* zeroed, so releasable even if read halfway */
		if (one(d, json_array_get(a, i), i, err))
			return error_prefix(err, "%s[%zu]", key, i);
	}
	return 0;
}

static int one_step(struct bisect_doc *d, json_t *e, size_t i, struct error *err)
{
	if (!json_is_object(e))
		return json_field_bad("step", e, "an object", err);
	return read_step(&d->steps[i], e, "step", err);
}

static int one_remaining(struct bisect_doc *d, json_t *e, size_t i, struct error *err)
{
	return read_commit(&d->remaining[i], e, "commit", err);
}

static int one_range(struct bisect_doc *d, json_t *e, size_t i, struct error *err)
{
	return read_commit(&d->range[i], e, "commit", err);
}

static int one_function(struct bisect_doc *d, json_t *e, size_t i, struct error *err)
{
	struct bisect_profile_fn *p = &d->functions[i];
	const struct field f[] = {
		{ "name", F_STR, &p->name, 0, 0, 1 },
		{ "ratio", F_NUM, &p->ratio },
		{ "ci_lo", F_NUM, &p->ci_lo },
		{ "ci_hi", F_NUM, &p->ci_hi },
		{ "share_base", F_NUM, &p->share_base },
		{ "share_culprit", F_NUM, &p->share_culprit },
	};

	p->ratio = p->ci_lo = p->ci_hi = p->share_base = p->share_culprit = NAN;
	return json_fields_read(e, "function", f, NFIELDS(f), err);
}

static int one_site(struct bisect_doc *d, json_t *e, size_t i, struct error *err)
{
	struct bisect_profile_site *p = &d->sites[i];
	const struct field f[] = {
		{ "site", F_STR, &p->site, 0, 0, 1 },
		{ "calls_base", F_NUM, &p->calls_base },
		{ "calls_culprit", F_NUM, &p->calls_culprit },
	};

	p->calls_base = p->calls_culprit = NAN;
	return json_fields_read(e, "alloc site", f, NFIELDS(f), err);
}

static int one_note(struct bisect_doc *d, json_t *e, size_t i, struct error *err)
{
	char *level = NULL;
	const struct field f[] = {
		{ "level", F_STR, &level },
		{ "text", F_STR, &d->notes[i].text, 0, 0, 1 },
	};
	int rc = json_fields_read(e, "note", f, NFIELDS(f), err);

	d->notes[i].warning = level && !strcmp(level, "warning");
	free(level);
	return rc;
}

static int one_arg(struct bisect_doc *d, json_t *e, size_t i, struct error *err)
{
	if (!json_is_string(e))
		return json_field_bad("command", e, "a string", err);
	d->command[i] = xstrdup(json_string_value(e));
	return 0;
}

static int read_culprit(struct bisect_doc *d, json_t *o, struct error *err)
{
	const struct field f[] = { { "parent", F_STR, &d->culprit_parent } };

	if (!o || json_is_null(o))
		return 0;
	d->has_culprit = 1;
	if (read_commit(&d->culprit, o, "culprit", err) ||
	    json_fields_read(o, "culprit", f, NFIELDS(f), err) ||
	    read_cmp(&d->change, json_object_get(o, "change"), "change", err))
		return error_prefix(err, "culprit");
	return 0;
}

static int read_profile(struct bisect_doc *d, json_t *o, struct error *err)
{
	const struct field f[] = { { "result", F_STR, &d->profile_result } };
	size_t nf = 0, ns = 0;
	int rc;

	if (!o || json_is_null(o))
		return 0;
	d->has_profile = 1;
	rc = json_fields_read(o, "profile", f, NFIELDS(f), err) ||
	     read_array(d, o, "functions", (void **)&d->functions, sizeof(*d->functions), &nf,
			one_function, err) ||
	     read_array(d, o, "alloc_sites", (void **)&d->sites, sizeof(*d->sites), &ns,
			one_site, err);
	d->nfunctions = nf;
	d->nsites = ns;
	return rc ? error_prefix(err, "profile") : 0;
}

static int read_top(struct bisect_doc *d, json_t *doc, struct error *err)
{
	json_t *build = json_object_get(doc, "build");
	const struct field f[] = {
		{ "created", F_STR, &d->created },
		{ "complete", F_BOOL, &d->complete },
		{ "repository", F_STR, &d->repository },
		{ "primary", F_STR, &d->primary },
		{ "exact", F_BOOL, &d->exact },
		{ "alpha", F_NUM, &d->alpha },
		{ "noise_band", F_NUM, &d->noise_band },
		{ "candidates", F_SIZE, &d->candidates, 0, MAX_COUNT },
		{ "max_decisions", F_SIZE, &d->max_decisions, 0, MAX_COUNT },
		{ "outcome", F_STR, &d->outcome },
		{ "direction", F_STR, &d->direction },
		{ "decisions", F_SIZE, &d->decisions, 0, MAX_COUNT },
		{ "skipped", F_SIZE, &d->skipped, 0, MAX_COUNT },
		{ "runs_total", F_SIZE, &d->runs_total, 0, MAX_COUNT },
	};
	const struct field b[] = {
		{ "command", F_STR, &d->build_command },
		{ "shell", F_BOOL, &d->build_shell },
	};
	const struct field t[] = { { "version", F_STR, &d->tool_version } };

	d->alpha = d->noise_band = NAN;
	return json_fields_read(doc, "bisect", f, NFIELDS(f), err) ||
	       json_fields_read(build, "build", b, NFIELDS(b), err) ||
	       json_fields_read(json_object_get(doc, "tool"), "tool", t, NFIELDS(t), err) ||
	       read_commit(&d->good, json_object_get(doc, "good"), "good", err) ||
	       read_commit(&d->bad, json_object_get(doc, "bad"), "bad", err);
}

static int read_doc(struct bisect_doc *d, json_t *doc, struct error *err)
{
	size_t n = 0;

	if (read_top(d, doc, err))
		return -1;
	if (read_step(&d->premise, json_object_get(doc, "premise"), "premise", err))
		return error_prefix(err, "premise");
	if (read_step(&d->confirm, json_object_get(doc, "confirm"), "confirm", err))
		return error_prefix(err, "confirm");
	if (read_culprit(d, json_object_get(doc, "culprit"), err) ||
	    read_profile(d, json_object_get(doc, "profile"), err))
		return -1;
	if (read_array(d, doc, "command", (void **)&d->command, sizeof(char *), &n, one_arg, err))
		return -1;
	if (read_array(d, doc, "steps", (void **)&d->steps, sizeof(*d->steps), &d->nsteps,
		       one_step, err) ||
	    read_array(d, doc, "remaining", (void **)&d->remaining, sizeof(*d->remaining),
		       &d->nremaining, one_remaining, err) ||
	    read_array(d, doc, "range", (void **)&d->range, sizeof(*d->range), &d->nrange,
		       one_range, err) ||
	    read_array(d, doc, "notes", (void **)&d->notes, sizeof(*d->notes), &d->nnotes,
		       one_note, err))
		return -1;
	return 0;
}

static json_t *load(const char *path, struct error *err)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t je;
	json_t *doc = NULL;
	int rc = strbuf_read_regular(&text, path, REPORT_FILE_MAX);

	if (rc == 0)
		doc = json_loadb(text.buf, text.len, 0, &je);
	if (rc < 0 || rc == 2)
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path,
			  rc == 2 ? "not a regular file" : strerror(errno));
	else if (rc == 1)
		error_set(err, ERR_RUNTIME, "'%s' is larger than %zu MiB", path,
			  REPORT_FILE_MAX >> 20);
	else if (!doc)
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s (line %d)", path, je.text,
			  je.line);
	strbuf_release(&text);
	if (!doc)
		error_hint(err, "check that the file is the bisect.json a bisect wrote");
	return doc;
}

/* The schema member of a bisect's document is its first (the writer puts
 * it there, as every pmustat document): the sniff reads the first bytes
 * only, so that `report` on a result of tens of MiB does not parse it twice. */
#define SNIFF_BYTES 4096

int bisect_doc_sniff(const char *path)
{
	char head[SNIFF_BYTES + 1];
	const char *p = NULL;
	int yes = 0, fd = safeopen_read(path, 0);
	size_t len = 0;
	ssize_t got = 1;

	while (fd >= 0 && len < SNIFF_BYTES && got > 0)
		if ((got = read(fd, head + len, SNIFF_BYTES - len)) > 0)
			len += (size_t)got;
	if (fd >= 0)
		close(fd);
	head[len] = 0;
	p = strstr(head, "\"schema\"");
	if (p) {
		p += strlen("\"schema\"");
		p += strspn(p, " \t\r\n");
		if (*p == ':') {
			p++;
			p += strspn(p, " \t\r\n");
			yes = !strncmp(p, "\"" BISECT_SCHEMA "\"", strlen(BISECT_SCHEMA) + 2);
		}
	}
	return yes;
}

int bisect_doc_read(struct bisect_doc *d, const char *path, struct error *err)
{
	json_t *doc;
	const char *schema;

	memset(d, 0, sizeof(*d));
	doc = load(path, err);
	if (!doc)
		return -1;
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema || strcmp(schema, BISECT_SCHEMA)) {
		json_decref(doc);
		error_set(err, ERR_RUNTIME, "'%s' is not a bisect result (schema '%s')", path,
			  schema ? schema : "none");
		return error_hint(err, "give the bisect.json in the directory 'pmustat bisect -o' "
				  "wrote");
	}
	if (read_doc(d, doc, err)) {
		json_decref(doc);
		bisect_doc_release(d);
		error_prefix(err, "'%s'", path);
		return error_hint(err, "the document was changed or cut; 'pmustat bisect' with the "
				  "same arguments rewrites it from its journal");
	}
	json_decref(doc);
	return 0;
}

static void commit_release(struct bisect_commit *c)
{
	free(c->rev);
	free(c->commit);
	free(c->abbrev);
	free(c->subject);
}

static void cmp_release(struct bisect_cmp *k)
{
	free(k->metric);
	free(k->verdict);
}

static void step_release(struct bisect_step *s)
{
	commit_release(&s->c);
	free(s->kind);
	free(s->outcome);
	free(s->reason);
	free(s->build_status);
	free(s->build_log);
	free(s->stop_reason);
	free(s->result);
	cmp_release(&s->vs_good);
	cmp_release(&s->vs_bad);
}

static void commits_free(struct bisect_commit *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		commit_release(&v[i]);
	free(v);
}

void bisect_doc_release(struct bisect_doc *d)
{
	free(d->tool_version);
	free(d->created);
	free(d->repository);
	strv_free(d->command);
	free(d->build_command);
	free(d->primary);
	commit_release(&d->good);
	commit_release(&d->bad);
	step_release(&d->premise);
	step_release(&d->confirm);
	for (size_t i = 0; i < d->nsteps; i++)
		step_release(&d->steps[i]);
	free(d->steps);
	free(d->outcome);
	free(d->direction);
	commit_release(&d->culprit);
	free(d->culprit_parent);
	cmp_release(&d->change);
	commits_free(d->remaining, d->nremaining);
	commits_free(d->range, d->nrange);
	free(d->profile_result);
	for (size_t i = 0; i < d->nfunctions; i++)
		free(d->functions[i].name);
	free(d->functions);
	for (size_t i = 0; i < d->nsites; i++)
		free(d->sites[i].site);
	free(d->sites);
	for (size_t i = 0; i < d->nnotes; i++)
		free(d->notes[i].text);
	free(d->notes);
	memset(d, 0, sizeof(*d));
}
