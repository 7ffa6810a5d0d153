/*
 * Run a command once, without a shell, and keep what it prints on stdout
 * (up to a limit): for the few places where pmustat needs a program's own
 * answer rather than its measurement (the demo's constraint count). The
 * argv goes to execve as it is, so nothing in it is interpreted.
 */
#include "run/capture.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int read_all(int fd, struct strbuf *out, size_t max)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (out->len < max)
			strbuf_add(out, buf, (size_t)n < max - out->len ? (size_t)n : max - out->len);
	}
	return 0;
}

int run_capture(char *const *argv, size_t max, struct strbuf *out, int *status,
		struct error *err)
{
	posix_spawn_file_actions_t fa;
	int p[2], rc, wst = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0], strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc) {
		close(p[0]);
		return error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0], strerror(rc));
	}
	rc = read_all(p[0], out, max);
	close(p[0]);
	while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
		;
	*status = wst;
	if (rc)
		return error_set(err, ERR_RUNTIME, "cannot read the output of '%s'", argv[0]);
	return 0;
}
