/*
 * Flame graphs on the page: the tree of each variant built from the
 * result's stack: metrics (or its self: metrics, one level, when call
 * chains were not recorded), averaged over the runs the attribution pairs,
 * then drawn as SVG with the root at the bottom, names in <text> where
 * they fit and every figure in the frame's <title>, and a legend saying
 * what width and colour mean and how many frames were folded.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_common.h"
#include "report/names.h"
#include "report/html_flame.h"

/* ---- from the result ----------------------------------------------------- */

static int is_stack(const struct result_metric *m)
{
	return m->source == MSRC_PROFILE && !strncmp(m->name, PROFILE_STACK, strlen(PROFILE_STACK));
}

static int is_self(const struct result_metric *m)
{
	return m->source == MSRC_PROFILE && !strncmp(m->name, PROFILE_SELF, strlen(PROFILE_SELF));
}

static double mean_of(const struct result *r, const size_t *idx, size_t n, size_t m)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		if (r->runs[idx[i]].values[m].valid)
			s += r->runs[idx[i]].values[m].value;
	return n ? s / (double)n : 0;
}

/* Which runs a graph averages: the paired blocks against the baseline (as
 * the attribution pairs them), or every profiled run of a lone variant. */
struct flame_runs {
	size_t n;
	size_t *iv, *ib;	/* ib NULL: no baseline */
	struct attribution_pairs pairs;
};

static void flame_runs(const struct result *r, size_t v, struct flame_runs *fr)
{
	memset(fr, 0, sizeof(*fr));
	if (r->nvariants >= 2) {
		attribution_pairs(r, v, &fr->pairs);
		fr->n = fr->pairs.n;
		fr->iv = fr->pairs.ib;
		fr->ib = fr->pairs.ia;
		return;
	}
	fr->iv = xcalloc(r->nruns + 1, sizeof(size_t));
	for (size_t i = 0; i < r->nruns; i++)
		if (attribution_run_profiled(r, &r->runs[i]))
			fr->iv[fr->n++] = i;
}

static void flame_runs_release(struct flame_runs *fr)
{
	if (fr->ib)
		attribution_pairs_release(&fr->pairs);
	else
		free(fr->iv);
}

/* The tree of variant v; *stacks = 0 when it came from self times. */
static void build(const struct result *r, const struct flame_runs *fr, struct flame_tree *t,
		  int *stacks)
{
	*stacks = 0;
	for (size_t m = 0; m < r->nmetrics; m++)
		*stacks |= is_stack(&r->metrics[m]);
	flame_init(t);
	for (size_t m = 0; m < r->nmetrics; m++) {
		const struct result_metric *met = &r->metrics[m];
		size_t skip;

		if (*stacks ? !is_stack(met) : !is_self(met))
			continue;
		skip = strlen(*stacks ? PROFILE_STACK : PROFILE_SELF);
		flame_add(t, met->name + skip, mean_of(r, fr->iv, fr->n, m),
			  fr->ib ? mean_of(r, fr->ib, fr->n, m) : 0);
	}
	flame_finish(t);
}

/* ---- drawing ------------------------------------------------------------- */

#define FLAME_W 1000.0
#define FRAME_H 17.0
#define CHAR_W 6.6

struct draw {
	const struct result *r;
	const struct flame_tree *t;
	size_t variant;
	int diff;		/* against the baseline */
	double maxabs;		/* largest own change shown */
	double height;
	struct strbuf *out;
};

static void ms_text(struct strbuf *out, double ns, int sign)
{
	struct unit_scale us = unit_pick("ns", ns);

	if (sign && ns >= 0)
		strbuf_addch(out, '+');
	html_value(out, &us, ns);
}

static void frame_title(const struct draw *d, const struct flame_node *n)
{
	const struct result *r = d->r;
	double root = d->t->node[0].total_v;

	html_text(d->out, n->name);
	strbuf_adds(d->out, "&#10;");
	html_text(d->out, r->variants[d->variant].name);
	strbuf_adds(d->out, ": ");
	ms_text(d->out, n->total_v, 0);
	strbuf_addf(d->out, " per run (%.1f%%), own ", root > 0 ? 100 * n->total_v / root : 0);
	ms_text(d->out, n->self_v, 0);
	if (d->diff) {
		strbuf_adds(d->out, "&#10;");
		html_text(d->out, r->variants[r->baseline].name);
		strbuf_adds(d->out, ": ");
		ms_text(d->out, n->total_b, 0);
		strbuf_adds(d->out, "; change ");
		ms_text(d->out, flame_total_delta(n), 1);
		strbuf_adds(d->out, ", own ");
		ms_text(d->out, flame_self_delta(n), 1);
	}
	if (n->folded)
		strbuf_addf(d->out, "&#10;(%zu narrower frame%s folded in)", n->folded,
			    n->folded == 1 ? "" : "s");
}

static void draw_node(const struct draw *d, size_t i, double x, double w, int depth)
{
	const struct flame_node *n = &d->t->node[i];
	struct flame_rgb c = d->diff ? flame_delta_color(flame_self_delta(n), d->maxabs)
				     : flame_name_color(n->name);
	double y = d->height - (depth + 1) * FRAME_H, cx = x;

	if (w < 0.1)
		return;
	strbuf_addf(d->out, "<g class=\"frame\" data-total-ns=\"%.0f\" data-self-delta-ns=\"%.0f\" "
		    "data-delta-ns=\"%.0f\"><title>", n->total_v, flame_self_delta(n),
		    flame_total_delta(n));
	frame_title(d, n);
	strbuf_addf(d->out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
		    "fill=\"#%02x%02x%02x\"/>", x, y, w, FRAME_H - 1, c.r, c.g, c.b);
	if (w > 3 * CHAR_W) {
		struct strbuf short_name = STRBUF_INIT;

		strbuf_addf(d->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 5);
		/* the frame's label short, its <title> (hover) whole */
		name_short(&short_name, n->name, 0);
		html_text_cut(d->out, short_name.buf ? short_name.buf : "", (size_t)((w - 6) / CHAR_W));
		strbuf_release(&short_name);
		strbuf_adds(d->out, "</text>");
	}
	strbuf_adds(d->out, "</g>\n");
	for (size_t k = 0; k < n->nchild; k++) {
		const struct flame_node *ch = &d->t->node[n->child[k]];
		double cw = n->total_v > 0 ? w * ch->total_v / n->total_v : 0;

		draw_node(d, n->child[k], cx, cw, depth + 1);
		cx += cw;
	}
}

static int depth_of(const struct flame_tree *t, size_t i)
{
	int best = 0;

	for (size_t k = 0; k < t->node[i].nchild; k++) {
		int dk = 1 + depth_of(t, t->node[i].child[k]);

		best = dk > best ? dk : best;
	}
	return best;
}

static void legend(const struct draw *d, size_t blocks, int stacks)
{
	const struct result *r = d->r;
	struct strbuf *out = d->out;

	strbuf_adds(out, "<p class=\"legend\">Width: ");
	html_text(out, r->variants[d->variant].name);
	strbuf_addf(out, "'s CPU time per run (mean over %zu %s, ", blocks,
		    d->diff ? "paired blocks" : "profiled runs");
	ms_text(out, d->t->node[0].total_v, 0);
	strbuf_adds(out, " sampled in all)");
	if (d->diff) {
		strbuf_adds(out, "; colour: change of the frame's own time against ");
		html_text(out, r->variants[r->baseline].name);
		strbuf_adds(out, " — <span class=\"grew\">red grew</span>, "
				 "<span class=\"shrank\">blue shrank</span>, saturated at ±");
		ms_text(out, d->maxabs, 0);
		strbuf_adds(out, " (the largest change); whether a change is significant is "
				 "in the table above");
	}
	strbuf_adds(out, ". Hover a frame for its figures.</p>\n");
	if (!stacks)
		strbuf_adds(out, "<p class=\"note flame-flat\">Call chains were not recorded in "
				 "this result, so the graph has one level: each function's own "
				 "(self) time.</p>\n");
	if (d->t->folded)
		strbuf_addf(out, "<p class=\"note flame-folded\">%zu frame%s narrower than %.1f%% "
			    "of the time %s folded into %s callers (their time and change are in "
			    "the caller's own share).</p>\n", d->t->folded,
			    d->t->folded == 1 ? "" : "s", 100 * FLAME_MIN_FRACTION,
			    d->t->folded == 1 ? "is" : "are", d->t->folded == 1 ? "its" : "their");
}

static void draw_graph(const struct result *r, size_t v, struct strbuf *out)
{
	struct flame_runs fr;
	struct flame_tree t;
	struct draw d = { r, &t, v, r->nvariants >= 2, 0, 0, out };
	int stacks;

	flame_runs(r, v, &fr);
	if (!fr.n) {
		flame_runs_release(&fr);
		return;
	}
	build(r, &fr, &t, &stacks);
	flame_fold_narrow(&t, FLAME_MIN_FRACTION);
	for (size_t i = 0; i < t.n; i++)
		if (!t.node[i].dead)
			d.maxabs = fmax(d.maxabs, fabs(flame_self_delta(&t.node[i])));
	d.height = (depth_of(&t, 0) + 1) * FRAME_H;
	strbuf_adds(out, "<h3>");
	html_text(out, r->variants[v].name);
	if (d.diff) {
		strbuf_adds(out, " vs ");
		html_text(out, r->variants[r->baseline].name);
	}
	strbuf_addf(out, "</h3>\n<svg class=\"flame%s\" id=\"flame-%zu\" viewBox=\"0 0 %.0f %.0f\" "
		    "width=\"%.0f\" height=\"%.0f\" role=\"img\">\n", d.diff ? " diff" : "", v,
		    FLAME_W, d.height, FLAME_W, d.height);
	if (t.node[0].total_v > 0)
		draw_node(&d, 0, 0, FLAME_W, 0);
	strbuf_adds(out, "</svg>\n");
	legend(&d, fr.n, stacks);
	flame_release(&t);
	flame_runs_release(&fr);
}

void html_flames(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	int any = 0;

	for (size_t m = 0; m < r->nmetrics; m++)
		any |= is_stack(&r->metrics[m]) || is_self(&r->metrics[m]);
	if (!any)
		return;
	for (size_t v = 0; v < r->nvariants; v++)
		if (r->nvariants < 2 || (int)v != r->baseline)
			draw_graph(r, v, out);
}
