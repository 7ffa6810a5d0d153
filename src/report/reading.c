/*
 * The reading (see reading.h): the answer a comparison prints first, in
 * the spirit of criterion's "change: [...] Performance has regressed" —
 * the verdict and its interval in one line per variant, the few facts
 * that explain it under it, and the tables after.
 */
#include "report/reading.h"

#include <math.h>
#include <string.h>

#include "analysis/analysed.h"
#include "core/printable.h"
#include "report/compare_table.h"
#include "report/names.h"

/* At most this many other metrics on the "also" line. */
#define ALSO_MAX 4
/* A reading line names a few functions or sites: short names, cut in the
 * middle (names.h), so that a C++ or Rust name does not fill the screen. */
#define READING_NAME_MAX 48
#define READING_SITE_MAX 72

static void pct_interval(struct strbuf *sb, const struct comparison *c)
{
	strbuf_addf(sb, "%+.1f%%", 100 * (c->ratio - 1));
	if (c->method == CMP_EXACT)
		return;
	if (isfinite(c->ci_lo) && isfinite(c->ci_hi))
		strbuf_addf(sb, " [%+.1f%%, %+.1f%%]", 100 * (c->ci_lo - 1), 100 * (c->ci_hi - 1));
	else
		strbuf_adds(sb, " [unbounded]");
}

/* " B vs A: SLOWER, wall-time +5.4% [+0.5%, +10.1%] (ratio 1.0540, n 12)" */
static void verdict_line(const struct result *r, const struct comparison *c, size_t v,
			 struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, m = STRBUF_INIT;
	char word[64];

	strbuf_addf(out, " %s vs %s: ", printable_in(&b, r->variants[v].name),
		    printable_in(&a, r->variants[r->baseline].name));
	if (!c || c->method == CMP_NONE || !isfinite(c->ratio)) {
		strbuf_addf(out, "no verdict on %s (%s)\n",
			    r->primary ? printable_in(&m, r->primary) : "a primary metric",
			    c && c->why ? c->why : "see the table");
	} else {
		compare_verdict_text(r, c, word, sizeof(word));
		strbuf_addf(out, "%s, %s ", word, printable_in(&m, r->metrics[c->metric].name));
		pct_interval(out, c);
		strbuf_addf(out, " (ratio %.4f, n %zu)", c->ratio, c->n);
		if (c->verdict == STATS_SLOWER_UNSIZED || c->verdict == STATS_FASTER_UNSIZED)
			strbuf_addf(out, ": the near end reaches into the ±%.1f%% noise band",
				    100 * r->noise_band);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&m);
}

/* The asked-for metrics besides the primary whose verdict is a direction:
 * "task-clock +4.1% [+1.0%, +7.3%] (slower), allocs -85.0% (lower: 0.71
 * allocations per constraint vs 4.67)"; a simulated count says so. */
static void also_line(const struct result *r, const struct comparison_set *s, size_t v,
		      const struct table_opts *o, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct comparison *c = &s->c[i];
		const char *mname = r->metrics[c->metric].name;

		if (c->variant != v || c->role != ROLE_FAMILY || c->method == CMP_NONE ||
		    !isfinite(c->ratio) || !stats_verdict_directional(c->verdict))
			continue;
		if (shown == ALSO_MAX) {
			more++;
			continue;
		}
		strbuf_addf(&sb, "%s%s%s ", shown++ ? ", " : "", printable_in(&name, mname),
			    r->metrics[c->metric].source == MSRC_SIM ? " (sim)" : "");
		pct_interval(&sb, c);
		strbuf_addf(&sb, " (%s", comparison_verdict_word(r, c));
		if (!strcmp(mname, "allocs") && o->work_unit && isfinite(o->work_per_run) &&
		    o->work_per_run > 0)
			strbuf_addf(&sb, ": %.2f allocations per %s vs %.2f", c->mean_b /
				    o->work_per_run, o->work_unit, c->mean_a / o->work_per_run);
		strbuf_addch(&sb, ')');
	}
	if (shown)
		strbuf_addf(out, "    also: %s\n", sb.buf);
	if (more)
		strbuf_addf(out, "    (and %zu more in the table)\n", more);
	strbuf_release(&sb);
	strbuf_release(&name);
}

/* "f +1.2 ms (30% of the change), g ..." for the significant functions of
 * fns, at most max; the number named. */
static int name_fns(struct strbuf *sb, const struct result *r, const struct attribution_fn *fns,
		    size_t n, int max)
{
	struct strbuf safe = STRBUF_INIT, brief = STRBUF_INIT;
	int shown = 0;

	for (size_t k = 0; k < n && shown < max; k++) {
		const char *name = strchr(r->metrics[fns[k].metric].name, ':') + 1;

		if (!fns[k].significant)
			continue;
		strbuf_reset(&brief);
		name_short(&brief, name, READING_NAME_MAX);
		strbuf_addf(sb, "%s%s %+.1f ms", shown ? ", " : "", printable_in(&safe, brief.buf),
			    fns[k].delta / 1e6);
		if (isfinite(fns[k].share))
			strbuf_addf(sb, " (%.0f%% of the change)", 100 * fns[k].share);
		shown++;
	}
	strbuf_release(&safe);
	strbuf_release(&brief);
	return shown;
}

/* Where the variant's time went, from its profile: the functions whose
 * self time changed significantly, largest first, and the callers whose
 * inclusive time did — measured, not guessed. */
static void say_where(const struct result *r, const struct attribution_set *at, size_t v,
		      struct strbuf *out)
{
	for (size_t i = 0; i < at->n; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (at->a[i].variant != v)
			continue;
		if (name_fns(&sb, r, at->a[i].fn, at->a[i].nfn, 3))
			strbuf_addf(out, "    time changed in: %s\n", sb.buf);
		else
			strbuf_adds(out, "    time: no function's self time changed "
					 "significantly\n");
		strbuf_reset(&sb);
		if (name_fns(&sb, r, at->a[i].incl, at->a[i].nincl, 3))
			strbuf_addf(out, "    under (inclusive time): %s\n", sb.buf);
		strbuf_release(&sb);
	}
}

/* The functions whose simulated instructions changed most (cachegrind's
 * model, exact per function), from the model's sim attribution. */
static void say_sim_where(const struct sim_attribution *sim, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT, safe = STRBUF_INIT, brief = STRBUF_INIT;
	int shown = 0;

	for (size_t k = 0; k < sim->n && k < ATTRIBUTION_MAX && shown < 3; k++) {
		double d = sim->f[k].b[0] - sim->f[k].a[0];

		if (d == 0)
			break;
		strbuf_reset(&brief);
		name_short(&brief, sim->f[k].key, READING_NAME_MAX);
		strbuf_addf(&sb, "%s%s %+.0f", shown++ ? ", " : "", printable_in(&safe, brief.buf),
			    d);
	}
	if (shown)
		strbuf_addf(out, "    simulated instructions per run changed in: %s\n", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&safe);
	strbuf_release(&brief);
}

/* The call sites whose allocations changed most (exact counts of the
 * traced runs): where the allocations came from, or went. */
static void say_sites(const struct allocsite_table *t, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT, safe = STRBUF_INIT, brief = STRBUF_INIT;
	int shown = 0;

	for (size_t i = 0; t->runs_a && t->runs_b && i < t->n && shown < 2; i++) {
		const struct allocsite_row *row = &t->row[i];
		double d = row->b[0] - row->a[0];

		if (d == 0)
			break;
		/* the site, innermost first ("heap_alloc<lc_new<bool_lc<..."),
		 * each frame short and the whole cut in the middle: a reading
		 * line is read, the -v table and the JSON keep the whole key */
		strbuf_reset(&brief);
		site_short(&brief, row->key, READING_SITE_MAX);
		strbuf_addf(&sb, "%s%s %+.0f calls (%+.0f temporary)", shown++ ? "; " : "",
			    printable_in(&safe, brief.buf), d, row->b[2] - row->a[2]);
	}
	if (shown)
		strbuf_addf(out, "    allocations per run changed at: %s\n", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&safe);
	strbuf_release(&brief);
}

void report_reading(const struct analysed *a, const struct table_opts *o, struct strbuf *out)
{
	const struct result *r = a->r;
	const struct comparison_set *s = &a->cmp;
	int m = r->primary ? result_metric_index(r, r->primary) : -1;

	if (r->nvariants < 2)
		return;
	for (size_t v = 0; v < r->nvariants; v++) {
		if ((int)v == r->baseline)
			continue;
		verdict_line(r, m >= 0 ? comparisons_find(s, (size_t)m, v) : NULL, v, out);
		also_line(r, s, v, o, out);
		say_where(r, &a->at, v, out);
		if (a->sim)
			say_sim_where(&a->sim[v], out);
		say_sites(&a->sites[v], out);
	}
}

void report_demo_reading(const struct analysed *a, double rows, struct strbuf *out)
{
	struct table_opts o = { .work_per_run = rows, .work_unit = "constraint" };

	strbuf_addf(out, "\nReading (each variant against %s):\n",
		    a->r->variants[a->r->baseline].name);
	report_reading(a, &o, out);
}
