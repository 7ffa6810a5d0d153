/*
 * The pmustat side of spawning: talk to the spawn server (spawner.c), and
 * wait for the run's end, a timeout or a stop request with one poll() over
 * the server socket and the signalfd.
 */
#include "run/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/selfpath.h"
#include "core/strbuf.h"
#include "run/spawn_proto.h"

uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void exec_spawner(const char *prog, int fd)
{
	char arg[16];

	/* The server's end must survive exec; everything else of ours closes
	 * on exec or is closed here. */
	if (fcntl(fd, F_SETFD, 0) == 0) {
		snprintf(arg, sizeof(arg), "%d", fd);
		execl(prog, "pmustat-spawner", arg, (char *)NULL);
	}
	_exit(127);
}

int spawner_start(struct spawner *s, struct error *err)
{
	char *prog = selfpath_find("PMUSTAT_SPAWNER", "pmustat-spawner", X_OK);
	int sv[2];

	s->pid = 0;
	s->sock = -1;
	s->forked = prog == NULL;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return error_set(err, ERR_RUNTIME, "cannot create socket: %s", strerror(errno));
	s->pid = fork();
	if (s->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		free(prog);
		return error_set(err, ERR_RUNTIME, "cannot fork: %s", strerror(errno));
	}
	if (s->pid == 0) {
		close(sv[0]);
		if (prog)
			exec_spawner(prog, sv[1]);
		spawner_serve(sv[1]);
	}
	free(prog);
	close(sv[1]);
	s->sock = sv[0];
	return 0;
}

void spawner_stop(struct spawner *s)
{
	if (s->sock < 0)
		return;
	close(s->sock);
	s->sock = -1;
	while (s->pid > 0 && waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
}

static void add_strings(struct strbuf *sb, char *const *v, int *count)
{
	*count = 0;
	for (; v && *v; v++, (*count)++)
		strbuf_add(sb, *v, strlen(*v) + 1);
}

static int server_gone(struct error *err)
{
	return error_set(err, ERR_RUNTIME, "the spawn server stopped unexpectedly");
}

int spawn_start(struct spawn *sp, struct spawner *server, const struct spawn_opts *o,
		struct error *err)
{
	struct spawn_request rq = { SPAWN_MAGIC };
	struct spawn_started st;
	struct strbuf payload = STRBUF_INIT;
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->server = server;
	sp->stderr_fd = o->show_output ? -1 : memfd_create("pmustat-stderr", MFD_CLOEXEC);
	rq.show_output = o->show_output;
	rq.pin_cpu = o->pin_cpu;
	add_strings(&payload, o->argv, &rq.nargv);
	if (o->envp)
		add_strings(&payload, o->envp, &rq.nenv);
	else
		rq.nenv = -1;
	rq.payload = (uint32_t)payload.len;
	rq.has_stderr_fd = sp->stderr_fd >= 0;
	rc = proto_send_fd(server->sock, &rq, sizeof(rq), sp->stderr_fd) ||
	     proto_write(server->sock, payload.buf, payload.len) ||
	     proto_read(server->sock, &st, sizeof(st));
	strbuf_release(&payload);
	if (rc)
		return server_gone(err);
	if (!st.pid)
		return error_set(err, ERR_RUNTIME, "cannot fork: %s", strerror(st.err));
	sp->pid = st.pid;
	return 0;
}

static void spawn_kill_group(struct spawn *sp)
{
	if (kill(-sp->pid, SIGKILL) && errno == ESRCH)
		kill(sp->pid, SIGKILL);
}

static int wait_timeout_ms(uint64_t deadline)
{
	uint64_t now;

	if (!deadline)
		return -1;
	now = clock_now_ns();
	return now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
}

/* Wait until the server has something to say, killing the child's group
 * once on timeout or stop request. */
static void wait_for_end(struct spawn *sp, struct sigwatch *sw, uint64_t deadline,
			 struct spawn_result *res)
{
	int killed = 0;

	for (;;) {
		struct pollfd p[2] = { { sp->server->sock, POLLIN, 0 }, { sw->fd, POLLIN, 0 } };
		int r;

		if (!killed && (sw->stop_signal || (deadline && clock_now_ns() >= deadline))) {
			res->outcome = sw->stop_signal ? SPAWN_INTERRUPTED : SPAWN_TIMEOUT;
			spawn_kill_group(sp);
			killed = 1;
		}
		r = poll(p, 2, killed ? -1 : wait_timeout_ms(deadline));
		if (r > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			return;
		if (r > 0 && (p[1].revents & POLLIN))
			sigwatch_poll(sw);
	}
}

static void fill_outcome(struct spawn_result *res, const struct spawn_finished *fin)
{
	int st = fin->wait_status;

	res->wall_ns = fin->wall_ns;
	res->ru = fin->ru;
	if (fin->exec_errno) {
		res->outcome = SPAWN_EXEC_FAILED;
		res->status = fin->exec_errno;
	} else if (res->outcome == SPAWN_TIMEOUT || res->outcome == SPAWN_INTERRUPTED) {
		res->status = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	} else if (WIFSIGNALED(st)) {
		res->outcome = SPAWN_SIGNALED;
		res->status = WTERMSIG(st);
	} else {
		res->outcome = SPAWN_EXITED;
		res->status = WEXITSTATUS(st);
	}
}

int spawn_run(struct spawn *sp, struct sigwatch *sw, double timeout_s,
	      struct spawn_result *res, struct error *err)
{
	struct spawn_finished fin;
	uint64_t deadline = 0;

	memset(res, 0, sizeof(*res));
	res->outcome = SPAWN_EXITED;
	if (timeout_s > 0)
		deadline = clock_now_ns() + (uint64_t)(timeout_s * 1e9);
	if (proto_write(sp->server->sock, "g", 1))
		return server_gone(err);
	sp->released = 1;
	wait_for_end(sp, sw, deadline, res);
	if (proto_read(sp->server->sock, &fin, sizeof(fin)))
		return server_gone(err);
	sp->pid = 0;
	fill_outcome(res, &fin);
	return 0;
}

char *spawn_stderr_tail(const struct spawn *sp, size_t max)
{
	off_t size;
	char *buf;
	ssize_t n;

	if (sp->stderr_fd < 0)
		return NULL;
	size = lseek(sp->stderr_fd, 0, SEEK_END);
	if (size <= 0)
		return NULL;
	if ((size_t)size > max)
		size = (off_t)max;
	buf = xmalloc((size_t)size + 1);
	n = pread(sp->stderr_fd, buf, (size_t)size, lseek(sp->stderr_fd, 0, SEEK_END) - size);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

void spawn_release(struct spawn *sp)
{
	struct spawn_finished fin;

	if (sp->pid > 0) {
		/* Started, never finished: the server waits for go or for the
		 * child; kill it, release it, and drain the report. */
		spawn_kill_group(sp);
		if (!sp->released && proto_write(sp->server->sock, "g", 1) == 0)
			sp->released = 1;
		if (sp->released)
			proto_read(sp->server->sock, &fin, sizeof(fin));
		sp->pid = 0;
	}
	if (sp->stderr_fd >= 0)
		close(sp->stderr_fd);
	sp->stderr_fd = -1;
}
