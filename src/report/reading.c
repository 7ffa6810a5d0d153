/*
 * The demo's reading (see reading.h). Every figure in it comes from the
 * comparisons and the attribution of the result, so a re-rendered result
 * reads the same as the campaign did.
 */
#include "report/reading.h"

#include <math.h>
#include <string.h>

#include "report/attribution.h"
#include "report/comparison.h"

static const struct comparison *find_cmp(const struct result *r, const struct comparison_set *s,
					 const char *metric, size_t v)
{
	int m = result_metric_index(r, metric);

	return m < 0 ? NULL : comparisons_find(s, (size_t)m, v);
}

static void say_change(struct strbuf *sb, const struct result *r, const struct comparison *c,
		       const char *what)
{
	double pct = 100 * (c->ratio - 1);

	if (c->method == CMP_NONE || !isfinite(c->ratio))
		return;
	strbuf_addf(sb, "; %s %+.1f%%", what, pct);
	if (c->method != CMP_EXACT && isfinite(c->ci_lo))
		strbuf_addf(sb, " [%+.1f%%, %+.1f%%]", 100 * (c->ci_lo - 1), 100 * (c->ci_hi - 1));
	strbuf_addf(sb, " (%s)", comparison_verdict_word(r, c));
}

/* Where the variant's time went, from its profile: the functions whose
 * change is significant, largest first — measured, not guessed. */
static void say_where(const struct result *r, const struct attribution_set *at, size_t v,
		      struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	int shown = 0;

	for (size_t i = 0; i < at->n; i++) {
		if (at->a[i].variant != v)
			continue;
		for (size_t k = 0; k < at->a[i].nfn && shown < 4; k++) {
			const struct attribution_fn *f = &at->a[i].fn[k];

			if (!f->significant)
				continue;
			strbuf_addf(&sb, "%s%s %+.1f ms", shown ? ", " : "",
				    r->metrics[f->metric].name + strlen(PROFILE_SELF), f->delta / 1e6);
			if (isfinite(f->share))
				strbuf_addf(&sb, " (%.0f%% of the change)", 100 * f->share);
			shown++;
		}
	}
	if (shown)
		strbuf_addf(out, "    -> the time changed in: %s\n", sb.buf);
	else
		strbuf_adds(out, "    -> no function's self time changed significantly (see the "
				 "profile section above)\n");
	strbuf_release(&sb);
}

void report_demo_reading(const struct result *r, double rows, struct strbuf *out)
{
	struct comparison_set s;
	const struct comparison *any = NULL;
	struct attribution_set at;

	comparisons_compute(r, &s);
	attribution_compute(r, &at);
	strbuf_addf(out, "\nReading (each variant against %s):\n", r->variants[r->baseline].name);
	for (size_t v = 0; v < r->nvariants; v++) {
		const struct comparison *t = find_cmp(r, &s, "wall-time", v);
		const struct comparison *al = find_cmp(r, &s, "allocs", v);
		const struct comparison *in = find_cmp(r, &s, "instructions", v);
		const struct comparison *ll = find_cmp(r, &s, "llc-misses", v);

		if ((int)v == r->baseline || !t)
			continue;
		any = t;
		strbuf_addf(out, "  %s: %s", r->variants[v].name, comparison_verdict_word(r, t));
		if (isfinite(t->ratio))
			strbuf_addf(out, ", wall time %+.1f%% [%+.1f%%, %+.1f%%] (n %zu)",
				    100 * (t->ratio - 1), 100 * (t->ci_lo - 1), 100 * (t->ci_hi - 1),
				    t->n);
		if (al && isfinite(rows) && rows > 0 && isfinite(al->mean_b))
			strbuf_addf(out, "; %.2f allocations per constraint vs %.2f",
				    al->mean_b / rows, al->mean_a / rows);
		if (in)
			say_change(out, r, in, "instructions");
		if (ll)
			say_change(out, r, ll, "llc-misses");
		strbuf_addch(out, '\n');
		say_where(r, &at, v, out);
	}
	if (!any)
		strbuf_adds(out, "  (no comparison of wall-time: see the notes above)\n");
	attribution_release(&at);
	comparisons_release(&s);
}
