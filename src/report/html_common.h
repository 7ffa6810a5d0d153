/*
 * What the parts of the HTML page share: the page context (the analysed
 * model, analysis/analysed.h: summaries, comparisons, attribution), text
 * escaping, numbers in human units, the variant palette, verdict classes,
 * and the axes of the plots. Only the html_*.c files include this; the
 * public entry point is report/html.h.
 *
 * Every string that comes from a result (a variant's name or command, a
 * metric, function or note) goes through html_text(): made printable first
 * (control characters and bytes that are not UTF-8 as \xNN, as the terminal
 * shows them), then HTML-escaped, so it can neither break the markup nor
 * carry a terminal sequence into a copied line.
 */
#ifndef PMU_REPORT_HTML_COMMON_H
#define PMU_REPORT_HTML_COMMON_H

#include <stddef.h>

#include "core/strbuf.h"
#include "analysis/analysed.h"
#include "report/texttable.h"
#include "result/result.h"
#include "report/units.h"

struct html_ctx {
	const struct result *r;
	const char *table;		/* the terminal's text table, or NULL */
	const struct analysed *a;	/* the model everything below is from */
	/* Its parts the sections read most (copies of a's, not owned). */
	struct analysis an;
	struct comparison_set cmp;	/* empty for a single variant */
	struct attribution_set at;
};

/* The page's context for the analysed result a (table: as report_html's). */
void html_ctx_init(struct html_ctx *c, const struct analysed *a, const char *table);
/* The page's style sheet (html.c), shared by every page pmustat writes. */
extern const char html_style[];

/*
 * A page (html.c): the head with name as its title (already escaped) and
 * the style sheet followed by style, the heading (markup), a table of
 * contents of the parts that have a body, and those parts as sections, in
 * order; each part's body is released. Every page pmustat writes is this
 * shape: the result's and the bisect's.
 */
struct html_part {
	const char *id, *title;
	struct strbuf body;
};
void html_page(struct strbuf *out, const char *name, const char *style, const char *heading,
	       struct html_part *parts, size_t n);

/* A part of the page: renders nothing when it has nothing to show. */
typedef void html_section_fn(const struct html_ctx *c, struct strbuf *out);

/* Sections (html_tables.c, html_info.c, html_plots.c, html_flame_svg.c). */
html_section_fn html_verdicts, html_stat_table, html_forest, html_reading, html_profile,
	html_metric_plots, html_flames, html_notes, html_host, html_terminal;

/* s made printable and escaped for element text and attribute values. */
void html_text(struct strbuf *out, const char *s);
/* The same for text of several lines: each line so, the newlines kept. */
void html_text_lines(struct strbuf *out, const char *s);
/* The same for at most max characters (UTF-8 aware), "…" when cut. */
void html_text_cut(struct strbuf *out, const char *s, size_t max);

/*
 * A table of the terminal's (report/texttable.h) as an HTML table of class
 * cls: the first row the header, right-aligned columns of class "num", a
 * column's class from t->classes, a shortened cell's whole text as its
 * title (shown on hover), a spanning row's second cell across the rest.
 * The page's tables and the terminal's are so one model, drawn twice.
 */
void html_texttable(struct strbuf *out, const struct texttable *t, const char *cls);

/* v (in unit, scale applied) in us, with its suffix: "530.675 ms". */
void html_value(struct strbuf *out, const struct unit_scale *us, double v);

/* Variant v's colour ("#1f77b4"). */
const char *html_variant_color(size_t v);

/* The CSS class of a comparison's verdict: "v-up", "v-up-unsized",
 * "v-down", "v-down-unsized", "v-equivalent", "v-inconclusive", and
 * "v-outside" for a metric outside the Holm family (no claim made). */
const char *html_verdict_class(const struct comparison *c);

/* Is metric m one the page plots and tabulates (available, asked for or
 * implicit, not a profile or host input)? */
int html_metric_shown(const struct result *r, size_t m);

/*
 * A plot axis over [lo, hi] in a metric's unit: ticks at 1, 2 or 5 times a
 * power of ten of the display unit (ms, MiB, or k/M/G for large counts), the
 * domain widened to whole ticks. log: ratios, positioned on a log scale
 * (ticks still round numbers of the ratio).
 */
struct html_axis {
	double lo, hi;		/* domain, in the metric's unit */
	double step;		/* tick spacing, same unit */
	int log;
	struct unit_scale us;	/* how ticks are labelled */
	int decimals;		/* of a tick label; -1: 1-2-5 ticks of a wide log axis */
	const char *count_suffix;	/* "k", "M", "G" for large counts, else "" */
};

void html_axis_init(struct html_axis *a, const char *unit, double lo, double hi, int log);
/* An axis of run numbers 1..n: whole numbers only. */
void html_axis_index(struct html_axis *a, size_t n);
/* v's position in [p0, p1] (p0 at lo); values outside the domain land outside. */
double html_axis_pos(const struct html_axis *a, double v, double p0, double p1);
/* The tick values, at most max (HTML_AXIS_MAX_TICKS is always enough). */
#define HTML_AXIS_MAX_TICKS 32
size_t html_axis_ticks(const struct html_axis *a, double *t, size_t max);
/* The label of tick value v: "500 ms", "1.5M", "1.05". */
void html_axis_label(struct strbuf *out, const struct html_axis *a, double v);
/* The unit words for an axis title: "ms", "MiB", "count", "ratio". */
const char *html_axis_unit(const struct html_axis *a, const char *unit);
/* Draw the axis as SVG: ticks, grid lines and labels along x (horizontal,
 * at y = at, across [p0, p1]) or y (vertical, at x = at, p0 = bottom), and
 * the title centred on it. */
void html_axis_svg(struct strbuf *out, const struct html_axis *a, int vertical, double at,
		   double p0, double p1, double span, const char *title);

#endif
