/*
 * pmustat demo: the main job of `make demo`. It answers the question the
 * project was born from — does a small-vector LinearCombination beat a heap
 * vector in Groth16 constraint synthesis, and does in-place accumulation
 * beat both? — by comparing variants of the built-in R1CS workload
 * (workloads/r1cs) with `pmustat compare`, every metric the host can give,
 * then reading the verdicts back in plain words. All it adds to compare is
 * the choice of variants and sizes, and that reading.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "core/selfpath.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "report/reading.h"
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

struct demo_opts {
	const char *variants, *out;
	double max_time;
	unsigned blocks;
	uint64_t seed;
	int seeded;
	unsigned labels, sim_labels, sha_blocks;
	int no_sim, no_profile, help;
};

static int opt_seed(const struct option *opt, const char *arg, struct error *err)
{
	struct demo_opts *d = opt->cb_data;
	char *end;

	errno = 0;
	d->seed = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-')
		return error_set(err, ERR_USAGE, "--seed wants a number, got '%s'", arg);
	d->seeded = 1;
	return 0;
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

/* Everything the demo owns while its comparison runs. */
struct demo_run {
	struct compare_plan co;
	char *argv_words[COMPARE_MAX_VARIANTS][12];	/* each variant's command line */
	char *owned[COMPARE_MAX_VARIANTS * 12];
	size_t nowned;
	char sim_args[64];
	double rows;
};

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

/* The comparison the demo runs: the variants asked for, every metric the
 * host can give, a smaller simulated size. */
static int build_compare(struct demo_run *dr, const struct demo_opts *d, const char *synth,
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
	return rc;
}

/* Constraints per run: one unmeasured run of the baseline, read from its
 * output ("rows: N"); it doubles as a first warm-up of the page cache. */
static double count_rows(char *const *argv)
{
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

/* One plain line per variant, then where its profile says the time went. */
static void reading(const struct result *r, void *data)
{
	const struct demo_run *dr = data;
	struct strbuf sb = STRBUF_INIT;

	report_demo_reading(r, dr->rows, &sb);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

int cmd_demo(int argc, const char **argv)
{
	struct demo_opts d = { "vec,sv2,pool-inplace,csr", "demo-result.json", 100, 0, 0, 0,
			       2, 1, 20, 0, 0 };
	const struct option opts[] = {
		{ OPT_STRING, 0, "variants", &d.variants, "list", "workload variants, baseline first (default vec,sv2,pool-inplace,csr)" },
		{ OPT_UINT, 0, "labels", &d.labels, "n", "workload size: labels per run (default 2, about 1M constraints)", 1, 64 },
		{ OPT_UINT, 0, "sha-blocks", &d.sha_blocks, "n", "SHA-256 compressions per label (default 20)", 1, 1000 },
		{ OPT_UINT, 0, "sim-labels", &d.sim_labels, "n", "size of the simulated runs (default 1, 2 blocks)", 1, 64 },
		{ OPT_BOOL, 0, "no-sim", &d.no_sim, NULL, "no simulated counters (hardware or nothing)" },
		{ OPT_BOOL, 0, "no-profile", &d.no_profile, NULL, "no profile: neither sampled runs nor traced allocation call sites" },
		{ OPT_DOUBLE, 0, "max-time", &d.max_time, "s", "time budget, simulated runs included (default 100)", 0.001, 1e7 },
		{ OPT_UINT, 0, "blocks", &d.blocks, "n", "run exactly n blocks", 1, 1e6 },
		{ OPT_CALLBACK, 0, "seed", NULL, "n", "schedule seed", 0, 0, opt_seed, &d },
		{ OPT_STRING, 'o', "output", &d.out, "file", "where to write the JSON result (default demo-result.json)" },
		{ OPT_BOOL, 'h', "help", &d.help, NULL, "show this help" },
		{ OPT_END },
	};
	struct demo_run *dr = xcalloc(1, sizeof(*dr));
	struct error err;
	char *synth = NULL;
	int next, r;

	error_clear(&err);
	r = cli_parse(argc, argv, opts, "pmustat demo [options]", 0, &next, &d.help);
	if (r) {
		free(dr);
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	}
	synth = selfpath_find("PMUSTAT_R1CS", "r1cs-synth", X_OK);
	if (!synth) {
		error_set(&err, ERR_RUNTIME, "cannot find the demo workload 'r1cs-synth'");
		error_hint(&err, "build it with 'make', or set PMUSTAT_R1CS to its path");
		r = cli_error(&err);
	} else if (build_compare(dr, &d, synth, &err)) {
		r = cli_error(&err);
	} else {
		printf("pmustat demo: R1CS constraint synthesis (workloads/r1cs), LinearCombination "
		       "storage variants %s\n", d.variants);
		fflush(stdout);
		dr->rows = count_rows(dr->co.argv[0]);
		dr->co.command = "demo";
		compare_settle(&dr->co);
		r = compare_run(&dr->co, 0, reading, dr);
		if (r == PMU_EXIT_OK || r == PMU_EXIT_INTERRUPTED)
			printf("\nresult written to %s (re-render: pmustat report %s --html demo.html)\n",
			       d.out, d.out);
	}
	for (size_t i = 0; i < dr->nowned; i++)
		free(dr->owned[i]);
	free(dr);
	free(synth);
	return r;
}
