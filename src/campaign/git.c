/*
 * git's answers about a repository (git.h). Every command is
 * a fork and exec with its own argv, so a revision or a path is never read
 * by a shell; git's output is parsed in its porcelain or --format forms,
 * with the settings that would change them fixed on the command line
 * (git_fixed), so neither the user's configuration nor language does. stderr is
 * kept so that a failure can quote git's own words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/git.h"
#include "core/strmap.h"
#include "run/command.h"

/*
 * Before every command: no optional locks (git status would refresh the
 * user's index and take index.lock, failing a commit the user makes at
 * that moment), and the user's configuration kept out of what is parsed:
 * %h at git's own length (core.abbrev may ask for 40; the records hold
 * 15), no signatures in git log's output (log.showSignature), no colour.
 */
static const char *const git_fixed[] = { "git", "--no-optional-locks", "-c", "core.abbrev=auto",
					 "-c", "log.showSignature=false", "-c", "color.ui=never" };
#define NFIXED (sizeof(git_fixed) / sizeof(git_fixed[0]))

int git_cmd_keeping(const char *top, const char *const *args, const int *keep,
		    struct strbuf *out, struct strbuf *errout, int *status, struct error *err)
{
	const char *argv[NFIXED + 16];
	size_t n = NFIXED;

	memcpy(argv, git_fixed, sizeof(git_fixed));
	for (; *args && n < NFIXED + 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	if (command_capture_keeping(top, (char *const *)argv, keep, out, errout, status, err))
		return -1;
	while (out && out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
	return 0;
}

int git_cmd(const char *top, const char *const *args, struct strbuf *out,
	    struct strbuf *errout, int *status, struct error *err)
{
	return git_cmd_keeping(top, args, NULL, out, errout, status, err);
}

int git_toplevel(char **top, struct error *err)
{
	struct strbuf out = STRBUF_INIT, e = STRBUF_INIT;
	int st, rc = 0;

	*top = NULL;
	if (git_cmd(NULL, (const char *[]){ "rev-parse", "--show-toplevel", NULL }, &out, &e, &st,
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
	if (git_cmd(top, (const char *[]){ "rev-parse", "--verify", "--quiet", "--end-of-options",
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

	if (git_cmd(top, (const char *[]){ "status", "--porcelain", "--untracked-files=no", NULL },
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

	if (git_cmd(top, (const char *[]){ "merge-base", "--is-ancestor", a, b, NULL }, NULL, NULL,
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

/* Room for a line's parents, before the range's indices are known. */
struct parents_text {
	char **text;		/* per commit: its parents' hashes, space-separated */
	size_t alloc;
};

/* "H h P1 P2\x1fsubject" -> c and the parents' text. */
static int parse_range_line(char *line, struct bisect_rec_commit *c, char **parents)
{
	char *us = strchr(line, '\x1f'), *sp, *sp2;

	memset(c, 0, sizeof(*c));
	sp = strchr(line, ' ');
	if (!us || !sp || sp - line != 40 || sp > us)
		return -1;
	sp2 = strchr(sp + 1, ' ');
	if (!sp2 || sp2 > us || (size_t)(sp2 - sp - 1) >= sizeof(c->abbrev))
		return -1;
	memcpy(c->sha, line, 40);
	memcpy(c->abbrev, sp + 1, (size_t)(sp2 - sp - 1));
	*parents = xstrndup(sp2 + 1, (size_t)(us - sp2 - 1));
	c->subject = xstrdup(us + 1);
	return 0;
}

/* Each commit's parents in the range, as indices: the dag. A parent
 * outside it is an ancestor of good. first_parent: the first one only. */
static void link_parents(struct git_range *r, char **parents, int first_parent)
{
	struct strmap at = STRMAP_INIT;
	size_t alloc = 0, k = 0;

	for (size_t i = 0; i < r->n; i++)
		strmap_put(&at, r->c[i].sha, 40, i);
	r->dag.n = r->n;
	r->dag.first = xcalloc(r->n + 1, sizeof(*r->dag.first));
	r->first_parent = xcalloc(r->n ? r->n : 1, sizeof(*r->first_parent));
	r->nparents = xcalloc(r->n ? r->n : 1, sizeof(*r->nparents));
	for (size_t i = 0; i < r->n; i++) {
		char *save = NULL;
		int nth = 0;

		r->dag.first[i] = k;
		for (char *p = strtok_r(parents[i], " ", &save); p;
		     p = strtok_r(NULL, " ", &save), nth++) {
			size_t j;

			if (!nth && strlen(p) == 40)
				memcpy(r->first_parent[i], p, 41);
			r->nparents[i]++;
			if ((first_parent && nth) || strmap_get(&at, p, strlen(p), &j) || j >= i)
				continue;
			ALLOC_GROW(r->dag.par, k + 1, alloc);
			r->dag.par[k++] = j;
		}
	}
	r->dag.first[r->n] = k;
	if (!r->dag.par)
		r->dag.par = xcalloc(1, sizeof(*r->dag.par));
	strmap_release(&at);
}

static int parse_range(struct strbuf *out, struct git_range *r, int first_parent,
		       struct error *err)
{
	struct parents_text pt = { 0 };
	size_t alloc = 0;
	char *save = NULL;
	int rc = 0;

	for (char *l = strtok_r(out->buf, "\n", &save); l && !rc;
	     l = strtok_r(NULL, "\n", &save)) {
		ALLOC_GROW(r->c, r->n + 1, alloc);
		ALLOC_GROW(pt.text, r->n + 1, pt.alloc);
		if (parse_range_line(l, &r->c[r->n], &pt.text[r->n]))
			rc = error_set(err, ERR_RUNTIME, "cannot read git's list of commits "
				       "('%.60s')", l);
		else
			r->n++;
	}
	if (!rc)
		link_parents(r, pt.text, first_parent);
	for (size_t i = 0; i < r->n; i++)
		free(pt.text[i]);
	free(pt.text);
	return rc;
}

int git_range(const char *top, const char *good, const char *bad, int first_parent,
	      struct git_range *r, struct error *err)
{
	struct strbuf list = STRBUF_INIT, range = STRBUF_INIT;
	const char *args[10] = { "log", "--reverse", "--topo-order", "--format=%H %h %P%x1f%s" };
	size_t na = 4;
	int st, rc;

	memset(r, 0, sizeof(*r));
	strbuf_addf(&range, "%s..%s", good, bad);
	if (first_parent)
		args[na++] = "--first-parent";
	args[na++] = range.buf;
	args[na] = NULL;
	rc = git_cmd(top, args, &list, NULL, &st, err);
	if (!rc && st)
		rc = error_set(err, ERR_RUNTIME, "git log exited with %d", st);
	if (!rc)
		rc = parse_range(&list, r, first_parent, err);
	for (size_t i = 0; !rc && i < r->n; i++)
		r->merges += r->dag.first[i + 1] - r->dag.first[i] > 1;
	strbuf_release(&list);
	strbuf_release(&range);
	return rc;
}

void git_range_release(struct git_range *r)
{
	for (size_t i = 0; i < r->n; i++)
		bisect_rec_commit_release(&r->c[i]);
	free(r->c);
	free(r->first_parent);
	free(r->nparents);
	bisect_dag_release(&r->dag);
	memset(r, 0, sizeof(*r));
}

int git_merge_base(const char *top, const char *a, const char *b, char sha[41],
		   struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	int st, rc = 0;

	sha[0] = '\0';
	if (git_cmd(top, (const char *[]){ "merge-base", a, b, NULL }, &out, NULL, &st, err))
		rc = -1;
	else if (!st && out.len >= 40)
		memcpy(sha, out.buf, 40), sha[40] = '\0';
	strbuf_release(&out);
	return rc;
}

int git_describe(const char *top, const char *sha, struct bisect_rec_commit *c, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	int st, rc;

	rc = git_cmd(top, (const char *[]){ "log", "-1", "--format=%H %h %s", sha, NULL }, &out, NULL,
		 &st, err);
	if (!rc && (st || parse_commit_line(out.buf, c)))
		rc = error_set(err, ERR_RUNTIME, "cannot read commit %s", sha);
	strbuf_release(&out);
	return rc;
}
