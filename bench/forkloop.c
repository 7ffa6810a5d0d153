/*
 * The baseline for the per-run overhead benchmark: fork, exec and wait for a
 * program n times, with nothing else. What pmustat or perf stat spend above
 * this per run is their own overhead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[1]) : 0;

	if (n <= 0) {
		fputs("usage: forkloop N PROGRAM [ARGS...]\n", stderr);
		return 2;
	}
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			execv(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			return 1;
	}
	return 0;
}
