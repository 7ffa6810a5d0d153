/*
 * A counter that opened when probed but gives a run no value must say why
 * (#22: in the emulated arm64 guest an event the PMU does not advertise
 * showed only "no usable runs"). The real campaign, planner and perf
 * mechanism run on this host's software events; only the launch is fake,
 * so that the kernel's answer for one counter in the run is constructed:
 * page-faults cannot be opened (EINVAL), context-switches opens but cannot
 * be read. Each gets one warning on it, in the result's notes (the table's
 * notes and the JSON), with the reason and a hint, however many runs lack
 * a value; the counter that worked gets none.
 *
 * The guest's case itself was pmustat's: a group member listed before its
 * leader (-e r10:u,instructions:u, the anchor leading) was opened first,
 * with its leader's not yet filled slot, fd 0, as group_fd: EBADF. Real
 * software events on this process show that a member listed first opens
 * in its leader's group.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/perf_event.h"
#include "campaign/campaign.h"
#include "run/measure.h"
#include "core/strbuf.h"

static int fake_measure(struct campaign *c, const struct measure_spec *spec,
			struct measure_outcome *out, struct error *err)
{
	size_t n = spec->nevents ? spec->nevents : 1;

	(void)c;
	(void)err;
	memset(out, 0, sizeof(*out));
	out->readings = calloc(n, sizeof(*out->readings));
	out->read_ok = calloc(n, sizeof(int));
	out->open_errno = calloc(n, sizeof(int));
	for (size_t i = 0; i < spec->nevents; i++) {
		const char *name = spec->events[i].name;

		if (spec->group && spec->group[i] == (size_t)-1)
			continue;
		if (!strcmp(name, "page-faults")) {
			out->open_errno[i] = EINVAL;
			continue;
		}
		if (!strcmp(name, "context-switches"))
			continue;	/* opened, not read */
		out->read_ok[i] = 1;
		out->readings[i] = (struct perf_reading){ 1000, 5000, 5000 };
	}
	out->sp.outcome = SPAWN_EXITED;
	out->sp.wall_ns = 1000000;
	return 0;
}

static const struct campaign_launcher fake_launcher = { .measure = fake_measure };

static const struct result_note *note_on(const struct result *r, const char *metric,
					 size_t *count)
{
	const struct result_note *found = NULL;

	*count = 0;
	for (size_t i = 0; i < r->nnotes; i++)
		if (r->notes[i].metric && !strcmp(r->notes[i].metric, metric) &&
		    strstr(r->notes[i].text, "no value from run")) {
			found = found ? found : &r->notes[i];
			(*count)++;
		}
	return found;
}

static void test_missing_values_said(void **state)
{
	static char *const argv[] = { "/bin/true", NULL };
	struct campaign_opts o = { 0 };
	struct campaign c;
	const struct result_note *n;
	struct error err;
	size_t count;
	int m;

	(void)state;
	o.events = "task-clock,page-faults,context-switches";
	o.stop = (struct stop_rule){ STOP_FIXED, 3, 3, 0 };
	o.seed = 1;
	o.pin_cpu = -1;
	error_clear(&err);
	assert_int_equal(campaign_init(&c, &o, "stat", &err), 0);
	campaign_add_variant(&c, "A", argv);
	assert_int_equal(campaign_prepare(&c, &err), 0);
	c.launch = &fake_launcher;
	assert_int_equal(campaign_run(&c, &err), 0);
	assert_true(c.res.nruns >= 3);

	n = note_on(&c.res, "page-faults", &count);
	assert_non_null(n);
	assert_int_equal(count, 1);	/* said once, not once per run */
	assert_int_equal(n->level, NOTE_WARNING);
	assert_non_null(strstr(n->text, "where it cannot be opened: the kernel rejected its "
				       "encoding (EINVAL)"));
	assert_non_null(n->hint);
	assert_non_null(strstr(n->hint, "'pmustat explain page-faults'"));

	n = note_on(&c.res, "context-switches", &count);
	assert_non_null(n);
	assert_int_equal(count, 1);
	assert_non_null(strstr(n->text, "where it cannot be read"));
	assert_non_null(strstr(n->hint, "pmustat explain context-switches"));

	n = note_on(&c.res, "task-clock", &count);
	assert_null(n);
	m = result_metric_index(&c.res, "task-clock");
	assert_true(m >= 0);
	assert_true(c.res.runs[0].values[m].valid);
	m = result_metric_index(&c.res, "page-faults");
	assert_true(m >= 0);
	assert_false(c.res.runs[0].values[m].valid);
	campaign_release(&c);
}

static void test_member_before_leader(void **state)
{
	struct event_spec evs[2];
	size_t group[2] = { 1, 1 };	/* event 1 leads, event 0 is its member */
	struct perf_set set = { NULL, 0 };
	struct perf_reading r;

	(void)state;
	memset(evs, 0, sizeof(evs));
	evs[0].name = "page-faults";
	evs[1].name = "task-clock";
	evs[0].pmu = evs[1].pmu = "software";
	evs[0].attr.type = evs[1].attr.type = PERF_TYPE_SOFTWARE;
	evs[0].attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	evs[1].attr.config = PERF_COUNT_SW_TASK_CLOCK;
	evs[0].attr.exclude_kernel = evs[1].attr.exclude_kernel = 1;
	if (perf_set_open(&set, evs + 1, NULL, 1, getpid()) != 1) {
		perf_set_release(&set);
		skip();	/* no perf_event_open for software events here */
	}
	perf_set_release(&set);
	assert_int_equal(perf_set_open(&set, evs, group, 2, getpid()), 2);
	assert_int_equal(set.c[0].open_errno, 0);
	assert_true(set.c[0].fd >= 0);
	assert_int_equal(perf_set_read(&set, 0, &r, NULL), 0);
	perf_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_values_said),
		cmocka_unit_test(test_member_before_leader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
