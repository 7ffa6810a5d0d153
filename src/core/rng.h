/*
 * Seeded pseudo-random numbers for run schedules (STATS.md (c)).
 *
 * pmustat prints and stores the seed of every campaign, so the same seed must
 * give the same schedule on any machine and build: the generator is
 * splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), which is fully specified by a few lines of
 * integer arithmetic and has no platform-dependent parts. It is not a
 * cryptographic generator and does not need to be.
 */
#ifndef PMU_CORE_RNG_H
#define PMU_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Generator state. Invariant: any 64-bit value is a valid state, so a
 * struct rng set up by rng_init() never needs checking. Copying the struct
 * forks the stream (both copies then produce the same values).
 */
struct rng {
	uint64_t state;
};

/* Start the stream for seed; seed 0 is as good as any other. */
void rng_init(struct rng *r, uint64_t seed);

/*
 * Next 64 uniformly distributed bits. For seed 0 the first outputs are
 * 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f.
 */
uint64_t rng_next(struct rng *r);

/*
 * Uniform integer in [0, n) with no modulo bias (draws that fall in the
 * incomplete last copy of [0, n) are rejected and redrawn). n == 0 returns 0
 * without consuming the stream.
 */
uint64_t rng_below(struct rng *r, uint64_t n);

/* Uniform double in [0, 1), on the grid k * 2^-53 (all 53 mantissa bits). */
double rng_double(struct rng *r);

/*
 * Shuffle a[0..n) uniformly in place (Fisher-Yates, Durstenfeld's in-place
 * form): each of the n! orders is equally likely given uniform draws.
 */
void rng_shuffle_int(struct rng *r, int *a, size_t n);

#endif
