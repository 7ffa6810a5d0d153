/*
 * The campaign's block loop driven with a fake launcher and fake
 * mechanisms: the schedule of run kinds (timed runs carry no perturbing
 * mechanism, each perturbing one gets instrumented blocks of its own, few
 * for exact counts, one per timed block once they vary), the measured cost
 * of a mechanism, and the stopping rule as the loop applies it. The real
 * loop, recorder, stopping rule and process mechanism run; only the launch
 * is fake: a run "takes" a wall time fixed by its variant, 1.5 times that
 * when the fake perturbing mechanism put its variable in the environment,
 * so every figure asserted is exact and no clock or host load is involved:
 * the launcher also brings the loop's clock, which advances by exactly the
 * wall time of each fake run, so the time budget is tested too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "campaign/mechanism.h"
#include "core/strbuf.h"

extern const struct mechanism_ops mech_process;

#define MAXRUNS 512

/* What the fakes saw, per run in order. */
static struct {
	int kind[MAXRUNS];	/* 'T' timed, 'I' instrumented (as the counter saw it) */
	int shim[MAXRUNS];	/* the launcher found the counter's variable */
	size_t n;
	int vary;		/* the counter's counts differ from run to run */
} seen;

static char *const shim_env[] = { "FAKE_SHIM=1", NULL };

/* The fake clock: ns of the fake runs so far. */
static uint64_t fake_ns;

static uint64_t fake_now(const struct campaign *c)
{
	(void)c;
	return fake_ns;
}

static int fake_measure(struct campaign *c, const struct measure_spec *spec,
			struct measure_outcome *out, struct error *err)
{
	int b = !strcmp(spec->argv[0], "b");
	int shim = spec->envp == shim_env;

	(void)err;
	memset(out, 0, sizeof(*out));
	out->sp.outcome = SPAWN_EXITED;
	out->sp.wall_ns = (uint64_t)(b ? 200e6 : 100e6) * (shim ? 3 : 2) / 2;
	fake_ns += out->sp.wall_ns;
	if (c->res.nruns < MAXRUNS)
		seen.shim[c->res.nruns] = shim;
	return 0;
}

static const struct campaign_launcher fake_launcher = { .measure = fake_measure,
							.now_ns = fake_now };

struct counter_state {
	size_t metric;
};

static int counter_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct counter_state *s = calloc(1, sizeof(*s));

	(void)err;
	result_add_metric(&c->res, "fake-count", "calls", MSRC_CALLS);
	s->metric = c->res.nmetrics - 1;
	need->runs = MECH_INSTRUMENTED;
	need->perturbs = 1;
	need->exact = 1;
	strcpy(need->what, "fake counting");
	*state = s;
	return 0;
}

static int counter_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
			 struct error *err)
{
	(void)c;
	(void)state;
	(void)run;
	(void)err;
	rs->envp = shim_env;
	return 0;
}

static void counter_end(struct campaign *c, void *state, void *run,
			const struct measure_outcome *out, size_t run_index)
{
	const struct counter_state *s = state;
	int v = c->res.runs[run_index].variant;

	(void)run;
	(void)out;
	campaign_set_value(c, run_index, s->metric,
			   1000.0 * (v + 1) + (seen.vary ? (double)run_index : 0));
}

static const struct mechanism_ops fake_counter = {
	.name = "counter",
	.plan = counter_plan,
	.begin = counter_begin,
	.end = counter_end,
	.release = free,
};

/* A mechanism of the timed runs, noting which runs it took part in. */
static int watch_plan(struct campaign *c, void **state, struct mech_needs *need,
		      struct error *err)
{
	(void)c;
	(void)err;
	need->runs = MECH_NATIVE;
	*state = calloc(1, 1);
	return 0;
}

static int watch_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
		       struct error *err)
{
	(void)state;
	(void)rs;
	(void)run;
	(void)err;
	if (c->res.nruns < MAXRUNS)
		seen.kind[c->res.nruns] = 'T';
	return 0;
}

static const struct mechanism_ops fake_watch = {
	.name = "watch",
	.plan = watch_plan,
	.begin = watch_begin,
	.release = free,
};

static struct campaign_opts opts;
static struct campaign c;

static void add_mech(const struct mechanism_ops *ops)
{
	struct mech_needs need = { 0 };
	void *state = NULL;
	struct error err;

	error_clear(&err);
	assert_int_equal(ops->plan(&c, &state, &need, &err), 0);
	c.mech = realloc(c.mech, (c.nmech + 1) * sizeof(*c.mech));
	c.mech[c.nmech++] = (struct mech_slot){ ops, state, need, (size_t)-1, 0 };
}

/* A campaign of two variants, a and b, with the process clocks, the watch
 * and the counter; blocks as given, no warm-up. */
static void setup_campaign(unsigned blocks, enum stop_kind kind, int vary)
{
	static char *const argv_a[] = { "a", NULL }, *const argv_b[] = { "b", NULL };
	struct error err;

	memset(&seen, 0, sizeof(seen));
	seen.vary = vary;
	fake_ns = 1000000000000u;	/* any start: the budget counts from the first block */
	memset(&opts, 0, sizeof(opts));
	opts.stop = (struct stop_rule){ kind, 3, blocks, 0 };
	opts.seed = 42;
	opts.shuffle = 1;
	opts.pin_cpu = -1;
	error_clear(&err);
	assert_int_equal(campaign_init(&c, &opts, "compare", &err), 0);
	c.launch = &fake_launcher;
	campaign_add_variant(&c, "a", argv_a);
	campaign_add_variant(&c, "b", argv_b);
	c.res.primary = strdup("wall-time");
	c.run_argv = calloc(2, sizeof(char **));
	c.run_argv[0] = calloc(2, sizeof(char *));
	c.run_argv[1] = calloc(2, sizeof(char *));
	c.run_argv[0][0] = "a";
	c.run_argv[1][0] = "b";
	c.native = 1;
	add_mech(&mech_process);
	add_mech(&fake_watch);
	add_mech(&fake_counter);
	campaign_cost_plan(&c);
}

static void run_campaign(void)
{
	struct error err;

	error_clear(&err);
	assert_int_equal(campaign_run(&c, &err), 0);
	seen.n = c.res.nruns;
}

static int note_has(const char *text)
{
	for (size_t i = 0; i < c.res.nnotes; i++)
		if (strstr(c.res.notes[i].text, text))
			return 1;
	return 0;
}

/* Timed runs carry no perturbing mechanism; exact counts get two blocks. */
static void test_exact_counts_two_blocks(void **state)
{
	int wall = 0, count, cost;
	size_t timed = 0, instr = 0;

	(void)state;
	setup_campaign(5, STOP_FIXED, 0);
	run_campaign();
	wall = result_metric_index(&c.res, "wall-time");
	count = result_metric_index(&c.res, "fake-count");
	cost = result_metric_index(&c.res, "wall-time:with-counter");
	assert_true(count >= 0 && cost >= 0);
	assert_int_equal(c.res.nruns, 5 * 2 + 2 * 2);
	for (size_t i = 0; i < c.res.nruns; i++) {
		const struct result_run *r = &c.res.runs[i];

		if (r->instrumented) {
			instr++;
			assert_int_equal(seen.shim[i], 1);
			assert_int_not_equal(seen.kind[i], 'T');
			assert_false(r->values[wall].valid);
			assert_true(r->values[count].valid);
			assert_true(r->values[cost].valid);
		} else {
			timed++;
			assert_int_equal(seen.shim[i], 0);
			assert_int_equal(seen.kind[i], 'T');
			assert_true(r->values[wall].valid);
			assert_false(r->values[count].valid);
		}
	}
	assert_int_equal(timed, 10);
	assert_int_equal(instr, 4);
	/* the instrumented blocks follow the first two timed blocks */
	assert_true(c.res.runs[2].instrumented && c.res.runs[3].instrumented);
	assert_true(c.res.runs[6].instrumented && c.res.runs[7].instrumented);
	assert_int_equal(c.res.runs[2].block, c.res.runs[3].block);
	assert_int_not_equal(c.res.runs[2].block, c.res.runs[0].block);
	/* the cost: exactly +50% for both variants */
	assert_true(note_has("fake counting ran in runs of its own, never in the timed runs"));
	assert_true(note_has("+50.0% [+50.0%, +50.0%] to a's (2 pairs)"));
	assert_true(note_has("+50.0% [+50.0%, +50.0%] to b's (2 pairs)"));
	campaign_release(&c);
}

/* Counts that differ between runs: an instrumented block per timed block. */
static void test_varying_counts_every_block(void **state)
{
	size_t instr = 0;

	(void)state;
	setup_campaign(6, STOP_FIXED, 1);
	run_campaign();
	for (size_t i = 0; i < c.res.nruns; i++)
		instr += c.res.runs[i].instrumented != 0;
	assert_int_equal(instr, 6 * 2);
	assert_int_equal(c.res.nruns, 6 * 2 * 2);
	assert_true(note_has("(6 pairs)"));
	campaign_release(&c);
}

/* The stopping rule as the loop applies it: b takes exactly twice a's
 * time in every block, so the sequential rule settles as soon as it may
 * (the rule's own minimum of pairs), long before the block limit; the
 * instrumented blocks stay two (exact counts). */
static void test_sequential_stop(void **state)
{
	char words[64];
	size_t instr = 0;

	(void)state;
	setup_campaign(50, STOP_SEQUENTIAL, 0);
	run_campaign();
	assert_true(c.native_blocks >= 3 && c.native_blocks < 50);
	snprintf(words, sizeof(words), "verdict settled after %u blocks: wall-time slower",
		 c.native_blocks);
	assert_non_null(c.res.stop_reason);
	assert_non_null(strstr(c.res.stop_reason, words));
	for (size_t i = 0; i < c.res.nruns; i++)
		instr += c.res.runs[i].instrumented != 0;
	assert_int_equal(instr, 4);
	assert_int_equal(c.res.nruns, c.native_blocks * 2 + 4);
	campaign_release(&c);
}

static double last_left_s;

static void note_progress(const struct campaign_progress *p, void *data)
{
	(void)data;
	last_left_s = p->left_s;
}

/* The time budget (--max-time 3) on the fake clock: a timed block takes
 * 0.3 s (a 0.1 s, b 0.2 s), the first two also carry an instrumented block
 * of 0.45 s (1.5 times as long), so the mean block, which predicts the
 * next, is 0.75, 0.75, 0.6, 0.525, 0.48 and 0.45 s; the loop stops after
 * the sixth block at 2.7 s, since a seventh would end at 3.15 s, and says
 * that the budget stopped it. */
static void test_budget_stops(void **state)
{
	size_t instr = 0;

	(void)state;
	setup_campaign(50, STOP_FIXED, 0);
	opts.max_time_s = 3;
	opts.progress = note_progress;
	last_left_s = -1;
	run_campaign();
	assert_int_equal(c.native_blocks, 6);
	for (size_t i = 0; i < c.res.nruns; i++)
		instr += c.res.runs[i].instrumented != 0;
	assert_int_equal(instr, 4);
	assert_int_equal(c.res.nruns, 6 * 2 + 4);
	assert_int_equal(fake_ns - c.t0, 2700000000u);
	assert_true(fabs(last_left_s - 0.3) < 1e-9);
	assert_string_equal(c.res.stop_reason, "time budget of 3 s reached");
	campaign_release(&c);
}

/* Without a budget the same campaign runs its 50 blocks (the limit said). */
static void test_no_budget_runs_all(void **state)
{
	(void)state;
	setup_campaign(50, STOP_FIXED, 0);
	run_campaign();
	assert_int_equal(c.native_blocks, 50);
	assert_int_equal(c.res.nruns, 50 * 2 + 4);
	assert_string_equal(c.res.stop_reason, "all runs done");
	campaign_release(&c);
}

/* A mechanism takes part only in the runs its needs name. */
static void test_takes_part(void **state)
{
	struct sched_slot timed = { 0 }, instr = { 0 }, sim = { 0 };

	(void)state;
	setup_campaign(1, STOP_FIXED, 0);
	instr.instrumented = 3;	/* the counter, slot 2 */
	sim.sim = 1;
	assert_true(mech_takes_part(&c, 0, &timed));	/* process */
	assert_true(mech_takes_part(&c, 1, &timed));	/* watch */
	assert_false(mech_takes_part(&c, 2, &timed));	/* counter */
	assert_false(mech_takes_part(&c, 0, &instr));
	assert_false(mech_takes_part(&c, 1, &instr));
	assert_true(mech_takes_part(&c, 2, &instr));
	assert_false(mech_takes_part(&c, 2, &sim));
	campaign_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_counts_two_blocks),
		cmocka_unit_test(test_varying_counts_every_block),
		cmocka_unit_test(test_sequential_stop),
		cmocka_unit_test(test_takes_part),
		cmocka_unit_test(test_budget_stops),
		cmocka_unit_test(test_no_budget_runs_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
