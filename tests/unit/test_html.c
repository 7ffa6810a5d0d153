/*
 * Unit tests for the HTML page (report/html.h, html_common.h) on results
 * built value by value: axis ticks are round numbers in the unit a person
 * reads and cover the data; text from the result is escaped (markup and
 * control characters); the verdict rows carry the verdict's class; the
 * flame graph is drawn from stack: metrics when there are any, else from
 * self: metrics with a note saying call chains were not recorded.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/attribution.h"
#include "report/html.h"
#include "report/html_common.h"
#include "report/html_flame.h"
#include "result/result.h"

static void axis_ticks_ok(const struct html_axis *a, double lo, double hi)
{
	double t[HTML_AXIS_MAX_TICKS];
	size_t n = html_axis_ticks(a, t, HTML_AXIS_MAX_TICKS);

	assert_true(n >= 2 && n <= 12);
	assert_true(a->lo <= lo && a->hi >= hi);
	assert_true(t[0] >= a->lo - 1e-9 * a->step && t[n - 1] <= a->hi + 1e-9 * a->step);
	for (size_t i = 1; i < n; i++)
		assert_true(fabs(t[i] - t[i - 1] - a->step) < 1e-6 * a->step);
}

static void label_is(const struct html_axis *a, double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	html_axis_label(&sb, a, v);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_axis_time(void **state)
{
	struct html_axis a;

	(void)state;
	/* Half a second to 1.1 s of wall time: ticks every 0.1 s. */
	html_axis_init(&a, "ns", 5.3e8, 1.09e9, 0);
	axis_ticks_ok(&a, 5.3e8, 1.09e9);
	assert_string_equal(a.us.suffix, "s");
	assert_true(fabs(a.step - 1e8) < 1);
	label_is(&a, 6e8, "0.6 s");
	assert_string_equal(html_axis_unit(&a, "ns"), "s");
	/* 90 to 190 ms: ticks in ms, no decimals. */
	html_axis_init(&a, "ns", 9.0e7, 1.9e8, 0);
	axis_ticks_ok(&a, 9.0e7, 1.9e8);
	label_is(&a, 1.2e8, "120 ms");
	/* A constant: the domain still has width. */
	html_axis_init(&a, "ns", 2e6, 2e6, 0);
	axis_ticks_ok(&a, 2e6, 2e6);
}

static void test_axis_counts(void **state)
{
	struct html_axis a;

	(void)state;
	html_axis_init(&a, "instructions", 1.2e9, 1.9e9, 0);
	axis_ticks_ok(&a, 1.2e9, 1.9e9);
	label_is(&a, 1.5e9, "1.5G");
	assert_string_equal(html_axis_unit(&a, "instructions"), "instructions");
	html_axis_init(&a, "", 57, 59, 0);
	axis_ticks_ok(&a, 57, 59);
	label_is(&a, 58, "58.0");
	assert_string_equal(html_axis_unit(&a, ""), "count");
	html_axis_init(&a, "KiB", 1300, 1400, 0);
	label_is(&a, 1331.2, "1.30 MiB");
}

static void test_axis_index(void **state)
{
	struct html_axis a;
	double t[HTML_AXIS_MAX_TICKS];
	size_t n;

	(void)state;
	html_axis_index(&a, 3);
	n = html_axis_ticks(&a, t, HTML_AXIS_MAX_TICKS);
	for (size_t i = 0; i < n; i++)
		assert_true(t[i] == floor(t[i]));
	assert_true(a.lo <= 1 && a.hi >= 3);
	label_is(&a, 2, "2");
	html_axis_index(&a, 140);
	axis_ticks_ok(&a, 1, 140);
	label_is(&a, 100, "100");
}

static void test_axis_ratio(void **state)
{
	struct html_axis a;
	double t[HTML_AXIS_MAX_TICKS];
	size_t n;

	(void)state;
	html_axis_init(&a, "ratio", 0.95, 1.12, 1);
	axis_ticks_ok(&a, 0.95, 1.12);
	assert_true(html_axis_pos(&a, 1, 0, 100) > 0 && html_axis_pos(&a, 1, 0, 100) < 100);
	/* Wide: 1-2-5 ticks per decade, log-placed. */
	html_axis_init(&a, "ratio", 0.05, 3, 1);
	n = html_axis_ticks(&a, t, HTML_AXIS_MAX_TICKS);
	assert_true(a.lo <= 0.05 && a.hi >= 3);
	assert_true(n >= 6);
	assert_true(fabs(t[0] - 0.01) < 1e-12 && fabs(t[1] - 0.02) < 1e-12);
	assert_true(fabs(html_axis_pos(&a, 1, 0, 300) - 200) < 1e-9);
	label_is(&a, 0.5, "0.5");
}

static void test_text(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	html_text(&sb, "<b>&\"'\x1b[2J\n");
	assert_string_equal(sb.buf, "&lt;b&gt;&amp;&quot;&#39;\\x1b[2J\\x0a");
	strbuf_reset(&sb);
	html_text_cut(&sb, "αβγδ", 3);
	assert_string_equal(sb.buf, "αβ…");
	strbuf_reset(&sb);
	html_text_cut(&sb, "αβ", 2);
	assert_string_equal(sb.buf, "αβ");
	strbuf_reset(&sb);
	html_text_lines(&sb, "a<\nb\x01");
	assert_string_equal(sb.buf, "a&lt;\nb\\x01");
	strbuf_release(&sb);
}

/* A terminal table drawn as HTML: header row, classes, the whole text of a
 * shortened cell as its title, a spanning row, everything escaped. */
static void test_texttable(void **state)
{
	static const char *const classes[] = { "fn", NULL, NULL };
	struct texttable t;
	struct strbuf sb = STRBUF_INIT;
	size_t row;

	(void)state;
	texttable_init(&t, 3, "llr");
	t.classes = classes;
	row = texttable_row(&t);
	texttable_set(&t, row, 0, "function");
	texttable_set(&t, row, 1, "where");
	texttable_set(&t, row, 2, "Δ ms");
	row = texttable_row(&t);
	texttable_set(&t, row, 0, "std::vector<…>::push");
	texttable_title(&t, row, 0, "std::vector<int>::push");
	texttable_set(&t, row, 1, "a.c");
	texttable_title(&t, row, 1, "a.c");
	texttable_set(&t, row, 2, "+1.0");
	row = texttable_row(&t);
	texttable_set(&t, row, 0, "x\x1b[2J");
	texttable_set(&t, row, 1, "not counted");
	texttable_span(&t, row);
	html_texttable(&sb, &t, "profile");
	assert_string_equal(sb.buf,
		"<table class=\"profile\"><thead><tr><th class=\"fn\">function</th><th>where</th>"
		"<th class=\"num\">Δ ms</th></tr></thead>\n<tbody>\n"
		"<tr><td class=\"fn\" title=\"std::vector&lt;int&gt;::push\">std::vector&lt;…&gt;::push"
		"</td><td>a.c</td><td class=\"num\">+1.0</td></tr>\n"
		"<tr><td class=\"fn\">x\\x1b[2J</td><td colspan=\"2\">not counted</td></tr>\n"
		"</tbody></table>\n");
	/* The terminal draws the same model without the titles. */
	strbuf_reset(&sb);
	texttable_render(&t, 0, &sb);
	assert_null(strstr(sb.buf, "<int>"));
	assert_non_null(strstr(sb.buf, "std::vector<…>::push"));
	strbuf_release(&sb);
	texttable_release(&t);
}

/*
 * Two variants named with markup and a terminal sequence; B takes twice
 * A's wall time in every block (exactly: the verdict cannot be anything
 * but slower), spent in function "slow<fn>" on the stack main;slow<fn>
 * when stacks is set.
 */
static void build(struct result *r, int stacks)
{
	char *argv[] = { "prog", "--x=<&>", NULL };
	const char *names[] = { "base<script>", "var\x1b]0;t\x07" };

	result_init(r, "compare");
	result_add_variant(r, names[0], argv);
	result_add_variant(r, names[1], argv);
	r->baseline = 0;
	r->noise_band = 0.01;
	r->primary = xstrdup("wall-time");
	r->complete = 1;
	result_add_metric(r, "wall-time", "ns", MSRC_CLOCK);
	result_add_metric(r, PROFILE_SAMPLES, "", MSRC_PROFILE)->hidden = 1;
	result_add_metric(r, PROFILE_SELF "slow<fn>", "ns", MSRC_PROFILE)->hidden = 1;
	result_add_metric(r, PROFILE_SELF "main", "ns", MSRC_PROFILE)->hidden = 1;
	if (stacks) {
		result_add_metric(r, PROFILE_STACK "main;slow<fn>", "ns", MSRC_PROFILE)->hidden = 1;
		result_add_metric(r, PROFILE_STACK "main", "ns", MSRC_PROFILE)->hidden = 1;
	}
	for (int b = 0; b < 8; b++)
		for (int v = 0; v < 2; v++) {
			struct result_run *run = result_add_run(r);
			double base = 1e8 * (1 + 0.01 * b);

			run->block = b;
			run->position = v;
			run->variant = v;
			run->status = RUN_OK;
			for (size_t m = 0; m < r->nmetrics; m++)
				run->values[m].valid = 1;
			run->values[0].value = base * (v ? 2 : 1);
			run->values[1].value = 100;
			run->values[2].value = base * (v ? 1.5 : 0.5);
			run->values[3].value = base * 0.5;
			if (stacks) {
				run->values[4].value = run->values[2].value;
				run->values[5].value = run->values[3].value;
			}
		}
	result_add_note(r, NOTE_WARNING, "wall-time", "try <less>", "a note with <tags> & \x1b[31m");
}

static void page(const struct result *r, struct strbuf *out)
{
	struct analysed an;

	analysed_build(r, &an);
	report_html(&an, "the table\n\x1b[1;31mSLOWER\x1b[0m\n", out);
	analysed_release(&an);
}

static void test_page_escapes(void **state)
{
	struct result r;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	build(&r, 1);
	page(&r, &sb);
	/* the one script is the flame graphs' own, after the last graph */
	assert_non_null(strstr(sb.buf, "</svg>\n<p class=\"flame-status\""));
	assert_non_null(strstr(sb.buf, "<script>"));
	assert_null(strstr(strstr(sb.buf, "<script>") + 1, "<script"));
	assert_non_null(strstr(sb.buf, "id=\"flame-1-base\""));
	assert_true(strstr(sb.buf, "<script>") > strstr(sb.buf, "id=\"flame-1-base\""));
	assert_null(strstr(sb.buf, "<tags>"));
	assert_null(strstr(sb.buf, "\x1b"));
	assert_null(strstr(sb.buf, "\x07"));
	assert_non_null(strstr(sb.buf, "base&lt;script&gt;"));
	assert_non_null(strstr(sb.buf, "var\\x1b]0;t\\x07"));
	assert_non_null(strstr(sb.buf, "a note with &lt;tags&gt; &amp; \\x1b[31m"));
	assert_non_null(strstr(sb.buf, "hint: try &lt;less&gt;"));
	assert_non_null(strstr(sb.buf, "--x=&lt;&amp;&gt;"));
	assert_non_null(strstr(sb.buf, "slow&lt;fn&gt;"));
	assert_non_null(strstr(sb.buf, "\\x1b[1;31mSLOWER"));
	strbuf_release(&sb);
	result_release(&r);
}

static void test_page_parts(void **state)
{
	struct result r;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	build(&r, 1);
	page(&r, &sb);
	/* The verdict row and the headline are styled as slower. */
	assert_non_null(strstr(sb.buf, "<tr class=\"v-up\"><td>wall-time</td>"));
	assert_non_null(strstr(sb.buf, "<p class=\"headline v-up\">"));
	assert_non_null(strstr(sb.buf, "<td class=\"verdict\">SLOWER</td>"));
	assert_non_null(strstr(sb.buf, "id=\"forest\""));
	assert_non_null(strstr(sb.buf, "class=\"plot dist\" id=\"dist-0\""));
	assert_non_null(strstr(sb.buf, "class=\"plot runorder\" id=\"runs-0\""));
	assert_non_null(strstr(sb.buf, ">wall-time (ms)</text>"));
	assert_non_null(strstr(sb.buf, "<section id=\"profile\">"));
	/* Stacks recorded: the graph has them and no fallback note. */
	assert_non_null(strstr(sb.buf, "class=\"flame diff\" id=\"flame-1\""));
	assert_null(strstr(sb.buf, "flame-flat"));
	assert_non_null(strstr(sb.buf, "<title>slow&lt;fn&gt;&#10;"));
	/* The frame that doubled is the most changed: fully saturated red. */
	assert_non_null(strstr(sb.buf, "fill=\"#ff2828\"/><text"));
	strbuf_release(&sb);
	result_release(&r);
}

static void test_page_flat(void **state)
{
	struct result r;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	build(&r, 0);
	page(&r, &sb);
	assert_non_null(strstr(sb.buf, "class=\"note flame-flat\""));
	assert_non_null(strstr(sb.buf, "<title>slow&lt;fn&gt;&#10;"));
	strbuf_release(&sb);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_axis_time),
		cmocka_unit_test(test_axis_counts),
		cmocka_unit_test(test_axis_index),
		cmocka_unit_test(test_axis_ratio),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_texttable),
		cmocka_unit_test(test_page_escapes),
		cmocka_unit_test(test_page_parts),
		cmocka_unit_test(test_page_flat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
