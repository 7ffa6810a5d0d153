/*
 * The decisions of `pmustat bisect`, pure: is a candidate like the good
 * endpoint, like the bad one, or like neither (from its two comparisons),
 * which commit to test next when some are known and some were skipped, and
 * the evidence of one comparison taken from a compare result. The campaign
 * (campaign/bisect.c) runs the comparisons and asks these; the unit tests
 * (tests/unit/test_bisect.c) check every branch without a repository.
 */
#ifndef PMU_ANALYSIS_BISECT_H
#define PMU_ANALYSIS_BISECT_H

#include <stddef.h>

#include "analysis/comparison.h"
#include "result/bisect.h"
#include "result/result.h"

/* Where one comparison stands. */
enum bisect_side {
	SIDE_SAME,	/* equivalent, or known to within the precision target
			 * and not shown to differ */
	SIDE_DIFF,	/* a direction at the error rate (size uncertain included) */
	SIDE_OPEN,	/* neither: the evidence ran out first */
};

/* From a comparison's verdict and interval: target is the relative
 * half-width (0.01) under which an undirected interval counts as SAME. */
enum bisect_side bisect_side_of(const struct bisect_rec_cmp *c, double target);

/*
 * The three-way decision of a candidate from its comparisons with good and
 * with bad, premise being bad's ratio to good. Each comparison's interval
 * places the candidate on the line from good (0) to bad (1). Neither: it
 * differs from both, lying between them (a gradual change or a second one);
 * like good: an interval lies wholly on good's side of the middle; like bad:
 * wholly on bad's side; undecided: anything else (go on measuring).
 */
enum bisect_call bisect_decide(const struct bisect_rec_cmp *vs_good, const struct bisect_rec_cmp *vs_bad,
			       double premise);

/* The premise: does bad differ from good? CALL_DIFFER or CALL_SAME. */
enum bisect_call bisect_premise(const struct bisect_rec_cmp *bad_vs_good, double target);

/* What is known of a commit of the range. */
enum bisect_mark { MARK_UNKNOWN, MARK_GOOD, MARK_BAD, MARK_SKIP };

/*
 * The commits of the range (those reachable from bad and not from good, as
 * `git rev-list bad ^good` lists them; with --first-parent, bad's
 * first-parent line), parents before children, bad the last, each with its
 * parents that are in the range (a parent outside it is good's ancestor:
 * good). par[first[i] .. first[i + 1]) are commit i's; first has n + 1
 * entries.
 */
struct bisect_dag {
	size_t n;
	size_t *first;
	size_t *par;
};

/* A line of n commits, each the parent of the next (a history without
 * merges, or a first-parent line). */
void bisect_dag_line(struct bisect_dag *g, size_t n);
void bisect_dag_release(struct bisect_dag *g);

struct bisect_next {
	enum { NEXT_TEST, NEXT_FOUND, NEXT_SKIPPED_ONLY } what;
	size_t pos;		/* NEXT_TEST: the commit to test; NEXT_FOUND: the first bad */
	size_t *left;		/* NEXT_SKIPPED_ONLY: where the first bad may be (the
				 * skipped ones and the bad one), oldest first */
	size_t nleft;		/* the commits still possibly the first bad one */
	size_t window_lo, window_hi;	/* what is still open, as 1-based positions:
					 * before the oldest open one (0 = good),
					 * the bad one they are ancestors of */
};

/*
 * The next step of the search, as git bisect defines it: a good commit
 * makes its ancestors good, a bad one its descendants bad, so the first
 * bad commit is among the ancestors of the bad one (the last marked bad:
 * each tested commit is an ancestor of the one before) that are not
 * ancestors of a good one. Of those, the commit that splits them most
 * evenly (the number of them it reaches, itself included, nearest half; the
 * older of two equally good) is tested, skipped ones left out as `git
 * bisect skip` does. None left: the first bad is the bad one, or (only
 * skipped ones left) one of them or it. out->left is the caller's to free
 * (bisect_next_release).
 */
void bisect_next(const struct bisect_dag *g, const enum bisect_mark *marks,
		 struct bisect_next *out);
void bisect_next_release(struct bisect_next *out);

/* ceil(log2(n)): the decisions a binary search over n commits needs at most. */
size_t bisect_max_decisions(size_t n);

/*
 * The evidence of comparison c (variant against r's baseline) as this
 * against that; invert: the other way round (the baseline against the
 * variant: ratio and interval inverted, the verdict read again).
 */
void bisect_cmp_from(const struct result *r, const struct comparison *c, int invert,
		     struct bisect_rec_cmp *out);

/* One sentence for a candidate's call, from its evidence (into out). */
void bisect_reason(const struct bisect_rec_step *s, const char *metric, struct strbuf *out);

#endif
