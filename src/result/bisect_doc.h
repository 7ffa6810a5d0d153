/*
 * A bisect's result as read back from its document (schema
 * "pmustat.bisect/1", written by `pmustat bisect` as DIR/bisect.json): the
 * endpoints, the premise, every step in the order it was decided with its
 * evidence against good and against bad, the confirmation of the culprit
 * against its parent, the outcome, and the profile's top differences. It is
 * what the renderers of a bisect read (report/bisect.h); nothing here is
 * computed, every figure is the document's. docs/bisect.md describes the
 * fields; a field the document lacks keeps its "absent" value (NULL, NAN,
 * has_* = 0), so a document of an older or newer writer still renders.
 */
#ifndef PMU_RESULT_BISECT_DOC_H
#define PMU_RESULT_BISECT_DOC_H

#include <stddef.h>

#include "core/error.h"

#define BISECT_SCHEMA "pmustat.bisect/1"

struct bisect_commit {
	char *rev;		/* as given on the command line (good, bad), or NULL */
	char *commit;		/* 40 hex digits */
	char *abbrev;		/* the document's "short" */
	char *subject;
};

/* One comparison of a step: this (the candidate, bad, the culprit)
 * against that (good, bad, the parent). present = 0: null in the document. */
struct bisect_cmp {
	int present;
	char *metric, *verdict;
	double ratio, ci_lo, ci_hi, mean_this, mean_that;
	size_t n;
	int exact;
};

struct bisect_step {
	int present;
	int index;
	char *kind;		/* "premise", "candidate", "confirm" */
	struct bisect_commit c;
	size_t position;	/* 1 = oldest after good, candidates = bad */
	char *outcome;		/* "like-good", "like-bad", "neither", "undecided", "skipped",
				 * "differ", "same" */
	char *reason;
	char *build_status, *build_log;	/* "ok", "cached", "failed", "none" */
	int build_exit, has_build_exit;
	struct bisect_cmp vs_good, vs_bad;
	size_t runs, blocks;
	char *stop_reason, *result;
	int has_window;		/* optional: the range still open when it was chosen */
	size_t window_lo, window_hi;
};

struct bisect_profile_fn {
	char *name;
	double ratio, ci_lo, ci_hi, share_base, share_culprit;
};

struct bisect_profile_site {
	char *site;
	double calls_base, calls_culprit;
};

struct bisect_note {
	int warning;
	char *text;
};

struct bisect_doc {
	char *tool_version, *created, *repository;
	int complete;
	char **command;		/* NULL-terminated argv */
	char *build_command;
	int build_shell;
	char *primary;
	int exact;
	double alpha, noise_band;
	struct bisect_commit good, bad;
	size_t candidates, max_decisions;
	struct bisect_step premise, confirm;
	struct bisect_step *steps;
	size_t nsteps;
	char *outcome;		/* "found", "no-difference", "neither", "undecided",
				 * "skipped-only", "interrupted" */
	char *direction;	/* "slower", "faster", "higher", "lower" */
	int has_culprit;
	struct bisect_commit culprit;
	char *culprit_parent;
	struct bisect_cmp change;
	struct bisect_commit *remaining, *range;	/* range: optional, (good, bad] */
	size_t nremaining, nrange;
	size_t decisions, skipped, runs_total;
	int has_profile;
	char *profile_result;
	struct bisect_profile_fn *functions;
	size_t nfunctions;
	struct bisect_profile_site *sites;
	size_t nsites;
	struct bisect_note *notes;
	size_t nnotes;
};

/* Is the file at path a bisect document (a regular file whose "schema" is
 * BISECT_SCHEMA)? A pipe or an unreadable file is not: it is left to the
 * result reader, which reads anything once and says what is wrong. */
int bisect_doc_sniff(const char *path);
/* Read path into d. Every field is checked for its type and range; an
 * error names the field (and the step it is in). On failure d holds
 * nothing to release. */
int bisect_doc_read(struct bisect_doc *d, const char *path, struct error *err);
void bisect_doc_release(struct bisect_doc *d);

#endif
