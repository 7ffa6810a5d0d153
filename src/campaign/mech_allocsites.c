/*
 * The allocation call-site mechanism (`--profile=allocs`): which call
 * stacks call malloc and friends, how often, for how many bytes, and how
 * many of those allocations are temporaries (heaptrack's: freed as the very
 * next heap event of the thread). Unwinding every allocating call costs
 * about a microsecond, which would distort a timed run of a program that
 * allocates millions of times, so the sites are taken in traced runs of
 * their own (MECH_TRACED: untimed, no other mechanism takes part), one per
 * variant by default; the counts of a deterministic program are exact, and
 * a note says when two traced runs of one variant disagree.
 *
 * The call counters' LD_PRELOAD shim records the stacks (backend
 * callcount.h, set->sites); here they are symbolized with the maps each
 * process image reported (backend/symbols.h, return address - 1, inlined
 * functions expanded), and matched across variants by the same function
 * key as the time profile (symbol_key): one site is the sequence of the
 * innermost frames' keys, innermost first, "heap_alloc_slow<bool_lc<...".
 * Per traced run and site, three hidden metrics hold the counts
 * (ALLOC_CALLS, ALLOC_BYTES, ALLOC_TEMPS + site), so `pmustat report`
 * recomputes the section from the result alone (analysis/allocsites.c).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/allocprobe.h"
#include "backend/callcount.h"
#include "backend/symbols.h"
#include "campaign/mechanism.h"
#include "core/printable.h"
#include "core/strbuf.h"
#include "host/sysfs.h"
#include "analysis/allocsites.h"
#include "host/checks.h"

#define DEFAULT_FRAMES 4

struct sites_state {
	struct callcount_set *sets;	/* per variant; mech NONE (0) = not traced */
	int *usable;			/* 1: the shim; 2: sampling uprobes (probes[v]) */
	struct allocprobe *probes;	/* per variant: static programs */
	size_t nvariants;
	unsigned frames;
	size_t marker;			/* ALLOC_SITES metric: valid in a traced run */
	/* Per variant, the first traced run's totals, to tell a second apart. */
	double (*first)[4];
	int *have_first, *disagreed;
	unsigned notes;			/* runs whose sites were left out */
	int unwinder_noted;
	char **gaps;			/* symbolization gaps already noted */
	size_t ngaps;
};

struct sites_run {
	struct callcount_run cr;
	int have_cr;
	struct allocprobe_run pr;	/* usable 2 */
	const struct allocprobe *probe;
};

/* One site of a run, by key. */
struct site_sum {
	char *key;
	char *origin;
	uint64_t calls, bytes, temps;
};

static void sites_release(void *state)
{
	struct sites_state *s = state;

	for (size_t v = 0; v < s->nvariants; v++) {
		allocprobe_release(&s->probes[v]);
		callcount_release(&s->sets[v]);
	}
	free(s->sets);
	free(s->probes);
	free(s->usable);
	free(s->first);
	free(s->have_first);
	free(s->disagreed);
	for (size_t i = 0; i < s->ngaps; i++)
		free(s->gaps[i]);
	free(s->gaps);
	free(s);
}

/* PMUSTAT_UPROBES=pmu: the uprobe PMU even where trace events could be
 * made (the tests of what it sees without them). */
static int uprobes_pmu_only(void)
{
	const char *env = getenv("PMUSTAT_UPROBES");

	return env && !strcmp(env, "pmu");
}

/*
 * A static program: sampling uprobes on its allocation functions
 * (backend/allocprobe.h). 0, or -1 with why not in err (no CAP_PERFMON...).
 */
static int plan_uprobes(struct campaign *c, struct sites_state *s, size_t v, struct error *err)
{
	struct callcount_set *cs = &s->sets[v];
	struct callcount_opts co = { CALLCOUNT_UPROBE, &c->model, NULL, NULL };

	callcount_release(cs);
	callcount_init(cs);
	if (callcount_add(cs, "allocs", err) || callcount_add(cs, "frees", err) ||
	    callcount_resolve(cs, &co, c->res.variants[v].argv[0], err) ||
	    allocprobe_init(&s->probes[v], cs, sysfs_pmu_find(&c->model, "uprobe")->type,
			    s->frames, !uprobes_pmu_only(), err))
		return -1;
	s->usable[v] = 2;
	return 0;
}

/* Resolve variant v for the shim, or for uprobes when it is static; a
 * program neither can trace (setuid, sanitized; static without
 * CAP_PERFMON) gets a note and is left out, the campaign goes on. */
static void plan_variant(struct campaign *c, struct sites_state *s, size_t v)
{
	struct callcount_set *cs = &s->sets[v];
	struct callcount_opts co = { CALLCOUNT_PRELOAD, &c->model, NULL, NULL };
	struct error err, uerr;

	error_clear(&err);
	error_clear(&uerr);
	callcount_init(cs);
	if (callcount_add(cs, "allocs", &err) ||
	    callcount_resolve(cs, &co, c->res.variants[v].argv[0], &err)) {
		int is_static = cs->is_static;

		if (is_static && !plan_uprobes(c, s, v, &uerr))
			return;
		if (is_static) {	/* both reasons */
			size_t len = strlen(err.msg);

			snprintf(err.msg + len, sizeof(err.msg) - len, "; %s", uerr.msg);
		}
		struct strbuf pv = STRBUF_INIT, of = STRBUF_INIT;

		if (c->res.nvariants > 1)
			strbuf_addf(&of, " of '%s'", printable_in(&pv, c->res.variants[v].name));
		result_add_note(&c->res, NOTE_WARNING, NULL,
				is_static ? "static programs are traced with uprobes, which need "
					    "root or CAP_SYS_ADMIN (" CHECKS_UPROBE_SETCAP "); "
					    "or build the program dynamically linked (the rest of "
					    "the campaign is measured as asked)"
					  : "call sites are traced through the LD_PRELOAD shim, which "
					    "needs a dynamically linked program without a sanitizer "
					    "and not setuid: build one so (the rest of the campaign "
					    "is measured as asked)",
				"allocation call sites%s are not traced: %s",
				of.len ? of.buf : "", err.msg);
		strbuf_release(&pv);
		strbuf_release(&of);
		return;
	}
	cs->sites = s->frames;
	s->usable[v] = 1;
}

/* Which variants are traced with uprobes, and what that lacks, once. */
static void note_uprobe_variants(struct campaign *c, struct sites_state *s)
{
	struct strbuf pv = STRBUF_INIT, of = STRBUF_INIT;
	size_t n = 0;
	const char *why = NULL;

	for (size_t v = 0; v < s->nvariants; v++) {
		if (s->usable[v] != 2)
			continue;
		strbuf_addf(&of, "%s'%s'", n++ ? ", " : "", printable_in(&pv, c->res.variants[v].name));
		if (!s->probes[v].inherit)
			why = s->probes[v].trace_why;
	}
	if (n)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"allocation call sites%s%s: statically linked, so traced with "
				"sampling uprobes on the allocation functions and free (a %d-byte "
				"copy of the user stack per allocating call, unwound with libdwfl; "
				"return probes for the pointers, put in order by time), %s%s%s",
				c->res.nvariants > 1 ? " of " : "", c->res.nvariants > 1 ? of.buf : "",
				ALLOCPROBE_STACK,
				why ? "main thread only (the probes are the uprobe PMU's, which "
				      "cannot be inherited: trace events were not made: "
				    : "every thread and process of the run (trace events made in "
				      "tracefs, inherited)",
				why ? why : "", why ? ")" : "");
	strbuf_release(&pv);
	strbuf_release(&of);
}

static int sites_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct sites_state *s;
	size_t usable = 0, shim = 0;

	if (!(c->o->profile & PROFILE_ALLOCS)) {
		if (!c->o->trace_runs && !c->o->profile_frames)
			return 0;
		error_set(err, ERR_USAGE, "%s applies to allocation call sites only",
			  c->o->trace_runs ? "--trace-runs" : "--profile-frames");
		return error_hint(err, "add --profile=allocs (or a bare --profile)");
	}
	if (c->o->dry_run) {
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "allocation call sites are traced "
				"in untimed runs of their own when the campaign runs");
		return 0;
	}
	s = xcalloc(1, sizeof(*s));
	s->nvariants = c->res.nvariants;
	s->frames = c->o->profile_frames ? c->o->profile_frames : DEFAULT_FRAMES;
	s->sets = xcalloc(s->nvariants, sizeof(*s->sets));
	s->usable = xcalloc(s->nvariants, sizeof(int));
	s->probes = xcalloc(s->nvariants, sizeof(*s->probes));
	s->first = xcalloc(s->nvariants, sizeof(*s->first));
	s->have_first = xcalloc(s->nvariants, sizeof(int));
	s->disagreed = xcalloc(s->nvariants, sizeof(int));
	for (size_t v = 0; v < s->nvariants; v++) {
		plan_variant(c, s, v);
		usable += s->usable[v] != 0;
	}
	if (!usable) {
		sites_release(s);
		return 0;
	}
	*state = s;
	result_add_metric(&c->res, ALLOC_SITES, "", MSRC_PROFILE)->hidden = 1;
	s->marker = c->res.nmetrics - 1;
	need->runs = MECH_TRACED;
	need->blocks = c->o->trace_runs ? c->o->trace_runs : 1;
	for (size_t v = 0; v < s->nvariants; v++)
		shim += s->usable[v] == 1;
	result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
			"allocation call sites: from %u traced run%s per variant, not timed and "
			"outside every statistic (%s unwinds each allocating call, "
			"%u frame%s); exact counts for a deterministic program; temporaries as "
			"heaptrack defines them (freed before the thread's next heap call)",
			need->blocks, need->blocks == 1 ? "" : "s",
			shim ? "the LD_PRELOAD shim" : "libdwfl", s->frames,
			s->frames == 1 ? "" : "s");
	note_uprobe_variants(c, s);
	return 0;
}

static int attach_probes(void *ctx, pid_t pid, struct error *err)
{
	struct sites_run *r = ctx;

	return allocprobe_attach(&r->pr, r->probe, pid, err);
}

static int sites_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
		       struct error *err)
{
	struct sites_state *s = state;
	struct sites_run *r = run;
	size_t v = (size_t)rs->slot->variant;

	(void)c;
	if (!s->usable[v])
		return 0;
	if (s->usable[v] == 2) {
		r->probe = &s->probes[v];
		run_setup_attach(rs, attach_probes, r);
		return 0;
	}
	if (callcount_run_begin(&s->sets[v], rs->envp, &r->cr, err))
		return -1;
	r->have_cr = 1;
	rs->envp = r->cr.envp;
	return 0;
}

/* ---- symbolizing one run's sites ---------------------------------------- */

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/*
 * The site's key: the function keys of its frames (the return addresses
 * the shim took, --profile-frames of them), innermost first, each expanded
 * into the functions inlined at that address, as heaptrack shows them. A
 * function next to itself is one frame: the part GCC split off a function
 * (.part, .isra) and the copy of it inlined there have one key. origin =
 * where the innermost call is.
 */
static void site_key(struct symbolizer *sym, const struct callcount_site *site,
		     struct strbuf *key, struct strbuf *origin)
{
	const char *prev = NULL;

	for (unsigned i = 0; i < site->nframes; i++) {
		struct sym_frame f[16];
		/* A return address: the call is the instruction before it. */
		int n = symbolizer_lookup(sym, site->frames[i] - 1, f, 16);

		for (int k = 0; k < n; k++) {
			if (prev && !strcmp(prev, f[k].key))
				continue;
			strbuf_addf(key, "%s%s", prev ? "<" : "", f[k].key);
			if (!prev) {
				strbuf_addf(origin, "%s", base_name(f[k].object));
				if (f[k].file)
					strbuf_addf(origin, ": %s:%d", base_name(f[k].file),
						    f[k].line);
			}
			prev = f[k].key;
		}
	}
}

static struct site_sum *sum_find(struct site_sum **all, size_t *n, const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*all)[i].key, key))
			return &(*all)[i];
	*all = xrealloc(*all, (*n + 1) * sizeof(**all));
	memset(&(*all)[*n], 0, sizeof(**all));
	(*all)[*n].key = xstrdup(key);
	return &(*all)[(*n)++];
}

/* What the symbolizer lacked (stripped objects, ...), each once. */
static void note_gaps(struct campaign *c, struct sites_state *s, struct symbolizer *sym)
{
	for (const char *const *g = symbolizer_gaps(sym); *g; g++) {
		size_t i = 0;

		while (i < s->ngaps && strcmp(s->gaps[i], *g))
			i++;
		if (i < s->ngaps)
			continue;
		s->gaps = xrealloc(s->gaps, (s->ngaps + 1) * sizeof(char *));
		s->gaps[s->ngaps++] = xstrdup(*g);
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "allocation call sites: %s", *g);
	}
}

/* Every image's sites, symbolized and summed by key. */
static size_t sum_sites(struct campaign *c, struct sites_state *st,
			const struct callcount_sites *cs, struct site_sum **out, uint64_t *unsited,
			size_t *most)
{
	size_t n = 0;

	*out = NULL;
	*unsited = 0;
	*most = 0;
	for (size_t i = 0; i < cs->n; i++) {
		const struct callcount_image *im = &cs->img[i];
		struct symbolizer *sym = symbolizer_new();
		struct error e;

		error_clear(&e);
		symbolizer_add_maps(sym, im->maps, im->nmaps, &e);
		*unsited += im->unsited;
		if (im->nsites > *most)
			*most = im->nsites;
		for (size_t k = 0; k < im->nsites; k++) {
			struct strbuf key = STRBUF_INIT, origin = STRBUF_INIT;
			struct site_sum *t;

			site_key(sym, &im->sites[k], &key, &origin);
			t = sum_find(out, &n, key.buf);
			t->calls += im->sites[k].calls;
			t->bytes += im->sites[k].bytes;
			t->temps += im->sites[k].temps;
			if (!t->origin)
				t->origin = strbuf_detach(&origin);
			strbuf_release(&key);
			strbuf_release(&origin);
		}
		note_gaps(c, st, sym);
		symbolizer_free(sym);
	}
	return n;
}

/* The metric PREFIX KEY, created on first sight (hidden, like self:). */
static size_t site_metric(struct campaign *c, const char *prefix, const struct site_sum *t,
			  const char *unit)
{
	struct strbuf name = STRBUF_INIT;
	int i;

	strbuf_addf(&name, "%s%s", prefix, t->key);
	i = result_metric_index(&c->res, name.buf);
	if (i < 0) {
		struct result_metric *m = result_add_metric_late(&c->res, name.buf, unit,
								 MSRC_PROFILE);

		m->hidden = 1;
		m->origin = t->origin ? xstrdup(t->origin) : NULL;
		i = (int)c->res.nmetrics - 1;
	}
	strbuf_release(&name);
	return (size_t)i;
}

static void note_left_out(struct campaign *c, struct sites_state *s, const char *why)
{
	if (s->notes++ == 0)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"allocation call sites of some traced runs are left out: %s", why);
}

/* Two traced runs of one variant should agree exactly; say so if not. */
static void check_agreement(struct campaign *c, struct sites_state *s, size_t v,
			    const double tot[4])
{
	struct strbuf pv = STRBUF_INIT, of = STRBUF_INIT;

	if (!s->have_first[v]) {
		memcpy(s->first[v], tot, sizeof(s->first[v]));
		s->have_first[v] = 1;
		return;
	}
	if (!memcmp(s->first[v], tot, sizeof(s->first[v])) || s->disagreed[v]++)
		return;
	if (c->res.nvariants > 1)
		strbuf_addf(&of, " of '%s'", printable_in(&pv, c->res.variants[v].name));
	result_add_note(&c->res, NOTE_WARNING, NULL,
			"the per-site figures are means over the traced runs",
			"traced runs%s disagree: %.0f then %.0f allocating calls, %.0f then "
			"%.0f temporaries, %.0f then %.0f sites (the program's allocations are not "
			"deterministic)", of.len ? of.buf : "",
			s->first[v][0], tot[0], s->first[v][2], tot[2], s->first[v][3], tot[3]);
	strbuf_release(&pv);
	strbuf_release(&of);
}

static void record_sites(struct campaign *c, struct sites_state *s, size_t v,
			 const struct callcount_sites *cs, size_t run_index)
{
	struct site_sum *t;
	uint64_t unsited;
	size_t most;
	size_t n = sum_sites(c, s, cs, &t, &unsited, &most);
	double tot[4] = { 0, 0, 0, (double)n };

	for (size_t i = 0; i < n; i++) {
		campaign_set_value(c, run_index, site_metric(c, ALLOC_CALLS, &t[i], ""),
				   (double)t[i].calls);
		campaign_set_value(c, run_index, site_metric(c, ALLOC_BYTES, &t[i], "B"),
				   (double)t[i].bytes);
		campaign_set_value(c, run_index, site_metric(c, ALLOC_TEMPS, &t[i], ""),
				   (double)t[i].temps);
		tot[0] += (double)t[i].calls;
		tot[1] += (double)t[i].bytes;
		tot[2] += (double)t[i].temps;
		free(t[i].key);
		free(t[i].origin);
	}
	free(t);
	campaign_set_value(c, run_index, s->marker, (double)n);
	/* A call is in no site when the table is full (or its probes ran out,
	 * which needs a table well over half full), or else when it came from
	 * inside the shim's own unwinding (the unwinder allocating its caches)
	 * or had no frame outside the shim: say which the table's use shows. */
	if (unsited && most >= CC_SITE_SLOTS / 2)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"allocation call sites: %llu allocating calls of run %zu found no "
				"room in the shim's table of %u stacks (%zu in use) and are in "
				"no site", (unsigned long long)unsited, run_index + 1,
				CC_SITE_SLOTS, most);
	else if (unsited)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"allocation call sites: %llu allocating calls of run %zu are in no "
				"site: they were made while the shim unwound another call's stack "
				"(the unwinder's own allocations) or had no frame outside the shim "
				"(the table of %u stacks held %zu: it was not full)",
				(unsigned long long)unsited, run_index + 1, CC_SITE_SLOTS, most);
	check_agreement(c, s, v, tot);
}

/* Which unwinder the shim used, once: libgcc's is several times slower. */
static void note_unwinder(struct campaign *c, struct sites_state *s,
			  const struct callcount_sites *cs)
{
	int lu = 0;

	if (s->unwinder_noted || !cs->n)
		return;
	s->unwinder_noted = 1;
	for (size_t i = 0; i < cs->n; i++)
		lu |= (cs->img[i].flags & CC_FLAG_LIBUNWIND) != 0;
	if (lu)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "allocation call sites: stacks "
				"unwound by libunwind (unw_backtrace, .eh_frame with a cache per "
				"return address)");
	else
		result_add_note(&c->res, NOTE_NOTE, NULL,
				"install libunwind8 ('apt-get install libunwind8') for traced runs "
				"several times faster",
				"allocation call sites: stacks unwound by glibc's backtrace() "
				"(libgcc's unwinder, .eh_frame rules read anew for every frame)");
}

/* A uprobe-traced run: its hits unwound and summed; a run whose main thread
 * started others, or whose hits the kernel dropped, is left out. */
static void probes_end(struct campaign *c, struct sites_state *s, struct sites_run *r, size_t v,
		       size_t run_index)
{
	struct callcount_sites cs = { 0 };
	uint64_t spawns = 0, lost = 0;
	struct error err;
	char why[256];

	error_clear(&err);
	if (allocprobe_finish(&r->pr, &cs, &spawns, &lost, &err)) {
		note_left_out(c, s, err.msg);
	} else if (spawns) {
		snprintf(why, sizeof(why), "the program started threads or processes (%llu "
			 "calls), and uprobes see its main thread only",
			 (unsigned long long)spawns);
		note_left_out(c, s, why);
	} else if (lost) {
		snprintf(why, sizeof(why), "the kernel dropped %llu uprobe hits (the ring "
			 "buffer was full)", (unsigned long long)lost);
		note_left_out(c, s, why);
	} else {
		record_sites(c, s, v, &cs, run_index);
	}
	callcount_sites_release(&cs);
}

static void sites_end(struct campaign *c, void *state, void *run,
		      const struct measure_outcome *out, size_t run_index)
{
	struct sites_state *s = state;
	struct sites_run *r = run;
	size_t v = (size_t)c->res.runs[run_index].variant;
	struct callcount_values vals = { 0 };
	struct callcount_sites cs = { 0 };
	struct error err;
	char why[256];

	(void)out;
	if (r->probe) {
		if (c->res.runs[run_index].status != RUN_EXEC_FAILED)
			probes_end(c, s, r, v, run_index);
		return;
	}
	if (!r->have_cr || c->res.runs[run_index].status == RUN_EXEC_FAILED)
		return;
	error_clear(&err);
	if (callcount_run_end(&s->sets[v], &r->cr, &vals, &err) ||
	    callcount_run_sites(&r->cr, &cs, &err))
		note_left_out(c, s, err.msg);
	else if (callcount_values_incomplete(&vals, why, sizeof(why)))
		note_left_out(c, s, why);
	else
		record_sites(c, s, v, &cs, run_index);
	note_unwinder(c, s, &cs);
	callcount_sites_release(&cs);
	callcount_values_release(&vals);
}

static void sites_run_release(void *state, void *run)
{
	struct sites_run *r = run;

	(void)state;
	if (r->have_cr)
		callcount_run_release(&r->cr);
	allocprobe_run_release(&r->pr);
}

static size_t sites_options(struct campaign_opts *o, struct option *rows, size_t max)
{
	const struct option mine[] = {
		{ OPT_UINT, 0, "profile-frames", &o->profile_frames, "n", "frames per allocation call site (default 4)", 1, 8 },
		{ OPT_UINT, 0, "trace-runs", &o->trace_runs, "n", "traced (untimed) runs per variant for --profile=allocs (default 1)", 1, 100 },
	};

	return mech_option_rows(mine, sizeof(mine) / sizeof(mine[0]), rows, max);
}

const struct mechanism_ops mech_allocsites = {
	.name = "allocsites",
	.run_size = sizeof(struct sites_run),
	.plan = sites_plan,
	.options = sites_options,
	.begin = sites_begin,
	.end = sites_end,
	.run_release = sites_run_release,
	.release = sites_release,
};
