/*
 * pmustat demo: the main job of `make demo`. It answers the question the
 * project was born from — does a small-vector LinearCombination beat a heap
 * vector in Groth16 constraint synthesis, and does in-place accumulation
 * beat both? — by comparing variants of the built-in R1CS workload
 * (workloads/r1cs) with `pmustat compare`, every metric the host can give,
 * then reading the verdicts back in plain words. All it adds to compare is
 * the choice of variants and sizes, and that reading.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/selfpath.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "report/comparison.h"
#include "report/json.h"

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
	const char *variants, *out, *max_time, *blocks, *seed;
	unsigned labels, sim_labels, sha_blocks;
	int no_sim, help;
};

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

/* The argv of `pmustat compare` that the demo runs. */
static int build_compare_argv(const struct demo_opts *d, const char *synth, struct strbuf *words,
			      struct error *err)
{
	char *list = xstrdup(d->variants), *save = NULL;
	int nv = 0, rc = 0;

	strbuf_addf(words, "-m\nwall-time,task-clock,allocs,instructions,branch-misses,llc-misses\n"
			   "--max-time\n%s\n--max-blocks\n40\n-o\n%s\n", d->max_time, d->out);
	if (d->blocks)
		strbuf_addf(words, "--blocks\n%s\n", d->blocks);
	if (d->seed)
		strbuf_addf(words, "--seed\n%s\n", d->seed);
	if (d->no_sim)
		strbuf_adds(words, "--backend\nhw\n");
	else
		strbuf_addf(words, "--sim-runs\n2\n--sim-args\n--labels %u --blocks %u\n",
			    d->sim_labels, d->sha_blocks < 2 ? d->sha_blocks : 2);
	for (char *t = strtok_r(list, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		const struct demo_variant *v = find_variant(t, err);

		if (!v) {
			rc = -1;
			break;
		}
		strbuf_addf(words, "-n\n%s\n--\n%s\n--storage\n%s\n--style\n%s\n--labels\n%u\n"
			    "--blocks\n%u\n", v->name, synth, v->storage, v->style, d->labels,
			    d->sha_blocks);
		nv++;
	}
	free(list);
	if (!rc && nv < 2) {
		error_set(err, ERR_USAGE, "the demo needs at least two variants, got %d", nv);
		rc = error_hint(err, "e.g. --variants vec,sv2,pool-inplace,csr");
	}
	return rc;
}

/* Constraints per run: one unmeasured run of the baseline, read from its
 * output ("rows: N"); it doubles as a first warm-up of the page cache. */
static double count_rows(const char *synth, const struct demo_opts *d)
{
	struct strbuf cmd = STRBUF_INIT;
	char line[256];
	double rows = NAN;
	FILE *p;

	strbuf_addf(&cmd, "'%s' --labels %u --blocks %u", synth, d->labels, d->sha_blocks);
	p = popen(cmd.buf, "r");
	strbuf_release(&cmd);
	if (!p)
		return NAN;
	while (fgets(line, sizeof(line), p))
		if (!strncmp(line, "rows: ", 6))
			rows = atof(line + 6);
	pclose(p);
	return rows;
}

static const struct comparison *find_cmp(const struct result *r, const struct comparison_set *s,
					 const char *metric, size_t v)
{
	int m = result_metric_index(r, metric);

	return m < 0 ? NULL : comparisons_find(s, (size_t)m, v);
}

static void say_change(struct strbuf *sb, const struct result *r, const struct comparison *c,
		       const char *what)
{
	double pct = 100 * (c->ratio - 1);

	if (c->method == CMP_NONE || !isfinite(c->ratio))
		return;
	strbuf_addf(sb, "; %s %+.1f%%", what, pct);
	if (c->method != CMP_EXACT && isfinite(c->ci_lo))
		strbuf_addf(sb, " [%+.1f%%, %+.1f%%]", 100 * (c->ci_lo - 1), 100 * (c->ci_hi - 1));
	strbuf_addf(sb, " (%s)", comparison_verdict_word(r, c));
}

/* One plain line per variant, then what the numbers suggest. */
static void reading(const struct result *r, double rows)
{
	struct comparison_set s;
	const char *base = r->variants[r->baseline].name;
	const struct comparison *any = NULL;

	comparisons_compute(r, &s);
	printf("\nReading (each variant against %s):\n", base);
	for (size_t v = 0; v < r->nvariants; v++) {
		const struct comparison *t = find_cmp(r, &s, "wall-time", v);
		const struct comparison *al = find_cmp(r, &s, "allocs", v);
		const struct comparison *in = find_cmp(r, &s, "instructions", v);
		const struct comparison *ll = find_cmp(r, &s, "llc-misses", v);
		struct strbuf sb = STRBUF_INIT;

		if ((int)v == r->baseline || !t)
			continue;
		any = t;
		strbuf_addf(&sb, "  %s: %s", r->variants[v].name, comparison_verdict_word(r, t));
		if (isfinite(t->ratio))
			strbuf_addf(&sb, ", wall time %+.1f%% [%+.1f%%, %+.1f%%] (n %zu)",
				    100 * (t->ratio - 1), 100 * (t->ci_lo - 1), 100 * (t->ci_hi - 1),
				    t->n);
		if (al && isfinite(rows) && rows > 0 && isfinite(al->mean_b))
			strbuf_addf(&sb, "; %.2f allocations per constraint vs %.2f",
				    al->mean_b / rows, al->mean_a / rows);
		if (in)
			say_change(&sb, r, in, "instructions");
		if (ll)
			say_change(&sb, r, ll, "llc-misses");
		puts(sb.buf);
		/* What the counters suggest, from the data alone. */
		if (al && in && al->ratio < 0.8 && in->ratio > 1.01 &&
		    t->verdict != STATS_FASTER)
			printf("    -> %.1fx fewer allocations did not buy time: %+.1f%% "
			       "instructions went into moving and branching on the larger LC\n",
			       1 / al->ratio, 100 * (in->ratio - 1));
		else if (al && al->ratio < 0.01 && t->verdict == STATS_FASTER)
			printf("    -> faster with almost no allocations: temporary objects "
			       "were the cost\n");
		else if (al && al->ratio < 0.8 && t->verdict == STATS_FASTER)
			printf("    -> faster with %.1fx fewer allocations: temporary objects "
			       "were the cost\n", 1 / al->ratio);
		strbuf_release(&sb);
	}
	if (!any)
		puts("  (no comparison of wall-time: see the notes above)");
	comparisons_release(&s);
}

int cmd_demo(int argc, const char **argv)
{
	struct demo_opts d = { "vec,sv2,pool-inplace,csr", "demo-result.json", "100", NULL,
			       NULL, 2, 1, 20, 0, 0 };
	const struct option opts[] = {
		{ OPT_STRING, 0, "variants", &d.variants, "list", "workload variants, baseline first (default vec,sv2,pool-inplace,csr)" },
		{ OPT_UINT, 0, "labels", &d.labels, "n", "workload size: labels per run (default 2, about 1M constraints)", 1, 64 },
		{ OPT_UINT, 0, "sha-blocks", &d.sha_blocks, "n", "SHA-256 compressions per label (default 20)", 1, 1000 },
		{ OPT_UINT, 0, "sim-labels", &d.sim_labels, "n", "size of the simulated runs (default 1, 2 blocks)", 1, 64 },
		{ OPT_BOOL, 0, "no-sim", &d.no_sim, NULL, "no simulated counters (hardware or nothing)" },
		{ OPT_STRING, 0, "max-time", &d.max_time, "s", "time budget of the measured runs (default 100)" },
		{ OPT_STRING, 0, "blocks", &d.blocks, "n", "run exactly n blocks" },
		{ OPT_STRING, 0, "seed", &d.seed, "n", "schedule seed" },
		{ OPT_STRING, 'o', "output", &d.out, "file", "where to write the JSON result (default demo-result.json)" },
		{ OPT_BOOL, 'h', "help", &d.help, NULL, "show this help" },
		{ OPT_END },
	};
	struct strbuf words = STRBUF_INIT;
	const char **cargv = NULL;
	struct error err;
	struct result res;
	char *synth = NULL;
	int next, r, n = 0;
	double rows;

	error_clear(&err);
	r = cli_parse(argc, argv, opts, "pmustat demo [options]", 0, &next, &d.help);
	if (r)
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	synth = selfpath_find("PMUSTAT_R1CS", "r1cs-synth", X_OK);
	if (!synth) {
		error_set(&err, ERR_RUNTIME, "cannot find the demo workload 'r1cs-synth'");
		error_hint(&err, "build it with 'make', or set PMUSTAT_R1CS to its path");
		return cli_error(&err);
	}
	if (build_compare_argv(&d, synth, &words, &err)) {
		free(synth);
		strbuf_release(&words);
		return cli_error(&err);
	}
	printf("pmustat demo: R1CS constraint synthesis (workloads/r1cs), LinearCombination "
	       "storage variants %s\n", d.variants);
	fflush(stdout);
	rows = count_rows(synth, &d);
	cargv = xcalloc(words.len + 1, sizeof(char *));
	for (char *p = words.buf, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		*nl = '\0';
		cargv[n++] = p;
	}
	r = cmd_compare(n, cargv);
	if ((r == PMU_EXIT_OK || r == PMU_EXIT_INTERRUPTED) &&
	    report_json_read(&res, d.out, &err) == 0) {
		reading(&res, rows);
		result_release(&res);
		printf("\nresult written to %s (re-render: pmustat report %s --html demo.html)\n",
		       d.out, d.out);
	}
	free(cargv);
	free(synth);
	strbuf_release(&words);
	return r;
}
