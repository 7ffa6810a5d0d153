/*
 * The demo's plan (demo_plan.c): which variants of the built-in R1CS
 * workload (workloads/r1cs) `pmustat demo` compares, at which sizes, with
 * which metrics, and the one unmeasured run of the baseline that says how
 * many constraints a run synthesizes. cli/demo.c parses its options into a
 * struct demo_opts and renders; this builds the comparison (a compare_plan).
 */
#ifndef PMU_CAMPAIGN_DEMO_PLAN_H
#define PMU_CAMPAIGN_DEMO_PLAN_H

#include <stdint.h>

#include "campaign/compare_plan.h"

/* The demo's options, as the user gave them. */
struct demo_opts {
	const char *variants, *out;	/* "vec,sv2,...", the JSON result's path */
	double max_time;
	unsigned blocks;		/* 0 = the stopping rule */
	uint64_t seed;
	int seeded;
	unsigned labels, sim_labels, sha_blocks;
	int no_sim, no_profile;
};

/* The demo's defaults: vec,sv2,pool-inplace,csr; 100 s; 2 labels of 20
 * SHA-256 blocks (1 label simulated); into demo-result.json. */
void demo_defaults(struct demo_opts *d);

/* Everything the demo owns while its comparison runs. */
struct demo_run {
	struct compare_plan co;
	char *argv_words[COMPARE_MAX_VARIANTS][12];	/* each variant's command line */
	char *owned[COMPARE_MAX_VARIANTS * 12];
	size_t nowned;
	char sim_args[64];
};

/* The comparison the demo runs with the workload at synth: the variants
 * asked for (an unknown one is a usage error with a suggestion), every
 * metric the host can give, a smaller simulated size. Settled: ready for
 * compare_run. */
int demo_plan(struct demo_run *dr, const struct demo_opts *d, const char *synth,
	      struct error *err);

/* Constraints per run: one unmeasured run of the baseline, read from its
 * output ("rows: N"); NAN when it says none. */
double demo_count_rows(const struct demo_run *dr);

void demo_run_release(struct demo_run *dr);

#endif
