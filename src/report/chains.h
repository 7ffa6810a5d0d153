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
#ifndef PMU_REPORT_CHAINS_H
#define PMU_REPORT_CHAINS_H

#include <stddef.h>

#include "report/result.h"

/* Is key a function every complete chain starts at (_start, a thread's
 * start, ...)? */
int profile_is_root(const char *key);

struct chain_info;

/* The stacks of r, or NULL when it has none. */
struct chain_info *chains_build(const struct result *r);
void chains_free(struct chain_info *ci);

/* The most inclusive time (ns, mean per run over runs[0..n)) the function
 * key could be missing because chains were cut short. */
double chains_missing(const struct chain_info *ci, const struct result *r, const char *key,
		      const size_t *runs, size_t n);

#endif
