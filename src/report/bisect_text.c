/*
 * A bisect in the terminal: the answer first — the first bad commit, its
 * subject and the size of its change against its parent with the interval,
 * or why the search stopped (no difference between the endpoints, a
 * candidate like neither, a budget spent, only unbuildable commits left) —
 * then the steps in the order they were decided, each with its evidence
 * against good and against bad, the runs it took and the notes. The step
 * table is one model (bisect_steps_model) that the page draws too.
 */
#include "report/bisect.h"

#include <math.h>
#include <string.h>

#include "report/names.h"

static const char *dash = "-";

static const char *str(const char *s)
{
	return s ? s : dash;
}

static void pct(struct strbuf *out, double ratio)
{
	strbuf_addf(out, "%+.1f%%", 100 * (ratio - 1));
}

void bisect_cmp_text(const struct bisect_rec_cmp *k, struct strbuf *out)
{
	if (!k->valid || !isfinite(k->ratio)) {
		strbuf_adds(out, dash);
		return;
	}
	pct(out, k->ratio);
	if (k->exact) {
		strbuf_adds(out, " (exact)");
	} else if (isfinite(k->ci_lo) && isfinite(k->ci_hi)) {
		strbuf_adds(out, " [");
		pct(out, k->ci_lo);
		strbuf_adds(out, ", ");
		pct(out, k->ci_hi);
		strbuf_adds(out, "]");
	}
}

/* What the page calls a step's row, by its call (enum bisect_call order). */
static const char *const row_classes[] = { "b-good", "b-bad", "b-neither", "b-undecided",
					   "b-skip", "b-premise", "b-same" };

static void cmp_cell(struct texttable *t, size_t row, size_t col, const struct bisect_rec_cmp *k)
{
	struct strbuf sb = STRBUF_INIT;

	bisect_cmp_text(k, &sb);
	if (k->valid && k->word[0])
		strbuf_addf(&sb, " %s", k->word);
	texttable_set(t, row, col, "%s", sb.buf);
	strbuf_release(&sb);
}

static void step_row(struct texttable *t, const struct bisect_rec_step *s, int reasons)
{
	size_t row = texttable_row(t);
	const char *what = s->kind == STEP_PREMISE ? " (premise: bad vs good)" :
			   s->kind == STEP_CONFIRM ? " (confirm: culprit vs parent)" : "";

	texttable_set(t, row, 0, "%d", s->index);
	texttable_set(t, row, 1, "%s", str(s->c.abbrev));
	texttable_set(t, row, 2, "%zu", s->position);
	texttable_set(t, row, 3, "%s", bisect_call_word(s->call));
	if (s->build == BUILD_FAILED)
		texttable_set(t, row, 4, "build failed (exit %d)", s->build_exit);
	else
		cmp_cell(t, row, 4, &s->vs_good);
	cmp_cell(t, row, 5, &s->vs_bad);
	texttable_set(t, row, 6, "%zu", s->runs);
	texttable_set(t, row, 7, "%s%s", str(s->c.subject), what);
	if (reasons)
		texttable_set(t, row, 8, "%s", str(s->reason));
	texttable_row_class(t, row, row_classes[s->call]);
}

void bisect_steps_model(const struct bisect_result *d, int reasons, struct texttable *t)
{
	static const char *const head[] = { "step", "commit", "pos", "outcome", "vs good",
					    "vs bad", "runs", "subject", "evidence" };
	static const char *const classes[] = { NULL, "commit", "num", "outcome", "cmp", "cmp",
					       "num", "subject", "reason" };
	size_t row;

	texttable_init(t, reasons ? 9 : 8, "rlrlllrll");
	t->classes = classes;
	row = texttable_row(t);
	for (size_t c = 0; c < t->ncols; c++)
		texttable_set(t, row, c, "%s", head[c]);
	if (d->has_premise)
		step_row(t, &d->premise, reasons);
	for (size_t i = 0; i < d->nsteps; i++)
		step_row(t, &d->steps[i], reasons);
	if (d->has_confirm)
		step_row(t, &d->confirm, reasons);
}

static void commit_words(const struct bisect_rec_commit *c, struct strbuf *out)
{
	strbuf_addf(out, "%s \"%s\"", str(c->abbrev), str(c->subject));
}

/* With --profile: where the culprit's change is, as compare's reading says
 * it (the top few of the document's functions and call sites, names cut in
 * the middle as there; -v of the step result has them all). */
#define WHERE_MAX 3

static void where(const struct bisect_result *d, struct strbuf *out)
{
	for (size_t i = 0; i < d->nhot_sites && i < WHERE_MAX; i++) {
		strbuf_adds(out, i ? "; " : "  allocations per run changed at: ");
		site_short(out, d->hot_sites[i].name, 72);
		strbuf_addf(out, " %.0f -> %.0f", d->hot_sites[i].base, d->hot_sites[i].culprit);
	}
	if (d->nhot_sites)
		strbuf_addch(out, '\n');
	for (size_t i = 0; i < d->nhot_fns && i < WHERE_MAX; i++) {
		const struct bisect_rec_hot *f = &d->hot_fns[i];

		strbuf_adds(out, i ? "; " : "  share of the profiled time: ");
		name_short(out, f->name, 48);
		strbuf_addf(out, " %.1f%% -> %.1f%%", 100 * f->base, 100 * f->culprit);
	}
	if (d->nhot_fns)
		strbuf_addf(out, " (parent -> culprit; pmustat report %s -v for every function)\n",
			    d->profile_result ? d->profile_result : "the confirm step's result");
}

void bisect_outcome_text(const struct bisect_result *d, struct strbuf *out)
{
	const struct bisect_rec_step *last = d->nsteps ? &d->steps[d->nsteps - 1] : NULL;
	struct strbuf k = STRBUF_INIT;

	if (d->outcome == BISECT_FOUND && d->has_culprit) {
		bisect_cmp_text(&d->change, &k);
		strbuf_addf(out, "first bad commit: %s %s\n", d->culprit.abbrev,
			    str(d->culprit.subject));
		strbuf_addf(out, "  %s %s %s against its parent %.7s (n %zu)\n", str(d->primary),
			    k.buf, d->change.word, d->parent, d->change.n);
		where(d, out);
	} else if (d->outcome == BISECT_NO_DIFFERENCE) {
		bisect_cmp_text(&d->premise.vs_good, &k);
		strbuf_addf(out, "no difference shown: bad against good on %s: %s %s (n %zu); "
			    "nothing to bisect at this precision\n", str(d->primary), k.buf,
			    d->premise.vs_good.word, d->premise.vs_good.n);
	} else if (d->outcome == BISECT_NEITHER && last) {
		strbuf_addf(out, "stopped: %s (step %d) is neither like good nor like bad\n",
			    last->c.abbrev, last->index);
		strbuf_addf(out, "  %s\n", str(last->reason));
	} else if (d->outcome == BISECT_UNDECIDED && last) {
		strbuf_addf(out, "stopped: step %d (%s) undecided: %s\n", last->index,
			    last->c.abbrev, str(last->stop_reason));
	} else if (d->outcome == BISECT_SKIPPED_ONLY) {
		strbuf_adds(out, "stopped: only skipped commits are left; the first bad one is one "
				 "of:\n");
		for (size_t i = 0; i < d->nremaining; i++) {
			strbuf_adds(out, "  ");
			commit_words(&d->remaining[i], out);
			strbuf_addch(out, '\n');
		}
	} else if (d->outcome == BISECT_INTERRUPTED) {
		strbuf_addf(out, "interrupted after %zu steps: run the same command again to "
			    "resume\n", d->nsteps);
	} else {
		strbuf_addf(out, "outcome: %s%s\n", bisect_outcome_word(d->outcome),
			    d->complete ? "" : " (not finished)");
	}
	strbuf_release(&k);
}

static void header(const struct bisect_result *d, struct strbuf *out)
{
	strbuf_adds(out, "pmustat bisect:");
	for (size_t i = 0; d->argv && d->argv[i]; i++)
		strbuf_addf(out, " %s", d->argv[i]);
	strbuf_adds(out, "\n  good ");
	commit_words(&d->good, out);
	strbuf_adds(out, " .. bad ");
	commit_words(&d->bad, out);
	strbuf_addf(out, ": %zu commits, %s%s", d->candidates, str(d->primary),
		    d->exact ? " (exact)" : "");
	if (d->direction[0] && d->outcome != BISECT_NO_DIFFERENCE)
		strbuf_addf(out, ", bad is %s", d->direction);
	strbuf_addch(out, '\n');
}

static void notes(const struct bisect_result *d, struct strbuf *out)
{
	if (!d->nnotes)
		return;
	strbuf_adds(out, "\nnotes:\n");
	for (size_t i = 0; i < d->nnotes; i++)
		strbuf_addf(out, "  - %s%s\n", d->notes[i].warning ? "warning: " : "",
			    str(d->notes[i].text));
}

static void reason_line(const struct bisect_rec_step *s, struct strbuf *out)
{
	strbuf_addf(out, "  %d %s: %s\n", s->index, s->c.abbrev, str(s->reason));
	if (s->stop_reason)
		strbuf_addf(out, "      %s\n", s->stop_reason);
}

static void reasons(const struct bisect_result *d, struct strbuf *out)
{
	strbuf_adds(out, "\nevidence:\n");
	if (d->has_premise)
		reason_line(&d->premise, out);
	for (size_t i = 0; i < d->nsteps; i++)
		reason_line(&d->steps[i], out);
	if (d->has_confirm)
		reason_line(&d->confirm, out);
}

void report_bisect_text(const struct bisect_result *d, int verbose, struct strbuf *out)
{
	struct texttable t;

	header(d, out);
	bisect_outcome_text(d, out);
	strbuf_addf(out, "  %zu decisions", d->decisions);
	if (d->max_decisions)
		strbuf_addf(out, " (at most %zu without skips)", d->max_decisions);
	strbuf_addf(out, ", %zu skipped, %zu runs\n\n", d->skipped, d->runs_total);
	bisect_steps_model(d, 0, &t);
	texttable_render(&t, 2, out);
	texttable_release(&t);
	if (verbose)
		reasons(d, out);
	notes(d, out);
}
