/*
 * The block loop. Every block runs each variant once (run/schedule.h: order
 * shuffled, one environment padding and one counter group per block). A run
 * is the same steps whatever measures it: every active mechanism that takes
 * part in this kind of run (native or simulated) begins it, the run is
 * measured, recorded, ended by the same mechanisms and persisted. The loop
 * names no mechanism.
 *
 * Stopping: the stopping rule (stop.c) after each measured block, the
 * block limit, SIGINT/SIGTERM, and the time budget, which covers simulated
 * runs too: the first simulated block runs before the native ones, its cost
 * predicts the rest, and the native blocks leave room for them. Simulated
 * blocks that do not fit are cut, with a note.
 *
 * Traced blocks (a mechanism's untimed runs, such as allocation call sites)
 * run first, before any simulated or measured block, in an order of their
 * own; their time counts against the budget like any other.
 *
 * Instrumented blocks: a mechanism that perturbs the program (its needs say
 * so) never takes part in a timed run; after a timed block, each such
 * mechanism gets a block of runs of its own, alone in them, so that its
 * values pair block by block with the verdicts' runs and its cost is the
 * wall time of its runs against the timed ones next to them (cost.c). A
 * mechanism of exact counts gets MECH_EXACT_BLOCKS of them, more only once
 * its values differ between runs.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaign/mechanism.h"
#include "core/strbuf.h"
#include "run/measure.h"
#include "run/schedule.h"

extern char **environ;

struct loop {
	struct campaign *c;
	struct schedule native, sim, traced, instr;
	size_t done, total;
	unsigned blocks;		/* blocks run, any kind: the next block's number */
	uint64_t native_ns, sim_ns;	/* time spent in each kind of block */
	unsigned native_run, sim_run;	/* blocks of each kind run */
	unsigned instr_run;		/* instrumented blocks run, all mechanisms */
	unsigned sim_planned;		/* simulated blocks still planned */
	struct strbuf status, why;
};

static double now_epoch(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The loop's clock, which the budget reads: the launcher's when it brings
 * one (a test's fake clock, so the budget is tested without time passing). */
static uint64_t loop_now_ns(const struct campaign *c)
{
	return c->launch->now_ns ? c->launch->now_ns(c) : clock_now_ns();
}

/* Padding for layout-bias control (STATS.md (e)): one extra variable whose
 * size changes the initial stack position. */
static char **padded_env(size_t pad)
{
	size_t n = 0;
	char **env, *var;

	while (environ[n])
		n++;
	env = xcalloc(n + 2, sizeof(char *));
	memcpy(env, environ, n * sizeof(char *));
	var = xmalloc(pad + sizeof("PMUSTAT_PAD="));
	memcpy(var, "PMUSTAT_PAD=", 12);
	memset(var + 12, 'x', pad);
	var[12 + pad] = '\0';
	env[n] = var;
	return env;
}

static void free_padded_env(char **env)
{
	size_t n = 0;

	if (!env)
		return;
	while (env[n])
		n++;
	free(env[n - 1]);	/* the padding variable, appended last */
	free(env);
}

/* Every mechanism's attach hook, in order, on the run's child. */
static int attach_all(void *ctx, pid_t pid, struct error *err)
{
	const struct run_setup *rs = ctx;

	for (size_t i = 0; i < rs->nattach; i++)
		if (rs->attach[i].fn(rs->attach[i].ctx, pid, err))
			return -1;
	return 0;
}

int mech_takes_part(const struct campaign *c, size_t i, const struct sched_slot *slot)
{
	const struct mech_needs *n = &c->mech[i].need;

	/* An instrumented run carries its own mechanism and nothing else. */
	if (slot->instrumented)
		return (n->runs & MECH_INSTRUMENTED) && (size_t)slot->instrumented == i + 1;
	return (n->runs & (slot->sim ? MECH_SIM : slot->traced ? MECH_TRACED : MECH_NATIVE)) != 0;
}

/* After the run: record, end every mechanism that began it, persist, and
 * decide whether its outcome stops the campaign. */
static int finish_run(struct campaign *c, const struct sched_slot *slot, double start,
		      void **runs, const struct measure_outcome *out, struct error *err)
{
	size_t idx = campaign_record(c, slot, start, out);
	enum run_status st;

	for (size_t i = 0; i < c->nmech; i++)
		if (mech_takes_part(c, i, slot) && c->mech[i].ops->end)
			c->mech[i].ops->end(c, c->mech[i].state, runs[i], out, idx);
	if (c->launch->recorded)
		c->launch->recorded(c, idx);
	campaign_compute_formulas(c, &c->res.runs[idx]);
	if (campaign_persist(c, idx, err))
		return -1;
	if (xalloc_reserve_spent())
		return campaign_out_of_memory(c, err);
	st = c->res.runs[idx].status;
	if (st == RUN_EXEC_FAILED ||
	    (!c->o->ignore_failure && st != RUN_OK && st != RUN_INTERRUPTED))
		return campaign_run_failure(c, idx, out, err);
	return 0;
}

static int run_slot(struct campaign *c, const struct sched_slot *slot, struct error *err)
{
	struct run_setup rs = { 0 };
	struct measure_spec spec = { 0 };
	struct measure_outcome out;
	void **runs = xcalloc(c->nmech + 1, sizeof(void *));
	char **padded = slot->env_pad ? padded_env(slot->env_pad) : NULL;
	double start = now_epoch();
	int rc = 0;

	memset(&out, 0, sizeof(out));
	/* --prepare, outside the measurement; an interrupt during it ends the
	 * campaign before the run. A session is the exception: it ends on a
	 * stop request inside its measure (the last interval recorded), so it
	 * must get there, or a signal that came after run_block's poll would
	 * leave the loop going round forever. */
	if (campaign_hook(c, HOOK_PREPARE, (size_t)slot->variant, err) ||
	    (c->sw.stop_signal && !c->launch->ended)) {
		free(runs);
		free_padded_env(padded);
		return c->sw.stop_signal ? 0 : -1;
	}
	rs.slot = slot;
	rs.argv = c->run_argv[slot->variant];
	rs.envp = padded;
	rs.timeout_s = c->o->timeout_s;
	for (size_t i = 0; i < c->nmech && !rc; i++) {
		if (!mech_takes_part(c, i, slot))
			continue;
		runs[i] = xcalloc(1, c->mech[i].ops->run_size + 1);
		if (c->mech[i].ops->begin)
			rc = c->mech[i].ops->begin(c, c->mech[i].state, &rs, runs[i], err);
	}
	if (!rc) {
		spec.argv = rs.argv;
		spec.envp = rs.envp;
		spec.show_output = c->o->show_output;
		spec.pin_cpu = c->o->pin_cpu;
		spec.timeout_s = rs.timeout_s;
		spec.keep_children = c->o->keep_children;
		spec.input = c->o->input;
		spec.cwd = c->o->cwd ? c->o->cwd[slot->variant] : NULL;
		spec.events = rs.events;
		spec.group = rs.leader;
		spec.nevents = rs.nevents;
		spec.attach = rs.nattach ? attach_all : NULL;
		spec.attach_ctx = &rs;
		rc = c->launch->measure(c, &spec, &out, err);
		if (!rc)
			rc = finish_run(c, slot, start, runs, &out, err);
		measure_outcome_release(&out);
		if (!rc && !c->sw.stop_signal)
			rc = campaign_hook(c, HOOK_CONCLUDE, (size_t)slot->variant, err);
	}
	for (size_t i = c->nmech; i-- > 0;) {
		if (runs[i] && c->mech[i].ops->run_release)
			c->mech[i].ops->run_release(c->mech[i].state, runs[i]);
		free(runs[i]);
	}
	free(runs);
	free_padded_env(padded);
	free(rs.events);
	free(rs.leader);
	free(rs.metric);
	free(rs.shared);
	return rc;
}

static int spawn_measure(struct campaign *c, const struct measure_spec *spec,
			 struct measure_outcome *out, struct error *err)
{
	return measure_run(spec, &c->server, &c->sw, out, err);
}

const struct campaign_launcher campaign_spawn_launcher = { .measure = spawn_measure };

static void progress(struct loop *l)
{
	struct campaign_progress p = { l->done, l->total, l->status.len ? l->status.buf : "", -1 };
	const struct campaign_opts *o = l->c->o;

	if (!o->progress)
		return;
	if (o->max_time_s > 0) {
		p.left_s = o->max_time_s - (double)(loop_now_ns(l->c) - l->c->t0) / 1e9;
		if (p.left_s < 0)
			p.left_s = 0;
	}
	o->progress(&p, o->progress_data);
}

/* Run one block's slots; 0, or -1 when a run failed (err) — a stop request
 * just ends the block early. Returns the block's duration in *ns. */
static int run_block(struct loop *l, struct sched_slot *slots, int kind, size_t mech,
		     uint64_t *ns, struct error *err)
{
	struct campaign *c = l->c;
	uint64_t t = loop_now_ns(c);

	for (size_t i = 0; i < c->res.nvariants; i++) {
		slots[i].block = (int)l->blocks;
		if (kind != MECH_NATIVE) {
			slots[i].sim = kind == MECH_SIM;
			slots[i].traced = kind == MECH_TRACED;
			slots[i].instrumented = kind == MECH_INSTRUMENTED ? (int)mech + 1 : 0;
			slots[i].warmup = 0;
		}
	}
	l->blocks++;
	for (size_t i = 0; i < c->res.nvariants; i++) {
		sigwatch_poll(&c->sw);
		/* A session ends on a stop request itself (target.c). */
		if (c->sw.stop_signal && !c->launch->ended)
			break;
		if (run_slot(c, &slots[i], err))
			return -1;
		l->done++;
		progress(l);
	}
	*ns = loop_now_ns(c) - t;
	return 0;
}

static double elapsed_s(const struct loop *l)
{
	return (double)(loop_now_ns(l->c) - l->c->t0) / 1e9;
}

/* The seconds the planned simulated blocks are expected to take. */
static double sim_reserve_s(const struct loop *l)
{
	return l->sim_run ? (double)l->sim_ns / l->sim_run / 1e9 * l->sim_planned : 0;
}

static int run_sim_block(struct loop *l, struct error *err)
{
	struct sched_slot slots[SCHED_MAX_VARIANTS];
	uint64_t ns;

	schedule_block(&l->sim, (int)l->sim_run, slots);
	strbuf_reset(&l->status);
	strbuf_adds(&l->status, "simulating");
	if (run_block(l, slots, MECH_SIM, 0, &ns, err))
		return -1;
	l->sim_ns += ns;
	l->sim_run++;
	l->sim_planned--;
	return 0;
}

/* How to ask for fewer simulated runs: the hint of the mechanism that runs
 * them (its needs), after the budget's own. */
static void fewer_sim_hint(const struct campaign *c, struct strbuf *hint)
{
	strbuf_adds(hint, "raise --max-time");
	for (size_t i = 0; i < c->nmech; i++)
		if ((c->mech[i].need.runs & MECH_SIM) && c->mech[i].need.fewer) {
			strbuf_addf(hint, ", %s", c->mech[i].need.fewer);
			return;
		}
}

/* After the first simulated block: keep at most half of what is left of the
 * budget for the other simulated blocks, and say so when that cuts them. */
static void fit_sim_blocks(struct loop *l)
{
	const struct campaign_opts *o = l->c->o;
	double per = (double)l->sim_ns / l->sim_run / 1e9;
	double room = (o->max_time_s - elapsed_s(l)) / (l->c->native ? 2 : 1);
	unsigned fit;
	struct strbuf hint = STRBUF_INIT;

	if (!o->max_time_s || !l->sim_planned || per * l->sim_planned <= room)
		return;
	fit = room > 0 ? (unsigned)(room / per) : 0;
	if (fit >= l->sim_planned)
		return;
	fewer_sim_hint(l->c, &hint);
	result_add_note(&l->c->res, NOTE_WARNING, NULL, hint.buf,
			"simulated runs cut to %u of %u per variant: one simulated block took "
			"%.1f s, and the time budget of %g s leaves room for %u more",
			l->sim_run + fit, l->sim_run + l->sim_planned, per, o->max_time_s, fit);
	strbuf_release(&hint);
	l->sim_planned = fit;
}

/* Stop before a native block that would overrun the time budget: the mean
 * native block so far predicts the next one, and the simulated blocks
 * still to come keep their room. */
static int over_budget(struct loop *l)
{
	double max = l->c->o->max_time_s;
	double next = (double)l->native_ns / l->native_run / 1e9;

	if (!max || elapsed_s(l) + next + sim_reserve_s(l) <= max)
		return 0;
	strbuf_addf(&l->why, "time budget of %g s reached", max);
	return 1;
}

/* Does mechanism k want an instrumented block now? Every timed block for a
 * profile; for exact counts the first few, then more only if they varied. */
static int instr_wanted(const struct campaign *c, size_t k)
{
	const struct mech_slot *m = &c->mech[k];

	if (!m->need.perturbs)
		return 0;
	if (!m->need.exact || m->instr_blocks < MECH_EXACT_BLOCKS)
		return 1;
	return campaign_mech_varies(c, k);
}

/* After a timed block: each perturbing mechanism's block of its own. */
static int run_instrumented(struct loop *l, uint64_t *ns, struct error *err)
{
	struct campaign *c = l->c;
	struct sched_slot slots[SCHED_MAX_VARIANTS];

	for (size_t k = 0; k < c->nmech && !c->sw.stop_signal; k++) {
		uint64_t t;

		if (!instr_wanted(c, k))
			continue;
		schedule_block(&l->instr, (int)l->instr_run, slots);
		if (run_block(l, slots, MECH_INSTRUMENTED, k, &t, err))
			return -1;
		*ns += t;
		c->mech[k].instr_blocks++;
		l->instr_run++;
	}
	return 0;
}

static int run_native(struct loop *l, struct error *err)
{
	struct campaign *c = l->c;
	struct sched_slot slots[SCHED_MAX_VARIANTS];
	/* A session runs intervals until it ends (target.c). */
	int session = c->launch->ended != NULL;
	unsigned nblocks = session ? UINT_MAX : c->o->warmup + c->o->stop.max_blocks;
	int stop = 0;

	for (unsigned b = 0; b < nblocks && !stop; b++) {
		uint64_t ns;

		schedule_block(&l->native, (int)b, slots);
		if (run_block(l, slots, MECH_NATIVE, 0, &ns, err))
			return -1;
		if (c->sw.stop_signal && !session)
			break;
		/* The block's instrumented runs count in its time, so the
		 * budget's prediction of the next block includes them. */
		if (b >= c->o->warmup && run_instrumented(l, &ns, err))
			return -1;
		if (c->sw.stop_signal && !session)
			break;
		l->native_ns += ns;
		l->native_run++;
		c->native_blocks = b + 1;
		strbuf_reset(&l->status);
		if (session)
			stop = c->launch->ended(c, &l->why);
		else if (b >= c->o->warmup)
			stop = campaign_stop_check(c, b + 1 - c->o->warmup, &l->why, &l->status);
		if (!stop && b + 1 < nblocks && !session)
			stop = over_budget(l);
	}
	return 0;
}

static int run_traced(struct loop *l, struct error *err)
{
	struct sched_slot slots[SCHED_MAX_VARIANTS];
	unsigned traced = campaign_blocks_of(l->c, MECH_TRACED);
	uint64_t ns;

	for (unsigned b = 0; b < traced && !l->c->sw.stop_signal; b++) {
		schedule_block(&l->traced, (int)b, slots);
		strbuf_reset(&l->status);
		strbuf_adds(&l->status, "tracing");
		if (run_block(l, slots, MECH_TRACED, 0, &ns, err))
			return -1;
	}
	return 0;
}

static int run_blocks(struct loop *l, struct error *err)
{
	struct campaign *c = l->c;

	if (run_traced(l, err))
		return -1;
	if (l->sim_planned && !c->sw.stop_signal) {
		if (run_sim_block(l, err))
			return -1;
		fit_sim_blocks(l);
	}
	if (c->native && !c->sw.stop_signal && run_native(l, err))
		return -1;
	while (l->sim_planned && !c->sw.stop_signal) {
		double per = (double)l->sim_ns / l->sim_run / 1e9;

		if (c->o->max_time_s && elapsed_s(l) + per > c->o->max_time_s) {
			result_add_note(&c->res, NOTE_WARNING, NULL, "raise --max-time",
					"simulated runs cut to %u per variant: the time budget of "
					"%g s was spent", l->sim_run, c->o->max_time_s);
			break;
		}
		if (run_sim_block(l, err))
			return -1;
	}
	return 0;
}

/* Instrumented blocks planned at most, for the progress count. */
static unsigned instr_planned(const struct campaign *c)
{
	unsigned n = 0;

	for (size_t k = 0; c->native && k < c->nmech; k++)
		if (c->mech[k].need.perturbs)
			n += c->o->stop.max_blocks;	/* exact counts: fewer, unless they vary */
	return n;
}

int campaign_run(struct campaign *c, struct error *err)
{
	struct loop l = { c };
	unsigned native = c->native ? c->o->warmup + c->o->stop.max_blocks : 0;
	int rc;

	/* Signals first: once the outputs exist, a Ctrl-C must find them
	 * handled, not kill pmustat halfway. */
	if (sigwatch_init(&c->sw, err))
		return -1;
	if (campaign_outputs_open(c, err)) {
		c->output_failed = 1;
		return -1;
	}
	xalloc_reserve(CAMPAIGN_MEMORY_RESERVE);
	/* --setup of every variant, before the budget's clock starts. */
	if (campaign_hooks_all(c, HOOK_SETUP, err))
		return -1;
	c->t0 = loop_now_ns(c);
	l.sim_planned = campaign_blocks_of(c, MECH_SIM);
	l.total = (size_t)(native + l.sim_planned + campaign_blocks_of(c, MECH_TRACED) +
			   instr_planned(c)) * c->res.nvariants;
	l.status = (struct strbuf)STRBUF_INIT;
	l.why = (struct strbuf)STRBUF_INIT;
	schedule_init(&l.native, c->o->seed, (int)c->res.nvariants, (int)c->groups,
		      c->o->warmup, c->o->env_pad_max, c->o->shuffle);
	/* Simulated blocks draw their own order, so that adding them leaves
	 * the native schedule of a seed as it was. */
	schedule_init(&l.sim, c->o->seed ^ 0x5157u, (int)c->res.nvariants, 1, 0,
		      c->o->env_pad_max, c->o->shuffle);
	schedule_init(&l.traced, c->o->seed ^ 0x7472u, (int)c->res.nvariants, 1, 0,
		      c->o->env_pad_max, c->o->shuffle);
	schedule_init(&l.instr, c->o->seed ^ 0x696eu, (int)c->res.nvariants, 1, 0,
		      c->o->env_pad_max, c->o->shuffle);
	rc = run_blocks(&l, err);
	/* --cleanup once the blocks are over, also after a failed run (its
	 * error comes first); not after an interrupt, which ends the campaign
	 * at once. */
	if (!c->sw.stop_signal) {
		struct error cerr;

		error_clear(&cerr);
		if (campaign_hooks_all(c, HOOK_CLEANUP, rc ? &cerr : err) && !rc)
			rc = -1;
		else if (cerr.kind != ERR_NONE)
			result_add_note(&c->res, NOTE_WARNING, NULL, NULL, "%s", cerr.msg);
	} else if (c->o->hooks[HOOK_CLEANUP]) {
		result_add_note(&c->res, NOTE_WARNING, NULL, "run it by hand",
				"--cleanup did not run: the campaign was interrupted");
	}
	campaign_note_costs(c);
	if (c->sw.stop_signal)
		campaign_note_interrupted(c, l.total);
	else if (!rc)
		c->res.stop_reason = xstrdup(l.why.len ? l.why.buf
					     /* no timed blocks: no rule, nor its limit */
					     : !c->native ? "the simulated runs asked for ran"
					     : c->o->done_reason ? c->o->done_reason
					     : "all runs done");
	if (c->o->ignore_failure)
		campaign_note_ignored_failures(c);
	campaign_note_left_behind(c);
	strbuf_release(&l.status);
	strbuf_release(&l.why);
	/* Signals stay blocked until campaign_release: a second Ctrl-C while the
	 * outputs are written must not cut them short. */
	return rc;
}
