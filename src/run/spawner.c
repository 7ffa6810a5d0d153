/*
 * The spawn server (see spawn.h for why it exists). It is forked early and
 * stays small: it reads a request, starts the child (which reports its pid
 * and reads the go byte itself, while the server waits for its exec; or,
 * for a quick request, execs at once and the server reports it), waits
 * for it (and for a kill request) in one poll() over the socket and a
 * signalfd, deals with what the run left behind (tree.c), and reports how
 * it ended.
 *
 * It must never outlive pmustat, nor let a run do so. When the socket
 * closes or pmustat's death signal (PR_SET_PDEATHSIG, SIGHUP) arrives, it
 * kills every process of the current run and exits; SIGPIPE is ignored, so a
 * write to a dead pmustat is an error, not a silent death that would strand
 * a child. A child dies with the server until it is released, and holds
 * the socket only until its exec. Every descriptor the
 * server opens is close-on-exec: a measured program gets none of them.
 *
 * It is in a process group of its own (spawn.c), so a signal to pmustat's
 * group does not reach it: a SIGKILL to that group leaves it to end the run.
 * It ignores SIGINT/SIGTERM all the same (pmustat decides what to do).
 * Children get back the signal state the server started with.
 */
#include "run/spawn_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/tree.h"

extern char **environ;

int proto_write(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

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

struct server {
	int sock;
	int sigfd;		/* SIGCHLD, and SIGHUP: pmustat's death signal */
	struct sigaction orig_int, orig_term, orig_pipe;
	sigset_t orig_mask;
	int batch;		/* it made itself SCHED_BATCH (server_init) */
	struct run_tree tree;
};

/* One run as the server sees it. */
struct run {
	const struct spawn_request *rq;
	pid_t pid;
	int killed;		/* a kill request came: everything of the run goes */
	int reaped;
	uint64_t t0;
	struct spawn_finished fin;
	pid_t *left;		/* what the run left (or had, when killed) */
	size_t nleft;
	char names[SPAWN_NAMES_MAX + 1];
};

/* pmustat is gone: nothing of the current run may outlive it. */
static void __attribute__((noreturn)) server_abandon(struct server *s, struct run *r)
{
	if (r && r->pid > 0) {
		tree_signal_all(&s->tree);
		if (!r->reaped)
			while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
				;
		tree_main_reaped(&s->tree);
		tree_kill(&s->tree);
		tree_end(&s->tree);
	}
	tree_release(&s->tree);
	_exit(0);
}

/* Read the signalfd; 1 when pmustat's death signal was among them. */
static int drain_signals(struct server *s)
{
	struct signalfd_siginfo si;
	int died = 0;

	while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		died |= si.ssi_signo == SIGHUP;
	return died;
}

/* Block until the socket is readable (0), or pmustat died (-1). */
static int await_socket(struct server *s)
{
	for (;;) {
		struct pollfd p[2] = { { s->sock, POLLIN, 0 }, { s->sigfd, POLLIN, 0 } };

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if ((p[1].revents & POLLIN) && drain_signals(s))
			return -1;
		if (p[0].revents)
			return 0;
	}
}

/* Split the payload into argv and envp arrays (pointers into payload);
 * what follows them is the stdin file, if any. */
static char *split_strings(char *payload, int nargv, int nenv, char **argv, char **envp)
{
	char *p = payload;

	for (int i = 0; i < nargv; i++, p += strlen(p) + 1)
		argv[i] = p;
	argv[nargv] = NULL;
	for (int i = 0; i < nenv; i++, p += strlen(p) + 1)
		envp[i] = p;
	if (nenv >= 0)
		envp[nenv] = NULL;
	return p;
}

/*
 * The child, from its start to its exec. It shares the server's memory and
 * the server waits (vfork: no page table is copied, which
 * is most of what a fork costs, more so in a virtual machine), so it talks
 * to pmustat itself: it reports its pid on the socket, and reads the go (or
 * kill) byte from it. What it has to tell the server it leaves in the
 * struct below, read once it has exec'd or exited. Until released it dies
 * with the server; every descriptor of the server's closes on exec.
 */
struct child {
	const struct server *s;
	const struct spawn_request *rq;
	char **argv, **envp;
	const char *input;
	const char *cwd;	/* chdir here before exec, or NULL */
	int stderr_fd;
	int join_fd;		/* the run cgroup's cgroup.procs, or -1 */
	/* Written by the child; volatile, because the compiler cannot know
	 * that the server's side of vfork() sees the child's stores. */
	volatile int joined;	/* it moved itself into the run's cgroup */
	volatile int sent;	/* it reported its pid to pmustat */
	volatile char got;	/* what pmustat sent: 'g', 'k', 0 = nothing */
	volatile int err;	/* errno of what failed before exec, or of exec */
	volatile uint64_t t0;	/* when it was released */
};

static void __attribute__((noreturn)) child_fail(struct child *c, int e)
{
	c->err = e;
	_exit(127);
}

/* Back to the signal state the server started with. */
static void child_signals(const struct server *s)
{
	struct sched_param normal = { 0 };

	/* The policy the server started with; the nice value is kept. */
	if (s->batch)
		sched_setscheduler(0, SCHED_OTHER, &normal);
	signal(SIGCHLD, SIG_DFL);
	sigaction(SIGPIPE, &s->orig_pipe, NULL);
	sigaction(SIGINT, &s->orig_int, NULL);
	sigaction(SIGTERM, &s->orig_term, NULL);
	sigprocmask(SIG_SETMASK, &s->orig_mask, NULL);
}

/* Released: set up stdio and CPU, exec. */
static void __attribute__((noreturn)) child_exec(struct child *c)
{
	const struct spawn_request *rq = c->rq;
	int devnull, in;

	if (rq->pin_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(rq->pin_cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			child_fail(c, errno);
	}
	if (c->cwd && chdir(c->cwd))
		child_fail(c, errno);
	devnull = open("/dev/null", O_RDWR);
	if (devnull < 0)
		child_fail(c, errno);
	/* Opened here, for every run: each one reads the file from its start. */
	in = c->input ? open(c->input, O_RDONLY) : devnull;
	if (in < 0)
		child_fail(c, errno);
	dup2(in, 0);
	if (in != devnull && in > 2)
		close(in);
	if (!rq->show_output) {
		dup2(rq->output_both && c->stderr_fd >= 0 ? c->stderr_fd : devnull, 1);
		if (c->stderr_fd >= 0)
			dup2(c->stderr_fd, 2);
	}
	if (devnull > 2)
		close(devnull);
	execvpe(c->argv[0], c->argv, rq->nenv >= 0 ? c->envp : environ);
	child_fail(c, errno);
}

static void __attribute__((noreturn)) child_main(struct child *c)
{
	const struct server *s = c->s;
	struct spawn_started started = { 0, 0 };
	char got;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != s->tree.self)
		_exit(127);	/* the server died before the line above */
	setpgid(0, 0);
	c->joined = c->join_fd >= 0 && write(c->join_fd, "0", 1) == 1;
	child_signals(s);
	if (c->rq->quick) {
		/* Its counters came with the fork: nothing to wait for. */
		got = 'g';
	} else {
		started.pid = getpid();
		if (proto_write(s->sock, &started, sizeof(started)))
			_exit(127);	/* pmustat is gone */
		if (proto_read(s->sock, &got, 1))
			_exit(127);	/* pmustat is gone */
	}
	c->sent = 1;
	c->got = got;
	if (got != 'g')
		_exit(127);	/* pmustat gave up on this run */
	c->t0 = now_ns();
	/* Released: from here on the run's fate is the server's business
	 * (tree.c), and the program starts with no death signal of ours. */
	prctl(PR_SET_PDEATHSIG, 0);
	child_exec(c);
}

/* vfork(): the child runs on the server's stack, below this frame, and
 * never returns here (child_main execs or exits). */
static pid_t start_child(struct child *c)
{
	pid_t pid = vfork();

	if (pid == 0)
		child_main(c);
	return pid;
}

/* A kill request: note what the run had besides its first process, then
 * kill all of it at once. */
static void run_kill(struct server *s, struct run *r)
{
	if (r->killed)
		return;
	r->killed = 1;
	r->nleft = tree_survey(&s->tree, &r->left);
	tree_names(r->left, r->nleft, r->names, sizeof(r->names));
	tree_signal_all(&s->tree);
}

static int try_reap(struct server *s, struct run *r)
{
	pid_t got;

	do
		got = wait4(r->pid, &r->fin.wait_status, WNOHANG, &r->fin.ru);
	while (got < 0 && errno == EINTR);
	if (got != r->pid)
		return 0;
	if (r->t0)
		r->fin.wall_ns = now_ns() - r->t0;
	r->reaped = 1;
	tree_main_reaped(&s->tree);
	return 1;
}

/* What the socket says while the child runs: 'k', or pmustat is gone. */
static void on_socket(struct server *s, struct run *r)
{
	char c;

	if (proto_read(s->sock, &c, 1))
		server_abandon(s, r);
	if (c == 'k')
		run_kill(s, r);
}

/* Wait for the first process to end: its exit, a kill request, or
 * pmustat's death, whichever comes. */
static void run_wait(struct server *s, struct run *r)
{
	while (!try_reap(s, r)) {
		struct pollfd p[2] = { { s->sock, POLLIN, 0 }, { s->sigfd, POLLIN, 0 } };

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			server_abandon(s, r);
		}
		if (p[0].revents)
			on_socket(s, r);
		if ((p[1].revents & POLLIN) && drain_signals(s))
			server_abandon(s, r);
	}
}

/* After the first process: what is left is killed, or let go on request;
 * a killed run was counted when the kill came. */
static void run_leftovers(struct server *s, struct run *r)
{
	if (!r->killed) {
		r->nleft = tree_survey(&s->tree, &r->left);
		tree_names(r->left, r->nleft, r->names, sizeof(r->names));
	}
	if (r->nleft && r->rq->keep_children && !r->killed) {
		tree_keep(&s->tree, r->left, r->nleft);
		r->fin.left_kept = 1;
	} else if (r->nleft || r->killed) {
		tree_kill(&s->tree);
	}
	tree_end(&s->tree);
	r->fin.left = (uint32_t)r->nleft;
	r->fin.names_len = (uint32_t)strlen(r->names);
}

/* Report the end, in one write: one wakeup of pmustat. A quick run's
 * spawn_started leads it (spawn_proto.h). pmustat's 'd' comes with its next
 * request. */
static void run_report(struct server *s, struct run *r)
{
	struct spawn_started started = { r->pid, 0 };
	char buf[sizeof(started) + sizeof(r->fin) + SPAWN_NAMES_MAX];
	size_t n = 0;

	if (r->rq->quick) {
		memcpy(buf, &started, sizeof(started));
		n = sizeof(started);
	}
	memcpy(buf + n, &r->fin, sizeof(r->fin));
	n += sizeof(r->fin);
	memcpy(buf + n, r->names, r->fin.names_len);
	n += r->fin.names_len;
	if (proto_write(s->sock, buf, n))
		server_abandon(s, NULL);
}

/* The child has exec'd, or exited unreleased or failing: go on from what
 * it left in c. */
static void run_child(struct server *s, struct run *r, const struct child *c)
{
	tree_begin(&s->tree, r->pid, c->joined);
	if (!c->sent) {
		/* It died before it could report itself (pmustat is gone, or
		 * it was killed): the start failed. */
		struct spawn_started failed = { 0, ECHILD };

		while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
			;
		tree_main_reaped(&s->tree);
		tree_end(&s->tree);
		if (proto_write(s->sock, &failed, sizeof(failed)))
			server_abandon(s, NULL);
		return;
	}
	/* A quick run's pid goes with its report (run_report): pmustat
	 * sleeps through the run, as a shell waiting for its child does. */
	if (c->got == 'g') {
		r->t0 = c->t0;
		r->fin.exec_errno = c->err;
	} else {
		run_kill(s, r);	/* pmustat asked, or the child died unreleased */
	}
	run_wait(s, r);
	run_leftovers(s, r);
	run_report(s, r);
}

/* One request: start the child (which reports itself and waits for go,
 * unless the request is quick), reap it, report. */
static void serve_one(struct server *s, const struct spawn_request *rq, char *payload,
		      int stderr_fd)
{
	char **argv = calloc((size_t)rq->nargv + 1, sizeof(char *));
	char **envp = calloc((size_t)(rq->nenv > 0 ? rq->nenv : 0) + 1, sizeof(char *));
	struct spawn_started started = { 0, 0 };
	struct run r = { .rq = rq };
	struct child c = { .s = s, .rq = rq, .argv = argv, .envp = envp, .stderr_fd = stderr_fd,
			   .join_fd = -1 };

	if (!argv || !envp) {
		started.err = ENOMEM;
		goto fail;
	}
	c.input = split_strings(payload, rq->nargv, rq->nenv, argv, envp);
	/* The strings after envp: the input file, then the directory. */
	c.cwd = rq->has_cwd ? (rq->has_input ? c.input + strlen(c.input) + 1 : c.input) : NULL;
	if (!rq->has_input)
		c.input = NULL;
	c.join_fd = tree_join_fd(&s->tree);
	r.pid = start_child(&c);
	if (r.pid < 0) {
		started.err = errno;
		goto fail;
	}
	run_child(s, &r, &c);
	free(r.left);
	goto out;
fail:
	if (proto_write(s->sock, &started, sizeof(started)))
		server_abandon(s, NULL);
out:
	free(argv);
	free(envp);
}

/* SCHED_BATCH: a woken server does not preempt what runs on its CPU. Without
 * it, pmustat's request woke the server onto pmustat's CPU and preempted
 * pmustat there, so that two tasks were runnable on that CPU when the server
 * forked the child, and the kernel put the child on another CPU: runs
 * alternated between CPUs, each wakeup crossed CPUs (measured: 2 migrations
 * per run against hyperfine's 0.05). Now pmustat goes to sleep first, and
 * the child starts where the server runs, as a shell's child does. Only from
 * the default policy: one a user chose (chrt) is left alone. */
static int server_batch(void)
{
	struct sched_param p = { 0 };

	return sched_getscheduler(0) == SCHED_OTHER && sched_setscheduler(0, SCHED_BATCH, &p) == 0;
}

static void server_init(struct server *s, int sock)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t set;

	memset(s, 0, sizeof(*s));
	s->sock = sock;
	/* Inherited across exec from pmustat on purpose; not further. */
	fcntl(sock, F_SETFD, FD_CLOEXEC);
	sigprocmask(SIG_SETMASK, NULL, &s->orig_mask);
	sigaction(SIGINT, &ign, &s->orig_int);
	sigaction(SIGTERM, &ign, &s->orig_term);
	sigaction(SIGPIPE, &ign, &s->orig_pipe);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->sigfd < 0)
		_exit(1);
	tree_init(&s->tree);
	s->batch = server_batch();
}

/* Up to the 'd' that opens a request, dropping a late 'k' before it; the
 * request's fd, if any, rides on that 'd'. 0, or -1 when pmustat is gone. */
static int await_request(struct server *s, int *fd)
{
	char c = 0;

	*fd = -1;
	while (c != 'd') {
		if (*fd >= 0)
			close(*fd);	/* not on a 'd': not ours to keep */
		if (await_socket(s) || proto_recv_fd(s->sock, &c, 1, fd))
			return -1;
		if (c != 'd' && c != 'k')
			return -1;	/* the stream is broken */
	}
	return 0;
}

void spawner_serve(int sock)
{
	struct server s;

	server_init(&s, sock);
	for (;;) {
		struct spawn_request rq;
		char *payload;
		int fd;

		if (await_request(&s, &fd) || proto_read(sock, &rq, sizeof(rq)) ||
		    rq.magic != SPAWN_MAGIC || rq.nargv < 1 || rq.nenv < -1)
			server_abandon(&s, NULL);	/* pmustat is gone, or the stream is broken */
		payload = malloc((size_t)rq.payload + 1);
		if (!payload || proto_read(sock, payload, rq.payload))
			server_abandon(&s, NULL);
		payload[rq.payload] = '\0';
		serve_one(&s, &rq, payload, fd);
		free(payload);
		if (fd >= 0)
			close(fd);
	}
}
