/*
 * Unit tests for report/explain (what `pmustat explain` prints), over the
 * zen4 catalogue as described (not this host): the DESIGN.md story of
 * l3-misses (the uncore mapping skipped for scope, the per-process proxy
 * chosen) in text and JSON, a derived and a process metric, a native event
 * string parsed without sysfs, and presets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/explain.h"

struct explained {
	struct catalog_host h;
	struct resolution r;
	const struct resolved_metric *m;
};

static void explain(struct explained *x, const char *name)
{
	struct error err;
	int i;

	/* an Intel host, so that zen4 is described, never checked */
	setenv("PMUSTAT_CPU", "GenuineIntel-6-143-8", 1);
	unsetenv("PMUSTAT_UARCH");
	error_clear(&err);
	if (catalog_host_open(&x->h, "zen4", &err) < 0 ||
	    catalog_resolve(&x->h.cat, name, &x->h.ctx, &x->r, &err) < 0)
		fail_msg("%s on zen4: %s", name, err.msg);
	i = resolution_metric_index(&x->r, name);
	assert_true(i >= 0);
	x->m = &x->r.metrics[i];
}

static void release(struct explained *x)
{
	resolution_release(&x->r);
	catalog_host_release(&x->h);
	unsetenv("PMUSTAT_CPU");
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s, part);
}

/* doc.key.index.key2 as a string */
static const char *member(json_t *doc, const char *key, size_t index, const char *key2)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(doc, key), index),
						 key2));
}

static void test_l3_misses(void **state)
{
	struct explained x;
	struct strbuf sb = STRBUF_INIT;
	json_t *doc;

	(void)state;
	explain(&x, "l3-misses");
	report_explain_metric_text(&x.h, &x.r, x.m, &sb);
	assert_contains(sb.buf, "llc-misses (asked as 'l3-misses') on zen4: AMD Zen 4");
	assert_contains(sb.buf, "\nresolution, in order of preference:\n");
	assert_contains(sb.buf, "  1. l3_lookup_state.l3_miss: skipped\n");
	assert_contains(sb.buf, "2. ls_dmnd_fills_from_sys.beyond_ccx  [proxy]: chosen\n");
	assert_contains(sb.buf, "\nresult: countable as ls_dmnd_fills_from_sys.beyond_ccx (a proxy)\n");
	assert_contains(sb.buf, "    attr     type 4  config 0xdc43  config1 0  config2 0\n");
	assert_contains(sb.buf, "    attr     type (dynamic: read from sysfs 'amd_l3/type' at run time)");
	doc = report_explain_metric_json(&x.h, &x.r, x.m);
	assert_string_equal(json_string_value(json_object_get(doc, "requested")), "l3-misses");
	assert_string_equal(json_string_value(json_object_get(doc, "kind")), "base");
	assert_string_equal(member(doc, "steps", 0, "status"), "skipped");
	assert_string_equal(member(doc, "steps", 1, "status"), "chosen");
	assert_string_equal(member(doc, "events", 1, "config"), "0xdc43");
	assert_string_equal(member(doc, "events", 1, "umask"), "0xdc");
	assert_string_equal(member(doc, "events", 0, "scope"), "system");
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(doc, "events"), 0),
						 "type")));
	assert_null(json_object_get(doc, "inputs"));
	json_decref(doc);
	strbuf_release(&sb);
	release(&x);
}

static void test_derived_and_process(void **state)
{
	struct explained x;
	struct strbuf sb = STRBUF_INIT;
	json_t *doc;

	(void)state;
	explain(&x, "ipc");
	report_explain_metric_text(&x.h, &x.r, x.m, &sb);
	assert_contains(sb.buf, "\nformula: instructions / cycles\n");
	assert_null(strstr(sb.buf, "resolution, in order of preference"));
	doc = report_explain_metric_json(&x.h, &x.r, x.m);
	assert_string_equal(json_string_value(json_object_get(doc, "kind")), "derived");
	assert_int_equal(json_array_size(json_object_get(doc, "inputs")), 2);
	json_decref(doc);
	release(&x);
	strbuf_reset(&sb);
	explain(&x, "wall-time");
	report_explain_metric_text(&x.h, &x.r, x.m, &sb);
	assert_contains(sb.buf, "  measured by pmustat itself for every run, without counters\n");
	assert_null(strstr(sb.buf, "\nevents:\n"));
	strbuf_release(&sb);
	release(&x);
}

static void test_native_event(void **state)
{
	struct event_spec ev;
	struct error err;
	struct strbuf sb = STRBUF_INIT;
	json_t *doc;

	(void)state;
	error_clear(&err);
	assert_int_equal(event_parse(NULL, "cycles:u", &ev, &err), 0);
	report_explain_event_text(&ev, &sb);
	assert_string_equal(sb.buf, "cycles:u: a native event (not a portable metric)\n"
				    "  pmu      cpu (per process)\n"
				    "  attr     type 0  config 0  config1 0  config2 0\n"
				    "  modes    user \n");
	doc = report_explain_event_json(&ev);
	assert_string_equal(json_string_value(json_object_get(doc, "kind")), "native");
	assert_string_equal(json_string_value(json_object_get(doc, "config")), "0x0");
	assert_string_equal(json_string_value(json_object_get(doc, "scope")), "process");
	json_decref(doc);
	event_spec_release(&ev);
	strbuf_release(&sb);
}

static void test_presets(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *doc;

	(void)state;
	report_explain_preset_text("all", "*", NULL, &sb);
	assert_string_equal(sb.buf, "all: a preset for -m, meaning every metric\n"
				    "'pmustat list' shows how each resolves\n");
	strbuf_reset(&sb);
	report_explain_preset_text("branch", "branches,branch-misses", "zen4", &sb);
	assert_string_equal(sb.buf, "branch: a preset for -m, meaning branches,branch-misses\n"
				    "'pmustat list --uarch zen4' shows how each resolves\n");
	doc = report_explain_preset_json("branch", "branches,branch-misses");
	assert_string_equal(json_string_value(json_object_get(doc, "kind")), "preset");
	assert_string_equal(json_string_value(json_object_get(doc, "metrics")),
			    "branches,branch-misses");
	json_decref(doc);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l3_misses),
		cmocka_unit_test(test_derived_and_process),
		cmocka_unit_test(test_native_event),
		cmocka_unit_test(test_presets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
