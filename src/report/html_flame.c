/*
 * Flame graphs (see html_flame.h). The colour is the change of a frame's
 * own time, not of its total: a total grows with everything it calls, so
 * colouring totals would paint every caller of one slower leaf red down to
 * the root, while own time points at the frame where the time changed —
 * the same quantity as "where the difference is" above the graph. The total
 * change is in each frame's tooltip. Widths are the variant's time, so a
 * frame the variant no longer runs has no width: folding it into its
 * caller (as every frame below FLAME_MIN_FRACTION is) puts its change there.
 */
#include "report/html_flame.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_common.h"

/* ---- the tree ------------------------------------------------------------ */

static size_t new_node(struct flame_tree *t, size_t parent, const char *name, size_t len)
{
	struct flame_node *n;

	ALLOC_GROW(t->node, t->n + 1, t->alloc);
	n = &t->node[t->n];
	memset(n, 0, sizeof(*n));
	n->name = len ? xstrndup(name, len) : xstrdup("[unknown]");
	n->parent = parent;
	if (parent != SIZE_MAX) {
		struct flame_node *p = &t->node[parent];

		ALLOC_GROW(p->child, p->nchild + 1, p->child_alloc);
		p->child[p->nchild++] = t->n;
	}
	return t->n++;
}

void flame_init(struct flame_tree *t)
{
	memset(t, 0, sizeof(*t));
	new_node(t, SIZE_MAX, "all", 3);
}

void flame_release(struct flame_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->node[i].name);
		free(t->node[i].child);
	}
	free(t->node);
	memset(t, 0, sizeof(*t));
}

static size_t child_named(struct flame_tree *t, size_t parent, const char *name, size_t len)
{
	const char *want = len ? name : "[unknown]";
	size_t wlen = len ? len : strlen("[unknown]");
	const struct flame_node *p = &t->node[parent];

	for (size_t i = 0; i < p->nchild; i++) {
		const char *have = t->node[p->child[i]].name;

		if (!strncmp(have, want, wlen) && !have[wlen])
			return p->child[i];
	}
	return new_node(t, parent, name, len);
}

void flame_add(struct flame_tree *t, const char *stack, double v, double b)
{
	size_t at = 0;

	for (const char *f = stack;;) {
		const char *end = strchr(f, ';');
		size_t len = end ? (size_t)(end - f) : strlen(f);

		at = child_named(t, at, f, len);
		if (!end)
			break;
		f = end + 1;
	}
	t->node[at].self_v += v;
	t->node[at].self_b += b;
	t->stacks++;
}

struct named {
	const char *name;
	size_t index;
};

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct named *)x)->name, ((const struct named *)y)->name);
}

static void sort_children(struct flame_tree *t, struct flame_node *n)
{
	struct named *s = xmalloc((n->nchild + 1) * sizeof(*s));

	for (size_t i = 0; i < n->nchild; i++)
		s[i] = (struct named){ t->node[n->child[i]].name, n->child[i] };
	qsort(s, n->nchild, sizeof(*s), by_name);
	for (size_t i = 0; i < n->nchild; i++)
		n->child[i] = s[i].index;
	free(s);
}

void flame_finish(struct flame_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		t->node[i].total_v = t->node[i].self_v;
		t->node[i].total_b = t->node[i].self_b;
	}
	/* A child always comes after its parent: one backward pass sums. */
	for (size_t i = t->n; i-- > 1;) {
		t->node[t->node[i].parent].total_v += t->node[i].total_v;
		t->node[t->node[i].parent].total_b += t->node[i].total_b;
	}
	for (size_t i = 0; i < t->n; i++)
		sort_children(t, &t->node[i]);
}

/* Mark i and everything under it dead; returns how many frames that is. */
static size_t kill_subtree(struct flame_tree *t, size_t i)
{
	size_t *todo = xmalloc((t->n + 1) * sizeof(size_t)), n = 0, count = 0;

	todo[n++] = i;
	while (n) {
		struct flame_node *x = &t->node[todo[--n]];

		x->dead = 1;
		count++;
		for (size_t k = 0; k < x->nchild; k++)
			todo[n++] = x->child[k];
	}
	free(todo);
	return count;
}

static void drop_dead_children(struct flame_node *p, const struct flame_tree *t)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nchild; i++)
		if (!t->node[p->child[i]].dead)
			p->child[k++] = p->child[i];
	p->nchild = k;
}

size_t flame_fold_narrow(struct flame_tree *t, double fraction)
{
	double min = fraction * t->node[0].total_v;
	size_t folded = 0;

	/* Parents come first, so a folded frame's subtree is dead before the
	 * loop reaches it. */
	for (size_t i = 1; i < t->n; i++) {
		struct flame_node *n = &t->node[i], *p;
		size_t count;

		if (n->dead || (n->total_v > 0 && n->total_v >= min))
			continue;
		p = &t->node[n->parent];
		p->self_v += n->total_v;
		p->self_b += n->total_b;
		count = kill_subtree(t, i);
		p->folded += count;
		folded += count;
	}
	for (size_t i = 0; folded && i < t->n; i++)
		if (!t->node[i].dead)
			drop_dead_children(&t->node[i], t);
	t->folded += folded;
	return folded;
}

double flame_self_delta(const struct flame_node *n)
{
	return n->self_v - n->self_b;
}

double flame_total_delta(const struct flame_node *n)
{
	return n->total_v - n->total_b;
}

struct flame_rgb flame_delta_color(double d, double maxabs)
{
	double s = maxabs > 0 && isfinite(d) ? fmin(1, fabs(d) / maxabs) : 0;
	unsigned char fade = (unsigned char)lround(230 - 190 * s);

	if (s == 0)
		return (struct flame_rgb){ 221, 221, 221 };
	if (d > 0)
		return (struct flame_rgb){ 255, fade, fade };
	return (struct flame_rgb){ fade, fade, 255 };
}

struct flame_rgb flame_name_color(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	/* Flame colours: red high, green mid, blue low. */
	return (struct flame_rgb){ (unsigned char)(205 + h % 51), (unsigned char)(90 + (h >> 8) % 131),
				   (unsigned char)((h >> 16) % 56) };
}

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
		strbuf_addf(d->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 5);
		html_text_cut(d->out, n->name, (size_t)((w - 6) / CHAR_W));
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
