/*
 * Collecting a result's warnings for grouping (see warnings.h). Each sort
 * of warning gets the words its group's line uses here, once: the
 * analysis only tags its warnings with a kind.
 */
#include "analysis/warnings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "result/json.h"

static const struct {
	const char *kind, *label;
} labels[] = {
	{ "cold-start", "a slow first run (a cold start)" },
	{ "drift", "drift with run order" },
	{ "outliers", "outliers (kept)" },
	{ "counted-zero", "counted 0 in every run (the PMU may not implement them):" },
	{ "zero-denominator", "undefined in every run (a denominator counted 0):" },
	{ "cross-group", "ratios of inputs counted in different runs:" },
	{ "multiplexed", "runs left out as multiplexed" },
	{ "noise", "noise from outside the program" },
	{ "varies", "counts that should not vary, but did:" },
	{ "memory", "statistics left out for want of memory:" },
};

static const char *label_of(const char *kind)
{
	for (size_t i = 0; kind && i < sizeof(labels) / sizeof(labels[0]); i++)
		if (!strcmp(labels[i].kind, kind))
			return labels[i].label;
	return kind;
}

static const char *own(struct warning_set *w, char *s)
{
	ALLOC_GROW(w->owned, w->nowned + 1, w->owned_alloc);
	w->owned[w->nowned++] = s;
	return s;
}

static void add(struct warning_set *w, const char *kind, const char *metric,
		const char *variant, const char *text, const char *hint)
{
	ALLOC_GROW(w->item, w->n + 1, w->alloc);
	w->item[w->n++] = (struct warn_item){ kind, label_of(kind), metric, variant, text, hint };
}

/* The comparisons' warnings: the primary metric drowned in the host's
 * noise; exact counts that varied between blocks; statistics that ran out
 * of memory. */
static void from_comparisons(struct warning_set *w, const struct result *r,
			     const struct comparison_set *s)
{
	struct strbuf text = STRBUF_INIT, hint = STRBUF_INIT;
	struct comparison_noise noise;

	comparisons_noise(r, s, &noise);
	comparisons_noise_note(r, &noise, &text, &hint);
	if (text.len)
		add(w, "noise", r->primary, NULL, own(w, strbuf_detach(&text)),
		    own(w, strbuf_detach(&hint)));
	for (size_t i = 0; i < s->n; i++) {
		const struct comparison *c = &s->c[i];
		struct strbuf sb = STRBUF_INIT;

		if (c->lost) {
			strbuf_addf(&sb, "%s left out: out of memory computing it", c->lost);
			if (c->role == ROLE_FAMILY && isnan(c->p))
				strbuf_adds(&sb, " (the Holm adjustment of the other metrics "
						 "counts its p as 1)");
			add(w, "memory", r->metrics[c->metric].name, r->variants[c->variant].name,
			    own(w, strbuf_detach(&sb)),
			    "the runs are all kept: give pmustat more memory (ulimit -v) and run "
			    "'pmustat report' on the result again");
		}
		if (!c->exact_varies)
			continue;
		strbuf_addf(&sb, "a count that should not vary, but its ratio ranged over "
			    "[%.4f, %.4f]", c->ci_lo, c->ci_hi);
		add(w, "varies", r->metrics[c->metric].name, r->variants[c->variant].name,
		    own(w, strbuf_detach(&sb)), "check for nondeterminism in the program");
	}
	strbuf_release(&text);
	strbuf_release(&hint);
}

void warnings_build(const struct result *r, const struct analysis *a,
		    const struct comparison_set *s, struct warning_set *w)
{
	memset(w, 0, sizeof(*w));
	if (s)
		from_comparisons(w, r, s);
	for (size_t i = 0; i < r->nnotes; i++)
		if (r->notes[i].level == NOTE_WARNING)
			add(w, NULL, r->notes[i].metric, NULL, r->notes[i].text, r->notes[i].hint);
	for (size_t i = 0; i < a->nsum; i++) {
		const struct metric_summary *ms = &a->sum[i];

		for (size_t k = ms->warn_first; k < ms->warn_first + ms->warn_count; k++)
			add(w, a->warn_kind[k], r->metrics[ms->metric].name,
			    r->nvariants > 1 ? r->variants[ms->variant].name : NULL,
			    a->warnings[k].text, a->warnings[k].hint);
	}
	warn_groups_build(w->item, w->n, &w->groups);
}

void warnings_release(struct warning_set *w)
{
	warn_groups_release(&w->groups);
	for (size_t i = 0; i < w->nowned; i++)
		free(w->owned[i]);
	free(w->owned);
	free(w->item);
	memset(w, 0, sizeof(*w));
}

static json_t *text_or_null(const char *s)
{
	return s ? report_json_text(s) : json_null();
}

static json_t *names_json(const char *const *v, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, report_json_text(v[i]));
	return arr;
}

static json_t *group_json(const struct warning_set *w, const struct warn_group *g)
{
	json_t *details = json_array();
	json_t *o = json_pack("{s:o, s:o, s:o, s:I}", "kind", text_or_null(g->kind), "summary",
			      report_json_text(g->summary), "hint", text_or_null(g->hint), "count",
			      (json_int_t)g->nmember);

	json_object_set_new(o, "metrics", names_json(g->metrics, g->nmetrics));
	json_object_set_new(o, "variants", names_json(g->variants, g->nvariants));
	for (size_t i = 0; i < g->nmember; i++) {
		const struct warn_item *it = &w->item[g->member[i]];

		json_array_append_new(details, json_pack("{s:o, s:o, s:o}", "metric",
							 text_or_null(it->metric), "variant",
							 text_or_null(it->variant), "text",
							 report_json_text(it->text)));
	}
	json_object_set_new(o, "details", details);
	return o;
}

json_t *warnings_json(const struct warning_set *w)
{
	json_t *arr = json_array();

	for (size_t k = 0; k < w->groups.n; k++)
		json_array_append_new(arr, group_json(w, &w->groups.g[k]));
	return arr;
}
