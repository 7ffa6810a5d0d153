/*
 * Unit tests for backend/regions, the tool's side of the region markers:
 * the encoding of events for the child (golden strings), the child's
 * environment, parsing and merging of report lines (including the broken
 * ones a killed child leaves), and one real run: measure_run with the
 * prepared environment on build/regions-prog, which links libpmustat, so the
 * hand-off through the inherited memory file is exercised exactly as a
 * campaign will use it. Only software events are counted (these machines
 * have no hardware PMU).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/regions.h"
#include "core/strbuf.h"
#include "run/measure.h"

static void parse_ev(const char *s, struct event_spec *ev)
{
	struct error err;

	error_clear(&err);
	if (event_parse(NULL, s, ev, &err))
		fail_msg("'%s': %s", s, err.msg);
}

static void test_encode_attr(void **state)
{
	struct event_spec ev;
	char buf[128];

	(void)state;
	parse_ev("task-clock", &ev);
	regions_encode_attr(&ev.attr, 0, buf, sizeof(buf));
	assert_string_equal(buf, "1:0x1:0:0:0:0");
	event_spec_release(&ev);
	parse_ev("instructions:u", &ev);
	regions_encode_attr(&ev.attr, 3, buf, sizeof(buf));
	assert_string_equal(buf, "0:0x1:0:0:0x26:3");	/* kernel, hv, guest excluded */
	event_spec_release(&ev);
	parse_ev("r01c2", &ev);
	ev.attr.config1 = 0x10;
	ev.attr.exclude_user = 1;
	regions_encode_attr(&ev.attr, 1, buf, sizeof(buf));
	assert_string_equal(buf, "4:0x1c2:0x10:0:0x1:1");
	event_spec_release(&ev);
}

static void test_prepare(void **state)
{
	struct event_spec ev[3];
	size_t group[3] = { 0, 0, 1 };	/* event 2 names a member as leader: alone */
	struct regions_handoff h;
	struct error err;
	struct stat st, via_path;
	char want[96];
	int pfd;

	(void)state;
	parse_ev("cycles", &ev[0]);
	parse_ev("instructions", &ev[1]);
	parse_ev("page-faults", &ev[2]);
	assert_int_equal(regions_prepare(&h, ev, group, 3, &err), 0);
	assert_true(h.fd > 2);
	assert_int_equal(fcntl(h.fd, F_GETFD) & FD_CLOEXEC, 0);	/* a forked child inherits it */
	assert_int_equal(fstat(h.fd, &st), 0);
	snprintf(want, sizeof(want), "PMUSTAT_REGION_FD=%d:%llu", h.fd, (unsigned long long)st.st_ino);
	assert_string_equal(h.vars[0], want);
	snprintf(want, sizeof(want), "PMUSTAT_REGION_PATH=/proc/%ld/fd/%d", (long)getpid(), h.fd);
	assert_string_equal(h.vars[1], want);
	/* the path reaches the same file (what a child of the spawn server opens) */
	pfd = open(h.vars[1] + strlen("PMUSTAT_REGION_PATH="), O_WRONLY | O_APPEND);
	assert_true(pfd >= 0);
	assert_int_equal(fstat(pfd, &via_path), 0);
	assert_int_equal(via_path.st_ino, st.st_ino);
	close(pfd);
	assert_string_equal(h.vars[2], "PMUSTAT_REGION_ATTRS=0:0:0:0:0:0,0:0x1:0:0:0:0,1:0x2:0:0:0:2");
	assert_null(h.vars[3]);
	assert_int_equal(h.nevents, 3);
	regions_release(&h);
	assert_int_equal(h.fd, -1);

	assert_int_equal(regions_prepare(&h, ev, NULL, 3, &err), 0);
	assert_string_equal(h.vars[2], "PMUSTAT_REGION_ATTRS=0:0:0:0:0:0,0:0x1:0:0:0:1,1:0x2:0:0:0:2");
	regions_release(&h);

	assert_int_equal(regions_prepare(&h, ev, NULL, 0, &err), 0);
	assert_string_equal(h.vars[2], "PMUSTAT_REGION_ATTRS=");
	regions_release(&h);
	for (int i = 0; i < 3; i++)
		event_spec_release(&ev[i]);
}

static void test_prepare_too_many(void **state)
{
	struct event_spec ev[17];
	struct regions_handoff h;
	struct error err;

	(void)state;
	for (int i = 0; i < 17; i++)
		parse_ev("task-clock", &ev[i]);
	error_clear(&err);
	assert_int_equal(regions_prepare(&h, ev, NULL, 17, &err), -1);
	assert_string_equal(err.msg, "regions count at most 16 events, 17 are planned");
	assert_string_equal(err.hint, "name fewer events with -e/-m");
	assert_int_equal(err.kind, ERR_USAGE);
	regions_release(&h);
	for (int i = 0; i < 17; i++)
		event_spec_release(&ev[i]);
}

static void test_env(void **state)
{
	char *base[] = { "PATH=/bin", "PMUSTAT_REGION_FD=99", "PMUSTAT_REGION_ATTRS=1:1",
			 "PMUSTAT_EVENTS=cycles", "PMUSTAT_REGION_PATH=/x", "HOME=/root", NULL };
	struct regions_handoff h;
	struct error err;
	char **env;
	int n = 0;

	(void)state;
	assert_int_equal(regions_prepare(&h, NULL, NULL, 0, &err), 0);
	env = regions_env(&h, base);
	while (env[n])
		n++;
	assert_int_equal(n, 6);
	assert_string_equal(env[0], "PATH=/bin");
	assert_string_equal(env[1], "PMUSTAT_EVENTS=cycles");	/* the library prefers tool mode */
	assert_string_equal(env[2], "HOME=/root");
	assert_ptr_equal(env[3], h.vars[0]);
	assert_ptr_equal(env[4], h.vars[1]);
	assert_ptr_equal(env[5], h.vars[2]);
	regions_env_free(env);
	regions_release(&h);
}

#define EV2 "\"events\":[{\"name\":\"a\",\"failed_threads\":0},{\"name\":\"b\",\"failed_threads\":0}]"
#define HDR "{\"schema\":\"pmustat.regions/1\",\"pid\":1,\"mode\":\"pmustat\",\"threads\":1," \
	    "\"dropped_entries\":0,\"read_errors\":0,"

static const char two_procs[] =
	HDR EV2 ",\"regions\":["
	"{\"name\":\"synth\",\"count\":3,\"threads\":2,\"unbalanced\":0,\"open\":0,\"counters\":["
	"{\"event\":\"a\",\"value\":100,\"time_enabled\":1000,\"time_running\":900},"
	"{\"event\":\"b\",\"value\":null}]},"
	"{\"name\":\"io\",\"count\":1,\"threads\":1,\"unbalanced\":2,\"open\":1,\"counters\":["
	"{\"event\":\"a\",\"value\":5,\"time_enabled\":6,\"time_running\":6},"
	"{\"event\":\"b\",\"value\":7,\"time_enabled\":8,\"time_running\":8}]}]}\n"
	HDR "\"dropped_entries\":4," EV2 ",\"regions\":["
	"{\"name\":\"synth\",\"count\":2,\"threads\":1,\"unbalanced\":0,\"open\":0,\"counters\":["
	"{\"event\":\"a\",\"value\":50,\"time_enabled\":500,\"time_running\":500},"
	"{\"event\":\"b\",\"value\":9,\"time_enabled\":500,\"time_running\":400}]}]}";	/* no final \n */

static void test_parse_merge(void **state)
{
	struct regions_result res;
	const struct region_row *r;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(regions_parse(two_procs, strlen(two_procs), 2, &res), 0);
	assert_null(res.problem);
	assert_int_equal(res.nreports, 2);
	assert_int_equal(res.dropped, 4);
	assert_int_equal(res.nrows, 2);
	r = &res.rows[0];
	assert_string_equal(r->name, "synth");
	assert_int_equal(r->count, 5);
	assert_int_equal(r->threads, 3);
	assert_true(r->values[0].valid);
	assert_int_equal(r->values[0].value, 150);
	assert_int_equal(r->values[0].enabled, 1500);
	assert_int_equal(r->values[0].running, 1400);
	assert_true(r->values[1].valid);	/* counted in the second process only */
	assert_int_equal(r->values[1].value, 9);
	r = &res.rows[1];
	assert_string_equal(r->name, "io");
	assert_int_equal(r->count, 1);
	assert_int_equal(r->unbalanced, 2);
	assert_int_equal(r->open, 1);
	assert_int_equal(r->values[1].value, 7);
	regions_result_release(&res);
}

static void test_parse_not_counted(void **state)
{
	static const char line[] =
		HDR "\"events\":[{\"name\":\"cycles\",\"failed_threads\":1,\"error\":\"No such file or directory\"}],"
		"\"regions\":[{\"name\":\"r\",\"count\":1,\"threads\":1,\"unbalanced\":0,\"open\":0,"
		"\"counters\":[{\"event\":\"cycles\",\"value\":null}]}]}\n";
	struct regions_result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	regions_parse(line, strlen(line), 1, &res);
	assert_int_equal(res.nrows, 1);
	assert_int_equal(res.rows[0].count, 1);
	assert_false(res.rows[0].values[0].valid);
	assert_string_equal(res.problem,
			    "event 0 did not open inside the program: No such file or directory");
	regions_result_release(&res);
}

static void test_parse_broken(void **state)
{
	static const char text[] =
		"{\"schema\":\"pmustat.regions/1\",\"pid\":1,\"mode\":\"pmustat\",\"thre\n"	/* cut */
		HDR EV2 ",\"regions\":[{\"name\":\"ok\",\"count\":1,\"counters\":[]}]}\n";
	static const char wrong_n[] = HDR EV2 ",\"regions\":[]}\n";
	static const char wrong_schema[] = "{\"schema\":\"pmustat.regions/9\"}\n";
	static const char lib_error[] =
		"{\"schema\":\"pmustat.regions/1\",\"pid\":7,\"mode\":\"pmustat\",\"error\":\"bad event item 'x'\"}\n";
	struct regions_result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	regions_parse(text, strlen(text), 2, &res);
	assert_int_equal(res.nreports, 1);	/* the good line still counts */
	assert_int_equal(res.nrows, 1);
	assert_string_equal(res.rows[0].name, "ok");
	assert_non_null(strstr(res.problem, "region report line 1 is not JSON"));
	assert_string_equal(res.problem_hint, "the program may have been killed while writing it");
	regions_result_release(&res);

	memset(&res, 0, sizeof(res));
	regions_parse(wrong_n, strlen(wrong_n), 3, &res);
	assert_int_equal(res.nreports, 0);
	assert_string_equal(res.problem, "region report line 1: 2 events, expected 3");
	regions_result_release(&res);

	memset(&res, 0, sizeof(res));
	regions_parse(wrong_schema, strlen(wrong_schema), 0, &res);
	assert_string_equal(res.problem, "region report line 1: schema is not 'pmustat.regions/1'");
	regions_result_release(&res);

	memset(&res, 0, sizeof(res));
	regions_parse(lib_error, strlen(lib_error), 1, &res);
	assert_string_equal(res.problem, "libpmustat in the measured program: bad event item 'x'");
	regions_result_release(&res);

	memset(&res, 0, sizeof(res));
	regions_parse("", 0, 1, &res);
	assert_int_equal(res.nreports, 0);
	assert_int_equal(res.nrows, 0);
	assert_null(res.problem);
	regions_result_release(&res);
}

static void test_collect_from_fd(void **state)
{
	struct regions_handoff h;
	struct regions_result res;
	struct error err;

	(void)state;
	assert_int_equal(regions_prepare(&h, NULL, NULL, 0, &err), 0);
	h.nevents = 2;	/* as if two events had been handed over */
	assert_int_equal(write(h.fd, two_procs, strlen(two_procs)), (ssize_t)strlen(two_procs));
	assert_int_equal(regions_collect(&h, &res, &err), 0);	/* reads from offset 0 */
	assert_int_equal(res.nreports, 2);
	assert_int_equal(res.rows[0].count, 5);
	regions_result_release(&res);
	regions_release(&h);
}

static void test_metric_name(void **state)
{
	char *s = regions_metric_name("synth", "task-clock");

	(void)state;
	assert_string_equal(s, "synth:task-clock");
	free(s);
}

/* build/regions-prog next to build/tests/ */
static char *sibling(const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct strbuf sb = STRBUF_INIT;
	char *slash;

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	strbuf_addf(&sb, "%s/../%s", self, name);
	return strbuf_detach(&sb);
}

/* The spawn server a campaign uses: build/pmustat-spawner when it is there
 * (else spawner_start forks this test). Started before regions_prepare, as
 * in a campaign, so the child cannot inherit the memory file. */
static void start_spawner(struct spawner *srv)
{
	char *sp = sibling("pmustat-spawner");
	struct error err;

	if (sp && access(sp, X_OK) == 0)
		setenv("PMUSTAT_SPAWNER", sp, 1);
	free(sp);
	if (spawner_start(srv, &err))
		fail_msg("spawner: %s", err.msg);
}

/* The campaign's path: prepare, measure_run with the child's env, collect. */
static void test_real_run(void **state)
{
	struct event_spec ev[2];
	size_t group[2] = { 0, 1 };
	struct regions_handoff h;
	struct regions_result res;
	struct measure_spec spec = { 0 };
	struct measure_outcome out;
	struct sigwatch sw;
	struct spawner srv;
	struct error err;
	char *prog = sibling("regions-prog");
	char *argv[] = { prog, "loop", "7", "200000", NULL };
	char **env;

	(void)state;
	assert_non_null(prog);
	parse_ev("task-clock", &ev[0]);
	parse_ev("context-switches", &ev[1]);
	error_clear(&err);
	start_spawner(&srv);
	assert_int_equal(sigwatch_init(&sw, &err), 0);
	assert_int_equal(regions_prepare(&h, ev, group, 2, &err), 0);
	env = regions_env(&h, NULL);
	spec.argv = argv;
	spec.envp = env;
	spec.events = ev;
	spec.group = group;
	spec.nevents = 2;
	spec.pin_cpu = -1;
	if (measure_run(&spec, &srv, &sw, &out, &err))
		fail_msg("measure_run: %s", err.msg);
	assert_int_equal(out.sp.outcome, SPAWN_EXITED);
	assert_int_equal(out.sp.status, 0);
	assert_int_equal(regions_collect(&h, &res, &err), 0);
	if (res.problem)
		fail_msg("problem: %s", res.problem);
	assert_int_equal(res.nreports, 1);
	assert_int_equal(res.nrows, 1);
	assert_string_equal(res.rows[0].name, "loop");
	assert_int_equal(res.rows[0].count, 7);
	assert_int_equal(res.rows[0].threads, 1);
	assert_true(res.rows[0].values[0].valid);
	assert_true(res.rows[0].values[0].value > 0);
	/* the region is inside the run: less task-clock than the whole process */
	assert_true(out.read_ok[0]);
	assert_true(res.rows[0].values[0].value < out.readings[0].value);
	assert_true(res.rows[0].values[0].running > 0);
	assert_true(res.rows[0].values[1].valid);
	measure_outcome_release(&out);
	regions_result_release(&res);
	regions_env_free(env);
	regions_release(&h);
	sigwatch_release(&sw);
	spawner_stop(&srv);
	event_spec_release(&ev[0]);
	event_spec_release(&ev[1]);
	free(prog);
}

/* A program without libpmustat reports nothing, and that is no problem. */
static void test_real_run_no_library(void **state)
{
	struct regions_handoff h;
	struct regions_result res;
	struct measure_spec spec = { 0 };
	struct measure_outcome out;
	struct sigwatch sw;
	struct spawner srv;
	struct error err;
	char *argv[] = { "true", NULL };
	char **env;

	(void)state;
	start_spawner(&srv);
	assert_int_equal(sigwatch_init(&sw, &err), 0);
	assert_int_equal(regions_prepare(&h, NULL, NULL, 0, &err), 0);
	env = regions_env(&h, NULL);
	spec.argv = argv;
	spec.envp = env;
	spec.pin_cpu = -1;
	assert_int_equal(measure_run(&spec, &srv, &sw, &out, &err), 0);
	assert_int_equal(regions_collect(&h, &res, &err), 0);
	assert_int_equal(res.nreports, 0);
	assert_int_equal(res.nrows, 0);
	assert_null(res.problem);
	measure_outcome_release(&out);
	regions_result_release(&res);
	regions_env_free(env);
	regions_release(&h);
	sigwatch_release(&sw);
	spawner_stop(&srv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_attr),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_prepare_too_many),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_parse_merge),
		cmocka_unit_test(test_parse_not_counted),
		cmocka_unit_test(test_parse_broken),
		cmocka_unit_test(test_collect_from_fd),
		cmocka_unit_test(test_metric_name),
		cmocka_unit_test(test_real_run),
		cmocka_unit_test(test_real_run_no_library),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
