/*
 * What the entries of a catalogue mean together, checked once at load on
 * files already of the right shape (schema.c), so that resolution can trust
 * every reference: an event's PMU exists and has a format for each field
 * the event sets, PMU formats parse, every step of a chain has a formula
 * over known events (or says why it is unavailable), derived metrics use
 * known metrics without a cycle, names are names a formula and a -m list
 * can carry, presets list known metrics, and the cache geometry is one a
 * core can have. Each error names the file that holds the entry.
 */
#include "catalog/catalog_data.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/sysfs.h"

/* Derived metrics may use derived metrics (llc-mpki uses llc-misses), but
 * not without end: deeper than this is a data bug, as is a cycle. */
#define MAX_DERIVED_DEPTH 8

static int bad(const char *file, struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(const char *file, struct error *err, const char *fmt, ...)
{
	char text[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	error_set(err, ERR_RUNTIME, "catalogue '%s': %s", file, text);
	return error_hint(err, "fix the data file (see data/uarch/README.md)");
}

/* A name a formula reads as one name (and so does a -m list). */
static int is_name(const char *s)
{
	char **names;
	size_t n;
	int ok;

	if (formula_names(s, &names, &n, NULL) < 0)
		return 0;
	ok = n == 1 && !strcmp(names[0], s);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok;
}

/* "0-3", "0,2,4-5": counter numbers below 32. */
static int is_counter_list(const char *s)
{
	for (;;) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s || *s < '0' || *s > '9' || a > 31)
			return 0;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s || *s < '0' || *s > '9' || b > 31 || b < a)
				return 0;
		}
		if (!*end)
			return 1;
		if (*end != ',')
			return 0;
		s = end + 1;
	}
}

static int check_pmu(const char *file, json_t *p, struct error *err)
{
	const char *term, *name = jstr(p, "name");
	json_t *v;

	json_object_foreach(json_object_get(p, "format"), term, v) {
		struct sysfs_format f;
		struct error e2;

		if (sysfs_format_parse(json_string_value(v), &f, &e2) < 0)
			return bad(file, err, "PMU '%s', format '%s': %s", name, term, e2.msg);
	}
	return 0;
}

/* Every field of a native event must be a format term of its PMU. */
static int check_event(const struct catalog *cat, const char *file, json_t *e,
		       struct error *err)
{
	const char *name = jstr(e, "name"), *role = jstr(e, "pmu");
	const char *counters = jstr(e, "counters");
	json_t *pmu = cat_pmu(cat->d, role), *fmt = json_object_get(pmu, "format");
	int fields = 0;

	if (!is_name(name))
		return bad(file, err, "event '%s' has a name a formula cannot use (letters, "
			   "digits, '_', '.', ':' and inner '-')", name);
	if (!pmu)
		return bad(file, err, "event '%s' has no known PMU '%s'", name, role);
	if (counters && !is_counter_list(counters))
		return bad(file, err, "event '%s': 'counters' is '%s', not counter numbers "
			   "below 32 like '0-3' or '0,2'", name, counters);
	for (size_t k = 0; k < CAT_NFIELDS; k++) {
		if (!json_object_get(e, cat_fields[k]))
			continue;
		fields++;
		if (!json_object_get(fmt, cat_fields[k]))
			return bad(file, err, "event '%s' sets '%s', which its PMU has no format "
				   "for", name, cat_fields[k]);
	}
	if (jstr(e, "perf") && fields)
		return bad(file, err, "event '%s' has both 'perf' and encoding fields", name);
	if (!jstr(e, "perf") && !json_object_get(e, "event"))
		return bad(file, err, "event '%s' has neither 'event' nor 'perf'", name);
	return 0;
}

static int check_formula(const struct catalog *cat, const char *file, const char *metric,
			 const char *formula, int over_metrics, struct error *err)
{
	char **names;
	size_t n;
	int r = 0;

	if (formula_names(formula, &names, &n, err) < 0)
		return error_prefix(err, "catalogue '%s', metric '%s'", file, metric);
	for (size_t i = 0; i < n; i++) {
		if (!r && over_metrics && !cat_definition(cat->d, names[i]))
			r = bad(file, err, "derived metric '%s' uses unknown metric '%s'", metric,
				names[i]);
		else if (!r && !over_metrics && !cat_event(cat->d, names[i]))
			r = bad(file, err, "metric '%s' uses unknown event '%s'", metric, names[i]);
		free(names[i]);
	}
	free(names);
	return r;
}

/* A chain: each step counts a formula over known events, or is a known gap. */
static int check_chain(const struct catalog *cat, const char *file, const char *metric,
		       json_t *chain, struct error *err)
{
	size_t k;
	json_t *step;

	if (!cat_definition(cat->d, metric))
		return bad(file, err, "metric '%s' is not defined in generic.json", metric);
	if (!json_array_size(chain))
		return bad(file, err, "metric '%s' has an empty chain", metric);
	json_array_foreach(chain, k, step) {
		const char *f = jstr(step, "formula");

		if (!f && !jstr(step, "unavailable"))
			return bad(file, err, "metrics.%s[%zu] has neither 'formula' nor "
				   "'unavailable'", metric, k);
		if (f && check_formula(cat, file, metric, f, 0, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- definitions (generic.json) ------------------------------------------ */

/* Index of the definition called (or aliased) name, or -1. */
static long definition_index(json_t *defs, const char *name)
{
	size_t i, k;
	json_t *v, *a;

	json_array_foreach(defs, i, v) {
		if (!strcmp(jstr(v, "name"), name))
			return (long)i;
		json_array_foreach(json_object_get(v, "aliases"), k, a)
			if (!strcmp(json_string_value(a), name))
				return (long)i;
	}
	return -1;
}

/*
 * How deeply definition i nests derived metrics (1 for ipc), memoised in
 * depth[] (0 unknown, -1 being visited: a cycle when met again). The
 * recursion stops at MAX_DERIVED_DEPTH, so it is bounded whatever the file.
 */
static int derived_depth(json_t *defs, size_t i, int *depth, int level)
{
	const char *f = jstr(json_array_get(defs, i), "formula");
	char **names;
	size_t n;
	int d = 0;

	if (!f)
		return 0;
	if (depth[i])
		return depth[i];
	if (level > MAX_DERIVED_DEPTH || formula_names(f, &names, &n, NULL) < 0)
		return -1;
	depth[i] = -1;
	for (size_t k = 0; k < n; k++) {
		long j = d < 0 ? -1 : definition_index(defs, names[k]);
		int dj = j < 0 ? 0 : derived_depth(defs, (size_t)j, depth, level + 1);

		if (dj < 0)
			d = -1;
		else if (d >= 0 && dj > d)
			d = dj;
		free(names[k]);
	}
	free(names);
	depth[i] = d < 0 || d + 1 > MAX_DERIVED_DEPTH ? -1 : d + 1;
	return depth[i];
}

static int check_definition(const struct catalog *cat, json_t *defs, size_t i, int *depth,
			    struct error *err)
{
	json_t *v = json_array_get(defs, i), *a;
	const char *name = jstr(v, "name"), *f = jstr(v, "formula"), *kind = jstr(v, "kind");
	const char *file = cat->d->gfile;
	size_t k;

	if (!is_name(name))
		return bad(file, err, "metric '%s' has a name a formula cannot use", name);
	if (definition_index(defs, name) != (long)i)
		return bad(file, err, "metric '%s' is defined twice", name);
	json_array_foreach(json_object_get(v, "aliases"), k, a)
		if (!is_name(json_string_value(a)) ||
		    definition_index(defs, json_string_value(a)) != (long)i)
			return bad(file, err, "metric '%s': alias '%s' is not a name of its own",
				   name, json_string_value(a));
	if (kind && f)
		return bad(file, err, "metric '%s' is of kind '%s' and has a formula", name, kind);
	if (f && check_formula(cat, file, name, f, 1, err) < 0)
		return -1;
	if (f && derived_depth(defs, i, depth, 1) < 0)
		return bad(file, err, "derived metric '%s' uses itself, or nests derived "
			   "metrics more than %d deep", name, MAX_DERIVED_DEPTH);
	return 0;
}

static int check_definitions(const struct catalog *cat, struct error *err)
{
	json_t *defs = json_object_get(cat->d->g, "definitions");
	size_t n = json_array_size(defs);
	int *depth = xcalloc(n ? n : 1, sizeof(int)), r = 0;

	for (size_t i = 0; i < n && !r; i++)
		r = check_definition(cat, defs, i, depth, err);
	free(depth);
	return r;
}

/* A preset lists metrics (or catalogue events), or is "*" for all. */
static int check_presets(const struct catalog *cat, struct error *err)
{
	const char *name;
	json_t *v;

	json_object_foreach(json_object_get(cat->d->g, "presets"), name, v) {
		const char *list = json_string_value(v);
		char **items;
		int n;

		if (!strcmp(list, "*"))
			continue;
		n = event_list_split(list, &items, err);
		if (n < 0)
			return error_prefix(err, "catalogue '%s', preset '%s'", cat->d->gfile, name);
		for (int i = 0; i < n && n > 0; i++)
			if (!cat_definition(cat->d, items[i]) && !cat_event(cat->d, items[i])) {
				bad(cat->d->gfile, err, "preset '%s' lists unknown metric '%s'", name,
				    items[i]);
				n = -1;
			}
		event_list_free(items);
		if (n < 0)
			return -1;
	}
	return 0;
}

/* ---- caches ---------------------------------------------------------------- */

/* A positive integer member, else 0. */
static uint64_t jpositive(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ?
		(uint64_t)json_integer_value(v) : 0;
}

/* One level of "caches": whole sets of ways x line (a power of two, as
 * every cache line is), a known sharing scope, and where it comes from. */
static int check_cache_level(const char *file, const char *name, json_t *c,
			     struct error *err)
{
	static const char *const scopes[] = { "core", "ccx", "cluster", "socket" };
	uint64_t size = jpositive(c, "size"), ways = jpositive(c, "ways");
	uint64_t line = jpositive(c, "line");
	const char *shared = jstr(c, "shared");
	size_t k = 0;

	if (!size || !ways || !line || ways > 4096 || line > 4096)
		return bad(file, err, "caches.%s needs 'size', 'ways' and 'line' as positive "
			   "integers", name);
	if ((line & (line - 1)) || size % (ways * line))
		return bad(file, err, "caches.%s: 'size' is not a whole number of sets of "
			   "'ways' x 'line' bytes, or 'line' is not a power of two", name);
	while (k < sizeof(scopes) / sizeof(scopes[0]) && (!shared || strcmp(shared, scopes[k])))
		k++;
	if (k == sizeof(scopes) / sizeof(scopes[0]))
		return bad(file, err, "caches.%s: 'shared' is '%s', not one of core, ccx, "
			   "cluster, socket", name, shared ? shared : "");
	if (!jstr(c, "source"))
		return bad(file, err, "caches.%s has no 'source'", name);
	return 0;
}

/* "caches" is optional (generic.json has none); when there, l1i, l1d and l2
 * are required (the shape allows no other keys). */
static int check_caches(const struct catalog *cat, struct error *err)
{
	static const char *const levels[] = { "l1i", "l1d", "l2", "l3" };
	json_t *c = json_object_get(cat->d->u, "caches");

	if (!c)
		return 0;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		json_t *level = json_object_get(c, levels[i]);

		if (!level && i < 3)
			return bad(cat->d->ufile, err, "caches needs at least l1i, l1d and l2");
		if (level && check_cache_level(cat->d->ufile, levels[i], level, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- one file, then both --------------------------------------------------- */

/* Names are looked up first-match: a second entry of a name would be dead. */
static int check_unique(const char *file, json_t *arr, const char *what, struct error *err)
{
	size_t i, k;
	json_t *v, *w;

	json_array_foreach(arr, i, v)
		json_array_foreach(arr, k, w) {
			if (k >= i)
				break;
			if (!strcmp(jstr(v, "name"), jstr(w, "name")))
				return bad(file, err, "%s '%s' is defined twice", what, jstr(v, "name"));
		}
	return 0;
}

static int check_file(const struct catalog *cat, json_t *root, const char *file,
		      struct error *err)
{
	const char *key;
	json_t *v;
	size_t i;

	if (check_unique(file, json_object_get(root, "pmus"), "PMU", err) ||
	    check_unique(file, json_object_get(root, "events"), "event", err))
		return -1;
	json_array_foreach(json_object_get(root, "pmus"), i, v)
		if (check_pmu(file, v, err) < 0)
			return -1;
	json_array_foreach(json_object_get(root, "events"), i, v)
		if (check_event(cat, file, v, err) < 0)
			return -1;
	json_object_foreach(json_object_get(root, "metrics"), key, v)
		if (check_chain(cat, file, key, v, err) < 0)
			return -1;
	return 0;
}

/* Metric definitions and presets are shared: a uarch file's would be
 * ignored, so they are refused. */
static int check_shared_only(const struct catalog *cat, struct error *err)
{
	static const char *const keys[] = { "definitions", "presets" };

	for (size_t i = 0; cat->d->u != cat->d->g && i < 2; i++)
		if (json_object_get(cat->d->u, keys[i]))
			return bad(cat->d->ufile, err, "'%s' belong in generic.json, which every "
				   "uarch shares", keys[i]);
	return 0;
}

int catalog_validate(const struct catalog *cat, struct error *err)
{
	if (check_shared_only(cat, err) || check_file(cat, cat->d->g, cat->d->gfile, err) ||
	    (cat->d->u != cat->d->g && check_file(cat, cat->d->u, cat->d->ufile, err)))
		return -1;
	if (check_definitions(cat, err) || check_presets(cat, err))
		return -1;
	return check_caches(cat, err);
}
