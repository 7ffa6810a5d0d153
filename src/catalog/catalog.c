/*
 * Loading the catalogue: the uarch's JSON file plus data/uarch/generic.json,
 * checked once at load so that resolution can trust every reference (a
 * formula naming a missing event is a bug in the data, reported with the
 * file and the entry). The JSON stays in jansson trees; the accessors below
 * are the only code that knows the file layout (documented in
 * data/uarch/README.md).
 */
#include "catalog/catalog_data.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/embed.h"
#include "core/suggest.h"
#include "host/sysfs.h"

#define UARCH_PREFIX "data/uarch/"

/* ---- reading the files ------------------------------------------------- */

/* The text of data/uarch/NAME.json: from $PMUSTAT_DATA_DIR/uarch/ when that
 * is set, else embedded in the binary. */
static json_t *load_file(const char *name, struct error *err)
{
	const char *dir = getenv("PMUSTAT_DATA_DIR");
	struct strbuf path = STRBUF_INIT;
	json_error_t je;
	json_t *root = NULL;

	if (dir && *dir) {
		strbuf_addf(&path, "%s/uarch/%s.json", dir, name);
		root = json_load_file(path.buf, 0, &je);
	} else {
		size_t len;
		const char *text;

		strbuf_addf(&path, UARCH_PREFIX "%s.json", name);
		text = embed_find(path.buf, &len);
		if (text)
			root = json_loadb(text, len, 0, &je);
		else
			snprintf(je.text, sizeof(je.text), "not embedded in this build");
	}
	if (!root) {
		error_set(err, ERR_RUNTIME, "cannot load catalogue '%s': %s", path.buf, je.text);
		error_hint(err, "rebuild with 'make'; data files are embedded at build time");
	}
	strbuf_release(&path);
	return root;
}

/* Names of the uarch files (without .json), NULL-terminated, malloc'd. */
static char **file_names(void)
{
	const char *dir = getenv("PMUSTAT_DATA_DIR");
	char **out = NULL;
	size_t n = 0, alloc = 0;

	if (dir && *dir) {
		struct strbuf p = STRBUF_INIT;
		DIR *d;
		struct dirent *e;

		strbuf_addf(&p, "%s/uarch", dir);
		d = opendir(p.buf);
		while (d && (e = readdir(d))) {
			size_t l = strlen(e->d_name);

			if (l > 5 && !strcmp(e->d_name + l - 5, ".json")) {
				ALLOC_GROW(out, n + 2, alloc);
				out[n++] = xstrndup(e->d_name, l - 5);
			}
		}
		if (d)
			closedir(d);
		strbuf_release(&p);
	} else {
		size_t nf;
		const struct embed_file *f = embed_files(&nf);
		size_t pl = strlen(UARCH_PREFIX);

		for (size_t i = 0; i < nf; i++) {
			size_t l = strlen(f[i].name);

			if (strncmp(f[i].name, UARCH_PREFIX, pl) || l < pl + 6 ||
			    strcmp(f[i].name + l - 5, ".json") || strchr(f[i].name + pl, '/'))
				continue;
			ALLOC_GROW(out, n + 2, alloc);
			out[n++] = xstrndup(f[i].name + pl, l - pl - 5);
		}
	}
	if (!out)
		out = xcalloc(1, sizeof(*out));
	out[n] = NULL;
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* data/uarch-aliases.json (or PMUSTAT_DATA_DIR's copy), or NULL. */
static json_t *load_aliases(void)
{
	const char *dir = getenv("PMUSTAT_DATA_DIR");
	json_error_t je;

	if (dir && *dir) {
		struct strbuf path = STRBUF_INIT;
		json_t *root;

		strbuf_addf(&path, "%s/uarch-aliases.json", dir);
		root = json_load_file(path.buf, 0, &je);
		strbuf_release(&path);
		return root;
	} else {
		size_t len;
		const char *text = embed_find("data/uarch-aliases.json", &len);

		return text ? json_loadb(text, len, 0, &je) : NULL;
	}
}

/* Every uarch name: the file names, then the aliases of the index file;
 * canon gets the file each name loads. */
static char **all_names(char ***canon)
{
	char **files = file_names(), **out = NULL, **to = NULL;
	size_t n = 0, alloc = 0;
	json_t *aliases = load_aliases(), *v;
	const char *key;

	for (size_t i = 0; files[i]; i++) {
		ALLOC_GROW(out, n + 2, alloc);
		to = xrealloc(to, alloc * sizeof(*to));
		out[n] = xstrdup(files[i]);
		to[n++] = xstrdup(files[i]);
	}
	json_object_foreach(json_object_get(aliases, "aliases"), key, v) {
		const char *file = jstr(v, "uarch");

		if (!file)
			continue;
		ALLOC_GROW(out, n + 2, alloc);
		to = xrealloc(to, alloc * sizeof(*to));
		out[n] = xstrdup(key);
		to[n++] = xstrdup(file);
	}
	json_decref(aliases);
	strv_free(files);
	if (!out) {
		out = xcalloc(1, sizeof(*out));
		to = xcalloc(1, sizeof(*to));
	}
	out[n] = NULL;
	to[n] = NULL;
	*canon = to;
	return out;
}

char **catalog_uarch_names(void)
{
	char **canon, **names = all_names(&canon);
	size_t n = 0;

	while (names[n])
		n++;
	qsort(names, n, sizeof(*names), cmp_str);
	strv_free(canon);
	return names;
}

void catalog_names_free(char **names)
{
	strv_free(names);
}

/* ---- accessors (shared with resolve.c through catalog_data.h) ---------- */

const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static json_t *find_named(json_t *arr, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		const char *n = jstr(v, "name");

		if (n && !strcmp(n, name))
			return v;
	}
	return NULL;
}

json_t *cat_event(const struct cat_data *d, const char *name)
{
	json_t *e = find_named(json_object_get(d->u, "events"), name);

	return e ? e : find_named(json_object_get(d->g, "events"), name);
}

json_t *cat_pmu(const struct cat_data *d, const char *role)
{
	json_t *p = find_named(json_object_get(d->u, "pmus"), role);

	return p ? p : find_named(json_object_get(d->g, "pmus"), role);
}

json_t *cat_chain(const struct cat_data *d, const char *metric)
{
	json_t *c = json_object_get(json_object_get(d->u, "metrics"), metric);

	return c ? c : json_object_get(json_object_get(d->g, "metrics"), metric);
}

json_t *cat_definition(const struct cat_data *d, const char *name)
{
	size_t i, k;
	json_t *v, *a;

	json_array_foreach(json_object_get(d->g, "definitions"), i, v) {
		if (!strcmp(jstr(v, "name"), name))
			return v;
		json_array_foreach(json_object_get(v, "aliases"), k, a)
			if (!strcmp(json_string_value(a), name))
				return v;
	}
	return NULL;
}

const char *catalog_description(const struct catalog *cat)
{
	return jstr(cat->d->u, "description");
}

const char *catalog_libpfm_pmu(const struct catalog *cat)
{
	return jstr(cat->d->u, "libpfm");
}

const char *catalog_preset(const struct catalog *cat, const char *name)
{
	return jstr(json_object_get(cat->d->g, "presets"), name);
}

const char **catalog_metric_names(const struct catalog *cat)
{
	const char **out = NULL;
	size_t n = 0, alloc = 0, i, k;
	json_t *v, *a;
	const char *key;

	json_array_foreach(json_object_get(cat->d->g, "definitions"), i, v) {
		ALLOC_GROW(out, n + 2, alloc);
		out[n++] = jstr(v, "name");
	}
	json_array_foreach(json_object_get(cat->d->g, "definitions"), i, v)
		json_array_foreach(json_object_get(v, "aliases"), k, a) {
			ALLOC_GROW(out, n + 2, alloc);
			out[n++] = json_string_value(a);
		}
	json_object_foreach(json_object_get(cat->d->g, "presets"), key, v) {
		ALLOC_GROW(out, n + 2, alloc);
		out[n++] = key;
	}
	if (!out)
		out = xcalloc(1, sizeof(*out));
	out[n] = NULL;
	return out;
}

void catalog_capacity(const struct catalog *cat, struct catalog_capacity *cap)
{
	json_t *core = json_object_get(cat_pmu(cat->d, "core"), "counters");
	const char *wd = jstr(core, "watchdog");
	size_t i;
	json_t *p;

	memset(cap, 0, sizeof(*cap));
	cap->gp = (unsigned)json_integer_value(json_object_get(core, "gp"));
	cap->fixed = (unsigned)json_integer_value(json_object_get(core, "fixed"));
	cap->watchdog = !wd ? 0 : !strcmp(wd, "gp") ? 1 : !strcmp(wd, "fixed") ? 2 : 0;
	json_array_foreach(json_object_get(cat->d->u, "pmus"), i, p)
		if (!strcmp(jstr(p, "scope") ? jstr(p, "scope") : "", "system"))
			cap->uncore_gp = (unsigned)json_integer_value(
				json_object_get(json_object_get(p, "counters"), "gp"));
}

static void cache_level(json_t *c, struct catalog_cache *out)
{
	out->size = (uint64_t)json_integer_value(json_object_get(c, "size"));
	out->assoc = (unsigned)json_integer_value(json_object_get(c, "ways"));
	out->line = (unsigned)json_integer_value(json_object_get(c, "line"));
	out->shared = jstr(c, "shared");
	out->note = jstr(c, "note");
	out->source = jstr(c, "source");
}

int catalog_cache_geometry(const struct catalog *cat, struct catalog_caches *out,
			   struct error *err)
{
	json_t *c = json_object_get(cat->d->u, "caches");

	memset(out, 0, sizeof(*out));
	if (!c) {
		error_set(err, ERR_RUNTIME, "the catalogue of '%s' describes no caches",
			  cat->requested ? cat->requested : cat->uarch);
		return error_hint(err, "pass '--uarch NAME' for a known core, or let valgrind "
				  "read the host's caches");
	}
	cache_level(json_object_get(c, "l1i"), &out->l1i);
	cache_level(json_object_get(c, "l1d"), &out->l1d);
	cache_level(json_object_get(c, "l2"), &out->l2);
	cache_level(json_object_get(c, "l3"), &out->l3);
	out->note = jstr(c, "note");
	return 0;
}

/* ---- validation -------------------------------------------------------- */

static int bad(const struct catalog *cat, struct error *err, const char *fmt, const char *a,
	       const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, fmt, a, b);
	error_set(err, ERR_RUNTIME, "catalogue '" UARCH_PREFIX "%s.json': %s", cat->uarch, sb.buf);
	strbuf_release(&sb);
	return error_hint(err, "fix the data file (see data/uarch/README.md)");
}

/* Every field of a native event must be a format term of its PMU. */
static int check_event(const struct catalog *cat, json_t *e, struct error *err)
{
	const char *name = jstr(e, "name"), *role = jstr(e, "pmu");
	json_t *pmu = role ? cat_pmu(cat->d, role) : NULL, *fmt;
	const char *term;
	json_t *v;

	if (!name || !pmu)
		return bad(cat, err, "event '%s' has no known PMU '%s'", name ? name : "?",
			   role ? role : "?");
	if (jstr(e, "perf"))
		return 0;
	fmt = json_object_get(pmu, "format");
	json_object_foreach(fmt, term, v) {
		struct sysfs_format f;
		struct error e2;

		if (sysfs_format_parse(json_string_value(v), &f, &e2) < 0)
			return bad(cat, err, "PMU format '%s': %s", term, e2.msg);
	}
	for (size_t k = 0; k < CAT_NFIELDS; k++)
		if (json_object_get(e, cat_fields[k]) && !json_object_get(fmt, cat_fields[k]))
			return bad(cat, err, "event '%s' sets '%s', which its PMU has no format for",
				   name, cat_fields[k]);
	if (!json_object_get(e, "event"))
		return bad(cat, err, "event '%s' has neither 'event' nor 'perf'%s", name, "");
	return 0;
}

static int check_formula(const struct catalog *cat, const char *metric, const char *formula,
			 int over_metrics, struct error *err)
{
	char **names;
	size_t n;
	int r = 0;

	if (formula_names(formula, &names, &n, err) < 0)
		return error_prefix(err, "catalogue '%s', metric '%s'", cat->uarch, metric);
	for (size_t i = 0; i < n; i++) {
		if (!r && over_metrics && !cat_definition(cat->d, names[i]))
			r = bad(cat, err, "derived metric '%s' uses unknown metric '%s'", metric,
				names[i]);
		else if (!r && !over_metrics && !cat_event(cat->d, names[i]))
			r = bad(cat, err, "metric '%s' uses unknown event '%s'", metric, names[i]);
		free(names[i]);
	}
	free(names);
	return r;
}

/* A positive integer member, else 0. */
static uint64_t jpositive(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ?
		(uint64_t)json_integer_value(v) : 0;
}

/* One level of "caches": whole sets of ways x line (a power of two, as
 * every cache line is), a known sharing scope, and where it comes from. */
static int check_cache_level(const struct catalog *cat, const char *name, json_t *c,
			     struct error *err)
{
	static const char *const scopes[] = { "core", "ccx", "cluster", "socket" };
	uint64_t size = jpositive(c, "size"), ways = jpositive(c, "ways");
	uint64_t line = jpositive(c, "line");
	const char *shared = jstr(c, "shared");
	size_t k = 0;

	if (!size || !ways || !line || ways > 4096 || line > 4096)
		return bad(cat, err, "caches.%s needs 'size', 'ways' and 'line' as positive "
			   "integers%s", name, "");
	if ((line & (line - 1)) || size % (ways * line))
		return bad(cat, err, "caches.%s: %s", name, "'size' is not a whole number of "
			   "sets of 'ways' x 'line' bytes, or 'line' is not a power of two");
	while (k < sizeof(scopes) / sizeof(scopes[0]) && (!shared || strcmp(shared, scopes[k])))
		k++;
	if (k == sizeof(scopes) / sizeof(scopes[0]))
		return bad(cat, err, "caches.%s: 'shared' is '%s', not one of core, ccx, "
			   "cluster, socket", name, shared ? shared : "");
	if (!jstr(c, "source"))
		return bad(cat, err, "caches.%s has no 'source'%s", name, "");
	return 0;
}

/* "caches" is optional (generic.json has none); when there, l1i, l1d and l2
 * are required and unknown keys are refused, so that a typo is not a level
 * silently missing. */
static int check_caches(const struct catalog *cat, struct error *err)
{
	json_t *c = json_object_get(cat->d->u, "caches"), *v;
	const char *key;

	if (!c)
		return 0;
	if (!json_is_object(c))
		return bad(cat, err, "'caches' is not an object%s%s", "", "");
	json_object_foreach(c, key, v) {
		if (!strcmp(key, "source") || !strcmp(key, "note"))
			continue;
		if (strcmp(key, "l1i") && strcmp(key, "l1d") && strcmp(key, "l2") &&
		    strcmp(key, "l3"))
			return bad(cat, err, "caches: unknown key '%s' (levels are l1i, l1d, "
				   "l2, l3)%s", key, "");
		if (check_cache_level(cat, key, v, err) < 0)
			return -1;
	}
	if (!json_object_get(c, "l1i") || !json_object_get(c, "l1d") ||
	    !json_object_get(c, "l2"))
		return bad(cat, err, "caches needs at least l1i, l1d and l2%s%s", "", "");
	return 0;
}

static int validate(const struct catalog *cat, struct error *err)
{
	const char *key;
	json_t *v, *step;
	size_t i, k;

	json_array_foreach(json_object_get(cat->d->u, "events"), i, v)
		if (check_event(cat, v, err) < 0)
			return -1;
	json_array_foreach(json_object_get(cat->d->g, "events"), i, v)
		if (check_event(cat, v, err) < 0)
			return -1;
	json_object_foreach(json_object_get(cat->d->u, "metrics"), key, v) {
		if (!cat_definition(cat->d, key))
			return bad(cat, err, "metric '%s' is not defined in generic.json%s", key, "");
		json_array_foreach(v, k, step)
			if (jstr(step, "formula") &&
			    check_formula(cat, key, jstr(step, "formula"), 0, err) < 0)
				return -1;
	}
	json_array_foreach(json_object_get(cat->d->g, "definitions"), i, v)
		if (jstr(v, "formula") &&
		    check_formula(cat, jstr(v, "name"), jstr(v, "formula"), 1, err) < 0)
			return -1;
	return check_caches(cat, err);
}

/* ---- load -------------------------------------------------------------- */

static int unknown_uarch(const char *name, struct error *err)
{
	char **names = catalog_uarch_names();
	size_t n = 0, picks[3], np;
	const char *shown[3];
	struct strbuf sb = STRBUF_INIT;

	while (names[n])
		n++;
	error_set(err, ERR_USAGE, "unknown microarchitecture '%s'", name);
	np = suggest_pick(name, (const char *const *)names, n, picks, 3);
	for (size_t i = 0; i < np; i++)
		shown[i] = names[picks[i]];
	suggest_format(&sb, shown, np);
	if (np)
		strbuf_adds(&sb, " ");
	strbuf_adds(&sb, "known: ");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", names[i]);
	error_hint(err, "%s", sb.buf);
	strbuf_release(&sb);
	strv_free(names);
	return -1;
}

/* Does uarch name a file of its own (no alias lookup needed)? */
static int has_file(const char *uarch)
{
	char **files = file_names();
	int found = 0;

	for (size_t i = 0; files[i] && !found; i++)
		found = !strcmp(files[i], uarch);
	strv_free(files);
	return found;
}

/* The canonical (file) name of uarch, or NULL. Aliases live inside the
 * files, so only a name without a file of its own costs reading them all. */
static char *canonical_name(const char *uarch)
{
	char **canon, **names;
	char *file = NULL;

	if (has_file(uarch))
		return xstrdup(uarch);
	names = all_names(&canon);
	for (size_t i = 0; names[i] && !file; i++)
		if (!strcmp(names[i], uarch))
			file = xstrdup(canon[i]);
	strv_free(names);
	strv_free(canon);
	return file;
}

int catalog_load(struct catalog *cat, const char *uarch, struct error *err)
{
	char *file;

	memset(cat, 0, sizeof(*cat));
	if (!uarch || !*uarch)
		uarch = "generic";
	file = canonical_name(uarch);
	if (!file)
		return unknown_uarch(uarch, err);
	cat->uarch = file;
	cat->requested = strcmp(file, uarch) ? xstrdup(uarch) : NULL;
	cat->d = xcalloc(1, sizeof(*cat->d));
	cat->d->g = load_file("generic", err);
	if (!cat->d->g)
		goto fail;
	if (!strcmp(cat->uarch, "generic"))
		cat->d->u = json_incref(cat->d->g);
	else if (!(cat->d->u = load_file(cat->uarch, err)))
		goto fail;
	if (validate(cat, err) < 0)
		goto fail;
	return 0;
fail:
	catalog_release(cat);
	return -1;
}

void catalog_release(struct catalog *cat)
{
	if (cat->d) {
		json_decref(cat->d->g);
		json_decref(cat->d->u);
		free(cat->d);
	}
	free(cat->uarch);
	free(cat->requested);
	memset(cat, 0, sizeof(*cat));
}
