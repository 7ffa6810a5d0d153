/*
 * busy N: a CPU loop whose work is proportional to N (N x 64 dependent
 * multiply-adds), for comparison tests: `busy 1100000` does 10% more work
 * than `busy 1000000`. Prints the result so the loop cannot be optimised away.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	volatile uint64_t sink;
	uint64_t x = 88172645463325252ull;

	if (n <= 0) {
		fputs("usage: busy N\n", stderr);
		return 2;
	}
	for (long i = 0; i < n; i++)
		for (int k = 0; k < 64; k++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
