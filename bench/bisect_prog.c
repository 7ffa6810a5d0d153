/*
 * The program whose history bench/bisect.py bisects: a serial chain of
 * multiply-add-xorshift steps (no memory traffic, nothing the compiler can
 * fold), N of them, plus N * EXTRA_PERMILLE / 1000 more from the commit
 * that adds the regression. Its version string changes in every commit, so
 * that every commit builds a different binary. Usage: prog N
 */
#include <stdio.h>
#include <stdlib.h>
#include "version.h"

static unsigned long long chain(unsigned long long x, long n)
{
	for (long i = 0; i < n; i++)
		x = (x * 6364136223846793005ULL + 1442695040888963407ULL) ^ (x >> 29);
	return x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	unsigned long long x = chain(1, n);

	/* why a second pass: "validate every state" is the known culprit */
	x = chain(x, n * EXTRA_PERMILLE / 1000);
	printf("%s %llx\n", VERSION, x);
	return 0;
}
