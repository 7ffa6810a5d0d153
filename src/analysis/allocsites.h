/*
 * Allocations by call site (`--profile=allocs`): per variant, the call
 * stacks of allocating calls with their calls, bytes and temporaries, from
 * the campaign's traced runs (untimed; see campaign/mech_allocsites.c), and
 * for compare the change of each against the baseline. The counts of a
 * deterministic program are exact, so there is no interval: the figure per
 * variant is the mean over its traced runs (a site missing from a traced
 * run had 0 there). Pure: result in, numbers out (report/profile.c renders them).
 *
 * In the result, per traced run: ALLOC_SITES (how many sites the run had:
 * valid = the run's sites were recorded) and, per site KEY (the function
 * keys of its innermost frames, innermost first, joined by '<'), hidden
 * metrics ALLOC_CALLS KEY, ALLOC_BYTES KEY and ALLOC_TEMPS KEY.
 */
#ifndef PMU_ANALYSIS_ALLOCSITES_H
#define PMU_ANALYSIS_ALLOCSITES_H

#include <jansson.h>

#include "core/strbuf.h"
#include "result/result.h"
#include "result/vocab.h"

/* At most this many sites are shown per variant. */
#define ALLOCSITES_MAX 10

struct allocsite_row {
	const char *key;	/* points into the result's metric name */
	const char *origin;	/* the innermost frame's object: file:line, or NULL */
	double a[3], b[3];	/* calls, bytes, temporaries per traced run:
				 * baseline (a) and variant (b); stat: b only */
	double rank;		/* what the rows are sorted by: |Δcalls| (stat: calls) */
};

struct allocsite_table {
	size_t variant;
	size_t runs_a, runs_b;	/* traced runs with sites */
	struct allocsite_row *row;	/* every site, by |Δcalls| (stat: calls) descending */
	size_t n;
};

/* Variant v against the baseline (v == baseline: its own sites, by calls).
 * 0 with an empty table when neither has traced runs. */
int allocsites_compute(const struct result *r, size_t v, struct allocsite_table *out);
void allocsites_release(struct allocsite_table *t);

/* As JSON (one object per variant), or NULL: sites[v] is variant v's table
 * (allocsites_compute; the baseline's is not read when comparing). */
json_t *allocsites_json(const struct result *r, const struct allocsite_table *sites);

#endif
