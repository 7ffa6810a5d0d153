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
