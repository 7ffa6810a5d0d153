/*
 * What a profile's call chains can vouch for. A chain the unwinder could
 * not follow to the program's entry (a frame beyond the stack copy, code
 * without call-frame information) is cut short: a function above the cut
 * is missing from that sample, and its inclusive time is low by that
 * sample. Which samples could be missing a function f is bounded from the
 * stacks themselves (the result's stack: metrics): a cut chain that holds
 * some function seen elsewhere as a caller of f cannot have f above the
 * cut (short of recursion through it), so only the cut chains holding
 * neither f nor any of its callers count. Pure: result in, numbers out.
 */
#ifndef PMU_ANALYSIS_CHAINS_H
#define PMU_ANALYSIS_CHAINS_H

#include <stddef.h>

#include "result/result.h"

/* Is key a function every complete chain starts at (_start, a thread's
 * start, ...)? */
int profile_is_root(const char *key);

struct chain_info;

/* The stacks of r, or NULL when it has none. */
struct chain_info *chains_build(const struct result *r);
void chains_free(struct chain_info *ci);

/* The weights of the cut chains over runs[0..n) (mean ns per run), for
 * chains_missing; malloc'd, NULL when ci is. */
double *chains_weights(const struct chain_info *ci, const struct result *r, const size_t *runs,
		       size_t n);

/* The most inclusive time (ns, mean per run over the runs weights were
 * taken over) the function key could be missing because chains were cut
 * short. Constant time per cut chain covering key. */
double chains_missing(const struct chain_info *ci, const double *weights, const char *key);

/* The work chains_build did (frames visited): linear in the frames of the
 * stacks for one deep stack, for the tests to hold it to that. */
size_t chains_work(const struct chain_info *ci);

#endif
