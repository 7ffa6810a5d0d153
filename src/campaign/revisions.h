/*
 * Revisions: commits of the user's repository checked out and built, for
 * every command that measures commits (bisect; compare --rev and ci next).
 * Each commit gets a detached git worktree of its own, DIR/worktrees/SHA,
 * made with `git worktree add` and built there with the --build command;
 * the build is cached by commit (DIR/builds/SHA.status, its output in
 * DIR/builds/SHA.log). git and the build are commands run with their own
 * argv (no shell reads a revision or a path).
 *
 * Invariants:
 *
 *  - Only what pmustat made is touched in the user's repository: worktrees
 *    under DIR/worktrees/ and git's entries for them. `git worktree prune`
 *    is never run (it forgets the user's worktrees whose directory is
 *    away, e.g. on an unmounted disk). git keeps a linked worktree's entry
 *    in $(git rev-parse --git-common-dir)/worktrees/<id>, whose `gitdir`
 *    file holds the absolute path of the worktree's .git file
 *    (Documentation/gitrepository-layout, git 2.39); an entry is ours when
 *    that path is under DIR/worktrees/, or, left without `gitdir` by a
 *    `worktree add` killed early, when <id> is our commit's hash (git names
 *    it after the path's basename, adding digits when the name is taken:
 *    builtin/worktree.c, add_worktree()).
 *
 *  - A worktree is reused only when known complete: DIR/worktrees/SHA.done
 *    is written after `git worktree add` succeeded and the worktree was
 *    checked (its top level is the path itself, not an enclosing
 *    repository, and HEAD is the commit). Anything else of ours there (a
 *    `worktree add` killed halfway, an empty directory, an entry of git's
 *    without `commondir`) is removed, and the worktree made again.
 *
 *  - A successful build is reused only in the worktree it was made in (a
 *    worktree made again is built again). A failed build is remembered by
 *    this process only: a rerun tries it again (the failure may have been
 *    a full disk, the OOM killer, a Ctrl-C). A build that timed out is not
 *    remembered at all.
 *
 *  - Builds are supervised: they run through the spawn server
 *    (run/spawn.h), in a process group and cgroup of their own; what a
 *    build leaves behind (a daemon, `sleep &`) is killed when it ends, and
 *    all of it when it times out, is interrupted, or pmustat dies (kill -9
 *    included).
 *
 *  - One build per commit at a time: the build's log, DIR/builds/SHA.log,
 *    is flock'ed before the worktree is touched, and the build's stdout and
 *    stderr are that same open file, so the lock is held until the last
 *    process of the build is gone, not only pmustat (a pmustat killed with
 *    -9 releases its own descriptor at once, while the spawn server is
 *    still killing its build).
 *
 * Errors are values: one line in git's grammar (quoting git's "fatal:"
 * line, never its progress line) plus a hint.
 */
#ifndef PMU_CAMPAIGN_REVISIONS_H
#define PMU_CAMPAIGN_REVISIONS_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

struct revisions_opts {
	const char *build;		/* the build command, or NULL: none */
	int shell;			/* run it as 'sh -c BUILD' (else split into words) */
	double build_timeout_s;		/* kill a build after this long (0: never) */
	/* A line for the terminal ("building ..."), or NULL. */
	void (*say)(const char *line, void *data);
	void *say_data;
};

struct revisions {
	struct revisions_opts o;
	char *top;			/* the user's work tree */
	char *dir;			/* the results directory (absolute, resolved) */
	char *common;			/* git's common directory (absolute) */
	struct revision_failed {	/* builds that failed in this process */
		char sha[41];
		int exit_code;
	} *failed;
	size_t nfailed, failed_alloc;
};

enum revision_build {
	REVISION_UNBUILT,		/* no build command */
	REVISION_BUILT,			/* built now */
	REVISION_CACHED,		/* built before, in this same worktree */
	REVISION_FAILED,		/* the build failed: exit_code */
	REVISION_TIMED_OUT,		/* killed after build_timeout_s */
};

struct revision {
	enum revision_build build;
	int exit_code;			/* the build's exit code (128 + signal), or -1 */
	char *log;			/* "builds/SHA.log" (relative to dir), or NULL */
	int submodules;			/* the commit has a .gitmodules: none is checked out */
};

/*
 * Set up for the repository whose work tree is top, with dir (which must
 * exist, with builds/ and worktrees/ in it) as the results directory.
 * Release with revisions_release.
 */
int revisions_init(struct revisions *r, const char *top, const char *dir,
		   const struct revisions_opts *o, struct error *err);
void revisions_release(struct revisions *r);

/*
 * The commit sha (40 hex) checked out in its worktree and built (when
 * there is a build command): reused when complete, made (again) otherwise.
 * label names the commit in the line said before a build (NULL: sha).
 * A build that fails or times out is an outcome in out, not an error.
 * 0; 1 when a SIGINT or SIGTERM stopped the build (the build is killed; out
 * says nothing); -1 with err when the worktree could not be made, the
 * build not started, or another process still builds this commit.
 */
int revisions_prepare(struct revisions *r, const char *sha, const char *label,
		      struct revision *out, struct error *err);
void revision_release(struct revision *v);

/* The path of sha's worktree, DIR/worktrees/SHA (malloc'd; it may not
 * exist). */
char *revisions_worktree(const struct revisions *r, const char *sha);

/* The last lines of sha's build log (at most 6) appended to out. */
void revisions_log_tail(const struct revisions *r, const char *sha, struct strbuf *out);

/*
 * Remove sha's worktree — its directory, git's entry for it, its marker —
 * whatever state it is in (complete, half made, its directory gone); what
 * was built in it goes with it, its build log stays. A commit with no
 * worktree is not an error. -1 with err when it could not be removed, or
 * its build still runs.
 */
int revisions_remove(struct revisions *r, const char *sha, struct error *err);

/* Remove every worktree of ours: those under DIR/worktrees/, and git's
 * entries that name a path there. Best effort: what cannot be removed is
 * left. */
void revisions_remove_all(struct revisions *r);

#endif
