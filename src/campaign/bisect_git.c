/*
 * git, for `pmustat bisect` (bisect_git.h). Every command is
 * a fork and exec with its own argv, so a revision or a path is never read
 * by a shell; git's output is parsed in its porcelain or --format forms,
 * which do not change with the user's configuration or language. stderr is
 * kept so that a failure can quote git's own words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/bisect_git.h"
#include "run/command.h"

/* git ARGS in top: stdout into out (trailing newline dropped); the status. */
static int git(const char *top, const char *const *args, struct strbuf *out,
	       struct strbuf *errout, int *status, struct error *err)
{
	const char *argv[16] = { "git" };
	size_t n = 1;

	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	if (command_capture(top, (char *const *)argv, out, errout, status, err))
		return -1;
	while (out && out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
	return 0;
}

int git_toplevel(char **top, struct error *err)
{
	struct strbuf out = STRBUF_INIT, e = STRBUF_INIT;
	int st, rc = 0;

	*top = NULL;
	if (git(NULL, (const char *[]){ "rev-parse", "--show-toplevel", NULL }, &out, &e, &st,
		err)) {
		error_hint(err, "install git (apt-get install git)");
		rc = -1;
	} else if (st == 127) {
		error_set(err, ERR_USAGE, "cannot run 'git'");
		error_hint(err, "install git (apt-get install git)");
		rc = -1;
	} else if (st || !out.len) {
		error_set(err, ERR_USAGE, "not a git repository (or not inside its work tree)");
		error_hint(err, "run 'pmustat bisect' inside the work tree of the repository to "
				"search, e.g. cd ~/src/project");
		rc = -1;
	} else {
		*top = strbuf_detach(&out);
	}
	strbuf_release(&out);
	strbuf_release(&e);
	return rc;
}

int git_resolve(const char *top, const char *rev, const char *what, char sha[41],
		struct error *err)
{
	struct strbuf out = STRBUF_INIT, spec = STRBUF_INIT;
	int st, rc = 0;

	strbuf_addf(&spec, "%s^{commit}", rev);
	/* "--end-of-options": a revision that starts with '-' is a name. */
	if (git(top, (const char *[]){ "rev-parse", "--verify", "--quiet", "--end-of-options",
				       spec.buf, NULL }, &out, NULL, &st, err))
		rc = -1;
	else if (st || out.len != 40) {
		error_set(err, ERR_USAGE, "%s '%s' is not a commit in this repository", what, rev);
		error_hint(err, "name a commit git knows: 'git log --oneline' lists them "
				"(a branch, a tag, HEAD~20, or a hash)");
		rc = -1;
	} else {
		memcpy(sha, out.buf, 41);
	}
	strbuf_release(&out);
	strbuf_release(&spec);
	return rc;
}

int git_check_clean(const char *top, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	int st, rc = 0;

	if (git(top, (const char *[]){ "status", "--porcelain", "--untracked-files=no", NULL },
		&out, NULL, &st, err))
		rc = -1;
	else if (st) {
		error_set(err, ERR_RUNTIME, "cannot read the work tree's status (git status "
			  "exited with %d)", st);
		rc = -1;
	} else if (out.len) {
		char *nl = strchr(out.buf, '\n');

		if (nl)
			*nl = '\0';
		error_set(err, ERR_USAGE, "the work tree has uncommitted changes ('%s')",
			  out.len > 3 ? out.buf + 3 : out.buf);
		error_hint(err, "commit or stash them first (git stash), so that every "
				"candidate is built from its commit alone");
		rc = -1;
	}
	strbuf_release(&out);
	return rc;
}

int git_is_ancestor(const char *top, const char *a, const char *b, struct error *err)
{
	int st;

	if (git(top, (const char *[]){ "merge-base", "--is-ancestor", a, b, NULL }, NULL, NULL,
		&st, err))
		return -1;
	if (st > 1)
		return error_set(err, ERR_RUNTIME, "git merge-base --is-ancestor exited with %d",
				 st);
	return st == 0;
}

/* "H h subject" -> c. */
static int parse_commit_line(char *line, struct bisect_rec_commit *c)
{
	char *sp = strchr(line, ' '), *sp2;

	memset(c, 0, sizeof(*c));
	if (!sp || sp - line != 40)
		return -1;
	memcpy(c->sha, line, 40);
	sp2 = strchr(sp + 1, ' ');
	if (!sp2 || (size_t)(sp2 - sp - 1) >= sizeof(c->abbrev))
		return -1;
	memcpy(c->abbrev, sp + 1, (size_t)(sp2 - sp - 1));
	c->subject = xstrdup(sp2 + 1);
	return 0;
}

static int parse_commits(struct strbuf *out, struct bisect_rec_commit **cs, size_t *n,
			 struct error *err)
{
	size_t alloc = 0;
	char *save = NULL;

	*cs = NULL;
	*n = 0;
	for (char *l = strtok_r(out->buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		ALLOC_GROW(*cs, *n + 1, alloc);
		if (parse_commit_line(l, &(*cs)[*n]))
			return error_set(err, ERR_RUNTIME, "cannot read git's list of commits "
					 "('%.60s')", l);
		(*n)++;
	}
	return 0;
}

int git_range(const char *top, const char *good, const char *bad, struct bisect_rec_commit **out,
	      size_t *n, int *merges, struct error *err)
{
	struct strbuf list = STRBUF_INIT, m = STRBUF_INIT, range = STRBUF_INIT;
	int st, rc;

	strbuf_addf(&range, "%s..%s", good, bad);
	rc = git(top, (const char *[]){ "log", "--reverse", "--topo-order", "--ancestry-path",
					"--format=%H %h %s", range.buf, NULL }, &list, NULL, &st,
		 err);
	if (!rc && st)
		rc = error_set(err, ERR_RUNTIME, "git log exited with %d", st);
	if (!rc)
		rc = parse_commits(&list, out, n, err);
	if (!rc)
		rc = git(top, (const char *[]){ "rev-list", "--merges", "--count", "--ancestry-path",
					        range.buf, NULL }, &m, NULL, &st, err);
	*merges = !rc && atoi(m.buf) > 0;
	strbuf_release(&list);
	strbuf_release(&m);
	strbuf_release(&range);
	return rc;
}

int git_describe(const char *top, const char *sha, struct bisect_rec_commit *c, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	int st, rc;

	rc = git(top, (const char *[]){ "log", "-1", "--format=%H %h %s", sha, NULL }, &out, NULL,
		 &st, err);
	if (!rc && (st || parse_commit_line(out.buf, c)))
		rc = error_set(err, ERR_RUNTIME, "cannot read commit %s", sha);
	strbuf_release(&out);
	return rc;
}
