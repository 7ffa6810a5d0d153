/*
 * Rendering comparisons. Colour marks only the verdict word, and only on a
 * terminal: the numbers must read the same in a log file.
 */
#include "report/compare_table.h"

#include <math.h>
#include <string.h>

#include "core/printable.h"
#include "report/analysis.h"
#include "report/comparison.h"
#include "report/texttable.h"
#include "report/units.h"

static void header(const struct result *r, const struct comparison_set *s, struct strbuf *out)
{
	size_t warm = 0;

	for (size_t i = 0; i < r->nruns; i++)
		warm += r->runs[i].warmup && r->runs[i].position == 0;
	strbuf_addf(out, "\n pmustat compare: %zu variants, %zu blocks", r->nvariants,
		    s->blocks_total);
	if (warm && s->blocks_simulated)
		strbuf_addf(out, " (+%zu warm-up, +%zu simulated)", warm, s->blocks_simulated);
	else if (warm)
		strbuf_addf(out, " (+%zu warm-up)", warm);
	else if (s->blocks_simulated)
		strbuf_addf(out, " (+%zu simulated)", s->blocks_simulated);
	strbuf_addf(out, ", seed %llu\n", (unsigned long long)r->seed);
	if (r->stop_reason) {
		strbuf_adds(out, " stopped: ");
		strbuf_add_printable(out, r->stop_reason);
		strbuf_addch(out, '\n');
	}
	strbuf_addch(out, '\n');
}

static void variants(const struct result *r, struct strbuf *out)
{
	struct texttable t;

	texttable_init(&t, 3, "lll");
	for (size_t v = 0; v < r->nvariants; v++) {
		size_t row = texttable_row(&t);
		struct strbuf cmd = STRBUF_INIT;

		report_command_line(r->variants[v].argv, &cmd);
		texttable_set(&t, row, 0, "%s", r->variants[v].name);
		texttable_set(&t, row, 1, "%s", cmd.buf);
		if ((int)v == r->baseline)
			texttable_set(&t, row, 2, "(baseline)");
		strbuf_release(&cmd);
	}
	texttable_render(&t, 2, out);
	texttable_release(&t);
	strbuf_addch(out, '\n');
}

static void centre(struct texttable *t, size_t row, size_t col, const struct unit_scale *us,
		   double mean, double cv)
{
	struct strbuf sb = STRBUF_INIT;

	unit_format(&sb, us, mean);
	if (*us->suffix)
		strbuf_addf(&sb, " %s", us->suffix);
	if (isfinite(cv))
		strbuf_addf(&sb, " ±%.1f%%", 100 * cv);
	texttable_set(t, row, col, "%s", sb.buf);
	strbuf_release(&sb);
}

static const char *verdict_color(const struct comparison *c)
{
	switch (c->verdict) {
	case STATS_SLOWER:
		return "\033[1;31m";
	case STATS_FASTER:
		return "\033[1;32m";
	case STATS_EQUIVALENT:
		return "";
	default:
		return "\033[33m";
	}
}

static void verdict_cell(struct texttable *t, size_t row, const struct result *r,
			 const struct comparison *c, const struct table_opts *o)
{
	char word[64];
	size_t i;

	snprintf(word, sizeof(word), "%s%s", comparison_verdict_word(r, c),
		 c->held_by_holm ? "*" : "");
	for (i = 0; word[i]; i++)
		if (word[i] >= 'a' && word[i] <= 'z' && c->verdict != STATS_CHANGED_WITHIN_NOISE)
			word[i] = (char)(word[i] - 'a' + 'A');
	texttable_set(t, row, 8, "%s", word);
	if (o->color && *verdict_color(c))
		texttable_color(t, row, 8, verdict_color(c));
}

static void ratio_cells(struct texttable *t, size_t row, const struct comparison *c)
{
	if (c->method == CMP_NONE) {
		texttable_set(t, row, 4, "—");
		texttable_set(t, row, 5, "%s", c->why);
		return;
	}
	texttable_set(t, row, 4, "%.4f", c->ratio);
	if (c->method == CMP_EXACT && c->ci_lo == c->ci_hi)
		texttable_set(t, row, 5, "exact (same in every block)");
	else if (c->method == CMP_EXACT)
		texttable_set(t, row, 5, "exact, range [%.4f, %.4f]%s", c->ci_lo, c->ci_hi,
			      c->exact_varies ? " (varies!)" : "");
	else if (isfinite(c->ci_lo) && isfinite(c->ci_hi))
		texttable_set(t, row, 5, "[%.4f, %.4f]", c->ci_lo, c->ci_hi);
	else
		texttable_set(t, row, 5, "unbounded");
	if (isfinite(c->p_holm))
		texttable_set(t, row, 6, "%.2g", c->p_holm);
	else
		texttable_set(t, row, 6, "—");
	texttable_set(t, row, 7, "%zu", c->n);
}

static void rows(const struct result *r, const struct comparison_set *s,
		 const struct table_opts *o, struct texttable *t)
{
	size_t row = texttable_row(t);
	const char *head[] = { "metric", "variant", "baseline", "variant", "ratio",
			       r->decide ? "95% conf. sequence" : "95% CI of ratio",
			       "p", "n", "verdict" };

	for (size_t i = 0; i < 9; i++)
		texttable_set(t, row, i, "%s", head[i]);
	for (size_t m = 0; m < r->nmetrics; m++) {
		if (r->metrics[m].hidden && !o->verbose)
			continue;
		for (size_t v = 0; v < r->nvariants; v++) {
			const struct comparison *c = comparisons_find(s, m, v);
			struct unit_scale us;

			if ((int)v == r->baseline)
				continue;
			row = texttable_row(t);
			texttable_set(t, row, 0, "%s%s", r->metrics[m].name,
				      r->metrics[m].source == MSRC_SIM ? " (sim)" : "");
			if (!c) {
				texttable_set(t, row, 1, "not counted (see notes)");
				texttable_span(t, row);
				break;
			}
			texttable_set(t, row, 1, "%s", r->variants[v].name);
			us = unit_pick(r->metrics[m].unit, c->mean_a);
			centre(t, row, 2, &us, c->mean_a, c->cv_a);
			centre(t, row, 3, &us, c->mean_b, c->cv_b);
			ratio_cells(t, row, c);
			verdict_cell(t, row, r, c, o);
		}
	}
}

static void comparison_notes(const struct result *r, const struct comparison_set *s,
			     struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int held = 0;

	for (size_t i = 0; i < s->n; i++) {
		held |= s->c[i].held_by_holm;
		if (s->c[i].exact_varies)
			strbuf_addf(out, "  - warning: %s of %s is a count that should not vary, "
				    "but its ratio ranged over [%.4f, %.4f]: check for "
				    "nondeterminism in the program\n",
				    printable_in(&a, r->metrics[s->c[i].metric].name),
				    printable_in(&b, r->variants[s->c[i].variant].name),
				    s->c[i].ci_lo, s->c[i].ci_hi);
	}
	if (s->blocks_complete < s->blocks_total)
		strbuf_addf(out, "  - %zu of %zu blocks dropped: a variant did not finish "
			    "cleanly in them (-i)\n", s->blocks_total - s->blocks_complete,
			    s->blocks_total);
	if (held)
		strbuf_addf(out, "  - *: the CI alone is beyond the noise band, but the "
			    "Holm-adjusted p is not below %.2f across the %zu metrics\n",
			    COMPARE_ALPHA, s->n / (r->nvariants - 1));
	strbuf_addf(out, "  - ratio = variant / %s; verdicts against a ±%.1f%% noise band; "
		    "centres are means ± cv\n", printable_in(&a, r->variants[r->baseline].name),
		    100 * r->noise_band);
	strbuf_addf(out, "  - p: Wilcoxon signed-rank on the paired log ratios (Mann-Whitney "
		    "when unpaired), Holm-adjusted across the metrics other than %s\n",
		    r->primary ? printable_in(&a, r->primary) : "the primary one");
	strbuf_release(&a);
	strbuf_release(&b);
}

void report_compare_table(const struct result *r, const struct table_opts *o,
			  struct strbuf *out)
{
	struct comparison_set s;
	struct analysis a;
	struct texttable t;

	comparisons_compute(r, &s);
	analysis_compute(r, &a);
	header(r, &s, out);
	variants(r, out);
	texttable_init(&t, 9, "llrrrlrrl");
	rows(r, &s, o, &t);
	texttable_render(&t, 2, out);
	texttable_release(&t);
	strbuf_addch(out, '\n');
	comparison_notes(r, &s, out);
	report_notes(r, a.warnings, a.nwarnings, o, out);
	analysis_release(&a);
	comparisons_release(&s);
}
