/*
 * The CLI side of a campaign (measure.c): the progress line and the end of
 * every measuring command — run, outputs, table, exit code.
 */
#ifndef PMU_CLI_MEASURE_H
#define PMU_CLI_MEASURE_H

#include "analysis/analysed.h"
#include "campaign/campaign.h"
#include "report/table.h"

typedef void (*campaign_renderer)(const struct analysed *a, const struct table_opts *o,
				  struct strbuf *out);

/* Show a progress line on stderr when it is a terminal and not quiet. */
void cli_campaign_progress(struct campaign_opts *o, int quiet);

/*
 * Run the prepared campaign, analyse its result once into *an (the model
 * the document, the table and markdown are rendered from; the caller may
 * read more from it and releases it; a dry run leaves it empty), write its
 * outputs, render the table and report a failure. view: the table's
 * options (-v, the demo's unit of work), NULL for the defaults; the colour
 * is decided here. Returns the exit code: 0, 1 (a run failed or an output
 * could not be written) or 130 (interrupted).
 */
int cli_campaign_conclude(struct campaign *c, campaign_renderer render,
			  const struct table_opts *view, int quiet, struct analysed *an);

#endif
