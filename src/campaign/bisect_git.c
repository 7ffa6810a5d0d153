/*
 * git and the build, for `pmustat bisect` (bisect_git.h). Every command is
 * a fork and exec with its own argv, so a revision or a path is never read
 * by a shell; git's output is parsed in its porcelain or --format forms,
 * which do not change with the user's configuration or language. stderr is
 * kept so that a failure can quote git's own words.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/bisect_git.h"
#include "core/strmap.h"

#define GIT_OUTPUT_MAX ((size_t)64 << 20)

static void __attribute__((noreturn)) child(const char *dir, char *const *argv, int out,
					    int errfd)
{
	int null = open("/dev/null", O_RDONLY);

	if (null >= 0)
		dup2(null, 0);
	if (out >= 0)
		dup2(out, 1);
	if (errfd >= 0)
		dup2(errfd, 2);
	if (dir && chdir(dir))
		_exit(127);
	execvp(argv[0], argv);
	dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int wait_status(pid_t pid, int *status)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -1;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return 0;
}

static void read_memfd(int fd, struct strbuf *into)
{
	if (fd < 0)
		return;
	if (into && lseek(fd, 0, SEEK_SET) == 0)
		strbuf_read_fd(into, fd, GIT_OUTPUT_MAX);
	close(fd);
}

int bisect_exec(const char *dir, char *const *argv, int log_fd, struct strbuf *out,
		struct strbuf *errout, int *status, struct error *err)
{
	int pfd[2] = { -1, -1 }, efd = -1;
	pid_t pid;

	if (log_fd < 0 && (pipe2(pfd, O_CLOEXEC) ||
			   (efd = memfd_create("pmustat-git", MFD_CLOEXEC)) < 0))
		return error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0],
				 strerror(errno));
	pid = fork();
	if (pid < 0)
		return error_set(err, ERR_RUNTIME, "cannot fork: %s", strerror(errno));
	if (!pid)
		child(dir, argv, log_fd >= 0 ? log_fd : pfd[1], log_fd >= 0 ? log_fd : efd);
	if (log_fd < 0) {
		struct strbuf sink = STRBUF_INIT;

		close(pfd[1]);
		strbuf_read_fd(out ? out : &sink, pfd[0], GIT_OUTPUT_MAX);
		strbuf_release(&sink);
		close(pfd[0]);
	}
	if (wait_status(pid, status))
		return error_set(err, ERR_RUNTIME, "cannot wait for '%s': %s", argv[0],
				 strerror(errno));
	read_memfd(efd, errout);
	return 0;
}

/* git ARGS in top: stdout into out (trailing newline dropped); the status. */
static int git(const char *top, const char *const *args, struct strbuf *out,
	       struct strbuf *errout, int *status, struct error *err)
{
	const char *argv[16] = { "git" };
	size_t n = 1;

	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	if (bisect_exec(top, (char *const *)argv, -1, out, errout, status, err))
		return -1;
	while (out && out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
	return 0;
}

/* The first line of git's complaint, for a message. */
static const char *first_line(struct strbuf *sb)
{
	char *nl = strchr(sb->buf, '\n');

	if (nl)
		*nl = '\0';
	return sb->len ? sb->buf : "git said nothing";
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
	rc = git(top, args, &list, NULL, &st, err);
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
	if (git(top, (const char *[]){ "merge-base", a, b, NULL }, &out, NULL, &st, err))
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

	rc = git(top, (const char *[]){ "log", "-1", "--format=%H %h %s", sha, NULL }, &out, NULL,
		 &st, err);
	if (!rc && (st || parse_commit_line(out.buf, c)))
		rc = error_set(err, ERR_RUNTIME, "cannot read commit %s", sha);
	strbuf_release(&out);
	return rc;
}

/* The commit a worktree at path has checked out, or "" when it is none. */
static void worktree_head(const char *path, char head[41])
{
	struct strbuf out = STRBUF_INIT;
	struct error err;
	struct stat st;
	int status;

	head[0] = '\0';
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return;
	error_clear(&err);
	if (!git(path, (const char *[]){ "rev-parse", "HEAD", NULL }, &out, NULL, &status, &err) &&
	    !status && out.len == 40)
		memcpy(head, out.buf, 41);
	strbuf_release(&out);
}

int git_worktree(const char *top, const char *path, const char *sha, int *reused,
		 struct error *err)
{
	struct strbuf e = STRBUF_INIT;
	char head[41];
	int st, rc = 0;

	*reused = 0;
	worktree_head(path, head);
	if (!strcmp(head, sha)) {
		*reused = 1;
		return 0;
	}
	/* Anything else there (a worktree of a killed run, half made) goes. */
	git_worktree_remove(top, path, err);
	error_clear(err);
	if (git(top, (const char *[]){ "worktree", "add", "--detach", "--force", path, sha, NULL },
		NULL, &e, &st, err))
		rc = -1;
	else if (st) {
		error_set(err, ERR_RUNTIME, "cannot check out %.12s in a worktree: %s", sha,
			  first_line(&e));
		error_hint(err, "'git worktree list' shows the worktrees; 'git worktree prune' "
				"forgets removed ones");
		rc = -1;
	}
	strbuf_release(&e);
	return rc;
}

int git_worktree_remove(const char *top, const char *path, struct error *err)
{
	int st;

	if (git(top, (const char *[]){ "worktree", "remove", "--force", "--force", path, NULL },
		NULL, NULL, &st, err))
		return -1;
	if (st && !access(path, F_OK))
		return error_set(err, ERR_RUNTIME, "cannot remove the worktree '%s'", path);
	git(top, (const char *[]){ "worktree", "prune", NULL }, NULL, NULL, &st, err);
	return 0;
}
