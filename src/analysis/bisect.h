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

/* What is known of the commits in (good, bad], oldest first; the last
 * one is bad. */
enum bisect_mark { MARK_UNKNOWN, MARK_GOOD, MARK_BAD, MARK_SKIP };

struct bisect_next {
	enum { NEXT_TEST, NEXT_FOUND, NEXT_SKIPPED_ONLY } what;
	size_t pos;		/* NEXT_TEST: position to test; NEXT_FOUND: the first bad */
	size_t first, last;	/* NEXT_SKIPPED_ONLY: the first bad is in [first, last],
				 * every one of them skipped but last (bad) */
	size_t window_lo, window_hi;	/* what is still open, as 1-based positions:
					 * the last good one (0 = good), the first bad one */
};

/*
 * The next step of the search over marks[0..n) (n >= 1, marks[n-1] is
 * treated as bad): the first bad position hi and the last good one below
 * it bound the unknown ones; the one nearest their middle is tested (the
 * lower of two equally near), skipping skipped ones as `git bisect skip`
 * does. None left: the first bad is hi, or (only skipped ones between) one
 * of them or hi.
 */
void bisect_next(const enum bisect_mark *marks, size_t n, struct bisect_next *out);

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
