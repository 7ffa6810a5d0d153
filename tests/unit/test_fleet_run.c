/*
 * pmustat fleet's orchestration (campaign/fleet_run.h) without Slurm: the
 * campaign fleet accepts (compare or stat, no -o), the options it looks for
 * before the campaign's first "--", srun's command line, and what the tasks
 * left in a results directory the test writes file by file, judged task by
 * task: a finished task (exit 0 or 3, its result present) is merged; one
 * whose log has no exit line did not finish; one that failed is quoted in
 * its own words; a directory with an earlier fleet's files is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/fleet_run.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_campaign_checks(void **state)
{
	const char *ok[] = { "compare", "-m", "allocs", "--seed=4", "--", "./a", "-o", "x" };
	const char *out[] = { "stat", "-o", "r.json", "--", "true" };
	const char *bad[] = { "demo" };
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(fleet_check_campaign(8, ok, &err), 0);
	assert_true(fleet_campaign_has(8, ok, "seed", 0));
	assert_false(fleet_campaign_has(8, ok, "output", 'o'));	/* -o after "--" is A's */
	assert_int_equal(fleet_check_campaign(5, out, &err), -1);
	assert_string_equal(err.msg, "fleet writes each node's result itself: drop -o/--output");
	assert_int_equal(fleet_check_campaign(1, bad, &err), -1);
	assert_string_equal(err.msg, "fleet runs 'compare' or 'stat', not 'demo'");
}

static void test_srun_argv(void **state)
{
	const char *camp[] = { "compare", "-m", "allocs", "--", "./a", "--", "./b" };
	struct words opts = { 0 };
	char **av;
	struct error err;
	const char *want[] = { "srun", "-N2", "/bin/pmustat", "fleet", "--task-of", "/d", "--",
			       "compare", "--seed", "7", "-m", "allocs", "--", "./a", "--",
			       "./b", NULL };

	(void)state;
	error_clear(&err);
	assert_int_equal(words_append(&opts, "-N2", "--slurm", &err), 0);
	av = fleet_srun_argv("srun", &opts, "/bin/pmustat", "/d", 7, camp, "7");
	for (size_t i = 0; want[i]; i++)
		assert_string_equal(av[i], want[i]);
	assert_null(av[16]);
	strv_free(av);
	words_release(&opts);
}

static void test_collect(void **state)
{
	struct fleet_collected c = { 0 };
	struct error err;

	(void)state;
	put("n1-0.log", "pmustat fleet: task 0 of 4 on node n1 (Slurm job 9)\n"
			"...\npmustat fleet: task 0 exit 0\n");
	put("n1-0.json", "{}");
	put("n2-1.log", "pmustat fleet: task 1 of 4 on node n2 (Slurm job 9)\n"
			"pmustat fleet: task 1 exit 3\n");	/* a regression: finished */
	put("n2-1.json", "{}");
	put("n3-2.log", "pmustat fleet: task 2 of 4 on node n3 (Slurm job 9)\n"
			"error: cannot find 'foo'\npmustat fleet: task 2 exit 2\n");
	put("n4-3.log", "pmustat fleet: task 3 of 4 on node n4 (Slurm job 9)\n");
	fleet_collect(dir, &c, "srun: error: n4: task 3: Killed\n");
	assert_int_equal(c.names.n, 4);
	assert_int_equal(c.ntasks, 4);
	assert_int_equal(c.ok.n, 2);
	assert_non_null(strstr(c.ok.v[1], "/n2-1.json"));
	assert_int_equal(c.failed, 2);
	assert_string_equal(c.errors[0].msg, "task 2 on node 'n3' failed (exit 2): cannot find 'foo'");
	assert_non_null(strstr(c.errors[1].msg, "task 3 on node 'n4' did not finish: "));
	assert_non_null(strstr(c.errors[1].hint, "/n4-3.log"));
	error_clear(&err);
	assert_int_equal(fleet_collect_verdict(dir, &c, 1, "", &err), 1);
	fleet_collected_release(&c);
	/* The directory now holds a fleet's files: refused for the next one. */
	assert_int_equal(fleet_check_dir(dir, &err), -1);
	assert_non_null(strstr(err.msg, "holds an earlier fleet's results"));
}

static void test_nothing_left(void **state)
{
	struct fleet_collected c = { 0 };
	char empty[80];
	struct error err;

	(void)state;
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	error_clear(&err);
	assert_int_equal(fleet_check_dir(empty, &err), 0);	/* created */
	fleet_collect(empty, &c, "");
	assert_int_equal(fleet_collect_verdict(empty, &c, 1, "srun: error: Invalid partition\n",
					       &err), -1);
	assert_non_null(strstr(err.msg, "srun failed (exit 1), no task ran"));
	fleet_collected_release(&c);
	rmdir(empty);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/test_fleet_run.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const files[] = { "n1-0.log", "n1-0.json", "n2-1.log", "n2-1.json",
					     "n3-2.log", "n4-3.log" };
	char path[160];

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_campaign_checks),
		cmocka_unit_test(test_srun_argv),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_nothing_left),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
