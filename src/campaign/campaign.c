/*
 * The campaign's lifecycle (see campaign.h): start the spawn server while
 * pmustat's heap is small, read the host, plan, and check everything a run
 * needs before the first one — the programs exist, the CPU to pin to is
 * ours, the outputs can be written — because finding out after a ten-minute
 * campaign would lose it. Then the block loop (loop.c) and the outputs
 * (record.c).
 */
#include "campaign/campaign.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/elf.h"
#include "backend/uprobe_trace.h"
#include "campaign/mechanism.h"
#include "campaign/target.h"
#include "core/path.h"
#include "core/strbuf.h"
#include "result/journal.h"

/*
 * What pmustat processes killed before their clean-up left on this machine
 * (temporary directories, uprobe trace events that pin the probed file's
 * file system) goes at every start, whatever this campaign will use: a
 * later campaign of another kind would otherwise never take them. Said,
 * as anything pmustat does to the machine.
 */
static void sweep_leftovers(struct campaign *c)
{
	struct strbuf dirs = STRBUF_INIT, groups = STRBUF_INIT;
	size_t nd = tmpdir_sweep(&dirs), ne = uprobe_trace_sweep(&groups);

	if (nd)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "removed %zu temporary "
				"director%s left by pmustat processes that were killed: %s", nd,
				nd == 1 ? "y" : "ies", dirs.buf);
	if (ne)
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "removed %zu uprobe trace "
				"event%s left in tracefs by pmustat processes that were killed "
				"(group %s)", ne, ne == 1 ? "" : "s", groups.buf);
	strbuf_release(&dirs);
	strbuf_release(&groups);
}

int campaign_init(struct campaign *c, const struct campaign_opts *o, const char *command,
		  struct error *err)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->sw.fd = -1;
	c->groups = 1;
	c->launch = &campaign_spawn_launcher;
	/* First, while our heap is small: see run/spawn.h. */
	if (spawner_start(&c->server, err))
		return -1;
	result_init(&c->res, command);
	sweep_leftovers(c);
	if (c->server.forked)
		result_add_note(&c->res, NOTE_WARNING, "max-rss", "install pmustat-spawner next to "
				"pmustat (make install does), or set PMUSTAT_SPAWNER",
				"pmustat-spawner not found: runs are forked from pmustat, so "
				"max-rss includes about 1 MiB of pmustat's own memory");
	hostinfo_read(&c->res.host);
	campaign_note_surroundings(c);
	c->res.seed = o->seed;
	c->res.repeat = o->stop.max_blocks;
	c->res.warmup = o->warmup;
	c->res.timeout_s = o->timeout_s;
	c->res.keep_children = o->keep_children;
	c->res.pin_cpu = o->pin_cpu;
	c->res.env_pad_max = o->env_pad_max;
	return sysfs_model_load(&c->model, NULL, err);
}

void campaign_release(struct campaign *c)
{
	campaign_target_release(c);
	for (size_t i = c->nmech; i-- > 0;)
		c->mech[i].ops->release(c->mech[i].state);
	free(c->mech);
	free(c->req_metrics);
	free(c->req_events);
	for (size_t k = 0; c->req_claimed && campaign_mechanisms[k]; k++)
		free(c->req_claimed[k]);
	free(c->req_claimed);
	if (c->have_cat)
		catalog_host_release(&c->cat);
	free(c->failure_stderr);
	for (size_t v = 0; c->run_argv && v < c->res.nvariants; v++)
		free(c->run_argv[v]);
	free(c->run_argv);
	execpaths_release(&c->xp);
	if (c->csv.f)
		csv_close(&c->csv, NULL);
	if (c->journal) {
		journal_close(c->journal, 0, NULL);
		free(c->journal);
	}
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

/* What each variant execs: its own argv, or with argv[0] replaced by its
 * equal-length link. Resolving here also reports a missing program before
 * any run. */
static int set_run_argv(struct campaign *c, struct error *err)
{
	size_t nv = c->res.nvariants;
	const char **progs = xcalloc(nv + 1, sizeof(char *));
	int rc = 0;

	c->run_argv = xcalloc(nv + 1, sizeof(char **));
	for (size_t v = 0; v < nv && !rc && c->res.variants[v].argv[0]; v++) {
		char *path = execpath_resolve(c->res.variants[v].argv[0], err);

		rc = path ? 0 : -1;
		free(path);
		progs[v] = c->res.variants[v].argv[0];
	}
	if (!rc && c->o->equal_paths && execpaths_make(&c->xp, progs, nv, err))
		rc = -1;
	for (size_t v = 0; v < nv && !rc; v++) {
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

/* STATS.md (e): ASLR varies the layout of position-independent code only,
 * so a comparison says when either cannot work. */
static void note_layout(struct campaign *c)
{
	for (size_t v = 0; v < c->res.nvariants; v++) {
		struct error err;
		char *path;
		int pie = 1;

		error_clear(&err);
		path = execpath_resolve(c->res.variants[v].argv[0], &err);
		/* A script or no ELF: nothing to say. */
		if (path && elf_is_pie(path, &pie, &err) == 0 && !pie)
			result_add_note(&c->res, NOTE_WARNING, NULL,
					"build it with -fPIE -pie (the default of Debian's gcc)",
					"variant '%s': '%s' is not a position-independent executable: "
					"ASLR cannot move its code, so one link layout may bias the "
					"comparison", c->res.variants[v].name, path);
		free(path);
	}
	if (c->res.host.aslr >= 0 && c->res.host.aslr != 2)
		result_add_note(&c->res, NOTE_WARNING, NULL, "sysctl kernel.randomize_va_space=2",
				"ASLR is not fully on (randomize_va_space=%d): one memory layout "
				"per binary can bias a comparison", c->res.host.aslr);
}

int campaign_prepare(struct campaign *c, struct error *err)
{
	/* The block loop orders at most this many variants (run/schedule.h). */
	if (c->res.nvariants > SCHED_MAX_VARIANTS) {
		error_set(err, ERR_USAGE, "more than %d variants", SCHED_MAX_VARIANTS);
		return error_hint(err, "compare fewer variants at once, or split the comparison");
	}
	if (campaign_plan(c, err))
		return -1;
	if (c->o->dry_run)
		return 0;	/* the program need not exist here */
	if (check_pin(c->o->pin_cpu, err) || set_run_argv(c, err) ||
	    campaign_hooks_check(c, err) || campaign_input_check(c, err))
		return -1;
	if (c->res.nvariants > 1)
		note_layout(c);
	return campaign_outputs_check(c, err);
}

int campaign_json_to_stdout(const struct campaign *c)
{
	return c->o->json_path && !strcmp(c->o->json_path, "-");
}
