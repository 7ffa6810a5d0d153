/*
 * Unit tests for report/list (what `pmustat list` prints): the metrics
 * table and JSON over real catalogues — a described uarch, and the recorded
 * VM without a PMU where whether valgrind is installed decides between
 * "sim" and "no" — and the native events table over a list built here, so
 * its header, truncation and empty case are checked without libpfm4.
 * Fixtures are found under $PMUSTAT_TEST_FIXTURES, else tests/fixtures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixtures.h"
#include "report/list.h"

struct listed {
	struct catalog_host h;
	struct resolution r;
};

/* The recorded machine, or (NULL) an Intel host, so that a uarch asked
 * for is described, not checked. */
static void use_machine(const char *machine)
{
	if (machine) {
		use_fixture(machine);
		return;
	}
	unsetenv("PMUSTAT_SYSFS_ROOT");
	unsetenv("PMUSTAT_PROC_ROOT");
	unsetenv("PMUSTAT_UARCH");
	setenv("PMUSTAT_CPU", "GenuineIntel-6-143-8", 1);
}

/* The catalogue of uarch (NULL: the machine's own) resolved with "all". */
static void open_all(struct listed *l, const char *uarch, const char *machine)
{
	struct error err;

	use_machine(machine);
	error_clear(&err);
	if (catalog_host_open(&l->h, uarch, &err) < 0 ||
	    catalog_resolve(&l->h.cat, "all", &l->h.ctx, &l->r, &err) < 0)
		fail_msg("catalogue: %s", err.msg);
}

static void close_all(struct listed *l)
{
	resolution_release(&l->r);
	catalog_host_release(&l->h);
	unsetenv("PMUSTAT_CPU");
	unsetenv("PMUSTAT_SYSFS_ROOT");
	unsetenv("PMUSTAT_PROC_ROOT");
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s, part);
}

/* The status of metric name in the JSON view. */
static const char *json_status(json_t *doc, const char *name)
{
	size_t i;
	json_t *m;

	json_array_foreach(json_object_get(doc, "metrics"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "name")), name))
			return json_string_value(json_object_get(m, "status"));
	fail_msg("no metric '%s' in the JSON view", name);
	return NULL;
}

static void test_described_uarch(void **state)
{
	struct listed l;
	struct list_metrics lm;
	struct strbuf sb = STRBUF_INIT;
	json_t *doc;

	(void)state;
	open_all(&l, "zen4", NULL);
	lm = (struct list_metrics){ &l.h, &l.r, 0 };
	report_list_metrics_text(&lm, &sb);
	assert_contains(sb.buf, "metrics on zen4: AMD Zen 4");
	assert_contains(sb.buf, "  metric                   here    counted as");
	assert_contains(sb.buf, "proxy: demand data-cache fills of this process from DRAM");
	assert_contains(sb.buf, "  cache    ");
	assert_contains(sb.buf, "  all      every metric above\n");
	doc = report_list_metrics_json(&lm);
	assert_string_equal(json_string_value(json_object_get(doc, "uarch")), "zen4");
	assert_false(json_is_true(json_object_get(doc, "host_checked")));
	assert_string_equal(json_status(doc, "llc-misses"), "proxy");
	assert_string_equal(json_status(doc, "wall-time"), "always");
	assert_string_equal(json_status(doc, "allocs"), "calls");
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "presets"),
							      "all")), "*");
	json_decref(doc);
	strbuf_release(&sb);
	close_all(&l);
}

/* No PMU: cachegrind stands in for what it simulates only when installed. */
static void test_sim_when_valgrind(void **state)
{
	struct listed l;
	struct list_metrics with, without;
	struct strbuf sb = STRBUF_INIT;
	json_t *a, *b;

	(void)state;
	open_all(&l, NULL, "vm-nopmu");
	with = (struct list_metrics){ &l.h, &l.r, 1 };
	without = (struct list_metrics){ &l.h, &l.r, 0 };
	a = report_list_metrics_json(&with);
	b = report_list_metrics_json(&without);
	assert_string_equal(json_status(a, "l1d-misses"), "sim");
	assert_string_equal(json_status(b, "l1d-misses"), "no");
	assert_string_equal(json_status(a, "cycles"), "no");
	assert_string_equal(json_status(a, "task-clock"), "yes");
	report_list_metrics_text(&with, &sb);
	assert_contains(sb.buf, "simulated by cachegrind when named with -m: no hardware PMU");
	strbuf_reset(&sb);
	report_list_metrics_text(&without, &sb);
	assert_null(strstr(sb.buf, "simulated by cachegrind"));
	json_decref(a);
	json_decref(b);
	strbuf_release(&sb);
	close_all(&l);
}

static void add_event(struct native_events *ev, const char *name, const char *source,
		      const char *detail)
{
	ALLOC_GROW(ev->v, ev->n + 1, ev->alloc);
	ev->v[ev->n].name = xstrdup(name);
	ev->v[ev->n].pmu = xstrdup("cpu");
	ev->v[ev->n].source = source;
	ev->v[ev->n++].detail = xstrdup(detail);
}

static void test_events(void **state)
{
	struct listed l;
	struct native_events ev = { 0 };
	struct strbuf sb = STRBUF_INIT;
	char longer[120];
	json_t *doc;

	(void)state;
	open_all(&l, "zen4", NULL);
	report_list_events_text(&l.h, &ev, "zzz", &sb);
	assert_contains(sb.buf, "native events for zen4 matching 'zzz' (-e NAME;");
	assert_contains(sb.buf, "; sysfs aliases and libpfm4 tables are this host's\n");
	assert_contains(sb.buf, "  (none)\n");
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	add_event(&ev, "RETIRED_OPS", "libpfm4", longer);
	add_event(&ev, "cycles", "catalogue", "cycles");
	strbuf_reset(&sb);
	report_list_events_text(&l.h, &ev, NULL, &sb);
	assert_contains(sb.buf, "native events for zen4 (-e NAME;");
	assert_null(strstr(sb.buf, "(none)"));
	/* the meaning is cut at 90 characters in the table, not in JSON */
	assert_contains(sb.buf, longer + sizeof(longer) - 1 - 90);
	assert_null(strstr(sb.buf, longer + sizeof(longer) - 1 - 91));
	doc = report_list_events_json(&ev);
	assert_int_equal(json_array_size(doc), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(doc, 1),
							      "source")), "catalogue");
	assert_int_equal(strlen(json_string_value(json_object_get(json_array_get(doc, 0),
								  "detail"))), 119);
	json_decref(doc);
	native_events_release(&ev);
	strbuf_release(&sb);
	close_all(&l);
}

static void test_uarchs(void **state)
{
	char *names[] = { "zen4", "zen5", NULL };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	report_list_uarchs(names, &sb);
	assert_string_equal(sb.buf, "zen4\nzen5\n");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_described_uarch),
		cmocka_unit_test(test_sim_when_valgrind),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_uarchs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
