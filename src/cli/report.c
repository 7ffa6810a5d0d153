/*
 * pmustat report: re-render saved results (the raw runs are in them, so
 * every summary, comparison and verdict is recomputed), merge several results
 * of the same command line into one, and export the table as HTML or the
 * runs as CSV. With --by uarch|host, results of one campaign on many
 * machines are set side by side: one verdict per uarch or host
 * (analysis/fleet.h); -o then writes that cross-machine report as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/report_bisect.h"
#include "core/outfile.h"
#include "core/strbuf.h"
#include "report/compare_table.h"
#include "report/csv.h"
#include "analysis/fleet.h"
#include "report/fleet_render.h"
#include "report/html.h"
#include "result/json.h"
#include "report/table.h"

static const char report_usage[] = "pmustat report RESULT.json... [--by uarch|host] [--html FILE] "
				    "[--csv FILE] [-o FILE]";

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
		rc = fleet_check_version(r, &more, files[i], err) ? -1
			: result_merge(r, &more, files[i], err);
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

static void render(const struct analysed *a, int color, int verbose, struct strbuf *out)
{
	struct table_opts to = { color, verbose };

	if (a->r->nvariants >= 2)
		report_compare_table(a, &to, out);
	else
		report_stat_table(a, &to, out);
}

static int parse_by(const char *by, enum fleet_by *out, struct error *err)
{
	if (!strcmp(by, "uarch"))
		*out = FLEET_BY_UARCH;
	else if (!strcmp(by, "host"))
		*out = FLEET_BY_HOST;
	else
		return error_set(err, ERR_USAGE, "--by '%s': expected 'uarch' or 'host'", by);
	return 0;
}

/* Each file on its own (no merging yet): the fleet groups and pools them. */
static int fleet_load(struct fleet *f, int n, const char **files, enum fleet_by by,
		      struct error *err)
{
	struct result *rs = xcalloc((size_t)n, sizeof(*rs));
	int rc = 0;

	for (int i = 0; i < n; i++)
		if (report_json_read(&rs[i], files[i], err)) {
			for (int j = 0; j < i; j++)
				result_release(&rs[j]);
			free(rs);
			return -1;
		}
	rc = fleet_build(f, rs, files, (size_t)n, by, err);
	free(rs);
	return rc;
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

/* What one report writes: the table, the HTML page, the CSV, the JSON. With
 * a fleet (--by), the table is the cross-machine one, the page shows it
 * under the merged runs' table, and -o writes the fleet document. */
static int emit(const struct result *res, const struct fleet *f, const char *html,
		const char *csv, const char *out, int quiet, int verbose, struct error *err)
{
	struct strbuf table = STRBUF_INIT, ftable = STRBUF_INIT;
	struct analysed an;
	int rc = 0;

	/* Analysed once: the table, the page and the document read this. */
	analysed_build(res, &an);
	if (f)
		fleet_table(f, &ftable);
	else
		render(&an, !quiet && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"), verbose,
		       &table);
	if (!quiet)
		fputs(f ? ftable.buf : table.buf, stdout);
	if (html) {
		struct strbuf page = STRBUF_INIT, plain = STRBUF_INIT;

		render(&an, 0, 1, &plain);	/* the page holds the full view */
		if (f)
			strbuf_addf(&plain, "\n%s", ftable.buf);
		report_html(&an, plain.buf, &page);
		rc = write_text(html, page.buf, err);
		strbuf_release(&page);
		strbuf_release(&plain);
	}
	if (!rc && csv)
		rc = csv_write_result(res, csv, err);
	if (!rc && out && f) {
		json_t *doc = fleet_json(f);

		rc = report_json_write_doc(doc, out, err);
		json_decref(doc);
	} else if (!rc && out) {
		json_t *sections = analysed_json(&an);

		rc = report_json_write(res, sections, out, err);
		json_decref(sections);
	}
	analysed_release(&an);
	strbuf_release(&table);
	strbuf_release(&ftable);
	return rc;
}

/* A bisect's results directory stands for its bisect.json. Returns 1. */
static int bisect_dir(const char *path, struct strbuf *doc)
{
	struct stat st;

	strbuf_adds(doc, path);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		strbuf_adds(doc, "/bisect.json");
	return 1;
}

static int fail(const char **args, const struct error *err)
{
	free(args);
	return cli_error(err);
}

int cmd_report(int argc, const char **argv)
{
	const char *html = NULL, *csv = NULL, *out = NULL, *by = NULL;
	int help = 0, quiet = 0, verbose = 0, next, r, rc = 0, nfiles;
	struct result res;
	struct fleet fl;
	struct strbuf bdoc = STRBUF_INIT;
	enum fleet_by by_what = FLEET_BY_UARCH;
	struct error err;
	const struct option opts[] = {
		{ OPT_STRING, 0, "by", &by, "uarch|host",
		  "results of many machines: one verdict per uarch (or host)" },
		{ OPT_STRING, 0, "html", &html, "file", "write an HTML page (verdicts, plots, profile and flame graphs)" },
		{ OPT_STRING, 0, "csv", &csv, "file", "write every run's raw values as CSV" },
		{ OPT_STRING, 'o', "output", &out, "file",
		  "write the (merged) result as JSON (with --by: the cross-machine report)" },
		{ OPT_BOOL, 'q', "quiet", &quiet, NULL, "no table" },
		{ OPT_BOOL, 'v', "verbose", &verbose, NULL, "the full view: the stopping rule, every table, each warning with its figures" },
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
	nfiles = argc - next;
	if (nfiles <= 0) {
		error_set(&err, ERR_USAGE, "no result to report");
		error_hint(&err, "give a file written by 'pmustat stat -o FILE'");
		return fail(args, &err);
	}
	if (nfiles == 1 && bisect_dir(argv[next], &bdoc) && report_is_bisect(bdoc.buf)) {
		struct report_bisect_opts bo = { html, csv, out, by, quiet, verbose };

		rc = report_bisect(bdoc.buf, &bo);
		strbuf_release(&bdoc);
		free(args);
		return rc;
	}
	strbuf_release(&bdoc);
	if (by && parse_by(by, &by_what, &err)) {
		error_hint(&err, "run 'pmustat report -h'");
		return fail(args, &err);
	}
	if (check_outputs(html, csv, out, &err) ||
	    (by && fleet_load(&fl, nfiles, argv + next, by_what, &err)))
		return fail(args, &err);
	if (load_all(&res, nfiles, argv + next, &err)) {
		if (by)
			fleet_release(&fl);
		return fail(args, &err);
	}
	if (emit(&res, by ? &fl : NULL, html, csv, out, quiet, verbose, &err))
		rc = cli_error(&err);
	if (by)
		fleet_release(&fl);
	result_release(&res);
	free(args);
	return rc;
}
