/*
 * The demo's plan: the comparison `pmustat demo` runs (cli/demo.c parses and
 * renders). It answers the question the project was born from — does a
 * small-vector LinearCombination beat a heap vector in Groth16 constraint
 * synthesis, and does in-place accumulation beat both? — with variants of
 * the built-in R1CS workload (workloads/r1cs), every metric the host can
 * give, and a smaller size for the simulated runs. Its one unmeasured run of
 * the baseline says how many constraints a run synthesizes, for the reading.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/demo_plan.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "run/capture.h"

/* A named variant of the workload: storage x gadget style. */
struct demo_variant {
	const char *name, *storage, *style;
};

static const struct demo_variant variants[] = {
	{ "vec", "vec", "upstream" },		{ "vec-inplace", "vec", "inplace" },
	{ "pool", "pool", "upstream" },		{ "pool-inplace", "pool", "inplace" },
	{ "sv1", "sv1", "upstream" },		{ "sv1-inplace", "sv1", "inplace" },
	{ "sv2", "sv2", "upstream" },		{ "sv2-inplace", "sv2", "inplace" },
	{ "sv4", "sv4", "upstream" },		{ "sv4-inplace", "sv4", "inplace" },
	{ "csr", "csr", "inplace" },		{ "csr-upstream", "csr", "upstream" },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

void demo_defaults(struct demo_opts *d)
{
	*d = (struct demo_opts){ .variants = "vec,sv2,pool-inplace,csr", .out = "demo-result.json",
				 .max_time = 100, .labels = 2, .sim_labels = 1, .sha_blocks = 20 };
}

static const struct demo_variant *find_variant(const char *name, struct error *err)
{
	const char *names[NVARIANTS];

	for (size_t i = 0; i < NVARIANTS; i++) {
		if (!strcmp(variants[i].name, name))
			return &variants[i];
		names[i] = variants[i].name;
	}
	error_set(err, ERR_USAGE, "unknown demo variant '%s'", name);
	if (suggest_best(name, names, NVARIANTS))
		error_hint(err, "did you mean '%s'? (variants: storage vec, pool, sv1, sv2, sv4 "
			   "or csr, with -inplace for the in-place gadgets)",
			   suggest_best(name, names, NVARIANTS));
	else
		error_hint(err, "variants: storage vec, pool, sv1, sv2, sv4 or csr, with "
				"-inplace for the in-place gadgets (csr is in-place; csr-upstream)");
	return NULL;
}

static char *keep(struct demo_run *dr, char *s)
{
	dr->owned[dr->nowned++] = s;
	return s;
}

static char *num(struct demo_run *dr, unsigned n)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%u", n);
	return keep(dr, strbuf_detach(&sb));
}

/* One variant of the workload: its command line, without a shell. */
static void add_variant(struct demo_run *dr, const struct demo_opts *d, const char *synth,
			const struct demo_variant *v)
{
	char **a = dr->argv_words[dr->co.nvariants];

	a[0] = (char *)synth;
	a[1] = "--storage";
	a[2] = (char *)v->storage;
	a[3] = "--style";
	a[4] = (char *)v->style;
	a[5] = "--labels";
	a[6] = num(dr, d->labels);
	a[7] = "--blocks";
	a[8] = num(dr, d->sha_blocks);
	a[9] = NULL;
	dr->co.names[dr->co.nvariants] = v->name;
	dr->co.argv[dr->co.nvariants++] = a;
}

int demo_plan(struct demo_run *dr, const struct demo_opts *d, const char *synth,
	      struct error *err)
{
	struct compare_plan *co = &dr->co;
	char *list = xstrdup(d->variants), *save = NULL;
	int rc = 0;

	compare_defaults(co);
	co->o.metrics = "wall-time,task-clock,allocs,instructions,branch-misses,llc-misses";
	co->o.max_time_s = d->max_time;
	co->max_blocks = 40;
	co->blocks = d->blocks;
	co->o.seed = d->seeded ? d->seed : compare_random_seed();
	co->o.json_path = d->out;
	co->o.profile = d->no_profile ? 0 : PROFILE_TIME | PROFILE_ALLOCS;
	if (d->no_sim) {
		co->o.backend = "hw";
	} else {
		co->o.sim_runs = 2;
		snprintf(dr->sim_args, sizeof(dr->sim_args), "--labels %u --blocks %u",
			 d->sim_labels, d->sha_blocks < 2 ? d->sha_blocks : 2);
		co->o.sim_args = dr->sim_args;
	}
	for (char *t = strtok_r(list, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		const struct demo_variant *v = find_variant(t, err);

		if (!v)
			rc = -1;
		else if (co->nvariants == COMPARE_MAX_VARIANTS)
			rc = error_set(err, ERR_USAGE, "too many demo variants (at most %d)",
				       COMPARE_MAX_VARIANTS);
		else
			add_variant(dr, d, synth, v);
	}
	free(list);
	if (!rc && co->nvariants < 2) {
		error_set(err, ERR_USAGE, "the demo needs at least two variants, got %zu",
			  co->nvariants);
		rc = error_hint(err, "e.g. --variants vec,sv2,pool-inplace,csr");
	}
	co->command = "demo";
	compare_settle(co);
	return rc;
}

/* It doubles as a first warm-up of the page cache. */
double demo_count_rows(const struct demo_run *dr)
{
	char *const *argv = dr->co.argv[0];
	struct strbuf out = STRBUF_INIT;
	struct error err;
	double rows = NAN;
	int status;

	error_clear(&err);
	if (run_capture(argv, 1 << 16, &out, &status, &err) == 0 && out.buf)
		for (char *p = out.buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, "rows: ", 6))
				rows = atof(p + 6);
	strbuf_release(&out);
	return rows;
}


void demo_run_release(struct demo_run *dr)
{
	for (size_t i = 0; i < dr->nowned; i++)
		free(dr->owned[i]);
	dr->nowned = 0;
}
