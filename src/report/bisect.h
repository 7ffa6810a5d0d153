/*
 * A bisect's result rendered (result/bisect.h, as its document is read
 * back by result/bisect_read.h):
 * the terminal's text — the outcome first (the first bad commit with the
 * size of its change, or why the search stopped), then one row per step
 * with its evidence against good and against bad — and the HTML page,
 * whose search path, step table and culprit are the same figures, drawn.
 * Pure: the document (and, for the profile, the confirm step's analysed
 * compare result) in, bytes out; nothing is computed here.
 */
#ifndef PMU_REPORT_BISECT_H
#define PMU_REPORT_BISECT_H

#include "analysis/analysed.h"
#include "core/strbuf.h"
#include "report/texttable.h"
#include "result/bisect.h"

/* The steps as a table: premise, each candidate, confirm; columns step,
 * commit, position, outcome, vs good, vs bad, runs, subject, and with
 * reasons the step's reason too (the page shows it; the terminal puts it
 * under the table with -v). Rows are classed by outcome for the page
 * ("b-good", "b-bad", "b-skip", "b-neither", "b-undecided", "b-premise"). */
void bisect_steps_model(const struct bisect_result *d, int reasons, struct texttable *t);

/* A comparison in a cell: "+5.1% [+3.9%, +6.3%]", "+100.0% (exact)", or
 * "-" when absent. */
void bisect_cmp_text(const struct bisect_rec_cmp *k, struct strbuf *out);

/* The answer: what the search found (the first bad commit, the size of its
 * change against its parent), or why it stopped, with the evidence or the
 * commits left; one or more lines. */
void bisect_outcome_text(const struct bisect_result *d, struct strbuf *out);

/* The terminal's text (verbose: each step's reason and stop rule). */
void report_bisect_text(const struct bisect_result *d, int verbose, struct strbuf *out);

/* The page. confirm: the analysed result the culprit's profile came from
 * (the profile's or the confirm step's compare result), or NULL; unread:
 * why that result could not be read (the reader's error line), shown where
 * its figures would have been, or NULL (none, or not there); terminal: the
 * terminal's text, shown folded at the end, or NULL. */
void report_bisect_html(const struct bisect_result *d, const struct analysed *confirm,
			const char *unread, const char *terminal, struct strbuf *out);

#endif
