/*
 * Unit tests for analysis/allocsites: constructed results with traced runs
 * whose answer is known. The change per site is the difference of the
 * variants' means over their traced runs (a site missing from a run had 0
 * there), ranked by |Δcalls|; measured runs and traced runs without the
 * marker are ignored; stat ranks by calls.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/allocsites.h"
#include "analysis/analysed.h"
#include "report/profile.h"
#include "result/result.h"

static const char *const sites[] = { "f<main", "g<main", "h<g<main" };

/* calls[v][run][site] (< 0: the site is not in that run), temps = calls / 2. */
static void build(struct result *r, size_t nv, size_t nruns, const double calls[2][2][3])
{
	char *argv[] = { "prog", NULL };
	const char *pre[] = { ALLOC_CALLS, ALLOC_BYTES, ALLOC_TEMPS };

	result_init(r, nv > 1 ? "compare" : "stat");
	result_add_variant(r, "A", argv);
	if (nv > 1)
		result_add_variant(r, "B", argv);
	r->baseline = 0;
	result_add_metric(r, "wall-time", "ns", MSRC_CLOCK);
	result_add_metric(r, ALLOC_SITES, "", MSRC_PROFILE)->hidden = 1;
	for (size_t s = 0; s < 3; s++)
		for (size_t k = 0; k < 3; k++) {
			char name[64];

			snprintf(name, sizeof(name), "%s%s", pre[k], sites[s]);
			result_add_metric(r, name, "", MSRC_PROFILE)->hidden = 1;
		}
	for (size_t i = 0; i < nruns; i++)
		for (size_t v = 0; v < nv; v++) {
			struct result_run *run = result_add_run(r);

			run->variant = (int)v;
			run->traced = 1;
			run->status = RUN_OK;
			run->values[1].valid = 1;
			for (size_t s = 0; s < 3; s++) {
				double c = calls[v][i][s];

				if (c < 0)
					continue;
				for (size_t k = 0; k < 3; k++) {
					run->values[2 + 3 * s + k].valid = 1;
					run->values[2 + 3 * s + k].value = k == 0 ? c : k == 1 ? 16 * c : c / 2;
				}
			}
		}
	/* A measured run with huge counts: never part of the section. */
	struct result_run *m = result_add_run(r);

	m->status = RUN_OK;
	m->values[0].valid = m->values[2].valid = 1;
	m->values[2].value = 1e9;
}

static void test_compare(void **state)
{
	/* B: f unchanged; g 204 and 4 calls in B's two traced runs (mean 104,
	 * Δ +100); h only in A's runs (B's have no value: 0). */
	const double calls[2][2][3] = { { { 10, 4, 6 }, { 10, 4, 6 } },
					{ { 10, 204, -1 }, { 10, 4, -1 } } };
	struct allocsite_table t;
	struct result r;

	(void)state;
	build(&r, 2, 2, calls);
	allocsites_compute(&r, 1, &t);
	assert_int_equal(t.runs_a, 2);
	assert_int_equal(t.runs_b, 2);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.row[0].key, "g<main");	/* Δ +100 */
	assert_true(t.row[0].a[0] == 4 && t.row[0].b[0] == 104);
	assert_true(t.row[0].b[1] - t.row[0].a[1] == 1600);
	assert_true(t.row[0].b[2] - t.row[0].a[2] == 50);
	assert_string_equal(t.row[1].key, "h<g<main");	/* Δ -6: missing = 0 */
	assert_true(t.row[1].a[0] == 6 && t.row[1].b[0] == 0);
	assert_string_equal(t.row[2].key, "f<main");	/* Δ 0 */
	assert_true(t.row[2].a[0] == 10 && t.row[2].b[0] == 10);
	allocsites_release(&t);

	struct analysed an;

	analysed_build(&r, &an);
	json_t *j = allocsites_json(&r, an.sites);
	assert_non_null(j);
	assert_int_equal(json_array_size(j), 1);
	assert_true(json_real_value(json_object_get(json_object_get(
			json_array_get(json_object_get(json_array_get(j, 0), "sites"), 0),
			"calls"), "delta")) == 100);
	json_decref(j);

	struct strbuf out = STRBUF_INIT;
	struct table_opts o = { 0, 0 };

	report_allocsites(&an, &o, &out);
	assert_non_null(strstr(out.buf, "allocations by call site"));
	assert_non_null(strstr(out.buf, "g<main"));
	assert_null(strstr(out.buf, "f<main"));	/* unchanged: not shown */
	strbuf_release(&out);
	analysed_release(&an);
	result_release(&r);
}

static void test_stat_and_none(void **state)
{
	const double calls[2][2][3] = { { { 5, 50, 7 }, { 0 } } };
	struct allocsite_table t;
	struct strbuf out = STRBUF_INIT;
	struct table_opts o = { 0, 0 };
	struct analysed an;
	struct result r;

	(void)state;
	build(&r, 1, 1, calls);
	allocsites_compute(&r, 0, &t);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.row[0].key, "g<main");	/* most calls first */
	assert_string_equal(t.row[1].key, "h<g<main");
	allocsites_release(&t);
	analysed_build(&r, &an);
	report_allocsites(&an, &o, &out);
	assert_non_null(strstr(out.buf, "allocations by call site (1 traced run"));
	strbuf_release(&out);
	analysed_release(&an);
	/* Without the marker (no traced run recorded sites) nothing is shown. */
	r.runs[0].values[1].valid = 0;
	analysed_build(&r, &an);
	report_allocsites(&an, &o, &out);
	assert_int_equal(out.len, 0);
	assert_null(allocsites_json(&r, an.sites));
	analysed_release(&an);
	strbuf_release(&out);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_stat_and_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
