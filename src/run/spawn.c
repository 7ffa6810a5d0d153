/*
 * The pmustat side of spawning: talk to the spawn server (spawner.c). Every
 * wait for the server is one poll() over its socket and the signalfd, so a
 * timeout or a Ctrl-C is seen whatever the server is doing: the first asks
 * the server to kill the run; after a stop request the server has a few
 * seconds to answer (it only has to kill and reap), and a second request, or
 * the end of that grace, gives it up: it is killed, with the run's process
 * group, and the campaign stops with an error instead of hanging.
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
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/selfpath.h"
#include "core/strbuf.h"
#include "run/spawn_proto.h"
#include "run/tree.h"

#define SERVER_GRACE_NS 3000000000ull	/* after a stop request */

_Static_assert(sizeof(((struct spawn_result *)0)->left_names) > SPAWN_NAMES_MAX,
	       "left_names holds what the server sends");

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
	 * on exec or is closed here. The server sets it close-on-exec again. */
	if (fcntl(fd, F_SETFD, 0) == 0) {
		snprintf(arg, sizeof(arg), "%d", fd);
		execl(prog, "pmustat-spawner", arg, (char *)NULL);
	}
	_exit(127);
}

/* In the forked server, before it execs: die with pmustat. SIGHUP, not
 * SIGKILL, so that the server can kill the run it is serving first. And in
 * a process group of its own: a SIGKILL to pmustat's group (timeout -s KILL,
 * a job control kill) must leave the server alive to do that, since the run
 * has a group of its own and would be orphaned. (A forked server's group
 * is set by pmustat too, so that no such kill can come before it is set;
 * an exec'd one sets it before pmustat goes on.) */
static void serve_child(pid_t parent, const char *prog, int fd)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGHUP);
	if (getppid() != parent)
		_exit(0);	/* pmustat died before the line above */
	if (prog)
		exec_spawner(prog, fd);
	spawner_serve(fd);
}

/* The server to be exec'd runs with vfork semantics until its exec: a fork
 * would copy pmustat's page tables only to drop them, and make pmustat
 * copy every page it writes to next (most of a one-shot run's cost). */
static pid_t start_server(pid_t parent, const char *prog, const int sv[2])
{
	pid_t pid;

	if (!prog) {
		pid = fork();
		if (pid == 0) {
			close(sv[0]);
			serve_child(parent, NULL, sv[1]);
		}
		return pid;
	}
	/* sv[0] is close-on-exec: the server never holds it. */
	pid = vfork();
	if (pid == 0)
		serve_child(parent, prog, sv[1]);	/* execs or exits */
	return pid;
}

int spawner_start(struct spawner *s, struct error *err)
{
	char *prog = selfpath_find("PMUSTAT_SPAWNER", "pmustat-spawner", X_OK);
	pid_t parent = getpid();
	int sv[2];

	memset(s, 0, sizeof(*s));
	s->sock = -1;
	s->forked = prog == NULL;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		free(prog);
		return error_set(err, ERR_RUNTIME, "cannot create socket: %s", strerror(errno));
	}
	s->pid = start_server(parent, prog, sv);
	if (s->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		free(prog);
		return error_set(err, ERR_RUNTIME, "cannot fork: %s", strerror(errno));
	}
	if (s->forked)
		setpgid(s->pid, s->pid);
	free(prog);
	close(sv[1]);
	s->sock = sv[0];
	return 0;
}

void spawner_stop(struct spawner *s)
{
	perf_held_release(&s->held);
	if (s->sock < 0)
		return;
	/* A healthy server kills what it was running and exits on EOF. */
	close(s->sock);
	s->sock = -1;
	if (s->broken && s->pid > 0)
		kill(s->pid, SIGKILL);
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

/* The server did not answer after a stop request: kill it, and the run's
 * process group, which it could not be trusted to kill any more. */
static int give_up(struct spawn *sp, struct error *err)
{
	struct spawner *s = sp->server;
	pid_t pid = sp->pid;

	/* A quick run's pid comes with its report: look for it (rare). */
	if (pid == SPAWN_PID_LATER)
		pid = s->pid > 0 ? tree_child_of(s->pid) : 0;
	if (pid > 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	if (s->pid > 0)
		kill(s->pid, SIGKILL);
	s->broken = 1;
	sp->pid = 0;
	error_set(err, ERR_RUNTIME, "the spawn server did not answer after the stop request");
	return error_hint(err, "it was killed, with the run it served; the finished runs are kept");
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

static int wait_ms(uint64_t wake)
{
	uint64_t now;

	if (!wake)
		return -1;
	now = clock_now_ns();
	return now >= wake ? 0 : (int)((wake - now + 999999) / 1000000);
}

/* Should we give up on the server: the grace after a stop request is over,
 * or another stop request came during it? Starts the grace on the first. */
static int stop_expired(struct spawn *sp)
{
	const struct sigwatch *sw = sp->sw;

	if (!sw || !sw->stop_signal)
		return 0;
	if (!sp->grace) {
		sp->grace = clock_now_ns() + SERVER_GRACE_NS;
		sp->stops = sw->stops;
		return 0;
	}
	return sw->stops > sp->stops || clock_now_ns() >= sp->grace;
}

/* While the run goes (res given): on its deadline or a stop request, ask
 * the server once to kill every process of the run. */
static void maybe_kill(struct spawn *sp, uint64_t deadline, struct spawn_result *res)
{
	int stop = sp->sw && sp->sw->stop_signal;

	if (!res || sp->kill_sent || !(stop || (deadline && clock_now_ns() >= deadline)))
		return;
	res->outcome = stop ? SPAWN_INTERRUPTED : SPAWN_TIMEOUT;
	/* A failed write shows as the server gone at the next read. */
	if (proto_write(sp->server->sock, "k", 1) == 0)
		sp->kill_sent = 1;
}

/* Wait until the server's socket is readable (0), or give up on it (-1). */
static int await_server(struct spawn *sp, uint64_t deadline, struct spawn_result *res)
{
	int have_sw = sp->sw && sp->sw->fd >= 0;

	for (;;) {
		struct pollfd p[2] = { { sp->server->sock, POLLIN, 0 },
				       { have_sw ? sp->sw->fd : -1, POLLIN, 0 } };
		uint64_t wake;
		int r;

		if (stop_expired(sp))
			return -1;
		maybe_kill(sp, deadline, res);
		wake = earliest(res && !sp->kill_sent ? deadline : 0, sp->grace);
		r = poll(p, have_sw ? 2 : 1, wait_ms(wake));
		if ((r < 0 && errno != EINTR) || (r > 0 && p[0].revents))
			return 0;	/* readable, or the read will say what is wrong */
		if (r > 0 && (p[1].revents & POLLIN))
			sigwatch_poll(sp->sw);
	}
}

/* Read len bytes from the server, watching the deadline and stop requests. */
static int server_read(struct spawn *sp, void *buf, size_t len, uint64_t deadline,
		       struct spawn_result *res, struct error *err)
{
	char *p = buf;

	while (len) {
		ssize_t n;

		if (await_server(sp, deadline, res))
			return give_up(sp, err);
		n = read(sp->server->sock, p, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return server_gone(err);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* spawn_started: the child's pid, or why it could not be started. */
static int read_started(struct spawn *sp, uint64_t deadline, struct spawn_result *res,
			struct error *err)
{
	struct spawn_started st;

	if (server_read(sp, &st, sizeof(st), deadline, res, err))
		return -1;
	if (!st.pid) {
		sp->pid = 0;
		return error_set(err, ERR_RUNTIME, "cannot fork: %s", strerror(st.err));
	}
	sp->pid = st.pid;
	return 0;
}

int spawn_start(struct spawn *sp, struct spawner *server, struct sigwatch *sw,
		const struct spawn_opts *o, struct error *err)
{
	struct spawn_request rq = { SPAWN_MAGIC };
	struct strbuf payload = STRBUF_INIT;
	char head[1 + sizeof(rq)] = "d";
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->server = server;
	sp->sw = sw;
	/* A log given is sent as a duplicate of the same open file (its flock
	 * goes with it); spawn_release closes our copy. */
	sp->stderr_fd = o->show_output ? -1
			: o->output_fd > 0 ? fcntl(o->output_fd, F_DUPFD_CLOEXEC, 3)
			: memfd_create("pmustat-stderr", MFD_CLOEXEC);
	rq.output_both = !o->show_output && o->output_fd > 0 && sp->stderr_fd >= 0;
	rq.show_output = o->show_output;
	rq.pin_cpu = o->pin_cpu;
	rq.keep_children = o->keep_children;
	rq.quick = o->quick;
	sp->released = o->quick;
	add_strings(&payload, o->argv, &rq.nargv);
	if (o->envp)
		add_strings(&payload, o->envp, &rq.nenv);
	else
		rq.nenv = -1;
	if (o->input) {
		strbuf_add(&payload, o->input, strlen(o->input) + 1);
		rq.has_input = 1;
	}
	if (o->cwd) {
		strbuf_add(&payload, o->cwd, strlen(o->cwd) + 1);
		rq.has_cwd = 1;
	}
	rq.payload = (uint32_t)payload.len;
	rq.has_stderr_fd = sp->stderr_fd >= 0;
	/* 'd' closes the run before (spawn_proto.h); the fd rides on it. */
	memcpy(head + 1, &rq, sizeof(rq));
	rc = server->broken || proto_send_fd(server->sock, head, sizeof(head), sp->stderr_fd) ||
	     proto_write(server->sock, payload.buf, payload.len);
	strbuf_release(&payload);
	if (rc)
		return server_gone(err);
	if (o->quick) {
		/* Its pid comes with the report (read_started below). */
		sp->pid = SPAWN_PID_LATER;
		return 0;
	}
	return read_started(sp, 0, NULL, err);
}

static void fill_outcome(struct spawn_result *res, const struct spawn_finished *fin)
{
	int st = fin->wait_status;

	res->wall_ns = fin->wall_ns;
	res->ru = fin->ru;
	res->left = fin->left;
	res->left_kept = fin->left_kept;
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

/* spawn_finished and the names after it: the run is over (the server
 * hears so from the 'd' before the next request). */
static int read_finished(struct spawn *sp, uint64_t deadline, struct spawn_result *res,
			 struct error *err)
{
	struct spawn_finished fin;

	if (sp->pid == SPAWN_PID_LATER && read_started(sp, deadline, res, err))
		return -1;
	if (server_read(sp, &fin, sizeof(fin), deadline, res, err))
		return -1;
	if (fin.names_len > SPAWN_NAMES_MAX)
		return server_gone(err);
	if (server_read(sp, res->left_names, fin.names_len, 0, NULL, err))
		return -1;
	res->left_names[fin.names_len] = '\0';
	sp->pid = 0;
	fill_outcome(res, &fin);
	return 0;
}

int spawn_run(struct spawn *sp, struct sigwatch *sw, double timeout_s,
	      struct spawn_result *res, struct error *err)
{
	uint64_t deadline = 0;

	memset(res, 0, sizeof(*res));
	res->outcome = SPAWN_EXITED;
	sp->sw = sw;
	if (timeout_s > 0)
		deadline = clock_now_ns() + (uint64_t)(timeout_s * 1e9);
	if (!sp->released && proto_write(sp->server->sock, "g", 1))
		return server_gone(err);
	sp->released = 1;
	return read_finished(sp, deadline, res, err);
}

int spawn_go(struct spawn *sp, struct error *err)
{
	if (proto_write(sp->server->sock, "g", 1))
		return server_gone(err);
	sp->released = 1;
	return 0;
}

int spawn_fd(const struct spawn *sp)
{
	return sp->server->sock;
}

int spawn_collect(struct spawn *sp, int kill, struct spawn_result *res, struct error *err)
{
	memset(res, 0, sizeof(*res));
	res->outcome = SPAWN_EXITED;
	if (kill) {
		res->outcome = SPAWN_INTERRUPTED;
		if (proto_write(sp->server->sock, "k", 1) == 0)
			sp->kill_sent = 1;
	}
	return read_finished(sp, 0, res, err);
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
	if (sp->pid != 0 && sp->server && !sp->server->broken) {
		/* Started, never finished: the server kills it (released or
		 * not) and reports; the report is drained and dropped. */
		struct spawn_result res = { 0 };
		struct error err;

		if (!sp->kill_sent && proto_write(sp->server->sock, "k", 1) == 0)
			sp->kill_sent = 1;
		if (sp->kill_sent)
			read_finished(sp, 0, &res, &err);
		sp->pid = 0;
	}
	if (sp->stderr_fd >= 0)
		close(sp->stderr_fd);
	sp->stderr_fd = -1;
}
