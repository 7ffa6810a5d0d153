/*
 * The HTML page's shared helpers (see html_common.h). Axis ticks follow
 * the usual 1-2-5 rule in the unit a person reads (units.c picks it: ms for
 * a wall time of half a second), so a tick says "500 ms", never 5e+08.
 */
#include "report/html_common.h"

#include <math.h>
#include <string.h>

#include "core/printable.h"

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd",
				       "#ff7f0e", "#8c564b", "#e377c2", "#17becf" };
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

static void escape(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': strbuf_adds(out, "&lt;"); break;
		case '>': strbuf_adds(out, "&gt;"); break;
		case '&': strbuf_adds(out, "&amp;"); break;
		case '"': strbuf_adds(out, "&quot;"); break;
		case '\'': strbuf_adds(out, "&#39;"); break;
		default: strbuf_addch(out, *s);
		}
}

void html_text(struct strbuf *out, const char *s)
{
	struct strbuf safe = STRBUF_INIT;

	escape(out, printable_in(&safe, s ? s : ""));
	strbuf_release(&safe);
}

void html_text_lines(struct strbuf *out, const char *s)
{
	struct strbuf line = STRBUF_INIT;

	for (const char *p = s; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		strbuf_reset(&line);
		strbuf_add(&line, p, len);
		html_text(out, line.buf);
		if (!end)
			break;
		strbuf_addch(out, '\n');
		p = end + 1;
	}
	strbuf_release(&line);
}

void html_text_cut(struct strbuf *out, const char *s, size_t max)
{
	struct strbuf safe = STRBUF_INIT;
	size_t chars = 0, cut = 0;

	printable_in(&safe, s ? s : "");
	/* Printable text is valid UTF-8: count lead bytes only. Keep max - 1
	 * characters and the ellipsis when there are more than max. */
	for (size_t i = 0; i < safe.len; i++)
		if (((unsigned char)safe.buf[i] & 0xc0) != 0x80 && ++chars == max)
			cut = i;
	if (max > 0 && chars > max) {
		safe.buf[cut] = '\0';
		escape(out, safe.buf);
		strbuf_adds(out, "…");
	} else {
		escape(out, safe.buf);
	}
	strbuf_release(&safe);
}

static void table_cell(struct strbuf *out, const struct texttable *t, size_t row, size_t col,
		       const char *tag)
{
	const char *cls = t->classes ? t->classes[col] : NULL;
	const char *title = t->titles[row * t->ncols + col];
	const char *cell = t->cells[row * t->ncols + col] ? t->cells[row * t->ncols + col] : "";

	strbuf_addf(out, "<%s", tag);
	if (cls || t->align[col] == 'r')
		strbuf_addf(out, " class=\"%s\"", cls ? cls : "num");
	if (t->span[row] && col == 1 && t->ncols > 2)
		strbuf_addf(out, " colspan=\"%zu\"", t->ncols - 1);
	/* a cell that shows its whole text (perhaps with a mark after it,
	 * "work_b *") needs no title */
	if (title && strncmp(title, cell, strlen(title))) {
		strbuf_adds(out, " title=\"");
		html_text(out, title);
		strbuf_addch(out, '"');
	}
	strbuf_addch(out, '>');
	html_text(out, cell);
	strbuf_addf(out, "</%s>", tag);
}

void html_texttable(struct strbuf *out, const struct texttable *t, const char *cls)
{
	strbuf_adds(out, "<table class=\"");
	html_text(out, cls);
	strbuf_adds(out, "\">");
	if (t->head) {
		strbuf_adds(out, "<thead><tr>");
		for (size_t c = 0; c < t->ncols; c++) {
			strbuf_adds(out, "<th>");
			html_text(out, t->head[c]);
			strbuf_adds(out, "</th>");
		}
		strbuf_adds(out, "</tr></thead>\n<tbody>\n");
	}
	for (size_t r = 0; r < t->nrows; r++) {
		int head = r == 0 && !t->head;

		if (head)
			strbuf_adds(out, "<thead><tr>");
		else if (t->row_classes[r])
			strbuf_addf(out, "<tr class=\"%s\">", t->row_classes[r]);
		else
			strbuf_adds(out, "<tr>");
		for (size_t c = 0; c < t->ncols && !(t->span[r] && c > 1); c++)
			table_cell(out, t, r, c, head ? "th" : "td");
		strbuf_adds(out, head ? "</tr></thead>\n<tbody>\n" : "</tr>\n");
	}
	strbuf_adds(out, t->nrows || t->head ? "</tbody></table>\n" : "</table>\n");
}

void html_value(struct strbuf *out, const struct unit_scale *us, double v)
{
	unit_format(out, us, v);
	if (*us->suffix && isfinite(v))
		strbuf_addf(out, " %s", us->suffix);
}

const char *html_variant_color(size_t v)
{
	return palette[v % NCOLORS];
}

const char *html_verdict_class(const struct comparison *c)
{
	if (c->method == CMP_NONE)
		return "v-none";
	if (c->role == ROLE_OUTSIDE)
		return "v-outside";
	switch (c->verdict) {
	case STATS_SLOWER: return "v-up";
	case STATS_SLOWER_UNSIZED: return "v-up-unsized";
	case STATS_FASTER: return "v-down";
	case STATS_FASTER_UNSIZED: return "v-down-unsized";
	case STATS_EQUIVALENT: return "v-equivalent";
	default: return "v-inconclusive";
	}
}

int html_metric_shown(const struct result *r, size_t m)
{
	const struct result_metric *met = &r->metrics[m];

	return met->available && !met->hidden && met->source != MSRC_PROFILE &&
	       met->source != MSRC_HOST;
}

/* ---- axes ---------------------------------------------------------------- */

/* Large counts read better as 1.5M than as 1,500,000 on a tick. */
static const char *count_scale(const char *unit, double big, double *div)
{
	struct unit_scale us = unit_pick(unit, big);

	*div = 1;
	if (*us.suffix || us.decimals)
		return "";
	if (big >= 1e9)
		return *div = 1e9, "G";
	if (big >= 1e6)
		return *div = 1e6, "M";
	if (big >= 1e4)
		return *div = 1e3, "k";
	return "";
}

static double nice_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

void html_axis_init(struct html_axis *a, const char *unit, double lo, double hi, int log)
{
	double big = fmax(fabs(lo), fabs(hi)), div, step, wlo;

	memset(a, 0, sizeof(*a));
	a->log = log;
	if (!isfinite(lo) || !isfinite(hi) || hi < lo)
		lo = 0, hi = 1;
	if (hi == lo) {
		hi = lo == 0 ? 1 : hi + fabs(hi) * 0.05;
		lo = lo == 0 ? 0 : lo - fabs(lo) * 0.05;
	}
	a->us = unit_pick(unit, big);
	a->count_suffix = count_scale(unit, big, &div);
	if (*a->count_suffix)
		a->us.div = div;
	if (log && lo > 0 && hi / lo > 4) {
		/* A wide ratio axis: ticks at 1, 2 and 5 times powers of ten. */
		a->lo = pow(10, floor(log10(lo)));
		a->hi = pow(10, ceil(log10(hi)));
		a->decimals = -1;
		return;
	}
	step = nice_step((hi - lo) / a->us.div) * a->us.div;
	/* The domain runs to whole ticks; a log axis cannot reach 0. */
	wlo = floor(lo / step) * step;
	a->lo = log && wlo <= 0 ? lo : wlo;
	a->hi = ceil(hi / step) * step;
	a->step = step;
	a->decimals = (int)fmax(0, ceil(-log10(step / a->us.div) - 1e-9));
}

void html_axis_index(struct html_axis *a, size_t n)
{
	html_axis_init(a, "", 1, (double)(n > 1 ? n : 2), 0);
	if (a->step < 1) {
		a->step = 1;
		a->decimals = 0;
		a->lo = floor(a->lo);
		a->hi = ceil(a->hi);
	}
}

double html_axis_pos(const struct html_axis *a, double v, double p0, double p1)
{
	double f = a->log ? (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo))
			  : (v - a->lo) / (a->hi - a->lo);

	return p0 + (p1 - p0) * f;
}

size_t html_axis_ticks(const struct html_axis *a, double *t, size_t max)
{
	static const double mant[] = { 1, 2, 5 };
	size_t n = 0;

	if (a->decimals < 0) {
		for (double dec = a->lo; dec <= a->hi * (1 + 1e-9) && n < max; dec *= 10)
			for (size_t k = 0; k < 3 && n < max; k++)
				if (mant[k] * dec <= a->hi * (1 + 1e-9))
					t[n++] = mant[k] * dec;
		return n;
	}
	for (double v = ceil(a->lo / a->step - 1e-9) * a->step;
	     v <= a->hi + a->step * 1e-9 && n < max; v += a->step)
		t[n++] = fabs(v) < a->step * 1e-9 ? 0 : v;
	return n;
}

void html_axis_label(struct strbuf *out, const struct html_axis *a, double v)
{
	double d = v / a->us.div;

	if (a->decimals < 0) {
		strbuf_addf(out, "%g", d);
		return;
	}

	if (fabs(d) < 1e-12 * fmax(1, a->step / a->us.div))
		d = 0;
	strbuf_addf(out, "%.*f", a->decimals, d);
	if (*a->count_suffix)
		strbuf_adds(out, a->count_suffix);
	else if (*a->us.suffix)
		strbuf_addf(out, " %s", a->us.suffix);
}

const char *html_axis_unit(const struct html_axis *a, const char *unit)
{
	if (*a->us.suffix)
		return a->us.suffix;
	if (!strcmp(unit, "ratio") || a->us.decimals == 4)
		return "ratio";
	return *unit ? unit : "count";
}

static void tick(struct strbuf *out, const struct html_axis *a, int vertical, double at,
		 double p, double span, double v)
{
	if (vertical) {
		strbuf_addf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"end\">", at, p, at + span, p, at - 5, p + 4);
	} else {
		strbuf_addf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">", p, at - span, p, at + 4, p, at + 16);
	}
	html_axis_label(out, a, v);
	strbuf_adds(out, "</text>\n");
}

void html_axis_svg(struct strbuf *out, const struct html_axis *a, int vertical, double at,
		   double p0, double p1, double span, const char *title)
{
	double t[HTML_AXIS_MAX_TICKS], mid = (p0 + p1) / 2;
	size_t n = html_axis_ticks(a, t, HTML_AXIS_MAX_TICKS);

	strbuf_addf(out, "<g class=\"axis %s\">\n", vertical ? "y" : "x");
	for (size_t i = 0; i < n; i++)
		tick(out, a, vertical, at, html_axis_pos(a, t[i], p0, p1), span, t[i]);
	if (vertical)
		strbuf_addf(out, "<line class=\"axis-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"/><text class=\"axis-label\" transform=\"translate(%.1f,%.1f) "
			    "rotate(-90)\" text-anchor=\"middle\">", at, p0, at, p1, at - 62, mid);
	else
		strbuf_addf(out, "<line class=\"axis-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"/><text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">", p0, at, p1, at, mid, at + 34);
	html_text(out, title);
	strbuf_adds(out, "</text>\n</g>\n");
}
