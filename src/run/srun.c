/*
 * Running srun (run/srun.h). A pipe carries its stderr; the parent copies
 * it out as it comes, so a slow allocation ("srun: job 12 queued and
 * waiting for resources") is visible while it waits, and keeps a bounded
 * copy for the error message.
 */
#include "run/srun.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *srun_find(void)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;

	while (path && *path) {
		size_t n = strcspn(path, ":");

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*s/srun", (int)n, n ? path : ".");
		if (access(sb.buf, X_OK) == 0)
			return strbuf_detach(&sb);
		path += n + (path[n] == ':');
	}
	strbuf_release(&sb);
	return NULL;
}

static void child(char *const *argv, int pipefd[2])
{
	dup2(pipefd[1], STDERR_FILENO);
	close(pipefd[0]);
	close(pipefd[1]);
	execv(argv[0], argv);
	fprintf(stderr, "srun: cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Copy fd to echo_fd and into msg until EOF. */
static void drain(int fd, int echo_fd, struct strbuf *msg)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* a closed stderr must not block srun: keep reading */
		if (write(echo_fd, buf, (size_t)n) < 0)
			echo_fd = -1;
		if (msg->len < SRUN_MSG_MAX)
			strbuf_add(msg, buf, (size_t)n);
	}
}

int srun_run(char *const *argv, int echo_fd, struct strbuf *msg, struct error *err)
{
	int pipefd[2], status = 0;
	void (*old)(int);
	pid_t pid;

	if (pipe(pipefd))
		return error_set(err, ERR_RUNTIME, "cannot start srun: %s", strerror(errno));
	old = signal(SIGINT, SIG_IGN);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		signal(SIGINT, old);
		return error_set(err, ERR_RUNTIME, "cannot start srun: %s", strerror(errno));
	}
	if (!pid) {
		signal(SIGINT, old);
		child(argv, pipefd);
	}
	close(pipefd[1]);
	drain(pipefd[0], echo_fd, msg);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	signal(SIGINT, old);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void srun_telling_line(const char *msg, char *out, size_t len)
{
	const char *banner = NULL, *error = NULL, *first = NULL, *l;

	out[0] = '\0';
	for (const char *p = msg; p && *p;) {
		size_t n = strcspn(p, "\n");

		if (n && !first)
			first = p;
		if (n && memmem(p, n, "***", 3))
			banner = p;
		else if (n && memmem(p, n, "error", 5))
			error = p;
		p += n + (p[n] == '\n');
	}
	l = banner ? banner : error ? error : first;
	if (l)
		snprintf(out, len, "%.*s", (int)strcspn(l, "\n"), l);
}
