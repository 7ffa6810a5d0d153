/*
 * The options every measuring command takes (options.c): stat and compare
 * declare their own rows and append these, so each option is written once
 * and means the same in both.
 */
#ifndef PMU_CLI_OPTIONS_H
#define PMU_CLI_OPTIONS_H

#include <stddef.h>

#include "campaign/campaign.h"
#include "campaign/variants.h"
#include "core/parseopt.h"

enum measure_cmd { MEASURE_STAT, MEASURE_COMPARE };

/* What the shared rows fill besides the campaign's options. */
struct measure_args {
	struct campaign_opts *o;
	char *events, *metrics;	/* -e / -m lists (malloc'd by the parser) */
	unsigned seed, pin;
	int seeded, quiet, verbose, help;
	struct variant_args va;	/* --shell, parameters, hooks; the commands */
};

/* Empty arguments filling o (no pinning). */
void measure_args_init(struct measure_args *a, struct campaign_opts *o);

/* The rows for cmd into rows[0..max); returns how many (no OPT_END). */
size_t measure_options(struct option *rows, size_t max, struct measure_args *a,
		       enum measure_cmd cmd);

/* After parsing: the values into a->o (lists, seed, pin). */
void measure_args_apply(struct measure_args *a);
void measure_args_release(struct measure_args *a);

#endif
