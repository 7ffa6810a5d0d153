/*
 * A short helper command run to completion, its output captured: what git
 * is to `pmustat bisect` and the revisions module (campaign/revisions.h).
 * It is forked and exec'd with its own argv (no shell reads a revision or a
 * path), with stdin from /dev/null; stdout and stderr are kept apart, so
 * that a caller parses the one and quotes the other. Not for what is
 * measured or built: those run through the spawn server (run/spawn.h).
 */
#ifndef PMU_RUN_COMMAND_H
#define PMU_RUN_COMMAND_H

#include "core/error.h"
#include "core/strbuf.h"

/*
 * Run argv in dir (NULL: here), argv[0] looked up in PATH. stdout is
 * appended to out and stderr to errout (either may be NULL: discarded).
 * *status is the exit code, or 128 + the signal (127: it could not be
 * exec'd). -1 with err only when it could not be started or waited for.
 * The command is killed if pmustat dies first (its death signal).
 */
int command_capture(const char *dir, char *const *argv, struct strbuf *out,
		    struct strbuf *errout, int *status, struct error *err);

/*
 * The same, the descriptors of keep (ended by -1) left open in the command
 * and so in everything it starts: a lock held on one of them lasts until
 * the last of those processes is gone. The command itself is killed when
 * pmustat dies (SIGKILL as its death signal); what it started is not.
 */
int command_capture_keeping(const char *dir, char *const *argv, const int *keep,
			    struct strbuf *out, struct strbuf *errout, int *status,
			    struct error *err);

/* The line of errout to quote in a message: git's "fatal:" (or "error:")
 * line when there is one, else the last non-empty line, else "said
 * nothing" (so a progress line such as "Preparing worktree ..." printed
 * before the failure is not taken for its cause). Points into errout,
 * which it may modify. */
const char *command_failure_line(struct strbuf *errout);

#endif
