/*
 * pmustat report: re-render saved results (the raw runs are in them, so
 * every summary, comparison and verdict is recomputed), merge several results
 * of the same command line into one, and export the table as HTML or the
 * runs as CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/outfile.h"
#include "core/strbuf.h"
#include "report/compare_table.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/json.h"
#include "report/table.h"

static const char report_usage[] = "pmustat report RESULT.json... [--html FILE] [--csv FILE] [-o FILE]";

static int load_all(struct result *r, int n, const char **files, struct error *err)
{
	if (report_json_read(r, files[0], err))
		return -1;
	for (int i = 1; i < n; i++) {
		struct result more;
		int rc;

		if (report_json_read(&more, files[i], err)) {
			result_release(r);
			return -1;
		}
		rc = result_merge(r, &more, files[i], err);
		result_release(&more);
		if (rc) {
			result_release(r);
			return -1;
		}
	}
	if (n > 1)
		result_add_note(r, NOTE_NOTE, NULL, NULL, "%d results merged: blocks renumbered "
				"in file order", n);
	return 0;
}

static void render(const struct result *r, int color, struct strbuf *out)
{
	struct table_opts to = { color, 0 };

	if (r->nvariants >= 2)
		report_compare_table(r, &to, out);
	else
		report_stat_table(r, &to, out);
}

static int write_text(const char *path, const char *text, struct error *err)
{
	return outfile_replace(path, text, strlen(text), err);
}

/* Refuse an output that cannot be written before reading any result. */
static int check_outputs(const char *html, const char *csv, const char *out,
			 struct error *err)
{
	if (html && outfile_check(html, "--html", err))
		return -1;
	if (csv && outfile_check(csv, "--csv", err))
		return -1;
	return out ? outfile_check(out, "-o/--output", err) : 0;
}

int cmd_report(int argc, const char **argv)
{
	const char *html = NULL, *csv = NULL, *out = NULL;
	int help = 0, quiet = 0, next, r, rc = 0;
	struct result res;
	struct strbuf table = STRBUF_INIT;
	struct error err;
	const struct option opts[] = {
		{ OPT_STRING, 0, "html", &html, "file", "write an HTML page (verdicts, plots, profile and flame graphs)" },
		{ OPT_STRING, 0, "csv", &csv, "file", "write every run's raw values as CSV" },
		{ OPT_STRING, 'o', "output", &out, "file", "write the (merged) result as JSON" },
		{ OPT_BOOL, 'q', "quiet", &quiet, NULL, "no table" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};

	const char **args = xcalloc((size_t)argc + 1, sizeof(char *));

	error_clear(&err);
	/* Files and options in any order: options first for the parser. */
	cli_split_positional(argc, argv, opts, args);
	argv = args;
	r = cli_parse(argc, argv, opts, report_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &help);
	if (r) {
		free(args);
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	}
	if (next >= argc) {
		error_set(&err, ERR_USAGE, "no result to report");
		error_hint(&err, "give a file written by 'pmustat stat -o FILE'");
		free(args);
		return cli_error(&err);
	}
	if (check_outputs(html, csv, out, &err) ||
	    load_all(&res, argc - next, argv + next, &err)) {
		free(args);
		return cli_error(&err);
	}
	render(&res, !quiet && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"), &table);
	if (!quiet)
		fputs(table.buf, stdout);
	if (html) {
		struct strbuf page = STRBUF_INIT, plain = STRBUF_INIT;

		render(&res, 0, &plain);
		report_html(&res, plain.buf, &page);
		rc = write_text(html, page.buf, &err);
		strbuf_release(&page);
		strbuf_release(&plain);
	}
	if (!rc && csv)
		rc = csv_write_result(&res, csv, &err);
	if (!rc && out)
		rc = report_json_write(&res, out, &err);
	if (rc)
		rc = cli_error(&err);
	strbuf_release(&table);
	result_release(&res);
	free(args);
	return rc;
}
