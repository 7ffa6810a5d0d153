/*
 * pmustat report BISECT.json: the bisect's text on stdout and, with --html,
 * its page. The page's profile and the culprit's other metrics come from
 * the compare result the confirm step wrote next to the document (the
 * profile's when --profile, else the confirm step's): it is read and
 * analysed once here, like any result `report` renders. A document copied
 * without its steps/ directory still renders; the page then says where the
 * rest would have been. The options that make sense only for one result of
 * runs (--csv, -o, --by) get an error naming the step files instead.
 */
#include "cli/report_bisect.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysed.h"
#include "cli/cli.h"
#include "core/outfile.h"
#include "report/bisect.h"
#include "result/bisect_read.h"
#include "result/json.h"

int report_is_bisect(const char *path)
{
	return bisect_result_sniff(path);
}

/* A step's result, named by the document relative to its own directory:
 * only a plain relative path below it (a document from elsewhere must not
 * make report read, and quote, any file of the machine), and one that is
 * there: a result copied without its steps/ is no error. */
static int step_path(const char *doc, const char *name, struct strbuf *out)
{
	const char *slash = strrchr(doc, '/');

	if (!name || !*name || *name == '/' || strstr(name, ".."))
		return -1;
	if (slash)
		strbuf_add(out, doc, (size_t)(slash + 1 - doc));
	strbuf_adds(out, name);
	return access(out->buf, F_OK) ? -1 : 0;
}

static int refuse(const char *opt, const char *path)
{
	struct error err;

	error_clear(&err);
	error_set(&err, ERR_USAGE, "%s: '%s' is a bisect, not one result of runs", opt, path);
	error_hint(&err, "each step's runs are a result of their own: pmustat report "
		   "steps/NN-COMMIT.json %s FILE, in the bisect's directory", opt);
	return cli_error(&err);
}

/* The step result is there but cannot be read (a FIFO in its place, a
 * broken file): the page is drawn without it and says why, and so does
 * stderr, since the terminal's text does not show the page. */
static void step_unread(const struct error *why)
{
	fprintf(stderr, "warning: the page is drawn without the culprit's compare result: %s\n",
		why->msg);
}

static int write_page(const struct bisect_result *d, const char *path, const char *html,
		      const char *text, struct error *err)
{
	const char *name = d->profile_result ? d->profile_result : d->confirm.result;
	struct strbuf step = STRBUF_INIT, page = STRBUF_INIT;
	struct error why;
	struct result res;
	struct analysed an;
	int have = 0, rc;

	error_clear(&why);
	if (!step_path(path, name, &step)) {
		if (report_json_read(&res, step.buf, &why)) {
			step_unread(&why);
		} else {
			analysed_build(&res, &an);
			have = 1;
		}
	}
	report_bisect_html(d, have ? &an : NULL, why.msg[0] ? why.msg : NULL, text, &page);
	rc = outfile_replace(html, page.buf, page.len, err);
	if (have) {
		analysed_release(&an);
		result_release(&res);
	}
	strbuf_release(&page);
	strbuf_release(&step);
	return rc;
}

int report_bisect(const char *path, const struct report_bisect_opts *o)
{
	struct bisect_result d;
	struct strbuf text = STRBUF_INIT, plain = STRBUF_INIT;
	struct error err;
	int rc = 0;

	error_clear(&err);
	if (o->csv || o->out || o->by)
		return refuse(o->csv ? "--csv" : o->out ? "-o/--output" : "--by", path);
	if (o->html && outfile_check(o->html, "--html", &err))
		return cli_error(&err);
	if (bisect_result_read(&d, path, &err))
		return cli_error(&err);
	report_bisect_text(&d, o->verbose, &text);
	if (o->html) {
		report_bisect_text(&d, 1, &plain);	/* the page holds the full view */
		if (write_page(&d, path, o->html, plain.buf, &err))
			rc = cli_error(&err);
	}
	if (!rc && !o->quiet)
		rc = cli_print(&text);
	strbuf_release(&text);
	strbuf_release(&plain);
	bisect_result_release(&d);
	return rc;
}
