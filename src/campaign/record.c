/*
 * Recording and persisting runs. A finished run becomes a record (status
 * from the spawn, what it left behind, values from every mechanism), then
 * one line appended to the journal next to `-o FILE` and rows appended to
 * the CSV — O(1) per run, so a campaign of ten thousand runs costs what
 * one of ten does, per run.
 * The full document (summaries, comparisons) is written once, at the end
 * or on an interrupt (campaign_finish); a kill -9 leaves the journal, which
 * `pmustat report` reads. An output that cannot be written stops the
 * campaign with one error; what was written before is kept, and the result
 * is never marked complete.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "campaign/mechanism.h"
#include "core/outfile.h"
#include "core/strbuf.h"
#include "result/journal.h"
#include "result/json.h"

static double now_epoch(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs noted one by one for leaving processes behind; the rest are summed
 * up at the end (campaign_note_left_behind). */
#define LEFT_NOTES_MAX 3

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

static const char *left_fate(int kept)
{
	return kept ? "kept" : "killed";
}

/* "run 3 left 2 processes behind (killed): sleep[812], sleep[813]", or
 * "run 3 timed out with 2 more processes running (killed): ..." */
static void note_left_behind(struct campaign *c, const struct result_run *run,
			     const struct spawn_result *sp)
{
	const char *ended = run->status == RUN_TIMEOUT ? "timed out"
			    : run->status == RUN_INTERRUPTED ? "was interrupted" : NULL;
	const char *s = sp->left == 1 ? "" : "es";

	c->left_runs++;
	c->left_total += sp->left;
	if (c->left_runs > LEFT_NOTES_MAX)
		return;
	if (ended)
		result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
				"run %d %s with %u more process%s running (killed): %s",
				run->index + 1, ended, sp->left, s, sp->left_names);
	else
		result_add_note(&c->res, NOTE_WARNING, NULL,
				sp->left_kept ? "they are still running: stop them yourself, or "
						"drop --keep-children"
					      : "use --keep-children to let them live on",
				"run %d left %u process%s behind (%s): %s", run->index + 1, sp->left,
				s, left_fate(sp->left_kept), sp->left_names);
}

size_t campaign_record(struct campaign *c, const struct sched_slot *slot, double start,
		       const struct measure_outcome *out)
{
	struct result_run *run = result_add_run(&c->res);
	const struct spawn_result *sp = &out->sp;

	run->variant = slot->variant;
	run->block = slot->block;
	run->position = slot->position;
	run->group = slot->group;
	run->warmup = slot->warmup;
	run->simulated = slot->sim;
	run->traced = slot->traced;
	run->instrumented = slot->instrumented != 0;
	run->env_pad = slot->env_pad;
	run->start_time = start > 0 ? start : now_epoch();
	run->status = status_of(sp);
	if (run->status == RUN_OK || run->status == RUN_FAILED)
		run->exit_code = sp->status;
	else if (run->status == RUN_EXEC_FAILED)
		run->exec_errno = sp->status;
	else
		run->signal = sp->status;
	run->left_behind = sp->left;
	run->left_kept = sp->left_kept;
	if (sp->left)
		note_left_behind(c, run, sp);
	/* An instrumented run's wall time is its mechanism's cost (cost.c). */
	if (slot->instrumented && run->status == RUN_OK)
		campaign_set_value(c, (size_t)run->index,
				   c->mech[slot->instrumented - 1].cost_metric, (double)sp->wall_ns);
	return (size_t)run->index;
}

/* ---- outputs ------------------------------------------------------------ */

static int json_to_file(const struct campaign *c)
{
	return c->o->json_path && strcmp(c->o->json_path, "-");
}

static char *journal_path_of(const char *json_path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s.journal", json_path);
	return strbuf_detach(&sb);
}

int campaign_outputs_check(const struct campaign *c, struct error *err)
{
	if (c->o->json_path && outfile_check(c->o->json_path, "-o/--output", err))
		return -1;
	if (c->o->markdown_path && outfile_check(c->o->markdown_path, "--export-markdown", err))
		return -1;
	return c->o->csv_path ? outfile_check(c->o->csv_path, "--csv", err) : 0;
}

int campaign_outputs_open(struct campaign *c, struct error *err)
{
	char *jpath;
	int rc = 0;

	if (!json_to_file(c))
		return c->o->csv_path ? csv_open(&c->csv, c->o->csv_path, err) : 0;
	/* The journal first: its lock refuses a second campaign on this -o
	 * before it empties anything (the CSV, the document). */
	jpath = journal_path_of(c->o->json_path);
	c->journal = xcalloc(1, sizeof(*c->journal));
	if (journal_open(c->journal, jpath, &c->res, err)) {
		rc = -1;
	} else if ((c->o->csv_path && csv_open(&c->csv, c->o->csv_path, err)) ||
		   journal_write_skeleton(c->o->json_path, &c->res, jpath, err)) {
		journal_close(c->journal, 1, NULL);
		rc = -1;
	}
	if (rc) {
		free(c->journal);
		c->journal = NULL;
	}
	free(jpath);
	return rc;
}

int campaign_persist(struct campaign *c, size_t run_index, struct error *err)
{
	const struct result_run *run = &c->res.runs[run_index];

	/* The journal first, and a run it could not take is dropped: what
	 * survives is the journal, and the table and the document say what it
	 * says (the CSV, written next, is never ahead of it). */
	if (c->journal && journal_add_run(c->journal, &c->res, run, err)) {
		if (run_index + 1 == c->res.nruns)
			free(c->res.runs[--c->res.nruns].values);
		goto fail;
	}
	if (c->csv.f && csv_write_run(&c->csv, &c->res, run, err))
		goto fail;
	return 0;
fail:
	c->output_failed = 1;
	free(c->res.stop_reason);
	c->res.stop_reason = xstrdup(err->msg);
	return -1;
}

int campaign_finish(struct campaign *c, const json_t *sections, struct error *err)
{
	int bad = c->output_failed;

	/* The CSV is closed first: its failure must keep the JSON incomplete.
	 * After a failed output its close only repeats that failure (as EIO). */
	if (c->csv.f && csv_close(&c->csv, bad ? NULL : err))
		bad = 1;
	c->res.complete = !bad;
	/* No journal: the outputs were never opened (refused, or another
	 * campaign's): the document at -o is not this campaign's to write. */
	if (!json_to_file(c) || !c->journal)
		return bad ? -1 : 0;
	if (report_json_write(&c->res, sections, c->o->json_path, err)) {
		/* The journal still holds every run: keep it and say where (after
		 * an earlier failure too: the caller adds this to its error). */
		error_hint(err, "the runs are kept in '%s.journal': 'pmustat report %s.journal' "
			   "reads them", c->o->json_path, c->o->json_path);
		return -1;
	}
	/* The document holds every run now: the journal has served. */
	if (c->journal) {
		journal_close(c->journal, 1, NULL);
		free(c->journal);
		c->journal = NULL;
	}
	return bad ? -1 : 0;
}

/* ---- failures and notes ------------------------------------------------- */

int campaign_out_of_memory(const struct campaign *c, struct error *err)
{
	struct rlimit rl;

	error_set(err, ERR_RUNTIME, "out of memory after run %zu", c->res.nruns);
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY)
		return error_hint(err, "the address space is limited to %llu MB (ulimit -v): raise "
				  "the limit, or measure fewer events or without --profile",
				  (unsigned long long)(rl.rlim_cur >> 20));
	return error_hint(err, "free memory, or measure fewer events or without --profile");
}

static void command_line(const struct result_variant *v, struct strbuf *sb)
{
	for (char **a = v->argv; *a; a++)
		strbuf_addf(sb, "%s%s", a == v->argv ? "" : " ", *a);
}

int campaign_run_failure(struct campaign *c, size_t run_index, const struct measure_outcome *out,
			 struct error *err)
{
	const struct result_run *run = &c->res.runs[run_index];
	struct strbuf cmd = STRBUF_INIT;
	int ordinal = run->index + 1;
	unsigned total = (c->o->warmup + c->o->stop.max_blocks) * (unsigned)c->res.nvariants;

	command_line(&c->res.variants[run->variant], &cmd);
	switch (run->status) {
	case RUN_EXEC_FAILED:
		error_set(err, ERR_RUNTIME, "cannot run '%s': %s",
			  c->res.variants[run->variant].argv[0], strerror(run->exec_errno));
		error_hint(err, "check the program's path and permissions");
		break;
	case RUN_FAILED:
		error_set(err, ERR_RUNTIME, "run %d of %u: '%s' exited with status %d", ordinal,
			  total, cmd.buf, run->exit_code);
		error_hint(err, "use -i/--ignore-failure to measure a failing command anyway");
		break;
	case RUN_SIGNALED:
		error_set(err, ERR_RUNTIME, "run %d of %u: '%s' was killed by signal %d (%s)",
			  ordinal, total, cmd.buf, run->signal, strsignal(run->signal));
		error_hint(err, "use -i/--ignore-failure to keep going past failing runs");
		break;
	case RUN_TIMEOUT:
		error_set(err, ERR_RUNTIME, "run %d of %u: '%s' timed out after %g s; every "
			  "process it started was killed", ordinal, total, cmd.buf, c->o->timeout_s);
		error_hint(err, "raise --timeout, or use -i to leave timed-out runs out");
		break;
	default:
		break;
	}
	free(c->res.stop_reason);
	c->res.stop_reason = xstrdup(err->msg);
	if (out->stderr_tail && *out->stderr_tail)
		c->failure_stderr = xstrdup(out->stderr_tail);
	strbuf_release(&cmd);
	return -1;
}

void campaign_note_ignored_failures(struct campaign *c)
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

void campaign_note_left_behind(struct campaign *c)
{
	if (c->left_runs <= LEFT_NOTES_MAX)
		return;
	result_add_note(&c->res, NOTE_WARNING, NULL, NULL,
			"%u of %zu runs left processes behind (%s), %llu in all; the first %d "
			"are noted above, each run's count is in the JSON result (left_behind)",
			c->left_runs, c->res.nruns, left_fate(c->o->keep_children),
			c->left_total, LEFT_NOTES_MAX);
}

void campaign_note_interrupted(struct campaign *c, size_t total)
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
