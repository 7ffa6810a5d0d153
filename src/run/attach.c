/*
 * The attach session (see attach.h). Counters are opened leader first on
 * each instance, all disabled, then enabled group by group, so no instance
 * starts counting while another is still being opened; the clock of the
 * first interval starts after the last enable. Reads never reset a counter:
 * the session keeps the previous reading and reports differences, which is
 * what perf stat -I does too (it reads the running totals and subtracts).
 */
#include "run/attach.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <unistd.h>

#include "core/strbuf.h"

#define FD(a, i, j) ((a)->fd[(i) * (a)->ninst + (j)])

/* Without counters to hang up, a task's end is checked this often. */
#define ALIVE_CHECK_MS 200

static int wanted(const struct attach_opts *o, size_t n, size_t i, size_t j)
{
	(void)n;
	return o->count_cmd || !o->where || o->where[i * o->ninst + j];
}

static void open_instance(struct attach *a, const struct attach_opts *o,
			  const struct event_spec *evs, const size_t *group, int *open_errno,
			  size_t j)
{
	/* Leaders first (k < nevents), then members: a member may be listed
	 * before its leader, whose descriptor it needs (backend/perf_event.c). */
	for (size_t k = 0; k < 2 * a->nevents; k++) {
		size_t i = k % a->nevents, lead = group ? group[i] : i;
		int gfd = -1, fd;

		if (lead == (size_t)-1 || (lead == i) != (k < a->nevents) ||
		    !wanted(o, a->nevents, i, j))
			continue;
		if (lead != i) {
			gfd = FD(a, lead, j);
			if (gfd < 0)
				continue;	/* its leader is not counted here */
		}
		fd = perf_open_attached(&evs[i], a->pid[j], a->cpu[j], gfd, 1);
		if (fd < 0 && !open_errno[i])
			open_errno[i] = errno;
		FD(a, i, j) = fd;
	}
}

int attach_open(struct attach *a, const struct attach_opts *o, const struct event_spec *evs,
		const size_t *group, size_t n, int *open_errno, struct spawner *server,
		struct sigwatch *sw, struct error *err)
{
	memset(a, 0, sizeof(*a));
	if (o->cmd.argv) {
		if (spawn_start(&a->sp, server, sw, &o->cmd, err))
			return -1;
		a->have_cmd = 1;
	}
	a->ninst = o->count_cmd ? 1 : o->ninst;
	a->nevents = n;
	a->pid = xcalloc(a->ninst + 1, sizeof(pid_t));
	a->cpu = xcalloc(a->ninst + 1, sizeof(int));
	a->hup = xcalloc(a->ninst + 1, sizeof(int));
	a->pidfd = xcalloc(a->ninst + 1, sizeof(int));
	a->fd = xcalloc(n * a->ninst + 1, sizeof(int));
	a->last = xcalloc(n * a->ninst + 1, sizeof(*a->last));
	for (size_t k = 0; k < n * a->ninst; k++)
		a->fd[k] = -1;
	for (size_t j = 0; j < a->ninst; j++) {
		a->pid[j] = o->count_cmd ? a->sp.pid : o->pids ? o->pids[j] : -1;
		a->cpu[j] = o->count_cmd || o->pids ? -1 : o->cpus[j];
		/* The command's end is the spawn server's to report. */
		a->pidfd[j] = o->count_cmd || a->pid[j] < 0 ? -1
			      : (int)syscall(SYS_pidfd_open, a->pid[j], 0);
	}
	memset(open_errno, 0, n * sizeof(int));
	for (size_t j = 0; j < a->ninst; j++)
		open_instance(a, o, evs, group, open_errno, j);
	/* An event that opened somewhere counts: a thread that exited while
	 * we opened is no failure of the event. */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < a->ninst; j++)
			if (FD(a, i, j) >= 0)
				open_errno[i] = 0;
	/* The clock starts before the first enable and each read stops it after
	 * the last read, so no counter's time_enabled exceeds the first run's
	 * wall time. */
	a->t_last = clock_now_ns();
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < a->ninst; j++)
			if (FD(a, i, j) >= 0 && (!group || group[i] == i))
				perf_enable_group(FD(a, i, j));
	if (a->have_cmd && spawn_go(&a->sp, err))
		return -1;
	return 0;
}

/* A task without a pidfd: gone when /proc no longer has it, or it is a
 * zombie (dead, not reaped yet). */
static int task_gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the state follows the command name */
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

static int unwatched(const struct attach *a, size_t j)
{
	return a->pid[j] >= 0 && a->pidfd[j] < 0 && !a->hup[j] &&
	       !(a->have_cmd && a->pid[j] == a->sp.pid);
}

static int check_unwatched(struct attach *a)
{
	int any = 0;

	for (size_t j = 0; j < a->ninst; j++)
		if (unwatched(a, j) && task_gone(a->pid[j]))
			any = a->hup[j] = 1;
	return any;
}

static int timeout_ms(uint64_t until, int unwatched)
{
	uint64_t now = clock_now_ns();
	int ms = -1;

	if (until)
		ms = now >= until ? 0 : (int)((until - now + 999999) / 1000000);
	if (unwatched && (ms < 0 || ms > ALIVE_CHECK_MS))
		ms = ALIVE_CHECK_MS;
	return ms;
}

enum attach_wake attach_wait(struct attach *a, struct sigwatch *sw, uint64_t until)
{
	struct pollfd *p = xcalloc(a->ninst + 2, sizeof(*p));
	enum attach_wake wake = ATTACH_TIME;

	for (;;) {
		size_t np = 0, first_inst;
		int unw = 0, r;

		if (sw->stop_signal) {	/* came while the last run was recorded */
			wake = ATTACH_STOP;
			break;
		}
		p[np++] = (struct pollfd){ sw->fd, POLLIN, 0 };
		if (a->have_cmd && !a->cmd_over)
			p[np++] = (struct pollfd){ spawn_fd(&a->sp), POLLIN, 0 };
		first_inst = np;
		for (size_t j = 0; j < a->ninst; j++) {
			int fd = a->hup[j] ? -1 : a->pidfd[j];

			unw |= unwatched(a, j);
			/* poll() ignores negative fds: one slot per instance. */
			p[np++] = (struct pollfd){ fd, POLLIN, 0 };
		}
		r = poll(p, np, timeout_ms(until, unw));
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (p[0].revents & POLLIN)) {
			sigwatch_poll(sw);
			if (sw->stop_signal) {
				wake = ATTACH_STOP;
				break;
			}
		}
		/* Exits first: a task and the command may end together. */
		r = 0;
		for (size_t j = 0; j < a->ninst; j++)
			if (p[first_inst + j].revents & (POLLIN | POLLHUP | POLLERR))
				r = a->hup[j] = 1;
		if (first_inst == 2 && p[1].revents) {
			struct error err;

			a->cmd_over = 1;
			if (spawn_collect(&a->sp, 0, &a->cmd_res, &err))
				a->cmd_res.outcome = SPAWN_INTERRUPTED;
			wake = ATTACH_CMD_EXITED;
			break;
		}
		if (r || (unw && check_unwatched(a))) {
			wake = ATTACH_TASK_EXITED;
			break;
		}
		if (until && clock_now_ns() >= until)
			break;
	}
	free(p);
	return wake;
}

static void add_reading(struct perf_reading *sum, const struct perf_reading *d)
{
	sum->value += d->value;
	sum->enabled += d->enabled;
	sum->running += d->running;
}

void attach_read(struct attach *a, struct perf_reading *r, int *ok, struct perf_reading *per,
		 int *per_ok, uint64_t *wall_ns)
{
	uint64_t now;

	memset(r, 0, a->nevents * sizeof(*r));
	memset(ok, 0, a->nevents * sizeof(int));
	if (per) {
		memset(per, 0, a->nevents * a->ninst * sizeof(*per));
		memset(per_ok, 0, a->nevents * a->ninst * sizeof(int));
	}
	for (size_t i = 0; i < a->nevents; i++)
		for (size_t j = 0; j < a->ninst; j++) {
			struct perf_reading cur, d, *last = &a->last[i * a->ninst + j];

			if (FD(a, i, j) < 0 || perf_read_fd(FD(a, i, j), &cur))
				continue;
			d.value = cur.value - last->value;
			d.enabled = cur.enabled - last->enabled;
			d.running = cur.running - last->running;
			*last = cur;
			add_reading(&r[i], &d);
			if (per) {
				per[i * a->ninst + j] = d;
				per_ok[i * a->ninst + j] = 1;
			}
			ok[i] = 1;
		}
	now = clock_now_ns();
	*wall_ns = now - a->t_last;
	a->t_last = now;
}

void attach_close(struct attach *a, struct error *err)
{
	if (a->have_cmd && !a->cmd_over) {
		if (spawn_collect(&a->sp, 1, &a->cmd_res, err))
			a->cmd_res.outcome = SPAWN_INTERRUPTED;
		a->cmd_over = 1;
	}
	if (a->have_cmd)
		spawn_release(&a->sp);
	for (size_t k = a->nevents * a->ninst; k-- > 0;)
		if (a->fd && a->fd[k] >= 0)
			close(a->fd[k]);
	free(a->pid);
	free(a->cpu);
	for (size_t j = 0; a->pidfd && j < a->ninst; j++)
		if (a->pidfd[j] >= 0)
			close(a->pidfd[j]);
	free(a->pidfd);
	free(a->hup);
	free(a->fd);
	free(a->last);
	memset(a, 0, sizeof(*a));
}
