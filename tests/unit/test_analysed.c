/*
 * The analysed model (analysis/analysed.h): built once per command, and
 * every output rendered from it. The comparisons are counted where they
 * are computed: this binary is linked with -Wl,--wrap=comparisons_compute
 * (tests/unit/build.mk), so every call from the library and the CLI goes
 * through __wrap_comparisons_compute below, and the commands are driven
 * through the real CLI (its main() renamed pmustat_cli_main). Also: the
 * model holds what the compute functions give, and the result's JSON
 * writer places the model's sections where the document has them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/analysed.h"
#include "core/strbuf.h"
#include "result/json.h"
#include "result/result.h"

int pmustat_cli_main(int argc, const char **argv);

void __real_comparisons_compute(const struct result *r, struct comparison_set *out);

static size_t computed;	/* calls of comparisons_compute since the last reset */

void __wrap_comparisons_compute(const struct result *r, struct comparison_set *out)
{
	computed++;
	__real_comparisons_compute(r, out);
}

/* A result recorded by compare (two variants, warnings of several kinds;
 * tests/fixtures/results/make-warnings.py). */
#define FIXTURE "tests/fixtures/results/warnings.json"

struct dir {
	char path[64];
};

static int setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	strcpy(d->path, "/tmp/test_analysed.XXXXXX");
	if (!mkdtemp(d->path))
		return -1;
	*state = d;
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int teardown(void **state)
{
	struct dir *d = *state;

	nftw(d->path, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(d);
	return 0;
}

static char *in_dir(const struct dir *d, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", d->path, name);
	return strbuf_detach(&sb);
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

/* Run the CLI in a child (its main() closes stdout at the end, as the real
 * one does), its stdout to /dev/null: the exit code, and *count the calls
 * of comparisons_compute the command made. */
static int run_cli(int argc, const char **argv, size_t *count)
{
	int fd[2], status;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int rc;

		close(fd[0]);
		if (!freopen("/dev/null", "w", stdout))
			_exit(99);
		computed = 0;
		rc = pmustat_cli_main(argc, argv);
		if (write(fd[1], &computed, sizeof(computed)) != sizeof(computed))
			_exit(98);
		_exit(rc);
	}
	close(fd[1]);
	*count = SIZE_MAX;
	assert_int_equal(read(fd[0], count, sizeof(*count)), sizeof(*count));
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* `pmustat report` writing the table, the HTML page, the CSV and the JSON
 * document: one computation of the comparisons for all four. */
static void test_report_computes_once(void **state)
{
	struct dir *d = *state;
	char *html = in_dir(d, "r.html"), *csv = in_dir(d, "r.csv"), *json = in_dir(d, "r.json");
	const char *argv[] = { "pmustat", "report", FIXTURE, "--html", html, "--csv", csv,
			       "-o", json, "-v", NULL };
	size_t count;
	json_t *doc;

	assert_int_equal(run_cli(10, argv, &count), 0);
	assert_int_equal(count, 1);
	assert_true(file_size(html) > 0 && file_size(csv) > 0);
	doc = json_load_file(json, 0, NULL);
	assert_non_null(doc);
	assert_true(json_array_size(json_object_get(doc, "comparisons")) > 0);
	json_decref(doc);
	free(html);
	free(csv);
	free(json);
}

/* `pmustat compare` of two real programs writing the JSON document, the
 * CSV and markdown besides its table: its final comparisons are computed
 * once (the stopping rule looks at comparisons_compute_plain, and
 * --blocks runs no rule at all). */
static void test_compare_computes_once(void **state)
{
	struct dir *d = *state;
	char self[PATH_MAX], spawner[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *json, *csv, *md;
	size_t count;
	json_t *doc;
	int rc;

	assert_true(n > 0);
	self[n] = 0;
	/* the spawn server next to pmustat (build/tests/..; unit/build.mk
	 * builds it before this test) */
	snprintf(spawner, sizeof(spawner), "%s/../pmustat-spawner", dirname(self));
	assert_int_equal(access(spawner, X_OK), 0);
	setenv("PMUSTAT_SPAWNER", spawner, 1);
	json = in_dir(d, "c.json");
	csv = in_dir(d, "c.csv");
	md = in_dir(d, "c.md");
	const char *argv[] = { "pmustat", "compare", "--blocks", "3", "-o", json, "--csv", csv,
			       "--export-markdown", md, "--fail-on-regression", "wall-time",
			       "--", "true", "--", "true", NULL };

	rc = run_cli(16, argv, &count);
	/* 3: wall-time came out SLOWER on this host's noise; either way the
	 * regression check ran, from the same comparisons */
	assert_true(rc == 0 || rc == 3);
	assert_int_equal(count, 1);
	assert_true(file_size(csv) > 0 && file_size(md) > 0);
	doc = json_load_file(json, 0, NULL);
	assert_non_null(doc);
	assert_true(json_array_size(json_object_get(doc, "comparisons")) > 0);
	json_decref(doc);
	free(json);
	free(csv);
	free(md);
}

/* The model holds what the compute functions give on their own. */
static void test_model_matches_computes(void **state)
{
	struct result r;
	struct analysed a;
	struct comparison_set s;
	struct error err;

	(void)state;
	assert_int_equal(report_json_read(&r, FIXTURE, &err), 0);
	computed = 0;
	analysed_build(&r, &a);
	assert_int_equal(computed, 1);
	assert_ptr_equal(a.r, &r);
	comparisons_compute(&r, &s);
	assert_int_equal(a.cmp.n, s.n);
	assert_true(s.n > 0);
	for (size_t i = 0; i < s.n; i++) {
		assert_int_equal(a.cmp.c[i].metric, s.c[i].metric);
		assert_int_equal(a.cmp.c[i].verdict, s.c[i].verdict);
		assert_memory_equal(&a.cmp.c[i].ratio, &s.c[i].ratio, sizeof(double));
	}
	comparisons_release(&s);
	assert_true(a.an.nsum > 0);
	assert_true(a.warnings.n > 0);	/* the fixture raises warnings */
	analysed_release(&a);
	result_release(&r);
}

/* The JSON writer computes nothing: without sections the document is the
 * raw result; with them, each section sits where the schema has it. */
static void test_json_places_sections(void **state)
{
	static const char *const order[] = { "runs", "summaries", "warning_groups", "comparison",
					     "comparisons", "notes" };
	struct result r;
	struct analysed a;
	struct error err;
	json_t *raw, *doc, *sections;
	const char *key;
	json_t *v;
	size_t k = 0;

	(void)state;
	assert_int_equal(report_json_read(&r, FIXTURE, &err), 0);
	computed = 0;
	raw = report_json(&r, NULL);
	assert_int_equal(computed, 0);
	assert_null(json_object_get(raw, "summaries"));
	assert_null(json_object_get(raw, "comparisons"));
	assert_non_null(json_object_get(raw, "runs"));
	analysed_build(&r, &a);
	sections = analysed_json(&a);
	doc = report_json(&r, sections);
	json_object_foreach(doc, key, v)
		if (k < 6 && !strcmp(key, order[k]))
			k++;
	assert_int_equal(k, 6);	/* every one, in that order */
	json_decref(doc);
	json_decref(sections);
	json_decref(raw);
	analysed_release(&a);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_matches_computes),
		cmocka_unit_test(test_json_places_sections),
		cmocka_unit_test_setup_teardown(test_report_computes_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_computes_once, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
