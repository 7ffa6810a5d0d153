/*
 * pmustat list: the portable metrics and whether each can be counted here
 * (or on --uarch U), with the reason when not; --events lists native events
 * instead (the catalogue's, the host's sysfs aliases, and libpfm4's tables
 * for this CPU), filtered by an optional word. Text for people, --json for
 * tools, both rendered from the same resolution.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend/callcount.h"
#include "backend/sim.h"
#include "catalog/libpfm.h"
#include "catalog/catalog.h"
#include "catalog/select.h"
#include "cli/cli.h"
#include "report/texttable.h"

static const char list_usage[] = "pmustat list [--uarch U] [--json] [--events [FILTER]]";

/* Can cachegrind stand in for this metric here (named with -m, or
 * --backend sim)? Checked once: is valgrind installed? */
static int simulable_here(const struct resolved_metric *m)
{
	static int valgrind = -1;

	if (valgrind < 0) {
		char *path = NULL;

		valgrind = sim_find_valgrind(NULL, &path, NULL) == 0;
		free(path);
	}
	return valgrind && sim_metric_known(m->name, 3);
}

static const char *status_of(const struct resolved_metric *m)
{
	if (callcount_is_call(m->name))
		return "calls";
	if (m->kind == MK_PROCESS)
		return m->available ? "always" : "no";
	if (!m->available)
		return simulable_here(m) ? "sim" : "no";
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

static json_t *nstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static int list_metrics_json(const struct catalog_host *h, const struct resolution *r)
{
	json_t *o = json_object(), *ms = json_array(), *ps = json_object();
	const char *presets[] = { "default", "cache", "branch", "memory", "all" };
	int rc;

	json_object_set_new(o, "uarch", json_string(r->uarch));
	json_object_set_new(o, "description", nstr(catalog_description(&h->cat)));
	json_object_set_new(o, "host_checked", json_boolean(r->host_checked));
	json_object_set_new(o, "note", h->note[0] ? json_string(h->note) : json_null());
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct resolved_metric *m = &r->metrics[i];
		json_t *mo = json_object(), *evs = json_array();
		struct strbuf sb = STRBUF_INIT;

		json_object_set_new(mo, "name", json_string(m->name));
		json_object_set_new(mo, "status", json_string(status_of(m)));
		json_object_set_new(mo, "available", json_boolean(m->available));
		json_object_set_new(mo, "unit", nstr(m->unit));
		json_object_set_new(mo, "description", nstr(m->desc));
		counted_as(r, m, &sb);
		json_object_set_new(mo, "counted_as", json_string(sb.len ? sb.buf : ""));
		json_object_set_new(mo, "proxy", nstr(m->proxy));
		json_object_set_new(mo, "reason", nstr(m->reason));
		json_object_set_new(mo, "hint", nstr(m->hint));
		for (size_t k = 0; k < m->nevents; k++) {
			const struct resolved_event *e = &r->events[m->events[k]];
			json_t *eo = json_object();

			json_object_set_new(eo, "name", json_string(e->name));
			json_object_set_new(eo, "pmu", json_string(e->spec.pmu));
			json_object_set_new(eo, "syntax", json_string(e->syntax));
			json_array_append_new(evs, eo);
		}
		json_object_set_new(mo, "events", evs);
		json_array_append_new(ms, mo);
		strbuf_release(&sb);
	}
	json_object_set_new(o, "metrics", ms);
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		json_object_set_new(ps, presets[i], nstr(catalog_preset(&h->cat, presets[i])));
	json_object_set_new(o, "presets", ps);
	rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(o);
	return rc ? PMU_EXIT_RUNTIME : 0;
}

static int list_metrics_text(const struct catalog_host *h, const struct resolution *r)
{
	struct texttable t;
	struct strbuf out = STRBUF_INIT;
	const char *presets[] = { "default", "cache", "branch", "memory", "all" };

	printf("metrics on %s: %s\n", r->uarch, catalog_description(&h->cat));
	printf("  %s\n\n", r->host_checked ? "checked against this host's PMUs and permissions"
					   : h->note);
	texttable_init(&t, 4, "llll");
	texttable_set(&t, texttable_row(&t), 0, "metric");
	texttable_set(&t, t.nrows - 1, 1, "here");
	texttable_set(&t, t.nrows - 1, 2, "counted as");
	texttable_set(&t, t.nrows - 1, 3, "why");
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct resolved_metric *m = &r->metrics[i];
		struct strbuf sb = STRBUF_INIT;
		size_t row = texttable_row(&t);

		counted_as(r, m, &sb);
		texttable_set(&t, row, 0, "%s", m->name);
		texttable_set(&t, row, 1, "%s", status_of(m));
		texttable_set(&t, row, 2, "%s", sb.len ? sb.buf : "");
		if (callcount_is_call(m->name))
			texttable_set(&t, row, 3, "counted by the LD_PRELOAD shim, or uprobes for "
				      "static programs (see README)");
		else if (m->available && m->proxy)
			texttable_set(&t, row, 3, "proxy: %s", m->proxy);
		else if (!m->available && m->reason && simulable_here(m))
			texttable_set(&t, row, 3, "simulated by cachegrind when named with -m: %s",
				      m->reason);
		else if (!m->available && m->reason)
			texttable_set(&t, row, 3, "%s", m->reason);
		strbuf_release(&sb);
	}
	texttable_render(&t, 2, &out);
	fputs(out.buf, stdout);
	texttable_release(&t);
	strbuf_release(&out);
	printf("\nalias: l3-misses = llc-misses, l3-mpki = llc-mpki\npresets (-m NAME):\n");
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		const char *p = catalog_preset(&h->cat, presets[i]);

		printf("  %-8s %s\n", presets[i], p && strcmp(p, "*") ? p : "every metric above");
	}
	printf("\n'pmustat explain NAME' tells how a metric resolves and why; "
	       "'pmustat list --events' lists native events\n");
	return 0;
}

/* ---- native events ----------------------------------------------------- */

static int matches(const char *s, const char *filter)
{
	return !filter || strcasestr(s, filter) != NULL;
}

struct evrow {
	const char *name, *pmu, *source;
	char *detail;
};

static void add_row(struct evrow **rows, size_t *n, size_t *alloc, const char *name,
		    const char *pmu, const char *source, char *detail)
{
	ALLOC_GROW(*rows, *n + 1, *alloc);
	(*rows)[*n].name = name;
	(*rows)[*n].pmu = pmu;
	(*rows)[*n].source = source;
	(*rows)[(*n)++].detail = detail;
}

static int list_events(const struct catalog_host *h, const struct resolution *r,
		       const char *filter, int json)
{
	struct evrow *rows = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf out = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < r->nevents; i++)
		if (matches(r->events[i].name, filter) || matches(r->events[i].syntax, filter))
			add_row(&rows, &n, &alloc, r->events[i].name, r->events[i].spec.pmu,
				"catalogue", xstrdup(r->events[i].syntax));
	for (size_t p = 0; h->checked && p < h->model.npmus; p++)
		for (size_t a = 0; a < h->model.pmus[p].naliases; a++) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s/%s/", h->model.pmus[p].name,
				    h->model.pmus[p].aliases[a].name);
			if (matches(sb.buf, filter))
				add_row(&rows, &n, &alloc, h->model.pmus[p].aliases[a].name,
					h->model.pmus[p].name, "sysfs", strbuf_detach(&sb));
			strbuf_release(&sb);
		}
	if (lpfm_initialize() == PFM_SUCCESS)
		for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
			pfm_pmu_info_t pi;

			memset(&pi, 0, sizeof(pi));
			pi.size = sizeof(pi);
			if (lpfm_get_pmu_info((pfm_pmu_t)p, &pi) != PFM_SUCCESS || !pi.is_present ||
			    pi.type == PFM_PMU_TYPE_OS_GENERIC)
				continue;
			for (int e = pi.first_event; e != -1; e = lpfm_get_event_next(e)) {
				pfm_event_info_t ei;

				memset(&ei, 0, sizeof(ei));
				ei.size = sizeof(ei);
				if (lpfm_get_event_info(e, PFM_OS_NONE, &ei) == PFM_SUCCESS &&
				    matches(ei.name, filter))
					add_row(&rows, &n, &alloc, ei.name, pi.name, "libpfm4",
						xstrdup(ei.desc ? ei.desc : ""));
			}
		}
	if (json) {
		json_t *a = json_array();

		for (size_t i = 0; i < n; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "name", json_string(rows[i].name));
			json_object_set_new(o, "pmu", json_string(rows[i].pmu));
			json_object_set_new(o, "source", json_string(rows[i].source));
			json_object_set_new(o, "detail", json_string(rows[i].detail));
			json_array_append_new(a, o);
		}
		rc = json_dumpf(a, stdout, JSON_INDENT(2)) ? PMU_EXIT_RUNTIME : 0;
		fputc('\n', stdout);
		json_decref(a);
	} else {
		struct texttable t;

		texttable_init(&t, 4, "llll");
		texttable_set(&t, texttable_row(&t), 0, "event");
		texttable_set(&t, 0, 1, "pmu");
		texttable_set(&t, 0, 2, "from");
		texttable_set(&t, 0, 3, "how to write it / meaning");
		for (size_t i = 0; i < n; i++) {
			size_t row = texttable_row(&t);

			texttable_set(&t, row, 0, "%s", rows[i].name);
			texttable_set(&t, row, 1, "%s", rows[i].pmu);
			texttable_set(&t, row, 2, "%s", rows[i].source);
			texttable_set(&t, row, 3, "%.90s", rows[i].detail);
		}
		printf("native events for %s%s%s%s (-e NAME; catalogue events also work with -m)\n",
		       r->uarch, filter ? " matching '" : "", filter ? filter : "", filter ? "'" : "");
		if (!h->checked)
			printf("  %s; sysfs aliases and libpfm4 tables are this host's\n", h->note);
		texttable_render(&t, 2, &out);
		fputs(out.buf, stdout);
		if (!n)
			printf("  (none)\n");
		texttable_release(&t);
	}
	for (size_t i = 0; i < n; i++)
		free(rows[i].detail);
	free(rows);
	strbuf_release(&out);
	return rc;
}

/* All of the uarch's catalogue events, for --events. */
static int resolve_all_events(const struct catalog_host *h, struct resolution *r,
			      struct error *err)
{
	return catalog_resolve(&h->cat, "all", &h->ctx, r, err);
}

static int list_main(int argc, const char **argv)
{
	const char *uarch = NULL;
	int help = 0, json = 0, events = 0, next, r;
	const struct option opts[] = {
		{ OPT_STRING, 0, "uarch", &uarch, "u", "list for this microarchitecture instead of the host's" },
		{ OPT_BOOL, 0, "json", &json, NULL, "print JSON" },
		{ OPT_BOOL, 0, "events", &events, NULL, "list native events (optionally matching FILTER)" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};
	struct catalog_host h;
	struct resolution res;
	struct error err;

	r = cli_parse(argc, argv, opts, list_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &help);
	if (r)
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	if (next < argc && (!events || next + 1 < argc)) {
		fprintf(stderr, "error: unexpected argument '%s'\nhint: a filter word goes with "
			"--events, as in 'pmustat list --events cache'\n", argv[next]);
		return PMU_EXIT_USAGE;
	}
	error_clear(&err);
	if (uarch && !strcmp(uarch, "help")) {
		char **names = catalog_uarch_names();

		for (size_t i = 0; names[i]; i++)
			printf("%s\n", names[i]);
		catalog_names_free(names);
		return 0;
	}
	if (catalog_host_open(&h, uarch, &err) < 0)
		return cli_error(&err);
	if (resolve_all_events(&h, &res, &err) < 0) {
		catalog_host_release(&h);
		return cli_error(&err);
	}
	if (events)
		r = list_events(&h, &res, next < argc ? argv[next] : NULL, json);
	else
		r = json ? list_metrics_json(&h, &res) : list_metrics_text(&h, &res);
	resolution_release(&res);
	catalog_host_release(&h);
	return r;
}

/* Which options take a value, for cli_split_positional(). */
static const struct option list_opts[] = {
	{ OPT_STRING, 0, "uarch", NULL, "u", NULL },
	{ OPT_END },
};

/* Options may follow the name ("explain l3-misses --uarch zen4"). */
int cmd_list(int argc, const char **argv)
{
	const char **args = xcalloc((size_t)argc + 1, sizeof(*args));
	int r;

	cli_split_positional(argc, argv, list_opts, args);
	r = list_main(argc, args);
	free(args);
	return r;
}
