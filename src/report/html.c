/*
 * The HTML page: a head with the style sheet, the variants and their
 * commands, a table of contents, then the sections below in order. Each
 * section is one function of the page context that writes nothing when it
 * has nothing to show (a stat result has no forest plot, a result without
 * --profile no flame graph), so the list is the whole layout: a new part
 * of the page is one row. No external resources: the file opens anywhere,
 * offline, and prints; everything is drawn here, and the one small inline
 * script (the flame graphs' search and zoom) only adds behaviour.
 */
#include "report/html.h"

#include <string.h>

#include "report/html_common.h"
#include "report/table.h"

struct html_section {
	const char *id, *title;
	html_section_fn *render;
};

/* The page, in order: one row per part (a cross-machine table, say, is one
 * more row and one more html_section_fn). */
static const struct html_section sections[] = {
	{ "reading", "Reading", html_reading },
	{ "verdicts", "Verdicts", html_verdicts },
	{ "summary", "Summary", html_stat_table },
	{ "ratios", "Ratios with 95% intervals", html_forest },
	{ "profile", "Profile", html_profile },
	{ "flame", "Flame graphs", html_flames },
	{ "metrics", "Metrics: distributions and run order", html_metric_plots },
	{ "notes", "Notes and warnings", html_notes },
	{ "host", "Host and campaign", html_host },
	{ "terminal", "Terminal output", html_terminal },
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

const char html_style[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
	"max-width:1400px;margin:0 auto;padding:1.2em 1.5em;box-sizing:border-box}"
	"h1{font-size:1.5em;margin-bottom:.3em}h1 small{color:#666;font-weight:normal}"
	"h2{font-size:1.2em;border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}"
	"h3{font-size:1.05em;margin:1.4em 0 .4em}nav a{margin-right:1.1em}"
	"table{border-collapse:collapse;margin:.4em 0}"
	"th,td{padding:.25em .6em;border-bottom:1px solid #eee;text-align:left;vertical-align:top}"
	"th{background:#f6f6f6;font-weight:600}td.num{text-align:right;white-space:nowrap;"
	"font-variant-numeric:tabular-nums}.cv,.pct{color:#777;font-size:.9em}"
	"td.verdict,.headline .verdict{font-weight:700;white-space:nowrap;border-radius:3px}"
	"tr.v-up td.verdict,.headline.v-up .verdict{background:#c62828;color:#fff}"
	"tr.v-up-unsized td.verdict,.headline.v-up-unsized .verdict{background:#f4c7c3;color:#8e0000}"
	"tr.v-down td.verdict,.headline.v-down .verdict{background:#2e7d32;color:#fff}"
	"tr.v-down-unsized td.verdict,.headline.v-down-unsized .verdict{background:#c8e6c9;color:#1b5e20}"
	"tr.v-equivalent td.verdict,.headline.v-equivalent .verdict{background:#e3edf7;color:#1a4d80}"
	"tr.v-inconclusive td.verdict,.headline.v-inconclusive .verdict{background:#fff3cd;color:#7a5b00}"
	"tr.v-outside td{color:#777}tr.v-none td{color:#999}"
	".headline{font-size:1.15em}.headline .verdict{padding:0 .35em}"
	".legend,.note{color:#555;font-size:.92em;max-width:60em}"
	"svg{max-width:100%;height:auto;display:block;margin:.3em 0}"
	"svg text{font-size:11px;fill:#333}.axis-label{font-size:12px;font-weight:600}"
	".grid{stroke:#eee}.axis-line{stroke:#888}"
	".box{fill:none;stroke-width:1.5}.median{stroke-width:2.5}.ci{stroke:#111;stroke-width:2}"
	".mean{fill:#111}circle.run{fill-opacity:.6}circle.warmup{stroke-width:1.5}"
	".band{fill:#ececec}.unity{stroke:#999;stroke-dasharray:3 3}"
	".forest-row{color:#666}.forest-row.v-up{color:#c62828}.forest-row.v-up-unsized{color:#e57373}"
	".forest-row.v-down{color:#2e7d32}.forest-row.v-down-unsized{color:#81c784}"
	".forest-row.v-equivalent{color:#1a4d80}.forest-row.v-inconclusive{color:#b08900}"
	".forest-row.v-outside{color:#aaa}.whisker{stroke:currentColor;stroke-width:2}"
	".point{fill:currentColor}.rowval{fill:currentColor}"
	"svg.flame{background:#fafafa}svg.flame rect{stroke:#fff;stroke-width:.5}"
	"svg.flame text{font:11px ui-monospace,monospace;fill:#111;pointer-events:none}"
	"svg.flame .frame:hover rect{stroke:#000;stroke-width:1}svg.flame g.frame{cursor:pointer}"
	"svg.flame g.frame.match rect{fill:#d13ee0}svg.flame g.frame.caller rect{opacity:.55}"
	"svg.flame g.frame.gone rect{stroke:#1e4fd8;stroke-width:1.5;stroke-dasharray:5 2}"
	"svg.flame g.frame.new rect{stroke:#d32f2f;stroke-width:1.5;stroke-dasharray:5 2}"
	"span.gone{border:1.5px dashed #1e4fd8;padding:0 .2em}span.new{border:1.5px dashed #d32f2f;"
	"padding:0 .2em}"
	".flame-tools{margin:.6em 0}.flame-tools input{font:inherit}.flame-help{color:#777;"
	"font-size:.9em}.flame-caption{margin:.9em 0 .2em;color:#444}.flame-status{color:#444;"
	"font-size:.92em;margin:.1em 0 .6em;min-height:1em}svg.flame-scale text{font-size:11px}"
	".grew{color:#d32f2f;font-weight:600}.shrank{color:#1e4fd8;font-weight:600}"
	"tr.sig td.fn{font-weight:600}td.where{color:#666}"
	"td.fn,td.site,td.where{overflow-wrap:anywhere}td.site{font-family:ui-monospace,monospace;"
	"font-size:.88em}table{max-width:100%}h4{font-size:1em;margin:1em 0 .3em}"
	"ul.notes li{margin:.3em 0}ul.notes li.warning{color:#7a3b00}.hint{color:#555}"
	"ul.reading li.where{list-style:none;margin-left:1.2em;color:#444}"
	".facts{display:flex;flex-wrap:wrap;gap:2em}dl{display:grid;"
	"grid-template-columns:max-content auto;gap:.15em 1em;margin:0}dt{color:#666}dd{margin:0}"
	"pre.terminal{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:12px}"
	"table.variants td.cmd{font-family:ui-monospace,monospace;font-size:.92em}";

static void variants(const struct result *r, struct strbuf *out)
{
	strbuf_adds(out, "<table class=\"variants\"><tbody>\n");
	for (size_t v = 0; v < r->nvariants; v++) {
		struct strbuf cmd = STRBUF_INIT;

		report_command_line(r->variants[v].argv, &cmd);
		strbuf_addf(out, "<tr><td><span style=\"color:%s\">&#9679;</span> ",
			    html_variant_color(v));
		html_text(out, r->variants[v].name);
		strbuf_adds(out, "</td><td class=\"cmd\">");
		html_text(out, cmd.buf);
		strbuf_addf(out, "</td><td>%s</td></tr>\n",
			    r->nvariants >= 2 && (int)v == r->baseline ? "baseline" : "");
		strbuf_release(&cmd);
	}
	strbuf_adds(out, "</tbody></table>\n");
}

static void title(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	size_t measured = 0;

	for (size_t i = 0; i < r->nruns; i++)
		measured += !r->runs[i].warmup;
	strbuf_adds(out, "<h1>pmustat ");
	html_text(out, r->command);
	if (r->nvariants >= 2)
		strbuf_addf(out, " <small>%zu variants, %zu blocks, %zu measured runs</small>",
			    r->nvariants, c->cmp.blocks_total, measured);
	else
		strbuf_addf(out, " <small>%zu measured run%s</small>", measured,
			    measured == 1 ? "" : "s");
	strbuf_adds(out, "</h1>\n");
	if (!r->complete)
		strbuf_adds(out, "<p class=\"note\">This result is incomplete (the campaign did not "
				 "finish): what is shown is what ran.</p>\n");
	variants(r, out);
}

void html_ctx_init(struct html_ctx *c, const struct analysed *a, const char *table)
{
	*c = (struct html_ctx){ .r = a->r, .table = table, .a = a, .an = a->an, .cmp = a->cmp,
				.at = a->at };
}

void html_page(struct strbuf *out, const char *name, const char *style, const char *heading,
	       struct html_part *parts, size_t n)
{
	strbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
	strbuf_addf(out, "%s</title>\n<style>%s%s</style>\n</head><body>\n%s", name, html_style,
		    style, heading);
	strbuf_adds(out, "<nav>");
	for (size_t i = 0; i < n; i++)
		if (parts[i].body.len)
			strbuf_addf(out, "<a href=\"#%s\">%s</a>", parts[i].id, parts[i].title);
	strbuf_adds(out, "</nav>\n");
	for (size_t i = 0; i < n; i++) {
		if (parts[i].body.len)
			strbuf_addf(out, "<section id=\"%s\"><h2>%s</h2>\n%s</section>\n",
				    parts[i].id, parts[i].title, parts[i].body.buf);
		strbuf_release(&parts[i].body);
	}
	strbuf_adds(out, "</body></html>\n");
}

void report_html(const struct analysed *a, const char *table, struct strbuf *out)
{
	struct html_ctx c;
	struct html_part parts[NSECTIONS];
	struct strbuf name = STRBUF_INIT, heading = STRBUF_INIT;

	html_ctx_init(&c, a, table);
	for (size_t i = 0; i < NSECTIONS; i++) {
		parts[i] = (struct html_part){ sections[i].id, sections[i].title, STRBUF_INIT };
		sections[i].render(&c, &parts[i].body);
	}
	strbuf_adds(&name, "pmustat ");
	html_text(&name, a->r->command);
	title(&c, &heading);
	html_page(out, name.buf, "", heading.buf, parts, NSECTIONS);
	strbuf_release(&name);
	strbuf_release(&heading);
}
