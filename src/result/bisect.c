/*
 * The bisect result model and its JSON (pmustat.bisect/1). Written with
 * jansson, numbers as numbers; every step is one object, the same in the
 * document's "steps" and in a line of the bisect journal, so resuming reads
 * back exactly what was decided. Reading checks each field's type and
 * range: a missing or wrong one is an error naming it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/strbuf.h"
#include "result/bisect.h"

static const char *const outcome_words[] = { "running", "found", "no-difference", "neither",
					     "undecided", "skipped-only", "interrupted" };
static const char *const call_words[] = { "like-good", "like-bad", "neither", "undecided",
					  "skipped", "differ", "same" };
static const char *const kind_words[] = { "premise", "candidate", "confirm" };
static const char *const build_words[] = { "none", "ok", "cached", "failed" };

#define NWORDS(a) (sizeof(a) / sizeof(a[0]))

const char *bisect_outcome_word(enum bisect_outcome o) { return outcome_words[o]; }
const char *bisect_call_word(enum bisect_call c) { return call_words[c]; }
const char *bisect_kind_word(enum bisect_kind k) { return kind_words[k]; }
const char *bisect_build_word(enum bisect_build b) { return build_words[b]; }

void bisect_result_init(struct bisect_result *b)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->tool_version, sizeof(b->tool_version), "%s", PMUSTAT_VERSION);
}

void bisect_rec_commit_release(struct bisect_rec_commit *c)
{
	free(c->subject);
	free(c->rev);
	c->subject = c->rev = NULL;
}

void bisect_rec_commit_copy(struct bisect_rec_commit *dst, const struct bisect_rec_commit *src)
{
	*dst = *src;
	dst->subject = src->subject ? xstrdup(src->subject) : NULL;
	dst->rev = src->rev ? xstrdup(src->rev) : NULL;
}

void bisect_rec_step_release(struct bisect_rec_step *s)
{
	bisect_rec_commit_release(&s->c);
	free(s->reason);
	free(s->build_log);
	free(s->stop_reason);
	free(s->result);
	memset(s, 0, sizeof(*s));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void bisect_rec_step_copy(struct bisect_rec_step *dst, const struct bisect_rec_step *src)
{
	*dst = *src;
	bisect_rec_commit_copy(&dst->c, &src->c);
	dst->reason = dup_or_null(src->reason);
	dst->build_log = dup_or_null(src->build_log);
	dst->stop_reason = dup_or_null(src->stop_reason);
	dst->result = dup_or_null(src->result);
}

static void hot_release(struct bisect_rec_hot *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(h[i].name);
	free(h);
}

void bisect_result_release(struct bisect_result *b)
{
	free(b->repository);
	for (char **a = b->argv; a && *a; a++)
		free(*a);
	free(b->argv);
	free(b->build_cmd);
	free(b->primary);
	bisect_rec_commit_release(&b->good);
	bisect_rec_commit_release(&b->bad);
	bisect_rec_step_release(&b->premise);
	for (size_t i = 0; i < b->nsteps; i++)
		bisect_rec_step_release(&b->steps[i]);
	free(b->steps);
	bisect_rec_step_release(&b->confirm);
	bisect_rec_commit_release(&b->culprit);
	for (size_t i = 0; i < b->nremaining; i++)
		bisect_rec_commit_release(&b->remaining[i]);
	free(b->remaining);
	for (size_t i = 0; i < b->nrange; i++)
		bisect_rec_commit_release(&b->range[i]);
	free(b->range);
	free(b->profile_result);
	hot_release(b->hot_fns, b->nhot_fns);
	hot_release(b->hot_sites, b->nhot_sites);
	for (size_t i = 0; i < b->nnotes; i++)
		free(b->notes[i].text);
	free(b->notes);
	memset(b, 0, sizeof(*b));
}

void bisect_add_step(struct bisect_result *b, const struct bisect_rec_step *s)
{
	ALLOC_GROW(b->steps, b->nsteps + 1, b->steps_alloc);
	bisect_rec_step_copy(&b->steps[b->nsteps++], s);
}

void bisect_add_note(struct bisect_result *b, int warning, const char *fmt, ...)
{
	char *text;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = xstrdup("");
	va_end(ap);
	ALLOC_GROW(b->notes, b->nnotes + 1, b->notes_alloc);
	b->notes[b->nnotes].warning = warning;
	b->notes[b->nnotes++].text = text;
}

/* ---- writing ------------------------------------------------------------- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* A number, or null when it is not one (JSON has no NaN). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *commit_json(const struct bisect_rec_commit *c)
{
	json_t *o = json_object();

	if (c->rev)
		json_object_set_new(o, "rev", json_string(c->rev));
	json_object_set_new(o, "commit", json_string(c->sha));
	json_object_set_new(o, "short", json_string(c->abbrev));
	json_object_set_new(o, "subject", str_or_null(c->subject));
	return o;
}

static json_t *cmp_json(const struct bisect_rec_cmp *c, const char *metric)
{
	if (!c->valid)
		return json_null();
	return json_pack("{s:s, s:o, s:o, s:o, s:s, s:I, s:b, s:o, s:o}", "metric", metric,
			 "ratio", num(c->ratio), "ci_lo", num(c->ci_lo), "ci_hi", num(c->ci_hi),
			 "verdict", c->word, "n", (json_int_t)c->n, "exact", c->exact,
			 "mean_this", num(c->mean_this), "mean_that", num(c->mean_that));
}

json_t *bisect_rec_step_json(const struct bisect_rec_step *s, const char *metric)
{
	json_t *o = json_object();

	json_object_set_new(o, "index", json_integer(s->index));
	json_object_set_new(o, "kind", json_string(kind_words[s->kind]));
	json_object_set_new(o, "commit", json_string(s->c.sha));
	json_object_set_new(o, "short", json_string(s->c.abbrev));
	json_object_set_new(o, "subject", str_or_null(s->c.subject));
	json_object_set_new(o, "position", json_integer((json_int_t)s->position));
	json_object_set_new(o, "outcome", json_string(call_words[s->call]));
	json_object_set_new(o, "reason", str_or_null(s->reason));
	json_object_set_new(o, "build", json_pack("{s:s, s:o, s:o}", "status",
						  build_words[s->build], "log",
						  str_or_null(s->build_log), "exit",
						  s->build_exit >= 0 ? json_integer(s->build_exit)
								     : json_null()));
	json_object_set_new(o, "vs_good", cmp_json(&s->vs_good, metric));
	json_object_set_new(o, "vs_bad", cmp_json(&s->vs_bad, metric));
	json_object_set_new(o, "runs", json_integer((json_int_t)s->runs));
	json_object_set_new(o, "blocks", json_integer((json_int_t)s->blocks));
	json_object_set_new(o, "stop_reason", str_or_null(s->stop_reason));
	json_object_set_new(o, "result", str_or_null(s->result));
	if (s->kind == STEP_CANDIDATE && s->window_hi)
		json_object_set_new(o, "window", json_pack("{s:I, s:I}", "lo",
							   (json_int_t)s->window_lo, "hi",
							   (json_int_t)s->window_hi));
	if (isfinite(s->slowest_s) && s->slowest_s >= 0)
		json_object_set_new(o, "slowest_run_s", json_real(s->slowest_s));
	return o;
}

static json_t *step_or_null(int has, const struct bisect_rec_step *s, const char *metric)
{
	return has ? bisect_rec_step_json(s, metric) : json_null();
}

/* The functions: their share of the profiled time in the parent and in
 * the culprit, and the ratio of their time with its interval. */
static json_t *fns_json(const struct bisect_rec_hot *h, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "name",
						   h[i].name, "ratio", num(h[i].ratio), "ci_lo",
						   num(h[i].ci_lo), "ci_hi", num(h[i].ci_hi),
						   "share_base", num(h[i].base), "share_culprit",
						   num(h[i].culprit)));
	return a;
}

/* The allocation sites: calls per traced run in the parent and the culprit. */
static json_t *sites_json(const struct bisect_rec_hot *h, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "site", h[i].name,
						   "calls_base", num(h[i].base), "calls_culprit",
						   num(h[i].culprit)));
	return a;
}

static json_t *profile_json(const struct bisect_result *b)
{
	if (!b->profile_result)
		return json_null();
	return json_pack("{s:s, s:o, s:o}", "result", b->profile_result, "functions",
			 fns_json(b->hot_fns, b->nhot_fns), "alloc_sites",
			 sites_json(b->hot_sites, b->nhot_sites));
}

static json_t *culprit_json(const struct bisect_result *b)
{
	json_t *o;

	if (!b->has_culprit)
		return json_null();
	o = commit_json(&b->culprit);
	json_object_set_new(o, "parent", json_string(b->parent));
	json_object_set_new(o, "change", cmp_json(&b->change, b->primary));
	return o;
}

static json_t *strv_json(char *const *v)
{
	json_t *a = json_array();

	for (; v && *v; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

/* "2026-12-02T07:10:00Z", as the result documents write their times. */
static json_t *iso_time(double epoch)
{
	time_t t = (time_t)epoch;
	struct tm tm;
	char buf[32];

	if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_null();
	return json_string(buf);
}

static void add_head(json_t *o, const struct bisect_result *b)
{
	json_object_set_new(o, "schema", json_string(BISECT_SCHEMA));
	json_object_set_new(o, "tool", json_pack("{s:s, s:s}", "name", "pmustat", "version",
						 b->tool_version));
	json_object_set_new(o, "created", iso_time(b->created));
	json_object_set_new(o, "complete", json_boolean(b->complete));
	json_object_set_new(o, "repository", str_or_null(b->repository));
	json_object_set_new(o, "command", strv_json(b->argv));
	json_object_set_new(o, "build", json_pack("{s:o, s:b}", "command",
						  str_or_null(b->build_cmd), "shell",
						  b->build_shell));
	json_object_set_new(o, "primary", str_or_null(b->primary));
	json_object_set_new(o, "exact", json_boolean(b->exact));
	json_object_set_new(o, "alpha", json_real(b->alpha));
	json_object_set_new(o, "noise_band", json_real(b->noise_band));
	json_object_set_new(o, "step_band", json_real(b->step_band));
	json_object_set_new(o, "good", commit_json(&b->good));
	json_object_set_new(o, "bad", commit_json(&b->bad));
	json_object_set_new(o, "candidates", json_integer((json_int_t)b->candidates));
	json_object_set_new(o, "max_decisions", json_integer((json_int_t)b->max_decisions));
}

json_t *bisect_result_json(const struct bisect_result *b)
{
	json_t *o = json_object(), *steps = json_array(), *rem = json_array(),
	       *notes = json_array(), *range = json_array();

	add_head(o, b);
	json_object_set_new(o, "premise", step_or_null(b->has_premise, &b->premise, b->primary));
	for (size_t i = 0; i < b->nsteps; i++)
		json_array_append_new(steps, bisect_rec_step_json(&b->steps[i], b->primary));
	json_object_set_new(o, "steps", steps);
	for (size_t i = 0; i < b->nrange; i++)
		json_array_append_new(range, commit_json(&b->range[i]));
	json_object_set_new(o, "range", range);
	json_object_set_new(o, "confirm", step_or_null(b->has_confirm, &b->confirm, b->primary));
	json_object_set_new(o, "outcome", json_string(outcome_words[b->outcome]));
	json_object_set_new(o, "direction", b->direction[0] ? json_string(b->direction)
							    : json_null());
	json_object_set_new(o, "culprit", culprit_json(b));
	for (size_t i = 0; i < b->nremaining; i++)
		json_array_append_new(rem, commit_json(&b->remaining[i]));
	json_object_set_new(o, "remaining", rem);
	json_object_set_new(o, "decisions", json_integer((json_int_t)b->decisions));
	json_object_set_new(o, "skipped", json_integer((json_int_t)b->skipped));
	json_object_set_new(o, "runs_total", json_integer((json_int_t)b->runs_total));
	json_object_set_new(o, "profile", profile_json(b));
	for (size_t i = 0; i < b->nnotes; i++)
		json_array_append_new(notes, json_pack("{s:s, s:s}", "level",
						       b->notes[i].warning ? "warning" : "info",
						       "text", b->notes[i].text));
	json_object_set_new(o, "notes", notes);
	return o;
}

/* ---- reading -------------------------------------------------------------- */

static int bad_field(struct error *err, const char *what, const char *field, const char *want)
{
	error_set(err, ERR_USAGE, "'%s': '%s' is not %s", what, field, want);
	return error_hint(err, "the file was not written by 'pmustat bisect', or was damaged; "
			       "rerun the bisect with another -o DIR");
}

static int get_str(const json_t *o, const char *k, int nullable, char **out, const char *what,
		   struct error *err)
{
	const json_t *v = json_object_get(o, k);

	*out = NULL;
	if (nullable && (!v || json_is_null(v)))
		return 0;
	if (!json_is_string(v))
		return bad_field(err, what, k, nullable ? "a string or null" : "a string");
	*out = xstrdup(json_string_value(v));
	return 0;
}

static int get_size(const json_t *o, const char *k, size_t *out, const char *what,
		    struct error *err)
{
	const json_t *v = json_object_get(o, k);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad_field(err, what, k, "an integer >= 0");
	*out = (size_t)json_integer_value(v);
	return 0;
}

static double get_num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int get_word(const json_t *o, const char *k, const char *const *words, size_t n,
		    int *out, const char *what, struct error *err)
{
	const char *s = json_string_value(json_object_get(o, k));

	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(s, words[i])) {
			*out = (int)i;
			return 0;
		}
	return bad_field(err, what, k, "one of the known words");
}

static int is_sha(const char *s)
{
	if (!s || strlen(s) != 40)
		return 0;
	for (; *s; s++)
		if (!strchr("0123456789abcdef", *s))
			return 0;
	return 1;
}

int bisect_rec_commit_from_json(const json_t *o, struct bisect_rec_commit *c, const char *what,
				struct error *err)
{
	const char *sha = json_string_value(json_object_get(o, "commit"));
	const char *ab = json_string_value(json_object_get(o, "short"));

	memset(c, 0, sizeof(*c));
	if (!json_is_object(o) || !is_sha(sha))
		return bad_field(err, what, "commit", "a commit (40 hex digits)");
	if (!ab || strlen(ab) >= sizeof(c->abbrev))
		return bad_field(err, what, "short", "an abbreviated commit");
	memcpy(c->sha, sha, 41);
	snprintf(c->abbrev, sizeof(c->abbrev), "%s", ab);
	if (get_str(o, "subject", 1, &c->subject, what, err) ||
	    get_str(o, "rev", 1, &c->rev, what, err)) {
		bisect_rec_commit_release(c);
		return -1;
	}
	return 0;
}

int bisect_rec_cmp_from_json(const json_t *o, struct bisect_rec_cmp *c, const char *what,
			     struct error *err)
{
	const char *w = json_string_value(json_object_get(o, "verdict"));

	memset(c, 0, sizeof(*c));
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o) || !w || strlen(w) >= sizeof(c->word))
		return bad_field(err, what, "verdict", "a comparison");
	if (get_size(o, "n", &c->n, what, err))
		return -1;
	c->valid = 1;
	snprintf(c->word, sizeof(c->word), "%s", w);
	c->ratio = get_num(o, "ratio");
	c->ci_lo = get_num(o, "ci_lo");
	c->ci_hi = get_num(o, "ci_hi");
	c->mean_this = get_num(o, "mean_this");
	c->mean_that = get_num(o, "mean_that");
	c->exact = json_is_true(json_object_get(o, "exact"));
	c->verdict = -1;	/* the word is what was decided; the enum is not kept */
	return 0;
}

static int step_build_from(const json_t *b, struct bisect_rec_step *s, const char *what,
			   struct error *err)
{
	int st;
	const json_t *ex = json_object_get(b, "exit");

	if (!json_is_object(b))
		return bad_field(err, what, "build", "an object");
	if (get_word(b, "status", build_words, NWORDS(build_words), &st, what, err) ||
	    get_str(b, "log", 1, &s->build_log, what, err))
		return -1;
	s->build = (enum bisect_build)st;
	s->build_exit = json_is_integer(ex) ? (int)json_integer_value(ex) : -1;
	return 0;
}

int bisect_rec_step_from_json(const json_t *j, struct bisect_rec_step *s, const char *what,
			  struct error *err)
{
	const json_t *idx = json_object_get(j, "index");
	int kind, call;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j) || !json_is_integer(idx) || json_integer_value(idx) < 0 ||
	    json_integer_value(idx) > 100000)
		return bad_field(err, what, "index", "a step index");
	s->index = (int)json_integer_value(idx);
	if (get_word(j, "kind", kind_words, NWORDS(kind_words), &kind, what, err) ||
	    get_word(j, "outcome", call_words, NWORDS(call_words), &call, what, err) ||
	    bisect_rec_commit_from_json(j, &s->c, what, err))
		return -1;
	s->kind = (enum bisect_kind)kind;
	s->call = (enum bisect_call)call;
	if (get_size(j, "position", &s->position, what, err) ||
	    get_str(j, "reason", 1, &s->reason, what, err) ||
	    step_build_from(json_object_get(j, "build"), s, what, err) ||
	    bisect_rec_cmp_from_json(json_object_get(j, "vs_good"), &s->vs_good, what, err) ||
	    bisect_rec_cmp_from_json(json_object_get(j, "vs_bad"), &s->vs_bad, what, err) ||
	    get_size(j, "runs", &s->runs, what, err) ||
	    get_size(j, "blocks", &s->blocks, what, err) ||
	    get_str(j, "stop_reason", 1, &s->stop_reason, what, err) ||
	    get_str(j, "result", 1, &s->result, what, err)) {
		bisect_rec_step_release(s);
		return -1;
	}
	s->window_lo = (size_t)json_integer_value(json_object_get(json_object_get(j, "window"), "lo"));
	s->window_hi = (size_t)json_integer_value(json_object_get(json_object_get(j, "window"), "hi"));
	s->slowest_s = json_is_number(json_object_get(j, "slowest_run_s"))
			       ? fmax(0, json_number_value(json_object_get(j, "slowest_run_s")))
			       : NAN;
	return 0;
}
