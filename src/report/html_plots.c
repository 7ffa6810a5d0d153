/*
 * The page's plots, as inline SVG: per metric the distribution of each
 * variant's runs (a strip plot over its box: quartiles, median, and the
 * mean with its 95% interval) and every run's value in execution order
 * (drift, warm-up and outliers show at a glance; warm-up runs hollow), and
 * across metrics a forest plot of each variant's ratio to the baseline with
 * its interval on a log scale, the noise band shaded. Every axis has ticks
 * in the unit a person reads and a title naming the metric and that unit.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare_table.h"
#include "report/html_common.h"

#define PLOT_W 760.0
#define MARGIN_L 150.0
#define MARGIN_R 20.0
#define ROW_H 38.0
#define AXIS_H 48.0

static int run_value(const struct result *r, size_t i, size_t m, double *v)
{
	const struct result_run *run = &r->runs[i];
	const struct result_value *x = &run->values[m];

	if (!x->valid || (run->status != RUN_OK && run->status != RUN_FAILED))
		return 0;
	*v = x->value * r->metrics[m].scale;
	return isfinite(*v);
}

static void axis_title(struct strbuf *t, const struct html_axis *a, const struct result_metric *m)
{
	strbuf_addf(t, "%s (%s)", m->name, html_axis_unit(a, m->unit));
}

/* A jitter in [-0.5, 0.5) that depends on the run only: the page is the
 * same every time it is written. */
static double jitter(size_t i)
{
	uint64_t z = (uint64_t)i * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
	return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}

static void variant_label(struct strbuf *out, const struct result *r, size_t v, double y)
{
	strbuf_addf(out, "<text class=\"vname\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
		    "fill=\"%s\"><title>", MARGIN_L - 10, y + 4, html_variant_color(v));
	html_text(out, r->variants[v].name);
	strbuf_adds(out, "</title>");
	html_text_cut(out, r->variants[v].name, 20);
	strbuf_adds(out, "</text>\n");
}

static void summary_title(struct strbuf *out, const struct result *r, size_t v,
			  const struct metric_summary *ms, const struct unit_scale *us)
{
	strbuf_adds(out, "<title>");
	html_text(out, r->variants[v].name);
	strbuf_addf(out, ": n %zu, mean ", ms->s.n);
	html_value(out, us, ms->s.mean);
	if (isfinite(ms->s.mean_ci_lo)) {
		strbuf_adds(out, " [");
		html_value(out, us, ms->s.mean_ci_lo);
		strbuf_adds(out, ", ");
		html_value(out, us, ms->s.mean_ci_hi);
		strbuf_adds(out, "]");
	}
	strbuf_adds(out, ", median ");
	html_value(out, us, ms->s.median);
	strbuf_adds(out, "</title>");
}

/* Quartile box, median, then the mean and its interval below the points. */
static void box(struct strbuf *out, const struct html_axis *a, const struct metric_summary *ms,
		double y, const char *col)
{
	double x0 = MARGIN_L, x1 = PLOT_W - MARGIN_R;
	double q1 = html_axis_pos(a, ms->s.q1, x0, x1), q3 = html_axis_pos(a, ms->s.q3, x0, x1);
	double md = html_axis_pos(a, ms->s.median, x0, x1), mn = html_axis_pos(a, ms->s.mean, x0, x1);

	strbuf_addf(out, "<rect class=\"box\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "stroke=\"%s\"/>\n<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\"/>\n", q1, y - 10, fmax(q3 - q1, 0.5), 20.0, col, md,
		    y - 10, md, y + 10, col);
	/* An interval reaching past the data (below 0 for a time) stops at
	 * the edge of the plot. */
	if (isfinite(ms->s.mean_ci_lo))
		strbuf_addf(out, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			    fmax(x0, html_axis_pos(a, ms->s.mean_ci_lo, x0, x1)), y + 14,
			    fmin(x1, html_axis_pos(a, ms->s.mean_ci_hi, x0, x1)), y + 14);
	strbuf_addf(out, "<path class=\"mean\" d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\"/>\n", mn, y + 10);
}

static void distribution(const struct html_ctx *c, size_t m, struct strbuf *out)
{
	const struct result *r = c->r;
	const struct result_metric *met = &r->metrics[m];
	double lo = INFINITY, hi = -INFINITY, height = r->nvariants * ROW_H + AXIS_H + 8;
	double **vals = xcalloc(r->nvariants, sizeof(double *));
	size_t *n = xcalloc(r->nvariants, sizeof(size_t));
	struct strbuf title = STRBUF_INIT;
	struct html_axis a;

	for (size_t v = 0; v < r->nvariants; v++) {
		n[v] = result_collect(r, v, m, &vals[v]);
		for (size_t i = 0; i < n[v]; i++)
			lo = fmin(lo, vals[v][i]), hi = fmax(hi, vals[v][i]);
	}
	html_axis_init(&a, met->unit, lo, hi, 0);
	axis_title(&title, &a, met);
	strbuf_addf(out, "<svg class=\"plot dist\" id=\"dist-%zu\" viewBox=\"0 0 %.0f %.0f\" "
		    "width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>distribution of ", m,
		    PLOT_W, height, PLOT_W, height);
	html_text(out, met->name);
	strbuf_adds(out, " per variant</title>\n");
	html_axis_svg(out, &a, 0, height - AXIS_H, MARGIN_L, PLOT_W - MARGIN_R,
		      height - AXIS_H - 4, title.buf);
	for (size_t v = 0; v < r->nvariants; v++) {
		const struct metric_summary *ms = analysis_find(&c->an, v, m);
		const char *col = html_variant_color(v);
		double y = 4 + (v + 0.5) * ROW_H;

		variant_label(out, r, v, y);
		strbuf_addf(out, "<g class=\"variant\" data-variant=\"%zu\">", v);
		if (ms && ms->s.n) {
			summary_title(out, r, v, ms, &a.us);
			box(out, &a, ms, y, col);
		}
		for (size_t i = 0; i < n[v]; i++)
			strbuf_addf(out, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				    "fill=\"%s\"/>\n",
				    html_axis_pos(&a, vals[v][i], MARGIN_L, PLOT_W - MARGIN_R),
				    y + jitter(i * 31 + v) * 14, col);
		strbuf_adds(out, "</g>\n");
		free(vals[v]);
	}
	strbuf_adds(out, "</svg>\n");
	strbuf_release(&title);
	free(vals);
	free(n);
}

static void run_order(const struct result *r, size_t m, struct strbuf *out)
{
	const double h = 240, left = 90, top = 10, bottom = h - AXIS_H;
	double lo = INFINITY, hi = -INFINITY, v;
	struct strbuf title = STRBUF_INIT;
	struct html_axis ax, ay;

	for (size_t i = 0; i < r->nruns; i++)
		if (run_value(r, i, m, &v))
			lo = fmin(lo, v), hi = fmax(hi, v);
	if (!isfinite(lo))
		return;
	html_axis_index(&ax, r->nruns);
	html_axis_init(&ay, r->metrics[m].unit, lo, hi, 0);
	strbuf_addf(out, "<svg class=\"plot runorder\" id=\"runs-%zu\" viewBox=\"0 0 %.0f %.0f\" "
		    "width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>", m, PLOT_W, h, PLOT_W, h);
	html_text(out, r->metrics[m].name);
	strbuf_adds(out, " of every run in execution order</title>\n");
	html_axis_svg(out, &ax, 0, bottom, left, PLOT_W - MARGIN_R, bottom - top,
		      "run, in execution order (hollow: warm-up)");
	axis_title(&title, &ay, &r->metrics[m]);
	html_axis_svg(out, &ay, 1, left, bottom, top, PLOT_W - MARGIN_R - left, title.buf);
	for (size_t i = 0; i < r->nruns; i++) {
		const struct result_run *run = &r->runs[i];
		const char *col = html_variant_color((size_t)run->variant);

		if (!run_value(r, i, m, &v))
			continue;
		strbuf_addf(out, "<circle class=\"run%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" %s=\"%s\"%s>"
			    "<title>run %zu, ", run->warmup ? " warmup" : "",
			    html_axis_pos(&ax, (double)(i + 1), left, PLOT_W - MARGIN_R),
			    html_axis_pos(&ay, v, bottom, top), run->warmup ? "stroke" : "fill", col,
			    run->warmup ? " fill=\"none\"" : "", i + 1);
		html_text(out, r->variants[run->variant].name);
		strbuf_addf(out, ", block %d%s: ", run->block, run->warmup ? " (warm-up)" : "");
		html_value(out, &ay.us, v);
		strbuf_adds(out, "</title></circle>\n");
	}
	strbuf_adds(out, "</svg>\n");
	strbuf_release(&title);
}

static void legend(const struct result *r, struct strbuf *out)
{
	strbuf_adds(out, "<p class=\"legend\">");
	for (size_t v = 0; v < r->nvariants; v++) {
		strbuf_addf(out, "<span class=\"swatch\" style=\"color:%s\">&#9679; ",
			    html_variant_color(v));
		html_text(out, r->variants[v].name);
		strbuf_adds(out, "</span> ");
	}
	strbuf_adds(out, "— distribution: each run a dot, the box its quartiles and median, "
			 "the diamond the mean with its 95% interval below.</p>\n");
}

void html_metric_plots(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	int header = 0;

	for (size_t m = 0; m < r->nmetrics; m++) {
		double v;
		size_t i;

		if (!html_metric_shown(r, m))
			continue;
		for (i = 0; i < r->nruns && !run_value(r, i, m, &v); i++)
			;
		if (i == r->nruns)
			continue;
		if (!header++)
			legend(r, out);
		strbuf_addf(out, "<div class=\"metric\" id=\"metric-%zu\"><h3>", m);
		html_text(out, r->metrics[m].name);
		if (r->metrics[m].source == MSRC_SIM)
			strbuf_adds(out, " <small>(simulated)</small>");
		strbuf_adds(out, "</h3>\n");
		distribution(c, m, out);
		run_order(r, m, out);
		strbuf_adds(out, "</div>\n");
	}
}

/* ---- forest plot --------------------------------------------------------- */

#define FOREST_L 250.0
#define FOREST_R 300.0
#define FOREST_ROW 22.0
#define FOREST_MIN 0.01
#define FOREST_MAX 100.0

static int forest_row(const struct result *r, const struct comparison *c)
{
	return html_metric_shown(r, c->metric) && c->method != CMP_NONE && isfinite(c->ratio) &&
	       c->ratio > 0;
}

static double clamp(double x, double lo, double hi)
{
	return isnan(x) ? lo : fmin(hi, fmax(lo, x));
}

static void forest_point(struct strbuf *out, const struct result *r, const struct comparison *c,
			 const struct html_axis *a, double y, double x0, double x1)
{
	/* An unbounded end runs to the edge of the axis. */
	double lo = clamp(c->ci_lo > 0 ? c->ci_lo : a->lo, a->lo, a->hi);
	double hi = clamp(isfinite(c->ci_hi) ? c->ci_hi : a->hi, a->lo, a->hi);
	double px = html_axis_pos(a, clamp(c->ratio, a->lo, a->hi), x0, x1);
	char word[64];

	compare_verdict_text(r, c, word, sizeof(word));
	strbuf_addf(out, "<g class=\"forest-row %s\"><title>", html_verdict_class(c));
	html_text(out, r->metrics[c->metric].name);
	strbuf_adds(out, ", ");
	html_text(out, r->variants[c->variant].name);
	strbuf_addf(out, ": ratio %.4f, 95%% interval [%.4f, %.4f], %s</title>\n", c->ratio,
		    c->ci_lo, c->ci_hi, word);
	strbuf_addf(out, "<text class=\"rowname\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
		    x0 - 10, y + 4);
	html_text_cut(out, r->metrics[c->metric].name, 22);
	strbuf_adds(out, " · ");
	html_text_cut(out, r->variants[c->variant].name, 14);
	strbuf_addf(out, "</text>\n<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/>\n", html_axis_pos(a, lo, x0, x1), y,
		    html_axis_pos(a, hi, x0, x1), y);
	if (c->method == CMP_EXACT)
		strbuf_addf(out, "<path class=\"point exact\" d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\"/>\n",
			    px, y - 5);
	else
		strbuf_addf(out, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"/>\n", px, y);
	strbuf_addf(out, "<text class=\"rowval\" x=\"%.1f\" y=\"%.1f\">%+.1f%%", x1 + 12, y + 4,
		    100 * (c->ratio - 1));
	if (isfinite(c->ci_lo) && isfinite(c->ci_hi) && c->ci_lo != c->ci_hi)
		strbuf_addf(out, " [%+.1f%%, %+.1f%%]", 100 * (c->ci_lo - 1), 100 * (c->ci_hi - 1));
	else if (!isfinite(c->ci_lo) || !isfinite(c->ci_hi))
		strbuf_adds(out, " [unbounded]");
	strbuf_adds(out, " ");
	html_text(out, word);
	strbuf_adds(out, "</text></g>\n");
}

void html_forest(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	double lo = 1 - r->noise_band, hi = 1 + r->noise_band, height, x0 = FOREST_L;
	double x1 = PLOT_W + 240 - FOREST_R, y;
	struct strbuf title = STRBUF_INIT;
	struct html_axis a;
	size_t rows = 0;

	for (size_t i = 0; i < c->cmp.n; i++) {
		const struct comparison *k = &c->cmp.c[i];

		if (!forest_row(r, k))
			continue;
		rows++;
		lo = fmin(lo, clamp(k->ratio, FOREST_MIN, FOREST_MAX));
		hi = fmax(hi, clamp(k->ratio, FOREST_MIN, FOREST_MAX));
		if (k->ci_lo > 0 && isfinite(k->ci_lo))
			lo = fmin(lo, clamp(k->ci_lo, FOREST_MIN, FOREST_MAX));
		if (isfinite(k->ci_hi))
			hi = fmax(hi, clamp(k->ci_hi, FOREST_MIN, FOREST_MAX));
	}
	if (!rows)
		return;
	height = rows * FOREST_ROW + AXIS_H + 12;
	html_axis_init(&a, "ratio", lo, hi, 1);
	strbuf_addf(&title, "ratio variant / %s (log scale; 1 = no change)",
		    r->variants[r->baseline].name);
	strbuf_addf(out, "<svg class=\"plot forest\" id=\"forest\" viewBox=\"0 0 %.0f %.0f\" "
		    "width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>ratios with 95%% intervals"
		    "</title>\n", PLOT_W + 240, height, PLOT_W + 240, height);
	strbuf_addf(out, "<rect class=\"band\" x=\"%.1f\" y=\"4\" width=\"%.1f\" height=\"%.1f\">"
		    "<title>noise band ±%.1f%%</title></rect>\n",
		    html_axis_pos(&a, 1 - r->noise_band, x0, x1),
		    html_axis_pos(&a, 1 + r->noise_band, x0, x1) -
			    html_axis_pos(&a, 1 - r->noise_band, x0, x1),
		    height - AXIS_H - 8, 100 * r->noise_band);
	html_axis_svg(out, &a, 0, height - AXIS_H, x0, x1, height - AXIS_H - 4, title.buf);
	strbuf_addf(out, "<line class=\"unity\" x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		    html_axis_pos(&a, 1, x0, x1), html_axis_pos(&a, 1, x0, x1), height - AXIS_H);
	y = 4 + FOREST_ROW / 2;
	for (size_t i = 0; i < c->cmp.n; i++)
		if (forest_row(r, &c->cmp.c[i])) {
			forest_point(out, r, &c->cmp.c[i], &a, y, x0, x1);
			y += FOREST_ROW;
		}
	strbuf_adds(out, "</svg>\n");
	strbuf_addf(out, "<p class=\"legend\">Each row: the ratio (dot; a diamond for exact "
		    "counts) and its 95%% %s; the shaded band is the ±%.1f%% noise band "
		    "the verdicts are judged against. Colour follows the verdict. An "
		    "unbounded interval, or one beyond ×%g or ×%g, runs to the edge.</p>\n",
		    r->decide ? "confidence sequence" : "interval", 100 * r->noise_band,
		    FOREST_MIN, FOREST_MAX);
	strbuf_release(&title);
}
