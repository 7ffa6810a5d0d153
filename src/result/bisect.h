/*
 * The result of `pmustat bisect` as plain data, and its JSON (schema
 * pmustat.bisect/1, docs/schema/bisect.schema.json): the two endpoints, the
 * premise (good against bad), every step with its evidence (the candidate
 * against both endpoints, or the build that failed), the confirmation
 * (the culprit against its parent), the outcome and the culprit. The steps
 * are also the lines of the bisect's journal, so that an interrupted search
 * resumes where it stopped: a step read back is the step written.
 *
 * Reading checks the type of every field it uses: the directory may hold
 * anything by the time it is read again.
 */
#ifndef PMU_RESULT_BISECT_H
#define PMU_RESULT_BISECT_H

#include <stddef.h>

#include <jansson.h>

#include "core/error.h"

#define BISECT_SCHEMA "pmustat.bisect/1"
#define BISECT_JOURNAL_SCHEMA "pmustat.bisect-journal/1"

/* How the search ended (or that it has not). */
enum bisect_outcome {
	BISECT_RUNNING,
	BISECT_FOUND,		/* culprit set */
	BISECT_NO_DIFFERENCE,	/* the premise failed: good and bad do not differ */
	BISECT_NEITHER,		/* a candidate was like neither endpoint */
	BISECT_UNDECIDED,	/* a step's budget ended before its decision */
	BISECT_SKIPPED_ONLY,	/* only unbuildable commits are left: remaining */
	BISECT_INTERRUPTED,
};

enum bisect_kind { STEP_PREMISE, STEP_CANDIDATE, STEP_CONFIRM };

/* What one step said. */
enum bisect_call {
	CALL_LIKE_GOOD,
	CALL_LIKE_BAD,
	CALL_NEITHER,		/* differs from both endpoints */
	CALL_UNDECIDED,		/* the evidence did not settle it */
	CALL_SKIPPED,		/* not measured: its build failed */
	CALL_DIFFER,		/* premise, confirm: the two differ */
	CALL_SAME,		/* premise, confirm: they do not */
};

enum bisect_build { BUILD_NONE, BUILD_OK, BUILD_CACHED, BUILD_FAILED };

struct bisect_rec_commit {
	char sha[41];
	char abbrev[16];
	char *subject;
	char *rev;		/* as the user wrote it (endpoints), or NULL */
};

/* One comparison's evidence: this (the candidate, bad, the culprit)
 * against that (an endpoint, good, the parent) on the primary metric. */
struct bisect_rec_cmp {
	int valid;
	double ratio, ci_lo, ci_hi;
	double mean_this, mean_that;	/* display units */
	size_t n;
	int exact;			/* an exact count: the interval is the blocks' range */
	int verdict;			/* enum stats_verdict */
	char word[32];			/* "slower", "higher (size uncertain)", ... */
};

struct bisect_rec_step {
	int index;			/* 0: the premise; then in decision order */
	enum bisect_kind kind;
	struct bisect_rec_commit c;		/* the candidate (premise: bad; confirm: the culprit) */
	size_t position;		/* 1 = oldest after good, ..., candidates = bad */
	enum bisect_call call;
	char *reason;			/* one sentence */
	enum bisect_build build;
	char *build_log;		/* relative to the results directory, or NULL */
	int build_exit;			/* -1: none */
	struct bisect_rec_cmp vs_good, vs_bad;	/* premise: vs_good = bad against good;
						 * confirm: vs_good = culprit against parent */
	size_t runs, blocks;
	char *stop_reason;
	char *result;			/* the step's compare result, relative, or NULL */
	size_t window_lo, window_hi;	/* candidate: the positions still open when it
					 * was chosen (0 = good); hi 0: not known */
	double slowest_s;		/* premise: its slowest run's wall time (s), or NaN */
};

/* A function (base, culprit: its share of the profiled time) or an
 * allocation site (calls per traced run) where the culprit differs from
 * its parent. */
struct bisect_rec_hot {
	char *name;
	double base, culprit;		/* the parent's and the culprit's */
	double ratio, ci_lo, ci_hi;	/* NaN when there is no interval */
};

struct bisect_rec_note {
	int warning;
	char *text;
};

struct bisect_result {
	char tool_version[48];
	double created;
	int complete;
	char *repository;
	char **argv;			/* the measured command, NULL-terminated */
	char *build_cmd;		/* or NULL */
	int build_shell;
	char *primary;
	int exact;
	double alpha, noise_band;	/* the premise's band (compare's) */
	double step_band;		/* the candidates' (a quarter of the premise's change) */
	struct bisect_rec_commit good, bad;
	size_t candidates, max_decisions;	/* max_decisions 0: no bound (merges) */
	int has_premise;
	struct bisect_rec_step premise;
	struct bisect_rec_step *steps;
	size_t nsteps, steps_alloc;
	int has_confirm;
	struct bisect_rec_step confirm;
	enum bisect_outcome outcome;
	char direction[16];		/* "slower", "faster", "higher", "lower", or "" */
	int has_culprit;
	struct bisect_rec_commit culprit;
	char parent[41];
	struct bisect_rec_cmp change;	/* the culprit against its parent */
	struct bisect_rec_commit *remaining;
	size_t nremaining;
	struct bisect_rec_commit *range;	/* (good, bad], oldest first */
	size_t nrange;
	size_t decisions, skipped, runs_total;
	char *profile_result;		/* --profile: the confirm step's result, or NULL */
	struct bisect_rec_hot *hot_fns, *hot_sites;
	size_t nhot_fns, nhot_sites;
	struct bisect_rec_note *notes;
	size_t nnotes, notes_alloc;
};

void bisect_result_init(struct bisect_result *b);
void bisect_result_release(struct bisect_result *b);
void bisect_rec_step_release(struct bisect_rec_step *s);
void bisect_rec_commit_release(struct bisect_rec_commit *c);
/* Deep copies. */
void bisect_rec_commit_copy(struct bisect_rec_commit *dst, const struct bisect_rec_commit *src);
void bisect_rec_step_copy(struct bisect_rec_step *dst, const struct bisect_rec_step *src);

/* Append a copy of s to b's steps. */
void bisect_add_step(struct bisect_result *b, const struct bisect_rec_step *s);
void bisect_add_note(struct bisect_result *b, int warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *bisect_outcome_word(enum bisect_outcome o);
const char *bisect_call_word(enum bisect_call c);
const char *bisect_kind_word(enum bisect_kind k);
const char *bisect_build_word(enum bisect_build b);

/* The document (caller decrefs), and one step as in its arrays. */
json_t *bisect_result_json(const struct bisect_result *b);
json_t *bisect_rec_step_json(const struct bisect_rec_step *s, const char *metric);

/* A step back from its JSON; -1 with err naming the field (what: where it
 * was, for the message). */
int bisect_rec_step_from_json(const json_t *j, struct bisect_rec_step *s, const char *what,
			  struct error *err);
/* A commit object and a comparison object (null: not valid) the same way. */
int bisect_rec_commit_from_json(const json_t *o, struct bisect_rec_commit *c, const char *what,
				struct error *err);
int bisect_rec_cmp_from_json(const json_t *o, struct bisect_rec_cmp *c, const char *what,
			     struct error *err);

#endif
