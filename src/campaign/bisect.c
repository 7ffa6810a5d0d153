/*
 * `pmustat bisect` (bisect.h): the search, driven by the compare engine.
 * The inputs are checked first (git work tree, clean, revisions, ancestry),
 * then the premise — good against bad, one comparison with compare's
 * blocks, randomization and stopping rule — and then, while candidates are
 * left, the one nearest the middle of the unknown ones is checked out in a
 * detached worktree of its own (DIR/worktrees/SHA), built there (the build
 * cached by commit: a reused worktree keeps what was built in it), and
 * compared with both endpoints in the same blocks. Its call (analysis/
 * bisect.c) marks it good or bad; a build failure skips it as `git bisect
 * skip` does; a candidate like neither endpoint, or undecided, ends the
 * search with its evidence. The culprit is then compared with its parent,
 * which gives the size of its own change (and, with --profile, where it
 * is).
 *
 * Every decided step is appended to DIR/bisect.journal (one JSON line, one
 * write) before the next begins, and DIR/bisect.json is rewritten; a rerun
 * with the same arguments reads the journal and goes on from the first
 * step not decided. The comparison of a step that was cut short is run
 * again from its start.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysed.h"
#include "analysis/bisect.h"
#include "campaign/bisect.h"
#include "campaign/git.h"
#include "campaign/compare_plan.h"
#include "campaign/revisions.h"
#include "core/outfile.h"
#include "core/strmap.h"
#include "core/strlist.h"
#include "result/json.h"

#define EXACT_BLOCKS 2		/* an exact count's comparison: its blocks */
#define HOT_MAX 5		/* functions and sites listed by --profile */

struct bisect_ctx {
	const struct bisect_opts *o;
	struct bisect_result *b;
	char *top, *dir;
	char *metrics;			/* what every comparison measures */
	struct git_range rg;		/* the commits to search, parents first */
	struct bisect_rec_commit *range;	/* rg.c */
	size_t n;				/* rg.n */
	struct strmap at;		/* a commit's index in range, by hash */
	enum bisect_mark *marks;
	json_t *args;			/* the journal's first line: what must match */
	int journal_fd;
	int next_index;
	int varied;			/* an exact primary varied: said once */
	double timeout_s;		/* every run's, once known (0: none) */
	struct revisions rev;		/* worktrees and builds (revisions.h) */
	int rev_ready;
	int build_timed_out;		/* the last build prepared timed out */
	int submodules_said;		/* the note on submodules: said once */
	char last_bad[41];		/* the newest candidate called like bad, or "" */
};

int bisect_metric_exact(const char *name)
{
	return !strcmp(name, "allocs") || !strcmp(name, "frees") || !strncmp(name, "call:", 5) ||
	       !strncmp(name, "sim:", 4);
}

static void say(const struct bisect_ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct bisect_ctx *x, const char *fmt, ...)
{
	char *line;
	va_list ap;

	if (!x->o->say)
		return;
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) >= 0) {
		x->o->say(line, x->o->say_data);
		free(line);
	}
	va_end(ap);
}

static char *path_in(const struct bisect_ctx *x, const char *fmt, const char *arg)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/", x->dir);
	strbuf_addf(&sb, fmt, arg);
	return strbuf_detach(&sb);
}

/* ---- inputs ---------------------------------------------------------------- */

/* --good is not an ancestor of --bad: reversed, or diverged (git bisect
 * would then test their merge base first; pmustat asks for it). */
static int not_ancestor(struct bisect_ctx *x, struct error *err)
{
	const struct bisect_result *b = x->b;
	char base[41];
	int rev = git_is_ancestor(x->top, b->bad.sha, b->good.sha, err);

	if (rev < 0 || git_merge_base(x->top, b->good.sha, b->bad.sha, base, err))
		return -1;
	error_set(err, ERR_USAGE, "--good '%s' is not an ancestor of --bad '%s'", x->o->good,
		  x->o->bad);
	if (rev)
		return error_hint(err, "--bad '%s' comes before --good '%s' in the history: "
				       "swap them if you wrote them the other way round",
				  x->o->bad, x->o->good);
	if (!base[0])
		return error_hint(err, "they share no history: give a --good revision from "
				       "--bad's history ('git log --oneline %s' lists it)", x->o->bad);
	return error_hint(err, "they have diverged since %.12s: if that commit is good, give "
			       "--good %.12s (git bisect would test it first)", base, base);
}

static int check_revisions(struct bisect_ctx *x, struct error *err)
{
	struct bisect_result *b = x->b;
	int anc;

	if (git_resolve(x->top, x->o->good, "--good", b->good.sha, err) ||
	    git_resolve(x->top, x->o->bad, "--bad", b->bad.sha, err))
		return -1;
	if (!strcmp(b->good.sha, b->bad.sha)) {
		error_set(err, ERR_USAGE, "--good '%s' and --bad '%s' are the same commit (%.12s)",
			  x->o->good, x->o->bad, b->good.sha);
		return error_hint(err, "give the last revision known to be good and a later "
				       "one known to be bad, e.g. --good v1.2 --bad HEAD");
	}
	anc = git_is_ancestor(x->top, b->good.sha, b->bad.sha, err);
	if (anc < 0)
		return -1;
	if (!anc)
		return not_ancestor(x, err);
	if (git_describe(x->top, b->good.sha, &b->good, err) ||
	    git_describe(x->top, b->bad.sha, &b->bad, err))
		return -1;
	b->good.rev = xstrdup(x->o->good);
	b->bad.rev = xstrdup(x->o->bad);
	return 0;
}

static int make_dir(const char *path, struct error *err)
{
	struct stat st;

	if (!mkdir(path, 0777) || (errno == EEXIST && !stat(path, &st) && S_ISDIR(st.st_mode)))
		return 0;
	if (errno == EEXIST)
		errno = ENOTDIR;
	error_set(err, ERR_USAGE, "cannot use '%s' as the results directory: %s", path,
		  strerror(errno));
	return error_hint(err, "give another directory with -o DIR");
}

static int make_dirs(struct bisect_ctx *x, struct error *err)
{
	static const char *const sub[] = { "steps", "builds", "worktrees" };

	if (make_dir(x->o->dir, err))
		return -1;
	x->dir = realpath(x->o->dir, NULL);
	if (!x->dir)
		return error_set(err, ERR_RUNTIME, "cannot resolve '%s': %s", x->o->dir,
				 strerror(errno));
	for (size_t i = 0; i < 3; i++) {
		char *p = path_in(x, "%s", sub[i]);
		int rc = make_dir(p, err);

		free(p);
		if (rc)
			return -1;
	}
	return 0;
}

static int load_range(struct bisect_ctx *x, struct error *err)
{
	struct git_range *r = &x->rg;

	if (git_range(x->top, x->b->good.sha, x->b->bad.sha, x->o->first_parent, r, err))
		return -1;
	if (!r->n || strcmp(r->c[r->n - 1].sha, x->b->bad.sha))
		return error_set(err, ERR_RUNTIME, "git listed no path of commits from %.12s to "
				 "%.12s", x->b->good.sha, x->b->bad.sha);
	x->range = r->c;
	x->n = r->n;
	if (x->o->first_parent)
		bisect_add_note(x->b, 0, "the candidates are bad's first-parent line (--first-"
				"parent): a merge is tested as one commit, as the mainline saw it");
	else if (r->merges)
		bisect_add_note(x->b, 0, "the history between good and bad has %zu merge%s: as "
				"in git bisect, a good commit makes its ancestors good and a bad one "
				"its descendants bad (--first-parent follows the mainline only)",
				r->merges, r->merges == 1 ? "" : "s");
	for (size_t i = 0; i < x->n; i++)
		strmap_put(&x->at, x->range[i].sha, 40, i);
	x->marks = xcalloc(x->n, sizeof(*x->marks));
	x->b->range = xcalloc(x->n, sizeof(*x->b->range));
	for (size_t i = 0; i < x->n; i++)
		bisect_rec_commit_copy(&x->b->range[x->b->nrange++], &x->range[i]);
	x->b->candidates = x->n;
	/* A binary search's bound holds on a line of history; across merges
	 * a test may settle fewer than half the open commits (0: no bound). */
	x->b->max_decisions = r->merges && !x->o->first_parent ? 0 : bisect_max_decisions(x->n);
	return 0;
}

/* -m and --primary: the primary is --primary, else the first of -m, else
 * wall-time; it is always measured. */
static void settle_metrics(struct bisect_ctx *x)
{
	const struct bisect_opts *o = x->o;
	struct strbuf m = STRBUF_INIT;
	char *first = NULL;

	if (o->metrics) {
		first = xstrndup(o->metrics, strcspn(o->metrics, ","));
		strbuf_adds(&m, o->metrics);
	}
	x->b->primary = xstrdup(o->primary ? o->primary : first && *first ? first : "wall-time");
	if (o->metrics && !strlist_has(o->metrics, x->b->primary))
		strbuf_addf(&m, ",%s", x->b->primary);
	else if (!o->metrics)
		strbuf_adds(&m, x->b->primary);
	x->metrics = strbuf_detach(&m);
	x->b->exact = bisect_metric_exact(x->b->primary);
	free(first);
}

static void fill_head(struct bisect_ctx *x)
{
	const struct bisect_opts *o = x->o;
	struct bisect_result *b = x->b;
	size_t n = 0;

	while (o->argv[n])
		n++;
	b->argv = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		b->argv[i] = xstrdup(o->argv[i]);
	b->repository = xstrdup(x->top);
	b->build_cmd = o->build ? xstrdup(o->build) : NULL;
	b->build_shell = o->shell;
	b->alpha = COMPARE_ALPHA;
	b->noise_band = STATS_NOISE_BAND_DEFAULT;
	b->step_band = b->noise_band;
	b->created = (double)time(NULL);
	settle_metrics(x);
}

/* ---- the journal ------------------------------------------------------------ */

static json_t *journal_args(const struct bisect_ctx *x)
{
	json_t *cmd = json_array(), *args;

	for (char *const *a = x->o->argv; *a; a++)
		json_array_append_new(cmd, json_string(*a));
	args = json_pack("{s:s, s:s, s:o, s:o, s:b, s:s, s:s, s:b}", "good", x->b->good.sha,
			 "bad", x->b->bad.sha, "command", cmd, "build",
			 x->o->build ? json_string(x->o->build) : json_null(), "shell",
			 x->o->shell, "metrics", x->metrics, "primary", x->b->primary,
			 "profile", x->o->profile);
	/* Only when given, so that a journal written before the option
	 * existed still matches. */
	if (x->o->first_parent)
		json_object_set_new(args, "first_parent", json_true());
	return args;
}

static int journal_append(struct bisect_ctx *x, json_t *line, struct error *err)
{
	char *s = json_dumps(line, JSON_COMPACT);
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	json_decref(line);
	strbuf_addf(&sb, "%s\n", s ? s : "{}");
	free(s);
	if (outfile_write_all(x->journal_fd, sb.buf, sb.len))
		rc = error_set(err, ERR_RUNTIME, "cannot write the bisect journal in '%s': %s",
			       x->dir, strerror(errno));
	strbuf_release(&sb);
	return rc;
}

/* A decided candidate's mark, found by its hash (a journal's positions
 * are those of the order it was written in). */
static void mark_step(struct bisect_ctx *x, const struct bisect_rec_step *s)
{
	size_t i;

	if (s->kind != STEP_CANDIDATE || strmap_get(&x->at, s->c.sha, strlen(s->c.sha), &i))
		return;
	x->marks[i] = s->call == CALL_LIKE_GOOD ? MARK_GOOD
		      : s->call == CALL_LIKE_BAD ? MARK_BAD
		      : s->call == CALL_SKIPPED ? MARK_SKIP : MARK_UNKNOWN;
}

/* A step read back or just decided: into the result and the marks. */
static void take_step(struct bisect_ctx *x, const struct bisect_rec_step *s)
{
	struct bisect_result *b = x->b;

	if (s->kind == STEP_PREMISE) {
		bisect_rec_step_release(&b->premise);
		bisect_rec_step_copy(&b->premise, s);
		b->has_premise = 1;
	} else if (s->kind == STEP_CONFIRM) {
		bisect_rec_step_release(&b->confirm);
		bisect_rec_step_copy(&b->confirm, s);
		b->has_confirm = 1;
	} else {
		bisect_add_step(b, s);
		b->decisions += s->call != CALL_SKIPPED;
		b->skipped += s->call == CALL_SKIPPED;
	}
	b->runs_total += s->runs;
	mark_step(x, s);
	if (s->index >= x->next_index)
		x->next_index = s->index + 1;
}

/* One step line of a journal left by an earlier run. */
static int replay_line(struct bisect_ctx *x, const char *line, const char *path,
		       struct error *err)
{
	json_t *j = json_loads(line, 0, NULL);
	struct bisect_rec_step s;
	int rc = 0;

	if (!j) {
		error_set(err, ERR_USAGE, "'%s': a line is not JSON", path);
		return error_hint(err, "the journal was damaged: remove the directory to start "
				       "the bisect afresh, or give another -o DIR");
	}
	if (bisect_rec_step_from_json(json_object_get(j, "step"), &s, path, err))
		rc = -1;
	else {
		take_step(x, &s);
		bisect_rec_step_release(&s);
	}
	json_decref(j);
	return rc;
}

/* What differs between the journal's arguments (was) and these: the
 * endpoints first, by their commits (a branch such as HEAD may have moved
 * since), then the first other argument by name. */
static void other_args(const struct bisect_ctx *x, json_t *was, const char *path,
		       struct error *err)
{
	const char *g = json_string_value(json_object_get(was, "good")),
		   *b = json_string_value(json_object_get(was, "bad")), *key, *which = NULL;
	json_t *v;

	if (g && b && (strcmp(g, x->b->good.sha) || strcmp(b, x->b->bad.sha))) {
		error_set(err, ERR_USAGE, "'%s' holds a bisect of good %.12s and bad %.12s, not "
			  "of %.12s and %.12s", path, g, b, x->b->good.sha, x->b->bad.sha);
		error_hint(err, "resume it with --good %.12s --bad %.12s (if a branch has "
			   "moved since), or give this one another -o DIR", g, b);
		return;
	}
	/* json_object_foreach leaves v at the last value: a name says which. */
	json_object_foreach(x->args, key, v)
		if (!json_equal(v, json_object_get(was, key))) {
			which = key;
			break;
		}
	if (!which && json_is_object(was))
		json_object_foreach(was, key, v)
			if (!json_object_get(x->args, key)) {
				which = key;
				break;
			}
	if (which)
		error_set(err, ERR_USAGE, "'%s' holds a bisect of other arguments (its '%s' "
			  "differs)", path, which);
	else
		error_set(err, ERR_USAGE, "'%s' holds a bisect of other arguments", path);
	error_hint(err, "rerun with the same arguments to resume it (the first line of "
		   "bisect.journal has them), or give this one another -o DIR");
}

static int check_args(struct bisect_ctx *x, const char *first, const char *path,
		      struct error *err)
{
	json_t *j = json_loads(first, 0, NULL);
	const char *schema = json_string_value(json_object_get(j, "journal"));
	int same = schema && !strcmp(schema, BISECT_JOURNAL_SCHEMA) &&
		   json_equal(json_object_get(j, "args"), x->args);

	if (same) {
		json_decref(j);
		return 0;
	}
	other_args(x, json_object_get(j, "args"), path, err);
	json_decref(j);
	return -1;
}

static int replay(struct bisect_ctx *x, char *text, const char *path, struct error *err)
{
	char *save = NULL, *line = strtok_r(text, "\n", &save);

	if (check_args(x, line, path, err))
		return -1;
	while ((line = strtok_r(NULL, "\n", &save)))
		if (replay_line(x, line, path, err))
			return -1;
	return 0;
}

/* One bisect per directory: the journal is locked while the search runs
 * (flock goes with the process, so a killed one leaves no stale lock). */
static int journal_lock(int fd, const char *dir, struct error *err)
{
	if (!flock(fd, LOCK_EX | LOCK_NB) || errno != EWOULDBLOCK)
		return 0;
	error_set(err, ERR_USAGE, "'%s' is being used by another bisect", dir);
	return error_hint(err, "wait for it to finish, or give this one another -o DIR");
}

/* A torn last line (the write a kill cut) goes before anything is
 * appended, so that the next line starts a line of its own. */
static void drop_torn(int fd, struct strbuf *old)
{
	char *nl = memrchr(old->buf, '\n', old->len);
	size_t keep = nl ? (size_t)(nl - old->buf) + 1 : 0;

	if (keep < old->len && !ftruncate(fd, (off_t)keep)) {
		old->len = keep;
		old->buf[keep] = '\0';
	}
}

/* Open the journal: resume from it when it is there, else start it. */
static int journal_open(struct bisect_ctx *x, struct error *err)
{
	char *path = path_in(x, "%s", "bisect.journal");
	struct strbuf old = STRBUF_INIT;
	int rc;

	x->args = journal_args(x);
	x->journal_fd = outfile_open_append(path, 0, err);
	rc = x->journal_fd < 0 || journal_lock(x->journal_fd, x->dir, err) ? -1 : 0;
	if (!rc && strbuf_read_regular(&old, path, (size_t)16 << 20))
		rc = error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
	if (!rc && old.len) {
		drop_torn(x->journal_fd, &old);
		rc = old.len ? replay(x, old.buf, path, err) : 0;
		if (!rc && x->next_index)
			say(x, "resuming: %d step%s decided before are not run again",
			    x->next_index, x->next_index == 1 ? "" : "s");
	}
	if (!rc && !old.len)
		rc = journal_append(x, json_pack("{s:s, s:O}", "journal", BISECT_JOURNAL_SCHEMA,
						 "args", x->args), err);
	strbuf_release(&old);
	free(path);
	return rc;
}

static int write_result(struct bisect_ctx *x, struct error *err)
{
	char *path = path_in(x, "%s", "bisect.json");
	json_t *doc = bisect_result_json(x->b);
	char *s = json_dumps(doc, JSON_INDENT(2));
	struct strbuf sb = STRBUF_INIT;
	int rc;

	strbuf_addf(&sb, "%s\n", s ? s : "{}");
	rc = outfile_replace(path, sb.buf, sb.len, err);
	strbuf_release(&sb);
	free(s);
	json_decref(doc);
	free(path);
	return rc;
}

static int record_step(struct bisect_ctx *x, const struct bisect_rec_step *s, struct error *err)
{
	take_step(x, s);
	if (journal_append(x, json_pack("{s:o}", "step", bisect_rec_step_json(s, x->b->primary)),
			   err))
		return -1;
	return write_result(x, err);
}

/* ---- worktrees and builds (campaign/revisions.h) ------------------------------ */

static void revisions_say(const char *line, void *data)
{
	say(data, "%s", line);
}

static int start_revisions(struct bisect_ctx *x, struct error *err)
{
	struct revisions_opts ro = { x->o->build, x->o->shell, x->o->build_timeout_s,
				     revisions_say, x };

	if (revisions_init(&x->rev, x->top, x->dir, &ro, err))
		return -1;
	x->rev_ready = 1;
	return 0;
}

static void note_submodules(struct bisect_ctx *x, const struct bisect_rec_commit *c)
{
	if (x->submodules_said++)
		return;
	bisect_add_note(x->b, 1, "%s has a .gitmodules, but the candidates' worktrees have no "
			"submodules checked out: to build with them, check them out in the build "
			"(--shell --build 'git submodule update --init && make')", c->abbrev);
}

/*
 * The commit's worktree, built, into s: BUILD_OK/CACHED/NONE, or
 * BUILD_FAILED with the log named (also when the build timed out:
 * x->build_timed_out). 1 when interrupted; -1 only when it could not be
 * tried.
 */
static int prepare_commit(struct bisect_ctx *x, const struct bisect_rec_commit *c,
			  struct bisect_rec_step *s, struct error *err)
{
	static const enum bisect_build as[] = { [REVISION_UNBUILT] = BUILD_NONE,
		[REVISION_BUILT] = BUILD_OK, [REVISION_CACHED] = BUILD_CACHED,
		[REVISION_FAILED] = BUILD_FAILED, [REVISION_TIMED_OUT] = BUILD_FAILED };
	struct strbuf label = STRBUF_INIT;
	struct revision v;
	int rc;

	strbuf_addf(&label, "%s %s", c->abbrev, c->subject ? c->subject : "");
	rc = revisions_prepare(&x->rev, c->sha, label.buf, &v, err);
	strbuf_release(&label);
	s->build_exit = -1;
	x->build_timed_out = !rc && v.build == REVISION_TIMED_OUT;
	if (!rc) {
		s->build = as[v.build];
		s->build_exit = v.exit_code;
		free(s->build_log);
		s->build_log = v.log ? xstrdup(v.log) : NULL;
		if (v.submodules)
			note_submodules(x, c);
	}
	revision_release(&v);
	return rc;
}

/* ---- one comparison ------------------------------------------------------------ */

struct variant_set {
	const struct bisect_rec_commit *c[3];
	const char *names[3];
	size_t n;
};

/* The command for a commit: a relative program path is its worktree's. */
static char **command_in(const struct bisect_ctx *x, const char *wt)
{
	size_t n = 0;
	char **v;

	while (x->o->argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(x->o->argv[i]);
	if (strchr(v[0], '/') && v[0][0] != '/') {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s/%s", wt, v[0][0] == '.' && v[0][1] == '/' ? v[0] + 2 : v[0]);
		free(v[0]);
		v[0] = strbuf_detach(&sb);
	}
	return v;
}

struct step_campaign {
	struct compare_plan p;
	char *wt[3];
	char **argv[3];
	char *out;
};

static void step_campaign_release(struct step_campaign *sc, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(sc->wt[i]);
		strv_free(sc->argv[i]);
	}
	free(sc->out);
}

/* A candidate step's stopping rule: stop once bisect_decide places the
 * candidate (the variants are candidate, good, bad; the first is the
 * baseline, so each comparison is read the other way round). */
static int step_placed(void *ctx, const struct result *r, const struct comparison_set *s,
		       struct strbuf *why)
{
	const struct bisect_ctx *x = ctx;
	int m = result_metric_index(r, x->b->primary);
	struct bisect_rec_cmp cmp[2];
	enum bisect_call call;

	memset(cmp, 0, sizeof(cmp));
	for (size_t v = 1; v < 3 && v < r->nvariants && m >= 0; v++) {
		const struct comparison *c = comparisons_find(s, (size_t)m, v);

		if (c)
			bisect_cmp_from(r, c, 1, &cmp[v - 1]);
	}
	call = bisect_decide(&cmp[0], &cmp[1], x->b->premise.vs_good.ratio);
	if (call == CALL_UNDECIDED)
		return 0;
	strbuf_addf(why, "the candidate is placed on %s: %s", x->b->primary,
		    call == CALL_LIKE_GOOD ? "like good" : call == CALL_LIKE_BAD ? "like bad"
		    : "between good and bad");
	return 1;
}

static void plan_step(struct bisect_ctx *x, const struct variant_set *vs, int profile,
		      struct step_campaign *sc, const char *out_name)
{
	struct compare_plan *p = &sc->p;

	compare_defaults(p);
	if (vs->n == 3) {
		/* A candidate: the step stops once the candidate is placed
		 * (bisect_decide); its verdict words use the step's band. The
		 * premise and the culprit's own change keep compare's band. */
		p->noise_band = 100 * x->b->step_band;
		p->target_ci = 100 * x->b->step_band;
		p->o.stop.decide = step_placed;
		p->o.stop.decide_ctx = x;
	}
	for (size_t i = 0; i < vs->n; i++) {
		sc->wt[i] = revisions_worktree(&x->rev, vs->c[i]->sha);
		sc->argv[i] = command_in(x, sc->wt[i]);
		p->names[i] = vs->names[i];
		p->argv[i] = sc->argv[i];
	}
	p->nvariants = vs->n;
	p->o.cwd = (const char *const *)sc->wt;
	p->o.metrics = x->metrics;
	p->primary = x->b->primary;
	p->primary_given = 1;
	sc->out = path_in(x, "steps/%s", out_name);
	p->o.json_path = sc->out;
	p->o.seed = x->o->seed + (uint64_t)x->next_index;
	if (x->o->max_time_s > 0)
		p->o.max_time_s = x->o->max_time_s;
	if (x->timeout_s > 0)
		p->o.timeout_s = x->timeout_s;
	if (x->b->exact) {
		/* An exact count does not vary: a few blocks say all there is. */
		p->blocks = EXACT_BLOCKS;
		p->o.warmup = 0;
	}
	p->o.profile = profile ? PROFILE_TIME | PROFILE_ALLOCS : 0;
	p->o.progress = x->o->progress;
	compare_settle(p);
}

/* --profile: the functions and allocation sites whose change is largest
 * (the analysis lists both by the size of their change). A function's
 * interval is its time's, as a ratio to the parent's (from 0: a time is
 * not negative). */
static void take_profile(struct bisect_ctx *x, const struct analysed *an, const char *rel)
{
	struct bisect_result *b = x->b;
	const struct attribution *at = an->at.n ? &an->at.a[0] : NULL;
	const struct allocsite_table *st = an->sites ? &an->sites[1] : NULL;

	b->profile_result = xstrdup(rel);
	b->hot_fns = xcalloc(HOT_MAX, sizeof(*b->hot_fns));
	for (size_t i = 0; at && i < at->nfn && b->nhot_fns < HOT_MAX; i++) {
		const struct attribution_fn *f = &at->fn[i];

		b->hot_fns[b->nhot_fns++] = (struct bisect_rec_hot){
			xstrdup(attribution_fn_name(an->r, f->metric)),
			at->total_a > 0 ? f->mean_a / at->total_a : NAN,
			at->total_b > 0 ? f->mean_b / at->total_b : NAN,
			f->mean_a > 0 ? f->mean_b / f->mean_a : NAN,
			f->mean_a > 0 ? fmax(0, (f->mean_a + f->lo) / f->mean_a) : NAN,
			f->mean_a > 0 ? (f->mean_a + f->hi) / f->mean_a : NAN };
	}
	b->hot_sites = xcalloc(HOT_MAX, sizeof(*b->hot_sites));
	for (size_t i = 0; st && i < st->n && b->nhot_sites < HOT_MAX; i++)
		b->hot_sites[b->nhot_sites++] = (struct bisect_rec_hot){
			xstrdup(st->row[i].key), st->row[i].a[0], st->row[i].b[0], NAN, NAN, NAN };
}

/*
 * The longest a run took, in seconds, or NaN: the largest wall time of a
 * timed run, or of the gap from a run's start to the next one's (which
 * covers the runs of every kind — instrumented, profiled — whose own wall
 * time is not a valid value, and pmustat's time between them).
 */
static double slowest_run(const struct result *r)
{
	int m = result_metric_index(r, "wall-time");
	double most = NAN;

	for (size_t i = 0; i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];
		double t = NAN;

		if (m >= 0 && run->status == RUN_OK && run->values[m].valid)
			t = run->values[m].value / 1e9;
		if (i + 1 < r->nruns && run->status == RUN_OK)
			t = fmax(t, r->runs[i + 1].start_time - run->start_time);
		if (isfinite(t) && !(t <= most))
			most = t;
	}
	return most;
}

/* The primary metric's comparisons of the finished campaign into s: each
 * variant after the first against it (invert: the first against each). */
static void take_evidence(struct bisect_ctx *x, const struct analysed *an, int invert,
			  struct bisect_rec_step *s)
{
	const struct result *r = an->r;
	int m = result_metric_index(r, x->b->primary);
	struct bisect_rec_cmp *into[2] = { &s->vs_good, &s->vs_bad };

	for (size_t v = 1; v < r->nvariants && v < 3 && m >= 0; v++) {
		const struct comparison *c = comparisons_find(&an->cmp, (size_t)m, v);

		if (c)
			bisect_cmp_from(r, c, invert, into[v - 1]);
		if (c && x->b->exact && !x->varied &&
		    (c->method != CMP_EXACT || c->exact_varies)) {
			/* Two blocks decide an exact count only if it is one. */
			bisect_add_note(x->b, 1, "%s varied between runs of the same commit (step "
					"%d): it is not an exact count for this program, so %d blocks "
					"may not decide; follow a timed metric (--primary task-clock)",
					x->b->primary, s->index, EXACT_BLOCKS);
			x->varied = 1;
		}
	}
	s->runs = r->nruns;
	s->blocks = an->cmp.blocks_total;
	s->slowest_s = slowest_run(r);
	s->stop_reason = r->stop_reason ? xstrdup(r->stop_reason) : NULL;
}

/* The variant whose run stopped the campaign (the last run, failed), or -1. */
static int failed_variant(const struct campaign *c)
{
	const struct result_run *r = c->res.nruns ? &c->res.runs[c->res.nruns - 1] : NULL;

	return r && r->status != RUN_OK && r->status != RUN_INTERRUPTED ? r->variant : -1;
}

/*
 * Compare the variants of vs (the first is the baseline) in one campaign
 * written to DIR/steps/out_name; the evidence into s. 1 when it was
 * interrupted (nothing decided); 2 when a run of the first variant failed
 * (err says how; a candidate is then skipped); -1 with err.
 */
static int compare_step(struct bisect_ctx *x, const struct variant_set *vs, int profile,
			const char *out_name, struct bisect_rec_step *s, struct error *err)
{
	struct step_campaign sc = { 0 };
	struct analysed an = { 0 };
	struct campaign c;
	struct error fin;
	json_t *sections;
	int rc;

	plan_step(x, vs, profile, &sc, out_name);
	error_clear(&fin);
	if (compare_prepare(&c, &sc.p, err)) {
		campaign_release(&c);
		step_campaign_release(&sc, vs->n);
		return -1;
	}
	rc = campaign_run(&c, err) ? -1 : 0;
	if (rc && failed_variant(&c) == 0)
		rc = 2;
	analysed_build(&c.res, &an);
	sections = analysed_json(&an);
	if (campaign_finish(&c, sections, &fin) && !rc) {
		*err = fin;
		rc = -1;
	}
	json_decref(sections);
	if (!rc && c.res.interrupted)
		rc = 1;
	if (rc != -1 && rc != 1)
		s->result = xstrdup(sc.out + strlen(x->dir) + 1);
	if (!rc) {
		take_evidence(x, &an, vs->n == 3, s);
		if (profile)
			take_profile(x, &an, s->result);
	} else {
		s->runs = c.res.nruns;
	}
	x->b->runs_total += rc == 1 ? c.res.nruns : 0;
	analysed_release(&an);
	campaign_release(&c);
	step_campaign_release(&sc, vs->n);
	return rc;
}

/* ---- the steps ------------------------------------------------------------------- */

static void step_init(struct bisect_ctx *x, struct bisect_rec_step *s, enum bisect_kind kind,
		      const struct bisect_rec_commit *c, size_t position)
{
	memset(s, 0, sizeof(*s));
	s->index = x->next_index;
	s->kind = kind;
	bisect_rec_commit_copy(&s->c, c);
	s->position = position;
	s->build_exit = -1;
	s->slowest_s = NAN;
}

static void set_reason(struct bisect_ctx *x, struct bisect_rec_step *s)
{
	struct strbuf sb = STRBUF_INIT;

	bisect_reason(s, x->b->primary, &sb);
	s->reason = strbuf_detach(&sb);
}

/* Build the endpoints: a failure of either is an error, not a skip. */
static int prepare_endpoint(struct bisect_ctx *x, const struct bisect_rec_commit *c,
			    const char *which, struct bisect_rec_step *s, struct error *err)
{
	int rc = prepare_commit(x, c, s, err);

	if (rc || s->build != BUILD_FAILED)
		return rc;
	if (x->build_timed_out) {
		error_set(err, ERR_RUNTIME, "the build of the %s commit %s timed out after %g s",
			  which, c->abbrev, x->o->build_timeout_s);
		return error_hint(err, "give it longer (--build-timeout), or see %s/%s; a "
				       "bisect needs both endpoints built", x->dir, s->build_log);
	}
	error_set(err, ERR_RUNTIME, "the build of the %s commit %s failed (exit %d)", which,
		  c->abbrev, s->build_exit);
	return error_hint(err, "see %s/%s; a bisect needs both endpoints built", x->dir,
			  s->build_log);
}

static int premise(struct bisect_ctx *x, struct error *err)
{
	struct bisect_result *b = x->b;
	struct variant_set vs = { { &b->good, &b->bad }, { "good", "bad" }, 2 };
	struct bisect_rec_step s, sg;
	int rc;

	step_init(x, &s, STEP_PREMISE, &b->bad, x->n);
	step_init(x, &sg, STEP_PREMISE, &b->good, 0);
	/* 1: a build was interrupted. */
	rc = prepare_endpoint(x, &b->good, "good", &sg, err);
	if (!rc)
		rc = prepare_endpoint(x, &b->bad, "bad", &s, err);
	if (!rc) {
		say(x, "premise: comparing good %s with bad %s on %s", b->good.abbrev, b->bad.abbrev,
		    b->primary);
		rc = compare_step(x, &vs, 0, "00-premise.json", &s, err);
		rc = rc == 2 ? -1 : rc;	/* an endpoint that fails is an error */
	}
	if (!rc) {
		s.call = bisect_premise(&s.vs_good, b->noise_band);
		set_reason(x, &s);
		rc = record_step(x, &s, err);
	}
	bisect_rec_step_release(&s);
	bisect_rec_step_release(&sg);
	return rc;
}

/* A candidate that cannot be measured is skipped as `git bisect skip` does:
 * its build failed or timed out (why: NULL, the log's last lines are
 * shown), or one of its runs failed (why: the error). */
static int skip_candidate(struct bisect_ctx *x, struct bisect_rec_step *s, const char *why,
			  struct error *err)
{
	struct strbuf tail = STRBUF_INIT, reason = STRBUF_INIT;
	char *log = s->build_log ? path_in(x, "%s", s->build_log) : NULL;
	int rc;

	s->call = CALL_SKIPPED;
	if (why) {
		strbuf_addf(&reason, "skipped: its runs failed: %s", why);
		say(x, "skip: %s %s: its runs failed: %s", s->c.abbrev, s->c.subject, why);
	} else if (x->build_timed_out) {
		strbuf_addf(&reason, "skipped: the build timed out after %g s, see %s",
			    x->o->build_timeout_s, s->build_log);
		say(x, "skip: %s %s: the build timed out after %g s (--build-timeout) and was "
		    "killed; its output is in %s", s->c.abbrev, s->c.subject,
		    x->o->build_timeout_s, log);
	} else {
		revisions_log_tail(&x->rev, s->c.sha, &tail);
		strbuf_addf(&reason, "skipped: the build failed (exit %d), see %s", s->build_exit,
			    s->build_log);
		say(x, "skip: %s %s: the build failed (exit %d); its last lines (%s):\n%s",
		    s->c.abbrev, s->c.subject, s->build_exit, log, tail.buf);
	}
	s->reason = strbuf_detach(&reason);
	rc = record_step(x, s, err);
	strbuf_release(&tail);
	free(log);
	return rc;
}

/*
 * A decided candidate's worktree goes (a large checkout and its build may
 * weigh hundreds of megabytes, times the steps): one like good or skipped
 * at once, one like bad when a newer one is called bad — the newest may be
 * the culprit, measured again at the end. The endpoints stay; the confirm
 * step remakes a parent it needs. Kept with --keep-worktrees.
 */
static void drop_decided(struct bisect_ctx *x, const struct bisect_rec_step *s)
{
	const char *gone = s->c.sha;
	char prev[41];
	struct error e;

	if (x->o->keep_worktrees)
		return;
	if (s->call == CALL_LIKE_BAD) {
		memcpy(prev, x->last_bad, sizeof(prev));
		memcpy(x->last_bad, s->c.sha, sizeof(x->last_bad));
		if (!prev[0])
			return;
		gone = prev;
	} else if (s->call != CALL_LIKE_GOOD && s->call != CALL_SKIPPED) {
		return;
	}
	error_clear(&e);
	if (revisions_remove(&x->rev, gone, &e))
		say(x, "warning: %s", e.msg);
}

static int candidate(struct bisect_ctx *x, const struct bisect_next *nx, struct error *err)
{
	size_t pos = nx->pos;
	struct bisect_result *b = x->b;
	const struct bisect_rec_commit *c = &x->range[pos];
	struct variant_set vs = { { c, &b->good, &b->bad }, { c->abbrev, "good", "bad" }, 3 };
	struct bisect_rec_step s;
	char name[64];
	int rc;

	step_init(x, &s, STEP_CANDIDATE, c, pos + 1);
	s.window_lo = nx->window_lo;
	s.window_hi = nx->window_hi;
	rc = prepare_commit(x, c, &s, err);
	if (!rc && s.build == BUILD_FAILED)
		rc = skip_candidate(x, &s, NULL, err);
	else if (!rc) {
		say(x, "step %d: %s %s (%zu of %zu still open), against good and bad", s.index,
		    c->abbrev, c->subject, nx->nleft, x->n);
		snprintf(name, sizeof(name), "%02d-%s.json", s.index, c->abbrev);
		rc = compare_step(x, &vs, 0, name, &s, err);
		if (rc == 2) {
			struct error why = *err;

			error_clear(err);
			rc = skip_candidate(x, &s, why.msg, err);
		} else if (!rc) {
			s.call = bisect_decide(&s.vs_good, &s.vs_bad, b->premise.vs_good.ratio);
			set_reason(x, &s);
			say(x, "  %s", s.reason);
			rc = record_step(x, &s, err);
		}
	}
	if (!rc)
		drop_decided(x, &s);
	bisect_rec_step_release(&s);
	return rc;
}

/* The first parent of the commit at pos, as a record: the range's entry,
 * good, or read from git. 1 for a root commit (none). */
static int parent_of(struct bisect_ctx *x, size_t pos, struct bisect_rec_commit *p,
		     struct error *err)
{
	const char *sha = x->rg.first_parent[pos];
	size_t i;

	memset(p, 0, sizeof(*p));
	if (!sha[0])
		return 1;
	if (!strmap_get(&x->at, sha, 40, &i)) {
		bisect_rec_commit_copy(p, &x->range[i]);
		return 0;
	}
	if (!strcmp(sha, x->b->good.sha)) {
		bisect_rec_commit_copy(p, &x->b->good);
		return 0;
	}
	return git_describe(x->top, sha, p, err);
}

/* The parent and the culprit built for the confirm step: 0; 1 interrupted;
 * -1 with err; 3 when one did not build (said in a note: the culprit's
 * own change is then not measured, and the premise's stands for it). */
static int prepare_both(struct bisect_ctx *x, const struct bisect_rec_commit *parent,
			const struct bisect_rec_commit *culprit, struct bisect_rec_step *s,
			struct error *err)
{
	const struct bisect_rec_commit *c[2] = { parent, culprit };

	for (size_t i = 0; i < 2; i++) {
		int rc = prepare_commit(x, c[i], s, err);

		if (rc)
			return rc;
		if (s->build == BUILD_FAILED) {
			bisect_add_note(x->b, 1, "the build of the culprit's %s %s %s (see %s): its "
					"own change is not measured, the premise's is shown",
					i ? "own commit" : "parent", c[i]->abbrev,
					x->build_timed_out ? "timed out" : "failed", s->build_log);
			return 3;
		}
	}
	return 0;
}

/* The culprit against its (first) parent: the size of its own change. */
static int confirm(struct bisect_ctx *x, size_t pos, struct error *err)
{
	struct bisect_result *b = x->b;
	struct bisect_rec_commit parent;
	struct variant_set vs = { { &parent, &x->range[pos] }, { "parent", "culprit" }, 2 };
	struct bisect_rec_step s;
	char name[64];
	int rc = parent_of(x, pos, &parent, err);

	if (rc == 1) {
		bisect_add_note(b, 1, "the culprit %s is a root commit: there is no parent to "
				"compare it with", x->range[pos].abbrev);
		return 0;
	}
	if (rc)
		return -1;
	step_init(x, &s, STEP_CONFIRM, &x->range[pos], pos + 1);
	rc = prepare_both(x, &parent, &x->range[pos], &s, err);
	if (!rc) {
		say(x, "confirming: %s against its parent %s%s", x->range[pos].abbrev,
		    parent.abbrev, x->o->profile ? ", profiled" : "");
		snprintf(name, sizeof(name), "%02d-confirm.json", s.index);
		rc = compare_step(x, &vs, x->o->profile, name, &s, err);
		rc = rc == 2 ? -1 : rc;
	}
	if (!rc) {
		s.call = bisect_premise(&s.vs_good, b->noise_band);
		set_reason(x, &s);
		rc = record_step(x, &s, err);
	}
	bisect_rec_step_release(&s);
	bisect_rec_commit_release(&parent);
	return rc == 3 ? 0 : rc;
}

/* A merge named as the culprit: what that means, and where to look next. */
static void merge_culprit(struct bisect_ctx *x, size_t pos)
{
	const struct bisect_rec_commit *c = &x->range[pos];

	if (x->rg.nparents[pos] < 2)
		return;
	if (x->o->first_parent)
		bisect_add_note(x->b, 0, "the culprit %s is a merge on the first-parent line: the "
				"change came with the branch it merged; to find the commit on that "
				"branch, bisect without --first-parent (--good %.12s --bad %s)",
				c->abbrev, x->rg.first_parent[pos], c->abbrev);
	else
		bisect_add_note(x->b, 0, "the culprit %s is a merge whose parents are both good: "
				"the change comes from combining them (compared here with its first "
				"parent)", c->abbrev);
}

static void set_culprit(struct bisect_ctx *x, size_t pos)
{
	struct bisect_result *b = x->b;

	b->outcome = BISECT_FOUND;
	b->has_culprit = 1;
	bisect_rec_commit_copy(&b->culprit, &x->range[pos]);
	memcpy(b->parent, x->rg.first_parent[pos], 41);
	merge_culprit(x, pos);
	if (b->has_confirm) {
		b->change = b->confirm.vs_good;
		if (b->confirm.call != CALL_DIFFER)
			bisect_add_note(b, 1, "the culprit does not differ from its parent on its "
					"own (%s): the change may be spread over several commits",
					b->confirm.reason);
	} else {
		b->change = b->premise.vs_good;
	}
}

static void set_remaining(struct bisect_ctx *x, const struct bisect_next *nx)
{
	struct bisect_result *b = x->b;

	bisect_add_note(b, 1, "only commits that did not build are left: the first bad commit "
			"is one of the %zu remaining; fix their build (or give --build) to decide",
			nx->nleft);
	b->outcome = BISECT_SKIPPED_ONLY;
	b->remaining = xcalloc(nx->nleft, sizeof(*b->remaining));
	for (size_t i = 0; i < nx->nleft; i++)
		bisect_rec_commit_copy(&b->remaining[b->nremaining++], &x->range[nx->left[i]]);
}

/* The last candidate step decided, or NULL. */
static const struct bisect_rec_step *last_candidate(const struct bisect_result *b)
{
	for (size_t i = b->nsteps; i-- > 0;)
		if (b->steps[i].call != CALL_SKIPPED)
			return &b->steps[i];
	return NULL;
}

/* A confirm step decided in an earlier run: its profile is read back from
 * its result (the journal keeps the step, not the profile's top). */
static void reload_profile(struct bisect_ctx *x)
{
	const struct bisect_rec_step *s = &x->b->confirm;
	struct result res;
	struct analysed an;
	struct error e;
	char *path;

	if (!x->o->profile || x->b->profile_result || !s->result)
		return;
	path = path_in(x, "%s", s->result);
	error_clear(&e);
	if (!report_json_read(&res, path, &e)) {
		analysed_build(&res, &an);
		take_profile(x, &an, s->result);
		analysed_release(&an);
		result_release(&res);
	} else {
		bisect_add_note(x->b, 1, "the profile of the culprit could not be read back from "
				"%s: %s", s->result, e.msg);
	}
	free(path);
}

/* The search ends at a step that is not a side: say what to do next. */
static void stopped_at(struct bisect_ctx *x, const struct bisect_rec_step *s)
{
	struct bisect_result *b = x->b;

	if (s->call == CALL_NEITHER) {
		b->outcome = BISECT_NEITHER;
		bisect_add_note(b, 1, "a candidate was neither like good nor like bad: a gradual "
				"change or more than one; bisect the two halves separately (--good "
				"%s --bad %s, then --good %s --bad %s)", b->good.abbrev,
				s->c.abbrev, s->c.abbrev, b->bad.abbrev);
	} else {
		b->outcome = BISECT_UNDECIDED;
		bisect_add_note(b, 1, "step %d (%s) was not decided before its budget ended: "
				"rerun with a larger --max-time to resume there, or follow a "
				"steadier metric (--primary task-clock, or an exact count such as "
				"allocs)", s->index, s->c.abbrev);
	}
}

/* Candidates until one call ends the search. 1: interrupted. */
static int search(struct bisect_ctx *x, struct error *err)
{
	struct bisect_next nx = { 0 };
	const struct bisect_rec_step *last;
	int rc = 0;

	for (;;) {
		last = last_candidate(x->b);
		if (last && (last->call == CALL_NEITHER || last->call == CALL_UNDECIDED)) {
			stopped_at(x, last);
			return 0;
		}
		bisect_next_release(&nx);
		bisect_next(&x->rg.dag, x->marks, &nx);
		if (nx.what == NEXT_SKIPPED_ONLY) {
			set_remaining(x, &nx);
			bisect_next_release(&nx);
			return 0;
		}
		if (nx.what == NEXT_FOUND)
			break;
		rc = candidate(x, &nx, err);
		if (rc) {
			bisect_next_release(&nx);
			return rc;
		}
	}
	if (!x->b->has_confirm && (rc = confirm(x, nx.pos, err)))
		return rc;
	reload_profile(x);
	set_culprit(x, nx.pos);
	return 0;
}

/*
 * What the premise says for the steps: the direction, and the band of the
 * steps' verdict words — a quarter of the premise's change on the log
 * scale, at least compare's noise band. A candidate is placed by which side
 * of the middle of the premise's change its interval lies on
 * (bisect_decide), so a commit whose own change is a small part of the
 * whole may be called like an endpoint (said in a note). Exact counts keep
 * compare's band.
 */
static void take_premise(struct bisect_result *b)
{
	const char *w = b->premise.vs_good.word;
	double r = b->premise.vs_good.ratio;

	snprintf(b->direction, sizeof(b->direction), "%.*s", (int)strcspn(w, " "), w);
	b->step_band = b->noise_band;
	if (!b->exact && isfinite(r) && r > 0)
		b->step_band = fmax(b->noise_band, expm1(fabs(log(r)) / 4));
	if (b->step_band > b->noise_band && b->premise.call == CALL_DIFFER)
		bisect_add_note(b, 0, "a candidate is called like the endpoint on whose side of "
				"the middle of the premise's change (%+.1f%%) it lies: a commit "
				"changing less than about a fifth of that (±%.1f%%) may be called "
				"like an endpoint", 100 * (r - 1), 100 * expm1(fabs(log(r)) / 5));
}

/*
 * Every run after the premise stops at --timeout, or else at ten times the
 * premise's slowest run (at least DEFAULT_TIMEOUT_MIN s): a candidate whose
 * program hangs is skipped instead of holding the search for ever.
 */
#define DEFAULT_TIMEOUT_MIN 10.0
static void set_timeout(struct bisect_ctx *x)
{
	double slowest = x->b->premise.slowest_s;

	if (x->o->timeout_s > 0) {
		x->timeout_s = x->o->timeout_s;
		return;
	}
	if (!isfinite(slowest)) {
		bisect_add_note(x->b, 1, "the premise's runs have no wall time to set a timeout "
				"from: a candidate whose program hangs holds the search; give "
				"--timeout S");
		return;
	}
	x->timeout_s = fmax(DEFAULT_TIMEOUT_MIN, 10 * slowest);
	bisect_add_note(x->b, 0, "a run longer than %.3g s is stopped and its candidate "
			"skipped (ten times the premise's slowest run, at least %g s; --timeout "
			"S to change)", x->timeout_s, DEFAULT_TIMEOUT_MIN);
}

/* s names the file at path or under it (both resolved where they exist). */
static int path_under(const char *s, const char *top)
{
	char *real = realpath(s, NULL);
	const char *p = real ? real : s;
	size_t n = strlen(top);
	int under = !strncmp(p, top, n) && (p[n] == '/' || !p[n]);

	free(real);
	return under;
}

/*
 * The measured command runs in each candidate's worktree, and a relative
 * program path is the candidate's build; a path into the user's own work
 * tree, or an absolute program, is the same file for every candidate —
 * then the search measures nothing that changes with the commit but what
 * the program reads from its working directory. Said at the start.
 */
static void check_program(struct bisect_ctx *x)
{
	char *const *a = x->o->argv;

	for (size_t i = 0; a[i]; i++)
		if (a[i][0] == '/' && path_under(a[i], x->top)) {
			bisect_add_note(x->b, 1, "'%s' is in your work tree, not in a candidate's "
					"worktree: every candidate uses that one file; name it "
					"relative to the repository (./%s) to use each commit's",
					a[i], a[i] + strlen(x->top) + (a[i][strlen(x->top)] == '/'));
			say(x, "warning: %s", x->b->notes[x->b->nnotes - 1].text);
			return;
		}
	if (a[0][0] == '/') {
		bisect_add_note(x->b, 1, "the program '%s' is the same file for every candidate: "
				"only what it reads from its working directory (the candidate's "
				"worktree) changes; name the commit's build relative to the "
				"repository (-- ./prog) to measure each commit's", a[0]);
		say(x, "warning: %s", x->b->notes[x->b->nnotes - 1].text);
	}
}

static int setup(struct bisect_ctx *x, struct error *err)
{
	if (git_toplevel(&x->top, err) || git_check_clean(x->top, err) ||
	    check_revisions(x, err) || make_dirs(x, err))
		return -1;
	fill_head(x);
	check_program(x);
	/* The document is there from the start (complete: false), so that
	 * report shows a search that is still running. */
	return start_revisions(x, err) || load_range(x, err) || journal_open(x, err) ||
	       write_result(x, err) ? -1 : 0;
}

static int run_all(struct bisect_ctx *x, struct error *err)
{
	int rc = 0;

	if (!x->b->has_premise)
		rc = premise(x, err);
	if (rc)
		return rc;
	take_premise(x->b);
	set_timeout(x);
	if (x->b->premise.call != CALL_DIFFER) {
		x->b->outcome = BISECT_NO_DIFFERENCE;
		return 0;
	}
	x->marks[x->n - 1] = MARK_BAD;
	return search(x, err);
}

int bisect_run(const struct bisect_opts *o, struct bisect_result *b, struct error *err)
{
	struct bisect_ctx x = { .o = o, .b = b, .journal_fd = -1, .timeout_s = o->timeout_s };
	int rc;

	bisect_result_init(b);
	b->outcome = BISECT_RUNNING;
	rc = setup(&x, err);
	if (!rc) {
		rc = run_all(&x, err);
		if (rc == 1) {
			b->outcome = BISECT_INTERRUPTED;
			rc = 0;
		}
		b->complete = !rc && b->outcome != BISECT_INTERRUPTED;
		if (!rc && write_result(&x, err))
			rc = -1;
		if (b->complete && !o->keep_worktrees)
			revisions_remove_all(&x.rev);
	}
	if (x.journal_fd >= 0)
		close(x.journal_fd);
	if (x.rev_ready)
		revisions_release(&x.rev);
	json_decref(x.args);
	git_range_release(&x.rg);
	strmap_release(&x.at);
	free(x.marks);
	free(x.metrics);
	free(x.top);
	free(x.dir);
	return rc;
}
