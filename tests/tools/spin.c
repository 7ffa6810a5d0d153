/*
 * spin N FILE: a process to attach to (stat -p/-t tests). Starts N threads
 * that spin on the CPU, then creates FILE once all of them run, and waits
 * until it is killed: the test starts counting only after FILE exists, so
 * the threads it counts never depend on timing. FILE holds the thread ids,
 * one a line, main thread first.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int started;
static long tids[64];

static void *spinner(void *arg)
{
	volatile unsigned long x = 0;

	pthread_mutex_lock(&lock);
	tids[1 + started++] = syscall(SYS_gettid);
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	(void)arg;
	for (;;)
		x++;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[1]) : 0;
	pthread_t t;
	FILE *f;
	char tmp[4096];

	if (n < 1 || n > 62) {
		fputs("usage: spin N FILE (1 <= N <= 62)\n", stderr);
		return 2;
	}
	tids[0] = syscall(SYS_gettid);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, NULL, spinner, NULL))
			return 1;
	pthread_mutex_lock(&lock);
	while (started < n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	/* Written aside and renamed: the test sees the whole file or none. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	for (int i = 0; i <= n; i++)
		fprintf(f, "%ld\n", tids[i]);
	if (fclose(f) || rename(tmp, argv[2]))
		return 1;
	for (;;)
		pause();
}
