/*
 * fork + go-pipe + exec, and waiting with timeouts through the signalfd.
 * Between fork and exec the child only calls async-signal-safe functions.
 */
#include "run/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/strbuf.h"

extern char **environ;

uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void child_fail(int fd, int e)
{
	ssize_t r = write(fd, &e, sizeof(e));

	(void)r;
	_exit(127);
}

/* In the child: wait for the go byte, set up stdio, exec. Never returns. */
static void child_main(const struct spawn_opts *o, const struct sigwatch *sw, int go_rd,
		       int exec_wr, int stderr_fd)
{
	char c;
	ssize_t r;
	int devnull;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	sigaction(SIGINT, &sw->old_int, NULL);
	sigaction(SIGTERM, &sw->old_term, NULL);
	sigprocmask(SIG_SETMASK, &sw->old_mask, NULL);
	do
		r = read(go_rd, &c, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(127);	/* parent gave up on this run */
	if (o->pin_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(o->pin_cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			child_fail(exec_wr, errno);
	}
	close(go_rd);
	devnull = open("/dev/null", O_RDWR);
	if (devnull < 0)
		child_fail(exec_wr, errno);
	dup2(devnull, 0);
	if (!o->show_output) {
		dup2(devnull, 1);
		if (stderr_fd >= 0)
			dup2(stderr_fd, 2);
	}
	if (devnull > 2)
		close(devnull);
	execvpe(o->argv[0], o->argv, o->envp ? o->envp : environ);
	child_fail(exec_wr, errno);
}

int spawn_start(struct spawn *sp, const struct spawn_opts *o, const struct sigwatch *sw,
		struct error *err)
{
	int go[2], ex[2];

	memset(sp, 0, sizeof(*sp));
	sp->go_fd = sp->exec_fd = sp->stderr_fd = -1;
	if (pipe2(go, O_CLOEXEC) || pipe2(ex, O_CLOEXEC))
		return error_set(err, ERR_RUNTIME, "cannot create pipe: %s", strerror(errno));
	if (!o->show_output)
		sp->stderr_fd = memfd_create("pmustat-stderr", MFD_CLOEXEC);
	sp->pid = fork();
	if (sp->pid < 0) {
		error_set(err, ERR_RUNTIME, "cannot fork: %s", strerror(errno));
		close(go[0]); close(go[1]); close(ex[0]); close(ex[1]);
		return -1;
	}
	if (sp->pid == 0)
		child_main(o, sw, go[0], ex[1], sp->stderr_fd);
	/* Both sides call setpgid so the group exists whichever runs first. */
	setpgid(sp->pid, sp->pid);
	close(go[0]);
	close(ex[1]);
	sp->go_fd = go[1];
	sp->exec_fd = ex[0];
	return 0;
}

static void spawn_kill_group(struct spawn *sp)
{
	if (kill(-sp->pid, SIGKILL) && errno == ESRCH)
		kill(sp->pid, SIGKILL);
}

static int spawn_exec_errno(struct spawn *sp)
{
	int e = 0;
	ssize_t r;

	do
		r = read(sp->exec_fd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	return r == (ssize_t)sizeof(e) ? e : 0;
}

static void spawn_fill_status(struct spawn_result *res, int st)
{
	if (res->outcome == SPAWN_TIMEOUT || res->outcome == SPAWN_INTERRUPTED) {
		res->status = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
		return;
	}
	if (WIFSIGNALED(st)) {
		res->outcome = SPAWN_SIGNALED;
		res->status = WTERMSIG(st);
	} else {
		res->outcome = SPAWN_EXITED;
		res->status = WEXITSTATUS(st);
	}
}

static int wait_timeout_ms(uint64_t deadline)
{
	uint64_t now;

	if (!deadline)
		return -1;
	now = clock_now_ns();
	return now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
}

int spawn_run(struct spawn *sp, struct sigwatch *sw, double timeout_s,
	      struct spawn_result *res, struct error *err)
{
	uint64_t deadline = 0;
	int st = 0, e;
	pid_t got;

	memset(res, 0, sizeof(*res));
	res->outcome = SPAWN_EXITED;
	sp->t_start = clock_now_ns();
	if (timeout_s > 0)
		deadline = sp->t_start + (uint64_t)(timeout_s * 1e9);
	if (write(sp->go_fd, "g", 1) != 1)
		return error_set(err, ERR_RUNTIME, "cannot release the child: %s", strerror(errno));
	close(sp->go_fd);
	sp->go_fd = -1;
	e = spawn_exec_errno(sp);
	for (;;) {
		got = wait4(sp->pid, &st, WNOHANG, &res->ru);
		if (got == sp->pid)
			break;
		if (got < 0 && errno != EINTR)
			return error_set(err, ERR_RUNTIME, "cannot wait for the child: %s",
					 strerror(errno));
		if (sw->stop_signal || (deadline && clock_now_ns() >= deadline)) {
			res->outcome = sw->stop_signal ? SPAWN_INTERRUPTED : SPAWN_TIMEOUT;
			spawn_kill_group(sp);
			while (wait4(sp->pid, &st, 0, &res->ru) < 0 && errno == EINTR)
				;
			break;
		}
		sigwatch_wait(sw, wait_timeout_ms(deadline));
	}
	res->wall_ns = clock_now_ns() - sp->t_start;
	sp->pid = 0;
	if (e) {
		res->outcome = SPAWN_EXEC_FAILED;
		res->status = e;
		return 0;
	}
	spawn_fill_status(res, st);
	return 0;
}

void spawn_abort(struct spawn *sp)
{
	if (sp->pid > 0) {
		spawn_kill_group(sp);
		while (waitpid(sp->pid, NULL, 0) < 0 && errno == EINTR)
			;
		sp->pid = 0;
	}
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
	spawn_abort(sp);
	if (sp->go_fd >= 0)
		close(sp->go_fd);
	if (sp->exec_fd >= 0)
		close(sp->exec_fd);
	if (sp->stderr_fd >= 0)
		close(sp->stderr_fd);
	sp->go_fd = sp->exec_fd = sp->stderr_fd = -1;
}
