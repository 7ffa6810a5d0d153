/*
 * Flame graphs on the page: the tree of each variant built from the
 * result's stack: metrics (or its self: metrics, one level, when call
 * chains were not recorded), averaged over the runs the attribution pairs,
 * then drawn as SVG with the root at the bottom, names in <text> where
 * they fit and every figure in the frame's <title>, and a legend saying
 * what width and colour mean and how many frames were folded.
 *
 * Against a baseline the tree is drawn twice, as Brendan Gregg's
 * differential flame graphs pair them: with the variant's widths (what it
 * runs now) and with the baseline's (what it ran), both coloured by the
 * change of each frame's own time. A function the variant no longer calls
 * has no width in the first and its old width, in blue, in the second:
 * what shrank to nothing is named in the picture, not only in a table.
 *
 * Everything is drawn here, on the server side: the page reads the same
 * with scripts off. The small inline script (html_flame_script.c) only adds
 * search and click-to-zoom, reading the geometry from the SVG it finds.
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
	const size_t *iv, *ib;	/* ib NULL: no baseline (the model's arrays) */
};

static void flame_runs(const struct analysed *a, size_t v, struct flame_runs *fr)
{
	memset(fr, 0, sizeof(*fr));
	if (a->r->nvariants >= 2) {
		fr->n = a->pairs[v].n;
		fr->iv = a->pairs[v].ib;
		fr->ib = a->pairs[v].ia;
		return;
	}
	fr->n = a->nprofiled;
	fr->iv = a->profiled;
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

/* The graph's width in SVG units (the page is 1400 px wide at most), a
 * frame's height, and the width of a character of its 11 px monospace
 * label, which the script uses too. */
#define FLAME_W 1300.0
#define FRAME_H 17.0
#define CHAR_W 6.6

/* Which side's time a graph's widths are. */
enum flame_side { SIDE_VARIANT, SIDE_BASELINE };

struct draw {
	const struct result *r;
	const struct flame_tree *t;
	size_t variant;
	int diff;		/* against the baseline */
	enum flame_side side;	/* whose widths */
	double maxabs;		/* largest own change shown */
	double height;
	struct strbuf *out;
};

static double side_total(const struct flame_node *n, enum flame_side side)
{
	return side == SIDE_BASELINE ? n->total_b : n->total_v;
}

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
	double root_v = d->t->node[0].total_v, root_b = d->t->node[0].total_b;

	html_text(d->out, n->name);
	strbuf_adds(d->out, "&#10;");
	html_text(d->out, r->variants[d->variant].name);
	strbuf_adds(d->out, ": ");
	ms_text(d->out, n->total_v, 0);
	strbuf_addf(d->out, " per run (%.1f%%), own ", root_v > 0 ? 100 * n->total_v / root_v : 0);
	ms_text(d->out, n->self_v, 0);
	if (d->diff) {
		strbuf_adds(d->out, "&#10;");
		html_text(d->out, r->variants[r->baseline].name);
		strbuf_adds(d->out, ": ");
		ms_text(d->out, n->total_b, 0);
		strbuf_addf(d->out, " per run (%.1f%%), own ",
			    root_b > 0 ? 100 * n->total_b / root_b : 0);
		ms_text(d->out, n->self_b, 0);
		strbuf_adds(d->out, "&#10;change ");
		ms_text(d->out, flame_total_delta(n), 1);
		strbuf_adds(d->out, ", own ");
		ms_text(d->out, flame_self_delta(n), 1);
	}
	if (n->folded)
		strbuf_addf(d->out, "&#10;(%zu narrower frame%s folded in)", n->folded,
			    n->folded == 1 ? "" : "s");
}

/* The frame's label: its short name, cut to the frame's width (the script
 * cuts data-label the same way when a zoom widens the frame). */
static void frame_label(const struct draw *d, const char *label, double x, double y, double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;

	strbuf_addf(d->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 5);
	if (fit >= 3)
		html_text_cut(d->out, label, fit);
	strbuf_adds(d->out, "</text>");
}

/* Frames gone from the variant (or new in it) are marked when they held
 * at least this share of the other side's time: one sample's worth of a
 * loader function that ran in one run and not the other is noise, not a
 * change worth an outline. */
#define FLAME_MARK_FRACTION 0.01

static int gone(const struct flame_tree *t, const struct flame_node *n)
{
	return n->total_v <= 0 && n->total_b >= FLAME_MARK_FRACTION * t->node[0].total_b &&
	       n->total_b > 0;
}

static int gone_rev(const struct flame_tree *t, const struct flame_node *n)
{
	return n->total_b <= 0 && n->total_v >= FLAME_MARK_FRACTION * t->node[0].total_v &&
	       n->total_v > 0;
}

static void draw_node(const struct draw *d, size_t i, double x, double w, int depth)
{
	const struct flame_node *n = &d->t->node[i];
	struct flame_rgb c = d->diff ? flame_delta_color(flame_self_delta(n), d->maxabs)
				     : flame_name_color(n->name);
	double y = d->height - (depth + 1) * FRAME_H, cx = x, total = side_total(n, d->side);
	struct strbuf short_name = STRBUF_INIT;

	if (w < 0.1)
		return;
	/* the label short, the name whole in data-name and the <title> */
	name_short(&short_name, n->name, 0);
	/* gone from the variant, or new in it: outlined, whatever its own
	 * time's colour (a caller's own time may not have changed at all) */
	strbuf_addf(d->out, "<g class=\"frame%s\" data-name=\"",
		    !d->diff ? "" : gone(d->t, n) ? " gone" : gone_rev(d->t, n) ? " new" : "");
	html_text(d->out, n->name);
	strbuf_adds(d->out, "\" data-label=\"");
	html_text(d->out, short_name.buf ? short_name.buf : "");
	strbuf_addf(d->out, "\" data-ns=\"%.0f\" data-total-ns=\"%.0f\" data-self-delta-ns=\"%.0f\" "
		    "data-delta-ns=\"%.0f\"><title>", total, n->total_v, flame_self_delta(n),
		    flame_total_delta(n));
	frame_title(d, n);
	strbuf_addf(d->out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
		    "fill=\"#%02x%02x%02x\"/>", x, y, w, FRAME_H - 1, c.r, c.g, c.b);
	frame_label(d, short_name.buf ? short_name.buf : "", x, y, w);
	strbuf_release(&short_name);
	strbuf_adds(d->out, "</g>\n");
	for (size_t k = 0; k < n->nchild; k++) {
		const struct flame_node *ch = &d->t->node[n->child[k]];
		double cw = total > 0 ? w * side_total(ch, d->side) / total : 0;

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

/* The colour scale of a differential graph: swatches from the largest
 * decrease (blue) through no change (grey) to the largest increase (red),
 * labelled at both ends and the middle. */
#define LEGEND_STEPS 11

static void colour_scale(const struct draw *d)
{
	struct strbuf *out = d->out;
	double sw = 40, x0 = 70;

	strbuf_addf(out, "<svg class=\"flame-scale\" viewBox=\"0 0 %.0f 34\" width=\"%.0f\" "
		    "height=\"34\" role=\"img\"><title>colour: change of a frame's own time"
		    "</title>\n", 2 * x0 + LEGEND_STEPS * sw, 2 * x0 + LEGEND_STEPS * sw);
	for (int k = 0; k < LEGEND_STEPS; k++) {
		double v = d->maxabs * (2.0 * k / (LEGEND_STEPS - 1) - 1);
		struct flame_rgb c = flame_delta_color(v, d->maxabs);

		strbuf_addf(out, "<rect x=\"%.0f\" y=\"2\" width=\"%.0f\" height=\"14\" "
			    "fill=\"#%02x%02x%02x\"/>", x0 + k * sw, sw, c.r, c.g, c.b);
	}
	strbuf_addf(out, "\n<text x=\"%.0f\" y=\"30\" text-anchor=\"middle\">−", x0 + sw / 2);
	ms_text(out, d->maxabs, 0);
	strbuf_addf(out, " (shrank)</text><text x=\"%.0f\" y=\"30\" text-anchor=\"middle\">no change"
		    "</text><text x=\"%.0f\" y=\"30\" text-anchor=\"middle\">+", x0 + LEGEND_STEPS * sw / 2,
		    x0 + (LEGEND_STEPS - 0.5) * sw);
	ms_text(out, d->maxabs, 0);
	strbuf_adds(out, " (grew)</text></svg>\n");
}

static void legend(const struct draw *d, size_t blocks, int stacks)
{
	const struct result *r = d->r;
	struct strbuf *out = d->out;

	strbuf_adds(out, "<p class=\"legend\">Width: ");
	if (d->diff) {
		strbuf_adds(out, "CPU time per run, the first graph ");
		html_text(out, r->variants[d->variant].name);
		strbuf_adds(out, "'s, the second ");
		html_text(out, r->variants[r->baseline].name);
		strbuf_addf(out, "'s (mean over %zu paired blocks: ", blocks);
		ms_text(out, d->t->node[0].total_v, 0);
		strbuf_adds(out, " and ");
		ms_text(out, d->t->node[0].total_b, 0);
		strbuf_adds(out, " sampled). Colour, the same in both: change of the frame's own "
				 "time against ");
		html_text(out, r->variants[r->baseline].name);
		strbuf_adds(out, " — <span class=\"grew\">red grew</span>, "
				 "<span class=\"shrank\">blue shrank</span>, saturated at ±");
		ms_text(out, d->maxabs, 0);
		strbuf_adds(out, " (the largest change). A frame gone from the variant is only in "
				 "the second graph, <span class=\"gone\">outlined in blue dashes</span>; "
				 "one new in it only in the first, <span class=\"new\">in red dashes"
				 "</span>. Whether a change is significant is in the tables above");
	} else {
		html_text(out, r->variants[d->variant].name);
		strbuf_addf(out, "'s CPU time per run (mean over %zu profiled runs, ", blocks);
		ms_text(out, d->t->node[0].total_v, 0);
		strbuf_adds(out, " sampled in all)");
	}
	strbuf_adds(out, ". Hover a frame for its figures.</p>\n");
	if (d->diff)
		colour_scale(d);
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

/* The functions the variant no longer runs at all (at least
 * FLAME_MARK_FRACTION of the baseline's time): named in the baseline's
 * graph, and here in words too, outermost only. */
static void gone_list(const struct draw *d)
{
	const struct flame_tree *t = d->t;
	struct strbuf name = STRBUF_INIT;
	size_t shown = 0;

	for (size_t i = 1; i < t->n; i++) {
		const struct flame_node *n = &t->node[i];

		if (n->dead || !gone(t, n) || gone(t, &t->node[n->parent]))
			continue;	/* not gone, or its caller is gone too: named already */
		strbuf_adds(d->out, shown++ ? ", " : "<p class=\"note flame-gone\">Gone from ");
		if (shown == 1) {
			html_text(d->out, d->r->variants[d->variant].name);
			strbuf_adds(d->out, " (in the second graph only): ");
		}
		strbuf_reset(&name);
		name_short(&name, n->name, 0);
		strbuf_adds(d->out, "<b title=\"");
		html_text(d->out, n->name);
		strbuf_adds(d->out, "\">");
		html_text(d->out, name.buf ? name.buf : "");
		strbuf_adds(d->out, "</b> (");
		ms_text(d->out, n->total_b, 0);
		strbuf_adds(d->out, ")");
	}
	if (shown)
		strbuf_adds(d->out, ".</p>\n");
	strbuf_release(&name);
}

static void svg_graph(struct draw *d, const char *id, const char *caption)
{
	d->height = (depth_of(d->t, 0) + 1) * FRAME_H;
	if (caption) {
		strbuf_adds(d->out, "<p class=\"flame-caption\">");
		strbuf_adds(d->out, caption);
		strbuf_adds(d->out, "</p>\n");
	}
	strbuf_addf(d->out, "<svg class=\"flame%s\" id=\"%s\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
		    "height=\"%.0f\" role=\"img\" data-char-w=\"%.1f\">\n", d->diff ? " diff" : "", id,
		    FLAME_W, d->height, FLAME_W, d->height, CHAR_W);
	if (side_total(&d->t->node[0], d->side) > 0)
		draw_node(d, 0, 0, FLAME_W, 0);
	strbuf_addf(d->out, "</svg>\n<p class=\"flame-status\" id=\"%s-status\"></p>\n", id);
}

static void draw_graph(const struct analysed *a, size_t v, struct strbuf *out)
{
	const struct result *r = a->r;
	struct flame_runs fr;
	struct flame_tree t;
	struct draw d = { r, &t, v, r->nvariants >= 2, SIDE_VARIANT, 0, 0, out };
	struct strbuf id = STRBUF_INIT, cap = STRBUF_INIT;
	int stacks;

	flame_runs(a, v, &fr);
	if (!fr.n)
		return;
	build(r, &fr, &t, &stacks);
	flame_fold_narrow(&t, FLAME_MIN_FRACTION);
	for (size_t i = 0; i < t.n; i++)
		if (!t.node[i].dead)
			d.maxabs = fmax(d.maxabs, fabs(flame_self_delta(&t.node[i])));
	strbuf_adds(out, "<h3>");
	html_text(out, r->variants[v].name);
	if (d.diff) {
		strbuf_adds(out, " vs ");
		html_text(out, r->variants[r->baseline].name);
	}
	strbuf_adds(out, "</h3>\n");
	strbuf_addf(&id, "flame-%zu", v);
	if (d.diff) {
		strbuf_adds(&cap, "Widths: <b>");
		html_text(&cap, r->variants[v].name);
		strbuf_adds(&cap, "</b>'s time (what it runs now)");
	}
	svg_graph(&d, id.buf, d.diff ? cap.buf : NULL);
	if (d.diff) {
		d.side = SIDE_BASELINE;
		strbuf_addf(&id, "-base");
		strbuf_reset(&cap);
		strbuf_adds(&cap, "Widths: <b>");
		html_text(&cap, r->variants[r->baseline].name);
		strbuf_adds(&cap, "</b>'s time (what ran before; what shrank or is gone keeps its "
				  "width here)");
		svg_graph(&d, id.buf, cap.buf);
		gone_list(&d);
	}
	legend(&d, fr.n, stacks);
	strbuf_release(&id);
	strbuf_release(&cap);
	flame_release(&t);
}

/* The search box and zoom reset, hidden until the script shows them (with
 * scripts off there is no control that does nothing). */
static const char tools[] =
	"<div class=\"flame-tools\" hidden><label>Search functions: <input type=\"search\" "
	"id=\"flame-search\" placeholder=\"name or part of it\" size=\"32\"></label> "
	"<button type=\"button\" id=\"flame-reset\">Reset zoom</button> "
	"<span class=\"flame-help\">click a frame to zoom to it; the address can say "
	"#search=NAME&amp;zoom=NAME</span></div>\n";

void html_flames(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	struct strbuf graphs = STRBUF_INIT;
	int any = 0;

	for (size_t m = 0; m < r->nmetrics; m++)
		any |= is_stack(&r->metrics[m]) || is_self(&r->metrics[m]);
	for (size_t v = 0; any && v < r->nvariants; v++)
		if (r->nvariants < 2 || (int)v != r->baseline)
			draw_graph(c->a, v, &graphs);
	if (graphs.len)
		strbuf_addf(out, "%s%s<script>%s</script>\n", tools, graphs.buf,
			    html_flame_script);
	strbuf_release(&graphs);
}
