/*
 * The HTML renderer. Plots use run order on x and the value on y, scaled to
 * the metric's own range; warm-up runs are drawn hollow, unusable runs are
 * not drawn. No scripts, no external resources: the file opens anywhere.
 */
#include "report/html.h"

#include <math.h>
#include <string.h>

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
		default: strbuf_addch(out, *s);
		}
}

/* Strip ANSI colour sequences the terminal table may carry. */
static void escape_plain(struct strbuf *out, const char *s)
{
	struct strbuf tmp = STRBUF_INIT;

	while (*s) {
		if (*s == '\033') {
			while (*s && *s != 'm')
				s++;
			if (*s)
				s++;
			continue;
		}
		strbuf_addch(&tmp, *s++);
	}
	escape(out, tmp.buf);
	strbuf_release(&tmp);
}

static int run_value(const struct result *r, size_t i, size_t m, double *v)
{
	const struct result_run *run = &r->runs[i];
	const struct result_value *x = &run->values[m];

	if (!x->valid || (run->status != RUN_OK && run->status != RUN_FAILED))
		return 0;
	*v = x->value * r->metrics[m].scale;
	return isfinite(*v);
}

static void plot(const struct result *r, size_t m, struct strbuf *out)
{
	const double w = 640, h = 120, pad = 6;
	double lo = INFINITY, hi = -INFINITY, v;
	size_t n = r->nruns;

	for (size_t i = 0; i < n; i++)
		if (run_value(r, i, m, &v)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	if (!isfinite(lo))
		return;
	if (hi == lo)
		hi = lo + 1;
	strbuf_adds(out, "<h3>");
	escape(out, r->metrics[m].name);
	strbuf_adds(out, " <small>(");
	escape(out, r->metrics[m].unit);
	strbuf_addf(out, ", %.6g … %.6g)</small></h3>\n", lo, hi);
	strbuf_addf(out, "<svg width=\"%.0f\" height=\"%.0f\" style=\"border:1px solid #ccc\">\n",
		    w, h);
	for (size_t i = 0; i < n; i++) {
		const struct result_run *run = &r->runs[i];
		const char *col = palette[(size_t)run->variant % NCOLORS];
		double x, y;

		if (!run_value(r, i, m, &v))
			continue;
		x = pad + (w - 2 * pad) * (n > 1 ? (double)i / (double)(n - 1) : 0.5);
		y = h - pad - (h - 2 * pad) * (v - lo) / (hi - lo);
		strbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" %s=\"%s\"%s/>\n", x, y,
			    run->warmup ? "stroke" : "fill", col,
			    run->warmup ? " fill=\"none\"" : "");
	}
	strbuf_adds(out, "</svg>\n");
}

static void legend(const struct result *r, struct strbuf *out)
{
	strbuf_adds(out, "<p>");
	for (size_t v = 0; v < r->nvariants; v++) {
		strbuf_addf(out, "<span style=\"color:%s\">&#9679; ", palette[v % NCOLORS]);
		escape(out, r->variants[v].name);
		strbuf_adds(out, "</span> ");
	}
	strbuf_adds(out, " (hollow: warm-up; x: run order)</p>\n");
}

void report_html(const struct result *r, const char *table, struct strbuf *out)
{
	strbuf_adds(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
			 "<title>pmustat result</title>\n<style>body{font-family:sans-serif;"
			 "margin:2em}pre{background:#f6f6f6;padding:1em;overflow-x:auto}"
			 "</style></head><body>\n<h1>pmustat ");
	escape(out, r->command);
	strbuf_adds(out, "</h1>\n<p>host: ");
	escape(out, r->host.model_name[0] ? r->host.model_name : r->host.vendor);
	strbuf_adds(out, ", kernel ");
	escape(out, r->host.kernel);
	strbuf_addf(out, ", %zu runs, seed %llu</p>\n<pre>", r->nruns,
		    (unsigned long long)r->seed);
	escape_plain(out, table);
	strbuf_adds(out, "</pre>\n<h2>Runs</h2>\n");
	legend(r, out);
	for (size_t m = 0; m < r->nmetrics; m++)
		if (r->metrics[m].available && !r->metrics[m].hidden)
			plot(r, m, out);
	strbuf_adds(out, "</body></html>\n");
}
