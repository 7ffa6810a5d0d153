/*
 * The profile mechanism (`--profile`): where each native run spends its
 * time. Every run of the campaign's blocks is sampled (backend/sample.h:
 * `cycles` where the host counts it, else `cpu-clock`, which works in VMs
 * without a PMU; a note says which), and after the run its samples are
 * symbolized against the mappings the kernel reported (backend/symbols.h,
 * elfutils) into self time per function: metrics "self:FUNCTION", one value
 * per run, so the raw per-block profiles live in the result like any other
 * metric and report/attribution.c pairs them block by block.
 *
 * A sampled address is first turned into (object, file offset), which is
 * the same in every run whatever ASLR did; the function found there is
 * cached across runs, so only new code is symbolized.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/perf_event.h"
#include "backend/sample.h"
#include "backend/symbols.h"
#include "campaign/mechanism.h"
#include "core/strbuf.h"
#include "report/attribution.h"

#define PROFILE_DEFAULT_HZ 999
#define PROFILE_PAGES 512
#define KERNEL_ADDRESS 0x8000000000000000ull

/* What is known of one (object, file offset). */
struct site {
	size_t path;		/* index into paths */
	uint64_t off;
	size_t metric;		/* its self:FUNCTION metric */
};

struct profile_state {
	struct sample_opts so;
	size_t samples_metric;
	char **paths;		/* interned object paths */
	size_t npaths;
	struct site *sites;	/* open addressing, nsites_alloc slots */
	size_t nsites, sites_alloc;
	size_t kernel_metric, unknown_metric;	/* "[kernel]", "[unknown]" buckets */
	char **gaps;		/* symbolization gaps already noted */
	size_t ngaps;
	uint64_t lost;
	unsigned lost_runs;
};

struct profile_run {
	struct profile_state *s;
	struct sample_set set;
	int open;
};

/* ---- a run's records ---------------------------------------------------- */

struct map {
	uint32_t pid;
	uint64_t start, end, pgoff;
	size_t path;
};

struct hit {
	uint32_t pid;
	uint64_t ip, period;
};

struct collect {
	struct profile_state *s;
	struct map *maps;
	size_t nmaps, maps_alloc;
	struct hit *hits;
	size_t nhits, hits_alloc;
	struct { uint32_t pid, ppid; } *forks;
	size_t nforks, forks_alloc;
	uint64_t lost;
};

static size_t intern(struct profile_state *s, const char *path)
{
	for (size_t i = 0; i < s->npaths; i++)
		if (!strcmp(s->paths[i], path))
			return i;
	s->paths = xrealloc(s->paths, (s->npaths + 1) * sizeof(char *));
	s->paths[s->npaths] = xstrdup(path);
	return s->npaths++;
}

static void on_record(void *ctx, const struct sample_rec *r)
{
	struct collect *c = ctx;

	switch (r->type) {
	case SREC_SAMPLE:
		ALLOC_GROW(c->hits, c->nhits + 1, c->hits_alloc);
		c->hits[c->nhits++] = (struct hit){ r->pid, r->ip, r->period };
		break;
	case SREC_MMAP:
		ALLOC_GROW(c->maps, c->nmaps + 1, c->maps_alloc);
		c->maps[c->nmaps++] = (struct map){ r->pid, r->start, r->start + r->len, r->pgoff,
						    intern(c->s, r->path) };
		break;
	case SREC_FORK:
		if (r->pid == r->ppid)
			break;	/* a thread: same address space */
		ALLOC_GROW(c->forks, c->nforks + 1, c->forks_alloc);
		c->forks[c->nforks].pid = r->pid;
		c->forks[c->nforks++].ppid = r->ppid;
		break;
	case SREC_LOST:
		c->lost += r->lost;
		break;
	default:
		break;
	}
}

/* The mapping of pid holding ip (the latest wins: an exec maps anew); a
 * forked child without mappings of its own sees its parent's. */
static const struct map *find_map(const struct collect *c, uint32_t pid, uint64_t ip)
{
	for (int depth = 0; depth < 8; depth++) {
		int has_own = 0;

		for (size_t i = c->nmaps; i-- > 0;) {
			const struct map *m = &c->maps[i];

			if (m->pid != pid)
				continue;
			has_own = 1;
			if (ip >= m->start && ip < m->end)
				return m;
		}
		if (has_own)
			return NULL;
		for (size_t i = 0; i < c->nforks; i++)
			if (c->forks[i].pid == pid) {
				pid = c->forks[i].ppid;
				goto parent;
			}
		return NULL;
parent:;
	}
	return NULL;
}

/* ---- sites: (object, offset) -> function metric, across runs ----------- */

static size_t site_slot(const struct profile_state *s, size_t path, uint64_t off)
{
	uint64_t h = (off ^ ((uint64_t)path << 40)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 20) & (s->sites_alloc - 1);
}

static struct site *site_find(struct profile_state *s, size_t path, uint64_t off)
{
	if (!s->sites_alloc)
		return NULL;
	for (size_t i = site_slot(s, path, off);; i = (i + 1) & (s->sites_alloc - 1)) {
		struct site *x = &s->sites[i];

		if (x->metric == (size_t)-1)
			return NULL;
		if (x->path == path && x->off == off)
			return x;
	}
}

static void site_put(struct profile_state *s, size_t path, uint64_t off, size_t metric);

static void site_grow(struct profile_state *s)
{
	struct site *old = s->sites;
	size_t n = s->sites_alloc;

	s->sites_alloc = n ? 2 * n : 1024;
	s->sites = xmalloc(s->sites_alloc * sizeof(*s->sites));
	for (size_t i = 0; i < s->sites_alloc; i++)
		s->sites[i].metric = (size_t)-1;
	s->nsites = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].metric != (size_t)-1)
			site_put(s, old[i].path, old[i].off, old[i].metric);
	free(old);
}

static void site_put(struct profile_state *s, size_t path, uint64_t off, size_t metric)
{
	size_t i;

	if (2 * (s->nsites + 1) > s->sites_alloc)
		site_grow(s);
	for (i = site_slot(s, path, off); s->sites[i].metric != (size_t)-1;
	     i = (i + 1) & (s->sites_alloc - 1))
		;
	s->sites[i] = (struct site){ path, off, metric };
	s->nsites++;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* The metric self:KEY, created the first time the function is seen; its
 * origin lists every "object: file" it was found in. */
static size_t function_metric(struct campaign *c, const struct sym_frame *f)
{
	struct strbuf name = STRBUF_INIT, where = STRBUF_INIT;
	struct result_metric *m;
	int i;

	strbuf_addf(&name, "%s%s", PROFILE_SELF, f->key);
	i = result_metric_index(&c->res, name.buf);
	if (i < 0) {
		m = result_add_metric_late(&c->res, name.buf, "ns", MSRC_PROFILE);
		m->hidden = 1;
		i = (int)c->res.nmetrics - 1;
	}
	m = &c->res.metrics[i];
	/* The translation unit tells two static functions of one name apart
	 * where the file is the header both were written in. */
	const char *file = f->unit ? f->unit : f->file;

	strbuf_addf(&where, "%s%s%s", base_name(f->object), file ? ": " : "",
		    file ? base_name(file) : "");
	if (!m->origin) {
		m->origin = strbuf_detach(&where);
	} else if (!strstr(m->origin, where.buf)) {
		/* "obj: a.c" + "obj: b.c" = "obj: a.c, b.c" */
		size_t olen = strlen(base_name(f->object));
		struct strbuf both = STRBUF_INIT;
		int same = !strncmp(m->origin, where.buf, olen) && m->origin[olen] == ':' && file;

		if (same && strstr(m->origin + olen, base_name(file)))
			same = 2;	/* that file is listed already */
		if (same == 1)
			strbuf_addf(&both, "%s, %s", m->origin, base_name(file));
		else if (!same)
			strbuf_addf(&both, "%s; %s", m->origin, where.buf);
		if (same != 2) {
			free(m->origin);
			m->origin = strbuf_detach(&both);
		}
		strbuf_release(&both);
	}
	strbuf_release(&where);
	strbuf_release(&name);
	return (size_t)i;
}

static size_t bucket(struct campaign *c, size_t *slot, const char *what)
{
	struct sym_frame f = { .function = what, .key = what, .object = what };

	if (*slot == (size_t)-1)
		*slot = function_metric(c, &f);
	return *slot;
}

static void note_gaps(struct campaign *c, struct profile_state *s, struct symbolizer *sy)
{
	for (const char *const *g = symbolizer_gaps(sy); g && *g; g++) {
		size_t k = 0;

		while (k < s->ngaps && strcmp(s->gaps[k], *g))
			k++;
		if (k < s->ngaps)
			continue;
		s->gaps = xrealloc(s->gaps, (s->ngaps + 1) * sizeof(char *));
		s->gaps[s->ngaps++] = xstrdup(*g);
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL, "profile: %s", *g);
	}
}

/* The function at ip of pid, through the cache; sy is made on first need. */
static size_t function_at(struct campaign *c, struct profile_state *s, struct collect *col,
			  struct symbolizer **sy, uint32_t *sy_pid, const struct hit *h)
{
	const struct map *m;
	struct sym_frame f[8];
	struct site *x;
	uint64_t off;

	if (h->ip >= KERNEL_ADDRESS)
		return bucket(c, &s->kernel_metric, "[kernel]");
	m = find_map(col, h->pid, h->ip);
	if (!m)
		return bucket(c, &s->unknown_metric, "[unknown]");
	off = h->ip - m->start + m->pgoff;
	x = site_find(s, m->path, off);
	if (x)
		return x->metric;
	if (!*sy || *sy_pid != m->pid) {
		if (*sy) {
			note_gaps(c, s, *sy);
			symbolizer_free(*sy);
		}
		*sy = symbolizer_new();
		*sy_pid = m->pid;
		for (size_t i = 0; i < col->nmaps; i++)
			if (col->maps[i].pid == m->pid)
				symbolizer_add_map(*sy, col->maps[i].start,
						   col->maps[i].end - col->maps[i].start,
						   col->maps[i].pgoff, s->paths[col->maps[i].path],
						   NULL);
	}
	if (symbolizer_lookup(*sy, h->ip, f, 8) < 1)
		return bucket(c, &s->unknown_metric, "[unknown]");
	site_put(s, m->path, off, function_metric(c, &f[0]));
	return site_find(s, m->path, off)->metric;
}

static void attribute(struct campaign *c, struct profile_state *s, struct collect *col,
		      size_t run_index)
{
	struct symbolizer *sy = NULL;
	uint32_t sy_pid = 0;
	double *acc = NULL;
	size_t nacc = 0;

	for (size_t i = 0; i < col->nhits; i++) {
		size_t m = function_at(c, s, col, &sy, &sy_pid, &col->hits[i]);

		if (m >= nacc) {
			size_t n = c->res.nmetrics + 16;

			acc = xrealloc(acc, n * sizeof(double));
			memset(acc + nacc, 0, (n - nacc) * sizeof(double));
			nacc = n;
		}
		acc[m] += (double)col->hits[i].period;
	}
	for (size_t m = 0; m < nacc; m++)
		if (acc[m] > 0)
			campaign_set_value(c, run_index, m, acc[m]);
	campaign_set_value(c, run_index, s->samples_metric, (double)col->nhits);
	if (sy) {
		note_gaps(c, s, sy);
		symbolizer_free(sy);
	}
	free(acc);
}

/* ---- the mechanism ------------------------------------------------------ */

static int profile_plan(struct campaign *c, void **state, struct error *err)
{
	struct profile_state *s;
	struct sample_opts so = { SAMPLE_CYCLES, 0, 0, PROFILE_PAGES };
	int hw;

	if (!(c->o->profile & PROFILE_TIME))
		return 0;
	so.freq = c->o->profile_hz ? c->o->profile_hz : PROFILE_DEFAULT_HZ;
	so.exclude_kernel = c->res.kernel_excluded;
	hw = sample_probe(&so, NULL) == 0;
	if (!hw) {
		so.event = SAMPLE_CPU_CLOCK;
		if (sample_probe(&so, err))
			return -1;
	}
	s = xcalloc(1, sizeof(*s));
	s->so = so;
	s->kernel_metric = s->unknown_metric = (size_t)-1;
	result_add_metric(&c->res, PROFILE_SAMPLES, "", MSRC_PROFILE)->hidden = 1;
	s->samples_metric = c->res.nmetrics - 1;
	result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
			"profile: every run sampled on %s at %u Hz%s; self time per function "
			"is %s, attributed to the innermost (possibly inlined) function",
			hw ? "cycles" : "cpu-clock", so.freq,
			hw ? "" : " (this host counts no cycles: a software timer, which works "
				  "without a PMU)",
			hw ? "in cycles" : "CPU time in ns");
	*state = s;
	return 0;
}

static int attach(void *ctx, pid_t pid, struct error *err)
{
	struct profile_run *r = ctx;

	if (sample_open(&r->set, pid, &r->s->so, err))
		return -1;
	r->open = 1;
	return 0;
}

static int profile_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
			 struct error *err)
{
	struct profile_run *r = run;

	(void)c;
	(void)err;
	r->s = state;
	run_setup_attach(rs, attach, r);
	return 0;
}

static void profile_end(struct campaign *c, void *state, void *run,
			const struct measure_outcome *out, size_t run_index)
{
	struct profile_state *s = state;
	struct profile_run *r = run;
	struct collect col = { s };
	struct error err;

	(void)out;
	if (!r->open || c->res.runs[run_index].status == RUN_EXEC_FAILED)
		return;
	error_clear(&err);
	if (sample_read(&r->set, on_record, &col, &err))
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL, "profile: %s", err.msg);
	attribute(c, s, &col, run_index);
	if (col.lost) {
		s->lost += col.lost;
		if (s->lost_runs++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, "lower --profile-rate",
					"profile: the kernel dropped samples of some runs (buffer "
					"full); their self times are low");
	}
	free(col.maps);
	free(col.hits);
	free(col.forks);
}

static void profile_run_release(void *state, void *run)
{
	struct profile_run *r = run;

	(void)state;
	if (r->open)
		sample_close(&r->set);
}

static void profile_release(void *state)
{
	struct profile_state *s = state;

	for (size_t i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	for (size_t i = 0; i < s->ngaps; i++)
		free(s->gaps[i]);
	free(s->paths);
	free(s->gaps);
	free(s->sites);
	free(s);
}

const struct mechanism_ops mech_profile = {
	.name = "profile",
	.runs = MECH_NATIVE,
	.run_size = sizeof(struct profile_run),
	.plan = profile_plan,
	.begin = profile_begin,
	.end = profile_end,
	.run_release = profile_run_release,
	.release = profile_release,
};
