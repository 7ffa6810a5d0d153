/*
 * What every measuring command does once its campaign is prepared: run it
 * with a progress line on the terminal, write the outputs, render the table
 * (to stdout, or stderr when the JSON goes to stdout), and turn the outcome
 * into an exit code — with the failing run's own stderr when one stopped it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "core/outfile.h"
#include "core/printable.h"
#include "result/json.h"

static void progress_line(const struct campaign_progress *p, void *data)
{
	struct strbuf status = STRBUF_INIT;

	(void)data;
	/* The status names metrics, which regions of the program may name. */
	fprintf(stderr, "\r\033[Kpmustat: run %zu/%zu%s%s", p->done, p->total,
		*p->status ? ", " : "", printable_in(&status, p->status));
	strbuf_release(&status);
	if (p->left_s >= 0)
		fprintf(stderr, ", at most %.0f s left", p->left_s);
	fflush(stderr);
}

void cli_campaign_progress(struct campaign_opts *o, int quiet)
{
	if (!quiet && isatty(STDERR_FILENO))
		o->progress = progress_line;
}

static int print_dry_run(const struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;
	struct table_opts to = { 0 };

	campaign_dry_run(c, &sb);
	report_notes(&c->res, NULL, &to, &sb);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return PMU_EXIT_OK;
}

/* Shown on a stopped campaign so the failing run's own words are not lost. */
static void show_failure_stderr(const struct campaign *c)
{
	struct strbuf safe = STRBUF_INIT;
	size_t len;

	if (!c->failure_stderr)
		return;
	len = strlen(c->failure_stderr);
	/* The program's bytes, shown as text: an escape sequence in them must
	 * not act on the terminal. */
	strbuf_add_printable_lines(&safe, c->failure_stderr);
	fprintf(stderr, "--- stderr of the failing run (last %zu bytes) ---\n%s", len, safe.buf);
	if (len && c->failure_stderr[len - 1] != '\n')
		fputc('\n', stderr);
	fputs("---\n", stderr);
	strbuf_release(&safe);
}

static void render_table(const struct campaign *c, const struct analysed *an,
			 campaign_renderer render, const struct table_opts *view, int quiet)
{
	struct table_opts to = view ? *view : (struct table_opts){ 0 };
	struct strbuf sb = STRBUF_INIT;
	FILE *f = campaign_json_to_stdout(c) ? stderr : stdout;

	if (quiet)
		return;
	to.color = isatty(fileno(f)) && !getenv("NO_COLOR");
	render(an, &to, &sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

/* --export-markdown: the same table, as markdown, replacing the file whole. */
static int write_markdown(const struct campaign *c, const struct analysed *an,
			  campaign_renderer render)
{
	struct table_opts to = { .markdown = 1 };
	struct strbuf sb = STRBUF_INIT;
	struct error err;
	int rc = 0;

	if (!c->o->markdown_path)
		return 0;
	error_clear(&err);
	render(an, &to, &sb);
	if (outfile_replace(c->o->markdown_path, sb.buf, sb.len, &err))
		rc = cli_error(&err);
	strbuf_release(&sb);
	return rc;
}

int cli_campaign_conclude(struct campaign *c, campaign_renderer render,
			  const struct table_opts *view, int quiet, struct analysed *an)
{
	struct error err, err2, fin;
	json_t *sections;
	int rc, out_rc;

	memset(an, 0, sizeof(*an));
	if (c->o->dry_run)
		return print_dry_run(c);
	error_clear(&err);
	error_clear(&err2);
	error_clear(&fin);
	rc = campaign_run(c, &err);
	if (c->o->progress == progress_line)
		fputs("\r\033[K", stderr);
	/* Analysed once: the document, the table, markdown and whatever the
	 * caller reads next (compare's regressions) all come from this model. */
	analysed_build(&c->res, an);
	sections = analysed_json(an);
	out_rc = campaign_finish(c, sections, &fin);
	if (out_rc && fin.kind != ERR_NONE && !rc)
		cli_error(&fin);
	/* Stopped by the machine, not by a run (an output, the memory): what
	 * finished is shown. */
	if (!rc || c->res.interrupted ||
	    ((c->output_failed || xalloc_reserve_spent()) && c->res.nruns)) {
		render_table(c, an, render, view, quiet);
		if (write_markdown(c, an, render))
			out_rc = PMU_EXIT_RUNTIME;
	}
	if (campaign_json_to_stdout(c) && report_json_write(&c->res, sections, "-", &err2))
		out_rc = cli_error(&err2);
	json_decref(sections);
	if (rc) {
		show_failure_stderr(c);
		rc = cli_error(&err);
		/* The document failed too (the same full disk): where the runs are. */
		if (fin.kind != ERR_NONE)
			cli_hint_also(&fin);
		return rc;
	}
	if (c->res.interrupted)
		return PMU_EXIT_INTERRUPTED;
	return out_rc ? PMU_EXIT_RUNTIME : PMU_EXIT_OK;
}
