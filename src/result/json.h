/*
 * The result as JSON (schema pmustat.result/1), built with jansson so numbers
 * stay numbers and strings are escaped. Writing to a file is atomic and safe
 * as root (core/outfile.h: a new temporary file renamed over a regular file,
 * never through a link or onto a device), so a reader — or an interrupted
 * campaign — never sees half a document.
 *
 * Reading checks the type and range of every field it uses: a result file
 * comes from anywhere (another machine, a fleet node, a killed campaign), and
 * a bad one is an error naming the field, never a crash or a wild index.
 */
#ifndef PMU_RESULT_JSON_H
#define PMU_RESULT_JSON_H

#include <jansson.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "result/result.h"

/*
 * A JSON string for s (NULL: null). JSON strings are UTF-8, and jansson
 * refuses anything else, so a name or argument that is not (given in
 * another encoding, read from a recorded cpuinfo) is written with its
 * bytes that are not UTF-8, and its control characters, as \xNN text
 * (core/printable.h), instead of vanishing from the document along with
 * the object holding it. report_json_key() is the same for object keys
 * (tmp holds the text when it had to change).
 */
json_t *report_json_text(const char *s);
const char *report_json_key(struct strbuf *tmp, const char *s);

/*
 * A new JSON document for r (caller decrefs): its raw parts (head, runs,
 * comparison settings, notes) and the analysed sections, which this layer
 * does not compute: sections is an object (analysis/analysed.h:
 * analysed_json) whose "summaries" and "warning_groups" are placed after
 * the runs and whose other members follow the comparison settings, in
 * their order. NULL: the raw result alone.
 */
json_t *report_json(const struct result *r, const json_t *sections);

/*
 * The same document's text, byte for byte what json_dumps of report_json()
 * writes (indented by one, then a newline), handed to sink piece by piece:
 * each run is encoded and dumped on its own and freed before the next, so
 * the tree of every run never exists at once. sink returns 0, or nonzero
 * to fail the stream. 0, or -1 (a sink or encoding failure).
 */
typedef int report_json_sink(const char *buf, size_t len, void *data);
int report_json_stream(const struct result *r, const json_t *sections, report_json_sink *sink,
		       void *data);

/* Write r as JSON to path ("-" = stdout), with sections as above:
 * report_json_stream's text goes chunk by chunk into the temporary file
 * that replaces path atomically (outfile_stream), so neither the tree of
 * every run nor the document's text is held whole. */
int report_json_write(const struct result *r, const json_t *sections, const char *path,
		      struct error *err);

/*
 * Read a result back from path: a document written by report_json_write; a
 * run journal (result/journal.h); or a campaign's skeleton document
 * ("complete": false with a "journal" member), whose journal is read instead
 * — when it is missing, the skeleton is loaded with a note that its runs are
 * absent. On failure r holds nothing to release.
 */
int report_json_read(struct result *r, const char *path, struct error *err);

/*
 * Open a file pmustat wrote, to read it back (a result, a journal, a
 * bisect's document, a step's result): path must be a regular file. It is
 * opened without blocking and checked with fstat before a byte is read
 * (core/safeopen.h), so a FIFO planted in a result's place, a device
 * (/dev/zero) or a directory is refused at once with one line, never
 * waited on or read without end. There is no limit on the size: whatever
 * the writer produced is read back (docs/report.md), and the memory a
 * result takes is bounded by its size (report_json_budget). The descriptor
 * (close-on-exec), or -1 with err set to one line and hint as its hint.
 */
int report_file_open(const char *path, const char *hint, struct error *err);
/* Parse the JSON document read from fd to its end, in chunks (jansson's
 * json_loadfd reads one byte per system call), without holding its text. */
json_t *report_json_loadfd(int fd, json_error_t *je);
/* The whole file at path, opened as above, appended to text: 0 or -1. */
int report_file_slurp(const char *path, struct strbuf *text, const char *hint,
		      struct error *err);

/* ---- the pieces the run journal shares ----------------------------------- */

/* r's document without runs, summaries and comparisons: schema, tool,
 * command, host, options, variants, metrics, comparison settings, notes. */
json_t *report_json_skeleton(const struct result *r);
/* One run, one metric, one note, encoded as in report_json's arrays. */
json_t *report_json_run(const struct result *r, const struct result_run *run);
json_t *report_json_metric(const struct result_metric *m);
/* The "host" object of a result (also one host of a fleet report). */
json_t *report_json_host(const struct hostinfo *h);
json_t *report_json_note(const struct result_note *n);
/* Write any document to path as report_json_write does (indented, atomic,
 * streamed into the file). */
int report_json_write_doc(json_t *doc, const char *path, struct error *err);

/*
 * The memory (bytes) a result read from a document of `bytes` bytes may take
 * once loaded and analysed: 64 MiB plus 256 bytes per byte read. A result
 * pmustat wrote is far inside it; one that asks for more (runs times metrics
 * beyond what its text could hold) is refused rather than allocated.
 */
size_t report_json_budget(size_t bytes);

/*
 * A result from a parsed document (a full one or a skeleton): r is
 * initialised here. path names the document in errors; budget is
 * report_json_budget() of the bytes it was parsed from. On failure r holds
 * nothing to release.
 */
int report_json_load(struct result *r, json_t *doc, const char *path, size_t budget,
		     struct error *err);
/*
 * Add one metric / run / note, as encoded by the functions above, to r. A
 * metric may come after runs (every earlier run gets an invalid value for
 * it). An entry that would take r beyond budget is refused. Errors
 * (ERR_USAGE) name the field; the caller says where it was. On failure r
 * stays a valid result, possibly holding part of the entry.
 */
int report_json_add_metric(struct result *r, json_t *o, size_t budget, struct error *err);
int report_json_add_run(struct result *r, json_t *o, size_t budget, struct error *err);
int report_json_add_note(struct result *r, json_t *o, size_t budget, struct error *err);

#endif
