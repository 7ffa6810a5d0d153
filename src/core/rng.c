/*
 * splitmix64 and the few draws a schedule needs: bounded integers, doubles and
 * a shuffle. Every function is deterministic in the state alone, so a stored
 * seed reproduces a campaign's block order exactly.
 */
#include "core/rng.h"

void rng_init(struct rng *r, uint64_t seed)
{
	r->state = seed;
}

/*
 * splitmix64 (Steele, Lea & Flood 2014; constants as in Vigna's reference):
 * a Weyl sequence with the golden-ratio increment, passed through a
 * variant of the MurmurHash3 64-bit finalizer.
 */
uint64_t rng_next(struct rng *r)
{
	uint64_t z;

	r->state += UINT64_C(0x9e3779b97f4a7c15);
	z = r->state;
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * Rejection sampling: 2^64 mod n values at the bottom of the range would
 * make small results more likely, so they are redrawn. (-n) % n is
 * 2^64 mod n in unsigned arithmetic. At most half the draws are rejected,
 * usually almost none.
 */
uint64_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t threshold, x;

	if (n == 0)
		return 0;
	threshold = (0 - n) % n;
	do
		x = rng_next(r);
	while (x < threshold);
	return x % n;
}

/* The top 53 bits scaled by 2^-53: exact in a double, never reaches 1. */
double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

void rng_shuffle_int(struct rng *r, int *a, size_t n)
{
	size_t i, j;
	int tmp;

	for (i = n; i > 1; i--) {
		j = (size_t)rng_below(r, i);
		tmp = a[i - 1];
		a[i - 1] = a[j];
		a[j] = tmp;
	}
}
