/*
 * bisect.json -> struct bisect_result (result/bisect.h), the whole
 * document as `pmustat report` reads it back; the steps, commits and
 * comparisons are read by the same functions that read the journal
 * (result/bisect.c), the rest through the field tables of
 * result/json_fields.h. The document comes from anywhere (copied from
 * another machine, edited, cut short by a kill), so a wrong type or an
 * out-of-range number is an error naming the field, never a crash; a
 * missing optional field stays absent and the renderers show less. The
 * file is read only if it is a regular file (result/json.h:
 * report_file_open), of any size.
 */
#include "result/bisect_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/safeopen.h"
#include "core/strbuf.h"
#include "result/bisect.h"
#include "result/json.h"
#include "result/json_fields.h"

/* Positions, counts and indexes: far above any real history, far below
 * what an int or a size_t arithmetic on them could overflow. */
#define MAX_COUNT (1LL << 40)

/* The array member key of o (absent or null: none), each element read by
 * one(); *n counts the elements touched so far, so that a failure leaves
 * what was read releasable. */
typedef int read_elem_fn(struct bisect_result *b, json_t *e, size_t i, struct error *err);

static int read_array(struct bisect_result *b, json_t *o, const char *key, void **arr,
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
		if (one(b, json_array_get(a, i), i, err))
			return error_prefix(err, "%s[%zu]", key, i);
	}
	return 0;
}

static int one_step(struct bisect_result *b, json_t *e, size_t i, struct error *err)
{
	return bisect_rec_step_from_json(e, &b->steps[i], "step", err);
}

static int one_remaining(struct bisect_result *b, json_t *e, size_t i, struct error *err)
{
	return bisect_rec_commit_from_json(e, &b->remaining[i], "commit", err);
}

static int one_range(struct bisect_result *b, json_t *e, size_t i, struct error *err)
{
	return bisect_rec_commit_from_json(e, &b->range[i], "commit", err);
}

static int one_hot(struct bisect_rec_hot *h, json_t *e, const char *name, const char *base,
		   const char *culprit, struct error *err)
{
	const struct field f[] = {
		{ name, F_STR, &h->name, 0, 0, 1 },
		{ "ratio", F_NUM, &h->ratio },
		{ "ci_lo", F_NUM, &h->ci_lo },
		{ "ci_hi", F_NUM, &h->ci_hi },
		{ base, F_NUM, &h->base },
		{ culprit, F_NUM, &h->culprit },
	};

	h->ratio = h->ci_lo = h->ci_hi = h->base = h->culprit = NAN;
	return json_fields_read(e, name, f, NFIELDS(f), err);
}

static int one_function(struct bisect_result *b, json_t *e, size_t i, struct error *err)
{
	return one_hot(&b->hot_fns[i], e, "name", "share_base", "share_culprit", err);
}

static int one_site(struct bisect_result *b, json_t *e, size_t i, struct error *err)
{
	return one_hot(&b->hot_sites[i], e, "site", "calls_base", "calls_culprit", err);
}

static int one_note(struct bisect_result *b, json_t *e, size_t i, struct error *err)
{
	char *level = NULL;
	const struct field f[] = {
		{ "level", F_STR, &level },
		{ "text", F_STR, &b->notes[i].text, 0, 0, 1 },
	};
	int rc = json_fields_read(e, "note", f, NFIELDS(f), err);

	b->notes[i].warning = level && !strcmp(level, "warning");
	free(level);
	return rc;
}

static int one_arg(struct bisect_result *b, json_t *e, size_t i, struct error *err)
{
	if (!json_is_string(e))
		return json_field_bad("command", e, "a string", err);
	b->argv[i] = xstrdup(json_string_value(e));
	return 0;
}

/* A step member (premise, confirm) or null. */
static int read_step(json_t *o, struct bisect_rec_step *s, int *has, const char *what,
		     struct error *err)
{
	if (!o || json_is_null(o))
		return 0;
	*has = 1;
	return bisect_rec_step_from_json(o, s, what, err);
}

static int read_culprit(struct bisect_result *b, json_t *o, struct error *err)
{
	const struct field f[] = { { "parent", F_CHARS, b->parent, 0, sizeof(b->parent) } };

	if (!o || json_is_null(o))
		return 0;
	b->has_culprit = 1;
	if (bisect_rec_commit_from_json(o, &b->culprit, "culprit", err) ||
	    json_fields_read(o, "culprit", f, NFIELDS(f), err) ||
	    bisect_rec_cmp_from_json(json_object_get(o, "change"), &b->change, "change", err))
		return error_prefix(err, "culprit");
	return 0;
}

static int read_profile(struct bisect_result *b, json_t *o, struct error *err)
{
	const struct field f[] = { { "result", F_STR, &b->profile_result } };

	if (!o || json_is_null(o))
		return 0;
	if (json_fields_read(o, "profile", f, NFIELDS(f), err) ||
	    read_array(b, o, "functions", (void **)&b->hot_fns, sizeof(*b->hot_fns),
		       &b->nhot_fns, one_function, err) ||
	    read_array(b, o, "alloc_sites", (void **)&b->hot_sites, sizeof(*b->hot_sites),
		       &b->nhot_sites, one_site, err))
		return error_prefix(err, "profile");
	return 0;
}

/* "2026-12-02T07:10:00Z" -> seconds since the epoch; NAN when it is not
 * that (the page then shows no date). */
static double iso_seconds(const char *s)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	return end && !*end ? (double)timegm(&tm) : NAN;
}

static int read_outcome(struct bisect_result *b, json_t *doc, struct error *err)
{
	const char *w = json_string_value(json_object_get(doc, "outcome"));

	for (int o = BISECT_RUNNING; w && o <= BISECT_INTERRUPTED; o++)
		if (!strcmp(w, bisect_outcome_word((enum bisect_outcome)o))) {
			b->outcome = (enum bisect_outcome)o;
			return 0;
		}
	return json_field_bad("outcome", json_object_get(doc, "outcome"),
			      "found, no-difference, neither, undecided, skipped-only, running "
			      "or interrupted", err);
}

static int read_top(struct bisect_result *b, json_t *doc, struct error *err)
{
	char *created = NULL;
	const struct field f[] = {
		{ "created", F_STR, &created },
		{ "complete", F_BOOL, &b->complete },
		{ "repository", F_STR, &b->repository },
		{ "primary", F_STR, &b->primary },
		{ "exact", F_BOOL, &b->exact },
		{ "alpha", F_NUM, &b->alpha },
		{ "noise_band", F_NUM, &b->noise_band },
		{ "step_band", F_NUM, &b->step_band },
		{ "candidates", F_SIZE, &b->candidates, 0, MAX_COUNT },
		{ "max_decisions", F_SIZE, &b->max_decisions, 0, MAX_COUNT },
		{ "direction", F_CHARS, b->direction, 0, sizeof(b->direction) },
		{ "decisions", F_SIZE, &b->decisions, 0, MAX_COUNT },
		{ "skipped", F_SIZE, &b->skipped, 0, MAX_COUNT },
		{ "runs_total", F_SIZE, &b->runs_total, 0, MAX_COUNT },
	};
	const struct field build[] = {
		{ "command", F_STR, &b->build_cmd },
		{ "shell", F_BOOL, &b->build_shell },
	};
	const struct field tool[] = {
		{ "version", F_CHARS, b->tool_version, 0, sizeof(b->tool_version) },
	};
	int rc;

	b->alpha = b->noise_band = b->step_band = NAN;
	b->tool_version[0] = 0;
	rc = json_fields_read(doc, "bisect", f, NFIELDS(f), err) ||
	     json_fields_read(json_object_get(doc, "build"), "build", build, NFIELDS(build), err) ||
	     json_fields_read(json_object_get(doc, "tool"), "tool", tool, NFIELDS(tool), err) ||
	     read_outcome(b, doc, err) ||
	     bisect_rec_commit_from_json(json_object_get(doc, "good"), &b->good, "good", err) ||
	     bisect_rec_commit_from_json(json_object_get(doc, "bad"), &b->bad, "bad", err);
	b->created = iso_seconds(created);
	free(created);
	return rc ? -1 : 0;
}

static int read_doc(struct bisect_result *b, json_t *doc, struct error *err)
{
	size_t n = 0;

	if (read_top(b, doc, err))
		return -1;
	if (read_step(json_object_get(doc, "premise"), &b->premise, &b->has_premise, "premise",
		      err))
		return error_prefix(err, "premise");
	if (read_step(json_object_get(doc, "confirm"), &b->confirm, &b->has_confirm, "confirm",
		      err))
		return error_prefix(err, "confirm");
	if (read_culprit(b, json_object_get(doc, "culprit"), err) ||
	    read_profile(b, json_object_get(doc, "profile"), err) ||
	    read_array(b, doc, "command", (void **)&b->argv, sizeof(char *), &n, one_arg, err) ||
	    read_array(b, doc, "steps", (void **)&b->steps, sizeof(*b->steps), &b->nsteps,
		       one_step, err) ||
	    read_array(b, doc, "remaining", (void **)&b->remaining, sizeof(*b->remaining),
		       &b->nremaining, one_remaining, err) ||
	    read_array(b, doc, "range", (void **)&b->range, sizeof(*b->range), &b->nrange,
		       one_range, err) ||
	    read_array(b, doc, "notes", (void **)&b->notes, sizeof(*b->notes), &b->nnotes,
		       one_note, err))
		return -1;
	b->steps_alloc = b->nsteps;
	b->notes_alloc = b->nnotes;
	return 0;
}

static const char bisect_hint[] = "check that the file is the bisect.json a bisect wrote";

static json_t *load(const char *path, struct error *err)
{
	json_error_t je;
	json_t *doc;
	int fd = report_file_open(path, bisect_hint, err);

	if (fd < 0)
		return NULL;
	doc = report_json_loadfd(fd, &je);
	close(fd);
	if (!doc) {
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s (line %d)", path, je.text,
			  je.line);
		error_hint(err, "%s", bisect_hint);
	}
	return doc;
}

/* The schema member of a bisect's document is its first (the writer puts
 * it there, as every pmustat document): the sniff reads the first bytes
 * only, so that `report` on a result of tens of MiB does not parse it twice. */
#define SNIFF_BYTES 4096

int bisect_result_sniff(const char *path)
{
	char head[SNIFF_BYTES + 1];
	const char *p;
	int fd = safeopen_read(path, 0);
	size_t len = 0;
	ssize_t got = 1;

	while (fd >= 0 && len < SNIFF_BYTES && got > 0)
		if ((got = read(fd, head + len, SNIFF_BYTES - len)) > 0)
			len += (size_t)got;
	if (fd >= 0)
		close(fd);
	head[len] = 0;
	p = strstr(head, "\"schema\"");
	if (!p)
		return 0;
	p += strlen("\"schema\"");
	p += strspn(p, " \t\r\n");
	if (*p++ != ':')
		return 0;
	p += strspn(p, " \t\r\n");
	return !strncmp(p, "\"" BISECT_SCHEMA "\"", strlen(BISECT_SCHEMA) + 2);
}

int bisect_result_read(struct bisect_result *b, const char *path, struct error *err)
{
	json_t *doc;
	const char *schema;

	memset(b, 0, sizeof(*b));
	doc = load(path, err);
	if (!doc)
		return -1;
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema || strcmp(schema, BISECT_SCHEMA)) {
		/* The message first: schema is the document's own string. */
		error_set(err, ERR_RUNTIME, "'%s' is not a bisect result (schema '%s')", path,
			  schema ? schema : "none");
		json_decref(doc);
		return error_hint(err, "give the bisect.json in the directory 'pmustat bisect -o' "
				  "wrote");
	}
	if (read_doc(b, doc, err)) {
		json_decref(doc);
		bisect_result_release(b);
		error_prefix(err, "'%s'", path);
		return error_hint(err, "the document was changed or cut; 'pmustat bisect' with the "
				  "same arguments rewrites it from its journal");
	}
	json_decref(doc);
	return 0;
}
