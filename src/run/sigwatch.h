/*
 * Signals as file descriptors. While a campaign runs, SIGINT, SIGTERM and
 * SIGCHLD are blocked and delivered through a signalfd, so waiting for a child,
 * a timeout and a Ctrl-C are one poll() with no handler and no global flag.
 * Children get the original mask back before exec.
 */
#ifndef PMU_RUN_SIGWATCH_H
#define PMU_RUN_SIGWATCH_H

#include <signal.h>

#include "core/error.h"

struct sigwatch {
	int fd;			/* signalfd for INT, TERM, CHLD */
	sigset_t old_mask;	/* restore in children and on release */
	struct sigaction old_int, old_term;	/* dispositions to restore */
	int stop_signal;	/* first SIGINT/SIGTERM seen, 0 if none */
	int stops;		/* SIGINT/SIGTERM seen in all */
};

int sigwatch_init(struct sigwatch *sw, struct error *err);
void sigwatch_release(struct sigwatch *sw);

/*
 * Wait up to timeout_ms (-1 = forever) for a signal; returns the signal number
 * read, 0 on timeout. Records SIGINT/SIGTERM in stop_signal.
 */
int sigwatch_wait(struct sigwatch *sw, int timeout_ms);

/* Drain pending signals without blocking (records stop requests). */
void sigwatch_poll(struct sigwatch *sw);

#endif
