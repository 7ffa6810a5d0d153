/*
 * signalfd-based signal handling (see sigwatch.h for why). A stop request is
 * sticky: once SIGINT or SIGTERM arrived the campaign finishes the bookkeeping
 * of the current run, writes its outputs and exits 130.
 */
#include "run/sigwatch.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

int sigwatch_init(struct sigwatch *sw, struct error *err)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sw->stop_signal = 0;
	sw->stops = 0;
	/* A shell starts background jobs with SIGINT ignored, and an ignored
	 * signal is discarded even while blocked: take the default so an explicit
	 * `kill -INT` reaches the signalfd. (It stays blocked, so the default
	 * action never runs.) */
	sigaction(SIGINT, &(struct sigaction){ .sa_handler = SIG_DFL }, &sw->old_int);
	sigaction(SIGTERM, &(struct sigaction){ .sa_handler = SIG_DFL }, &sw->old_term);
	if (sigprocmask(SIG_BLOCK, &set, &sw->old_mask))
		return error_set(err, ERR_RUNTIME, "cannot block signals: %s", strerror(errno));
	sw->fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sw->fd < 0) {
		sigprocmask(SIG_SETMASK, &sw->old_mask, NULL);
		return error_set(err, ERR_RUNTIME, "cannot create signalfd: %s", strerror(errno));
	}
	return 0;
}

void sigwatch_release(struct sigwatch *sw)
{
	if (sw->fd >= 0)
		close(sw->fd);
	sw->fd = -1;
	sigaction(SIGINT, &sw->old_int, NULL);
	sigaction(SIGTERM, &sw->old_term, NULL);
	sigprocmask(SIG_SETMASK, &sw->old_mask, NULL);
}

static int sigwatch_read(struct sigwatch *sw)
{
	struct signalfd_siginfo si;

	if (read(sw->fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return 0;
	if (si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM) {
		sw->stops++;
		if (!sw->stop_signal)
			sw->stop_signal = (int)si.ssi_signo;
	}
	return (int)si.ssi_signo;
}

int sigwatch_wait(struct sigwatch *sw, int timeout_ms)
{
	struct pollfd p = { .fd = sw->fd, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return 0;
	return sigwatch_read(sw);
}

void sigwatch_poll(struct sigwatch *sw)
{
	while (sigwatch_read(sw))
		;
}
