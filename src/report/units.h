/*
 * Numbers for humans: durations in ns/us/ms/s, sizes in KiB/MiB/GiB, counts
 * with thousands separators. One scale is chosen per metric (from its mean)
 * so every number in a row shares the unit and can be compared by eye.
 */
#ifndef PMU_REPORT_UNITS_H
#define PMU_REPORT_UNITS_H

#include "core/strbuf.h"

struct unit_scale {
	double div;		/* value / div is shown */
	const char *suffix;	/* "ms", "MiB", "" */
	int decimals;
};

/* Pick the display scale for values around `typical` in stored unit `unit`. */
struct unit_scale unit_pick(const char *unit, double typical);

/* Append value in scale us (no suffix). */
void unit_format(struct strbuf *sb, const struct unit_scale *us, double value);

#endif
