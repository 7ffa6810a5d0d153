/*
 * The profile mechanism (`--profile`): where the program spends its time.
 * Sampling runs code for the program at every sample, so it samples runs of
 * its own (instrumented runs, one block of them after every timed block,
 * whose wall time measures what sampling costs), never the timed runs the
 * verdicts come from unless --profile-timed asks for it (backend/sample.h:
 * `cycles` where the host counts it, else `cpu-clock`, which works in VMs
 * without a PMU; a note says which), and after the run its samples are
 * symbolized against the mappings the kernel reported (backend/symbols.h,
 * elfutils) into self time per function: metrics "self:FUNCTION", one value
 * per run, so the raw per-block profiles live in the result like any other
 * metric and analysis/attribution.c pairs them block by block.
 *
 * With call chains (`--call-graph dwarf`, the default, or `fp`), each sample
 * also gives the calls it was in: the user stack copied with the sample is
 * unwound after the run (backend/unwind.h), or the kernel's frame-pointer
 * walk is taken as it is. Every function on the stack gets the sample's
 * time once in "incl:FUNCTION" (inclusive time), and the stack itself,
 * root first, in "stack:ROOT;...;LEAF" (the folded stacks flame graphs are
 * drawn from). A note says how many samples' chains reached the program's
 * entry (main's caller or a thread's start): the others are cut short.
 *
 * A sampled address is first turned into (object, file offset), which is
 * the same in every run whatever ASLR did; the functions found there (the
 * inline chain) are cached across runs, so only new code is symbolized.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/perf_event.h"
#include "backend/sample.h"
#include "backend/stackpipe.h"
#include "backend/symbols.h"
#include "campaign/mechanism.h"
#include "core/oomguard.h"
#include "core/strbuf.h"
#include "analysis/attribution.h"
#include "analysis/chains.h"

#define PROFILE_DEFAULT_HZ 999
#define PROFILE_PAGES 512
/* Ring buffer pages per CPU with dwarf chains (up to 64 KiB per sample,
 * drained while the run goes on): 8 MiB, doubled after a run that lost
 * samples, up to 64 MiB. */
#define PROFILE_DWARF_PAGES 2048
#define PROFILE_MAX_PAGES 16384
#define KERNEL_ADDRESS 0x8000000000000000ull
/* Frames kept per sample (addresses unwound, then functions with the
 * inlined ones). */
#define MAX_PCS 64
#define MAX_FNS 96
#define MAX_INLINE 8

/* What is known of one (object, file offset). */
struct site {
	size_t path;		/* index into paths */
	uint64_t off;
	size_t metric;		/* its self:FUNCTION metric (the innermost function) */
	size_t chain, nchain;	/* into profile_state.chains: the inline chain's
				 * self metrics, innermost first */
};

/* A call stack seen: its functions (self metrics, root first) and its
 * stack: metric. */
struct stack {
	uint64_t hash;
	size_t first, n;	/* into profile_state.stack_fns */
	size_t metric;
};

struct profile_state {
	struct sample_opts so;
	size_t samples_metric;
	char **paths;		/* interned object paths */
	size_t npaths;
	struct site *sites;	/* open addressing, nsites_alloc slots */
	size_t nsites, sites_alloc;
	size_t kernel_metric, unknown_metric;	/* "[kernel]", "[unknown]" buckets */
	size_t *chains;		/* the sites' inline chains */
	size_t nchains, chains_alloc;
	size_t *incl;		/* by self metric: its incl: metric, or -1 */
	size_t nincl;
	struct stack *stacks;	/* open addressing, stacks_alloc slots */
	size_t nstacks, stacks_alloc;
	size_t *stack_fns;
	size_t nstack_fns, stack_fns_alloc;
	uint64_t chained, complete;	/* samples with a chain; reaching a root */
	int chains_noted;
	unsigned empty_runs;	/* runs that ended before their first sample */
	size_t pending;		/* PENDING_BYTES, or what the environment says */
	char *how_note;		/* said in plan_done, once it is known runs are sampled */
	char **gaps;		/* symbolization gaps already noted */
	size_t ngaps;
	uint64_t lost;
	unsigned lost_runs;
	int oom_noted;		/* libdw's running out of memory said */
};

/* ---- a run's records ---------------------------------------------------- */

/* A sample. Its chain is in collect.words: the fp frames, or once unwound
 * (unwound set) the addresses of its dwarf stack (backend/stackpipe.h). */
struct hit {
	uint32_t pid, tid;
	uint64_t ip, period;
	size_t chain, nchain;
	int unwound;
};

struct collect {
	struct profile_state *s;
	struct hit *hits;
	size_t nhits, hits_alloc;
	uint64_t *words;
	size_t nwords, words_alloc;
	const char *memo_path;		/* the last mapping path interned, and its index */
	size_t memo_index;
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

/* The index of a mapping's path: the pipeline hands out one pointer per
 * path, so consecutive lookups in one object are a compare. */
static size_t path_index(struct collect *col, const char *path)
{
	if (path != col->memo_path) {
		col->memo_index = intern(col->s, path);
		col->memo_path = path;
	}
	return col->memo_index;
}

/* A sample read: its fp chain copied; its dwarf stack kept for the
 * pipeline to unwind (a kernel sample keeps a slot for its kernel ip). */
static void on_sample(void *ctx, struct stackpipe *p, const struct sample_rec *r)
{
	struct collect *c = ctx;
	struct hit h = { r->pid, r->tid, r->ip, r->period, 0, 0, 0 };

	if (r->nchain) {
		h.chain = c->nwords;
		h.nchain = r->nchain;
		ALLOC_GROW(c->words, c->nwords + r->nchain, c->words_alloc);
		memcpy(c->words + c->nwords, r->chain, r->nchain * sizeof(*r->chain));
		c->nwords += r->nchain;
	} else if (r->nregs && c->s->so.chain == SAMPLE_CHAIN_DWARF) {
		stackpipe_keep(p, r, c->nhits, MAX_PCS - (r->ip >= KERNEL_ADDRESS));
	}
	ALLOC_GROW(c->hits, c->nhits + 1, c->hits_alloc);
	c->hits[c->nhits++] = h;
}

/* A dwarf stack unwound: the kernel's leaf, if any, then the user's. */
static void on_stack(void *ctx, size_t cookie, uint32_t pid, const uint64_t *pcs, int n)
{
	struct collect *c = ctx;
	struct hit *h = &c->hits[cookie];
	int kernel = h->ip >= KERNEL_ADDRESS;

	(void)pid;
	ALLOC_GROW(c->words, c->nwords + (size_t)n + 1, c->words_alloc);
	h->chain = c->nwords;
	h->nchain = (size_t)(n + kernel);
	h->unwound = 1;
	if (kernel)
		c->words[c->nwords++] = h->ip;
	memcpy(c->words + c->nwords, pcs, (size_t)n * sizeof(*pcs));
	c->nwords += (size_t)n;
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

static void site_put(struct profile_state *s, const struct site *x);

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
			site_put(s, &old[i]);
	free(old);
}

static void site_put(struct profile_state *s, const struct site *x)
{
	size_t i;

	if (2 * (s->nsites + 1) > s->sites_alloc)
		site_grow(s);
	for (i = site_slot(s, x->path, x->off); s->sites[i].metric != (size_t)-1;
	     i = (i + 1) & (s->sites_alloc - 1))
		;
	s->sites[i] = *x;
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

struct gap_ctx {
	struct campaign *c;
	struct profile_state *s;
};

/* What the symbolizers lacked, each said once per campaign. */
static void note_gap(void *ctx, const char *gap)
{
	struct gap_ctx *g = ctx;
	struct profile_state *s = g->s;
	size_t k = 0;

	while (k < s->ngaps && strcmp(s->gaps[k], gap))
		k++;
	if (k < s->ngaps)
		return;
	s->gaps = xrealloc(s->gaps, (s->ngaps + 1) * sizeof(char *));
	s->gaps[s->ngaps++] = xstrdup(gap);
	result_add_note(&g->c->res, NOTE_WARNING, NULL, NULL, "profile: %s", gap);
}

/* The kernel and unknown buckets are sites of no object (path BUCKET). */
#define BUCKET ((size_t)-1)

static const struct site *bucket_site(struct campaign *c, struct profile_state *s,
				      size_t *slot, const char *what, uint64_t off)
{
	struct site *x = site_find(s, BUCKET, off), nx;

	if (x)
		return x;
	nx = (struct site){ BUCKET, off, bucket(c, slot, what), s->nchains, 1 };
	ALLOC_GROW(s->chains, s->nchains + 1, s->chains_alloc);
	s->chains[s->nchains++] = nx.metric;
	site_put(s, &nx);
	return site_find(s, BUCKET, off);
}

/* The functions at addr of pid (the site), through the cache. */
static const struct site *site_at(struct campaign *c, struct profile_state *s,
				  struct collect *col, struct stackpipe *pipe, uint32_t pid,
				  uint64_t addr)
{
	const struct sym_map *m;
	size_t path;
	struct sym_frame f[MAX_INLINE];
	struct site *x, nx;
	uint64_t off;
	int n;

	if (addr >= KERNEL_ADDRESS)
		return bucket_site(c, s, &s->kernel_metric, "[kernel]", 0);
	m = stackpipe_map(pipe, pid, addr);
	if (!m)
		return bucket_site(c, s, &s->unknown_metric, "[unknown]", 1);
	path = path_index(col, m->path);
	off = addr - m->start + m->pgoff;
	x = site_find(s, path, off);
	if (x)
		return x;
	n = symbolizer_lookup(stackpipe_symbolizer(pipe, pid), addr, f, MAX_INLINE);
	if (n < 1)
		return bucket_site(c, s, &s->unknown_metric, "[unknown]", 1);
	nx = (struct site){ path, off, 0, s->nchains, (size_t)n };
	ALLOC_GROW(s->chains, s->nchains + (size_t)n, s->chains_alloc);
	/* Unnamed code already has its one name, "[object+0x12000]", from the
	 * symbolizer (backend/symbols.c), as in every other table. */
	for (int i = 0; i < n; i++)
		s->chains[s->nchains++] = function_metric(c, &f[i]);
	nx.metric = s->chains[nx.chain];
	site_put(s, &nx);
	return site_find(s, path, off);
}

/* The addresses of hit's stack, innermost first (the sampled one first). */
static int hit_pcs(const struct profile_state *s, const struct collect *col, const struct hit *h,
		   uint64_t *pcs)
{
	size_t n;

	if (h->unwound) {
		memcpy(pcs, col->words + h->chain, h->nchain * sizeof(*pcs));
		return (int)h->nchain;
	}
	if (s->so.chain != SAMPLE_CHAIN_FP || !h->nchain) {
		pcs[0] = h->ip;
		return 1;
	}
	n = h->nchain < MAX_PCS ? h->nchain : MAX_PCS;
	for (size_t i = 0; i < n; i++)	/* return addresses: inside the call */
		pcs[i] = col->words[h->chain + i] - (i ? 1 : 0);
	if (h->ip >= KERNEL_ADDRESS) {	/* the kernel's leaf, then the user's */
		memmove(pcs + 1, pcs, (n < MAX_PCS ? n : MAX_PCS - 1) * sizeof(*pcs));
		pcs[0] = h->ip;
		n = n < MAX_PCS ? n + 1 : MAX_PCS;
	}
	return (int)n;
}

/* The incl: metric of the function whose self metric is self. */
static size_t incl_metric(struct campaign *c, struct profile_state *s, size_t self)
{
	struct strbuf name = STRBUF_INIT;
	struct result_metric *m;
	int i;

	if (self >= s->nincl) {
		size_t n = self + 64;

		s->incl = xrealloc(s->incl, n * sizeof(*s->incl));
		for (size_t k = s->nincl; k < n; k++)
			s->incl[k] = (size_t)-1;
		s->nincl = n;
	}
	if (s->incl[self] != (size_t)-1)
		return s->incl[self];
	strbuf_addf(&name, "%s%s", PROFILE_INCL, c->res.metrics[self].name + strlen(PROFILE_SELF));
	i = result_metric_index(&c->res, name.buf);
	if (i < 0) {
		m = result_add_metric_late(&c->res, name.buf, "ns", MSRC_PROFILE);
		m->hidden = 1;
		if (c->res.metrics[self].origin)
			m->origin = xstrdup(c->res.metrics[self].origin);
		i = (int)c->res.nmetrics - 1;
	}
	strbuf_release(&name);
	return s->incl[self] = (size_t)i;
}

static uint64_t hash_fns(const size_t *fn, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ fn[i]) * 0x100000001b3ull;
	return h | 1;	/* 0 marks an empty slot */
}

static void stacks_grow(struct profile_state *s)
{
	struct stack *old = s->stacks;
	size_t n = s->stacks_alloc;

	s->stacks_alloc = n ? 2 * n : 256;
	s->stacks = xcalloc(s->stacks_alloc, sizeof(*s->stacks));
	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (!old[i].hash)
			continue;
		for (k = old[i].hash & (s->stacks_alloc - 1); s->stacks[k].hash;
		     k = (k + 1) & (s->stacks_alloc - 1))
			;
		s->stacks[k] = old[i];
	}
	free(old);
}

/* The stack: metric of the functions fn[0..n) (root first), made on first
 * sight: "stack:" and the keys joined by ';' (a ';' in a key becomes ':'). */
static size_t stack_metric(struct campaign *c, struct profile_state *s, const size_t *fn, size_t n)
{
	uint64_t h = hash_fns(fn, n);
	struct strbuf name = STRBUF_INIT;
	struct result_metric *m;
	size_t k;
	int i;

	if (2 * (s->nstacks + 1) > s->stacks_alloc)
		stacks_grow(s);
	for (k = h & (s->stacks_alloc - 1); s->stacks[k].hash; k = (k + 1) & (s->stacks_alloc - 1)) {
		const struct stack *x = &s->stacks[k];

		if (x->hash == h && x->n == n &&
		    !memcmp(s->stack_fns + x->first, fn, n * sizeof(*fn)))
			return x->metric;
	}
	strbuf_adds(&name, PROFILE_STACK);
	for (size_t j = 0; j < n; j++) {
		const char *key = c->res.metrics[fn[j]].name + strlen(PROFILE_SELF);

		if (j)
			strbuf_addch(&name, ';');
		for (; *key; key++)
			strbuf_addch(&name, *key == ';' ? ':' : *key);
	}
	i = result_metric_index(&c->res, name.buf);
	if (i < 0) {
		m = result_add_metric_late(&c->res, name.buf, "ns", MSRC_PROFILE);
		m->hidden = 1;
		i = (int)c->res.nmetrics - 1;
	}
	strbuf_release(&name);
	ALLOC_GROW(s->stack_fns, s->nstack_fns + n, s->stack_fns_alloc);
	memcpy(s->stack_fns + s->nstack_fns, fn, n * sizeof(*fn));
	s->stacks[k] = (struct stack){ h, s->nstack_fns, n, (size_t)i };
	s->nstack_fns += n;
	s->nstacks++;
	return (size_t)i;
}

/* Time per metric of one run, grown as metrics are made. */
struct acc {
	double *v;
	size_t n;
};

static void acc_add(struct acc *a, size_t m, double v, size_t nmetrics)
{
	if (m >= a->n) {
		size_t n = (m >= nmetrics ? m + 1 : nmetrics) + 64;

		a->v = xrealloc(a->v, n * sizeof(double));
		memset(a->v + a->n, 0, (n - a->n) * sizeof(double));
		a->n = n;
	}
	a->v[m] += v;
}

/* The functions of one sample, root first, and what they get of its time:
 * self time to the innermost, inclusive time once to each function on the
 * stack, and the stack's own time. */
static void attribute_hit(struct campaign *c, struct profile_state *s, struct collect *col,
			  struct stackpipe *pipe, const struct hit *h, struct acc *a)
{
	uint64_t pcs[MAX_PCS];
	size_t fn[MAX_FNS], nfn = 0;
	int npcs = hit_pcs(s, col, h, pcs);
	double t = (double)h->period;

	/* Outermost address first; in each, the containing function first.
	 * A stack deeper than MAX_FNS keeps its outermost functions. */
	for (int i = npcs; i-- > 0;) {
		const struct site *x = site_at(c, s, col, pipe, h->pid, pcs[i]);

		for (size_t k = x->nchain; k-- > 0 && nfn < MAX_FNS;)
			fn[nfn++] = s->chains[x->chain + k];
	}
	acc_add(a, s->chains[site_at(c, s, col, pipe, h->pid, pcs[0])->chain], t, c->res.nmetrics);
	if (s->so.chain == SAMPLE_CHAIN_NONE)
		return;
	s->chained++;
	if (profile_is_root(c->res.metrics[fn[0]].name + strlen(PROFILE_SELF)))
		s->complete++;
	for (size_t i = 0; i < nfn; i++) {
		size_t k = 0;

		while (k < i && fn[k] != fn[i])
			k++;
		if (k == i)
			acc_add(a, incl_metric(c, s, fn[i]), t, c->res.nmetrics);
	}
	acc_add(a, stack_metric(c, s, fn, nfn), t, c->res.nmetrics);
}

static void attribute(struct campaign *c, struct profile_state *s, struct collect *col,
		      struct stackpipe *pipe, size_t run_index)
{
	struct acc a = { 0 };

	for (size_t i = 0; i < col->nhits; i++)
		attribute_hit(c, s, col, pipe, &col->hits[i], &a);
	for (size_t m = 0; m < a.n; m++)
		if (a.v[m] > 0)
			campaign_set_value(c, run_index, m, a.v[m]);
	campaign_set_value(c, run_index, s->samples_metric, (double)col->nhits);
	free(a.v);
}

/* ---- the mechanism ------------------------------------------------------ */

/* Stack copies kept before the reader unwinds them during the run: below
 * this, unwinding waits for the run's end and takes no CPU from the run.
 * PMUSTAT_PROFILE_PENDING=BYTES sets it (the tests unwind in the reader). */
#define PENDING_BYTES ((size_t)64 << 20)

static size_t pending_bytes(void)
{
	const char *env = getenv("PMUSTAT_PROFILE_PENDING");
	char *end;
	unsigned long long v;

	if (!env || !*env)
		return PENDING_BYTES;
	v = strtoull(env, &end, 10);
	return *end ? PENDING_BYTES : (size_t)v;
}

/* --call-graph MODE; dwarf falls back to none with a note where this
 * build does not know the architecture's registers. */
static int chain_mode(struct campaign *c, struct sample_opts *so, struct error *err)
{
	const char *mode = c->o->call_graph ? c->o->call_graph : "dwarf";
	size_t len = strcspn(mode, ",");

	if (!strcmp(mode, "none")) {
		so->chain = SAMPLE_CHAIN_NONE;
	} else if (!strcmp(mode, "fp")) {
		so->chain = SAMPLE_CHAIN_FP;
	} else if (len == 5 && !strncmp(mode, "dwarf", 5)) {
		/* dwarf[,BYTES], as perf record --call-graph spells it */
		char *end = NULL;
		unsigned long bytes = SAMPLE_STACK_MAX;

		if (mode[5]) {
			errno = 0;
			bytes = strtoul(mode + 6, &end, 10);
			if (errno || end == mode + 6 || *end || bytes < 8 ||
			    bytes > SAMPLE_STACK_MAX) {
				error_set(err, ERR_USAGE, "--call-graph %s: the stack size is a "
					  "number of bytes from 8 to %d", mode, SAMPLE_STACK_MAX);
				return error_hint(err, "e.g. --call-graph dwarf,16384");
			}
		}
		so->chain = SAMPLE_CHAIN_DWARF;
		so->stack_bytes = (unsigned)(bytes & ~7ul);
		so->pages = PROFILE_DWARF_PAGES;
		if (!sample_dwarf_supported()) {
			so->chain = SAMPLE_CHAIN_NONE;
			so->pages = PROFILE_PAGES;
			result_add_note(&c->res, NOTE_WARNING, NULL, "--call-graph fp",
					"profile: no call chains (dwarf unwinding knows x86-64 and "
					"arm64 only): self time per function only");
		}
	} else {
		error_set(err, ERR_USAGE, "unknown --call-graph mode '%s'", mode);
		return error_hint(err, "use dwarf (the default), dwarf,BYTES, fp or none");
	}
	return 0;
}

/* Sampling with stack copies runs code for the program at every sample: a
 * profile comes from instrumented runs of its own, one per timed block so
 * that attribution pairs block by block, unless the user accepts it inside
 * the timed runs (--profile-timed: half the runs, a note says what the
 * verdicts then carry). */
static void profile_needs(struct campaign *c, const struct sample_opts *so, int hw,
			  struct mech_needs *need)
{
	if (c->o->profile_timed) {
		need->runs = MECH_NATIVE;
		result_add_note(&c->res, NOTE_WARNING, NULL,
				"drop --profile-timed for verdicts from runs without sampling",
				"profile: sampled inside the timed runs (--profile-timed): the "
				"verdicts carry the sampling's cost, which grows with stack depth");
		return;
	}
	need->runs = MECH_INSTRUMENTED;
	need->perturbs = 1;
	snprintf(need->what, sizeof(need->what), "sampling (%s at %u Hz%s)",
		 hw ? "cycles" : "cpu-clock", so->freq,
		 so->chain == SAMPLE_CHAIN_DWARF ? ", stack copies"
		 : so->chain == SAMPLE_CHAIN_FP ? ", frame-pointer chains" : "");
}

static int profile_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct profile_state *s;
	struct sample_opts so = { SAMPLE_CYCLES, 0, SAMPLE_CHAIN_NONE, 0, PROFILE_PAGES, 0 };
	static const char *const how[] = {
		[SAMPLE_CHAIN_NONE] = "",
		[SAMPLE_CHAIN_FP] = "; call chains from the frame pointers",
		[SAMPLE_CHAIN_DWARF] = ("; call chains unwound from a copy of the user stack "
					"(up to 64 KiB per sample) with DWARF call-frame information"),
	};
	char rate[48];
	struct strbuf note = STRBUF_INIT;
	int hw;

	if (!(c->o->profile & PROFILE_TIME))
		return 0;
	if (chain_mode(c, &so, err))
		return -1;
	so.freq = c->o->profile_hz ? c->o->profile_hz : PROFILE_DEFAULT_HZ;
	so.exclude_kernel = c->res.kernel_excluded;
	so.period = c->o->profile_period;
	hw = sample_probe(&so, NULL) == 0;
	if (!hw) {
		so.event = SAMPLE_CPU_CLOCK;
		if (sample_probe(&so, err))
			return -1;
	}
	s = xcalloc(1, sizeof(*s));
	s->so = so;
	profile_needs(c, &so, hw, need);
	s->pending = pending_bytes();
	s->kernel_metric = s->unknown_metric = (size_t)-1;
	result_add_metric(&c->res, PROFILE_SAMPLES, "", MSRC_PROFILE)->hidden = 1;
	s->samples_metric = c->res.nmetrics - 1;
	if (so.period)
		snprintf(rate, sizeof(rate), "every %u %s", so.period, hw ? "cycles" : "ns");
	else
		snprintf(rate, sizeof(rate), "at %u Hz", so.freq);
	strbuf_addf(&note, "profile: %s sampled on %s %s%s; self time per function "
				"is %s, attributed to the innermost (possibly inlined) function%s",
				c->o->profile_timed ? "the timed runs"
						    : "runs of its own (one per timed block, paired)",
				hw ? "cycles" : "cpu-clock", rate,
				hw ? "" : " (this host counts no cycles: a software timer, which "
					  "works without a PMU)",
				hw ? "in cycles" : "CPU time in ns", how[so.chain]);
	s->how_note = strbuf_detach(&note);
	if (getenv("DEBUGINFOD_URLS") && *getenv("DEBUGINFOD_URLS"))
		result_add_note(&c->res, NOTE_NOTE, NULL,
				"unset DEBUGINFOD_URLS to symbolize with local files only",
				"profile: DEBUGINFOD_URLS is set: debug information missing here may be "
				"fetched from '%s' while the runs are symbolized",
				getenv("DEBUGINFOD_URLS"));
	*state = s;
	return 0;
}

/* Once the policy has decided: the profile's runs pair with the timed
 * blocks, so a campaign of simulated runs only samples nothing, and says so
 * instead of describing runs that never happen. */
static int profile_plan_done(struct campaign *c, void *state, struct mech_needs *need,
			     struct error *err)
{
	struct profile_state *s = state;

	(void)err;
	if (!c->native) {
		need->runs = 0;
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"profile: no run was sampled: the campaign has no timed blocks "
				"(simulated runs only) for the profile's runs to pair with; "
				"cachegrind's per-function counts show where the instructions go");
	} else {
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "%s", s->how_note);
	}
	return 0;
}

/* Said once: a run ended before its first sample. */
static void note_empty_run(struct campaign *c, const struct profile_state *s, size_t run_index)
{
	if (s->so.period)
		result_add_note(&c->res, NOTE_WARNING, NULL,
				"lower --profile-period or give the program more work",
				"profile: run %zu ended before its first sample (less work than one "
				"period of %u); runs without samples count as 0 in every function",
				run_index + 1, s->so.period);
	else
		result_add_note(&c->res, NOTE_WARNING, NULL,
				"raise --profile-rate (up to kernel.perf_event_max_sample_rate) or "
				"give the program more work",
				"profile: run %zu ended before its first sample (less CPU time than one "
				"period at %u Hz); runs without samples count as 0 in every function",
				run_index + 1, s->so.freq);
}

/* ---- reading during the run -------------------------------------------- */

/*
 * With dwarf chains every sample carries up to 64 KiB of stack, more than
 * a ring buffer holds for long: the pipeline's reader thread drains the
 * buffers while the run goes on (backend/stackpipe.h) and copies the
 * records out. The stacks are unwound after the run, so the unwinding
 * takes no CPU from it, unless the copies pass PENDING_BYTES: then the
 * reader unwinds what it has and drops the copies, so memory stays bounded
 * on long runs. The thread touches only the run's collect and pipeline;
 * the campaign waits for the child meanwhile and joins the thread before
 * it looks at the records.
 */
struct profile_run {
	struct profile_state *s;
	struct stackpipe pipe;
	struct collect col;
};

static int attach(void *ctx, pid_t pid, struct error *err)
{
	struct profile_run *r = ctx;

	return stackpipe_open(&r->pipe, pid, &r->s->so, err);
}

static int profile_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
			 struct error *err)
{
	struct profile_run *r = run;
	struct profile_state *s = state;
	struct stackpipe_user u = { on_sample, on_stack, &r->col, s->pending, 0,
				    s->so.chain == SAMPLE_CHAIN_DWARF };

	(void)c;
	(void)err;
	r->s = s;
	r->col.s = s;
	stackpipe_init(&r->pipe, &u);
	run_setup_attach(rs, attach, r);
	return 0;
}

/* Once, after the first run with call chains: how many reached the entry. */
static void note_chains(struct campaign *c, struct profile_state *s)
{
	double share;

	if (s->chains_noted || !s->chained)
		return;
	s->chains_noted = 1;
	share = (double)s->complete / (double)s->chained;
	if (share >= 0.9)
		return;
	result_add_note(&c->res, NOTE_WARNING, NULL,
			s->so.chain == SAMPLE_CHAIN_FP
				? "build the program with -fno-omit-frame-pointer, "
				  "or use --call-graph dwarf"
				: "a frame larger than the stack copy cuts a chain: --call-graph "
				  "fp with -fno-omit-frame-pointer; [unknown] frames: install "
				  "the objects' debug symbols",
			"profile: only %.0f%% of the first run's call chains reach the program's entry "
			"(main's caller or a thread's start); the rest are cut short, so inclusive "
			"times of outer functions are low",
			100.0 * share);
}

static void collect_release(struct collect *col)
{
	free(col->hits);
	free(col->words);
	memset(col, 0, sizeof(*col));
}

static void profile_end(struct campaign *c, void *state, void *run,
			const struct measure_outcome *out, size_t run_index)
{
	struct profile_state *s = state;
	struct profile_run *r = run;
	struct collect *col = &r->col;
	struct gap_ctx g = { c, s };

	(void)out;
	stackpipe_finish(&r->pipe);
	if (!r->pipe.open || c->res.runs[run_index].status == RUN_EXEC_FAILED)
		return;
	if (r->pipe.corrupt)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL, "profile: %s", r->pipe.corrupt);
	if (!col->nhits && !s->empty_runs++)
		note_empty_run(c, s, run_index);
	attribute(c, s, col, &r->pipe, run_index);
	stackpipe_gaps(&r->pipe, note_gap, &g);
	if (oomguard_caught() && !s->oom_noted++)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL, "profile: %s while symbolizing "
				"or unwinding run %zu: from there its samples count as '[unknown]' "
				"and their call chains are cut short; the campaign stops after this "
				"run", oomguard_caught(), run_index + 1);
	note_chains(c, s);
	if (r->pipe.lost && s->so.pages < PROFILE_MAX_PAGES)
		s->so.pages *= 2;	/* the next runs get a larger buffer */
	if (r->pipe.lost) {
		s->lost += r->pipe.lost;
		if (s->lost_runs++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, "lower --profile-rate",
					"profile: the kernel dropped samples of some runs (buffer "
					"full); their self times are low");
	}
	collect_release(col);
	stackpipe_release(&r->pipe);
}

static void profile_run_release(void *state, void *run)
{
	struct profile_run *r = run;

	(void)state;
	if (r->s)	/* begun: its pipeline was made */
		stackpipe_release(&r->pipe);
	collect_release(&r->col);
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
	free(s->how_note);
	free(s->sites);
	free(s->chains);
	free(s->incl);
	free(s->stacks);
	free(s->stack_fns);
	free(s);
}

/* --profile[=MODES]: a comma list of time and allocs; bare = both. */
static int profile_modes(const struct option *opt, const char *arg, struct error *err)
{
	static const struct { const char *name; int bit; } modes[] = {
		{ "time", PROFILE_TIME }, { "allocs", PROFILE_ALLOCS } };
	int *out = opt->value, bits = 0;
	const char *p = arg;

	if (!arg) {
		*out = PROFILE_TIME | PROFILE_ALLOCS;
		return 0;
	}
	while (1) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < sizeof(modes) / sizeof(modes[0]); k++)
			if (strlen(modes[k].name) == len && !strncmp(modes[k].name, p, len))
				break;
		if (k == sizeof(modes) / sizeof(modes[0])) {
			error_set(err, ERR_USAGE, "unknown --profile mode '%.*s'", (int)len, p);
			return error_hint(err, "the modes are time and allocs, e.g. "
					  "'--profile=time,allocs' (bare --profile: both)");
		}
		bits |= modes[k].bit;
		if (!p[len])
			break;
		p += len + 1;
	}
	*out = bits;
	return 0;
}

static size_t profile_options(struct campaign_opts *o, struct option *rows, size_t max)
{
	const struct option mine[] = {
		{ OPT_CALLBACK, 0, "profile", &o->profile, "[=modes]", "time: sample runs of its own (one per timed block, never the timed runs), where the time goes per function; allocs: allocation call sites, in untimed traced runs (default both; compare: where the difference is)", .callback = profile_modes, .optional_arg = 1 },
		{ OPT_UINT, 0, "profile-rate", &o->profile_hz, "hz", "samples per second of CPU time (default 999)", 1, 1e6 },
		{ OPT_UINT, 0, "profile-period", &o->profile_period, "n", "a sample every n cycles (or ns of cpu-clock) instead of a rate: the number of samples then follows the work, not time", 1, 4e9 },
		{ OPT_BOOL, 0, "profile-timed", &o->profile_timed, NULL, "sample inside the timed runs (half the runs; the verdicts then carry the sampling's cost)" },
		{ OPT_STRING, 0, "call-graph", &o->call_graph, "mode", "--profile's call chains: dwarf[,BYTES] (default), fp or none" },
	};

	return mech_option_rows(mine, sizeof(mine) / sizeof(mine[0]), rows, max);
}

/* Sampling and tracing run with a child of their own per run. */
static const char *profile_attach_refusal(const struct campaign *c)
{
	return c->o->profile ? "--profile" : NULL;
}

const struct mechanism_ops mech_profile = {
	.name = "profile",
	.run_size = sizeof(struct profile_run),
	.plan = profile_plan,
	.plan_done = profile_plan_done,
	.options = profile_options,
	.attach_refusal = profile_attach_refusal,
	.begin = profile_begin,
	.end = profile_end,
	.run_release = profile_run_release,
	.release = profile_release,
};
