/*
 * Reading a result back, whatever a campaign left: a complete document, the
 * skeleton of a campaign still running or killed (its runs are in the
 * journal it names, relative to its own directory), or a journal given
 * directly. Which one it is decides the reader; the readers themselves are
 * json_read.c (documents) and journal.c (journals). The file named on the
 * command line may be a pipe (read once, whatever it is); a journal named
 * inside a skeleton is read only if it is a regular file.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "result/journal.h"
#include "result/json.h"

static json_t *parse_text(const char *path, const struct strbuf *text, struct error *err)
{
	json_error_t je;
	json_t *doc = json_loadb(text->buf, text->len, 0, &je);

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

/* The file named on the command line, whatever it is (a pipe too), but no
 * more than REPORT_FILE_MAX bytes of it. */
static int read_capped(const char *path, struct strbuf *text, struct error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;

	if (fd >= 0)
		rc = strbuf_read_fd(text, fd, REPORT_FILE_MAX);
	if (rc < 0)
		error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
	else if (rc > 0)
		error_set(err, ERR_RUNTIME, "'%s' is larger than %zu MiB", path,
			  REPORT_FILE_MAX >> 20);
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		return error_hint(err, "check the path of the result file");
	if (rc > 0)
		return error_hint(err, "pmustat's results are far smaller; check that '%s' is "
				  "a result or a journal", path);
	return 0;
}

int report_json_read(struct result *r, const char *path, struct error *err)
{
	struct strbuf text = STRBUF_INIT;
	size_t budget;
	json_t *doc;
	int rc;

	memset(r, 0, sizeof(*r));
	if (read_capped(path, &text, err)) {
		strbuf_release(&text);
		return -1;
	}
	if (journal_sniff(text.buf, text.len)) {
		rc = journal_read_buffer(r, path, text.buf, text.len, err);
		strbuf_release(&text);
		return rc;
	}
	budget = report_json_budget(text.len);
	doc = parse_text(path, &text, err);
	strbuf_release(&text);
	if (!doc)
		return -1;
	rc = is_skeleton(doc) ? read_skeleton(r, doc, path, budget, err)
			      : report_json_load(r, doc, path, budget, err);
	json_decref(doc);
	return rc;
}
