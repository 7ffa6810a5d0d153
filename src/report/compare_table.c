/*
 * Rendering comparisons, answer first: after the header, the reading (the
 * verdict per variant and where the difference is), then the variants, the
 * table, the notes and the warnings grouped by kind. Fits a screen for two
 * variants; -v adds the stopping rule, the tables per function and call
 * site, how the figures were computed and each warning in full. Colour
 * marks only the verdict word, and only on a terminal: the numbers must
 * read the same in a log file.
 */
#include "report/compare_table.h"

#include <math.h>
#include <string.h>

#include "analysis/analysed.h"
#include "core/printable.h"
#include "report/profile.h"
#include "report/reading.h"
#include "report/texttable.h"
#include "report/units.h"

/* The rule the campaign ran under, for the reader to judge the stop. */
static void rule_line(const struct result *r, struct strbuf *out)
{
	struct strbuf safe = STRBUF_INIT;
	const char *m = r->primary ? printable_in(&safe, r->primary) : "the primary metric";

	if (r->decide) {
		strbuf_addf(out, " rule: stop once the %s verdict settles (its 95%% confidence "
			    "sequence clear of the ±%.1f%% noise band, or inside it)", m,
			    100 * r->noise_band);
		if (r->target > 0)
			strbuf_addf(out, " or is within ±%.2f%%", 100 * r->target);
		strbuf_addf(out, "; blocks %u..%u\n", r->min_blocks, r->repeat);
	} else if (r->target > 0) {
		strbuf_addf(out, " rule: stop once the %s 95%% CI half-width is within ±%.2f%%; "
			    "blocks %u..%u\n", m, 100 * r->target, r->min_blocks, r->repeat);
	}
	strbuf_release(&safe);
}

static void header(const struct result *r, const struct comparison_set *s,
		   const struct table_opts *o, struct strbuf *out)
{
	size_t warm = 0;

	for (size_t i = 0; i < r->nruns; i++)
		warm += r->runs[i].warmup && r->runs[i].position == 0;
	/* Simulated runs only (--backend sim): no timed block, so no stopping
	 * rule either; say what ran rather than "0 blocks". */
	if (!s->blocks_total && s->blocks_simulated) {
		strbuf_addf(out, "\n pmustat compare: %zu variants, %zu simulated blocks "
			    "(no timed runs), seed %llu\n", r->nvariants, s->blocks_simulated,
			    (unsigned long long)r->seed);
		goto stopped;
	}
	strbuf_addf(out, "\n pmustat compare: %zu variants, %zu blocks", r->nvariants,
		    s->blocks_total);
	if (warm && s->blocks_simulated)
		strbuf_addf(out, " (+%zu warm-up, +%zu simulated)", warm, s->blocks_simulated);
	else if (warm)
		strbuf_addf(out, " (+%zu warm-up)", warm);
	else if (s->blocks_simulated)
		strbuf_addf(out, " (+%zu simulated)", s->blocks_simulated);
	strbuf_addf(out, ", seed %llu\n", (unsigned long long)r->seed);
	if (o->verbose)
		rule_line(r, out);
stopped:
	if (r->stop_reason) {
		strbuf_adds(out, " stopped: ");
		strbuf_add_printable(out, r->stop_reason);
		strbuf_addch(out, '\n');
	}
	strbuf_addch(out, '\n');
}

static void variants(const struct result *r, const struct table_opts *o, struct strbuf *out)
{
	struct texttable t;

	texttable_init(&t, 3, "lll");
	if (o->markdown) {	/* a header row first */
		size_t row = texttable_row(&t);

		texttable_set(&t, row, 0, "variant");
		texttable_set(&t, row, 1, "command");
	}
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
	if (o->markdown)
		texttable_render_markdown(&t, out);
	else
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
	if (c->role == ROLE_OUTSIDE)
		return "";
	switch (c->verdict) {
	case STATS_SLOWER:
		return "\033[1;31m";
	case STATS_FASTER:
		return "\033[1;32m";
	case STATS_SLOWER_UNSIZED:
		return "\033[31m";
	case STATS_FASTER_UNSIZED:
		return "\033[32m";
	case STATS_EQUIVALENT:
		return "";
	default:
		return "\033[33m";
	}
}

/* The verdict as the table shows it: the direction (or EQUIVALENT,
 * INCONCLUSIVE) in capitals, a qualifier after it in lower case; a metric
 * outside the family in brackets and lower case, as a reading, not a claim. */
void compare_verdict_text(const struct result *r, const struct comparison *c, char *word,
			  size_t size)
{
	int outside = c->role == ROLE_OUTSIDE;

	snprintf(word, size, "%s%s%s%s", outside ? "[" : "", comparison_verdict_word(r, c),
		 outside ? "]" : "", c->held_by_holm ? "*" : "");
	for (size_t i = 0; !outside && word[i] && word[i] != ' '; i++)
		if (word[i] >= 'a' && word[i] <= 'z')
			word[i] = (char)(word[i] - 'a' + 'A');
}

static void verdict_cell(struct texttable *t, size_t row, const struct result *r,
			 const struct comparison *c, const struct table_opts *o)
{
	char word[64];

	compare_verdict_text(r, c, word, sizeof(word));
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
	else if (isfinite(c->ci_lo) && isfinite(c->ci_hi))	/* a ratio is never below 0 */
		texttable_set(t, row, 5, "[%.4f, %.4f]", c->ci_lo < 0 ? 0 : c->ci_lo, c->ci_hi);
	else
		texttable_set(t, row, 5, "unbounded");
	if (c->role != ROLE_OUTSIDE && isfinite(c->p_holm))
		texttable_set(t, row, 6, "%.2g", c->p_holm);
	else
		texttable_set(t, row, 6, "—");
	texttable_set(t, row, 7, "%zu", c->n);
}

static const char *const table_classes[] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
					    "verdict" };

void compare_table_model(const struct analysed *a, const struct table_opts *o,
			 const char *(*row_class)(const struct comparison *c), struct texttable *t,
			 struct strbuf *uncounted)
{
	const struct result *r = a->r;
	const struct comparison_set *s = &a->cmp;
	size_t row;

	texttable_init(t, 9, "llrrrlrrl");
	t->classes = table_classes;
	row = texttable_row(t);
	const char *head[] = { "metric", "variant", "baseline", "variant", "ratio",
			       r->decide ? "95% conf. sequence" : "95% CI of ratio",
			       "p", "n", "verdict" };

	for (size_t i = 0; i < 9; i++)
		texttable_set(t, row, i, "%s", head[i]);
	for (size_t m = 0; m < r->nmetrics; m++) {
		if ((r->metrics[m].hidden && !o->verbose) || r->metrics[m].source == MSRC_PROFILE)
			continue;
		for (size_t v = 0; v < r->nvariants; v++) {
			const struct comparison *c = comparisons_find(s, m, v);
			struct unit_scale us;

			if ((int)v == r->baseline)
				continue;
			if (!c && !o->verbose) {
				strbuf_adds(uncounted, uncounted->len ? ", " : "");
				strbuf_add_printable(uncounted, r->metrics[m].name);
				break;
			}
			row = texttable_row(t);
			texttable_set(t, row, 0, "%s%s", r->metrics[m].name,
				      r->metrics[m].source == MSRC_SIM ? " (sim)" : "");
			if (!c) {
				texttable_set(t, row, 1, "not counted (see notes)");
				texttable_span(t, row);
				break;
			}
			texttable_set(t, row, 1, "%s", r->variants[v].name);
			/* A zero baseline would pick nanoseconds for both. */
			us = unit_pick(r->metrics[m].unit, c->mean_a != 0 ? c->mean_a : c->mean_b);
			centre(t, row, 2, &us, c->mean_a, c->cv_a);
			centre(t, row, 3, &us, c->mean_b, c->cv_b);
			ratio_cells(t, row, c);
			verdict_cell(t, row, r, c, o);
			if (row_class)
				texttable_row_class(t, row, row_class(c));
		}
	}
}

/* The metrics of one role (for the first compared variant: roles are the
 * same for every variant), comma-separated. */
static size_t names_of(const struct result *r, const struct comparison_set *s,
		       enum cmp_role role, struct strbuf *names)
{
	size_t first = s->n ? s->c[0].variant : 0, k = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->c[i].variant == first && s->c[i].role == role &&
		    !r->metrics[s->c[i].metric].hidden) {
			strbuf_adds(names, k ? ", " : "");
			strbuf_add_printable(names, r->metrics[s->c[i].metric].name);
			k++;
		}
	return k;
}

static void family_notes(const struct result *r, const struct comparison_set *s,
			 struct strbuf *out)
{
	struct strbuf fam = STRBUF_INIT, outside = STRBUF_INIT, safe = STRBUF_INIT;
	size_t nfam = names_of(r, s, ROLE_FAMILY, &fam);
	const char *prim = r->primary ? printable_in(&safe, r->primary) : "the primary metric";

	strbuf_addf(out, "  - p: %s; ", r->decide ? "always-valid, from the confidence sequence"
						  : "Wilcoxon signed-rank on the paired log ratios "
						    "(Mann-Whitney when unpaired)");
	if (nfam)
		strbuf_addf(out, "Holm-adjusted across the %zu metric%s asked for besides %s "
			    "(%s)\n", nfam, nfam == 1 ? "" : "s", prim, fam.buf);
	else
		strbuf_addf(out, "no metric was asked for besides %s, so none is adjusted\n",
			    prim);
	if (names_of(r, s, ROLE_OUTSIDE, &outside))
		strbuf_addf(out, "  - [..]: measured but not asked for (%s): outside the Holm "
			    "family, the interval's reading only; name them with -m to test "
			    "them\n", outside.buf);
	strbuf_release(&fam);
	strbuf_release(&outside);
	strbuf_release(&safe);
}

static void estimate_notes(const struct result *r, const struct comparison_set *s,
			   struct strbuf *out)
{
	const struct comparison *mu = NULL;
	int regression = 0;

	for (size_t i = 0; i < s->n; i++) {
		mu = s->c[i].estimate == EST_MEDIAN_UNBIASED && !mu ? &s->c[i] : mu;
		regression |= s->c[i].estimate == EST_REGRESSION;
	}
	if (r->decide)
		strbuf_adds(out, "  - intervals are 95% confidence sequences: valid however early "
				 "the campaign stopped\n");
	if (!mu)
		return;
	strbuf_addf(out, "  - ratio of %s: median-unbiased under the stopping rule, which an "
		    "early stop does not inflate (the plain mean at the stop: %.4f)%s\n",
		    r->metrics[mu->metric].name, mu->ratio_plain,
		    regression ? "; the other metrics' ratios are corrected through their "
				 "regression on it" : "");
}

/* What the table's figures mean. By default the few a reader needs to
 * read it (dropped blocks, the baseline, the marks); -v adds how the
 * intervals, ratios and p-values were computed. */
static void comparison_notes(const struct result *r, const struct comparison_set *s,
			     const struct table_opts *o, struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, outside = STRBUF_INIT;
	int held = 0;

	for (size_t i = 0; i < s->n; i++)
		held |= s->c[i].held_by_holm;
	if (s->blocks_complete < s->blocks_total)
		strbuf_addf(out, "  - %zu of %zu blocks dropped: a variant did not finish "
			    "cleanly in them (-i)\n", s->blocks_total - s->blocks_complete,
			    s->blocks_total);
	if (held)
		strbuf_addf(out, "  - *: the interval alone gives a direction, but the "
			    "Holm-adjusted p is not below %.2f\n", COMPARE_ALPHA);
	strbuf_addf(out, "  - ratio = variant / %s; verdicts against a ±%.1f%% noise band; "
		    "centres are means ± cv\n", printable_in(&a, r->variants[r->baseline].name),
		    100 * r->noise_band);
	if (o->verbose) {
		estimate_notes(r, s, out);
		family_notes(r, s, out);
	} else if (names_of(r, s, ROLE_OUTSIDE, &outside)) {
		strbuf_adds(out, "  - [..]: measured but not asked for, no verdict claimed; -v "
				 "says how intervals and p-values were computed\n");
	} else {
		strbuf_adds(out, "  - -v says how intervals and p-values were computed\n");
	}
	strbuf_release(&a);
	strbuf_release(&outside);
}

/* The detailed sections (the profile's per-function tables, the simulated
 * counts per function, the allocation call sites): in full with -v; by
 * default the reading names their largest changes and a line says where
 * the rest is. */
static void details(const struct analysed *a, const struct table_opts *o, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	report_attribution(a, o, &sb);
	report_sim_attribution(a, o, &sb);
	report_allocsites(a, o, &sb);
	if (o->verbose && sb.len)
		strbuf_add(out, sb.buf, sb.len);
	else if (sb.len)
		strbuf_adds(out, "\n  (the tables per function and per call site: -v)\n");
	strbuf_release(&sb);
}

void report_compare_table(const struct analysed *a, const struct table_opts *o,
			  struct strbuf *out)
{
	const struct result *r = a->r;
	const struct comparison_set *s = &a->cmp;
	struct strbuf uncounted = STRBUF_INIT;
	struct texttable t;

	header(r, s, o, out);
	/* The answer first: the verdicts and where the difference is. */
	report_reading(a, o, out);
	strbuf_addch(out, '\n');
	variants(r, o, out);
	compare_table_model(a, o, NULL, &t, &uncounted);
	if (o->markdown)
		texttable_render_markdown(&t, out);
	else
		texttable_render(&t, 2, out);
	texttable_release(&t);
	if (uncounted.len)
		strbuf_addf(out, "  not counted here: %s (see notes)\n", uncounted.buf);
	details(a, o, out);
	strbuf_addch(out, '\n');
	comparison_notes(r, s, o, out);
	report_notes(r, &a->warnings, o, out);
	strbuf_release(&uncounted);
}
