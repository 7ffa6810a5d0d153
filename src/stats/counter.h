/*
 * Counter arithmetic (STATS.md (f)). A perf counter reports value,
 * time_enabled and time_running; if the kernel multiplexed it, the value
 * covers only part of the run and perf's usual answer is to extrapolate.
 * pmustat schedules one fully-fitting group per run instead, so scaling is
 * only a fallback and a multiplexed run is always flagged. Derived ratios
 * come in two kinds with different uncertainty: events counted in the same
 * run (IPC) and events from different groups, hence different runs.
 */
#ifndef PMU_STATS_COUNTER_H
#define PMU_STATS_COUNTER_H

#include <stddef.h>
#include <stdint.h>

struct error;

enum stats_count_state {
	STATS_COUNT_EXACT,	/* running >= enabled: counted the whole time */
	STATS_COUNT_MULTIPLEXED,	/* 0 < running < enabled: scaled estimate */
	STATS_COUNT_MISSING,	/* running == 0: never scheduled, no value */
};

/*
 * Classify a reading and give its value scaled to the enabled time,
 * value * enabled / running (T7: (1000, 400, 100) -> 4000, multiplexed).
 * *scaled is the raw value when exact, NaN when missing.
 */
enum stats_count_state stats_counter_scale(uint64_t value, uint64_t enabled,
					   uint64_t running, double *scaled);

/*
 * A ratio of two metrics with a symmetric delta-method interval
 * r -+ t(1 - (1-level)/2, df) se. Invariant: NaN fields mean "undefined for
 * these data" (too few runs, zero denominator mean).
 */
struct stats_ratio {
	size_t n_y, n_x;
	double level;
	double r, se, df;
	double ci_lo, ci_hi;
};

/*
 * Ratio of means of events from different groups (independent runs):
 * R = mean(y) / mean(x), se = R sqrt(cY + cX) with cX = var(x) / (n_x
 * mean(x)^2) (first-order delta method), Welch-Satterthwaite
 * df = (cY + cX)^2 / (cY^2/(n_y-1) + cX^2/(n_x-1)). Needs n_y, n_x >= 2 for
 * se; r needs n >= 1 each. Returns 0 (kept int so callers treat every stats
 * entry point alike; it cannot fail).
 */
int stats_ratio_cross(const double *y, size_t n_y, const double *x, size_t n_x,
		      double level, struct stats_ratio *out, struct error *err);

/*
 * Ratio of events counted in the same runs (y[i], x[i] from run i), the
 * classical ratio estimator R = sum y / sum x with
 * se^2 = sum (y_i - R x_i)^2 / ((n - 1) n mean(x)^2)
 * (Cochran, Sampling Techniques, 3rd ed., 1977, eq. 6.9 without the finite
 * population correction), df = n - 1. Uses the pairing, so it is tighter
 * than the cross-group formula when y and x move together. Needs n >= 2 for
 * se. Returns 0.
 */
int stats_ratio_same(const double *y, const double *x, size_t n, double level,
		     struct stats_ratio *out, struct error *err);

#endif
