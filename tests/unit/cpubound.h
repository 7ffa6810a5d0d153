/*
 * A resource bound for the tests of algorithmic cost, not a timer: fn runs
 * in a child process limited to a number of CPU seconds (RLIMIT_CPU), set
 * far (10x or more) above what the linear path costs and far below what a
 * quadratic one would on the test's input, so the verdict does not depend
 * on how loaded the machine is (CPU time is not wall time). A child over
 * the limit is killed (SIGXCPU, then SIGKILL).
 */
#ifndef PMU_TEST_CPUBOUND_H
#define PMU_TEST_CPUBOUND_H

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Did fn(arg) return 0 within seconds of CPU time? */
static inline int within_cpu_seconds(int (*fn)(void *), void *arg, unsigned seconds)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl = { seconds, seconds + 1 };

		setrlimit(RLIMIT_CPU, &rl);
		_exit(fn(arg) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#endif
