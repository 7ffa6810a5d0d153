/*
 * `pmustat bisect`: the first commit between a good and a bad revision that
 * changed a metric, decided with the compare engine (campaign/bisect.c).
 * The premise (good against bad) is one comparison; each candidate is one
 * comparison of three variants (the candidate, good and bad, in the same
 * randomized blocks) under the same stopping rule; the culprit is compared
 * with its parent at the end (with --profile: where the difference is).
 * Each candidate is checked out in a detached worktree of its own in the
 * results directory and built there; decided steps are journalled, so a
 * rerun with the same arguments resumes.
 */
#ifndef PMU_CAMPAIGN_BISECT_H
#define PMU_CAMPAIGN_BISECT_H

#include <stdint.h>

#include "campaign/campaign.h"
#include "core/error.h"
#include "result/bisect.h"

struct bisect_opts {
	const char *good, *bad;		/* revisions as given */
	const char *build;		/* --build command, or NULL */
	int shell;			/* --shell: the build is 'sh -c BUILD' */
	double build_timeout_s;		/* --build-timeout: a longer build is killed, skipped (0: none) */
	const char *metrics;		/* -m list, or NULL */
	const char *primary;		/* --primary, or NULL: -m's first, else wall-time */
	double max_time_s;		/* budget of each comparison (0: compare's 300 s) */
	int profile;			/* --profile: the culprit against its parent, profiled */
	const char *dir;		/* results directory */
	char *const *argv;		/* the measured command */
	uint64_t seed;
	int keep_worktrees;
	int first_parent;		/* --first-parent: bad's first-parent line only */
	double timeout_s;		/* --timeout of every run (0: from the premise) */
	/* One line per event of the search (a step decided, a build skipped),
	 * for the terminal; and the campaign's progress per run. */
	void (*say)(const char *line, void *data);
	void *say_data;
	void (*progress)(const struct campaign_progress *p, void *data);
};

/* An exact count (call counters, allocations, simulated counts): the same in
 * every run of a deterministic program, so a few blocks decide. */
int bisect_metric_exact(const char *name);

/*
 * Check the inputs (a git work tree without uncommitted changes; both
 * revisions commits; good != bad; good an ancestor of bad), then search,
 * resuming from the journal in o->dir when one of the same arguments is
 * there. b is filled as far as the search went (also on error and
 * interrupt) and written to DIR/bisect.json after every step. -1 with err
 * for bad input (ERR_USAGE) or a failure (ERR_RUNTIME); otherwise 0, with
 * b->outcome saying how it ended.
 */
int bisect_run(const struct bisect_opts *o, struct bisect_result *b, struct error *err);

#endif
