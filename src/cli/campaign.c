/*
 * The measuring session (see campaign.h). This file wires the layers
 * together — catalog (parse), plan (group), backend (probe), run (spawn and
 * count), report (record and persist) — and holds the policy a user sees:
 * which failures stop a campaign, and which become notes.
 */
#include "cli/campaign.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/perf_event.h"
#include "cli/cli.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "report/json.h"
#include "run/execpath.h"
#include "run/measure.h"
#include "run/schedule.h"

extern char **environ;

int campaign_init(struct campaign *c, const struct campaign_opts *o, const char *command,
		  struct error *err)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->sw.fd = -1;
	/* First, while our heap is small: see run/spawn.h. */
	if (spawner_start(&c->server, err))
		return -1;
	result_init(&c->res, command);
	if (c->server.forked)
		result_add_note(&c->res, NOTE_WARNING, "max-rss", "install pmustat-spawner next to "
				"pmustat (make install does), or set PMUSTAT_SPAWNER",
				"pmustat-spawner not found: runs are forked from pmustat, so "
				"max-rss includes about 1 MiB of pmustat's own memory");
	hostinfo_read(&c->res.host);
	c->res.seed = o->seed;
	c->res.repeat = o->repeat;
	c->res.warmup = o->warmup;
	c->res.timeout_s = o->timeout_s;
	return sysfs_model_load(&c->model, NULL, err);
}

void campaign_release(struct campaign *c)
{
	for (size_t i = 0; i < c->nevents; i++)
		if (c->owned[i])
			event_spec_release(&c->events[i]);
	free(c->events);
	free(c->event_metric);
	free(c->owned);
	free(c->pev);
	free(c->leaders);
	if (c->have_plan)
		plan_release(&c->plan);
	if (c->have_resol)
		resolution_release(&c->resol);
	if (c->have_cat)
		catalog_host_release(&c->cat);
	campaign_release_calls(c);
	campaign_release_sim(c);
	free(c->failure_stderr);
	for (size_t v = 0; c->run_argv && v < c->res.nvariants; v++)
		free(c->run_argv[v]);
	free(c->run_argv);
	execpaths_release(&c->xp);
	if (c->csv.f)
		csv_close(&c->csv, NULL);
	if (c->sw.fd >= 0)
		sigwatch_release(&c->sw);
	spawner_stop(&c->server);
	sysfs_model_release(&c->model);
	result_release(&c->res);
}

void campaign_add_variant(struct campaign *c, const char *name, char *const *argv)
{
	result_add_variant(&c->res, name, argv);
}

/* Fail before running anything when an output cannot be written: finding out
 * after a ten-minute campaign would lose it. */
static int check_writable(const char *path, const char *opt, struct error *err)
{
	struct strbuf tmp = STRBUF_INIT;
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return 0;
	strbuf_addf(&tmp, "%s.tmp", path);
	f = fopen(tmp.buf, "w");
	if (!f) {
		error_set(err, ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
		error_hint(err, "choose a writable path for %s", opt);
		strbuf_release(&tmp);
		return -1;
	}
	fclose(f);
	unlink(tmp.buf);
	strbuf_release(&tmp);
	return 0;
}

/* What each variant execs: its own argv, or with argv[0] replaced by its
 * equal-length link. Resolving here also reports a missing program before
 * any run. */
static int set_run_argv(struct campaign *c, struct error *err)
{
	size_t nv = c->res.nvariants;
	const char **progs = xcalloc(nv + 1, sizeof(char *));
	int rc = 0;

	c->run_argv = xcalloc(nv + 1, sizeof(char **));
	for (size_t v = 0; v < nv; v++) {
		char *path = execpath_resolve(c->res.variants[v].argv[0], err);

		if (!path) {
			rc = -1;
			goto out;
		}
		free(path);
		progs[v] = c->res.variants[v].argv[0];
	}
	if (c->o->equal_paths && execpaths_make(&c->xp, progs, nv, err)) {
		rc = -1;
		goto out;
	}
	for (size_t v = 0; v < nv; v++) {
		size_t n = 0;

		while (c->res.variants[v].argv[n])
			n++;
		c->run_argv[v] = xcalloc(n + 1, sizeof(char *));
		memcpy(c->run_argv[v], c->res.variants[v].argv, n * sizeof(char *));
		if (c->o->equal_paths) {
			c->run_argv[v][0] = c->xp.paths[v];
			c->res.variants[v].exec_path = xstrdup(c->xp.paths[v]);
		}
	}
out:
	free(progs);
	return rc;
}

static int check_pin(int cpu, struct error *err)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) ||
	    !CPU_ISSET(cpu, &set)) {
		error_set(err, ERR_USAGE, "cannot pin to CPU %d: pmustat may not run there", cpu);
		return error_hint(err, "choose one of the CPUs in 'taskset -cp $$' (%d online)",
				  (int)sysconf(_SC_NPROCESSORS_ONLN));
	}
	return 0;
}

int campaign_check(struct campaign *c, struct error *err)
{
	if (check_pin(c->o->pin_cpu, err))
		return -1;
	c->res.pin_cpu = c->o->pin_cpu;
	c->res.env_pad_max = c->o->env_pad_max;
	if (set_run_argv(c, err))
		return -1;
	if (check_writable(c->o->json_path, "-o/--output", err))
		return -1;
	if (c->o->csv_path && csv_open(&c->csv, c->o->csv_path, err))
		return -1;
	return 0;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

static double now_epoch(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void set_value(struct result_run *run, const struct result *r, const char *name,
		      double value)
{
	int m = result_metric_index(r, name);

	if (m >= 0) {
		run->values[m].valid = 1;
		run->values[m].value = value;
	}
}

static enum run_status status_of(const struct spawn_result *sp)
{
	switch (sp->outcome) {
	case SPAWN_EXITED:
		return sp->status ? RUN_FAILED : RUN_OK;
	case SPAWN_SIGNALED:
		return RUN_SIGNALED;
	case SPAWN_TIMEOUT:
		return RUN_TIMEOUT;
	case SPAWN_INTERRUPTED:
		return RUN_INTERRUPTED;
	default:
		return RUN_EXEC_FAILED;
	}
}

static struct result_run *record_run(struct campaign *c, const struct sched_slot *slot,
				     double start, const struct measure_outcome *out)
{
	struct result_run *run = result_add_run(&c->res);
	const struct spawn_result *sp = &out->sp;

	run->variant = slot->variant;
	run->block = slot->block;
	run->position = slot->position;
	run->group = slot->group;
	run->warmup = slot->warmup;
	run->simulated = slot->sim;
	run->env_pad = slot->env_pad;
	run->start_time = start;
	run->status = status_of(sp);
	if (run->status == RUN_OK || run->status == RUN_FAILED)
		run->exit_code = sp->status;
	else if (run->status == RUN_EXEC_FAILED)
		run->exec_errno = sp->status;
	else
		run->signal = sp->status;
	if (run->status == RUN_EXEC_FAILED || slot->sim)
		return run;	/* a simulated run's time and counters are valgrind's */
	set_value(run, &c->res, "wall-time", (double)sp->wall_ns);
	set_value(run, &c->res, "user-time", (double)tv_ns(&sp->ru.ru_utime));
	set_value(run, &c->res, "sys-time", (double)tv_ns(&sp->ru.ru_stime));
	set_value(run, &c->res, "max-rss", (double)sp->ru.ru_maxrss);
	for (size_t i = 0; i < c->nevents; i++) {
		struct result_value *v = &run->values[c->event_metric[i]];

		if (!out->read_ok[i])
			continue;
		v->valid = 1;
		v->value = (double)out->readings[i].value;
		v->enabled = out->readings[i].enabled;
		v->running = out->readings[i].running;
	}
	return run;
}

/* Padding for layout-bias control (STATS.md (e)): one extra variable whose
 * size changes the initial stack position. */
static char **padded_env(size_t pad)
{
	size_t n = 0;
	char **env;
	char *var;

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

static void command_line(const struct result_variant *v, struct strbuf *sb)
{
	for (char **a = v->argv; *a; a++)
		strbuf_addf(sb, "%s%s", a == v->argv ? "" : " ", *a);
}

static int run_failure(struct campaign *c, const struct result_run *run,
		       const struct measure_outcome *out, struct error *err)
{
	struct strbuf cmd = STRBUF_INIT;
	unsigned total = c->o->repeat + c->o->warmup;
	int ordinal = run->index + 1;

	command_line(&c->res.variants[run->variant], &cmd);
	switch (run->status) {
	case RUN_EXEC_FAILED:
		error_set(err, ERR_RUNTIME, "cannot run '%s': %s",
			  c->res.variants[run->variant].argv[0], strerror(run->exec_errno));
		error_hint(err, "check the program's path and permissions");
		break;
	case RUN_FAILED:
		error_set(err, ERR_RUNTIME, "run %d of %u: '%s' exited with status %d",
			  ordinal, total * (unsigned)c->res.nvariants, cmd.buf, run->exit_code);
		error_hint(err, "use -i/--ignore-failure to measure a failing command anyway");
		break;
	case RUN_SIGNALED:
		error_set(err, ERR_RUNTIME, "run %d of %u: '%s' was killed by signal %d (%s)",
			  ordinal, total * (unsigned)c->res.nvariants, cmd.buf, run->signal,
			  strsignal(run->signal));
		error_hint(err, "use -i/--ignore-failure to keep going past failing runs");
		break;
	case RUN_TIMEOUT:
		error_set(err, ERR_RUNTIME, "run %d of %u: '%s' timed out after %g s; its "
			  "process group was killed", ordinal,
			  total * (unsigned)c->res.nvariants, cmd.buf, c->o->timeout_s);
		error_hint(err, "raise --timeout, or use -i to leave timed-out runs out");
		break;
	default:
		break;
	}
	c->res.stop_reason = xstrdup(err->msg);
	if (out->stderr_tail && *out->stderr_tail)
		c->failure_stderr = xstrdup(out->stderr_tail);
	strbuf_release(&cmd);
	return -1;
}

static int persist_run(struct campaign *c, const struct result_run *run, struct error *err)
{
	if (c->csv.f && csv_write_run(&c->csv, &c->res, run, err))
		return -1;
	if (c->o->json_path && strcmp(c->o->json_path, "-"))
		return report_json_write(&c->res, c->o->json_path, err);
	return 0;
}

static void progress(const struct campaign *c, size_t done, size_t total, const char *extra)
{
	double left;

	if (c->o->quiet || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[Kpmustat: run %zu/%zu%s%s", done, total, *extra ? ", " : "", extra);
	if (c->o->max_time_s > 0) {
		left = c->o->max_time_s - (double)(clock_now_ns() - c->t0) / 1e9;
		fprintf(stderr, ", at most %.0f s left", left > 0 ? left : 0);
	}
	fflush(stderr);
}

static void progress_done(const struct campaign *c)
{
	if (!c->o->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
}

/* Everything one run needs beyond the base counters, and owns until it ends. */
struct run_extras {
	char **padded;			/* environment with the block's padding */
	struct callcount_run cr;	/* preload shim: report file and env */
	struct sim_run sim;		/* simulated run: valgrind argv, output dir */
	struct run_regions rg;		/* region markers inside the program */
	int have_cr, have_sim;
	char **sim_argv;		/* command + --sim-args words (owned array) */
	char *sim_words;		/* the words' storage */
	struct event_spec *events;	/* base counters + the variant's uprobes */
	size_t *leaders;
	size_t nevents;
};

/* argv followed by the blank-separated words of extra (--sim-args). */
static char **with_sim_args(char *const *argv, const char *extra, char **storage)
{
	size_t n = 0, k = 0;
	char **out, *save = NULL;

	while (argv[n])
		n++;
	*storage = xstrdup(extra);
	out = xcalloc(n + strlen(extra) / 2 + 2, sizeof(char *));
	memcpy(out, argv, n * sizeof(char *));
	for (char *w = strtok_r(*storage, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		out[n + k++] = w;
	return out;
}

static int extras_begin(struct campaign *c, const struct sched_slot *slot, struct run_extras *x,
			struct measure_spec *spec, struct error *err)
{
	const struct event_spec *probes = NULL;
	size_t k;

	memset(x, 0, sizeof(*x));
	x->padded = slot->env_pad ? padded_env(slot->env_pad) : NULL;
	spec->envp = x->padded;
	if (slot->sim) {
		/* Under valgrind: no counters, no call counting, no regions. */
		if (c->o->sim_args)
			spec->argv = x->sim_argv = with_sim_args(spec->argv, c->o->sim_args,
								 &x->sim_words);
		if (sim_prepare(&x->sim, c->valgrind, &c->geom, spec->argv, err))
			return -1;
		x->have_sim = 1;
		spec->argv = x->sim.argv;
		spec->nevents = 0;
		return 0;
	}
	if (c->ncalls && c->calls[0].mech == CALLCOUNT_PRELOAD) {
		if (callcount_run_begin(&c->calls[slot->variant], x->padded, &x->cr, err))
			return -1;
		x->have_cr = 1;
		spec->envp = x->cr.envp;
	}
	if (campaign_regions_begin(c, &x->rg, spec->envp, (char ***)&spec->envp, err))
		return -1;
	k = campaign_call_events(c, slot->variant, &probes);
	if (!k)
		return 0;
	/* uprobes are counted alone, every run, after the base counters. */
	x->nevents = c->nevents + k;
	x->events = xcalloc(x->nevents, sizeof(*x->events));
	x->leaders = xcalloc(x->nevents, sizeof(size_t));
	if (c->nevents) {
		memcpy(x->events, c->events, c->nevents * sizeof(*x->events));
		memcpy(x->leaders, c->leaders, c->nevents * sizeof(size_t));
	}
	memcpy(x->events + c->nevents, probes, k * sizeof(*x->events));
	for (size_t i = c->nevents; i < x->nevents; i++)
		x->leaders[i] = i;
	spec->events = x->events;
	spec->group = x->leaders;
	spec->nevents = x->nevents;
	return 0;
}

static void extras_end(struct run_extras *x)
{
	free(x->sim_argv);
	free(x->sim_words);
	if (x->rg.active) {
		regions_env_free(x->rg.env);
		regions_release(&x->rg.h);
	}
	free_padded_env(x->padded);
	if (x->have_cr)
		callcount_run_release(&x->cr);
	if (x->have_sim)
		sim_run_release(&x->sim);
	free(x->events);
	free(x->leaders);
}

static int run_slot(struct campaign *c, const struct sched_slot *slot, struct error *err)
{
	struct measure_spec spec = { 0 };
	struct measure_outcome out;
	struct result_run *run;
	struct run_extras x;
	double start = now_epoch();
	int rc;

	spec.argv = c->run_argv[slot->variant];
	spec.show_output = c->o->show_output;
	spec.pin_cpu = c->o->pin_cpu;
	spec.timeout_s = slot->sim ? 0 : c->o->timeout_s;
	plan_run_leaders(&c->plan, slot->group, c->nevents, c->leaders);
	spec.events = c->events;
	spec.group = c->leaders;
	spec.nevents = c->nevents;
	if (extras_begin(c, slot, &x, &spec, err)) {
		extras_end(&x);
		return -1;
	}
	rc = measure_run(&spec, &c->server, &c->sw, &out, err);
	if (rc == 0) {
		run = record_run(c, slot, start, &out);
		if (x.have_sim)
			campaign_record_sim(c, run, &x.sim);
		else
			campaign_record_calls(c, run, &x.cr, &out, c->nevents);
		campaign_regions_end(c, &x.rg, (size_t)run->index);
		run = &c->res.runs[run->index];	/* regions may have grown the values */
		campaign_compute_formulas(c, run);
		rc = persist_run(c, run, err);
		if (!rc && run->status == RUN_EXEC_FAILED)
			rc = run_failure(c, run, &out, err);
		else if (!rc && !c->o->ignore_failure && run->status != RUN_OK &&
			 run->status != RUN_INTERRUPTED)
			rc = run_failure(c, run, &out, err);
	}
	extras_end(&x);
	measure_outcome_release(&out);
	return rc;
}

static void note_ignored_failures(struct campaign *c)
{
	size_t failed = 0, signaled = 0, timeout = 0, measured = 0;

	for (size_t i = 0; i < c->res.nruns; i++) {
		const struct result_run *run = &c->res.runs[i];

		if (run->warmup)
			continue;
		measured++;
		failed += run->status == RUN_FAILED;
		signaled += run->status == RUN_SIGNALED;
		timeout += run->status == RUN_TIMEOUT;
	}
	if (failed)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"%zu of %zu runs exited with a non-zero status: kept in the "
				"statistics (-i)", failed, measured);
	if (signaled)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"%zu of %zu runs were killed by a signal: left out of the "
				"statistics (-i)", signaled, measured);
	if (timeout)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"%zu of %zu runs timed out after %g s: left out of the "
				"statistics (-i)", timeout, measured, c->o->timeout_s);
}

/* Stop before a block that would overrun the time budget: the mean block
 * time so far predicts the next one. */
static int over_budget(const struct campaign *c, unsigned blocks_run, struct strbuf *why)
{
	double elapsed = (double)(clock_now_ns() - c->t0) / 1e9;

	if (!c->o->max_time_s || !blocks_run ||
	    elapsed + elapsed / blocks_run <= c->o->max_time_s)
		return 0;
	strbuf_addf(why, "time budget of %g s reached", c->o->max_time_s);
	return 1;
}

static void note_interrupted(struct campaign *c, size_t total)
{
	size_t finished = 0;

	for (size_t i = 0; i < c->res.nruns; i++)
		finished += c->res.runs[i].status != RUN_INTERRUPTED;
	c->res.interrupted = 1;
	free(c->res.stop_reason);
	c->res.stop_reason = xstrdup(c->sw.stop_signal == SIGINT ? "interrupted by SIGINT"
								  : "interrupted by SIGTERM");
	result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
			"%s after %zu of %zu runs: the statistics use the runs that finished",
			c->res.stop_reason, finished, total);
}

/* Run one block's slots; 0, or -1 when a run failed (err) — a stop request
 * just ends the block early. */
static int run_block(struct campaign *c, struct sched_slot *slots, size_t *done, size_t total,
		     const char *status, struct error *err)
{
	for (size_t i = 0; i < c->res.nvariants; i++) {
		sigwatch_poll(&c->sw);
		if (c->sw.stop_signal)
			return 0;
		if (run_slot(c, &slots[i], err))
			return -1;
		progress(c, ++*done, total, status);
	}
	return 0;
}

/* The native blocks, under the stopping rule and the time budget. */
static int run_native(struct campaign *c, struct schedule *sched, size_t *done, size_t total,
		      struct strbuf *why, struct error *err)
{
	struct sched_slot slots[64];
	struct strbuf status = STRBUF_INIT;
	unsigned nblocks = c->o->warmup + c->o->repeat;
	int rc = 0, stop = 0;

	for (unsigned b = 0; b < nblocks && !stop; b++) {
		schedule_block(sched, (int)b, slots);
		rc = run_block(c, slots, done, total, status.buf, err);
		if (rc || c->sw.stop_signal)
			break;
		if (b >= c->o->warmup && c->o->after_block) {
			strbuf_reset(&status);
			stop = c->o->after_block(&c->res, b + 1 - c->o->warmup, c->o->after_data,
						 why, &status);
		}
		if (!stop && b + 1 < nblocks)
			stop = over_budget(c, b + 1, why);
		c->native_blocks = b + 1;
	}
	strbuf_release(&status);
	return rc;
}

/* Simulated blocks after the native ones: counts of a model are exact, so a
 * few suffice, and they never touch the stopping rule. */
static int run_simulated(struct campaign *c, struct schedule *sched, size_t *done,
			 size_t total, struct error *err)
{
	struct sched_slot slots[64];

	for (unsigned b = 0; b < c->sim_runs && !c->sw.stop_signal; b++) {
		schedule_block(sched, (int)(c->native_blocks + b), slots);
		for (size_t i = 0; i < c->res.nvariants; i++) {
			slots[i].sim = 1;
			slots[i].warmup = 0;
		}
		if (run_block(c, slots, done, total, "simulating", err))
			return -1;
	}
	return 0;
}

int campaign_run(struct campaign *c, struct error *err)
{
	struct schedule sched;
	struct strbuf why = STRBUF_INIT;
	unsigned native = c->native ? c->o->warmup + c->o->repeat : 0;
	size_t total = (size_t)(native + (c->nsim ? c->sim_runs : 0)) * c->res.nvariants;
	size_t done = 0;
	int rc = 0;

	if (sigwatch_init(&c->sw, err))
		return -1;
	c->t0 = clock_now_ns();
	schedule_init(&sched, c->o->seed, (int)c->res.nvariants,
		      (int)(c->plan.ngroups ? c->plan.ngroups : 1), c->o->warmup,
		      c->o->env_pad_max, c->o->shuffle);
	if (c->native)
		rc = run_native(c, &sched, &done, total, &why, err);
	if (!rc && c->nsim)
		rc = run_simulated(c, &sched, &done, total, err);
	progress_done(c);
	if (c->sw.stop_signal)
		note_interrupted(c, total);
	else if (!rc)
		c->res.stop_reason = xstrdup(why.len ? why.buf
						     : c->o->done_reason ? c->o->done_reason
									 : "all runs done");
	if (c->o->ignore_failure)
		note_ignored_failures(c);
	strbuf_release(&why);
	/* Signals stay blocked until campaign_release: a second Ctrl-C while the
	 * outputs are written must not cut them short. */
	return rc;
}

int campaign_finish(struct campaign *c, struct error *err)
{
	c->res.complete = 1;
	if (c->csv.f && csv_close(&c->csv, err))
		return -1;
	if (c->o->json_path && strcmp(c->o->json_path, "-"))
		return report_json_write(&c->res, c->o->json_path, err);
	return 0;
}

int campaign_opts_modes(struct campaign_opts *o, const char *backend, const char *calls,
			struct error *err)
{
	if (backend && backend_mode_parse(backend, &o->backend, err))
		return -1;
	if (calls && callcount_mech_parse(calls, &o->call_mech, err))
		return -1;
	return 0;
}

int campaign_prepare(struct campaign *c, struct error *err)
{
	if (campaign_plan(c, err))
		return -1;
	return c->o->dry_run ? 0 : campaign_check(c, err);
}

static int print_dry_run(const struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;
	struct table_opts to = { 0 };

	campaign_dry_run(c, &sb);
	report_notes(&c->res, NULL, 0, &to, &sb);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return PMU_EXIT_OK;
}

/* Shown on a stopped campaign so the failing run's own words are not lost. */
static void show_failure_stderr(const struct campaign *c)
{
	size_t len;

	if (!c->failure_stderr)
		return;
	len = strlen(c->failure_stderr);
	fprintf(stderr, "--- stderr of the failing run (last %zu bytes) ---\n%s", len,
		c->failure_stderr);
	if (len && c->failure_stderr[len - 1] != '\n')
		fputc('\n', stderr);
	fputs("---\n", stderr);
}

static void render_table(const struct campaign *c, campaign_renderer render)
{
	struct table_opts to = { 0 };
	struct strbuf sb = STRBUF_INIT;
	FILE *f = c->o->json_path && !strcmp(c->o->json_path, "-") ? stderr : stdout;

	if (c->o->quiet)
		return;
	to.color = isatty(fileno(f)) && !getenv("NO_COLOR");
	render(&c->res, &to, &sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

int campaign_conclude(struct campaign *c, campaign_renderer render)
{
	struct error err, err2;
	int rc;

	if (c->o->dry_run)
		return print_dry_run(c);
	error_clear(&err);
	error_clear(&err2);
	rc = campaign_run(c, &err);
	if (campaign_finish(c, &err2))
		cli_error(&err2);
	if (!rc || c->res.interrupted)
		render_table(c, render);
	if (c->o->json_path && !strcmp(c->o->json_path, "-") &&
	    report_json_write(&c->res, "-", &err2))
		cli_error(&err2);
	if (rc) {
		show_failure_stderr(c);
		return cli_error(&err);
	}
	if (c->res.interrupted)
		return PMU_EXIT_INTERRUPTED;
	return err2.kind != ERR_NONE ? PMU_EXIT_RUNTIME : PMU_EXIT_OK;
}
