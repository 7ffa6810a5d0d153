/*
 * Display scaling. Counts keep all their digits (grouped by thousands) when
 * they are integers: a performance engineer reading instruction counts wants
 * to see whether the last digits moved.
 */
#include "report/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct unit_scale scale_time(double ns)
{
	double a = fabs(ns);

	if (a >= 1e9)
		return (struct unit_scale){ 1e9, "s", 3 };
	if (a >= 1e6)
		return (struct unit_scale){ 1e6, "ms", 3 };
	if (a >= 1e3)
		return (struct unit_scale){ 1e3, "us", 3 };
	return (struct unit_scale){ 1, "ns", 0 };
}

static struct unit_scale scale_kib(double kib)
{
	double a = fabs(kib);

	if (a >= 1024.0 * 1024)
		return (struct unit_scale){ 1024.0 * 1024, "GiB", 2 };
	if (a >= 1024)
		return (struct unit_scale){ 1024, "MiB", 2 };
	return (struct unit_scale){ 1, "KiB", 0 };
}

/* Units that name what is counted ("misses", "cycles"): shown as plain counts. */
static int is_count_unit(const char *unit)
{
	static const char *const counts[] = { "", "accesses", "branches", "calls", "cycles",
					      "faults", "instructions", "lines", "migrations",
					      "misses", "switches", "walks", "events", NULL };

	for (int i = 0; counts[i]; i++)
		if (!strcmp(unit, counts[i]))
			return 1;
	return 0;
}

struct unit_scale unit_pick(const char *unit, double typical)
{
	if (!strcmp(unit, "ns"))
		return scale_time(typical);
	if (!strcmp(unit, "KiB"))
		return scale_kib(typical);
	if (is_count_unit(unit))
		return (struct unit_scale){ 1, "", 0 };
	/* Ratios (ipc, miss ratios, per-1000-instruction rates): the metric's
	 * name says what it is; four significant decimals, no suffix. */
	if (!strcmp(unit, "ratio") || strchr(unit, '/') || !strncmp(unit, "per ", 4))
		return (struct unit_scale){ 1, "", 4 };
	return (struct unit_scale){ 1, unit, 2 };
}

static void add_grouped(struct strbuf *sb, double v)
{
	char digits[64];
	int n, lead;

	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	n = (int)strlen(digits);
	if (v < 0)
		strbuf_addch(sb, '-');
	lead = n % 3 ? n % 3 : 3;
	strbuf_add(sb, digits, (size_t)lead);
	for (int i = lead; i < n; i += 3) {
		strbuf_addch(sb, ',');
		strbuf_add(sb, digits + i, 3);
	}
}

void unit_format(struct strbuf *sb, const struct unit_scale *us, double value)
{
	double v = value / us->div;

	if (!isfinite(v)) {
		strbuf_adds(sb, "—");
		return;
	}
	/* Large counts: all integer digits, grouped; a mean's fraction of a
	 * count adds nothing there. Small ones keep two decimals if not whole. */
	if (us->decimals == 0 && fabs(v) < 1e15 && (v == floor(v) || fabs(v) >= 100)) {
		add_grouped(sb, round(v));
		return;
	}
	strbuf_addf(sb, "%.*f", us->decimals ? us->decimals : 2, v);
}
