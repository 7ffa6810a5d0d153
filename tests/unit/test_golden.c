/*
 * Golden files for the renderers: a recorded result in, the analysed
 * model built once, and the text table, -v's full view, the markdown table
 * and the CSV out, each compared byte for byte with tests/golden/NAME.
 * Inputs: tests/fixtures/results/warnings.json (a two-variant compare with
 * warnings of several kinds, tests/fixtures/results/make-warnings.py) and
 * tests/golden/stat.json (`pmustat stat -r 3 -o stat.json -- true`,
 * recorded on this project's build host). After an intended change of the
 * output, `make golden-update` (PMUSTAT_GOLDEN_UPDATE=1) rewrites the
 * expected files; review their diff before committing it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysed.h"
#include "core/strbuf.h"
#include "report/compare_table.h"
#include "report/csv.h"
#include "report/table.h"
#include "result/json.h"

#define GOLDEN "tests/golden/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return strbuf_detach(&sb);
}

/* got against the file name; with PMUSTAT_GOLDEN_UPDATE=1 the file is
 * written instead. The first differing line is shown on failure. */
static void golden(const char *name, const char *got, size_t len)
{
	char path[256];
	size_t want_len = 0, line = 1, i;
	char *want;

	snprintf(path, sizeof(path), GOLDEN "%s", name);
	if (getenv("PMUSTAT_GOLDEN_UPDATE") && !strcmp(getenv("PMUSTAT_GOLDEN_UPDATE"), "1")) {
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		assert_int_equal(fwrite(got, 1, len, f), len);
		assert_int_equal(fclose(f), 0);
		print_message("wrote %s\n", path);
		return;
	}
	want = slurp(path, &want_len);
	if (!want)
		fail_msg("%s is missing: make golden-update writes it", path);
	for (i = 0; i < len && i < want_len && got[i] == want[i]; i++)
		line += got[i] == '\n';
	if (i < len || i < want_len)
		fail_msg("%s differs from line %zu on (make golden-update rewrites it after an "
			 "intended change); got:\n%s", path, line, got);
	free(want);
}

static void load(struct result *r, const char *path)
{
	struct error err;

	error_clear(&err);
	if (report_json_read(r, path, &err))
		fail_msg("%s: %s", path, err.msg);
}

static void csv_golden(const struct result *r, const char *name)
{
	char tmp[] = "/tmp/test_golden.XXXXXX";
	int fd = mkstemp(tmp);
	struct error err;
	size_t len;
	char *got;

	assert_true(fd >= 0);
	close(fd);
	error_clear(&err);
	assert_int_equal(csv_write_result(r, tmp, &err), 0);
	got = slurp(tmp, &len);
	unlink(tmp);
	assert_non_null(got);
	golden(name, got, len);
	free(got);
}

static void test_compare(void **state)
{
	const struct table_opts plain = { 0 }, full = { .verbose = 1 }, md = { .markdown = 1 };
	struct strbuf out = STRBUF_INIT;
	struct result r;
	struct analysed a;

	(void)state;
	load(&r, "tests/fixtures/results/warnings.json");
	analysed_build(&r, &a);
	report_compare_table(&a, &plain, &out);
	golden("compare.txt", out.buf, out.len);
	strbuf_reset(&out);
	report_compare_table(&a, &full, &out);
	golden("compare-v.txt", out.buf, out.len);
	strbuf_reset(&out);
	report_compare_table(&a, &md, &out);
	golden("compare.md", out.buf, out.len);
	strbuf_release(&out);
	csv_golden(&r, "compare.csv");
	analysed_release(&a);
	result_release(&r);
}

static void test_stat(void **state)
{
	const struct table_opts plain = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct result r;
	struct analysed a;

	(void)state;
	load(&r, GOLDEN "stat.json");
	analysed_build(&r, &a);
	report_stat_table(&a, &plain, &out);
	golden("stat.txt", out.buf, out.len);
	strbuf_release(&out);
	analysed_release(&a);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_stat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
