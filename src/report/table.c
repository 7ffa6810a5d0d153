/*
 * Rendering the stat table. The CI column says "95% CI of mean" in its
 * heading and shows the interval itself, not a ± percentage alone, because
 * perf stat's "+- x%" (a standard error) is routinely misread as a CI.
 */
#include "report/table.h"

#include <math.h>
#include <string.h>

#include "analysis/analysed.h"
#include "core/printable.h"
#include "report/profile.h"
#include "report/texttable.h"
#include "report/units.h"

void report_command_line(char *const *argv, struct strbuf *out)
{
	struct strbuf word = STRBUF_INIT;

	for (char *const *a = argv; a && *a; a++) {
		if (a != argv)
			strbuf_addch(out, ' ');
		/* Control characters are shown escaped (\x1b), inside quotes. */
		printable_in(&word, *a);
		if (**a && !strpbrk(*a, " \t\n'\"\\$`*?;&|<>(){}[]") && !strcmp(word.buf, *a)) {
			strbuf_adds(out, *a);
			continue;
		}
		strbuf_addch(out, '\'');
		for (const char *p = word.buf; *p; p++)
			if (*p == '\'')
				strbuf_adds(out, "'\\''");
			else
				strbuf_addch(out, *p);
		strbuf_addch(out, '\'');
	}
	strbuf_release(&word);
}

static void cell_value(struct texttable *t, size_t row, size_t col,
		       const struct unit_scale *us, double v)
{
	struct strbuf sb = STRBUF_INIT;

	unit_format(&sb, us, v);
	if (*us->suffix && isfinite(v))
		strbuf_addf(&sb, " %s", us->suffix);
	texttable_set(t, row, col, "%s", sb.buf);
	strbuf_release(&sb);
}

static void cell_ci(struct texttable *t, size_t row, const struct unit_scale *us,
		    const struct stats_summary *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!isfinite(s->mean_ci_lo)) {
		texttable_set(t, row, 2, "—");
		texttable_set(t, row, 3, "%s", s->n < 2 ? "(1 run)" : "");
		return;
	}
	strbuf_adds(&sb, "[");
	/* Times, counts and sizes are never negative: a t interval reaching
	 * below 0 (few, skewed runs) is shown from 0. The JSON keeps the raw
	 * bound, and ± its half-width. */
	unit_format(&sb, us, s->min >= 0 && s->mean_ci_lo < 0 ? 0 : s->mean_ci_lo);
	strbuf_adds(&sb, ", ");
	unit_format(&sb, us, s->mean_ci_hi);
	strbuf_adds(&sb, "]");
	texttable_set(t, row, 2, "%s", sb.buf);
	if (s->mean != 0)
		texttable_set(t, row, 3, "±%.1f%%",
			      100 * (s->mean_ci_hi - s->mean_ci_lo) / 2 / fabs(s->mean));
	strbuf_release(&sb);
}

/* A ratio whose inputs ran in different groups: the cross-group estimate. */
static void cross_row(struct texttable *t, size_t row, const struct result_metric *met,
		      const struct metric_summary *ms)
{
	struct unit_scale us = unit_pick(met->unit, ms->cross.r);
	struct strbuf sb = STRBUF_INIT;

	cell_value(t, row, 1, &us, ms->cross.r);
	if (isfinite(ms->cross.ci_lo)) {
		strbuf_adds(&sb, "[");
		unit_format(&sb, &us, ms->cross.r >= 0 && ms->cross.ci_lo < 0 ? 0 : ms->cross.ci_lo);
		strbuf_adds(&sb, ", ");
		unit_format(&sb, &us, ms->cross.ci_hi);
		strbuf_adds(&sb, "]");
		texttable_set(t, row, 2, "%s", sb.buf);
		if (ms->cross.r != 0)
			texttable_set(t, row, 3, "±%.1f%%", 100 * (ms->cross.ci_hi - ms->cross.ci_lo) /
							      2 / fabs(ms->cross.r));
	}
	texttable_set(t, row, 6, "%zu/%zu", ms->cross.n_y, ms->cross.n_x);
	strbuf_release(&sb);
}

static void stat_row(struct texttable *t, const struct result *r, const struct analysis *a,
		     size_t v, size_t m)
{
	const struct result_metric *met = &r->metrics[m];
	const struct metric_summary *ms = analysis_find(a, v, m);
	size_t row = texttable_row(t);
	struct unit_scale us;

	texttable_set(t, row, 0, "%s%s", met->name, met->source == MSRC_SIM ? " (sim)" : "");
	if (!met->available || !ms) {
		texttable_set(t, row, 1, "not counted (see notes)");
		texttable_span(t, row);
		return;
	}
	if (ms->s.n == 0 && ms->has_cross) {
		cross_row(t, row, met, ms);
		return;
	}
	if (ms->s.n == 0) {
		texttable_set(t, row, 1, "no usable runs");
		texttable_span(t, row);
		return;
	}
	us = unit_pick(met->unit, ms->s.mean);
	cell_value(t, row, 1, &us, ms->s.mean);
	cell_ci(t, row, &us, &ms->s);
	cell_value(t, row, 4, &us, ms->s.median);
	if (isfinite(ms->s.cv))
		texttable_set(t, row, 5, "%.1f%%", 100 * ms->s.cv);
	texttable_set(t, row, 6, "%zu", ms->s.n);
}

/* Notes may come from a result file: shown with control characters escaped.
 * with_hint 0: the next note has the same hint, which is said once, after it. */
static void note_lines(const struct result_note *n, int with_hint, struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (n->metric && !strstr(n->text, n->metric))
		strbuf_addf(out, "  - %s: %s\n", printable_in(&a, n->metric),
			    printable_in(&b, n->text));
	else
		strbuf_addf(out, "  - %s\n", printable_in(&b, n->text));
	if (n->hint && with_hint)
		strbuf_addf(out, "    hint: %s\n", printable_in(&a, n->hint));
	strbuf_release(&a);
	strbuf_release(&b);
}

static void section(const char *name, const char *color, const struct table_opts *o,
		    struct strbuf *out)
{
	strbuf_addf(out, "\n%s%s:%s\n", o->color ? color : "", name, o->color ? "\033[0m" : "");
}

static int same_hint(const struct result_note *x, const struct result_note *y)
{
	return y && x->hint && y->hint && !strcmp(x->hint, y->hint);
}

/* The result's notes; by default a hint shared by consecutive notes (the
 * metrics a missing PMU leaves uncounted) is said once. */
static void notes_of(const struct result *r, enum note_level level,
		     const struct table_opts *o, struct strbuf *out)
{
	const struct result_note *prev = NULL;

	for (size_t i = 0; i < r->nnotes; i++) {
		if (r->notes[i].level != level)
			continue;
		if (!prev)
			section(level == NOTE_NOTE ? "notes" : "warnings",
				level == NOTE_NOTE ? "\033[36m" : "\033[33m", o, out);
		else
			note_lines(prev, o->verbose || !same_hint(prev, &r->notes[i]), out);
		prev = &r->notes[i];
	}
	if (prev)
		note_lines(prev, 1, out);
}

static void item_lines(const char *text, const char *hint, struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT;

	strbuf_addf(out, "  - %s\n", printable_in(&a, text));
	if (hint)
		strbuf_addf(out, "    hint: %s\n", printable_in(&a, hint));
	strbuf_release(&a);
}

/* One line per kind of warning with its hint; with -v each warning. */
static void warnings_of(const struct warning_set *w, const struct table_opts *o,
			struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	int grouped = 0;

	if (!w->n)
		return;
	for (size_t k = 0; k < w->groups.n; k++)
		grouped |= w->groups.g[k].nmember > 1;
	section(grouped && !o->verbose ? "warnings (each with its figures: -v)" : "warnings",
		"\033[33m", o, out);
	for (size_t k = 0; k < w->groups.n; k++) {
		const struct warn_group *g = &w->groups.g[k];

		if (!o->verbose) {
			item_lines(g->summary, g->hint, out);
			continue;
		}
		for (size_t i = 0; i < g->nmember; i++) {
			const struct warn_item *it = &w->item[g->member[i]];

			strbuf_reset(&sb);
			warn_item_text(it, &sb);
			item_lines(sb.buf, it->hint, out);
		}
	}
	strbuf_release(&sb);
}

void report_notes(const struct result *r, const struct warning_set *w,
		  const struct table_opts *o, struct strbuf *out)
{
	notes_of(r, NOTE_NOTE, o, out);
	if (w)
		warnings_of(w, o, out);
	else
		notes_of(r, NOTE_WARNING, o, out);
}

/* One table per variant: stat has several only with --parameter-list/-scan. */
void stat_table_model(const struct result *r, const struct analysis *a, size_t v,
		      const struct table_opts *o, struct texttable *t)
{
	size_t row;

	texttable_init(t, 7, "lrlrrrr");
	row = texttable_row(t);
	texttable_set(t, row, 0, "metric");
	texttable_set(t, row, 1, "mean");
	texttable_set(t, row, 2, "95%% CI of mean");
	texttable_set(t, row, 3, "±");
	texttable_set(t, row, 4, "median");
	texttable_set(t, row, 5, "cv");
	texttable_set(t, row, 6, "runs");
	for (size_t m = 0; m < r->nmetrics; m++)
		if ((!r->metrics[m].hidden || o->verbose) && r->metrics[m].source != MSRC_PROFILE)
			stat_row(t, r, a, v, m);
}

static void stat_variant(const struct result *r, const struct analysis *a, size_t v,
			 const struct table_opts *o, struct strbuf *out)
{
	struct texttable t;
	size_t measured = 0, warm = 0;

	for (size_t i = 0; i < r->nruns; i++)	/* traced runs are not measured ones */
		if (((size_t)r->runs[i].variant == v || !r->nvariants) && !r->runs[i].traced &&
		    !r->runs[i].instrumented)
			r->runs[i].warmup ? warm++ : measured++;
	strbuf_adds(out, "\n Performance counter stats for ");
	/* Attached (stat -p/-t/-a): perf stat's words for what was counted. */
	if (r->attach.ids) {
		strbuf_addf(out, "%s id '", r->attach.kind && !strcmp(r->attach.kind, "tids")
			    ? "thread" : "process");
		strbuf_add_printable(out, r->attach.ids);
	} else if (r->attach.cpus) {
		strbuf_adds(out, "'system wide, CPU(s) ");
		strbuf_add_printable(out, r->attach.cpus);
	} else
		strbuf_adds(out, "'");
	if (r->nvariants && r->variants[v].argv[0]) {
		if (r->attach.ids || r->attach.cpus)
			strbuf_adds(out, "' while '");
		report_command_line(r->variants[v].argv, out);
	}
	strbuf_adds(out, "'");
	if (r->nvariants > 1) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(out, " [%s]", printable_in(&name, r->variants[v].name));
		strbuf_release(&name);
	}
	strbuf_addf(out, " (%zu %s%s", measured, r->attach.interval_ms ? "interval" : "run",
		    measured == 1 ? "" : "s");
	if (warm)
		strbuf_addf(out, " + %zu warm-up", warm);
	strbuf_adds(out, "):\n\n");
	stat_table_model(r, a, v, o, &t);
	if (o->markdown)
		texttable_render_markdown(&t, out);
	else
		texttable_render(&t, 2, out);
	texttable_release(&t);
}

void report_stat_table(const struct analysed *a, const struct table_opts *o, struct strbuf *out)
{
	const struct result *r = a->r;

	for (size_t v = 0; v < (r->nvariants ? r->nvariants : 1); v++)
		stat_variant(r, &a->an, v, o, out);
	report_profile_top(a, o, out);
	report_allocsites(a, o, out);
	report_notes(r, &a->warnings, o, out);
}
