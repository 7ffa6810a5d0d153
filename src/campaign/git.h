/*
 * What the campaign asks of git about a repository (bisect now; compare
 * --rev and ci next), each a command run with fork and exec (no shell, no
 * libgit2): the work tree's top level, a revision resolved to a commit,
 * whether the tree has uncommitted changes, ancestry, the commits between
 * two revisions with their parents. Worktrees and builds are the revisions
 * module's (campaign/revisions.h), which runs git through git_cmd too.
 * Errors are values: one line in git's grammar plus a hint.
 */
#ifndef PMU_CAMPAIGN_GIT_H
#define PMU_CAMPAIGN_GIT_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "analysis/bisect.h"
#include "result/bisect.h"

/* git ARGS (NULL-terminated, at most 14) in dir: stdout into out (may be
 * NULL; its trailing newlines dropped), stderr into errout (may be NULL),
 * *status git's exit code. -1 with err only when git could not be run. */
int git_cmd(const char *dir, const char *const *args, struct strbuf *out,
	    struct strbuf *errout, int *status, struct error *err);

/* The same, keep's descriptors (ended by -1) inherited by git and all it
 * starts (run/command.h): a lock on one lasts as long as they do. */
int git_cmd_keeping(const char *dir, const char *const *args, const int *keep,
		    struct strbuf *out, struct strbuf *errout, int *status, struct error *err);

/* The top level of the work tree cwd is in (malloc'd), or -1 with a usage
 * error: not a git repository. */
int git_toplevel(char **top, struct error *err);

/* rev -> its commit (40 hex), or -1 with a usage error naming rev. what is
 * the option it came from ("--good"). */
int git_resolve(const char *top, const char *rev, const char *what, char sha[41],
		struct error *err);

/* Tracked files with uncommitted changes: -1 with a usage error naming
 * the first of them. Untracked files do not count. */
int git_check_clean(const char *top, struct error *err);

/* Is a an ancestor of b: 1, 0, or -1 with err. */
int git_is_ancestor(const char *top, const char *a, const char *b, struct error *err);

/* The commits to search: those reachable from bad and not from good
 * (`git rev-list bad ^good`; first_parent: bad's first-parent line only),
 * parents before children, bad the last; the dag of their parents in the
 * range, each one's first parent (any commit), and how many are merges. */
struct git_range {
	struct bisect_rec_commit *c;
	size_t n;
	struct bisect_dag dag;
	char (*first_parent)[41];	/* "" for a root commit */
	size_t *nparents;		/* all of each one's parents */
	size_t merges;
};

int git_range(const char *top, const char *good, const char *bad, int first_parent,
	      struct git_range *r, struct error *err);
void git_range_release(struct git_range *r);

/* The best common ancestor of a and b into sha ("" when they have none). */
int git_merge_base(const char *top, const char *a, const char *b, char sha[41],
		   struct error *err);

/* The abbreviation and subject of sha. */
int git_describe(const char *top, const char *sha, struct bisect_rec_commit *c, struct error *err);

#endif
