/*
 * regions-prog: a program that uses the markers in known ways, for the CLI
 * tests (tests/cli/t-regions*.sh) and the benchmark. Each scenario enters
 * regions a known number of times, so a test can check counts exactly and
 * values for plausibility (task-clock grows with the work done).
 *
 *   regions-prog loop N WORK      name form: "loop" entered N times (exit 3
 *                                 if a marker changed errno)
 *   regions-prog handle N WORK    handle form: "hot" entered N times
 *   regions-prog threads T N WORK T threads, each entering "work" N times
 *                                 (handle), inside "all" on the main thread
 *   regions-prog nested           "outer" > "inner" x3, "rec" recursing 4 deep
 *   regions-prog odd              unbalanced exit, a region left open, a
 *                                 never-entered region, a hostile name
 *   regions-prog fork N           "parent" once; a forked child enters
 *                                 "child" N times and exits
 *   regions-prog closefd          closes PMUSTAT_REGION_FD, then a region
 *   regions-prog closeall         closes every fd above 2, reopens /dev/null
 *                                 into the numbers 3..72, then a region
 *   regions-prog many N           N distinct names "r0".."rN-1", once each
 *   regions-prog active           prints pmustat_active()
 * WORK is a number of busy-loop iterations per entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmustat.h"

static void work(unsigned long n)
{
	volatile unsigned long sink = 0;	/* per call: threads share nothing */

	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

struct targ {
	int n;
	unsigned long w;
};

static void *thread_main(void *p)
{
	const struct targ *a = p;
	pmustat_region_t r = pmustat_region("work");

	for (int i = 0; i < a->n; i++) {
		pmustat_region_enter(r);
		work(a->w);
		pmustat_region_exit(r);
	}
	return NULL;
}

static int threads(int nt, int n, unsigned long w)
{
	pthread_t tid[64];
	struct targ a = { n, w };

	if (nt > 64)
		nt = 64;
	pmustat_region_begin("all");
	for (int i = 0; i < nt; i++)
		pthread_create(&tid[i], NULL, thread_main, &a);
	for (int i = 0; i < nt; i++)
		pthread_join(tid[i], NULL);
	pmustat_region_end("all");
	return 0;
}

static void recurse(int depth)
{
	pmustat_region_begin("rec");
	work(1000);
	if (depth > 1)
		recurse(depth - 1);
	pmustat_region_end("rec");
}

static int nested(void)
{
	pmustat_region_begin("outer");
	for (int i = 0; i < 3; i++) {
		char name[16];

		/* a reused buffer: the name, not the pointer, identifies a region */
		snprintf(name, sizeof(name), "inner");
		pmustat_region_begin(name);
		work(100000);
		pmustat_region_end(name);
	}
	pmustat_region_end("outer");
	recurse(4);
	return 0;
}

static int odd(void)
{
	pmustat_region_end("never-begun");
	pmustat_region("registered-only");
	pmustat_region_begin("left \"open\"\n\xff");
	return 0;
}

static int forked(int n)
{
	pid_t pid;
	int st;

	pmustat_region_begin("parent");
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < n; i++) {
			pmustat_region_begin("child");
			work(10000);
			pmustat_region_end("child");
		}
		exit(0);
	}
	waitpid(pid, &st, 0);
	pmustat_region_end("parent");
	return 0;
}

static int closefd(void)
{
	const char *fd = getenv("PMUSTAT_REGION_FD");

	if (fd)
		close(atoi(fd));
	pmustat_region_begin("after-close");
	pmustat_region_end("after-close");
	return 0;
}

/* What a daemon does: every inherited descriptor closed, the numbers reused. */
static int closeall(void)
{
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	for (int i = 3; i <= 72; i++)
		if (open("/dev/null", O_WRONLY) < 0)
			return 4;
	pmustat_region_begin("after-closeall");
	pmustat_region_end("after-closeall");
	return 0;
}

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "";
	int n = argc > 2 ? atoi(argv[2]) : 1;
	unsigned long w = argc > 3 ? strtoul(argv[3], NULL, 10) : 1000;

	if (!strcmp(s, "loop")) {
		for (int i = 0; i < n; i++) {
			errno = 77;	/* the markers must leave errno alone */
			pmustat_region_begin("loop");
			if (errno != 77)
				return 3;
			work(w);
			errno = 78;
			pmustat_region_end("loop");
			if (errno != 78)
				return 3;
		}
		return 0;
	}
	if (!strcmp(s, "handle")) {
		pmustat_region_t r = pmustat_region("hot");

		for (int i = 0; i < n; i++) {
			pmustat_region_enter(r);
			work(w);
			pmustat_region_exit(r);
		}
		return 0;
	}
	if (!strcmp(s, "threads") && argc > 3)
		return threads(n, atoi(argv[3]), argc > 4 ? strtoul(argv[4], NULL, 10) : 1000);
	if (!strcmp(s, "nested"))
		return nested();
	if (!strcmp(s, "odd"))
		return odd();
	if (!strcmp(s, "fork"))
		return forked(n);
	if (!strcmp(s, "closefd"))
		return closefd();
	if (!strcmp(s, "closeall"))
		return closeall();
	if (!strcmp(s, "many")) {
		for (int i = 0; i < n; i++) {
			char name[16];

			snprintf(name, sizeof(name), "r%d", i);
			pmustat_region_begin(name);
			pmustat_region_end(name);
		}
		return 0;
	}
	if (!strcmp(s, "active")) {
		printf("%d\n", pmustat_active());
		return 0;
	}
	fprintf(stderr, "usage: regions-prog loop|handle|threads|nested|odd|fork|closefd|closeall|many|active ...\n");
	return 2;
}
