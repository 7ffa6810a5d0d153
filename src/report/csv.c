/*
 * CSV renderer. Fields that may contain commas or quotes (variant names) are
 * quoted per RFC 4180; numbers are printed with %.17g so they round-trip.
 * `instrumented` is 1 on the runs of a perturbing mechanism (the shim,
 * uprobes, sampling; docs/engine.md "Clean runs"), whose wall-time row is
 * empty: their time is the hidden wall-time:with-NAME, never a verdict's.
 */
#include "report/csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/strbuf.h"

static const char csv_header[] =
	"run,variant,block,position,group,warmup,instrumented,status,exit_code,metric,value,unit,"
	"time_enabled,time_running\n";

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A write failure (ENOSPC, EFBIG) shows up at the flush or as the stream's
 * error flag; errno says why, or EIO when the flag was set earlier. */
static int csv_flush(struct csv_writer *w, struct error *err)
{
	int errnum;

	errno = 0;
	if (!fflush(w->f) && !ferror(w->f))
		return 0;
	errnum = errno ? errno : EIO;
	error_set(err, ERR_RUNTIME, "cannot write '%s': %s", w->path, strerror(errnum));
	if (errnum == ENOSPC || errnum == EDQUOT)
		return error_hint(err, "free space on its file system (see 'df -h'), or give "
				       "--csv a path elsewhere");
	return error_hint(err, "choose a writable path for --csv");
}

int csv_open(struct csv_writer *w, const char *path, struct error *err)
{
	int fd = outfile_open_append(path, 1, err);

	w->f = NULL;
	w->path = NULL;
	if (fd < 0)
		return -1;
	w->f = fdopen(fd, "w");
	if (!w->f) {
		error_set(err, ERR_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	w->path = xstrdup(path);
	fputs(csv_header, w->f);
	if (csv_flush(w, err)) {
		csv_close(w, NULL);
		return -1;
	}
	return 0;
}

static void csv_row(FILE *f, const struct result *r, const struct result_run *run, size_t m)
{
	const struct result_metric *met = &r->metrics[m];
	const struct result_value *v = &run->values[m];

	fprintf(f, "%d,", run->index);
	csv_field(f, r->variants[run->variant].name);
	fprintf(f, ",%d,%d,%d,%d,%d,%s,", run->block, run->position, run->group, run->warmup,
		run->instrumented != 0, run_status_name(run->status));
	if (run->status == RUN_OK || run->status == RUN_FAILED)
		fprintf(f, "%d", run->exit_code);
	fputc(',', f);
	csv_field(f, met->name);
	fputc(',', f);
	if (v->valid)
		fprintf(f, "%.17g", v->value);
	fputc(',', f);
	csv_field(f, met->unit);
	if (met->source == MSRC_PERF && v->valid)
		fprintf(f, ",%llu,%llu\n", (unsigned long long)v->enabled,
			(unsigned long long)v->running);
	else
		fputs(",,\n", f);
}

static void csv_rows(FILE *f, const struct result *r, const struct result_run *run)
{
	/* Profile functions and stacks without a sample in this run: no row. */
	for (size_t m = 0; m < r->nmetrics; m++)
		if (r->metrics[m].available &&
		    (run->values[m].valid || r->metrics[m].source != MSRC_PROFILE))
			csv_row(f, r, run, m);
}

int csv_write_run(struct csv_writer *w, const struct result *r, const struct result_run *run,
		  struct error *err)
{
	csv_rows(w->f, r, run);
	return csv_flush(w, err);
}

int csv_close(struct csv_writer *w, struct error *err)
{
	int bad = 0;

	if (w->f) {
		errno = 0;
		bad = ferror(w->f) != 0;
		bad |= fclose(w->f) != 0;
	}
	if (bad)
		error_set(err, ERR_RUNTIME, "cannot write '%s': %s", w->path,
			  strerror(errno ? errno : EIO));
	free(w->path);
	w->f = NULL;
	w->path = NULL;
	return bad ? -1 : 0;
}

/* The rows go to memory first and replace path whole (outfile_replace): a
 * full disk leaves the previous CSV as it was, never a part of the new one. */
int csv_write_result(const struct result *r, const char *path, struct error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return error_set(err, ERR_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
	fputs(csv_header, f);
	for (size_t i = 0; i < r->nruns; i++)
		csv_rows(f, r, &r->runs[i]);
	if (fclose(f)) {
		free(buf);
		return error_set(err, ERR_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
	}
	rc = outfile_replace(path, buf, len, err);
	free(buf);
	return rc;
}
