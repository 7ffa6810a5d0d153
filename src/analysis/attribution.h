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
 * display. Pure: result in, numbers out (report/profile.c renders them).
 */
#ifndef PMU_ANALYSIS_ATTRIBUTION_H
#define PMU_ANALYSIS_ATTRIBUTION_H

#include <jansson.h>

#include "core/strbuf.h"
#include "result/result.h"
#include "result/vocab.h"

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
	double dwall;		/* mean wall-time difference of the timed runs, paired
				 * by block, ns (NaN if none) */
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
	double incl;		/* with all it calls (incl: metric; first
				 * ATTRIBUTION_MAX only), NaN without chains */
};
size_t attribution_top(const struct result *r, struct attribution_top **out, size_t *nruns,
		       double *total);
void attribution_release(struct attribution_set *s);

/*
 * `compare --profile` with simulated runs: the exact change of cachegrind's
 * counts per function (instructions, L1d and LL misses, branch misses),
 * mean over the simulated runs of each variant — a model's counts, no
 * interval needed.
 */
#define SIM_NCOUNTS 4
extern const char *const sim_count_names[SIM_NCOUNTS];	/* "instructions", ... */
/* The recording threshold of mech_sim: functions below this fraction of a
 * run's instructions are not recorded. */
#define SIM_RECORDED_FRACTION 0.001

struct sim_fn {
	const char *key;	/* points into the instructions metric's name */
	double a[SIM_NCOUNTS], b[SIM_NCOUNTS];	/* means per run: baseline, variant */
	/* 1 when no run of that side recorded the function: it ran less
	 * than 0.1% of that side's instructions (the recording threshold),
	 * so its 0 there is a bound, not a count */
	int low_a, low_b;
};

struct sim_attribution {
	size_t variant;
	struct sim_fn *f;	/* largest change of instructions first */
	size_t n;		/* 0: none (the baseline, no simulated runs) */
	double total;		/* the baseline's recorded instructions per run */
	double side[2];		/* instructions per run: baseline, variant (NaN: none) */
};

/* Variant v against the baseline (nothing for the baseline itself). */
void sim_attribution_compute(const struct result *r, size_t v, struct sim_attribution *out);
void sim_attribution_release(struct sim_attribution *s);

/* A function is shown when it holds at least this share of the profiled
 * time or of its change. */
#define ATTRIBUTION_SHOW_FRACTION 0.01

/* The function of a self:, incl: or stack: metric (after the prefix), and
 * where it was found (its self: metric's origin, else its own, else ""). */
const char *attribution_fn_name(const struct result *r, size_t m);
const char *attribution_fn_origin(const struct result *r, size_t m);

/* As JSON (an array, one object per variant), or NULL when there is none:
 * s as attribution_compute gave it; sim[v] for each variant v. */
json_t *attribution_json(const struct result *r, const struct attribution_set *s);
json_t *sim_attribution_json(const struct result *r, const struct sim_attribution *sim);

#endif
