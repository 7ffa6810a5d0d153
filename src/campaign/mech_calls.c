/*
 * The call-counter mechanism: `-e call:SYM`, `-m allocs`/`frees`. One
 * callcount_set per variant (the programs differ), all counting the same way
 * as the first variant: one metric, one mechanism. In uprobe mode the
 * variant's probes join the run's perf events (counted alone, every run);
 * in preload mode the LD_PRELOAD shim's environment and report file are set
 * up per run. The metric's backend and a note say which mechanism counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/callcount.h"
#include "backend/perf_event.h"
#include "campaign/mechanism.h"
#include "core/strbuf.h"

struct calls_state {
	struct callcount_set *sets;	/* per variant */
	struct event_spec **probes;	/* uprobe mode: per variant, its events */
	size_t *metric;			/* result metric of each call metric */
	size_t nvariants;
	int uprobe_ok;			/* uprobe mode and the probes open here */
	unsigned incomplete;		/* runs whose counts were left out */
};

struct calls_run {
	struct callcount_run cr;	/* preload: report file and environment */
	int have_cr;
	size_t base;			/* uprobe: our first event in the run's list */
};

extern const struct mechanism_ops mech_calls;

/* The call counters of -m/-e (calls_claims), comma-joined, or NULL. */
static const char *calls_wanted(const struct campaign *c)
{
	return campaign_claimed(c, &mech_calls);
}

static int resolve_variant(struct campaign *c, struct calls_state *s, size_t v,
			   enum callcount_mech force, struct error *err)
{
	struct callcount_set *cs = &s->sets[v];
	struct callcount_opts co = { force, &c->model, NULL, NULL };
	char *copy = xstrdup(calls_wanted(c)), *save = NULL;
	int rc = 0;

	callcount_init(cs);
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
		rc = callcount_add(cs, t, err);
	free(copy);
	if (!rc)
		rc = callcount_resolve(cs, &co, c->res.variants[v].argv[0], err);
	if (rc && c->res.nvariants > 1)
		error_prefix(err, "variant '%s'", c->res.variants[v].name);
	return rc;
}

static void add_metrics(struct campaign *c, struct calls_state *s)
{
	struct callcount_set *cs = &s->sets[0];

	s->metric = xcalloc(cs->nmetrics + 1, sizeof(size_t));
	for (size_t m = 0; m < cs->nmetrics; m++) {
		struct result_metric *rm = result_add_metric(&c->res, cs->metrics[m].name, "calls",
							     MSRC_CALLS);
		char *desc = callcount_describe(cs, m);

		free(rm->backend);
		rm->backend = xstrdup(callcount_mech_name(cs->mech));
		rm->proxy = desc;	/* what exactly is counted, for JSON */
		result_add_note(&c->res, NOTE_NOTE, rm->name, NULL, "%s: %s", rm->name, desc);
		s->metric[m] = c->res.nmetrics - 1;
	}
	if (cs->mech_reason)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "call counters: %s",
				cs->mech_reason);
}

/* uprobe mode: the variants' probe events, probed once here so a refusal
 * (no uprobe PMU, permissions) is known before any run. */
static void plan_probes(struct campaign *c, struct calls_state *s)
{
	struct error why;

	s->probes = xcalloc(s->nvariants, sizeof(*s->probes));
	for (size_t v = 0; v < s->nvariants; v++) {
		struct callcount_set *cs = &s->sets[v];

		s->probes[v] = xcalloc(cs->nprobes + 1, sizeof(struct event_spec));
		for (size_t i = 0; i < cs->nprobes; i++)
			callcount_event_copy(cs, i, &s->probes[v][i]);
	}
	s->uprobe_ok = 1;
	error_clear(&why);
	for (size_t i = 0; i < s->sets[0].nprobes && s->uprobe_ok; i++)
		if (perf_probe(&s->probes[0][i], &c->res.host, &why)) {
			s->uprobe_ok = 0;
			for (size_t m = 0; m < s->sets[0].nmetrics; m++)
				campaign_mark_unavailable(&c->res.metrics[s->metric[m]], why.msg,
							  why.hint);
		}
}

static void calls_release(void *state)
{
	struct calls_state *s = state;

	for (size_t v = 0; v < s->nvariants; v++) {
		for (size_t i = 0; s->probes && i < s->sets[v].nprobes; i++)
			event_spec_release(&s->probes[v][i]);
		if (s->probes)
			free(s->probes[v]);
		callcount_release(&s->sets[v]);
	}
	free(s->sets);
	free(s->probes);
	free(s->metric);
	free(s);
}

/* The shim and uprobes run code in the program at every call: the counts
 * come from instrumented runs of their own, never from the timed ones. Exact
 * counts need few of them, unless a verdict is taken on them (the primary
 * metric): then one per timed block, paired. */
static void calls_needs(struct campaign *c, const struct calls_state *s,
			struct mech_needs *need)
{
	const struct callcount_set *cs = &s->sets[0];

	need->runs = MECH_INSTRUMENTED;
	need->perturbs = 1;
	need->exact = 1;
	for (size_t m = 0; m < cs->nmetrics; m++)
		if (c->res.primary && !strcmp(c->res.primary, cs->metrics[m].name))
			need->exact = 0;
	snprintf(need->what, sizeof(need->what), "counting calls (%s) %s", calls_wanted(c),
		 cs->mech == CALLCOUNT_PRELOAD ? "through the LD_PRELOAD shim" : "with uprobes");
}

static int calls_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct calls_state *s;
	enum callcount_mech mech;

	if (callcount_mech_parse(c->o->calls ? c->o->calls : "auto", &mech, err))
		return -1;
	if (!calls_wanted(c))
		return 0;
	if (c->o->dry_run) {
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "call counters (%s) are resolved "
				"against the program when it runs", calls_wanted(c));
		return 0;
	}
	s = xcalloc(1, sizeof(*s));
	*state = s;
	s->nvariants = c->res.nvariants;
	s->sets = xcalloc(s->nvariants, sizeof(*s->sets));
	for (size_t v = 0; v < s->nvariants; v++) {
		enum callcount_mech force = v ? s->sets[0].mech : mech;

		if (resolve_variant(c, s, v, force, err)) {
			s->nvariants = v + 1;
			return -1;
		}
	}
	add_metrics(c, s);
	if (s->sets[0].mech == CALLCOUNT_UPROBE)
		plan_probes(c, s);
	calls_needs(c, s, need);
	return 0;
}

static int calls_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
		       struct error *err)
{
	struct calls_state *s = state;
	struct calls_run *r = run;
	size_t v = (size_t)rs->slot->variant;

	(void)c;
	if (s->sets[v].mech == CALLCOUNT_PRELOAD) {
		if (callcount_run_begin(&s->sets[v], rs->envp, &r->cr, err))
			return -1;
		r->have_cr = 1;
		rs->envp = r->cr.envp;
		return 0;
	}
	r->base = rs->nevents;
	/* uprobes are counted alone, every run, after the other counters. */
	for (size_t i = 0; s->uprobe_ok && i < s->sets[v].nprobes; i++)
		run_setup_add_event(rs, &s->probes[v][i], rs->nevents, (size_t)-1, 0);
	return 0;
}

static void note_incomplete(struct campaign *c, struct calls_state *s, const char *why)
{
	if (s->incomplete++ == 0)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"call counts of some runs are left out: %s", why);
}

/* From the probes' readings (uprobe) or from the shim's report (preload). */
static int read_counts(struct calls_state *s, struct calls_run *r, size_t v,
		       const struct measure_outcome *out, struct callcount_values *vals,
		       struct error *err)
{
	const struct callcount_set *cs = &s->sets[v];
	uint64_t *raw;
	int rc;

	if (cs->mech == CALLCOUNT_PRELOAD)
		return callcount_run_end(cs, &r->cr, vals, err);
	if (!s->uprobe_ok)
		return error_set(err, ERR_RUNTIME, "the uprobes could not be opened");
	raw = xcalloc(cs->nprobes + 1, sizeof(uint64_t));
	for (size_t i = 0; i < cs->nprobes; i++)
		raw[i] = out->readings[r->base + i].value;
	rc = callcount_uprobe_values(cs, raw, out->read_ok + r->base, vals, err);
	free(raw);
	return rc;
}

static void calls_end(struct campaign *c, void *state, void *run,
		      const struct measure_outcome *out, size_t run_index)
{
	struct calls_state *s = state;
	size_t v = (size_t)c->res.runs[run_index].variant;
	struct callcount_values vals = { 0 };
	struct error err;
	char why[256];

	if (c->res.runs[run_index].status == RUN_EXEC_FAILED)
		return;
	if (s->sets[v].mech == CALLCOUNT_UPROBE && !s->uprobe_ok)
		return;		/* unavailable: the metric says why */
	error_clear(&err);
	if (read_counts(s, run, v, out, &vals, &err))
		note_incomplete(c, s, err.msg);
	else if (callcount_values_incomplete(&vals, why, sizeof(why)))
		note_incomplete(c, s, why);
	else
		for (size_t m = 0; m < s->sets[v].nmetrics; m++)
			campaign_set_value(c, run_index, s->metric[m], vals.value[m]);
	callcount_values_release(&vals);
}

static void calls_run_release(void *state, void *run)
{
	struct calls_run *r = run;

	(void)state;
	if (r->have_cr)
		callcount_run_release(&r->cr);
}

static size_t calls_options(struct campaign_opts *o, struct option *rows, size_t max)
{
	const struct option mine[] = {
		{ OPT_STRING, 0, "calls", &o->calls, "mech", "call counters by auto (default), uprobe or preload (both run code in the program at every call: counted in runs of their own)" },
	};

	return mech_option_rows(mine, sizeof(mine) / sizeof(mine[0]), rows, max);
}

/* The shim and the uprobes are set up per spawned run. */
static const char *calls_attach_refusal(const struct campaign *c)
{
	return calls_wanted(c) ? "call counters" : NULL;
}

/* call:SYMBOL and the presets (allocs, ...), in -m or -e. */
static int calls_claims(const char *item)
{
	return callcount_is_call(item);
}

const struct mechanism_ops mech_calls = {
	.name = "calls",
	.run_size = sizeof(struct calls_run),
	.plan = calls_plan,
	.claims = calls_claims,
	.options = calls_options,
	.attach_refusal = calls_attach_refusal,
	.begin = calls_begin,
	.end = calls_end,
	.run_release = calls_run_release,
	.release = calls_release,
};
