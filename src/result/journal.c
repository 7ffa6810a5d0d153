/*
 * The run journal (see journal.h and docs/journal.md). The writer encodes
 * each line into one reused buffer and hands it to the kernel in one write
 * on an O_APPEND descriptor; if a write fails part-way (a full disk), the
 * file is cut back to its last complete line, so a later line never follows
 * a torn one. The reader takes the file line by line through the same
 * validating readers as a JSON result (json_read.c) and judges a bad line
 * by where it is: the last one was being written when the campaign died,
 * any other means the file was damaged.
 */
#include "result/journal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/strmap.h"
#include "result/json.h"

#define LINE_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17))

static const char journal_prefix[] = "{\"journal\"";

int journal_sniff(const char *head, size_t len)
{
	size_t n = sizeof(journal_prefix) - 1;

	return len >= n && !memcmp(head, journal_prefix, n);
}

/* o (its reference taken) as one line with its newline, in sb. */
static int encode_line(struct strbuf *sb, json_t *o)
{
	size_t n, room;

	strbuf_reset(sb);
	for (;;) {
		/* Room for the text, then the newline and strbuf's NUL. */
		room = sb->alloc > 2 ? sb->alloc - 2 : 0;
		n = json_dumpb(o, room ? sb->buf : NULL, room, LINE_FLAGS);
		if (!n || n <= room)
			break;
		strbuf_grow(sb, n + 1);
	}
	json_decref(o);
	if (!n)
		return -1;
	sb->len = n;
	strbuf_addch(sb, '\n');
	return 0;
}

static int write_failed(struct journal *j, int errnum, struct error *err)
{
	/* Cut a partly written line off, so the next one starts cleanly. */
	if (ftruncate(j->fd, (off_t)j->size)) {
		/* the reader drops or refuses the torn line */
	}
	error_set(err, ERR_RUNTIME, "cannot write '%s': %s", j->path, strerror(errnum));
	if (errnum == ENOSPC || errnum == EDQUOT)
		return error_hint(err, "free space on its file system (see 'df -h'); the runs "
				       "journalled so far are kept");
	return error_hint(err, "check the file system that holds '%s'", j->path);
}

static int write_line(struct journal *j, json_t *o, struct error *err)
{
	if (j->fd < 0)
		return error_set(err, ERR_RUNTIME, "the journal '%s' is closed",
				 j->path ? j->path : "");
	if (encode_line(&j->line, o))
		return error_set(err, ERR_RUNTIME, "cannot encode a line of the journal '%s'",
				 j->path);
	if (outfile_write_all(j->fd, j->line.buf, j->line.len))
		return write_failed(j, errno, err);
	j->size += j->line.len;
	return 0;
}

/* One entry line: {"key": value}. */
static int write_entry(struct journal *j, const char *key, json_t *value, struct error *err)
{
	json_t *o = json_object();

	json_object_set_new(o, key, value);
	return write_line(j, o, err);
}

static int journal_busy(const char *path, struct error *err)
{
	error_set(err, ERR_USAGE, "'%s' is being written by another campaign", path);
	return error_hint(err, "wait for that campaign to finish, or give this one another "
			       "-o FILE");
}

/* Did the open find the file that is at path now? */
static int still_at(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !lstat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * One campaign per journal: a second one on the same -o would empty the
 * first's journal, and the first would remove the second's when it
 * finishes. The file is locked (flock, released when the descriptor
 * closes, also on kill -9) before it is emptied; a lock won on a file the
 * first campaign removed meanwhile (journal_close removes, then closes) is
 * let go and taken again on the file at path. A file system without flock
 * (some NFS setups) goes unlocked, as before.
 */
static int open_locked(const char *path, struct error *err)
{
	for (int tries = 0; tries < 8; tries++) {
		int fd = outfile_open_append(path, 0, err);

		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) {
			close(fd);
			return journal_busy(path, err);
		}
		if (!still_at(fd, path)) {
			close(fd);
			continue;
		}
		if (!ftruncate(fd, 0))
			return fd;
		error_set(err, ERR_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return journal_busy(path, err);
}

int journal_open(struct journal *j, const char *path, const struct result *r,
		 struct error *err)
{
	json_t *head;

	memset(j, 0, sizeof(*j));
	strbuf_init(&j->line);
	j->fd = !strcmp(path, "-") ? outfile_open_append(path, 0, err) : open_locked(path, err);
	if (j->fd < 0) {
		strbuf_release(&j->line);
		return -1;
	}
	j->path = xstrdup(path);
	head = json_pack("{s:s, s:o}", "journal", JOURNAL_SCHEMA, "result",
			 report_json_skeleton(r));
	if (write_line(j, head, err)) {
		journal_close(j, 1, NULL);
		return -1;
	}
	j->nmetrics = r->nmetrics;
	j->nnotes = r->nnotes;
	return 0;
}

int journal_add_run(struct journal *j, const struct result *r, const struct result_run *run,
		    struct error *err)
{
	/* Notes dropped from r after they were journalled cannot be taken back. */
	if (j->nnotes > r->nnotes)
		j->nnotes = r->nnotes;
	for (; j->nmetrics < r->nmetrics; j->nmetrics++)
		if (write_entry(j, "metric", report_json_metric(&r->metrics[j->nmetrics]), err))
			return -1;
	for (; j->nnotes < r->nnotes; j->nnotes++)
		if (write_entry(j, "note", report_json_note(&r->notes[j->nnotes]), err))
			return -1;
	return write_entry(j, "run", report_json_run(r, run), err);
}

int journal_close(struct journal *j, int remove, struct error *err)
{
	int rc = 0;

	/* Removed while still locked: a campaign waiting for the name gets a
	 * new file, never this one emptied under it (open_locked). */
	if (remove && j->path && strcmp(j->path, "-") && unlink(j->path) && errno != ENOENT)
		rc = error_set(err, ERR_RUNTIME, "cannot remove '%s': %s", j->path,
			       strerror(errno));
	/* Linux closes the descriptor even when close reports EINTR. */
	if (j->fd >= 0 && close(j->fd) && errno != EINTR && !rc)
		rc = error_set(err, ERR_RUNTIME, "cannot write '%s': %s", j->path,
			       strerror(errno));
	free(j->path);
	strbuf_release(&j->line);
	memset(j, 0, sizeof(*j));
	j->fd = -1;
	return rc;
}

/* How a reader of json_path finds journal_path: relative to json_path's
 * directory when the journal is in it (or below), else absolute. */
static void journal_ref(const char *json_path, const char *journal_path, struct strbuf *out)
{
	const char *slash = strrchr(json_path, '/');
	size_t dirlen = slash ? (size_t)(slash + 1 - json_path) : 0;
	char *cwd;

	if (dirlen && !strncmp(journal_path, json_path, dirlen))
		strbuf_adds(out, journal_path + dirlen);
	else if (*journal_path == '/' || !dirlen)
		strbuf_adds(out, journal_path);
	else if ((cwd = getcwd(NULL, 0))) {
		strbuf_addf(out, "%s/%s", cwd, journal_path);
		free(cwd);
	} else {
		strbuf_adds(out, journal_path);
	}
}

int journal_write_skeleton(const char *json_path, const struct result *r,
			   const char *journal_path, struct error *err)
{
	json_t *doc = report_json_skeleton(r);
	struct strbuf ref = STRBUF_INIT;
	int rc;

	journal_ref(json_path, journal_path, &ref);
	json_object_set_new(doc, "complete", json_false());
	json_object_set_new(doc, "runs", json_array());
	json_object_set_new(doc, "journal", json_string(ref.buf));
	rc = report_json_write_doc(doc, json_path, err);
	json_decref(doc);
	strbuf_release(&ref);
	return rc;
}

/* ---- reading ------------------------------------------------------------- */

static int read_header(struct result *r, json_t *o, const char *path, size_t budget,
		       struct error *err)
{
	json_t *schema = json_object_get(o, "journal");

	if (!json_is_string(schema) || strcmp(json_string_value(schema), JOURNAL_SCHEMA)) {
		error_set(err, ERR_USAGE, "'%s' is not a pmustat journal (%s expected)", path,
			  JOURNAL_SCHEMA);
		return error_hint(err, "give a journal or result written by pmustat");
	}
	if (!json_is_object(json_object_get(o, "result"))) {
		error_set(err, ERR_USAGE, "'%s': line 1 has no 'result' object", path);
		return error_hint(err, "give a journal or result written by pmustat");
	}
	return report_json_load(r, json_object_get(o, "result"), path, budget, err);
}

/* The metric names read so far, for add_late_metric (a linear search per
 * line made a journal of many late metrics quadratic). */
struct metric_names {
	struct strmap map;
	size_t done;		/* r->metrics[0..done) are in map */
};

static void index_metrics(const struct result *r, struct metric_names *names)
{
	for (; names->done < r->nmetrics; names->done++)
		strmap_put(&names->map, r->metrics[names->done].name,
			   strlen(r->metrics[names->done].name), names->done);
}

/* A metric line adds a metric that runs after it have: one name, once. */
static int add_late_metric(struct result *r, struct metric_names *names, json_t *o, size_t budget,
			   struct error *err)
{
	json_t *name = json_object_get(o, "name");
	size_t at;

	if (json_is_string(name) && !strmap_get(&names->map, json_string_value(name),
						 json_string_length(name), &at))
		return error_set(err, ERR_USAGE, "metric '%s' is already defined",
				 json_string_value(name));
	if (report_json_add_metric(r, o, budget, err))
		return -1;
	index_metrics(r, names);
	return 0;
}

static const struct {
	const char *key;
	int (*add)(struct result *r, json_t *o, size_t budget, struct error *err);
} entries[] = {
	{ "run", report_json_add_run },
	{ "note", report_json_add_note },
};

static int read_entry(struct result *r, struct metric_names *names, json_t *o, size_t budget,
		      struct error *err)
{
	void *it = json_is_object(o) && json_object_size(o) == 1 ? json_object_iter(o) : NULL;
	const char *key = it ? json_object_iter_key(it) : NULL;

	if (!key)
		return error_set(err, ERR_USAGE, "not an object with one member ('run', "
				 "'metric' or 'note')");
	if (!strcmp(key, "metric"))
		return add_late_metric(r, names, json_object_iter_value(it), budget, err) ?
			       error_prefix(err, "%s", key) : 0;
	for (size_t i = 0; i < sizeof(entries) / sizeof(*entries); i++)
		if (!strcmp(key, entries[i].key))
			return entries[i].add(r, json_object_iter_value(it), budget, err) ?
				       error_prefix(err, "%s", key) : 0;
	return error_set(err, ERR_USAGE, "unknown entry '%.40s' ('run', 'metric' or 'note' "
			 "expected)", key);
}

/* A bad line before the last: the journal was damaged, not cut short. */
static int bad_line(const char *path, size_t lineno, struct error *err)
{
	error_prefix(err, "'%s': line %zu", path, lineno);
	return error_hint(err, "the lines before it are intact: keep them with head -n %zu "
			       "'%s' >FILE, then run 'pmustat report FILE'", lineno - 1, path);
}

static int read_lines(struct result *r, const char *path, const char *buf, size_t len,
		      int *torn, struct error *err)
{
	const char *p = buf, *end = buf + len;
	size_t lineno = 0, budget = report_json_budget(len);
	struct metric_names names = { STRMAP_INIT, 0 };
	int rc = 0;

	for (; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		json_error_t je;
		json_t *o = nl ? json_loadb(p, (size_t)(nl - p), 0, &je) : NULL;

		if (!o && (!nl || nl + 1 == end)) {
			*torn = 1;
			break;
		}
		if (!o)
			rc = error_set(err, ERR_USAGE, "not JSON: %s", je.text);
		else if (lineno)
			rc = read_entry(r, &names, o, budget, err);
		else if (!(rc = read_header(r, o, path, budget, err)))
			index_metrics(r, &names);
		json_decref(o);
		if (rc && lineno)
			rc = bad_line(path, lineno + 1, err);
		if (rc)
			break;
		p = nl + 1;
	}
	strmap_release(&names.map);
	if (rc || lineno)
		return rc;
	error_set(err, ERR_RUNTIME, "'%s' ends before its first line is complete", path);
	return error_hint(err, "the campaign was stopped before its first run: nothing to "
			       "recover");
}

int journal_read_buffer(struct result *r, const char *path, const char *buf, size_t len,
			struct error *err)
{
	int torn = 0;

	memset(r, 0, sizeof(*r));
	if (read_lines(r, path, buf, len, &torn, err)) {
		result_release(r);
		return -1;
	}
	r->complete = 0;
	if (torn)
		result_add_note(r, NOTE_WARNING, NULL, NULL, "journal ends in a partial line (the "
				"campaign was killed): %zu run%s recovered", r->nruns,
				r->nruns == 1 ? "" : "s");
	result_add_note(r, NOTE_NOTE, NULL, NULL, "recovered from the journal '%s': the "
			"campaign did not write its full result", path);
	return 0;
}

int journal_read(struct result *r, const char *path, struct error *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = report_file_slurp(path, &text, "check the path of the journal", err);
	if (!rc)
		rc = journal_read_buffer(r, path, text.buf, text.len, err);
	strbuf_release(&text);
	return rc;
}
