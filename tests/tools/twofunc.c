/*
 * twofunc A B: A units of CPU work in work_a() and B units in work_b(), each
 * a function of its own that is never inlined, for the profile tests: in a
 * comparison of `twofunc 100 100` with `twofunc 100 300`, the difference must
 * land in work_b, and work_a must not change. A unit is 100,000 dependent
 * multiply-adds (about 10 ms on the project's 2-core VMs). Prints the result
 * so that the loops cannot be optimised away.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define UNIT 100000

__attribute__((noinline)) static uint64_t work_a(long units)
{
	uint64_t x = 88172645463325252ull;

	for (long i = 0; i < units * UNIT; i++)
		for (int k = 0; k < 64; k++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

__attribute__((noinline)) static uint64_t work_b(long units)
{
	uint64_t x = 2654435761ull;

	for (long i = 0; i < units * UNIT; i++)
		for (int k = 0; k < 64; k++)
			x = x * 2862933555777941757ull + 3037000493ull;
	return x;
}

int main(int argc, char **argv)
{
	long a = argc > 1 ? atol(argv[1]) : 0, b = argc > 2 ? atol(argv[2]) : 0;

	if (argc != 3 || a < 0 || b < 0) {
		fputs("usage: twofunc A B\n", stderr);
		return 2;
	}
	printf("%llu\n", (unsigned long long)(work_a(a) ^ work_b(b)));
	return 0;
}
