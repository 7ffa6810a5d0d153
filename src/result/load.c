/*
 * Reading a result back, whatever a campaign left: a complete document, the
 * skeleton of a campaign still running or killed (its runs are in the
 * journal it names, relative to its own directory), or a journal given
 * directly. Which one it is decides the reader; the readers themselves are
 * json_read.c (documents) and journal.c (journals). Every file is read only
 * if it is a regular file (report_file_open): the result named on the
 * command line, the journal a skeleton names, a bisect's step result. A
 * document is parsed from its descriptor, not from a copy of its text, and
 * has no size limit: what the writer wrote is read back.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safeopen.h"
#include "core/strbuf.h"
#include "result/journal.h"
#include "result/json.h"

static size_t read_chunk(void *buf, size_t len, void *data)
{
	ssize_t n;

	do
		n = read(*(int *)data, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? (size_t)-1 : (size_t)n;
}

json_t *report_json_loadfd(int fd, json_error_t *je)
{
	return json_load_callback(read_chunk, &fd, 0, je);
}

static json_t *parse_fd(const char *path, int fd, struct error *err)
{
	json_error_t je;
	json_t *doc = report_json_loadfd(fd, &je);

	if (doc)
		return doc;
	if (je.line > 0)
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s (line %d)", path, je.text,
			  je.line);
	else
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, je.text);
	error_hint(err, "check that the file is a complete JSON result");
	return NULL;
}

/* A campaign still running (or killed) left this: its runs are in the
 * journal it names. */
static int is_skeleton(json_t *doc)
{
	return json_is_false(json_object_get(doc, "complete")) &&
	       json_is_string(json_object_get(doc, "journal"));
}

/* The journal named by a skeleton at path: relative to path's directory. */
static void journal_path(const char *path, const char *name, struct strbuf *out)
{
	const char *slash = strrchr(path, '/');

	if (*name != '/' && slash)
		strbuf_add(out, path, (size_t)(slash + 1 - path));
	strbuf_adds(out, name);
}

/* A journal belongs next to its result (campaigns write RESULT.journal):
 * a skeleton naming any other path, a file of someone else's to be read
 * and quoted in errors, is refused. */
static int journal_name_ok(const char *name, const char *path, struct error *err)
{
	size_t len = strlen(name), sfx = strlen(".journal");

	if (!strchr(name, '/') && len > sfx && !strcmp(name + len - sfx, ".journal"))
		return 0;
	error_set(err, ERR_RUNTIME, "'%s' names the journal '%.200s', which is not next to it",
		  path, name);
	return error_hint(err, "a campaign's journal is RESULT.journal in the result's "
			  "directory; read that journal with 'pmustat report FILE.journal'");
}

static int read_skeleton(struct result *r, json_t *doc, const char *path, size_t budget,
			 struct error *err)
{
	const char *name = json_string_value(json_object_get(doc, "journal"));
	struct strbuf jpath = STRBUF_INIT;
	int rc;

	if (journal_name_ok(name, path, err))
		return -1;
	journal_path(path, name, &jpath);
	if (access(jpath.buf, F_OK) && errno == ENOENT) {
		rc = report_json_load(r, doc, path, budget, err);
		if (!rc)
			result_add_note(r, NOTE_WARNING, NULL, "the campaign may still be running; "
					"else its journal was removed or not copied with the result",
					"the journal '%s' is missing: runs are absent", name);
	} else {
		rc = journal_read(r, jpath.buf, err);
	}
	strbuf_release(&jpath);
	return rc;
}

/* " (a FIFO)": what path is instead of a regular file (stat does not
 * open it, so a FIFO does not block it). */
static const char *file_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return "";
	if (S_ISFIFO(st.st_mode))
		return " (a FIFO)";
	if (S_ISCHR(st.st_mode))
		return " (a character device)";
	if (S_ISBLK(st.st_mode))
		return " (a block device)";
	if (S_ISDIR(st.st_mode))
		return " (a directory)";
	if (S_ISSOCK(st.st_mode))
		return " (a socket)";
	return "";
}

int report_file_open(const char *path, const char *hint, struct error *err)
{
	int fd = safeopen_read(path, 0);

	if (fd >= 0)
		return fd;
	if (fd == SAFEOPEN_NOTREG)
		error_set(err, ERR_RUNTIME, "'%s' is not a regular file%s", path, file_kind(path));
	else
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
	return error_hint(err, "%s", hint);
}

int report_file_slurp(const char *path, struct strbuf *text, const char *hint,
		      struct error *err)
{
	int fd = report_file_open(path, hint, err), rc;

	if (fd < 0)
		return -1;
	rc = strbuf_read_fd(text, fd, SIZE_MAX - 1);
	if (rc < 0) {
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
		error_hint(err, "%s", hint);
	}
	close(fd);
	return rc < 0 ? -1 : 0;
}

static const char result_hint[] = "check the path: a result or a journal is read from a "
				  "regular file (save what a pipe gives to a file first)";

/* A journal given directly: its lines are read from its whole text. */
static int read_journal_fd(struct result *r, const char *path, int fd, struct error *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc = strbuf_read_fd(&text, fd, SIZE_MAX - 1);

	if (rc < 0) {
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
		error_hint(err, "%s", result_hint);
	} else {
		rc = journal_read_buffer(r, path, text.buf, text.len, err);
	}
	strbuf_release(&text);
	return rc;
}

static int read_fd(struct result *r, const char *path, int fd, struct error *err)
{
	char head[16];
	struct stat st;
	ssize_t got = pread(fd, head, sizeof(head), 0);
	size_t budget;
	json_t *doc;
	int rc;

	if (got > 0 && journal_sniff(head, (size_t)got))
		return read_journal_fd(r, path, fd, err);
	budget = report_json_budget(fstat(fd, &st) ? 0 : (size_t)st.st_size);
	doc = parse_fd(path, fd, err);
	if (!doc)
		return -1;
	rc = is_skeleton(doc) ? read_skeleton(r, doc, path, budget, err)
			      : report_json_load(r, doc, path, budget, err);
	json_decref(doc);
	return rc;
}

int report_json_read(struct result *r, const char *path, struct error *err)
{
	int fd, rc;

	memset(r, 0, sizeof(*r));
	fd = report_file_open(path, result_hint, err);
	if (fd < 0)
		return -1;
	rc = read_fd(r, path, fd, err);
	close(fd);
	return rc;
}
