/*
 * Loading the catalogue: the uarch's JSON file plus data/uarch/generic.json,
 * checked once at load — first their shape (schema.c: every key known and
 * of its type), then what the entries mean together (validate.c: a formula
 * naming a missing event is a bug in the data) — so that resolution can
 * trust every reference; errors name the file and the entry. The JSON stays
 * in jansson trees; the accessors below are the only code that knows the
 * file layout (documented in data/uarch/README.md).
 */
#include "catalog/catalog_data.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/embed.h"
#include "core/sort.h"
#include "core/suggest.h"

#define UARCH_PREFIX "data/uarch/"

/* ---- reading the files ------------------------------------------------- */

/* A catalogue file is a few hundred KiB; a bound keeps a mistake cheap. */
#define FILE_MAX (64u << 20)

/* JSON from a file under $PMUSTAT_DATA_DIR (a regular file only: a FIFO
 * there would otherwise hang the load), or NULL with why in je.text. */
static json_t *load_path(const char *path, json_error_t *je)
{
	struct strbuf text = STRBUF_INIT;
	int rc = strbuf_read_regular(&text, path, FILE_MAX);
	json_t *root = NULL;

	if (rc < 0)
		snprintf(je->text, sizeof(je->text), "%s", strerror(errno));
	else if (rc == 1)
		snprintf(je->text, sizeof(je->text), "larger than %u MiB", FILE_MAX >> 20);
	else if (rc == 2)
		snprintf(je->text, sizeof(je->text), "not a regular file");
	else
		root = json_loadb(text.buf, text.len, 0, je);
	strbuf_release(&text);
	return root;
}

/* The JSON of data/uarch/NAME.json: from $PMUSTAT_DATA_DIR/uarch/ when that
 * is set, else embedded in the binary. *file names what was read (for
 * messages), also on failure. */
static json_t *load_file(const char *name, char **file, struct error *err)
{
	const char *dir = getenv("PMUSTAT_DATA_DIR");
	struct strbuf path = STRBUF_INIT;
	json_error_t je;
	json_t *root = NULL;

	memset(&je, 0, sizeof(je));
	if (dir && *dir) {
		strbuf_addf(&path, "%s/uarch/%s.json", dir, name);
		root = load_path(path.buf, &je);
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
	if (!root && je.line > 0)
		error_set(err, ERR_RUNTIME, "cannot load catalogue '%s': %s (line %d)", path.buf,
			  je.text, je.line);
	else if (!root)
		error_set(err, ERR_RUNTIME, "cannot load catalogue '%s': %s", path.buf, je.text);
	if (!root && dir && *dir)
		error_hint(err, "fix the file, or unset PMUSTAT_DATA_DIR to use the built-in "
			   "catalogue");
	else if (!root)
		error_hint(err, "rebuild with 'make'; data files are embedded at build time");
	*file = strbuf_detach(&path);
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
		root = load_path(path.buf, &je);
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
	sort_n(names, n, sizeof(*names), cmp_str);
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

static void pmu_capacity(json_t *pmu, struct catalog_capacity *cap)
{
	json_t *c = json_object_get(pmu, "counters");
	const char *wd = jstr(c, "watchdog");

	cap->gp = (unsigned)json_integer_value(json_object_get(c, "gp"));
	cap->fixed = (unsigned)json_integer_value(json_object_get(c, "fixed"));
	cap->watchdog = !wd ? 0 : !strcmp(wd, "gp") ? 1 : !strcmp(wd, "fixed") ? 2 : 0;
}

void catalog_capacity(const struct catalog *cat, struct catalog_capacity *cap)
{
	size_t i;
	json_t *p;

	memset(cap, 0, sizeof(*cap));
	pmu_capacity(cat_pmu(cat->d, "core"), cap);
	json_array_foreach(json_object_get(cat->d->u, "pmus"), i, p)
		if (!strcmp(jstr(p, "scope") ? jstr(p, "scope") : "", "system"))
			cap->uncore_gp = (unsigned)json_integer_value(
				json_object_get(json_object_get(p, "counters"), "gp"));
}

static void core_pmu_fill(json_t *p, struct catalog_core_pmu *out)
{
	const char *sysfs = json_string_value(json_array_get(json_object_get(p, "sysfs"), 0));

	memset(out, 0, sizeof(*out));
	out->role = jstr(p, "name");
	out->sysfs = sysfs && !strchr(sysfs, '*') ? sysfs : "cpu";
	out->core_type = jstr(p, "core_type");
	pmu_capacity(p, &out->cap);
}

size_t catalog_core_pmus(const struct catalog *cat, struct catalog_core_pmu *out, size_t max)
{
	json_t *core = cat_pmu(cat->d, "core"), *p;
	size_t n = 0, i;

	if (core && max)
		core_pmu_fill(core, &out[n++]);
	json_array_foreach(json_object_get(cat->d->u, "pmus"), i, p)
		if (n < max && p != core && jstr(p, "core_type"))
			core_pmu_fill(p, &out[n++]);
	return n;
}

int catalog_is_hybrid(const struct catalog *cat)
{
	struct catalog_core_pmu pm[CATALOG_MAX_CORE_PMUS];

	return catalog_core_pmus(cat, pm, CATALOG_MAX_CORE_PMUS) > 1;
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
	cat->d->g = load_file("generic", &cat->d->gfile, err);
	if (!cat->d->g || catalog_check_shape(cat->d->g, cat->d->gfile, err))
		goto fail;
	if (!strcmp(cat->uarch, "generic")) {
		cat->d->u = json_incref(cat->d->g);
		cat->d->ufile = xstrdup(cat->d->gfile);
	} else if (!(cat->d->u = load_file(cat->uarch, &cat->d->ufile, err)) ||
		   catalog_check_shape(cat->d->u, cat->d->ufile, err)) {
		goto fail;
	}
	if (catalog_validate(cat, err) < 0)
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
		free(cat->d->gfile);
		free(cat->d->ufile);
		free(cat->d);
	}
	free(cat->uarch);
	free(cat->requested);
	memset(cat, 0, sizeof(*cat));
}
