/*
 * The campaign's target (target.h): stat -p PIDS, -t TIDS, -a [-C CPUS],
 * and -I MS on a command. Each is one attach session (run/attach.h) whose
 * runs are its intervals: without -I, one run from the start to the end
 * (the command after `--` exits, --duration passes, every attached task
 * exits, or Ctrl-C); with -I, one run per interval, the last one shorter.
 * The block loop stays the same; only the step that measures a run and the
 * question "is this over?" are the session's.
 *
 * Like perf stat, -p opens every counter once per thread of the process
 * (the threads in /proc/PID/task when counting starts), with inherit, so
 * threads and children created later count too; -a opens each counter once
 * per CPU (pid -1), and an uncore event (amd_l3) only on the CPUs of its
 * PMU's cpumask, one per L3 complex, as the kernel expects. The values of a
 * run are sums over those instances; time_enabled and time_running too.
 * Ctrl-C ends a session normally (exit 0), as it ends perf stat -p.
 */
#include "campaign/target.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/perf_event.h"
#include "campaign/mechanism.h"
#include "core/idlist.h"
#include "run/attach.h"

struct target_state {
	int *ids;		/* -p/-t ids, sorted */
	size_t nids;
	pid_t *inst_pid;	/* instances: threads (or none) */
	int *inst_owner;	/* index in ids of each thread's process */
	int *cpus;		/* system-wide */
	size_t ninst, ncpus;
	char *said;		/* per id: its exit was noted */
	struct attach a;
	int open, ended;
	uint64_t t0;		/* start of the session */
	struct strbuf why;
	size_t runs;
	/* --per-thread: metric pt[k * ninst + j] is base metric ptbase[k] on
	 * thread j; per holds the last interval's readings by event. */
	size_t *ptbase, *pt, npt;
	struct perf_reading *per;
	int *per_ok;
	size_t *ev_metric;	/* per event of the session: its base metric, or -1 */
	size_t nev;
};

static const char *const kind_word[] = { "command", "pids", "tids", "system" };

int campaign_target_session(const struct campaign_opts *o)
{
	return o->target.kind != TARGET_COMMAND || o->target.interval_ms > 0;
}

/* The threads of process pid, from /proc/PID/task. */
static int add_threads(struct target_state *t, int pid, int owner)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		int tid = atoi(e->d_name);

		if (tid <= 0)
			continue;
		t->inst_pid = xrealloc(t->inst_pid, (t->ninst + 1) * sizeof(pid_t));
		t->inst_owner = xrealloc(t->inst_owner, (t->ninst + 1) * sizeof(int));
		t->inst_pid[t->ninst] = tid;
		t->inst_owner[t->ninst++] = owner;
		n++;
	}
	closedir(d);
	return n ? 0 : -1;
}

static int no_such_task(const char *what, int id, struct error *err)
{
	error_set(err, ERR_USAGE, "no %s %d: it does not exist (or has exited)", what, id);
	return error_hint(err, "check it with 'ps -L -p %d', or list processes with 'ps -e'", id);
}

static int plan_tasks(struct campaign *c, struct target_state *t, struct error *err)
{
	int tids = c->o->target.kind == TARGET_TIDS;
	const char *what = tids ? "thread" : "process";

	if (idlist_parse(c->o->target.ids, 0, tids ? "thread id list" : "pid list", &t->ids,
			 &t->nids, err))
		return -1;
	for (size_t k = 0; k < t->nids; k++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/stat", t->ids[k]);
		if (t->ids[k] <= 0 || access(path, F_OK))
			return no_such_task(what, t->ids[k], err);
		if (tids) {
			t->inst_pid = xrealloc(t->inst_pid, (t->ninst + 1) * sizeof(pid_t));
			t->inst_owner = xrealloc(t->inst_owner, (t->ninst + 1) * sizeof(int));
			t->inst_pid[t->ninst] = t->ids[k];
			t->inst_owner[t->ninst++] = (int)k;
		} else if (add_threads(t, t->ids[k], (int)k)) {
			return no_such_task(what, t->ids[k], err);
		}
	}
	t->said = xcalloc(t->nids + 1, 1);
	return 0;
}

/* The online CPUs, from the kernel's own list. */
static int online_cpus(int **cpus, size_t *n, struct error *err)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	size_t len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	buf[len] = '\0';
	if (!len) {
		long np = sysconf(_SC_NPROCESSORS_ONLN);

		snprintf(buf, sizeof(buf), "0-%ld", np > 0 ? np - 1 : 0);
	}
	return idlist_parse(buf, 1, "online CPU list", cpus, n, err);
}

static int plan_cpus(struct campaign *c, struct target_state *t, struct error *err)
{
	int *online;
	size_t nonline;
	struct strbuf sb = STRBUF_INIT;

	if (online_cpus(&online, &nonline, err))
		return -1;
	if (!c->o->target.cpus) {
		t->cpus = online;
		t->ncpus = nonline;
		return 0;
	}
	if (idlist_parse(c->o->target.cpus, 1, "CPU list", &t->cpus, &t->ncpus, err)) {
		free(online);
		return -1;
	}
	for (size_t k = 0; k < t->ncpus; k++)
		if (!idlist_has(online, nonline, t->cpus[k])) {
			idlist_format(online, nonline, &sb);
			error_set(err, ERR_USAGE, "invalid CPU list '%s': CPU %d is not online here",
				  c->o->target.cpus, t->cpus[k]);
			error_hint(err, "choose among the online CPUs %s (-C)", sb.buf);
			strbuf_release(&sb);
			free(online);
			return -1;
		}
	free(online);
	return 0;
}

/* What an attach session cannot do: what a mechanism of the table refuses
 * (those that need a child per run), then the campaign's own per-run
 * bounds. */
static int refuse_options(const struct campaign *c, struct error *err)
{
	const char *bad = NULL;

	for (const struct mechanism_ops *const *t = campaign_mechanisms; *t && !bad; t++)
		if ((*t)->attach_refusal)
			bad = (*t)->attach_refusal(c);
	if (!bad)
		bad = c->o->timeout_s > 0 ? "--timeout"
		      : c->o->max_time_s > 0 ? "--max-time"
		      : c->o->warmup ? "--warmup" : NULL;
	if (!bad)
		return 0;
	error_set(err, ERR_USAGE, "%s cannot be used with -p, -t, -a or -I", bad);
	return error_hint(err, "these count what runs already, in one session: drop %s, "
			  "or measure a command per run without them (bound the session with "
			  "--duration)", bad);
}

static void describe(struct campaign *c, struct target_state *t)
{
	struct result_target *rt = &c->res.attach;
	struct strbuf sb = STRBUF_INIT;

	rt->kind = xstrdup(kind_word[c->o->target.kind]);
	rt->interval_ms = c->o->target.interval_ms;
	rt->duration_s = c->o->target.duration_s;
	if (t->nids) {
		idlist_format(t->ids, t->nids, &sb);
		rt->ids = strbuf_detach(&sb);
		for (size_t j = 0; j < t->ninst; j++)
			strbuf_addf(&sb, "%s%d", j ? "," : "", t->inst_pid[j]);
		rt->threads = strbuf_detach(&sb);
	}
	if (t->ncpus) {
		idlist_format(t->cpus, t->ncpus, &sb);
		rt->cpus = strbuf_detach(&sb);
	}
	strbuf_release(&sb);
}

int campaign_target_plan(struct campaign *c, struct error *err)
{
	struct target_state *t;
	enum target_kind k = c->o->target.kind;

	if (!campaign_target_session(c->o))
		return 0;
	if (refuse_options(c, err))
		return -1;
	t = xcalloc(1, sizeof(*t));
	c->target = t;
	c->launch = &campaign_target_launcher;
	t->why = (struct strbuf)STRBUF_INIT;
	if ((k == TARGET_PIDS || k == TARGET_TIDS) && plan_tasks(c, t, err))
		return -1;
	if (k == TARGET_SYSTEM && plan_cpus(c, t, err))
		return -1;
	if (c->o->target.per_thread && !t->nids) {
		error_set(err, ERR_USAGE, "--per-thread needs -p or -t");
		return error_hint(err, "attach to the process: 'pmustat stat -p PID --per-thread'");
	}
	describe(c, t);
	return 0;
}

static void mark_not_reaped(struct campaign *c)
{
	static const char *const names[] = { "user-time", "sys-time", "max-rss" };

	for (size_t k = 0; k < 3; k++) {
		int m = result_metric_index(&c->res, names[k]);

		if (m >= 0)
			campaign_mark_unavailable(&c->res.metrics[m],
						  "rusage is known only for a child pmustat reaps, "
						  "once per run, not per interval",
						  "task-clock counts the CPU time of what is attached");
	}
}

static int permission_error(const struct campaign *c, struct error *err);

/* --per-thread: one metric per counted event and thread, "task-clock[1234]"
 * (the thread id in brackets), in the table, the rows and the JSON. */
static void add_per_thread(struct campaign *c, struct target_state *t)
{
	size_t nbase = c->res.nmetrics;

	for (size_t m = 0; m < nbase; m++) {
		const struct result_metric *b = &c->res.metrics[m];

		if (b->source != MSRC_PERF || !b->available || b->hidden)
			continue;
		t->ptbase = xrealloc(t->ptbase, (t->npt + 1) * sizeof(size_t));
		t->ptbase[t->npt++] = m;
	}
	t->pt = xcalloc(t->npt * t->ninst + 1, sizeof(size_t));
	for (size_t k = 0; k < t->npt; k++)
		for (size_t j = 0; j < t->ninst; j++) {
			struct strbuf name = STRBUF_INIT;
			struct result_metric *pm, *b;

			strbuf_addf(&name, "%s[%d]", c->res.metrics[t->ptbase[k]].name,
				    t->inst_pid[j]);
			pm = result_add_metric(&c->res, name.buf, c->res.metrics[t->ptbase[k]].unit,
					       MSRC_PERF);
			b = &c->res.metrics[t->ptbase[k]];
			pm->pmu = b->pmu ? xstrdup(b->pmu) : NULL;
			pm->type = b->type;
			pm->config = b->config;
			pm->config1 = b->config1;
			pm->config2 = b->config2;
			pm->scale = b->scale;
			pm->implicit = 1;
			t->pt[k * t->ninst + j] = c->res.nmetrics - 1;
			strbuf_release(&name);
		}
}

/* A session with no counter at all would print an empty table: an error,
 * with the first reason (a permission is the usual one with -a). */
static int nothing_countable(const struct campaign *c, struct error *err)
{
	const struct result_metric *first = NULL;

	for (size_t m = 0; m < c->res.nmetrics; m++) {
		const struct result_metric *met = &c->res.metrics[m];

		if (met->source != MSRC_PERF)
			continue;
		if (met->available)
			return 0;
		if (!first)
			first = met;
	}
	if (!first || c->o->dry_run)
		return 0;
	if (first->reason && strstr(first->reason, "permission denied"))
		return permission_error(c, err);
	error_set(err, ERR_RUNTIME, "nothing to count here: '%s' %s", first->name,
		  first->reason ? first->reason : "cannot be counted");
	return error_hint(err, "%s", first->hint ? first->hint
				     : "count software events: -e task-clock,context-switches");
}

int campaign_target_plan_done(struct campaign *c, struct error *err)
{
	const struct target_state *t = c->target;
	const struct result_target *rt = &c->res.attach;
	unsigned ms = c->o->target.interval_ms;

	if (!t)
		return 0;
	if (nothing_countable(c, err))
		return -1;
	mark_not_reaped(c);
	if (c->o->target.per_thread)
		add_per_thread(c, c->target);
	/* Every group is open in every interval (mech_perf): one schedule. */
	if (c->groups > 1)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"%zu counter groups counted at once, multiplexed by the kernel "
				"(time_running says for how long each counted)", c->groups);
	c->groups = 1;
	for (size_t m = 0; m < c->res.nmetrics; m++)
		if (c->res.metrics[m].group > 0)
			c->res.metrics[m].group = 0;
	if (c->o->target.kind == TARGET_SYSTEM)
		result_add_note(&c->res, NOTE_NOTE, NULL,
				"pin the workload with --pin CPU and count that CPU with -C CPU "
				"for a cleaner picture",
				"system-wide: counts every task on CPUs %s (pmustat's own and the "
				"kernel's included, not one process), each counter opened once per "
				"CPU; uncore counters once per unit of their PMU's cpumask",
				rt->cpus);
	else if (t->nids)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"attached to %s %s: counters opened on its %zu thread%s (those in "
				"/proc/PID/task at the start) with inherit, so threads and "
				"children created later count too", t->nids > 1 ? "tasks" :
				c->o->target.kind == TARGET_TIDS ? "thread" : "process",
				rt->ids, t->ninst, t->ninst == 1 ? "" : "s");
	if (ms)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
				"runs are intervals of %u ms (-I), the last one shorter; the "
				"counters stay open between them, each run is what they counted "
				"in its interval", ms);
	return 0;
}

/* Which CPUs event ev opens on: an uncore PMU's cpumask names one CPU per
 * unit (package, L3 complex); counting on every CPU would count each unit
 * once per CPU of it. */
static void where_cpus(const struct campaign *c, const struct target_state *t,
		       const struct event_spec *ev, unsigned char *row)
{
	const struct sysfs_pmu *p = ev->uncore ? sysfs_pmu_find(&c->model, ev->pmu) : NULL;
	int *mask = NULL;
	size_t nmask = 0;
	struct error err;

	if (p && p->cpumask) {
		char *s = xstrdup(p->cpumask);

		s[strcspn(s, "\n")] = '\0';
		if (idlist_parse(s, 1, "cpumask", &mask, &nmask, &err))
			p = NULL;
		free(s);
	}
	for (size_t j = 0; j < t->ncpus; j++)
		row[j] = !p || !mask || idlist_has(mask, nmask, t->cpus[j]);
	free(mask);
}

static void note_open_failures(struct campaign *c, const struct measure_spec *spec,
			       const int *open_errno)
{
	for (size_t i = 0; i < spec->nevents; i++) {
		struct error why;

		if (!open_errno[i])
			continue;
		error_clear(&why);
		perf_open_strerror(&spec->events[i], open_errno[i], &c->res.host, &why);
		result_add_note(&c->res, NOTE_WARNING, spec->events[i].name,
				why.hint[0] ? why.hint : NULL, "%s (when attaching)", why.msg);
	}
}

static int permission_error(const struct campaign *c, struct error *err)
{
	if (c->o->target.kind == TARGET_SYSTEM) {
		error_set(err, ERR_RUNTIME, "cannot count system-wide: permission denied");
		return error_hint(err, "counting all CPUs needs root, CAP_PERFMON, or 'sysctl "
				  "kernel.perf_event_paranoid=0' (now %d); see 'pmustat doctor'",
				  c->res.host.paranoid);
	}
	error_set(err, ERR_RUNTIME, "cannot count %s %s: permission denied",
		  c->o->target.kind == TARGET_TIDS ? "thread" : "process", c->res.attach.ids);
	return error_hint(err, "another user's task needs root or CAP_PERFMON (or ptrace "
			  "access to it), and kernel.perf_event_paranoid<=2 (now %d); see "
			  "'pmustat doctor'", c->res.host.paranoid);
}

/* Nothing at all could be opened: say why, as one error. */
static int open_failed(struct campaign *c, const struct measure_spec *spec,
		       const int *open_errno, struct error *err)
{
	int e = 0;

	for (size_t i = 0; i < spec->nevents; i++) {
		if (!open_errno[i] && spec->group[i] != (size_t)-1)
			return 0;
		if (open_errno[i])
			e = open_errno[i];
	}
	if (!spec->nevents || !e)
		return 0;
	if (e == ESRCH)
		return error_set(err, ERR_RUNTIME, "cannot count %s %s: it exited before "
				 "counting started", c->res.attach.kind, c->res.attach.ids);
	if (e == EACCES || e == EPERM)
		return permission_error(c, err);
	error_set(err, ERR_RUNTIME, "cannot count the target: %s", strerror(e));
	return error_hint(err, "see 'pmustat doctor'");
}

static int session_open(struct campaign *c, struct target_state *t,
			const struct measure_spec *spec, struct error *err)
{
	struct attach_opts ao = { 0 };
	unsigned char *where = NULL;
	int *open_errno = xcalloc(spec->nevents + 1, sizeof(int));
	int rc;

	ao.cmd = (struct spawn_opts){ spec->argv && spec->argv[0] ? spec->argv : NULL, spec->envp,
				      spec->show_output, spec->pin_cpu, spec->keep_children };
	ao.count_cmd = c->o->target.kind == TARGET_COMMAND;
	if (t->ncpus) {
		ao.cpus = t->cpus;
		ao.ninst = t->ncpus;
		where = xcalloc(spec->nevents * t->ncpus + 1, 1);
		for (size_t i = 0; i < spec->nevents; i++)
			where_cpus(c, t, &spec->events[i], where + i * t->ncpus);
		ao.where = where;
	} else {
		ao.pids = t->inst_pid;
		ao.ninst = t->ninst;
	}
	rc = attach_open(&t->a, &ao, spec->events, spec->group, spec->nevents, open_errno,
			 &c->server, &c->sw, err);
	t->open = 1;
	if (!rc)
		rc = open_failed(c, spec, open_errno, err);
	if (!rc)
		note_open_failures(c, spec, open_errno);
	t->t0 = t->a.t_last;
	free(where);
	free(open_errno);
	return rc;
}

/* The ids whose every thread has exited, each said once. */
static void note_exits(struct campaign *c, struct target_state *t)
{
	size_t gone = 0;

	for (size_t k = 0; k < t->nids; k++) {
		int alive = 0;

		for (size_t j = 0; j < t->ninst; j++)
			alive |= t->inst_owner[j] == (int)k && !t->a.hup[j];
		if (alive)
			continue;
		gone++;
		if (!t->said[k]) {
			t->said[k] = 1;
			result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
					"%s %d exited %.3f s after counting started",
					c->o->target.kind == TARGET_TIDS ? "thread" : "process",
					t->ids[k], (double)(clock_now_ns() - t->t0) / 1e9);
		}
	}
	if (t->nids && gone == t->nids && !t->ended) {
		t->ended = 1;
		strbuf_addf(&t->why, "%s attached exited",
			    t->nids > 1 ? "every task" : c->o->target.kind == TARGET_TIDS
			    ? "the thread" : "the process");
	}
}

static void end_session(struct target_state *t, const char *why)
{
	if (t->ended)
		return;
	t->ended = 1;
	strbuf_adds(&t->why, why);
}

static uint64_t next_wake(const struct campaign *c, const struct target_state *t)
{
	uint64_t until = 0, ms = c->o->target.interval_ms;

	/* On a fixed grid from the start, so the time a run's recording takes
	 * does not push every later interval back. */
	if (ms)
		until = t->t0 + (uint64_t)(t->runs + 1) * ms * 1000000u;
	if (c->o->target.duration_s > 0) {
		uint64_t end = t->t0 + (uint64_t)(c->o->target.duration_s * 1e9);

		if (!until || end < until)
			until = end;
	}
	return until;
}

static void handle_wake(struct campaign *c, struct target_state *t, enum attach_wake w,
			struct measure_outcome *out)
{
	switch (w) {
	case ATTACH_STOP:
		/* Ctrl-C ends the session, as it ends perf stat -p: a normal end
		 * with every interval kept, not an interrupted campaign. */
		end_session(t, c->sw.stop_signal == SIGINT ? "stopped by SIGINT (Ctrl-C)"
						     : "stopped by SIGTERM");
		c->sw.stop_signal = 0;
		break;
	case ATTACH_CMD_EXITED:
		note_exits(c, t);
		out->sp = t->a.cmd_res;
		end_session(t, "the command exited");
		break;
	case ATTACH_TASK_EXITED:
		break;	/* said by note_exits already */
	case ATTACH_TIME:
		if (c->o->target.duration_s > 0 &&
		    clock_now_ns() >= t->t0 + (uint64_t)(c->o->target.duration_s * 1e9)) {
			char why[64];

			snprintf(why, sizeof(why), "duration of %g s reached",
				 c->o->target.duration_s);
			end_session(t, why);
		}
		break;
	}
}

int campaign_target_measure(struct campaign *c, const struct measure_spec *spec,
			    struct measure_outcome *out, struct error *err)
{
	struct target_state *t = c->target;
	size_t n = spec->nevents ? spec->nevents : 1;
	uint64_t wall;
	enum attach_wake w;

	memset(out, 0, sizeof(*out));
	out->readings = xcalloc(n, sizeof(*out->readings));
	out->read_ok = xcalloc(n, sizeof(int));
	out->open_errno = xcalloc(n, sizeof(int));
	out->sp.outcome = SPAWN_EXITED;
	if (!t->open && session_open(c, t, spec, err))
		return -1;
	if (spec->nevents != t->a.nevents)
		return error_set(err, ERR_RUNTIME, "the counters changed between intervals");
	/* A task that exits while others still run is said, and the interval
	 * goes on. */
	do {
		w = attach_wait(&t->a, &c->sw, next_wake(c, t));
		if (w == ATTACH_TASK_EXITED)
			note_exits(c, t);
	} while (w == ATTACH_TASK_EXITED && !t->ended);
	if (t->npt && !t->per) {
		t->nev = spec->nevents;
		t->per = xcalloc(t->nev * t->a.ninst + 1, sizeof(*t->per));
		t->per_ok = xcalloc(t->nev * t->a.ninst + 1, sizeof(int));
		t->ev_metric = xcalloc(t->nev + 1, sizeof(size_t));
		for (size_t i = 0; i < t->nev; i++)
			t->ev_metric[i] = (size_t)result_metric_index(&c->res, spec->events[i].name);
	}
	attach_read(&t->a, out->readings, out->read_ok, t->per, t->per_ok, &wall);
	handle_wake(c, t, w, out);
	out->sp.wall_ns = wall;
	memset(&out->sp.ru, 0, sizeof(out->sp.ru));
	t->runs++;
	if (t->ended && t->a.have_cmd && !t->a.cmd_over) {
		struct error e2;

		error_clear(&e2);
		attach_close(&t->a, &e2);
		t->open = 0;
		if (c->o->target.kind != TARGET_COMMAND)
			result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
					"the command was stopped when counting ended (%s)",
					t->why.buf);
	}
	return 0;
}

void campaign_target_end(struct campaign *c, size_t run_index)
{
	struct target_state *t = c->target;
	struct result_run *run = &c->res.runs[run_index];

	if (!t || !t->per || run->status == RUN_EXEC_FAILED)
		return;
	for (size_t i = 0; i < t->nev; i++)
		for (size_t k = 0; k < t->npt; k++) {
			if (t->ptbase[k] != t->ev_metric[i])
				continue;
			for (size_t j = 0; j < t->ninst && j < t->a.ninst; j++) {
				const struct perf_reading *r = &t->per[i * t->a.ninst + j];
				struct result_value *v = &run->values[t->pt[k * t->ninst + j]];

				if (!t->per_ok[i * t->a.ninst + j])
					continue;	/* not open on it */
				v->valid = 1;
				v->value = (double)r->value;
				v->enabled = r->enabled;
				v->running = r->running;
			}
		}
}

int campaign_target_ended(struct campaign *c, struct strbuf *why)
{
	struct target_state *t = c->target;

	if (!t || !t->ended)
		return 0;
	strbuf_adds(why, t->why.buf);
	return 1;
}

const struct campaign_launcher campaign_target_launcher = {
	.measure = campaign_target_measure,
	.recorded = campaign_target_end,
	.ended = campaign_target_ended,
};

static void dry_run_event(const struct campaign *c, const struct target_state *t,
			  const struct result_metric *m, struct strbuf *out)
{
	struct event_spec ev = { 0 };
	unsigned char *row = xcalloc(t->ncpus + 1, 1);
	int *on = xcalloc(t->ncpus + 1, sizeof(int));
	size_t non = 0;

	ev.pmu = m->pmu;
	{
		const struct sysfs_pmu *p = sysfs_pmu_find(&c->model, m->pmu);

		ev.uncore = p && p->cpumask;
	}
	where_cpus(c, t, &ev, row);
	for (size_t j = 0; j < t->ncpus; j++)
		if (row[j])
			on[non++] = t->cpus[j];
	strbuf_addf(out, "    %-40s pmu %s  type %u  config 0x%llx  pid -1  cpu ", m->name, m->pmu,
		    m->type, (unsigned long long)m->config);
	idlist_format(on, non, out);
	strbuf_adds(out, ev.uncore ? "  (its PMU's cpumask)\n" : "\n");
	free(row);
	free(on);
}

void campaign_target_dry_run(const struct campaign *c, struct strbuf *out)
{
	const struct target_state *t = c->target;
	const struct result_target *rt = &c->res.attach;

	if (!t)
		return;
	if (!t->ncpus) {
		strbuf_addf(out, "target: %s %s: every counter opened on each of %zu thread%s "
			    "(pid = tid, cpu -1, inherit)\n", rt->kind,
			    rt->ids ? rt->ids : "(the command)", t->ninst ? t->ninst : 1,
			    t->ninst == 1 ? "" : "s");
		return;
	}
	strbuf_addf(out, "target: system-wide on CPUs %s: every counter opened once per CPU "
		    "(pid -1, cpu N)\n", rt->cpus);
	for (size_t m = 0; m < c->res.nmetrics; m++) {
		const struct result_metric *met = &c->res.metrics[m];

		if (met->source == MSRC_PERF && met->available && met->pmu)
			dry_run_event(c, t, met, out);
	}
}

int campaign_target_probe_cpu(const struct campaign *c)
{
	return c->target && c->target->ncpus ? c->target->cpus[0] : -1;
}

void campaign_target_release(struct campaign *c)
{
	struct target_state *t = c->target;
	struct error err;

	if (!t)
		return;
	if (t->open)
		attach_close(&t->a, &err);
	free(t->ids);
	free(t->inst_pid);
	free(t->inst_owner);
	free(t->cpus);
	free(t->said);
	free(t->ptbase);
	free(t->pt);
	free(t->per);
	free(t->per_ok);
	free(t->ev_metric);
	strbuf_release(&t->why);
	free(t);
	c->target = NULL;
}
