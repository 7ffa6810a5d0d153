/*
 * splitmix64 and its draws. STATS.md T9 pins the generator; the shuffle and
 * bounded-draw results for fixed seeds are pinned too (computed by an
 * independent Python transcription of the same algorithms), because a
 * stored seed must replay the same schedule in every later version.
 * Distribution checks use fixed seeds, so they are deterministic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>

#include "core/rng.h"

static void test_splitmix64_t9(void **state)
{
	struct rng r;

	(void)state;
	rng_init(&r, 0);
	assert_true(rng_next(&r) == UINT64_C(0xe220a8397b1dcdaf));
	assert_true(rng_next(&r) == UINT64_C(0x6e789e6aa1b965f4));
	assert_true(rng_next(&r) == UINT64_C(0x06c45d188009454f));
	assert_true(rng_next(&r) == UINT64_C(0xf88bb8a8724c81ec));
}

static void test_same_seed_same_stream(void **state)
{
	struct rng a, b, c;
	int i, differ = 0;

	(void)state;
	rng_init(&a, 987654321);
	rng_init(&b, 987654321);
	rng_init(&c, 987654322);
	for (i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);

		assert_true(x == rng_next(&b));
		differ += x != rng_next(&c);
	}
	assert_int_equal(differ, 1000);
}

static void test_below_bounds(void **state)
{
	static const uint64_t ns[] = { 1, 2, 3, 7, 10, 1000, UINT64_C(1) << 40 };
	struct rng r;
	size_t i;
	int k;

	(void)state;
	rng_init(&r, 7);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (k = 0; k < 2000; k++)
			assert_true(rng_below(&r, ns[i]) < ns[i]);
}

static void test_below_zero_consumes_nothing(void **state)
{
	struct rng r;

	(void)state;
	rng_init(&r, 0);
	assert_true(rng_below(&r, 0) == 0);
	assert_true(rng_next(&r) == UINT64_C(0xe220a8397b1dcdaf));
}

/*
 * n = 2^63 + 1: 2^64 mod n = 2^63 - 1, so the draws 0x6e78... and 0x06c4...
 * (both below 2^63 - 1) are rejected, and 0xf88b... - n is returned. Plain
 * modulo would have returned 0x6e789e6aa1b965f4.
 */
static void test_below_rejects_biased_draws(void **state)
{
	uint64_t n = (UINT64_C(1) << 63) + 1, x;
	struct rng r;

	(void)state;
	rng_init(&r, 0);
	(void)rng_next(&r);
	x = rng_below(&r, n);
	assert_true(x == UINT64_C(8686239339925766635));
	assert_true(x != UINT64_C(0x6e789e6aa1b965f4));
	assert_true(rng_next(&r) == UINT64_C(0x1b39896a51a8749b));
}

/* Chi-square with 5 df; 20.52 is its 0.999 quantile. */
static void test_below_uniform(void **state)
{
	unsigned count[6] = { 0 };
	double chi2 = 0.0, e = 60000.0 / 6.0;
	struct rng r;
	int i;

	(void)state;
	rng_init(&r, 42);
	for (i = 0; i < 60000; i++)
		count[rng_below(&r, 6)]++;
	for (i = 0; i < 6; i++)
		chi2 += (count[i] - e) * (count[i] - e) / e;
	assert_true(chi2 < 20.52);
}

static void test_double(void **state)
{
	struct rng r;
	double sum = 0.0, x;
	int i;

	(void)state;
	rng_init(&r, 0);
	assert_true(rng_double(&r) == 0.8833108082136426);
	for (i = 0; i < 100000; i++) {
		x = rng_double(&r);
		assert_true(x >= 0.0 && x < 1.0);
		sum += x;
	}
	/* sd of the mean is 0.29 / sqrt(1e5) ~ 0.0009 */
	assert_true(sum / 100000.0 > 0.495 && sum / 100000.0 < 0.505);
}

static void shuffle10(uint64_t seed, int *a)
{
	struct rng r;
	int i;

	for (i = 0; i < 10; i++)
		a[i] = i;
	rng_init(&r, seed);
	rng_shuffle_int(&r, a, 10);
}

static void test_shuffle_pinned(void **state)
{
	static const int want0[10] = { 6, 3, 2, 9, 8, 1, 4, 7, 0, 5 };
	static const int want12345[10] = { 8, 6, 7, 2, 1, 3, 9, 5, 0, 4 };
	int a[10];

	(void)state;
	shuffle10(0, a);
	assert_memory_equal(a, want0, sizeof(a));
	shuffle10(12345, a);
	assert_memory_equal(a, want12345, sizeof(a));
}

static void test_shuffle_is_permutation(void **state)
{
	int a[257], seen[257];
	struct rng r;
	int i;

	(void)state;
	for (i = 0; i < 257; i++)
		a[i] = i;
	rng_init(&r, 99);
	rng_shuffle_int(&r, a, 257);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 257; i++) {
		assert_true(a[i] >= 0 && a[i] < 257);
		seen[a[i]]++;
	}
	for (i = 0; i < 257; i++)
		assert_int_equal(seen[i], 1);
	rng_shuffle_int(&r, a, 0);	/* no-ops, must not touch memory */
	rng_shuffle_int(&r, a, 1);
}

/* All 3! orders equally likely: chi-square with 5 df under 20.52. */
static void test_shuffle_uniform(void **state)
{
	unsigned count[6] = { 0 };
	double chi2 = 0.0, e = 60000.0 / 6.0;
	struct rng r;
	int a[3], i;

	(void)state;
	rng_init(&r, 2024);
	for (i = 0; i < 60000; i++) {
		a[0] = 0;
		a[1] = 1;
		a[2] = 2;
		rng_shuffle_int(&r, a, 3);
		count[a[0] * 2 + (a[1] > a[2])]++;	/* first element + order of the rest */
	}
	for (i = 0; i < 6; i++)
		chi2 += (count[i] - e) * (count[i] - e) / e;
	assert_true(chi2 < 20.52);
	for (i = 0; i < 6; i++)
		assert_true(count[i] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splitmix64_t9),
		cmocka_unit_test(test_same_seed_same_stream),
		cmocka_unit_test(test_below_bounds),
		cmocka_unit_test(test_below_zero_consumes_nothing),
		cmocka_unit_test(test_below_rejects_biased_draws),
		cmocka_unit_test(test_below_uniform),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_shuffle_pinned),
		cmocka_unit_test(test_shuffle_is_permutation),
		cmocka_unit_test(test_shuffle_uniform),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
