/*
 * Helper commands run to completion (command.h). stdout is read through a
 * pipe as the command runs; stderr goes to a memory file read at the end,
 * so that neither stream can fill up and block the command while the other
 * is read.
 */
#include "run/command.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* git log of a few hundred thousand commits with long subjects is tens of
 * MiB: the cap only stops a runaway. */
#define COMMAND_OUTPUT_MAX ((size_t)1 << 30)

/*
 * The command dies with pmustat (a kill -9 runs no handler): its death
 * signal is SIGKILL, and a parent already gone before it was set is seen
 * by getppid. Its own children are not reached that way: a caller that
 * must know when the last of them is gone passes a locked descriptor in
 * keep, which they all inherit, and waits for the lock.
 */
static void __attribute__((noreturn)) child(const char *dir, char *const *argv, int out,
					    int errfd, pid_t parent, const int *keep)
{
	int null = open("/dev/null", O_RDONLY);

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	for (; keep && *keep >= 0; keep++)
		fcntl(*keep, F_SETFD, 0);
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(errfd, 2);
	if (dir && chdir(dir))
		_exit(127);
	execvp(argv[0], argv);
	dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int wait_status(pid_t pid, int *status)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -1;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return 0;
}

int command_capture(const char *dir, char *const *argv, struct strbuf *out,
		    struct strbuf *errout, int *status, struct error *err)
{
	return command_capture_keeping(dir, argv, NULL, out, errout, status, err);
}

int command_capture_keeping(const char *dir, char *const *argv, const int *keep,
			    struct strbuf *out, struct strbuf *errout, int *status,
			    struct error *err)
{
	struct strbuf sink = STRBUF_INIT;
	pid_t pid, self = getpid();
	int pfd[2], efd;

	if (pipe2(pfd, O_CLOEXEC))
		return error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0],
				 strerror(errno));
	efd = memfd_create("pmustat-command", MFD_CLOEXEC);
	pid = efd < 0 ? -1 : fork();
	if (pid < 0) {
		error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0], strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		if (efd >= 0)
			close(efd);
		return -1;
	}
	if (!pid)
		child(dir, argv, pfd[1], efd, self, keep);
	close(pfd[1]);
	strbuf_read_fd(out ? out : &sink, pfd[0], COMMAND_OUTPUT_MAX);
	strbuf_release(&sink);
	close(pfd[0]);
	if (wait_status(pid, status)) {
		close(efd);
		return error_set(err, ERR_RUNTIME, "cannot wait for '%s': %s", argv[0],
				 strerror(errno));
	}
	if (errout && lseek(efd, 0, SEEK_SET) == 0)
		strbuf_read_fd(errout, efd, COMMAND_OUTPUT_MAX);
	close(efd);
	return 0;
}

/* The line starting with prefix, cut at its end, or NULL. */
static char *line_with(char *buf, const char *prefix)
{
	size_t n = strlen(prefix);

	for (char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, prefix, n)) {
			p[strcspn(p, "\n")] = '\0';
			return p;
		}
	return NULL;
}

const char *command_failure_line(struct strbuf *e)
{
	char *line;

	if (!e->len)
		return "said nothing";
	if ((line = line_with(e->buf, "fatal: ")) || (line = line_with(e->buf, "error: ")))
		return line;
	while (e->len && (e->buf[e->len - 1] == '\n' || e->buf[e->len - 1] == '\r'))
		e->buf[--e->len] = '\0';
	line = strrchr(e->buf, '\n');
	return line ? line + 1 : e->len ? e->buf : "said nothing";
}
