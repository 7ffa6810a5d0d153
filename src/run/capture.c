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

int run_capture(char *const *argv, size_t max, struct strbuf *out, int *status,
		struct error *err)
{
	return run_capture_env(argv, environ, max, out, status, err);
}

int run_capture_env(char *const *argv, char *const *envp, size_t max, struct strbuf *out,
		    int *status, struct error *err)
{
	posix_spawn_file_actions_t fa;
	int p[2], rc, wst = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0], strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc) {
		close(p[0]);
		return error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0], strerror(rc));
	}
	rc = strbuf_read_fd(out, p[0], max) < 0;
	close(p[0]);
	while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
		;
	*status = wst;
	if (rc)
		return error_set(err, ERR_RUNTIME, "cannot read the output of '%s'", argv[0]);
	return 0;
}
