/*
 * Where a difference is: per function, the change of its self time between
 * a variant and the baseline, from the profiles of the same randomized
 * blocks (`--profile`). Per block the variant's time in the function is
 * paired with the baseline's (a profiled run without a sample in it spent
 * no sampled time there: 0), and the mean difference gets a t interval and
 * a paired t-test; Holm's procedure then controls the family of functions
 * shown for that variant. Functions are matched across variants by their
 * key (the name without compiler suffixes), so the two static `bool_lc` of
 * two storage variants are one function here, with both files kept for
 * display. Pure: result in, numbers and bytes out.
 */
#ifndef PMU_ANALYSIS_ATTRIBUTION_H
#define PMU_ANALYSIS_ATTRIBUTION_H

#include <jansson.h>

#include "core/strbuf.h"
#include "result/result.h"
#include "result/vocab.h"
#include "report/table.h"
#include "report/texttable.h"

struct attribution_fn {
	size_t metric;		/* the function's self:KEY metric */
	size_t n;		/* paired blocks */
	double mean_a, mean_b;	/* ns per run: baseline, variant */
	double delta, lo, hi;	/* ns per run, 95% interval of the mean difference */
	double p, p_holm;
	double share;		/* delta / the profiled time's change, NaN if none */
	int significant;	/* p_holm < 0.05 */
};

struct attribution {
	size_t variant;
	size_t blocks;		/* profiled complete blocks */
	double dwall;		/* mean paired wall-time difference, ns (NaN if none) */
	double total_a, total_b;	/* mean profiled time per run */
	struct attribution_fn *fn;	/* shown functions, by |delta| descending */
	size_t nfn;
	/* The same for inclusive time (incl: metrics, with call chains);
	 * functions holding all the profiled time in both are left out. */
	struct attribution_fn *incl;
	size_t nincl;
	size_t nuncertain;	/* left out: cut chains could hide > 5% of them */
};

struct attribution_set {
	struct attribution *a;	/* one per non-baseline variant with profiles */
	size_t n;
};

/* At most this many functions are shown (and tested) per variant. */
#define ATTRIBUTION_MAX 15

void attribution_compute(const struct result *r, struct attribution_set *out);

/* Is run profiled (measured, clean, not simulated, with a sample count)? */
int attribution_run_profiled(const struct result *r, const struct result_run *run);

/* The blocks in which variant v's run and the baseline's are both profiled:
 * ia[i] and ib[i] are the run indices of pair i (what the sections pair). */
struct attribution_pairs {
	size_t n;
	size_t *ia, *ib;
};
void attribution_pairs(const struct result *r, size_t v, struct attribution_pairs *p);
void attribution_pairs_release(struct attribution_pairs *p);

/* Every function's mean self time over the profiled runs, largest first
 * (what "where the time goes" shows the top of): the count, *out malloc'd,
 * *nruns the profiled runs, *total the sum of the means. */
struct attribution_top {
	size_t metric;		/* the function's self:KEY metric */
	double mean;		/* ns per run */
};
size_t attribution_top(const struct result *r, struct attribution_top **out, size_t *nruns,
		       double *total);
void attribution_release(struct attribution_set *s);

/* The table of at's functions (self time; incl: inclusive time) as the
 * terminal shows it, for the terminal and the HTML page to draw. */
void attribution_fns_table(const struct result *r, const struct attribution *at, int incl,
			   struct texttable *t);

/* The "where the difference is" section; nothing when no run was profiled. */
void report_attribution(const struct result *r, const struct table_opts *o, struct strbuf *out);

/* The table of "where the time goes" (no header row: the terminal shows
 * none; a fifth column "total ..." with call chains) and the count of
 * profiled runs it averages; 0 and no table when there is nothing. */
size_t attribution_top_table(const struct result *r, struct texttable *tt);

/* `stat --profile`: where the time goes, the functions with the most self
 * time per run (mean over the profiled runs); nothing without profiles. */
void report_profile_top(const struct result *r, const struct table_opts *o, struct strbuf *out);

/*
 * `compare --profile` with simulated runs: the exact change of cachegrind's
 * counts per function (instructions, L1d and LL misses, branch misses),
 * mean over the simulated runs of each variant — a model's counts, no
 * interval needed. Nothing without them.
 */
void report_sim_attribution(const struct result *r, const struct table_opts *o,
			    struct strbuf *out);
json_t *sim_attribution_json(const struct result *r);

/* The same as JSON (an array, one object per variant), or NULL. */
json_t *attribution_json(const struct result *r);

#endif
