/*
 * Owners of leftovers (see owner.h): a process named by its pid and its
 * start time, both read from /proc/PID/stat. The command name in that line
 * is in parentheses and may hold anything, spaces and ')' included, so the
 * fields are counted from the last ')'.
 */
#include "core/owner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The start time of pid into *start and its state letter into *state:
 * 0; -1 with errno (ENOENT or ESRCH: no such process). */
static int read_stat(long pid, unsigned long long *start, char *state)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	e = errno;
	close(fd);
	if (n <= 0) {
		/* A process that ended between open and read: ESRCH. */
		errno = n < 0 ? e : ESRCH;
		return -1;
	}
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", state, start) != 2) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

unsigned long long owner_start(long pid)
{
	unsigned long long start;
	char state;

	return read_stat(pid, &start, &state) ? 0 : start;
}

int owner_gone(long pid, unsigned long long start)
{
	unsigned long long now;
	char state;

	if (pid <= 0)
		return 0;
	if (read_stat(pid, &now, &state))
		return errno == ENOENT || errno == ESRCH;
	/* A zombie (its parent has not reaped it yet: a killed pmustat whose
	 * shell is gone too) holds nothing any more. */
	return (start && now != start) || state == 'Z' || state == 'X';
}
