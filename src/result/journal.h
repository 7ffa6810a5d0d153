/*
 * The run journal: a campaign's result as it grows, one JSON object per line
 * (JSON Lines, compact encoding), appended as each run finishes. Rewriting
 * the whole result after every run costs O(runs) each time; a journal line
 * costs the same for the first run and the ten-thousandth, and a kill -9
 * loses no finished run — at most a torn last line, which the reader drops.
 * The format is in docs/journal.md:
 *
 *   {"journal":"pmustat.journal/1","result":{...skeleton...}}   first line
 *   {"metric":{...}}   a metric added after runs exist (a new region)
 *   {"note":{...}}     a note added since the previous line
 *   {"run":{...}}      one finished run, encoded as in the result's "runs"
 *
 * While the campaign runs, its JSON output holds a skeleton document
 * ("complete": false) naming the journal, so `pmustat report FILE.json`
 * finds the runs of a campaign that was killed.
 */
#ifndef PMU_RESULT_JOURNAL_H
#define PMU_RESULT_JOURNAL_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "result/result.h"

#define JOURNAL_SCHEMA "pmustat.journal/1"

/*
 * A journal being written. nmetrics and nnotes count what of the result is
 * already in the journal, so each journal_add_run writes only what is new:
 * its cost depends on the number of metrics, never on the runs before it.
 */
struct journal {
	int fd;			/* -1 when closed */
	char *path;
	size_t nmetrics;	/* metrics of the result already journalled */
	size_t nnotes;		/* notes of the result already journalled */
	size_t size;		/* bytes of complete lines in the file */
	struct strbuf line;	/* the line being encoded, reused */
};

/*
 * Create (or empty) path, through outfile_open_append, so only a regular
 * file is ever written, and write the first line: the result's skeleton
 * (report_json_skeleton: no runs, summaries or comparisons). On failure the
 * journal is closed and nothing needs releasing. The file stays locked
 * (flock) until journal_close: a journal another campaign holds is refused
 * (ERR_USAGE) before it is emptied.
 */
int journal_open(struct journal *j, const char *path, const struct result *r,
		 struct error *err);

/*
 * Append run (a run of r): first a "metric" line for each metric added to r
 * since the last line, and a "note" line for each note added, then the run
 * itself. Every line is one write(), so a killed campaign leaves at most a
 * torn last line. Notes removed from r after they were journalled stay in
 * the journal.
 */
int journal_add_run(struct journal *j, const struct result *r, const struct result_run *run,
		    struct error *err);

/* Close the journal, and remove its file if remove (the campaign finished
 * and wrote its full result). Safe on a closed journal. */
int journal_close(struct journal *j, int remove, struct error *err);

/*
 * Write json_path (atomically, outfile_replace) as the document a campaign
 * leaves while it runs: r's skeleton with "complete": false, no runs, and
 * "journal": the journal's path relative to json_path's directory (absolute
 * when the journal is elsewhere; a reader takes only a file name next to
 * json_path ending in ".journal", which is what campaigns write).
 */
int journal_write_skeleton(const char *json_path, const struct result *r,
			   const char *journal_path, struct error *err);

/*
 * Rebuild a result from the journal at path: the first line's result, then
 * every complete line in order. A torn last line (no newline, or not JSON)
 * is dropped with a note saying how many runs were recovered; a bad line
 * before it is an error naming its line number. The result is marked
 * incomplete, with a note that it came from a journal. path must be a
 * regular file (a journal named by a skeleton cannot make report wait on a
 * FIFO or read a device), and what the result takes in memory is bounded by
 * the journal's size (report_json_budget). On failure r holds nothing to
 * release.
 */
int journal_read(struct result *r, const char *path, struct error *err);
/* The same from the journal's text, already read from path (named in
 * errors and the note). */
int journal_read_buffer(struct result *r, const char *path, const char *buf, size_t len,
			struct error *err);

/* Do these first bytes of a file look like a journal (its first line)? */
int journal_sniff(const char *head, size_t len);

#endif
