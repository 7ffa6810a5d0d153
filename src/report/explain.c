/*
 * `pmustat explain` rendered (see explain.h). For a metric: its chain of
 * alternatives in order of preference, each with why it was or was not
 * chosen and what the user would need for it, then every event with its
 * perf_event_attr and decoded terms. A native event shows its encoding; a
 * preset its expansion. Text and JSON carry the same content.
 */
#include "report/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_name[] = { "chosen", "skipped", "not tried" };

/* ---- JSON -------------------------------------------------------------- */

static json_t *hex(unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%#llx", v);
	if (!v)
		snprintf(buf, sizeof(buf), "0x0");
	return json_string(buf);
}

static json_t *strv_json(char **v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *nstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* The decoded terms "event=0x43,umask=0xdc" as JSON members. */
static void add_fields(json_t *o, const char *fields)
{
	char *copy = xstrdup(fields), *save = NULL;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		if (eq) {
			*eq = '\0';
			json_object_set_new(o, t, json_string(eq + 1));
		}
	}
	free(copy);
}

static json_t *event_json(const struct resolved_event *e)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(e->name));
	json_object_set_new(o, "pmu", json_string(e->spec.pmu));
	json_object_set_new(o, "role", json_string(e->pmu_role));
	json_object_set_new(o, "scope", json_string(e->system ? "system" : "process"));
	json_object_set_new(o, "type", e->type_known ? json_integer(e->spec.attr.type) : json_null());
	json_object_set_new(o, "config", hex(e->spec.attr.config));
	json_object_set_new(o, "config1", hex(e->spec.attr.config1));
	json_object_set_new(o, "config2", hex(e->spec.attr.config2));
	add_fields(o, e->fields);
	json_object_set_new(o, "syntax", json_string(e->syntax));
	json_object_set_new(o, "libpfm", nstr(e->libpfm));
	json_object_set_new(o, "description", nstr(e->desc));
	json_object_set_new(o, "source", nstr(e->source));
	json_object_set_new(o, "chosen", json_boolean(e->chosen));
	return o;
}

static json_t *step_json(const struct resolution *r, const struct resolve_step *s)
{
	json_t *o = json_object(), *names = json_array();

	json_object_set_new(o, "formula", nstr(s->formula));
	json_object_set_new(o, "proxy", nstr(s->proxy));
	json_object_set_new(o, "status", json_string(status_name[s->status]));
	json_object_set_new(o, "reason", nstr(s->reason));
	json_object_set_new(o, "need", nstr(s->need));
	json_object_set_new(o, "caveats", strv_json(s->caveats, s->ncaveats));
	json_object_set_new(o, "source", nstr(s->source));
	for (size_t k = 0; k < s->nevents; k++)
		json_array_append_new(names, json_string(r->events[s->events[k]].name));
	json_object_set_new(o, "events", names);
	return o;
}

/* The chain, a derived metric's inputs, and every event considered. */
static void chain_json(json_t *o, const struct resolution *r, const struct resolved_metric *m)
{
	json_t *steps = json_array(), *evs = json_array();

	for (size_t i = 0; i < m->nsteps; i++)
		json_array_append_new(steps, step_json(r, &m->steps[i]));
	json_object_set_new(o, "steps", steps);
	if (m->kind == MK_DERIVED) {
		json_t *in = json_array();

		for (size_t i = 0; i < m->ninputs; i++)
			json_array_append_new(in, json_string(r->metrics[m->inputs[i]].name));
		json_object_set_new(o, "inputs", in);
	}
	for (size_t i = 0; i < r->nevents; i++)
		json_array_append_new(evs, event_json(&r->events[i]));
	json_object_set_new(o, "events", evs);
}

json_t *report_explain_metric_json(const struct catalog_host *h, const struct resolution *r,
				   const struct resolved_metric *m)
{
	static const char *const kinds[] = { "base", "derived", "process", "event" };
	json_t *o = json_object();

	json_object_set_new(o, "uarch", json_string(r->uarch));
	json_object_set_new(o, "uarch_description", nstr(catalog_description(&h->cat)));
	json_object_set_new(o, "host_checked", json_boolean(r->host_checked));
	json_object_set_new(o, "note", h->note[0] ? json_string(h->note) : json_null());
	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "requested", json_string(m->requested));
	json_object_set_new(o, "kind", json_string(kinds[m->kind]));
	json_object_set_new(o, "description", nstr(m->desc));
	json_object_set_new(o, "unit", nstr(m->unit));
	json_object_set_new(o, "available", json_boolean(m->available));
	json_object_set_new(o, "reason", nstr(m->reason));
	json_object_set_new(o, "hint", nstr(m->hint));
	json_object_set_new(o, "formula", nstr(m->formula));
	json_object_set_new(o, "metric_formula", nstr(m->metric_formula));
	json_object_set_new(o, "proxy", nstr(m->proxy));
	json_object_set_new(o, "caveats", strv_json(m->caveats, m->ncaveats));
	json_object_set_new(o, "notes", strv_json(m->notes, m->nnotes));
	chain_json(o, r, m);
	return o;
}

/* ---- text -------------------------------------------------------------- */

static void text_event(struct strbuf *sb, const struct resolved_event *e)
{
	strbuf_addf(sb, "  %s%s\n", e->name, e->chosen ? "" : "   (not chosen)");
	strbuf_addf(sb, "    pmu      %s (%s)\n", e->spec.pmu,
		    e->system ? "system-wide: counts every process on it" : "per process");
	if (e->type_known)
		strbuf_addf(sb, "    attr     type %u  config %#llx  config1 %#llx  config2 %#llx\n",
			    e->spec.attr.type, (unsigned long long)e->spec.attr.config,
			    (unsigned long long)e->spec.attr.config1,
			    (unsigned long long)e->spec.attr.config2);
	else
		strbuf_addf(sb, "    attr     type (dynamic: read from sysfs '%s/type' at run time)"
			    "  config %#llx  config1 %#llx\n", e->spec.pmu,
			    (unsigned long long)e->spec.attr.config,
			    (unsigned long long)e->spec.attr.config1);
	if (e->fields[0])
		strbuf_addf(sb, "    terms    %s\n", e->fields);
	strbuf_addf(sb, "    perf     %s\n", e->syntax);
	if (e->libpfm)
		strbuf_addf(sb, "    libpfm   %s\n", e->libpfm);
	if (e->desc)
		strbuf_addf(sb, "    meaning  %s\n", e->desc);
	if (e->source)
		strbuf_addf(sb, "    source   %s\n", e->source);
}

static void text_steps(struct strbuf *sb, const struct resolved_metric *m)
{
	strbuf_adds(sb, "\nresolution, in order of preference:\n");
	for (size_t i = 0; i < m->nsteps; i++) {
		const struct resolve_step *s = &m->steps[i];

		strbuf_addf(sb, "  %zu. %s%s: %s\n", i + 1, s->formula ? s->formula : "(none)",
			    s->proxy ? "  [proxy]" : "", status_name[s->status]);
		if (s->proxy)
			strbuf_addf(sb, "       measures: %s\n", s->proxy);
		if (s->reason)
			strbuf_addf(sb, "       why not:  %s\n", s->reason);
		if (s->need && s->status == STEP_SKIPPED)
			strbuf_addf(sb, "       to use:   %s\n", s->need);
		for (size_t k = 0; k < s->ncaveats; k++)
			strbuf_addf(sb, "       caveat:   %s\n", s->caveats[k]);
		if (s->source)
			strbuf_addf(sb, "       source:   %s\n", s->source);
	}
}

/* A derived metric: its formula over metrics, each input as counted here. */
static void text_inputs(struct strbuf *sb, const struct resolution *r,
			const struct resolved_metric *m)
{
	strbuf_addf(sb, "\nformula: %s\n", m->metric_formula);
	for (size_t i = 0; i < m->ninputs; i++) {
		const struct resolved_metric *in = &r->metrics[m->inputs[i]];

		strbuf_addf(sb, "  %-24s %s\n", in->name,
			    in->available ? (in->formula ? in->formula : "") : "not countable");
	}
	if (m->formula)
		strbuf_addf(sb, "  = %s\n", m->formula);
}

static void text_result(struct strbuf *sb, const struct resolved_metric *m)
{
	strbuf_addf(sb, "\nresult: %s", m->available ? "countable" : "not countable");
	if (m->available && m->formula && m->kind != MK_DERIVED)
		strbuf_addf(sb, " as %s%s", m->formula, m->proxy ? " (a proxy)" : "");
	strbuf_adds(sb, "\n");
	if (m->reason)
		strbuf_addf(sb, "  reason: %s\n", m->reason);
	for (size_t i = 0; i < m->nnotes; i++)
		strbuf_addf(sb, "  note: %s\n", m->notes[i]);
	if (m->hint)
		strbuf_addf(sb, "  hint: %s\n", m->hint);
}

void report_explain_metric_text(const struct catalog_host *h, const struct resolution *r,
				const struct resolved_metric *m, struct strbuf *sb)
{
	strbuf_addf(sb, "%s", m->name);
	if (strcmp(m->name, m->requested))
		strbuf_addf(sb, " (asked as '%s')", m->requested);
	strbuf_addf(sb, " on %s: %s\n", r->uarch, catalog_description(&h->cat));
	if (m->desc)
		strbuf_addf(sb, "  %s%s%s%s\n", m->desc, m->unit ? " [" : "", m->unit ? m->unit : "",
			    m->unit ? "]" : "");
	strbuf_addf(sb, "  %s\n", r->host_checked ? "checked against this host's PMUs and permissions"
						  : h->note);
	if (m->kind == MK_PROCESS)
		strbuf_adds(sb, "  measured by pmustat itself for every run, without counters\n");
	else if (m->kind == MK_DERIVED)
		text_inputs(sb, r, m);
	else
		text_steps(sb, m);
	text_result(sb, m);
	if (r->nevents)
		strbuf_adds(sb, "\nevents:\n");
	for (size_t i = 0; i < r->nevents; i++)
		text_event(sb, &r->events[i]);
}

/* ---- native events and presets ------------------------------------------ */

json_t *report_explain_event_json(const struct event_spec *ev)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(ev->name));
	json_object_set_new(o, "kind", json_string("native"));
	json_object_set_new(o, "pmu", json_string(ev->pmu));
	json_object_set_new(o, "type", json_integer(ev->attr.type));
	json_object_set_new(o, "config", hex(ev->attr.config));
	json_object_set_new(o, "config1", hex(ev->attr.config1));
	json_object_set_new(o, "config2", hex(ev->attr.config2));
	json_object_set_new(o, "scope", json_string(ev->uncore ? "system" : "process"));
	return o;
}

void report_explain_event_text(const struct event_spec *ev, struct strbuf *out)
{
	strbuf_addf(out, "%s: a native event (not a portable metric)\n"
		    "  pmu      %s (%s)\n"
		    "  attr     type %u  config %#llx  config1 %#llx  config2 %#llx\n"
		    "  modes    %s%s%s\n",
		    ev->name, ev->pmu, ev->uncore ? "system-wide" : "per process", ev->attr.type,
		    (unsigned long long)ev->attr.config, (unsigned long long)ev->attr.config1,
		    (unsigned long long)ev->attr.config2, ev->attr.exclude_user ? "" : "user ",
		    ev->attr.exclude_kernel ? "" : "kernel ",
		    ev->attr.exclude_hv ? "" : "hypervisor");
}

json_t *report_explain_preset_json(const char *name, const char *metrics)
{
	return json_pack("{s:s, s:s, s:s}", "name", name, "kind", "preset", "metrics", metrics);
}

void report_explain_preset_text(const char *name, const char *metrics, const char *uarch_opt,
				struct strbuf *out)
{
	strbuf_addf(out, "%s: a preset for -m, meaning %s\n'pmustat list%s%s' shows how "
		    "each resolves\n", name, strcmp(metrics, "*") ? metrics : "every metric",
		    uarch_opt ? " --uarch " : "", uarch_opt ? uarch_opt : "");
}
