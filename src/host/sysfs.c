/*
 * The sysfs PMU model (see sysfs.h). Every directory under
 * <root>/bus/event_source/devices is one PMU registered with perf_event; the
 * kernel documents the layout in Documentation/ABI/testing/
 * sysfs-bus-event_source-devices-{format,events,caps}. Each PMU is read
 * whole, and any file that is there but unreadable or malformed is an error
 * naming it: a model that silently dropped a term or alias would later turn
 * into a wrong encoding, which is far harder to diagnose than a refusal.
 * Entries are sorted by name so that listings and tests are deterministic
 * whatever order readdir() returns.
 */
#include "host/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sort.h"
#include "core/strbuf.h"

/*
 * Files under events/ that qualify another alias rather than being one:
 * <alias>.scale and <alias>.unit (sysfs-bus-event_source-devices-events),
 * <alias>.per-pkg and <alias>.snapshot (read by perf's util/pmu.c), and
 * <alias>.own_cpus (once emitted by arch/x86/events/msr.c).
 */
static const char *const alias_side_suffixes[] = {
	".scale", ".unit", ".per-pkg", ".snapshot", ".own_cpus",
};

/* sysfs attributes fit in a page; /proc/cpuinfo on a big host does not. */
#define READ_LIMIT (16u << 20)

static const char *env_root(const char *var, const char *dfl)
{
	const char *v = getenv(var);

	return v && *v ? v : dfl;
}

const char *sysfs_root(void)
{
	return env_root("PMUSTAT_SYSFS_ROOT", "/sys");
}

const char *procfs_root(void)
{
	return env_root("PMUSTAT_PROC_ROOT", "/proc");
}

static void rtrim(struct strbuf *sb)
{
	while (sb->len && strchr(" \t\r\n", sb->buf[sb->len - 1]))
		sb->buf[--sb->len] = '\0';
}

int sysfs_read_text(const char *path, char **out, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = strbuf_read_regular(&sb, path, READ_LIMIT);

	*out = NULL;
	if (rc < 0 && errno == ENOENT) {
		strbuf_release(&sb);
		return 1;
	}
	if (rc < 0)
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
	else if (rc == 1)
		error_set(err, ERR_RUNTIME, "'%s' is larger than %u bytes", path, READ_LIMIT);
	else if (rc == 2) {
		error_set(err, ERR_RUNTIME, "'%s' is not a regular file", path);
		error_hint(err, "sysfs and procfs hold plain files; check the tree that "
			   "PMUSTAT_SYSFS_ROOT or PMUSTAT_PROC_ROOT names");
	}
	if (rc) {
		strbuf_release(&sb);
		return -1;
	}
	rtrim(&sb);
	*out = strbuf_detach(&sb);
	return 0;
}

/* Like sysfs_read_text, but a missing file is an error too. */
static int read_required(const char *path, char **out, struct error *err)
{
	int r = sysfs_read_text(path, out, err);

	if (r == 1)
		return error_set(err, ERR_RUNTIME, "cannot open '%s': %s", path,
				 strerror(ENOENT));
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int sysfs_list_dir(const char *dir, char ***names, size_t *n, struct error *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t alloc = 0;

	*names = NULL;
	*n = 0;
	if (!d && errno == ENOENT)
		return 1;
	if (!d)
		return error_set(err, ERR_RUNTIME, "cannot open directory '%s': %s",
				 dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(*names, *n + 1, alloc);
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		sort_n(*names, *n, sizeof(**names), cmp_str);
	return 0;
}

/* ---- format specs ------------------------------------------------------ */

static int parse_field(const char *spec, const char **rest, int *field,
		       struct error *err)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : 0;

	if (!colon)
		return error_set(err, ERR_RUNTIME,
				 "malformed format '%s': expected 'config<N>:<bits>'", spec);
	if (len == 6 && !strncmp(spec, "config", 6))
		*field = 0;
	else if (len == 7 && !strncmp(spec, "config", 6) && spec[6] >= '1' && spec[6] <= '3')
		*field = spec[6] - '0';
	else
		return error_set(err, ERR_RUNTIME,
				 "malformed format '%s': unknown field '%.*s'", spec,
				 (int)len, spec);
	*rest = colon + 1;
	return 0;
}

static int parse_bitno(const char **p, int *out)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v > 63)
		return -1;
	*out = (int)v;
	*p = end;
	return 0;
}

static int parse_range(const char *spec, const char **p, struct sysfs_bits *b,
		       struct error *err)
{
	if (parse_bitno(p, &b->lo) < 0)
		return error_set(err, ERR_RUNTIME,
				 "malformed format '%s': expected a bit number 0-63", spec);
	b->hi = b->lo;
	if (**p == '-') {
		(*p)++;
		if (parse_bitno(p, &b->hi) < 0)
			return error_set(err, ERR_RUNTIME,
					 "malformed format '%s': expected a bit number 0-63",
					 spec);
	}
	if (b->hi < b->lo)
		return error_set(err, ERR_RUNTIME,
				 "malformed format '%s': range %d-%d is reversed", spec,
				 b->lo, b->hi);
	return 0;
}

int sysfs_format_parse(const char *spec, struct sysfs_format *f, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int field = 0, r = -1;

	strbuf_adds(&sb, spec);
	rtrim(&sb);
	f->nbits = 0;
	if (parse_field(sb.buf, &p, &field, err) < 0)
		goto out;
	for (;;) {
		struct sysfs_bits *b = &f->bits[f->nbits];

		if (f->nbits == (int)(sizeof(f->bits) / sizeof(f->bits[0]))) {
			error_set(err, ERR_RUNTIME,
				  "malformed format '%s': more than 4 bit ranges", sb.buf);
			goto out;
		}
		b->field = field;
		if (parse_range(sb.buf, &p, b, err) < 0)
			goto out;
		f->nbits++;
		if (*p == '\0')
			break;
		if (*p++ != ',') {
			error_set(err, ERR_RUNTIME,
				  "malformed format '%s': unexpected '%c'", sb.buf, p[-1]);
			goto out;
		}
	}
	r = 0;
out:
	if (r < 0)
		f->nbits = 0;
	strbuf_release(&sb);
	return r;
}

int sysfs_format_width(const struct sysfs_format *f)
{
	int i, w = 0;

	for (i = 0; i < f->nbits; i++)
		w += f->bits[i].hi - f->bits[i].lo + 1;
	return w > 64 ? 64 : w;
}

static uint64_t low_mask(int width)
{
	return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

int sysfs_format_encode(const struct sysfs_format *f, uint64_t value,
			uint64_t config[4], struct error *err)
{
	int i, width = sysfs_format_width(f);

	if (!f->nbits)
		return error_set(err, ERR_USAGE, "term '%s' has no bits to encode into",
				 f->name ? f->name : "?");
	if (value & ~low_mask(width)) {
		error_set(err, ERR_USAGE,
			  "value 0x%llx does not fit in term '%s' (%d bits, at most 0x%llx)",
			  (unsigned long long)value, f->name ? f->name : "?", width,
			  (unsigned long long)low_mask(width));
		return error_hint(err, "use a value below 0x%llx",
				  (unsigned long long)low_mask(width) + 1);
	}
	for (i = 0; i < f->nbits; i++) {
		const struct sysfs_bits *b = &f->bits[i];
		int w = b->hi - b->lo + 1;
		uint64_t m = low_mask(w) << b->lo;

		config[b->field] = (config[b->field] & ~m) | ((value & low_mask(w)) << b->lo);
		value = w >= 64 ? 0 : value >> w;
	}
	return 0;
}

/* ---- one PMU ----------------------------------------------------------- */

static char *path_join(const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", a, b);
	return strbuf_detach(&sb);
}

static int bad_file(struct error *err, const char *path, const char *what,
		    const char *got)
{
	error_set(err, ERR_RUNTIME, "malformed '%s': expected %s, got '%s'", path,
		  what, got);
	return error_hint(err, "the PMU driver or the recorded tree is broken; "
			  "check it with 'cat %s'", path);
}

static int load_type(struct sysfs_pmu *p, const char *dir, struct error *err)
{
	char *path = path_join(dir, "type"), *text, *end;
	long v;
	int r = 0;

	if (read_required(path, &text, err) < 0) {
		free(path);
		return -1;
	}
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 0 || v > 0x7fffffff)
		r = bad_file(err, path, "a PMU type number", text);
	else
		p->type = (int)v;
	free(text);
	free(path);
	return r;
}

static int load_format(struct sysfs_format *f, const char *fdir, const char *name,
		       struct error *err)
{
	char *path = path_join(fdir, name), *text;
	int r;

	f->name = xstrdup(name);
	r = read_required(path, &text, err);
	if (!r && sysfs_format_parse(text, f, err) < 0) {
		error_prefix(err, "in '%s'", path);
		r = -1;
	}
	free(text);
	free(path);
	return r;
}

static int load_formats(struct sysfs_pmu *p, const char *dir, struct error *err)
{
	char *fdir = path_join(dir, "format"), **names;
	size_t n, i;
	int r = sysfs_list_dir(fdir, &names, &n, err);

	if (r != 0) {
		free(fdir);
		return r < 0 ? -1 : 0;
	}
	p->formats = xcalloc(n, sizeof(*p->formats));
	for (i = 0; i < n && r == 0; i++, p->nformats++)
		r = load_format(&p->formats[i], fdir, names[i], err);
	free_names(names, n);
	free(fdir);
	return r;
}

static int is_side_file(const char *name)
{
	size_t len = strlen(name), i;

	for (i = 0; i < sizeof(alias_side_suffixes) / sizeof(alias_side_suffixes[0]); i++) {
		size_t sl = strlen(alias_side_suffixes[i]);

		if (len > sl && !strcmp(name + len - sl, alias_side_suffixes[i]))
			return 1;
	}
	return 0;
}

/* Read "<edir>/<name><suffix>" if it exists: 0 (text or NULL) or -1. */
static int read_side(const char *edir, const char *name, const char *suffix,
		     char **text, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	strbuf_addf(&sb, "%s/%s%s", edir, name, suffix);
	r = sysfs_read_text(sb.buf, text, err);
	strbuf_release(&sb);
	return r < 0 ? -1 : 0;
}

static int parse_scale(const char *edir, const char *name, const char *text,
		       double *scale, struct error *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!errno && end != text && !*end && isfinite(v) && v != 0) {
		*scale = v;
		return 0;
	}
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s/%s.scale", edir, name);
		bad_file(err, sb.buf, "a non-zero number", text);
		strbuf_release(&sb);
	}
	return -1;
}

static int load_alias(struct sysfs_alias *a, const char *edir, const char *name,
		      struct error *err)
{
	char *path = path_join(edir, name), *scale = NULL, *unit = NULL;
	int r;

	a->name = xstrdup(name);
	a->scale = 1.0;
	r = read_required(path, &a->terms, err);
	free(path);
	if (r < 0 || read_side(edir, name, ".scale", &scale, err) < 0 ||
	    read_side(edir, name, ".unit", &unit, err) < 0)
		r = -1;
	else if (scale)
		r = parse_scale(edir, name, scale, &a->scale, err);
	a->unit = unit ? unit : xstrdup("");
	free(scale);
	return r;
}

static int load_aliases(struct sysfs_pmu *p, const char *dir, struct error *err)
{
	char *edir = path_join(dir, "events"), **names;
	size_t n, i;
	int r = sysfs_list_dir(edir, &names, &n, err);

	if (r != 0) {
		free(edir);
		return r < 0 ? -1 : 0;
	}
	p->aliases = xcalloc(n, sizeof(*p->aliases));
	for (i = 0; i < n && r == 0; i++) {
		if (is_side_file(names[i]))
			continue;
		r = load_alias(&p->aliases[p->naliases++], edir, names[i], err);
	}
	free_names(names, n);
	free(edir);
	return r;
}

static int load_caps(struct sysfs_pmu *p, const char *dir, struct error *err)
{
	char *cdir = path_join(dir, "caps"), **names;
	size_t n, i;
	int r = sysfs_list_dir(cdir, &names, &n, err);

	if (r != 0) {
		free(cdir);
		return r < 0 ? -1 : 0;
	}
	p->caps = xcalloc(n + 1, sizeof(*p->caps));
	for (i = 0; i < n && r == 0; i++) {
		char *path = path_join(cdir, names[i]), *text;
		struct strbuf sb = STRBUF_INIT;

		r = read_required(path, &text, err);
		if (!r) {
			strbuf_addf(&sb, "%s=%s", names[i], text);
			p->caps[p->ncaps++] = strbuf_detach(&sb);
			free(text);
		}
		free(path);
	}
	free_names(names, n);
	free(cdir);
	return r;
}

static int load_cpumask(struct sysfs_pmu *p, const char *dir, struct error *err)
{
	char *path = path_join(dir, "cpumask");
	int r = sysfs_read_text(path, &p->cpumask, err);

	free(path);
	return r < 0 ? -1 : 0;
}

/* A hybrid core PMU's `cpus` (arch/x86/events/core.c, since Linux 5.13):
 * its events count only while the task runs on those CPUs. */
static int load_cpus(struct sysfs_pmu *p, const char *dir, struct error *err)
{
	char *path = path_join(dir, "cpus");
	int r = sysfs_read_text(path, &p->cpus, err);

	free(path);
	return r < 0 ? -1 : 0;
}

static void pmu_release(struct sysfs_pmu *p)
{
	size_t i;

	for (i = 0; i < p->nformats; i++)
		free(p->formats[i].name);
	for (i = 0; i < p->naliases; i++) {
		free(p->aliases[i].name);
		free(p->aliases[i].terms);
		free(p->aliases[i].unit);
	}
	for (i = 0; i < p->ncaps; i++)
		free(p->caps[i]);
	free(p->formats);
	free(p->aliases);
	free(p->caps);
	free(p->cpumask);
	free(p->cpus);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

static int load_pmu(struct sysfs_pmu *p, const char *devices, const char *name,
		    struct error *err)
{
	char *dir = path_join(devices, name);
	int r;

	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	r = load_type(p, dir, err);
	if (!r)
		r = load_formats(p, dir, err);
	if (!r)
		r = load_aliases(p, dir, err);
	if (!r)
		r = load_caps(p, dir, err);
	if (!r)
		r = load_cpumask(p, dir, err);
	if (!r)
		r = load_cpus(p, dir, err);
	free(dir);
	return r;
}

/* ---- the model --------------------------------------------------------- */

/* Device entries are symlinks into /sys/devices; stat() follows them. */
static int is_dir(const char *devices, const char *name)
{
	char *path = path_join(devices, name);
	struct stat st;
	int r = stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	free(path);
	return r;
}

static int load_pmus(struct sysfs_model *m, const char *devices, char **names,
		     size_t n, struct error *err)
{
	size_t i;

	m->pmus = xcalloc(n, sizeof(*m->pmus));
	for (i = 0; i < n; i++) {
		struct sysfs_pmu *p = &m->pmus[m->npmus];

		if (!is_dir(devices, names[i]))
			continue;	/* not a PMU: nothing else lives here */
		if (load_pmu(p, devices, names[i], err) < 0) {
			pmu_release(p);
			return -1;
		}
		m->npmus++;
	}
	return 0;
}

/*
 * A root that does not exist at all is almost always a mistyped
 * PMUSTAT_SYSFS_ROOT, so it is an error; a root without event_source is a
 * kernel without perf events, which is a fact to report, not an error.
 */
static int check_root(const char *root, struct error *err)
{
	struct stat st;

	if (stat(root, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	error_set(err, ERR_RUNTIME, "sysfs root '%s' is not a directory", root);
	return error_hint(err, "check PMUSTAT_SYSFS_ROOT, or unset it to read /sys");
}

int sysfs_model_load(struct sysfs_model *m, const char *root, struct error *err)
{
	char *devices, **names;
	size_t n;
	int r;

	memset(m, 0, sizeof(*m));
	m->root = xstrdup(root ? root : sysfs_root());
	if (check_root(m->root, err) < 0) {
		sysfs_model_release(m);
		return -1;
	}
	devices = path_join(m->root, "bus/event_source/devices");
	r = sysfs_list_dir(devices, &names, &n, err);
	if (r == 0) {
		r = load_pmus(m, devices, names, n, err);
		free_names(names, n);
	}
	free(devices);
	if (r < 0) {
		sysfs_model_release(m);
		return -1;
	}
	return 0;
}

void sysfs_model_release(struct sysfs_model *m)
{
	size_t i;

	for (i = 0; i < m->npmus; i++)
		pmu_release(&m->pmus[i]);
	free(m->pmus);
	free(m->root);
	memset(m, 0, sizeof(*m));
}

const struct sysfs_pmu *sysfs_pmu_find(const struct sysfs_model *m, const char *name)
{
	size_t i;

	for (i = 0; m && i < m->npmus; i++)
		if (!strcmp(m->pmus[i].name, name))
			return &m->pmus[i];
	return NULL;
}

const struct sysfs_pmu *sysfs_pmu_find_type(const struct sysfs_model *m, int type)
{
	size_t i;

	for (i = 0; m && i < m->npmus; i++)
		if (m->pmus[i].type == type)
			return &m->pmus[i];
	return NULL;
}

const struct sysfs_format *sysfs_format_find(const struct sysfs_pmu *p, const char *term)
{
	size_t i;

	for (i = 0; p && i < p->nformats; i++)
		if (!strcmp(p->formats[i].name, term))
			return &p->formats[i];
	return NULL;
}

const struct sysfs_alias *sysfs_alias_find(const struct sysfs_pmu *p, const char *name)
{
	size_t i;

	for (i = 0; p && i < p->naliases; i++)
		if (!strcmp(p->aliases[i].name, name))
			return &p->aliases[i];
	return NULL;
}
