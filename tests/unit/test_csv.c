/*
 * The CSV writer on its file: it appends whole rows per run, refuses a path
 * that is not a regular file without touching what is there, and reports a
 * failed write as an error instead of dropping rows silently. The write
 * failure comes from RLIMIT_FSIZE (EFBIG), which behaves like a full disk
 * on any file system. The `instrumented` column tells a perturbing
 * mechanism's runs (empty wall-time, their time under wall-time:with-NAME)
 * from the timed ones.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "report/csv.h"

struct fixture {
	char dir[64];
	char csv[96];
	char link[96];
	char target[96];
	struct result r;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *argv[] = { "true", NULL };

	strcpy(f->dir, "/tmp/test_csv.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->csv, sizeof(f->csv), "%s/runs.csv", f->dir);
	snprintf(f->link, sizeof(f->link), "%s/link.csv", f->dir);
	snprintf(f->target, sizeof(f->target), "%s/target", f->dir);
	result_init(&f->r, "stat");
	result_add_variant(&f->r, "A", argv);
	result_add_metric(&f->r, "wall-time", "ns", MSRC_CLOCK);
	for (int i = 0; i < 3; i++) {
		struct result_run *run = result_add_run(&f->r);

		run->values[0].valid = 1;
		run->values[0].value = 1000 + i;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->csv);
	unlink(f->link);
	unlink(f->target);
	rmdir(f->dir);
	result_release(&f->r);
	free(f);
	return 0;
}

static size_t count_lines(const char *path)
{
	FILE *fp = fopen(path, "r");
	size_t n = 0;
	int c;

	assert_non_null(fp);
	while ((c = fgetc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

static void test_rows_per_run(void **state)
{
	struct fixture *f = *state;
	struct csv_writer w;
	struct error err;

	error_clear(&err);
	assert_int_equal(csv_write_result(&f->r, f->csv, &err), 0);
	assert_int_equal(count_lines(f->csv), 4);
	/* Written again: truncated first, not appended to. */
	assert_int_equal(csv_open(&w, f->csv, &err), 0);
	assert_int_equal(csv_write_run(&w, &f->r, &f->r.runs[0], &err), 0);
	assert_int_equal(count_lines(f->csv), 2);
	assert_int_equal(csv_close(&w, &err), 0);
}

static void test_refuses_link(void **state)
{
	struct fixture *f = *state;
	struct csv_writer w;
	struct error err;
	FILE *fp = fopen(f->target, "w");

	error_clear(&err);
	assert_non_null(fp);
	fputs("precious\n", fp);
	fclose(fp);
	assert_int_equal(symlink(f->target, f->link), 0);
	assert_int_equal(csv_open(&w, f->link, &err), -1);
	assert_null(w.f);
	assert_non_null(strstr(err.msg, "is not a regular file (a symbolic link)"));
	assert_int_equal(count_lines(f->target), 1);
	assert_int_equal(csv_open(&w, "/dev/null", &err), -1);
	assert_null(w.f);
}

static void test_write_failure_is_an_error(void **state)
{
	struct fixture *f = *state;
	struct csv_writer w;
	struct error err;
	struct rlimit old, lim;
	char want[160];
	int rc = 0;

	error_clear(&err);
	assert_int_equal(csv_open(&w, f->csv, &err), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 150;	/* the header and about one row */
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (size_t i = 0; i < f->r.nruns && !rc; i++)
		rc = csv_write_run(&w, &f->r, &f->r.runs[i], &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rc, -1);
	assert_int_equal(err.kind, ERR_RUNTIME);
	snprintf(want, sizeof(want), "cannot write '%s': %s", f->csv, strerror(EFBIG));
	assert_string_equal(err.msg, want);
	/* The stream stays failed: closing says so too. */
	assert_int_equal(csv_close(&w, &err), -1);
}

/* The whole file as a string (small files only). */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 4096);

	assert_non_null(fp);
	assert_true(fread(buf, 1, 4095, fp) > 0);
	fclose(fp);
	return buf;
}

static void test_instrumented_column(void **state)
{
	struct fixture *f = *state;
	struct error err;
	char *text;

	error_clear(&err);
	result_add_metric(&f->r, "wall-time:with-calls", "ns", MSRC_CLOCK)->hidden = 1;
	f->r.runs[2].values[0].valid = 0;	/* an instrumented run: no verdict wall time */
	f->r.runs[2].values[1].valid = 1;
	f->r.runs[2].values[1].value = 1500;
	f->r.runs[2].instrumented = 1;
	assert_int_equal(csv_write_result(&f->r, f->csv, &err), 0);
	text = slurp(f->csv);
	assert_non_null(strstr(text, "run,variant,block,position,group,warmup,instrumented,status,"
				     "exit_code,metric,value,unit,time_enabled,time_running\n"));
	/* run 0: timed, its wall time; run 2: instrumented, wall-time empty */
	assert_non_null(strstr(text, "\n0,A,0,0,0,0,0,ok,0,wall-time,1000,ns,,\n"));
	assert_non_null(strstr(text, "\n2,A,0,0,0,0,1,ok,0,wall-time,,ns,,\n"));
	assert_non_null(strstr(text, "\n2,A,0,0,0,0,1,ok,0,wall-time:with-calls,1500,ns,,\n"));
	free(text);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_rows_per_run),
		T(test_refuses_link),
		T(test_write_failure_is_an_error),
		T(test_instrumented_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
