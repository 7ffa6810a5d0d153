/*
 * Runs as CSV: one row per run and metric, raw numbers (no display scaling,
 * no rounding), so a spreadsheet or pandas sees exactly what was measured.
 * Rows are appended and flushed as each run finishes: an interrupted
 * campaign keeps every finished run.
 */
#ifndef PMU_REPORT_CSV_H
#define PMU_REPORT_CSV_H

#include <stdio.h>

#include "core/error.h"
#include "result/result.h"

struct csv_writer {
	FILE *f;
	char *path;
};

/* Create path (truncating; refused unless a regular file, core/outfile.h)
 * and write the header. */
int csv_open(struct csv_writer *w, const char *path, struct error *err);
/* Append the rows of one run and flush; a failed write (ENOSPC) is an error. */
int csv_write_run(struct csv_writer *w, const struct result *r, const struct result_run *run,
		  struct error *err);
int csv_close(struct csv_writer *w, struct error *err);

/* Write a whole result to path (for `pmustat report --csv`). */
int csv_write_result(const struct result *r, const char *path, struct error *err);

#endif
