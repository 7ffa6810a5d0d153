/*
 * loopn: N iterations of a loop with one conditional branch each, for the
 * simulation tests (tests/unit/test_sim.c). Two runs whose arguments have
 * the same number of digits take the same path through startup and argument
 * parsing, so their simulated counts differ by the loop alone: exactly N
 * more conditional branches, and a fixed number of instructions per
 * iteration. The accumulator is volatile so the loop is not folded away.
 */
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	volatile long sum = 0;

	for (long i = 0; i < n; i++)
		sum += i;
	return 0;
}
