/*
 * The shape of a catalogue file (data/uarch/README.md), checked before
 * anything reads it: every object is read through a table of the keys it may
 * have, each with its type (and, for words such as "scope", the values it
 * may take), so a file with a number where a name belongs, a key spelled
 * wrong or an entry of the wrong kind is refused at load with the file, the
 * entry and the key named — never met later as a NULL string in resolution.
 * What the values mean together (an event's PMU exists, a formula names
 * known events) is catalog.c's validation, which runs on a file of the
 * right shape.
 */
#include "catalog/catalog_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind {
	K_STR,		/* a string */
	K_STR_NULL,	/* a string or null */
	K_UINT,		/* an integer from 0 to max */
	K_NUMBER,	/* an encoding value: an integer >= 0, or one in a string */
	K_BOOL,
	K_STRLIST,	/* an array of strings */
	K_OBJECT,	/* an object of shape sub */
	K_ARRAY,	/* an array of objects of shape sub */
	K_STRMAP,	/* an object whose values are strings */
	K_ARRAYMAP,	/* an object whose values are arrays of objects of shape sub */
};

struct key;

struct shape {
	const struct key *keys;	/* NULL-name terminated */
};

struct key {
	const char *name;
	enum kind kind;
	int required;
	const struct shape *sub;
	const char *const *words;	/* K_STR: the values allowed, or NULL */
	json_int_t max;			/* K_UINT */
};

static const char *const scopes[] = { "process", "system", NULL };
static const char *const watchdogs[] = { "gp", "fixed", NULL };
static const char *const kinds[] = { "process", NULL };

static const struct key level_keys[] = {
	{ "size", K_UINT, 0, NULL, NULL, (json_int_t)1 << 50 },
	{ "ways", K_UINT, 0, NULL, NULL, 1 << 20 },
	{ "line", K_UINT, 0, NULL, NULL, 1 << 20 },
	{ "shared", K_STR }, { "source", K_STR }, { "note", K_STR },
	{ NULL },
};
static const struct shape level = { level_keys };

static const struct key caches_keys[] = {
	{ "l1i", K_OBJECT, 0, &level }, { "l1d", K_OBJECT, 0, &level },
	{ "l2", K_OBJECT, 0, &level }, { "l3", K_OBJECT, 0, &level },
	{ "source", K_STR }, { "note", K_STR },
	{ NULL },
};
static const struct shape caches = { caches_keys };

static const struct key counters_keys[] = {
	{ "gp", K_UINT, 0, NULL, NULL, 1024 },
	{ "fixed", K_UINT, 0, NULL, NULL, 1024 },
	{ "watchdog", K_STR, 0, NULL, watchdogs },
	{ NULL },
};
static const struct shape counters = { counters_keys };

/* A PMU whose sysfs events/ lists every common event the CPU implements. */
static const struct key implemented_keys[] = {
	{ "sysfs", K_STRLIST, 1 }, { "why", K_STR, 1 }, { "source", K_STR },
	{ NULL },
};
static const struct shape implemented = { implemented_keys };

static const struct key pmu_keys[] = {
	{ "name", K_STR, 1 },
	{ "sysfs", K_STRLIST },
	{ "type", K_UINT, 0, NULL, NULL, 0xffffffffLL },
	{ "scope", K_STR, 0, NULL, scopes },
	{ "per", K_STR }, { "module", K_STR }, { "libpfm", K_STR }, { "source", K_STR },
	{ "core_type", K_STR },
	{ "format", K_STRMAP },
	{ "counters", K_OBJECT, 0, &counters },
	{ "implemented_events", K_OBJECT, 0, &implemented },
	{ NULL },
};
static const struct shape pmu = { pmu_keys };

/* Encoding fields come from cat_fields[] (catalog_data.h), added below. */
static const struct key event_keys[] = {
	{ "name", K_STR, 1 }, { "pmu", K_STR, 1 },
	{ "perf", K_STR }, { "fixed", K_BOOL }, { "counters", K_STR },
	{ "libpfm", K_STR_NULL }, { "libpfm_pmu", K_STR },
	{ "desc", K_STR }, { "source", K_STR },
	{ "arm_event", K_STR },	/* a generic event's number on armv8_pmuv3 */
	{ NULL },
};
static const struct shape event = { event_keys };

static const struct key step_keys[] = {
	{ "formula", K_STR }, { "proxy", K_STR }, { "caveats", K_STRLIST },
	{ "anchor", K_BOOL }, { "unavailable", K_STR }, { "hint", K_STR }, { "source", K_STR },
	{ NULL },
};
static const struct shape step = { step_keys };

static const struct key definition_keys[] = {
	{ "name", K_STR, 1 }, { "aliases", K_STRLIST }, { "unit", K_STR }, { "desc", K_STR },
	{ "kind", K_STR, 0, NULL, kinds }, { "formula", K_STR },
	{ "unavailable", K_STR }, { "hint", K_STR },
	{ NULL },
};
static const struct shape definition = { definition_keys };

static const struct key file_keys[] = {
	{ "schema", K_STR }, { "uarch", K_STR }, { "description", K_STR, 1 },
	{ "vendor", K_STR }, { "libpfm", K_STR_NULL }, { "sources", K_STRMAP },
	{ "caches", K_OBJECT, 0, &caches },
	{ "pmus", K_ARRAY, 0, &pmu },
	{ "events", K_ARRAY, 0, &event },
	{ "metrics", K_ARRAYMAP, 0, &step },
	{ "definitions", K_ARRAY, 0, &definition },
	{ "presets", K_STRMAP },
	{ NULL },
};
static const struct shape file_shape = { file_keys };

struct walk {
	const char *file;
	struct error *err;
};

/* "catalogue 'F': WHERE: 'KEY' is VALUE, not WANT" */
static int bad_value(const struct walk *w, const char *where, const char *key, json_t *v,
		     const char *want)
{
	char *shown = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	if (!v)
		error_set(w->err, ERR_RUNTIME, "catalogue '%s': %s%s'%s' is missing", w->file,
			  where, *where ? ": " : "", key);
	else
		error_set(w->err, ERR_RUNTIME, "catalogue '%s': %s%s'%s' is %.40s%s, not %s",
			  w->file, where, *where ? ": " : "", key, shown ? shown : "a value",
			  shown && strlen(shown) > 40 ? "..." : "", want);
	free(shown);
	return error_hint(w->err, "fix the data file (see data/uarch/README.md)");
}

/* An encoding value: a non-negative integer, or decimal or 0x-hex digits. */
static int is_number(json_t *v)
{
	const char *s = json_string_value(v), *d;

	if (json_is_integer(v))
		return json_integer_value(v) >= 0;
	if (!s || !*s)
		return 0;
	d = strncmp(s, "0x", 2) && strncmp(s, "0X", 2) ? s : s + 2;
	if (!*d || strspn(d, d == s ? "0123456789" : "0123456789abcdefABCDEF") != strlen(d))
		return 0;
	return strlen(d) <= (d == s ? 19u : 16u);
}

static int is_word(const char *s, const char *const *words)
{
	for (; words && *words; words++)
		if (!strcmp(s, *words))
			return 1;
	return !words;
}

static int all_strings(json_t *a)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return 0;
	json_array_foreach(a, i, v)
		if (!json_is_string(v))
			return 0;
	return 1;
}

static int check_shape(const struct walk *w, json_t *o, const struct shape *s,
		       const char *where);

/* Each element of an array of objects, as "where[i]" (with its name). */
static int check_entries(const struct walk *w, json_t *a, const struct shape *s,
			 const char *where)
{
	struct strbuf at = STRBUF_INIT;
	size_t i;
	json_t *v;
	int r = 0;

	json_array_foreach(a, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));

		strbuf_reset(&at);
		strbuf_addf(&at, "%s[%zu]", where, i);
		if (name)
			strbuf_addf(&at, " '%.60s'", name);
		if ((r = check_shape(w, v, s, at.buf)) < 0)
			break;
	}
	strbuf_release(&at);
	return r;
}

static const char *want_of(const struct key *k, char *buf, size_t len)
{
	static const char *const wants[] = {
		[K_STR] = "a string", [K_STR_NULL] = "a string or null",
		[K_NUMBER] = "a number (an integer, or decimal or 0x-hex digits in a string)",
		[K_BOOL] = "true or false", [K_STRLIST] = "an array of strings",
		[K_OBJECT] = "an object", [K_ARRAY] = "an array of objects",
		[K_STRMAP] = "an object of strings", [K_ARRAYMAP] = "an object of arrays",
	};

	if (k->kind == K_UINT) {
		snprintf(buf, len, "an integer from 0 to %lld", (long long)k->max);
		return buf;
	}
	if (k->kind == K_STR && k->words) {
		size_t off = (size_t)snprintf(buf, len, "one of");

		for (const char *const *wd = k->words; *wd && off < len; wd++)
			off += (size_t)snprintf(buf + off, len - off, "%s '%s'",
						wd == k->words ? "" : ",", *wd);
		return buf;
	}
	return wants[k->kind];
}

/* Is v of k's kind (not looking inside objects)? */
static int kind_ok(const struct key *k, json_t *v)
{
	switch (k->kind) {
	case K_STR:
		return json_is_string(v) && is_word(json_string_value(v), k->words);
	case K_STR_NULL:
		return json_is_string(v) || json_is_null(v);
	case K_UINT:
		return json_is_integer(v) && json_integer_value(v) >= 0 &&
		       json_integer_value(v) <= k->max;
	case K_NUMBER:
		return is_number(v);
	case K_BOOL:
		return json_is_boolean(v);
	case K_STRLIST:
		return all_strings(v);
	case K_ARRAY:
		return json_is_array(v);
	default:
		return json_is_object(v);
	}
}

/* The values of an object of arrays (metrics: name -> chain of steps). */
static int check_arraymap(const struct walk *w, const struct key *k, json_t *o,
			  const char *where)
{
	struct strbuf at = STRBUF_INIT, in = STRBUF_INIT;
	const char *name;
	json_t *v;
	int r = 0;

	strbuf_addf(&in, "%s%s%s", where, *where ? "." : "", k->name);
	json_object_foreach(o, name, v) {
		strbuf_reset(&at);
		strbuf_addf(&at, "%s.%.60s", in.buf, name);
		if (!json_is_array(v))
			r = bad_value(w, in.buf, name, v, "an array of objects");
		else
			r = check_entries(w, v, k->sub, at.buf);
		if (r < 0)
			break;
	}
	strbuf_release(&at);
	strbuf_release(&in);
	return r;
}

static int check_value(const struct walk *w, const struct key *k, json_t *v, const char *where)
{
	char want[160];
	struct strbuf at = STRBUF_INIT;
	const char *name;
	json_t *x;
	int r = 0;

	if (!kind_ok(k, v))
		return bad_value(w, where, k->name, v, want_of(k, want, sizeof(want)));
	strbuf_addf(&at, "%s%s%s", where, *where ? "." : "", k->name);
	if (k->kind == K_OBJECT)
		r = check_shape(w, v, k->sub, at.buf);
	else if (k->kind == K_ARRAY)
		r = check_entries(w, v, k->sub, at.buf);
	else if (k->kind == K_ARRAYMAP)
		r = check_arraymap(w, k, v, where);
	else if (k->kind == K_STRMAP)
		json_object_foreach(v, name, x)
			if (!r && !json_is_string(x))
				r = bad_value(w, at.buf, name, x, "a string");
	strbuf_release(&at);
	return r;
}

static const struct key *find_key(const struct shape *s, const char *name)
{
	static struct key field = { NULL, K_NUMBER };

	for (const struct key *k = s->keys; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	if (s == &event)
		for (size_t i = 0; i < CAT_NFIELDS; i++)
			if (!strcmp(cat_fields[i], name)) {
				field.name = cat_fields[i];
				return &field;
			}
	return NULL;
}

static int check_shape(const struct walk *w, json_t *o, const struct shape *s,
		       const char *where)
{
	const char *name;
	json_t *v;

	if (!json_is_object(o)) {
		char *shown = json_dumps(o, JSON_ENCODE_ANY | JSON_COMPACT);

		error_set(w->err, ERR_RUNTIME, "catalogue '%s': %s is %.40s%s, not an object",
			  w->file, *where ? where : "the file", shown ? shown : "a value",
			  shown && strlen(shown) > 40 ? "..." : "");
		free(shown);
		return error_hint(w->err, "fix the data file (see data/uarch/README.md)");
	}
	json_object_foreach(o, name, v) {
		const struct key *k = find_key(s, name);

		if (!k) {
			error_set(w->err, ERR_RUNTIME, "catalogue '%s': %s%sunknown key '%.60s'",
				  w->file, where, *where ? ": " : "", name);
			return error_hint(w->err, "fix the data file (see data/uarch/README.md "
					  "for the keys each entry may have)");
		}
		if (check_value(w, k, v, where) < 0)
			return -1;
	}
	for (const struct key *k = s->keys; k->name; k++)
		if (k->required && !json_object_get(o, k->name))
			return bad_value(w, where, k->name, NULL, "");
	return 0;
}

int catalog_check_shape(json_t *root, const char *file, struct error *err)
{
	struct walk w = { file, err };

	return check_shape(&w, root, &file_shape, "");
}
