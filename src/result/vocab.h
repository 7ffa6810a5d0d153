/*
 * The result's metric-name vocabulary: the prefixes of the hidden metrics
 * that the mechanisms record (profiles, call stacks, simulated counts,
 * allocation sites, mechanism costs) and that the analysis reads back.
 * One place, so that the writers (campaign/mech_*.c) and the readers
 * (analysis/, report/) agree on the names by construction.
 */
#ifndef PMU_RESULT_VOCAB_H
#define PMU_RESULT_VOCAB_H

/* The metric of a function's self time: PROFILE_SELF "key". */
#define PROFILE_SELF "self:"
/* A function's inclusive time (samples with it anywhere on the stack). */
#define PROFILE_INCL "incl:"
/* The time of one call stack: PROFILE_STACK "root;caller;...;leaf". */
#define PROFILE_STACK "stack:"
/* Cachegrind's counts per function: PROFILE_SIM "instructions:key". */
#define PROFILE_SIM "sim:"
/* Samples per profiled run: a run has a profile when this is valid. */
#define PROFILE_SAMPLES "profile:samples"

/* Allocation sites (analysis/allocsites.h): per traced run, how many sites
 * it had, and per site KEY the calls, bytes and temporaries. */
#define ALLOC_SITES "alloc-sites"
#define ALLOC_CALLS "alloc-calls:"
#define ALLOC_BYTES "alloc-bytes:"
#define ALLOC_TEMPS "alloc-temp:"

/* The prefix of a cost metric's name: "wall-time:with-calls". */
#define COST_METRIC_PREFIX "wall-time:with-"

/* What one region entry (an enter/exit pair) costs, in ns, timed once per
 * campaign with the real library (campaign/mech_regions.c): valid on every
 * run that entered regions. No colon: no region metric ("REGION:EVENT") can
 * take its name. The entries of a run are its REGION_ENTRIES metrics. */
#define REGION_COST_METRIC "region-entry-cost"
#define REGION_ENTRIES ":entries"

#endif
