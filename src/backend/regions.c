/*
 * Region markers, the tool's side (see regions.h). The child learns the
 * events from the environment and reports into our memory file, inherited
 * or opened through /proc (children come from the spawn server),
 * so nothing here runs while the child does: no thread, no socket, no
 * temporary file to clean up after an interrupt. The report format belongs
 * to lib/pmustat (it writes JSON without a JSON library); this side parses it
 * with jansson and merges the lines of all processes by region name.
 */
#include "backend/regions.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/pmustat/protocol.h"
#include "core/strbuf.h"

extern char **environ;

static unsigned attr_flags(const struct perf_event_attr *a)
{
	return (a->exclude_user ? PMUSTAT_XF_USER : 0) | (a->exclude_kernel ? PMUSTAT_XF_KERNEL : 0) |
	       (a->exclude_hv ? PMUSTAT_XF_HV : 0) | (a->exclude_idle ? PMUSTAT_XF_IDLE : 0) |
	       (a->exclude_host ? PMUSTAT_XF_HOST : 0) | (a->exclude_guest ? PMUSTAT_XF_GUEST : 0);
}

void regions_encode_attr(const struct perf_event_attr *a, size_t leader, char *buf, size_t len)
{
	snprintf(buf, len, "%u:%#llx:%#llx:%#llx:%#x:%zu", a->type,
		 (unsigned long long)a->config, (unsigned long long)a->config1,
		 (unsigned long long)a->config2, attr_flags(a), leader);
}

/* The library wants a leader before its members, and a leader that leads;
 * anything else counts alone rather than fail the hand-off. */
static size_t leader_of(const size_t *group, size_t i)
{
	size_t l = group ? group[i] : i;

	return l <= i && group[l] == l ? l : i;
}

int regions_prepare(struct regions_handoff *h, const struct event_spec *evs, const size_t *group,
		    size_t n, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char item[128];

	memset(h, 0, sizeof(*h));
	h->fd = -1;
	if (n > PMUSTAT_MAX_EVENTS) {
		error_set(err, ERR_USAGE, "regions count at most %d events, %zu are planned",
			  PMUSTAT_MAX_EVENTS, n);
		return error_hint(err, "name fewer events with -e/-m");
	}
	/* Not close-on-exec: a child forked by us inherits it. One forked by
	 * the spawn server does not, and opens it by its /proc path. */
	h->fd = memfd_create("pmustat-regions", 0);
	if (h->fd < 0 || fstat(h->fd, &st))
		return error_set(err, ERR_RUNTIME, "cannot create the region report file: %s",
				 strerror(errno));
	h->nevents = n;
	strbuf_addf(&sb, "%s=%d:%llu", PMUSTAT_ENV_FD, h->fd, (unsigned long long)st.st_ino);
	h->vars[0] = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s=/proc/%ld/fd/%d", PMUSTAT_ENV_PATH, (long)getpid(), h->fd);
	h->vars[1] = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s=", PMUSTAT_ENV_ATTRS);
	for (size_t i = 0; i < n; i++) {
		regions_encode_attr(&evs[i].attr, group ? leader_of(group, i) : i, item, sizeof(item));
		strbuf_addf(&sb, "%s%s", i ? "," : "", item);
	}
	h->vars[2] = strbuf_detach(&sb);
	return 0;
}

static int is_ours(const char *var)
{
	static const char *const names[] = { PMUSTAT_ENV_FD "=", PMUSTAT_ENV_PATH "=",
					     PMUSTAT_ENV_ATTRS "=" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(var, names[i], strlen(names[i])))
			return 1;
	return 0;
}

char **regions_env(const struct regions_handoff *h, char *const *base)
{
	size_t n = 0, o = 0;
	char **env;

	if (!base)
		base = environ;
	while (base[n])
		n++;
	env = xcalloc(n + 4, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		if (!is_ours(base[i]))
			env[o++] = base[i];
	for (size_t i = 0; h->vars[i]; i++)
		env[o++] = h->vars[i];
	return env;
}

void regions_env_free(char **env)
{
	free(env);
}

void regions_release(struct regions_handoff *h)
{
	if (h->fd >= 0)
		close(h->fd);
	for (size_t i = 0; h->vars[i]; i++)
		free(h->vars[i]);
	memset(h, 0, sizeof(*h));
	h->fd = -1;
}

int regions_collect(const struct regions_handoff *h, struct regions_result *res,
		    struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	off_t off = 0;
	ssize_t got;

	memset(res, 0, sizeof(*res));
	res->nevents = h->nevents;
	if (h->fd < 0)
		return 0;
	while ((got = pread(h->fd, buf, sizeof(buf), off)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			strbuf_release(&sb);
			return error_set(err, ERR_RUNTIME, "cannot read the region report: %s",
					 strerror(errno));
		}
		strbuf_add(&sb, buf, (size_t)got);
		off += got;
	}
	regions_parse(sb.buf ? sb.buf : "", sb.len, h->nevents, res);
	strbuf_release(&sb);
	return 0;
}

static void problem(struct regions_result *res, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct regions_result *res, const char *hint, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (res->problem)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	res->problem = xstrdup(line);
	res->problem_hint = hint ? xstrdup(hint) : NULL;
}

static struct region_row *row_for(struct regions_result *res, const char *name)
{
	struct region_row *r;

	for (size_t i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].name, name))
			return &res->rows[i];
	ALLOC_GROW(res->rows, res->nrows + 1, res->rows_alloc);
	r = &res->rows[res->nrows++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->values = xcalloc(res->nevents ? res->nevents : 1, sizeof(*r->values));
	return r;
}

static uint64_t u64_of(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

/* Check one report's shape; 0 if it can be merged. */
static int check_report(json_t *doc, size_t nevents, struct regions_result *res, int lineno)
{
	json_t *schema = json_object_get(doc, "schema"), *events, *e;
	size_t i;

	if (!json_is_string(schema) || strcmp(json_string_value(schema), PMUSTAT_REGIONS_SCHEMA)) {
		problem(res, "rebuild the program against this pmustat's libpmustat",
			"region report line %d: schema is not '%s'", lineno, PMUSTAT_REGIONS_SCHEMA);
		return -1;
	}
	if (json_is_string(json_object_get(doc, "error"))) {
		problem(res, NULL, "libpmustat in the measured program: %s",
			json_string_value(json_object_get(doc, "error")));
		return -1;
	}
	events = json_object_get(doc, "events");
	if (!json_is_array(events) || json_array_size(events) != nevents) {
		problem(res, "rebuild the program against this pmustat's libpmustat",
			"region report line %d: %zu events, expected %zu", lineno,
			json_is_array(events) ? json_array_size(events) : 0, nevents);
		return -1;
	}
	json_array_foreach(events, i, e)
		if (json_is_string(json_object_get(e, "error")) && u64_of(e, "failed_threads"))
			problem(res, NULL, "event %zu did not open inside the program: %s", i,
				json_string_value(json_object_get(e, "error")));
	return 0;
}

static void merge_region(struct regions_result *res, json_t *reg)
{
	json_t *name = json_object_get(reg, "name"), *counters, *c;
	struct region_row *row;
	size_t k;

	if (!json_is_string(name))
		return;
	row = row_for(res, json_string_value(name));
	row->count += u64_of(reg, "count");
	row->threads += u64_of(reg, "threads");
	row->unbalanced += u64_of(reg, "unbalanced");
	row->open += u64_of(reg, "open");
	counters = json_object_get(reg, "counters");
	json_array_foreach(counters, k, c) {
		struct region_value *v;

		if (k >= res->nevents || !json_is_integer(json_object_get(c, "value")))
			continue;
		v = &row->values[k];
		v->valid = 1;
		v->value += u64_of(c, "value");
		v->enabled += u64_of(c, "time_enabled");
		v->running += u64_of(c, "time_running");
	}
}

int regions_parse(const char *text, size_t len, size_t nevents, struct regions_result *res)
{
	const char *p = text, *end = text + len;
	int lineno = 0;

	res->nevents = nevents;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);
		json_error_t je;
		json_t *doc, *regions, *reg;
		size_t i;

		lineno++;
		doc = l ? json_loadb(p, l, 0, &je) : NULL;
		p += l + (nl != NULL);
		if (!l)
			continue;
		if (!json_is_object(doc)) {
			problem(res, "the program may have been killed while writing it",
				"region report line %d is not JSON: %s", lineno,
				doc ? "not an object" : je.text);
			json_decref(doc);
			continue;
		}
		if (check_report(doc, nevents, res, lineno) == 0) {
			res->nreports++;
			res->dropped += u64_of(doc, "dropped_entries");
			res->read_errors += u64_of(doc, "read_errors");
			regions = json_object_get(doc, "regions");
			json_array_foreach(regions, i, reg)
				merge_region(res, reg);
		}
		json_decref(doc);
	}
	return 0;
}

void regions_result_release(struct regions_result *res)
{
	for (size_t i = 0; i < res->nrows; i++) {
		free(res->rows[i].name);
		free(res->rows[i].values);
	}
	free(res->rows);
	free(res->problem);
	free(res->problem_hint);
	memset(res, 0, sizeof(*res));
}

char *regions_metric_name(const char *region, const char *event)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s:%s", region, event);
	return strbuf_detach(&sb);
}
