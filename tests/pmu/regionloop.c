/*
 * regionloop N1 N2: three regions around the same call of an assembly loop
 * whose cost is exact (spin.S: 2n + 1 instructions), for tests/pmu/guest.sh.
 * "empty" holds nothing: its instruction count is the cost of the markers
 * themselves (the tail of enter and the head of exit, between the two
 * counter reads). "a" and "b" call pmu_spin(N1) and pmu_spin(N2) through
 * the same instructions, so b - a = 2 (N2 - N1) exactly, whatever the
 * markers cost; and a - empty is the call itself, 2 N1 + 1 plus the
 * argument load and the branch.
 */
#include <pmustat.h>
#include <stdlib.h>

void pmu_spin(long n);

static void __attribute__((noinline)) spin_in(pmustat_region_t r, long n)
{
	pmustat_region_enter(r);
	pmu_spin(n);
	pmustat_region_exit(r);
}

int main(int argc, char **argv)
{
	long n1 = argc > 1 ? atol(argv[1]) : 1, n2 = argc > 2 ? atol(argv[2]) : 2;
	pmustat_region_t e = pmustat_region("empty");

	pmustat_region_enter(e);
	pmustat_region_exit(e);
	spin_in(pmustat_region("a"), n1);
	spin_in(pmustat_region("b"), n2);
	return 0;
}
