/*
 * runas CMD [ARG...]: run CMD as the unprivileged user nobody (65534), for
 * tests/pmu/guest.sh: a process without CAP_PERFMON under
 * perf_event_paranoid=2 may count its own user space only, so pmustat
 * excludes the kernel and every count is exact. Busybox as Debian builds it
 * has no su or setuidgid.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: runas CMD [ARG...]\n");
		return 2;
	}
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("runas");
		return 126;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
