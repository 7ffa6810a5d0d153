/*
 * Cost of libpmustat's markers (bench/regions.sh runs this; not a test).
 * In one process, rounds alternate between contenders reading the same
 * event, task-clock, on the read() path:
 *   pair-handle   pmustat_region_enter + pmustat_region_exit
 *   pair-name     pmustat_region_begin + pmustat_region_end
 *   papi-read     one PAPI_read (a PAPI region needs two)
 *   raw-read      one read() of a perf group fd: the system call alone
 * and prints the median ns per operation of each. Run without
 * PMUSTAT_EVENTS it measures the markers switched off.
 *
 * PAPI refuses to start without a hardware PMU, which these machines lack.
 * So the run forces libpfm's Zen 4 tables (LIBPFM_FORCE_PMU, set by the
 * script) and this program interposes syscall(): PAPI's perf_event_open of
 * the hardware event is rewritten into task-clock. PAPI's own code path —
 * its event set, its read() of the group, its bookkeeping — runs unchanged;
 * only the counter behind the fd is the same software event libpmustat
 * reads. The rewrite is checked: PAPI's count must grow like task-clock.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <papi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pmustat.h"

#define BLOCK 1000

static int rewrites;

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (nr == SYS_perf_event_open) {
		struct perf_event_attr *at = (struct perf_event_attr *)a[0];

		if (at->type == PERF_TYPE_RAW || at->type == PERF_TYPE_HARDWARE ||
		    at->type == PERF_TYPE_HW_CACHE) {
			at->type = PERF_TYPE_SOFTWARE;
			at->config = PERF_COUNT_SW_TASK_CLOCK;
			rewrites++;
		}
		if (getenv("BENCH_DEBUG"))
			fprintf(stderr, "open type %u config %#llx excl u%d k%d h%d disabled %d inherit %d "
				"read_format %#llx group %ld\n", at->type, (unsigned long long)at->config,
				at->exclude_user, at->exclude_kernel, at->exclude_hv, at->disabled,
				at->inherit, (unsigned long long)at->read_format, a[3]);
	}
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int raw_fd(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static int papi_setup(int *es)
{
	const char *ev = getenv("BENCH_PAPI_EVENT");

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return -1;
	*es = PAPI_NULL;
	if (PAPI_create_eventset(es) != PAPI_OK ||
	    PAPI_add_named_event(*es, ev ? ev : "RETIRED_INSTRUCTIONS") != PAPI_OK ||
	    PAPI_start(*es) != PAPI_OK)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200000, rounds = argc > 2 ? atoi(argv[2]) : 9;
	double *t[4], *ratio;
	pmustat_region_t r = pmustat_region("bench");
	int es, have_papi, fd = raw_fd();
	long long v0 = 0, v1 = 0;
	uint64_t buf[8];
	volatile unsigned long sink = 0;

	have_papi = papi_setup(&es) == 0;
	if (have_papi) {	/* the rewrite must have made PAPI count task-clock */
		uint64_t w0 = now_ns();

		PAPI_read(es, &v0);
		for (unsigned long i = 0; i < 20000000; i++)
			sink += i;
		PAPI_read(es, &v1);
		printf("papi: %d perf_event_open rewritten; counted %lld ns in %llu ns of wall time\n",
		       rewrites, v1 - v0, (unsigned long long)(now_ns() - w0));
		if (v1 - v0 <= 0)
			have_papi = 0;
	}
	for (int c = 0; c < 4; c++)
		t[c] = calloc((size_t)rounds, sizeof(double));
	ratio = calloc((size_t)rounds, sizeof(double));
	/* Contenders alternate in blocks of BLOCK operations, so that the
	 * machine's slow drifts (this is a VM) hit all of them alike. */
	for (int k = 0; k < rounds; k++) {
		uint64_t acc[4] = { 0, 0, 0, 0 }, s;

		for (int b = 0; b < n / BLOCK; b++) {
			s = now_ns();
			for (int i = 0; i < BLOCK; i++) {
				pmustat_region_enter(r);
				pmustat_region_exit(r);
			}
			acc[0] += now_ns() - s;
			s = now_ns();
			for (int i = 0; i < BLOCK; i++) {
				pmustat_region_begin("bench-name");
				pmustat_region_end("bench-name");
			}
			acc[1] += now_ns() - s;
			if (have_papi) {
				s = now_ns();
				for (int i = 0; i < BLOCK; i++)
					PAPI_read(es, &v0);
				acc[2] += now_ns() - s;
			}
			s = now_ns();
			for (int i = 0; i < BLOCK; i++)
				if (read(fd, buf, sizeof(buf)) < 0)
					return 1;
			acc[3] += now_ns() - s;
		}
		for (int c = 0; c < 4; c++)
			t[c][k] = (double)acc[c] / (n / BLOCK * BLOCK);
		ratio[k] = have_papi ? t[0][k] / (2 * t[2][k]) : 0;
	}
	printf("markers %s; %d operations x %d rounds, median ns per operation:\n",
	       pmustat_active() ? "on (read() path)" : "off", n / BLOCK * BLOCK, rounds);
	printf("  pair-handle %10.1f   (enter + exit)\n  pair-name   %10.1f   (begin + end)\n",
	       median(t[0], rounds), median(t[1], rounds));
	if (have_papi)
		printf("  papi-read   %10.1f   (one PAPI_read)\n", median(t[2], rounds));
	else
		printf("  papi-read          n/a (PAPI did not start)\n");
	printf("  raw-read    %10.1f   (one read() of a perf fd)\n", median(t[3], rounds));
	if (have_papi && pmustat_active()) {
		double p = median(t[2], rounds);

		printf("  ratio pair-handle / (2 x papi-read) %6.2f   median of per-round ratios "
		       "(a PAPI region is 2 reads; target <= 1)\n", median(ratio, rounds));
		printf("  ratio pair-name / (2 x papi-read)   %6.2f\n", median(t[1], rounds) / (2 * p));
		printf("  ratio pair-handle / (2 x raw-read)  %6.2f   (1 = nothing but the system calls)\n",
		       median(t[0], rounds) / (2 * median(t[3], rounds)));
	}
	if (have_papi)
		PAPI_stop(es, &v0);
	for (int c = 0; c < 4; c++)
		free(t[c]);
	free(ratio);
	close(fd);
	return 0;
}
