/*
 * pmustat-regioncost: what one region entry costs, timed with the real
 * library. pmustat runs it once per campaign whose program uses region
 * markers (campaign/mech_regions.c), with the same hand-off as the timed
 * runs, so the library counts the same events by the same path (rdpmc or
 * read()) as inside the measured program. It enters and leaves one region
 * by name (pmustat_region_begin/end, the costlier form: a name lookup on
 * top of the handle form's work) N times per round, for ROUNDS rounds, and
 * prints the median CPU time of one begin/end pair in ns (the thread's,
 * user and system: the read() of the counters is the most of it), and
 * whether the library was on. CPU time, not wall time, so that other
 * processes on a busy host do not count; time, not instructions, so that
 * it works on hosts without a hardware PMU.
 *
 *   pmustat-regioncost [N [ROUNDS]]     (defaults 4000 and 5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pmustat.h"

#define MAX_ROUNDS 99

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double round_ns(long n)
{
	double t = now_ns();

	for (long i = 0; i < n; i++) {
		pmustat_region_begin("pmustat-regioncost");
		pmustat_region_end("pmustat-regioncost");
	}
	return (now_ns() - t) / (double)n;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	double t[MAX_ROUNDS];

	if (n < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: pmustat-regioncost [N [ROUNDS]]\n");
		return 2;
	}
	round_ns(n / 10 + 1);	/* the first entry opens the counters: not timed */
	for (int i = 0; i < rounds; i++)
		t[i] = round_ns(n);
	qsort(t, (size_t)rounds, sizeof(t[0]), by_value);
	printf("%.3f %d\n", t[rounds / 2], pmustat_active());
	return 0;
}
