/*
 * The spawn server (see spawn.h for why it exists). It is forked early and
 * stays small: it reads a request, forks the child, reports its pid, waits
 * for the go byte, releases the child, reaps it and reports how it ended.
 * It ignores SIGINT/SIGTERM (a Ctrl-C at the terminal reaches the whole
 * process group; pmustat decides what to do) and exits when pmustat closes
 * the socket. Children get back the signal state the server started with.
 */
#include "run/spawn_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int proto_write(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int proto_read(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int proto_send_fd(int sock, const void *buf, size_t len, int fd)
{
	union { char b[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } ctl;
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.b;
		m.msg_controllen = sizeof(ctl.b);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	/* The fd went with the first byte; the rest is plain data. */
	return proto_write(sock, (const char *)buf + n, len - (size_t)n);
}

int proto_recv_fd(int sock, void *buf, size_t len, int *fd)
{
	union { char b[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } ctl;
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
			    .msg_controllen = sizeof(ctl.b) };
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	return proto_read(sock, (char *)buf + n, len - (size_t)n);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct server_state {
	struct sigaction orig_int, orig_term;
	sigset_t orig_mask;
};

static void child_fail(int fd, int e)
{
	ssize_t r = write(fd, &e, sizeof(e));

	(void)r;
	_exit(127);
}

/* Split the payload into argv and envp arrays (pointers into payload). */
static void split_strings(char *payload, int nargv, int nenv, char **argv, char **envp)
{
	char *p = payload;

	for (int i = 0; i < nargv; i++, p += strlen(p) + 1)
		argv[i] = p;
	argv[nargv] = NULL;
	for (int i = 0; i < nenv; i++, p += strlen(p) + 1)
		envp[i] = p;
	if (nenv >= 0)
		envp[nenv] = NULL;
}

/* In the child: wait for the go byte, set up stdio and CPU, exec. */
static void child_main(const struct server_state *st, const struct spawn_request *rq,
		       char **argv, char **envp, int go_rd, int exec_wr, int stderr_fd)
{
	char c;
	ssize_t r;
	int devnull;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigaction(SIGINT, &st->orig_int, NULL);
	sigaction(SIGTERM, &st->orig_term, NULL);
	sigprocmask(SIG_SETMASK, &st->orig_mask, NULL);
	do
		r = read(go_rd, &c, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(127);	/* pmustat gave up on this run */
	if (rq->pin_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(rq->pin_cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			child_fail(exec_wr, errno);
	}
	devnull = open("/dev/null", O_RDWR);
	if (devnull < 0)
		child_fail(exec_wr, errno);
	dup2(devnull, 0);
	if (!rq->show_output) {
		dup2(devnull, 1);
		if (stderr_fd >= 0)
			dup2(stderr_fd, 2);
	}
	if (devnull > 2)
		close(devnull);
	execvpe(argv[0], argv, rq->nenv >= 0 ? envp : environ);
	child_fail(exec_wr, errno);
}

static int read_exec_errno(int fd)
{
	int e = 0;
	ssize_t r;

	do
		r = read(fd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	return r == (ssize_t)sizeof(e) ? e : 0;
}

/* One request: fork, report, wait for go, release, reap, report. */
static int serve_one(int sock, const struct server_state *st, const struct spawn_request *rq,
		     char *payload, int stderr_fd)
{
	char **argv = calloc((size_t)rq->nargv + 1, sizeof(char *));
	char **envp = calloc((size_t)(rq->nenv > 0 ? rq->nenv : 0) + 1, sizeof(char *));
	struct spawn_started started = { 0, 0 };
	struct spawn_finished fin;
	int go[2], ex[2], rc = -1;
	char g;

	if (!argv || !envp || pipe2(go, O_CLOEXEC) || pipe2(ex, O_CLOEXEC)) {
		started.err = errno ? errno : ENOMEM;
		proto_write(sock, &started, sizeof(started));
		goto out;
	}
	split_strings(payload, rq->nargv, rq->nenv, argv, envp);
	started.pid = fork();
	if (started.pid == 0)
		child_main(st, rq, argv, envp, go[0], ex[1], stderr_fd);
	started.err = started.pid < 0 ? errno : 0;
	if (started.pid < 0)
		started.pid = 0;
	else
		setpgid(started.pid, started.pid);
	close(go[0]);
	close(ex[1]);
	if (proto_write(sock, &started, sizeof(started)) || !started.pid ||
	    proto_read(sock, &g, 1)) {
		if (started.pid) {
			kill(-started.pid, SIGKILL);
			waitpid(started.pid, NULL, 0);
		}
		close(go[1]);
		close(ex[0]);
		goto out;
	}
	memset(&fin, 0, sizeof(fin));
	fin.wall_ns = now_ns();
	if (write(go[1], "g", 1) != 1)
		kill(-started.pid, SIGKILL);
	close(go[1]);
	fin.exec_errno = read_exec_errno(ex[0]);
	close(ex[0]);
	while (wait4(started.pid, &fin.wait_status, 0, &fin.ru) < 0 && errno == EINTR)
		;
	fin.wall_ns = now_ns() - fin.wall_ns;
	rc = proto_write(sock, &fin, sizeof(fin));
out:
	free(argv);
	free(envp);
	return rc;
}

void spawner_serve(int sock)
{
	struct server_state st;
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigprocmask(SIG_SETMASK, NULL, &st.orig_mask);
	sigaction(SIGINT, &ign, &st.orig_int);
	sigaction(SIGTERM, &ign, &st.orig_term);
	signal(SIGCHLD, SIG_DFL);
	for (;;) {
		struct spawn_request rq;
		char *payload;
		int fd;

		if (proto_recv_fd(sock, &rq, sizeof(rq), &fd) || rq.magic != SPAWN_MAGIC)
			_exit(0);	/* pmustat is gone, or the stream is broken */
		payload = malloc((size_t)rq.payload + 1);
		if (!payload || proto_read(sock, payload, rq.payload))
			_exit(1);
		payload[rq.payload] = '\0';
		if (serve_one(sock, &st, &rq, payload, fd))
			_exit(1);
		free(payload);
		if (fd >= 0)
			close(fd);
	}
}
