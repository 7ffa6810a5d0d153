/*
 * `pmustat list` rendered (see list.h): the metrics table with each
 * metric's status here ("yes", "proxy", "sim", "calls", "always", "no"),
 * what it is counted as and why not, and the native events table; both as
 * text and JSON. The status and "counted as" are computed once, here, for
 * both views.
 */
#include "report/list.h"

#include <string.h>

#include "backend/callcount.h"
#include "backend/sim.h"
#include "report/texttable.h"

static const char *const presets[] = { "default", "cache", "branch", "memory", "all" };
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

/* Can cachegrind stand in for this metric here (named with -m, or
 * --backend sim)? */
static int simulable(const struct list_metrics *l, const struct resolved_metric *m)
{
	return l->valgrind && sim_metric_known(m->name, 3);
}

static const char *status_of(const struct list_metrics *l, const struct resolved_metric *m)
{
	if (callcount_is_call(m->name))
		return "calls";
	if (m->kind == MK_PROCESS)
		return m->available ? "always" : "no";
	if (!m->available)
		return simulable(l, m) ? "sim" : "no";
	return m->proxy ? "proxy" : "yes";
}

/* What is counted: the chosen events, or the derived formula. */
static void counted_as(const struct resolution *r, const struct resolved_metric *m,
		       struct strbuf *sb)
{
	if (m->kind == MK_DERIVED) {
		strbuf_adds(sb, m->metric_formula);
		return;
	}
	for (size_t i = 0; i < m->nevents; i++)
		strbuf_addf(sb, "%s%s", i ? " + " : "", r->events[m->events[i]].name);
}

/* Both tables: four left-aligned columns under a header row. */
static void table_init(struct texttable *t, const char *const head[4])
{
	texttable_init(t, 4, "llll");
	texttable_row(t);
	for (size_t c = 0; c < 4; c++)
		texttable_set(t, 0, c, "%s", head[c]);
}

/* ---- metrics as text ----------------------------------------------------- */

static void why_cell(const struct list_metrics *l, const struct resolved_metric *m,
		     struct texttable *t, size_t row)
{
	if (callcount_is_call(m->name))
		texttable_set(t, row, 3, "counted by the LD_PRELOAD shim, or uprobes for "
			      "static programs (see README)");
	else if (m->available && m->proxy)
		texttable_set(t, row, 3, "proxy: %s", m->proxy);
	else if (!m->available && m->reason && simulable(l, m))
		texttable_set(t, row, 3, "simulated by cachegrind when named with -m: %s",
			      m->reason);
	else if (!m->available && m->reason)
		texttable_set(t, row, 3, "%s", m->reason);
}

static void metrics_table(const struct list_metrics *l, struct strbuf *out)
{
	const struct resolution *r = l->res;
	struct texttable t;

	table_init(&t, (const char *const[]){ "metric", "here", "counted as", "why" });
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct resolved_metric *m = &r->metrics[i];
		struct strbuf sb = STRBUF_INIT;
		size_t row = texttable_row(&t);

		counted_as(r, m, &sb);
		texttable_set(&t, row, 0, "%s", m->name);
		texttable_set(&t, row, 1, "%s", status_of(l, m));
		texttable_set(&t, row, 2, "%s", sb.len ? sb.buf : "");
		why_cell(l, m, &t, row);
		strbuf_release(&sb);
	}
	texttable_render(&t, 2, out);
	texttable_release(&t);
}

void report_list_metrics_text(const struct list_metrics *l, struct strbuf *out)
{
	const struct catalog_host *h = l->host;

	strbuf_addf(out, "metrics on %s: %s\n", l->res->uarch, catalog_description(&h->cat));
	strbuf_addf(out, "  %s\n\n", l->res->host_checked ?
		    "checked against this host's PMUs and permissions" : h->note);
	metrics_table(l, out);
	strbuf_adds(out, "\nalias: l3-misses = llc-misses, l3-mpki = llc-mpki\n"
		    "presets (-m NAME):\n");
	for (size_t i = 0; i < NPRESETS; i++) {
		const char *p = catalog_preset(&h->cat, presets[i]);

		strbuf_addf(out, "  %-8s %s\n", presets[i],
			    p && strcmp(p, "*") ? p : "every metric above");
	}
	strbuf_adds(out, "\n'pmustat explain NAME' tells how a metric resolves and why; "
		    "'pmustat list --events' lists native events\n");
}

/* ---- metrics as JSON ----------------------------------------------------- */

static json_t *nstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *events_json(const struct resolution *r, const struct resolved_metric *m)
{
	json_t *a = json_array();

	for (size_t k = 0; k < m->nevents; k++) {
		const struct resolved_event *e = &r->events[m->events[k]];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "name", e->name,
						   "pmu", e->spec.pmu, "syntax", e->syntax));
	}
	return a;
}

static json_t *metric_json(const struct list_metrics *l, const struct resolved_metric *m)
{
	json_t *o = json_object();
	struct strbuf sb = STRBUF_INIT;

	counted_as(l->res, m, &sb);
	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "status", json_string(status_of(l, m)));
	json_object_set_new(o, "available", json_boolean(m->available));
	json_object_set_new(o, "unit", nstr(m->unit));
	json_object_set_new(o, "description", nstr(m->desc));
	json_object_set_new(o, "counted_as", json_string(sb.len ? sb.buf : ""));
	json_object_set_new(o, "proxy", nstr(m->proxy));
	json_object_set_new(o, "reason", nstr(m->reason));
	json_object_set_new(o, "hint", nstr(m->hint));
	json_object_set_new(o, "events", events_json(l->res, m));
	strbuf_release(&sb);
	return o;
}

json_t *report_list_metrics_json(const struct list_metrics *l)
{
	const struct catalog_host *h = l->host;
	json_t *o = json_object(), *ms = json_array(), *ps = json_object();

	json_object_set_new(o, "uarch", json_string(l->res->uarch));
	json_object_set_new(o, "description", nstr(catalog_description(&h->cat)));
	json_object_set_new(o, "host_checked", json_boolean(l->res->host_checked));
	json_object_set_new(o, "note", h->note[0] ? json_string(h->note) : json_null());
	for (size_t i = 0; i < l->res->nmetrics; i++)
		json_array_append_new(ms, metric_json(l, &l->res->metrics[i]));
	json_object_set_new(o, "metrics", ms);
	for (size_t i = 0; i < NPRESETS; i++)
		json_object_set_new(ps, presets[i], nstr(catalog_preset(&h->cat, presets[i])));
	json_object_set_new(o, "presets", ps);
	return o;
}

/* ---- native events ------------------------------------------------------- */

void report_list_events_text(const struct catalog_host *h, const struct native_events *ev,
			     const char *filter, struct strbuf *out)
{
	struct texttable t;

	table_init(&t, (const char *const[]){ "event", "pmu", "from", "how to write it / meaning" });
	for (size_t i = 0; i < ev->n; i++) {
		size_t row = texttable_row(&t);

		texttable_set(&t, row, 0, "%s", ev->v[i].name);
		texttable_set(&t, row, 1, "%s", ev->v[i].pmu);
		texttable_set(&t, row, 2, "%s", ev->v[i].source);
		texttable_set(&t, row, 3, "%.90s", ev->v[i].detail);
	}
	strbuf_addf(out, "native events for %s%s%s%s (-e NAME; catalogue events also work "
		    "with -m)\n", h->cat.uarch, filter ? " matching '" : "", filter ? filter : "",
		    filter ? "'" : "");
	if (!h->checked)
		strbuf_addf(out, "  %s; sysfs aliases and libpfm4 tables are this host's\n",
			    h->note);
	texttable_render(&t, 2, out);
	if (!ev->n)
		strbuf_adds(out, "  (none)\n");
	texttable_release(&t);
}

json_t *report_list_events_json(const struct native_events *ev)
{
	json_t *a = json_array();

	for (size_t i = 0; i < ev->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}", "name", ev->v[i].name,
						   "pmu", ev->v[i].pmu, "source", ev->v[i].source,
						   "detail", ev->v[i].detail));
	return a;
}

void report_list_uarchs(char *const *names, struct strbuf *out)
{
	for (size_t i = 0; names[i]; i++)
		strbuf_addf(out, "%s\n", names[i]);
}
