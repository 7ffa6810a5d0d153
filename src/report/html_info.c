/*
 * The page's text parts: the reading (the lines a compare or the demo
 * printed first, from report/reading.c), the warnings grouped by kind as the terminal
 * shows them, then every note and warning with its hint in full,
 * the host and campaign facts, and the terminal's own table folded away at
 * the end.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/html_common.h"
#include "report/reading.h"

/* ---- the demo's reading -------------------------------------------------- */

void html_reading(const struct html_ctx *c, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	char *line, *save = NULL;

	if (c->r->nvariants < 2)
		return;
	/* the terminal's reading of every compare (the demo's with its own
	 * heading), first on the page as it is first in the terminal */
	if (c->r->command && !strcmp(c->r->command, "demo")) {
		report_demo_reading(c->a, NAN, &text);
	} else {
		struct table_opts o = { 0 };

		report_reading(c->a, &o, &text);
	}
	strbuf_adds(out, "<ul class=\"reading\">\n");
	for (line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Reading", 7))
			continue;
		strbuf_addf(out, "<li class=\"%s\">", strspn(line, " ") > 1 ? "where" : "variant");
		html_text(out, line + strspn(line, " "));
		strbuf_adds(out, "</li>\n");
	}
	strbuf_adds(out, "</ul>\n");
	if (c->r->command && !strcmp(c->r->command, "demo"))
		strbuf_adds(out, "<p class=\"legend\">Allocations per constraint are in the "
				 "terminal's reading only: the constraint count is not saved in the "
				 "result.</p>\n");
	strbuf_release(&text);
}

/* ---- notes ---------------------------------------------------------------- */

static void note_item(struct strbuf *out, const struct result_note *n)
{
	strbuf_addf(out, "<li class=\"%s\">", n->level == NOTE_WARNING ? "warning" : "note");
	if (n->metric && !strstr(n->text, n->metric)) {
		strbuf_adds(out, "<b>");
		html_text(out, n->metric);
		strbuf_adds(out, "</b>: ");
	}
	html_text(out, n->text);
	if (n->hint) {
		strbuf_adds(out, "<br><span class=\"hint\">hint: ");
		html_text(out, n->hint);
		strbuf_adds(out, "</span>");
	}
	strbuf_adds(out, "</li>\n");
}

/* Warnings of one kind in one line, as the terminal says them by default
 * (analysis/warnings.c); the list after it has each one in full. */
static void warn_groups(const struct html_ctx *c, struct strbuf *out)
{
	const struct warning_set *w = &c->a->warnings;
	int head = 0;

	for (size_t k = 0; k < w->groups.n; k++) {
		const struct warn_group *g = &w->groups.g[k];
		struct result_note n = { NOTE_WARNING, NULL, g->summary, (char *)g->hint };

		if (g->nmember < 2)
			continue;
		strbuf_adds(out, head++ ? "" : "<ul class=\"notes warn-groups\">\n");
		note_item(out, &n);
	}
	strbuf_adds(out, head ? "</ul>\n" : "");
}

void html_notes(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;
	const struct strbuf *text = &c->a->noise_text, *hint = &c->a->noise_hint;
	size_t count = r->nnotes + c->an.nwarnings;

	if (!count && !text->len)
		return;
	warn_groups(c, out);
	strbuf_adds(out, "<ul class=\"notes\">\n");
	if (text->len) {
		struct result_note n = { NOTE_WARNING, NULL, text->buf, hint->len ? hint->buf : NULL };

		note_item(out, &n);
	}
	for (int level = NOTE_NOTE; level <= NOTE_WARNING; level++) {
		for (size_t i = 0; i < r->nnotes; i++)
			if ((int)r->notes[i].level == level)
				note_item(out, &r->notes[i]);
		for (size_t i = 0; i < c->an.nwarnings; i++)
			if ((int)c->an.warnings[i].level == level)
				note_item(out, &c->an.warnings[i]);
	}
	strbuf_adds(out, "</ul>\n");
}

/* ---- host and campaign ---------------------------------------------------- */

static void fact(struct strbuf *out, const char *name, const char *value)
{
	strbuf_addf(out, "<dt>%s</dt><dd>", name);
	html_text(out, value);
	strbuf_adds(out, "</dd>\n");
}

static void factf(struct strbuf *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void factf(struct strbuf *out, const char *name, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fact(out, name, buf);
}

static const char *tri(int v, const char *yes, const char *no)
{
	return v > 0 ? yes : v == 0 ? no : "unknown";
}

static void host_facts(const struct hostinfo *h, struct strbuf *out)
{
	fact(out, "CPU", h->model_name[0] ? h->model_name : "unknown");
	if (h->family >= 0)
		factf(out, "identity", "%s family %d model %d stepping %d", h->vendor, h->family,
		      h->model, h->stepping);
	factf(out, "CPUs online", "%d", h->ncpus);
	fact(out, "kernel", h->kernel);
	fact(out, "machine", h->machine);
	fact(out, "virtual machine", tri(h->hypervisor, "yes (hypervisor flag)", "no"));
	fact(out, "hardware PMU", tri(h->hw_pmu, "exposed", "not exposed"));
	if (h->paranoid != -100)
		factf(out, "perf_event_paranoid", "%d", h->paranoid);
	if (h->aslr >= 0)
		factf(out, "ASLR (randomize_va_space)", "%d", h->aslr);
	fact(out, "CPU frequency governor", h->governor[0] ? h->governor : "none");
}

static void campaign_facts(const struct result *r, struct strbuf *out)
{
	char when[64] = "unknown";
	time_t t = (time_t)r->created;
	struct tm tm;

	if (r->created > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fact(out, "created", when);
	fact(out, "complete", r->complete ? "yes" : r->interrupted ? "no (interrupted)" : "no");
	if (r->stop_reason)
		fact(out, "stopped", r->stop_reason);
	factf(out, "seed", "%llu", (unsigned long long)r->seed);
	factf(out, "runs", "%zu (repeat %u, warm-up %u)", r->nruns, r->repeat, r->warmup);
	if (r->timeout_s > 0)
		factf(out, "timeout per run", "%g s", r->timeout_s);
	if (r->pin_cpu >= 0)
		factf(out, "pinned to CPU", "%d", r->pin_cpu);
	fact(out, "kernel counted", r->kernel_excluded ? "no (user space only)" : "yes");
	if (r->nvariants >= 2) {
		if (r->primary)
			fact(out, "primary metric", r->primary);
		factf(out, "noise band", "±%.1f%%", 100 * r->noise_band);
		fact(out, "stopping rule", r->decide ? "sequential (confidence sequences)"
						     : "fixed number of blocks");
	}
}

void html_host(const struct html_ctx *c, struct strbuf *out)
{
	const struct result *r = c->r;

	strbuf_adds(out, "<div class=\"facts\"><dl class=\"host\">\n");
	host_facts(&r->host, out);
	strbuf_adds(out, "</dl>\n<dl class=\"campaign\">\n");
	campaign_facts(r, out);
	strbuf_adds(out, "</dl></div>\n");
}

/* ---- the terminal's table ------------------------------------------------- */

void html_terminal(const struct html_ctx *c, struct strbuf *out)
{
	if (!c->table || !*c->table)
		return;
	strbuf_adds(out, "<details><summary>as the terminal shows it</summary>"
			 "<pre class=\"terminal\">");
	/* Colour sequences are escaped like any control character. */
	html_text_lines(out, c->table);
	strbuf_adds(out, "</pre></details>\n");
}
