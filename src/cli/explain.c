/*
 * pmustat explain NAME: how a metric (or a native event) resolves on this
 * host or on --uarch U, and why. For a metric: every alternative of its
 * chain with the reason it was or was not chosen and what the user would
 * need for it, the chosen events with their perf_event_attr and decoded
 * terms, scope, caveats, provenance. For a native event string (-e syntax):
 * its encoding; for a preset, its metrics. Text for people, --json for
 * tools, both rendered by report/explain.c; this file parses the options,
 * finds out what NAME is (resolving or parsing it) and prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/event.h"
#include "catalog/select.h"
#include "cli/cli.h"
#include "core/strbuf.h"
#include "report/explain.h"

static const char explain_usage[] = "pmustat explain [--uarch U] [--json] NAME";

/* ---- native events ----------------------------------------------------- */

/* metric_err: why it is not a metric (its hint has near metric names). */
static int explain_event(const struct catalog_host *h, const char *name, int json,
			 const struct error *metric_err)
{
	struct event_spec ev;
	struct error err;
	const struct sysfs_model *m = h->checked ? &h->model : NULL;
	struct strbuf sb = STRBUF_INIT;
	int r;

	error_clear(&err);
	if (event_parse(m, name, &ev, &err) < 0) {
		if (!strncmp(err.msg, "unknown event", 13)) {
			if (!strncmp(metric_err->hint, "did you mean", 12) ||
			    strncmp(err.hint, "did you mean", 12))
				err = *metric_err;
			snprintf(err.msg, sizeof(err.msg), "unknown metric or event '%s'", name);
		}
		return cli_error(&err);
	}
	if (json) {
		r = cli_print_json(report_explain_event_json(&ev));
	} else {
		report_explain_event_text(&ev, &sb);
		r = cli_print(&sb);
	}
	event_spec_release(&ev);
	return r;
}

static int explain_preset(const char *name, const char *metrics, const char *uarch, int json)
{
	struct strbuf sb = STRBUF_INIT;

	if (json)
		return cli_print_json(report_explain_preset_json(name, metrics));
	report_explain_preset_text(name, metrics, uarch, &sb);
	return cli_print(&sb);
}

static int explain_metric(const struct catalog_host *h, const struct resolution *res,
			  const char *name, int json)
{
	int idx = resolution_metric_index(res, name);
	const struct resolved_metric *m = &res->metrics[idx < 0 ? 0 : idx];
	struct strbuf sb = STRBUF_INIT;

	if (json)
		return cli_print_json(report_explain_metric_json(h, res, m));
	report_explain_metric_text(h, res, m, &sb);
	return cli_print(&sb);
}

/* ---- entry ------------------------------------------------------------- */

static int is_catalog_name(const struct catalog *cat, const char *name)
{
	const char **names = catalog_metric_names(cat);
	int found = 0;

	for (size_t i = 0; names[i] && !found; i++)
		found = !strcmp(names[i], name);
	free(names);
	return found;
}

static int explain_main(int argc, const char **argv)
{
	const char *uarch = NULL;
	int help = 0, json = 0, next, r;
	const struct option opts[] = {
		{ OPT_STRING, 0, "uarch", &uarch, "u", "explain for this microarchitecture (pmustat list --uarch help)" },
		{ OPT_BOOL, 0, "json", &json, NULL, "print JSON" },
		{ OPT_BOOL, 'h', "help", &help, NULL, "show this help" },
		{ OPT_END },
	};
	struct catalog_host h;
	struct resolution res;
	struct error err;

	r = cli_parse(argc, argv, opts, explain_usage, PARSE_OPT_STOP_AT_NON_OPTION, &next, &help);
	if (r)
		return r > 0 ? 0 : PMU_EXIT_USAGE;
	if (next != argc - 1) {
		fprintf(stderr, "error: %s\nhint: name one metric or event, as in "
			"'pmustat explain l3-misses --uarch zen4' (pmustat list)\n",
			next >= argc ? "no metric or event to explain" : "explain takes one name");
		return PMU_EXIT_USAGE;
	}
	error_clear(&err);
	if (catalog_host_open(&h, uarch, &err) < 0)
		return cli_error(&err);
	if (catalog_preset(&h.cat, argv[next])) {
		r = explain_preset(argv[next], catalog_preset(&h.cat, argv[next]), uarch, json);
		catalog_host_release(&h);
		return r;
	}
	if (!is_catalog_name(&h.cat, argv[next]) && !strchr(argv[next], ',')) {
		struct error e2;

		/* A catalogue event name resolves as a metric; anything else is -e syntax. */
		if (catalog_resolve(&h.cat, argv[next], &h.ctx, &res, &e2) < 0) {
			r = explain_event(&h, argv[next], json, &e2);
			catalog_host_release(&h);
			return r;
		}
	} else if (catalog_resolve(&h.cat, argv[next], &h.ctx, &res, &err) < 0) {
		catalog_host_release(&h);
		return cli_error(&err);
	}
	r = explain_metric(&h, &res, argv[next], json);
	resolution_release(&res);
	catalog_host_release(&h);
	return r;
}

/* Which options take a value, for cli_split_positional(). */
static const struct option explain_opts[] = {
	{ OPT_STRING, 0, "uarch", NULL, "u", NULL },
	{ OPT_END },
};

/* Options may follow the name ("explain l3-misses --uarch zen4"). */
int cmd_explain(int argc, const char **argv)
{
	const char **args = xcalloc((size_t)argc + 1, sizeof(*args));
	int r;

	cli_split_positional(argc, argv, explain_opts, args);
	r = explain_main(argc, args);
	free(args);
	return r;
}
