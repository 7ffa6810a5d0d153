/*
 * callers X Y: X units of CPU work in leaf() called from outer_x(), and Y
 * units in the same leaf() called from outer_y(), for the call-chain tests
 * of the profiler: in a comparison of `callers 5 5` with `callers 5 15`,
 * self time says only that leaf() grew (both callers run the same code);
 * inclusive time and the call stacks must say it grew under outer_y, and
 * that outer_x did not change. A unit is 100,000 rounds of 64 dependent
 * multiply-adds (about 10 ms on the project's VMs). Built as `callers`
 * (as the project's other tools: -O2, no frame pointers) and as
 * `callers-fp` (-fno-omit-frame-pointer, for --call-graph fp).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define UNIT 100000

__attribute__((noinline)) static uint64_t leaf(long units, uint64_t x)
{
	for (long i = 0; i < units * UNIT; i++)
		for (int k = 0; k < 64; k++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

/* Not tail calls: each caller works on leaf's result, so it stays a frame. */
__attribute__((noinline)) static uint64_t outer_x(long units)
{
	return leaf(units, 88172645463325252ull) * 3;
}

__attribute__((noinline)) static uint64_t outer_y(long units)
{
	return leaf(units, 2654435761ull) ^ 5;
}

int main(int argc, char **argv)
{
	long x = argc > 1 ? atol(argv[1]) : 0, y = argc > 2 ? atol(argv[2]) : 0;

	if (argc != 3 || x < 0 || y < 0) {
		fputs("usage: callers X Y\n", stderr);
		return 2;
	}
	printf("%llu\n", (unsigned long long)(outer_x(x) + outer_y(y)));
	return 0;
}
