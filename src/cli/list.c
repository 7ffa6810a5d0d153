/*
 * pmustat list: the portable metrics and whether each can be counted here
 * (or on --uarch U), with the reason when not; --events lists native events
 * instead (the catalogue's, the host's sysfs aliases, and libpfm4's tables
 * for this CPU), filtered by an optional word. Text for people, --json for
 * tools, both rendered by report/list.c from the same resolution; this file
 * parses the options, loads what is shown and prints it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "catalog/native.h"
#include "catalog/select.h"
#include "cli/cli.h"
#include "core/path.h"
#include "report/list.h"

static const char list_usage[] = "pmustat list [--uarch U] [--json] [--events [FILTER]]";

/* Is valgrind installed (so cachegrind may stand in for a metric)? */
static int have_valgrind(void)
{
	char *path = path_search("valgrind", NULL, X_OK);
	int found = path != NULL;

	free(path);
	return found;
}

static int list_metrics(const struct catalog_host *h, const struct resolution *r, int json)
{
	struct list_metrics l = { h, r, have_valgrind() };
	struct strbuf sb = STRBUF_INIT;

	if (json)
		return cli_print_json(report_list_metrics_json(&l));
	report_list_metrics_text(&l, &sb);
	return cli_print(&sb);
}

static int list_events(const struct catalog_host *h, const struct resolution *r,
		       const char *filter, int json)
{
	struct native_events ev;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	catalog_native_events(h, r, filter, &ev);
	if (json) {
		rc = cli_print_json(report_list_events_json(&ev));
	} else {
		report_list_events_text(h, &ev, filter, &sb);
		rc = cli_print(&sb);
	}
	native_events_release(&ev);
	return rc;
}

static int list_uarchs(void)
{
	char **names = catalog_uarch_names();
	struct strbuf sb = STRBUF_INIT;

	report_list_uarchs(names, &sb);
	catalog_names_free(names);
	return cli_print(&sb);
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
	if (uarch && !strcmp(uarch, "help"))
		return list_uarchs();
	if (catalog_host_open(&h, uarch, &err) < 0)
		return cli_error(&err);
	if (resolve_all_events(&h, &res, &err) < 0) {
		catalog_host_release(&h);
		return cli_error(&err);
	}
	if (events)
		r = list_events(&h, &res, next < argc ? argv[next] : NULL, json);
	else
		r = list_metrics(&h, &res, json);
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
