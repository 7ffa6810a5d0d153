/*
 * Worktrees, builds and the build cache (revisions.h). A worktree goes
 * through three states, as the marker beside it says: absent, being made
 * (no DIR/worktrees/SHA.done: whatever is there, ours, is removed and made
 * again) and complete. Removal never asks git to prune: it removes our own
 * entry from git's common directory, as `git worktree prune` would, but
 * only ours. A build runs through a spawn server started for it, with
 * signals watched while it runs, so a Ctrl-C stops the build and comes
 * back as "interrupted" instead of killing pmustat.
 */
#include "campaign/revisions.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/git.h"
#include "core/outfile.h"
#include "core/safeopen.h"
#include "core/words.h"
#include "run/command.h"
#include "run/spawn.h"

#define LOCK_WAIT_MS 30000	/* a leftover build still being killed */
#define REPO_WAIT_MS 600000	/* another pmustat's checkout of a large tree */
#define TAIL_LINES 6

static char *path_of(const struct revisions *r, const char *fmt, const char *sha)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/", r->dir);
	strbuf_addf(&sb, fmt, sha);
	return strbuf_detach(&sb);
}

static void say(const struct revisions *r, const char *fmt, const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	if (!r->o.say)
		return;
	strbuf_addf(&sb, fmt, a, b);
	r->o.say(sb.buf, r->o.say_data);
	strbuf_release(&sb);
}

/* ---- setup ------------------------------------------------------------------ */

/* git's common directory: where the worktrees' entries are. */
static int common_dir(struct revisions *r, struct error *err)
{
	struct strbuf out = STRBUF_INIT, e = STRBUF_INIT;
	int st;

	if (git_cmd(r->top, (const char *[]){ "rev-parse", "--git-common-dir", NULL }, &out, &e, &st,
		err))
		return -1;
	if (st || !out.len) {
		error_set(err, ERR_RUNTIME, "cannot find the git directory of '%s': %s", r->top,
			  command_failure_line(&e));
		strbuf_release(&out);
		strbuf_release(&e);
		return -1;
	}
	if (out.buf[0] != '/') {
		struct strbuf abs = STRBUF_INIT;

		strbuf_addf(&abs, "%s/%s", r->top, out.buf);
		strbuf_release(&out);
		out = abs;
	}
	r->common = realpath(out.buf, NULL);
	if (!r->common)
		r->common = strbuf_detach(&out);
	strbuf_release(&out);
	strbuf_release(&e);
	return 0;
}

int revisions_init(struct revisions *r, const char *top, const char *dir,
		   const struct revisions_opts *o, struct error *err)
{
	memset(r, 0, sizeof(*r));
	r->o = *o;
	r->top = xstrdup(top);
	r->dir = realpath(dir, NULL);
	if (!r->dir)
		return error_set(err, ERR_RUNTIME, "cannot resolve '%s': %s", dir, strerror(errno));
	return common_dir(r, err);
}

void revisions_release(struct revisions *r)
{
	free(r->top);
	free(r->dir);
	free(r->common);
	free(r->failed);
	memset(r, 0, sizeof(*r));
}

void revision_release(struct revision *v)
{
	free(v->log);
	memset(v, 0, sizeof(*v));
}

char *revisions_worktree(const struct revisions *r, const char *sha)
{
	return path_of(r, "worktrees/%s", sha);
}

/* ---- removing what is ours ------------------------------------------------------ */

/* Remove name in the directory at fd, recursively; symbolic links are
 * removed, never followed. Best effort. */
static void remove_at(int fd, const char *name)
{
	int sub;
	DIR *d;
	struct dirent *e;

	if (!unlinkat(fd, name, 0) || errno == ENOENT)
		return;
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return;
	d = fdopendir(sub);
	if (!d) {
		close(sub);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			remove_at(dirfd(d), e->d_name);
	closedir(d);
	unlinkat(fd, name, AT_REMOVEDIR);
}

static void remove_tree(const char *path)
{
	remove_at(AT_FDCWD, path);
}

static int is_sha(const char *s, size_t n)
{
	return strspn(s, "0123456789abcdef") >= n;
}

/* Is git's entry <id> (at entry) the worktree at wt? Its gitdir names
 * wt/.git (relative to the entry with worktree.useRelativePaths); an
 * entry whose gitdir was never written is ours when named after sha. */
static int entry_is(const char *entry, const char *id, const char *sha, const char *wt)
{
	struct strbuf gd = STRBUF_INIT, p = STRBUF_INIT, want = STRBUF_INIT;
	int ours;

	strbuf_addf(&p, "%s/gitdir", entry);
	strbuf_addf(&want, "%s/.git", wt);
	if (strbuf_read_regular(&gd, p.buf, 8192)) {
		ours = !strncmp(id, sha, 40) && strspn(id + 40, "0123456789") == strlen(id + 40);
	} else {
		while (gd.len && (gd.buf[gd.len - 1] == '\n' || gd.buf[gd.len - 1] == '\r'))
			gd.buf[--gd.len] = '\0';
		if (gd.buf[0] != '/') {
			char *abs;

			strbuf_reset(&p);
			strbuf_addf(&p, "%s/%s", entry, gd.buf);
			abs = realpath(p.buf, NULL);
			ours = abs && !strcmp(abs, want.buf);
			free(abs);
		} else {
			ours = !strcmp(gd.buf, want.buf);
		}
	}
	strbuf_release(&gd);
	strbuf_release(&p);
	strbuf_release(&want);
	return ours;
}

/* Remove git's entries for the worktree of sha (there may be none). */
static void remove_entries(const struct revisions *r, const char *sha)
{
	struct strbuf dir = STRBUF_INIT, entry = STRBUF_INIT;
	char *wt = revisions_worktree(r, sha);
	struct dirent *e;
	DIR *d;

	strbuf_addf(&dir, "%s/worktrees", r->common);
	d = opendir(dir.buf);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		strbuf_reset(&entry);
		strbuf_addf(&entry, "%s/%s", dir.buf, e->d_name);
		if (entry_is(entry.buf, e->d_name, sha, wt))
			remove_tree(entry.buf);
	}
	if (d)
		closedir(d);
	strbuf_release(&dir);
	strbuf_release(&entry);
	free(wt);
}

/* Everything of sha's worktree, in whatever state: the marker first, so
 * that a removal cut short leaves a worktree known incomplete. */
static void discard_worktree(const struct revisions *r, const char *sha)
{
	char *done = path_of(r, "worktrees/%s.done", sha), *wt = revisions_worktree(r, sha);

	unlink(done);
	remove_entries(r, sha);
	remove_tree(wt);
	free(done);
	free(wt);
}

/* ---- making a worktree ------------------------------------------------------------ */

/* A work tree of its own (git finds no enclosing repository instead), at
 * the commit. */
static int worktree_complete_unmarked(const struct revisions *r, const char *sha)
{
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	char *wt = revisions_worktree(r, sha);
	struct error e;
	struct stat st;
	int status, ok = 0;

	error_clear(&e);
	if (!lstat(wt, &st) && S_ISDIR(st.st_mode) &&
	    !git_cmd(wt, (const char *[]){ "rev-parse", "--show-toplevel", "HEAD", NULL }, &out, NULL,
		 &status, &e) && !status) {
		strbuf_addf(&want, "%s\n%s", wt, sha);
		ok = !strcmp(out.buf, want.buf);
	}
	strbuf_release(&out);
	strbuf_release(&want);
	free(wt);
	return ok;
}

/* Complete: marked so after it was made, and still so. */
static int worktree_complete(const struct revisions *r, const char *sha)
{
	char *done = path_of(r, "worktrees/%s.done", sha);
	struct stat st;
	int marked = !stat(done, &st) && S_ISREG(st.st_mode);

	free(done);
	return marked && worktree_complete_unmarked(r, sha);
}

static int add_failed(const char *sha, struct strbuf *e, struct error *err)
{
	error_set(err, ERR_RUNTIME, "cannot check out %.12s in a worktree: %s", sha,
		  command_failure_line(e));
	return error_hint(err, "run 'git worktree add --detach /tmp/wt %.12s' to see why; "
			       "'git worktree list' shows the worktrees", sha);
}

/*
 * The repository's lock, around making or removing one of our worktrees: a
 * flock on git's common directory (advisory: git itself never takes one),
 * inherited by the git commands run under it. A second pmustat on the same
 * repository (another -o DIR) waits while ours — or a git ours started and
 * that outlived it — is still making an entry, so an entry without its
 * gitdir that is named after our commit is never another's half-made one.
 */
static int lock_repo(const struct revisions *r, int *fd, struct error *err)
{
	int waited = 0;

	*fd = open(r->common, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return error_set(err, ERR_RUNTIME, "cannot open git's directory '%s': %s",
				 r->common, strerror(errno));
	while (flock(*fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || waited >= REPO_WAIT_MS) {
			error_set(err, ERR_RUNTIME, "another pmustat is making a worktree of '%s' "
				  "(its git directory is locked)", r->top);
			close(*fd);
			*fd = -1;
			return error_hint(err, "wait for it ('fuser %s' names its processes), "
					       "then run the same command again", r->common);
		}
		if (!waited)
			say(r, "waiting for another pmustat's worktree of %s%s", r->top, "");
		poll(NULL, 0, 50);
		waited += 50;
	}
	return 0;
}

static int make_worktree(const struct revisions *r, const char *sha, int log_fd, int *reused,
			 struct error *err)
{
	struct strbuf e = STRBUF_INIT;
	char *wt = revisions_worktree(r, sha), *done = path_of(r, "worktrees/%s.done", sha);
	int keep[3] = { log_fd, -1, -1 }, st, rc = 0;

	*reused = worktree_complete(r, sha);
	if (!*reused)
		rc = lock_repo(r, &keep[1], err);
	if (!*reused && !rc) {
		/* git and all it starts hold both locks: a rerun after a kill
		 * waits for a checkout still going on before it clears it. */
		discard_worktree(r, sha);
		if (git_cmd_keeping(r->top, (const char *[]){ "worktree", "add", "--detach", wt, sha,
							      NULL }, keep, NULL, &e, &st, err))
			rc = -1;
		else if (st)
			rc = add_failed(sha, &e, err);
		else if (!worktree_complete_unmarked(r, sha))
			rc = error_set(err, ERR_RUNTIME, "the worktree of %.12s at '%s' is not at "
				       "that commit after 'git worktree add'", sha, wt);
		else
			rc = outfile_replace(done, "", 0, err);
	}
	if (keep[1] >= 0)
		close(keep[1]);
	strbuf_release(&e);
	free(wt);
	free(done);
	return rc;
}

/* ---- the lock --------------------------------------------------------------------- */

/*
 * The commit's build log, opened (never truncated here: a build may still
 * write to it) and locked. A lock held by a leftover build, which its spawn
 * server is still killing, is waited for a while.
 */
static int lock_log(const struct revisions *r, const char *sha, int *fd, struct error *err)
{
	char *log = path_of(r, "builds/%s.log", sha);
	struct stat st;
	int waited = 0, rc = 0;

	*fd = open(log, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (*fd < 0 || fstat(*fd, &st) || !S_ISREG(st.st_mode))
		rc = error_set(err, ERR_RUNTIME, "cannot use '%s' as a build log: %s", log,
			       *fd < 0 ? strerror(errno) : "not a regular file");
	while (!rc && flock(*fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || waited >= LOCK_WAIT_MS) {
			error_set(err, ERR_RUNTIME, "a build or checkout of %.12s is still running "
				  "(its log '%s' is locked)", sha, log);
			rc = error_hint(err, "wait for it to end ('fuser %s' names its "
					     "processes), then run the same command again", log);
			break;
		}
		if (!waited)
			say(r, "waiting for a build or checkout of %.12s that is still running (%s is locked)",
			    sha, log);
		poll(NULL, 0, 50);
		waited += 50;
	}
	if (rc && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	free(log);
	return rc;
}

/* ---- the build ------------------------------------------------------------------------ */

static char **build_argv(const struct revisions *r, struct error *err)
{
	char **v;

	if (!r->o.shell)
		return words_split(r->o.build, err);
	v = xcalloc(4, sizeof(char *));
	v[0] = xstrdup("sh");
	v[1] = xstrdup("-c");
	v[2] = xstrdup(r->o.build);
	return v;
}

/* The build through a spawn server of its own (started first, while
 * signals are as they were: it gives the build that state), with SIGINT
 * and SIGTERM watched. */
static int spawn_build(const struct revisions *r, const char *wt, int log_fd,
		       struct spawn_result *res, struct error *err)
{
	char **argv = build_argv(r, err);
	struct spawn_opts so = { .pin_cpu = -1, .cwd = wt, .output_fd = log_fd };
	struct spawner server;
	struct sigwatch sw;
	struct spawn sp;
	int rc;

	if (!argv)
		return -1;
	so.argv = argv;
	if (spawner_start(&server, err)) {
		strv_free(argv);
		return -1;
	}
	rc = sigwatch_init(&sw, err);
	if (!rc) {
		rc = spawn_start(&sp, &server, &sw, &so, err) ||
		     spawn_run(&sp, &sw, r->o.build_timeout_s, res, err) ? -1 : 0;
		spawn_release(&sp);
		/* A stop request after the build ended is not lost when the
		 * signals are unblocked. */
		sigwatch_poll(&sw);
		if (!rc && sw.stop_signal)
			res->outcome = SPAWN_INTERRUPTED;
		sigwatch_release(&sw);
	}
	spawner_stop(&server);
	strv_free(argv);
	return rc;
}

/* The exit code of sha's build that failed in this process, or 0. */
static int failed_before(const struct revisions *r, const char *sha)
{
	for (size_t i = 0; i < r->nfailed; i++)
		if (!strcmp(r->failed[i].sha, sha))
			return r->failed[i].exit_code;
	return 0;
}

/* The status file says "ok": the build in this worktree succeeded. */
static int built_ok(const struct revisions *r, const char *sha)
{
	char *path = path_of(r, "builds/%s.status", sha);
	struct strbuf sb = STRBUF_INIT;
	int ok = !strbuf_read_regular(&sb, path, 64) && !strncmp(sb.buf, "ok", 2);

	strbuf_release(&sb);
	free(path);
	return ok;
}

/* The build's end into out and its status file. */
static int settle_build(struct revisions *r, const char *sha, int log_fd,
			const struct spawn_result *res, struct revision *out, struct error *err)
{
	char *path = path_of(r, "builds/%s.status", sha);
	char line[32];
	int rc = 0;

	out->exit_code = res->outcome == SPAWN_EXITED ? res->status
			 : res->outcome == SPAWN_EXEC_FAILED ? 127 : 128 + res->status;
	if (res->outcome == SPAWN_EXEC_FAILED)
		dprintf(log_fd, "cannot run the build command: %s\n", strerror(res->status));
	if (res->outcome == SPAWN_TIMEOUT) {
		out->build = REVISION_TIMED_OUT;
		dprintf(log_fd, "pmustat: the build timed out after %g s and was killed\n",
			r->o.build_timeout_s);
	} else if (out->exit_code) {
		out->build = REVISION_FAILED;
		ALLOC_GROW(r->failed, r->nfailed + 1, r->failed_alloc);
		memcpy(r->failed[r->nfailed].sha, sha, 41);
		r->failed[r->nfailed++].exit_code = out->exit_code;
	} else {
		out->build = REVISION_BUILT;
	}
	if (out->build != REVISION_TIMED_OUT) {
		snprintf(line, sizeof(line), out->exit_code ? "failed %d\n" : "ok\n",
			 out->exit_code);
		rc = outfile_replace(path, line, strlen(line), err);
	}
	free(path);
	return rc;
}

/* Build sha in wt, its output into the (locked) log. 1: interrupted. */
static int build(struct revisions *r, const char *sha, const char *wt, int log_fd,
		 struct revision *out, struct error *err)
{
	char *status = path_of(r, "builds/%s.status", sha);
	struct spawn_result res;
	int rc;

	/* Not "ok" while the build runs: a kill now leaves it unbuilt. */
	unlink(status);
	free(status);
	if (ftruncate(log_fd, 0))
		return error_set(err, ERR_RUNTIME, "cannot write the build log of %.12s: %s", sha,
				 strerror(errno));
	rc = spawn_build(r, wt, log_fd, &res, err);
	if (rc)
		return -1;
	if (res.outcome == SPAWN_INTERRUPTED)
		return 1;
	return settle_build(r, sha, log_fd, &res, out, err);
}

/* ---- one commit ---------------------------------------------------------------------- */

static int has_submodules(const struct revisions *r, const char *sha)
{
	struct strbuf spec = STRBUF_INIT;
	struct error e;
	int st = 1;

	error_clear(&e);
	strbuf_addf(&spec, "%s:.gitmodules", sha);
	if (git_cmd(r->top, (const char *[]){ "cat-file", "-e", spec.buf, NULL }, NULL, NULL, &st, &e))
		st = 1;
	strbuf_release(&spec);
	return st == 0;
}

int revisions_prepare(struct revisions *r, const char *sha, const char *label,
		      struct revision *out, struct error *err)
{
	char *wt = revisions_worktree(r, sha);
	int log_fd = -1, reused = 0, rc;

	memset(out, 0, sizeof(*out));
	out->exit_code = -1;
	if (!is_sha(sha, 40)) {
		free(wt);
		return error_set(err, ERR_RUNTIME, "'%s' is not a commit hash", sha);
	}
	rc = lock_log(r, sha, &log_fd, err);
	if (!rc)
		rc = make_worktree(r, sha, log_fd, &reused, err);
	out->submodules = !rc && has_submodules(r, sha);
	if (!rc && r->o.build) {
		out->log = path_of(r, "builds/%s.log", sha);
		memmove(out->log, out->log + strlen(r->dir) + 1,
			strlen(out->log + strlen(r->dir) + 1) + 1);
		if ((out->exit_code = failed_before(r, sha))) {
			out->build = REVISION_FAILED;
		} else if (reused && built_ok(r, sha)) {
			out->build = REVISION_CACHED;
			out->exit_code = 0;
		} else {
			say(r, "building %s%s", label ? label : sha, "");
			rc = build(r, sha, wt, log_fd, out, err);
		}
	}
	if (log_fd >= 0)
		close(log_fd);
	free(wt);
	return rc;
}

/* The log's last TAIL_BYTES are enough for its last lines, however long
 * the build's output was. */
#define TAIL_BYTES 65536
void revisions_log_tail(const struct revisions *r, const char *sha, struct strbuf *out)
{
	char *path = path_of(r, "builds/%s.log", sha);
	struct strbuf all = STRBUF_INIT;
	int fd = safeopen_read(path, SAFEOPEN_NOFOLLOW);
	struct stat st;
	const char *p;
	int lines = 0;

	if (fd >= 0 && !fstat(fd, &st) &&
	    lseek(fd, st.st_size > TAIL_BYTES ? st.st_size - TAIL_BYTES : 0, SEEK_SET) >= 0)
		strbuf_read_fd(&all, fd, TAIL_BYTES);
	if (fd >= 0)
		close(fd);
	p = all.buf + all.len;
	while (p > all.buf && lines < TAIL_LINES)
		if (*--p == '\n')
			lines++;
	strbuf_adds(out, p + (*p == '\n'));
	strbuf_release(&all);
	free(path);
}

/* ---- removal ----------------------------------------------------------------------- */

int revisions_remove(struct revisions *r, const char *sha, struct error *err)
{
	char *wt = revisions_worktree(r, sha), *status = path_of(r, "builds/%s.status", sha);
	int keep[3] = { -1, -1, -1 }, st, rc = 0;
	struct strbuf e = STRBUF_INIT;
	struct stat sb;

	if (!is_sha(sha, 40))
		rc = error_set(err, ERR_RUNTIME, "'%s' is not a commit hash", sha);
	else
		rc = lock_log(r, sha, &keep[0], err) || lock_repo(r, &keep[1], err) ? -1 : 0;
	/* git's own removal for a complete one; ours for what is left. */
	if (!rc && worktree_complete(r, sha))
		git_cmd_keeping(r->top, (const char *[]){ "worktree", "remove", "--force", "--force",
							  wt, NULL }, keep, NULL, &e, &st, err);
	if (!rc) {
		error_clear(err);
		discard_worktree(r, sha);
		unlink(status);
		if (!lstat(wt, &sb))
			rc = error_set(err, ERR_RUNTIME, "cannot remove the worktree '%s'", wt);
	}
	for (size_t i = 0; i < 2; i++)
		if (keep[i] >= 0)
			close(keep[i]);
	strbuf_release(&e);
	free(wt);
	free(status);
	return rc;
}

/* The commit of git's entry <id> whose gitdir names DIR/worktrees/SHA/.git,
 * into sha; 0 when it is not one of ours. */
static int entry_commit(const struct revisions *r, const char *entry, char sha[41])
{
	struct strbuf gd = STRBUF_INIT, p = STRBUF_INIT, prefix = STRBUF_INIT;
	int ours = 0;

	strbuf_addf(&p, "%s/gitdir", entry);
	strbuf_addf(&prefix, "%s/worktrees/", r->dir);
	if (!strbuf_read_regular(&gd, p.buf, 8192) && !strncmp(gd.buf, prefix.buf, prefix.len) &&
	    is_sha(gd.buf + prefix.len, 40) && !strncmp(gd.buf + prefix.len + 40, "/.git", 5)) {
		memcpy(sha, gd.buf + prefix.len, 40);
		sha[40] = '\0';
		ours = 1;
	}
	strbuf_release(&gd);
	strbuf_release(&p);
	strbuf_release(&prefix);
	return ours;
}

static void remove_listed(struct revisions *r, const char *dir, int entries)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *e;
	struct error err;
	char sha[41];
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		if (entries ? !entry_commit(r, path.buf, sha)
			    : !is_sha(e->d_name, 40) || strlen(e->d_name) != 40)
			continue;
		if (!entries)
			memcpy(sha, e->d_name, 41);
		error_clear(&err);
		revisions_remove(r, sha, &err);
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
}

void revisions_remove_all(struct revisions *r)
{
	struct strbuf dir = STRBUF_INIT;

	strbuf_addf(&dir, "%s/worktrees", r->dir);
	remove_listed(r, dir.buf, 0);
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/worktrees", r->common);
	remove_listed(r, dir.buf, 1);
	strbuf_release(&dir);
}
