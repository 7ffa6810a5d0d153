/*
 * The simulation backend (see sim.h). Three small jobs: say whether a cache
 * geometry is one cachegrind accepts (its rules are in valgrind's
 * cachegrind/cg_arch.c, check_cache(): power-of-two line >= 16 B, power-of-
 * two set count, assoc <= lines), build the valgrind command line, and read
 * the output files. Of a cachegrind file only three kinds of line matter:
 * `desc:` (the geometry actually simulated, which may differ from the one
 * asked for when valgrind detected it), `events:` (column names) and
 * `summary:` (the totals). Columns are found by name, so a file written with
 * --branch-sim=no simply lacks the branch metrics instead of shifting them.
 */
#include "backend/sim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/safeopen.h"
#include "core/strbuf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define EV(e) (1u << (e))

/* Cachegrind's minimum line size (cg_arch.c, MIN_LINE_SIZE). */
#define SIM_MIN_LINE 16
/* Output files are small (one line per source line executed), but bound them. */
#define SIM_FILE_MAX (256u << 20)

static const char *const event_names[SIM_NEVENTS] = {
	"Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw",
	"Bc", "Bcm", "Bi", "Bim",
};

const char *sim_event_name(enum sim_event e)
{
	return e < SIM_NEVENTS ? event_names[e] : "?";
}

/* ---- geometry ---------------------------------------------------------- */

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int sim_level_check(const struct cache_level *c, const char *which, struct error *err)
{
	uint64_t way_bytes = (uint64_t)c->line * c->assoc;

	if (c->line < SIM_MIN_LINE || !is_pow2(c->line)) {
		error_set(err, ERR_USAGE, "cannot simulate %s cache with %u B lines: cachegrind "
			  "needs a power of two of at least %d", which, c->line, SIM_MIN_LINE);
		return error_hint(err, "give a line size of 16, 32, 64 or 128 bytes");
	}
	if (!c->assoc || c->size <= c->line || c->size % way_bytes || c->assoc > c->size / c->line) {
		error_set(err, ERR_USAGE, "cannot simulate %s cache of %" PRIu64 " B, %u-way, "
			  "%u B lines: the size is not ways x lines x sets", which, c->size,
			  c->assoc, c->line);
		return error_hint(err, "give a size that is a multiple of ways x line size");
	}
	if (!is_pow2(c->size / way_bytes)) {
		error_set(err, ERR_USAGE, "cannot simulate %s cache of %" PRIu64 " B, %u-way, "
			  "%u B lines: %" PRIu64 " sets is not a power of two", which, c->size,
			  c->assoc, c->line, c->size / way_bytes);
		return error_hint(err, "cachegrind simulates power-of-two set counts only; "
				  "raise the associativity to reach the size");
	}
	return 0;
}

int sim_level_fit(struct cache_level *c)
{
	uint64_t lines, sets, sets2 = 1, assoc2;

	if (!c->size && !c->assoc && !c->line)
		return 0;
	if (c->line < SIM_MIN_LINE || !is_pow2(c->line) || c->size < 2u * c->line)
		return -1;
	if (!c->assoc)
		c->assoc = 1;
	if (!sim_level_check(c, "", NULL))
		return 0;
	lines = c->size / c->line;
	sets = lines / c->assoc ? lines / c->assoc : 1;
	while (sets2 * 2 <= sets)
		sets2 *= 2;
	assoc2 = (lines + sets2 / 2) / sets2;
	if (!assoc2)
		assoc2 = 1;
	c->assoc = (unsigned)assoc2;
	c->size = sets2 * assoc2 * c->line;
	return 1;
}

/* ---- parsing ----------------------------------------------------------- */

static int event_index(const char *name, size_t len)
{
	for (int i = 0; i < SIM_NEVENTS; i++)
		if (strlen(event_names[i]) == len && !strncmp(event_names[i], name, len))
			return i;
	return -1;
}

/* "events: Ir I1mr ..." -> column -> sim_event (-1 for columns we ignore). */
static int parse_events(const char *p, int *col, size_t max, size_t *ncols)
{
	*ncols = 0;
	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (!len)
			break;
		if (*ncols == max)
			return -1;
		col[(*ncols)++] = event_index(p, len);
		p += len;
	}
	return 0;
}

/* "desc: LL cache:         33554432 B, 64 B, 16-way associative". */
static void parse_desc(const char *p, struct cache_geometry *g)
{
	static const struct { const char *tag; size_t off; } levels[] = {
		{ "I1 cache:", offsetof(struct cache_geometry, l1i) },
		{ "D1 cache:", offsetof(struct cache_geometry, l1d) },
		{ "LL cache:", offsetof(struct cache_geometry, ll) },
	};
	unsigned long long size;
	unsigned line, assoc;

	for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
		struct cache_level *c = (struct cache_level *)((char *)g + levels[i].off);
		size_t n = strlen(levels[i].tag);

		if (strncmp(p, levels[i].tag, n))
			continue;
		if (sscanf(p + n, " %llu B, %u B, %u-way", &size, &line, &assoc) == 3 ||
		    (sscanf(p + n, " %llu B, %u B, direct-mapped", &size, &line) == 2 &&
		     (assoc = 1))) {
			c->size = size;
			c->line = line;
			c->assoc = assoc;
		}
	}
}

static int parse_summary(const char *p, const int *col, size_t ncols, uint64_t *vals,
			 struct error *err)
{
	size_t n = 0;

	for (;;) {
		char *end;
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (end == p || errno || (*end && *end != ' ' && *end != '\t' && *end != '\n'))
			return error_set(err, ERR_RUNTIME, "cachegrind 'summary:' holds a "
					 "non-number");
		if (n < ncols && col[n] >= 0)
			vals[col[n]] = v;
		n++;
		p = end;
	}
	if (n != ncols)
		return error_set(err, ERR_RUNTIME, "cachegrind 'summary:' has %zu values for "
				 "%zu events", n, ncols);
	return 0;
}

int sim_parse(const char *text, struct sim_counts *acc, struct error *err)
{
	int col[64];
	size_t ncols = 0;
	const char *summary = NULL;
	struct cache_geometry desc = { 0 };
	uint64_t vals[SIM_NEVENTS] = { 0 };
	int have_events = 0;

	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');

		if (!strncmp(line, "events:", 7)) {
			char *copy = xstrndup(line + 7, nl ? (size_t)(nl - line - 7) : strlen(line + 7));
			int bad = parse_events(copy, col, ARRAY_SIZE(col), &ncols);

			free(copy);
			if (bad)
				return error_set(err, ERR_RUNTIME, "cachegrind 'events:' line "
						 "has too many events");
			have_events = 1;
		} else if (!strncmp(line, "summary:", 8)) {
			summary = line + 8;
		} else if (!strncmp(line, "desc: ", 6)) {
			parse_desc(line + 6, &desc);
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!have_events)
		return error_set(err, ERR_RUNTIME, "not a cachegrind file: no 'events:' line");
	if (!summary)
		return error_set(err, ERR_RUNTIME, "cachegrind file has no 'summary:' line "
				 "(the program did not finish?)");
	if (parse_summary(summary, col, ncols, vals, err))
		return -1;
	for (size_t i = 0; i < ncols; i++)
		if (col[i] >= 0) {
			acc->ev[col[i]] += vals[col[i]];
			acc->have |= EV(col[i]);
		}
	if (!acc->files++) {
		int lvl = acc->used.ll_level;

		acc->used = desc;
		acc->used.ll_level = lvl;
	}
	return 0;
}

/* ---- per function ------------------------------------------------------ */

struct fn_total {
	char *name;
	uint64_t ev[SIM_NEVENTS];
};

struct fn_table {
	struct fn_total *f;
	size_t n, alloc;
};

static struct fn_total *fn_get(struct fn_table *t, const char *name, size_t len)
{
	for (size_t i = t->n; i-- > 0;)
		if (strlen(t->f[i].name) == len && !strncmp(t->f[i].name, name, len))
			return &t->f[i];
	ALLOC_GROW(t->f, t->n + 1, t->alloc);
	memset(&t->f[t->n], 0, sizeof(t->f[t->n]));
	t->f[t->n].name = xstrndup(name, len);
	return &t->f[t->n++];
}

/* "LINE v1 v2 ...": trailing zero columns may be left out. */
static int add_cost_line(const char *p, const int *col, size_t ncols, uint64_t *ev)
{
	char *end;
	size_t n = 0;

	strtoull(p, &end, 10);	/* the line number */
	if (end == p)
		return -1;
	for (p = end; n < ncols; n++) {
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		v = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		if (col[n] >= 0)
			ev[col[n]] += v;
		p = end;
	}
	return 0;
}

int sim_parse_functions(const char *text, sim_fn_cb cb, void *ctx, struct error *err)
{
	struct fn_table t = { 0 };
	struct fn_total *cur = NULL;
	int col[64];
	size_t ncols = 0;
	int rc = 0;

	for (const char *line = text; *line && !rc;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (!strncmp(line, "events:", 7)) {
			char *copy = xstrndup(line + 7, len - 7);

			if (parse_events(copy, col, ARRAY_SIZE(col), &ncols))
				rc = error_set(err, ERR_RUNTIME, "cachegrind 'events:' line has "
					       "too many events");
			free(copy);
		} else if (!strncmp(line, "fn=", 3)) {
			cur = fn_get(&t, line + 3, len - 3);
		} else if (cur && *line >= '0' && *line <= '9' &&
			   add_cost_line(line, col, ncols, cur->ev)) {
			rc = error_set(err, ERR_RUNTIME, "cachegrind cost line is malformed");
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!rc && !ncols)
		rc = error_set(err, ERR_RUNTIME, "not a cachegrind file: no 'events:' line");
	for (size_t i = 0; i < t.n; i++) {
		if (!rc)
			cb(ctx, t.f[i].name, t.f[i].ev);
		free(t.f[i].name);
	}
	free(t.f);
	return rc;
}

/* ---- metrics ----------------------------------------------------------- */

struct sim_metric {
	const char *name;
	unsigned sum;		/* base metric: the events added up */
	const char *num, *den;	/* derived: num / den * factor */
	double factor;
	int ll;			/* 0 any; 3: LL must stand for L3 (or be unknown); 2: for L2 */
};

static const struct sim_metric sim_metrics[] = {
	{ "instructions", EV(SIM_IR), NULL, NULL, 0, 0 },
	{ "l1d-accesses", EV(SIM_DR) | EV(SIM_DW), NULL, NULL, 0, 0 },
	{ "l1d-misses", EV(SIM_D1MR) | EV(SIM_D1MW), NULL, NULL, 0, 0 },
	{ "l1i-misses", EV(SIM_I1MR), NULL, NULL, 0, 0 },
	{ "llc-accesses", EV(SIM_I1MR) | EV(SIM_D1MR) | EV(SIM_D1MW), NULL, NULL, 0, 0 },
	{ "llc-misses", EV(SIM_DLMR) | EV(SIM_DLMW) | EV(SIM_ILMR), NULL, NULL, 0, 0 },
	{ "l3-misses", EV(SIM_DLMR) | EV(SIM_DLMW) | EV(SIM_ILMR), NULL, NULL, 0, 3 },
	{ "l2-accesses", EV(SIM_I1MR) | EV(SIM_D1MR) | EV(SIM_D1MW), NULL, NULL, 0, 2 },
	{ "l2-misses", EV(SIM_DLMR) | EV(SIM_DLMW) | EV(SIM_ILMR), NULL, NULL, 0, 2 },
	{ "branches", EV(SIM_BC) | EV(SIM_BI), NULL, NULL, 0, 0 },
	{ "branch-misses", EV(SIM_BCM) | EV(SIM_BIM), NULL, NULL, 0, 0 },
	{ "branch-miss-ratio", 0, "branch-misses", "branches", 1, 0 },
	{ "l1d-mpki", 0, "l1d-misses", "instructions", 1000, 0 },
	{ "l1i-mpki", 0, "l1i-misses", "instructions", 1000, 0 },
	{ "llc-mpki", 0, "llc-misses", "instructions", 1000, 0 },
	{ "l3-mpki", 0, "l3-misses", "instructions", 1000, 3 },
	{ "l2-mpki", 0, "l2-misses", "instructions", 1000, 2 },
	{ "branch-mpki", 0, "branch-misses", "instructions", 1000, 0 },
};

static const char *const metric_names[] = {
	"instructions", "l1d-accesses", "l1d-misses", "l1i-misses", "llc-accesses",
	"llc-misses", "l3-misses", "l2-accesses", "l2-misses", "branches", "branch-misses",
	"branch-miss-ratio", "l1d-mpki", "l1i-mpki", "llc-mpki", "l3-mpki", "l2-mpki",
	"branch-mpki", NULL,
};

const char *const *sim_metric_names(void)
{
	return metric_names;
}

static const struct sim_metric *metric_find(const char *name, int ll_level)
{
	for (size_t i = 0; i < ARRAY_SIZE(sim_metrics); i++) {
		const struct sim_metric *m = &sim_metrics[i];

		if (strcmp(m->name, name))
			continue;
		if ((m->ll == 2 && ll_level != 2) || (m->ll == 3 && ll_level == 2))
			return NULL;
		return m;
	}
	return NULL;
}

int sim_metric_known(const char *name, int ll_level)
{
	return metric_find(name, ll_level) != NULL;
}

int sim_metric_value(const struct sim_counts *c, const char *name, double *value)
{
	const struct sim_metric *m = metric_find(name, c->used.ll_level);
	double num, den;

	if (!m)
		return -1;
	if (m->sum) {
		uint64_t v = 0;

		if ((c->have & m->sum) != m->sum)
			return -1;
		for (int e = 0; e < SIM_NEVENTS; e++)
			if (m->sum & EV(e))
				v += c->ev[e];
		*value = (double)v;
		return 0;
	}
	if (sim_metric_value(c, m->num, &num) || sim_metric_value(c, m->den, &den) || den == 0)
		return -1;
	*value = num / den * m->factor;
	return 0;
}

/* ---- running ----------------------------------------------------------- */

int sim_find_valgrind(const char *path_env, char **path, struct error *err)
{
	*path = path_search("valgrind", path_env, X_OK);
	if (*path)
		return 0;
	error_set(err, ERR_RUNTIME, "cannot simulate: valgrind is not installed");
	return error_hint(err, "install it with 'apt-get install valgrind', or use "
			  "'--backend hw' or '--backend sw'");
}

static void argv_push(char ***argv, size_t *n, char *s)
{
	*argv = xrealloc(*argv, (*n + 2) * sizeof(char *));
	(*argv)[(*n)++] = s;
	(*argv)[*n] = NULL;
}

static char *level_opt(const char *opt, const struct cache_level *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "--%s=%" PRIu64 ",%u,%u", opt, c->size, c->assoc, c->line);
	return strbuf_detach(&sb);
}

static int geometry_opts(const struct cache_geometry *g, char ***argv, size_t *n,
			 struct error *err)
{
	const struct { const char *opt, *which; const struct cache_level *c; } lv[] = {
		{ "I1", "L1i", &g->l1i }, { "D1", "L1d", &g->l1d }, { "LL", "LL", &g->ll },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lv); i++) {
		if (!lv[i].c->size && !lv[i].c->assoc && !lv[i].c->line)
			continue;
		if (sim_level_check(lv[i].c, lv[i].which, err))
			return -1;
		argv_push(argv, n, level_opt(lv[i].opt, lv[i].c));
	}
	return 0;
}

int sim_prepare(struct sim_run *r, const char *valgrind, const struct cache_geometry *geometry,
		char *const *argv, struct error *err)
{
	static const char *const fixed[] = {
		"-q", "--vgdb=no", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
		"--trace-children=yes",
		/* raw names: the profile demangles them itself (symbol_demangle),
		 * so that a function is spelled one way in the whole report */
		"--demangle=no",
	};
	struct strbuf out = STRBUF_INIT;
	size_t n = 0;

	memset(r, 0, sizeof(*r));
	argv_push(&r->argv, &n, xstrdup(valgrind));
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		argv_push(&r->argv, &n, xstrdup(fixed[i]));
	if (geometry && geometry_opts(geometry, &r->argv, &n, err)) {
		sim_run_release(r);
		return -1;
	}
	if (tmpdir_make("pmustat-sim.", &r->dir, err)) {
		sim_run_release(r);
		return -1;
	}
	/* %p: one file per process, so traced children do not overwrite. */
	strbuf_addf(&out, "--cachegrind-out-file=%s/cg.%%p", r->dir);
	argv_push(&r->argv, &n, strbuf_detach(&out));
	argv_push(&r->argv, &n, xstrdup("--"));
	for (; *argv; argv++)
		argv_push(&r->argv, &n, xstrdup(*argv));
	r->ll_level = geometry ? geometry->ll_level : 0;
	return 0;
}

static int read_file(const char *path, struct strbuf *sb, struct error *err)
{
	/* In the simulation's directory, which the simulated program can
	 * write: a link there is not followed. */
	int rc = safeopen_slurp(path, SAFEOPEN_NOFOLLOW, SIM_FILE_MAX, sb);

	if (rc)
		return error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path,
				 safeopen_strerror(rc));
	return 0;
}

/* Every cachegrind output file of the run, parsed by each (sim_parse or
 * the per-function parser). */
typedef int (*file_parser)(const char *path, const char *text, void *ctx, struct error *err);

static int each_output(const struct sim_run *r, file_parser parse, void *ctx, unsigned *files,
		       struct error *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	d = opendir(r->dir);
	if (!d)
		return error_set(err, ERR_RUNTIME, "cannot read '%s': %s", r->dir, strerror(errno));
	while (!rc && (de = readdir(d))) {
		if (strncmp(de->d_name, "cg.", 3))
			continue;
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s", r->dir, de->d_name);
		rc = read_file(path.buf, &text, err);
		if (!rc && parse(path.buf, text.buf, ctx, err))
			rc = error_prefix(err, "'%s'", path.buf);
		*files += !rc;
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

struct fn_ctx {
	sim_fn_cb cb;
	void *ctx;
};

static int parse_fns(const char *path, const char *text, void *ctx, struct error *err)
{
	struct fn_ctx *f = ctx;

	(void)path;
	return sim_parse_functions(text, f->cb, f->ctx, err);
}

int sim_collect_functions(const struct sim_run *r, sim_fn_cb cb, void *ctx, struct error *err)
{
	struct fn_ctx f = { cb, ctx };
	unsigned files = 0;

	return each_output(r, parse_fns, &f, &files, err);
}

static int parse_totals(const char *path, const char *text, void *ctx, struct error *err)
{
	(void)path;
	return sim_parse(text, ctx, err);
}

int sim_collect(const struct sim_run *r, struct sim_counts *out, struct error *err)
{
	unsigned files = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->used.ll_level = r->ll_level;
	rc = each_output(r, parse_totals, out, &files, err);
	if (!rc && !out->files) {
		error_set(err, ERR_RUNTIME, "valgrind wrote no cachegrind output");
		return error_hint(err, "its messages are in the run's stderr; try "
				  "'valgrind --tool=cachegrind PROG' by hand");
	}
	return rc;
}


void sim_run_release(struct sim_run *r)
{
	if (r->dir) {
		DIR *d = opendir(r->dir);
		struct dirent *de;
		struct strbuf p = STRBUF_INIT;

		while (d && (de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			strbuf_reset(&p);
			strbuf_addf(&p, "%s/%s", r->dir, de->d_name);
			unlink(p.buf);
		}
		if (d)
			closedir(d);
		rmdir(r->dir);
		strbuf_release(&p);
		free(r->dir);
	}
	if (r->argv)
		for (char **a = r->argv; *a; a++)
			free(*a);
	free(r->argv);
	memset(r, 0, sizeof(*r));
}
