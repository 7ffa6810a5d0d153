/*
 * The commands a campaign runs around the measured ones and never measures
 * (campaign.h: --setup, --prepare, --conclude, --cleanup), and what the
 * campaign says about its runs' surroundings: the stdin they read
 * (--input, or /dev/null while pmustat's own stdin is a file or pipe) and
 * the shell they start through. A hook runs through the same spawn server
 * as a measured run (its own process group, what it leaves behind killed,
 * a Ctrl-C stops it) but opens no counter and is recorded nowhere; its
 * failure stops the campaign with the command and its exit status named,
 * and its stderr is shown, as a failing run's is.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/mechanism.h"
#include "report/table.h"
#include "run/execpath.h"
#include "run/measure.h"

static const char *const hook_option[HOOK_KINDS] = { "--setup", "--prepare", "--conclude",
						     "--cleanup" };

static char *const *hook_argv(const struct campaign *c, enum hook_kind k, size_t variant)
{
	return c->o->hooks[k] ? c->o->hooks[k][variant] : NULL;
}

/* Where the hook ran, for its error: "before run 3" or "of variant 'B'". */
static void hook_place(const struct campaign *c, enum hook_kind k, size_t variant,
		       struct strbuf *sb)
{
	if (k == HOOK_PREPARE)
		strbuf_addf(sb, "before run %zu", c->res.nruns + 1);
	else if (k == HOOK_CONCLUDE)
		strbuf_addf(sb, "after run %zu", c->res.nruns);
	if (c->res.nvariants > 1)
		strbuf_addf(sb, "%svariant '%s'", sb->len ? ", " : "", c->res.variants[variant].name);
}

static int hook_failed(struct campaign *c, enum hook_kind k, size_t variant,
		       const struct measure_outcome *out, struct error *err)
{
	struct strbuf cmd = STRBUF_INIT, where = STRBUF_INIT;
	const struct spawn_result *sp = &out->sp;

	report_command_line(hook_argv(c, k, variant), &cmd);
	hook_place(c, k, variant, &where);
	if (sp->outcome == SPAWN_EXEC_FAILED)
		error_set(err, ERR_RUNTIME, "cannot run the %s command '%s': %s", hook_option[k],
			  cmd.buf, strerror(sp->status));
	else if (sp->outcome == SPAWN_SIGNALED)
		error_set(err, ERR_RUNTIME, "the %s command '%s' (%s) was killed by signal %d (%s)",
			  hook_option[k], cmd.buf, where.buf, sp->status, strsignal(sp->status));
	else
		error_set(err, ERR_RUNTIME, "the %s command '%s' (%s) failed with exit status %d",
			  hook_option[k], cmd.buf, where.buf, sp->status);
	error_hint(err, "run it by hand to see why; with --show-output its output is shown");
	/* A failed run's own words come first (cleanup runs after it). */
	if (out->stderr_tail && *out->stderr_tail && !c->failure_stderr)
		c->failure_stderr = xstrdup(out->stderr_tail);
	if (!c->res.stop_reason)
		c->res.stop_reason = xstrdup(err->msg);
	strbuf_release(&cmd);
	strbuf_release(&where);
	return -1;
}

int campaign_hook(struct campaign *c, enum hook_kind k, size_t variant, struct error *err)
{
	char *const *argv = hook_argv(c, k, variant);
	struct measure_spec spec = { 0 };
	struct measure_outcome out;
	int rc;

	if (!argv)
		return 0;
	spec.argv = argv;
	spec.show_output = c->o->show_output;
	spec.pin_cpu = -1;
	rc = measure_run(&spec, &c->server, &c->sw, &out, err);
	if (!rc && !(out.sp.outcome == SPAWN_EXITED && out.sp.status == 0) &&
	    out.sp.outcome != SPAWN_INTERRUPTED)
		rc = hook_failed(c, k, variant, &out, err);
	measure_outcome_release(&out);
	return rc;
}

int campaign_hooks_all(struct campaign *c, enum hook_kind k, struct error *err)
{
	for (size_t v = 0; v < c->res.nvariants; v++) {
		if (c->sw.stop_signal)
			return 0;
		if (campaign_hook(c, k, v, err))
			return -1;
	}
	return 0;
}

/* Before any run: every hook's program exists, and the notes say what runs
 * around the measurements (the first variant's command stands for all). */
int campaign_hooks_check(struct campaign *c, struct error *err)
{
	for (int k = 0; k < HOOK_KINDS; k++) {
		struct strbuf cmd = STRBUF_INIT;
		static const char *const when[HOOK_KINDS] = {
			"once per variant before the first block", "before every run",
			"after every run", "once per variant after the last block" };
		int any = 0;

		for (size_t v = 0; v < c->res.nvariants; v++) {
			char *const *argv = hook_argv(c, k, v);
			char *path;

			if (!argv)
				continue;
			if (!any++)
				report_command_line(argv, &cmd);
			path = execpath_resolve(argv[0], err);
			if (!path) {
				char msg[sizeof(err->msg)];

				strbuf_release(&cmd);
				memcpy(msg, err->msg, sizeof(msg));
				return error_set(err, err->kind, "%s command: %s", hook_option[k],
						 msg);
			}
			free(path);
		}
		if (any)
			result_add_note(&c->res, NOTE_NOTE, NULL, NULL,
					"%s runs %s, outside the measurements: %s", hook_option[k],
					when[k], cmd.buf);
		strbuf_release(&cmd);
	}
	return 0;
}

/* --input must be readable now, and read from its start by every run: a
 * pipe or FIFO would be drained by the first. */
int campaign_input_check(struct campaign *c, struct error *err)
{
	struct stat st;
	int fd;

	if (!c->o->input)
		return 0;
	fd = open(c->o->input, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		error_set(err, ERR_USAGE, "cannot read --input '%s': %s", c->o->input,
			  strerror(errno));
		return error_hint(err, "give a readable file for the runs' stdin");
	}
	if (fstat(fd, &st) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
	    S_ISDIR(st.st_mode)) {
		close(fd);
		error_set(err, ERR_USAGE, "--input '%s' is not a file every run can read from "
			  "its start", c->o->input);
		return error_hint(err, "save the input to a regular file first, e.g. "
				       "'cmd > input.txt', then --input input.txt");
	}
	close(fd);
	result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "every run reads its stdin from '%s' "
			"(--input)", c->o->input);
	return 0;
}

void campaign_note_surroundings(struct campaign *c)
{
	struct stat st;

	if (c->o->shell)
		result_add_note(&c->res, NOTE_NOTE, NULL, "to leave it out, give the command's "
				"words after '--' without --shell",
				"commands run as '%s -c COMMAND': the shell's own start-up and exit "
				"are inside every measured run (not subtracted)", c->o->shell);
	if (!c->o->input && !fstat(STDIN_FILENO, &st) &&
	    (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		result_add_note(&c->res, NOTE_WARNING, NULL,
				"give the measured command its input with --input FILE",
				"pmustat's stdin is a %s, but the measured command reads /dev/null",
				S_ISREG(st.st_mode) ? "file" : "pipe");
}
