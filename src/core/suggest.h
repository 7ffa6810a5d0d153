/*
 * Near-name suggestions: "unknown event 'tsk-clock'" is only useful with
 * "did you mean 'task-clock'?". Distance is the optimal-string-alignment
 * variant of Damerau-Levenshtein (a transposition of two adjacent letters
 * costs 1, the commonest typo), compared ASCII case-insensitively because
 * event names mix cases (L1-dcache, dTLB, RETIRED_OPS) and users do not
 * remember which. Only the closest candidates are offered, never a list of
 * everything that is vaguely similar.
 */
#ifndef PMU_CORE_SUGGEST_H
#define PMU_CORE_SUGGEST_H

#include <stddef.h>

struct strbuf;

/* Edit distance between a and b (case-insensitive, adjacent swaps cost 1). */
size_t suggest_distance(const char *a, const char *b);

/*
 * The same distance when it is at most max, else max + 1; it costs
 * O(min(len(a), len(b)) * max) time, and nothing when the lengths alone
 * differ by more than max, so long words are cheap to turn down.
 */
size_t suggest_distance_max(const char *a, const char *b, size_t max);

/*
 * The largest distance at which a candidate is still offered for a word of
 * this length: 1 below 4 letters, 2 below 8, else 3. Short words get a
 * tight bound because almost any two short names are a few edits apart.
 */
size_t suggest_threshold(size_t len);

/*
 * Pick the candidates worth offering for word: those within
 * suggest_threshold() of it (or that word is a prefix of, for words of 3+
 * letters, scored as distance 1), keeping only the ones tied at the best
 * score. Writes at most max indices into cands to out, best first and in
 * candidate order among ties; returns how many. NULL entries in cands are
 * skipped; an exact match (distance 0) is offered too, since the caller
 * only asks when the exact spelling failed (e.g. a different case).
 */
size_t suggest_pick(const char *word, const char *const *cands, size_t ncands,
		    size_t *out, size_t max);

/*
 * The single best candidate for word (the first of suggest_pick's picks), or
 * NULL when none is close enough. For callers that offer one name only.
 */
const char *suggest_best(const char *word, const char *const *cands, size_t ncands);

/*
 * suggest_best for option and command names, which are short words that
 * other tools use too: a word of fewer than 4 letters is never offered a
 * name that differs from it by one replaced letter ('--pid', perf's habit,
 * is not a typo of '--pin', which would pin the workload instead); a
 * missing, extra or swapped letter still is a typo. Event names keep the
 * looser rule ('tsx' is offered 'msr/tsc/').
 */
const char *suggest_option(const char *word, const char *const *cands, size_t ncands);

/*
 * Append "did you mean 'a'?" or "did you mean 'a' or 'b'?" or
 * "did you mean 'a', 'b' or 'c'?" to sb. n == 0 appends nothing.
 */
void suggest_format(struct strbuf *sb, const char *const *names, size_t n);

#endif
