/*
 * The measured run. Order matters: the counters are opened before the child
 * execs and are enabled by its exec, so our own fork and protocol work never
 * lands in the counts. When every counter is inherited (all but uprobes) and
 * nothing attaches to the child, they are opened on the spawn server before
 * the request: the child inherits them as it is forked and execs at once (a
 * quick request, run/spawn_proto.h), which saves a round trip to pmustat per
 * run. Otherwise they are opened on the forked child while it waits for the
 * go byte. Counters are read after the child has been reaped and the server
 * has dealt with what it left behind (killed leftovers add their counts up
 * to their death), when inherited counts from all its descendants are final.
 */
#include "run/measure.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

#define STDERR_TAIL_MAX 4096

static void read_counters(const struct perf_set *set, struct measure_outcome *out)
{
	for (size_t i = 0; i < set->n; i++) {
		out->open_errno[i] = set->c[i].open_errno;
		if (set->c[i].fd >= 0)
			out->read_ok[i] = perf_set_read(set, i, &out->readings[i], NULL) == 0;
	}
}

int measure_run(const struct measure_spec *spec, struct spawner *server, struct sigwatch *sw,
		struct measure_outcome *out, struct error *err)
{
	int quick = !spec->attach && perf_events_inherited(spec->events, spec->nevents);
	struct spawn_opts so = { spec->argv, spec->envp, spec->show_output, spec->pin_cpu,
				 spec->keep_children, spec->input, quick, spec->cwd };
	struct perf_set set = { NULL, 0 };
	struct spawn sp;
	size_t n = spec->nevents ? spec->nevents : 1;
	int rc;

	memset(out, 0, sizeof(*out));
	out->readings = xcalloc(n, sizeof(*out->readings));
	out->read_ok = xcalloc(n, sizeof(int));
	out->open_errno = xcalloc(n, sizeof(int));
	perf_hold(&server->held, spec->events, spec->nevents);
	if (quick)
		perf_set_open(&set, spec->events, spec->group, spec->nevents, server->pid);
	if (spawn_start(&sp, server, sw, &so, err)) {
		perf_set_release(&set);
		spawn_release(&sp);
		return -1;
	}
	if (!quick)
		perf_set_open(&set, spec->events, spec->group, spec->nevents, sp.pid);
	if (spec->attach && spec->attach(spec->attach_ctx, sp.pid, err)) {
		perf_set_release(&set);
		spawn_release(&sp);	/* never released: the child exits unrun */
		return -1;
	}
	rc = spawn_run(&sp, sw, spec->timeout_s, &out->sp, err);
	if (rc == 0) {
		read_counters(&set, out);
		out->stderr_tail = spawn_stderr_tail(&sp, STDERR_TAIL_MAX);
	}
	perf_set_release(&set);
	spawn_release(&sp);
	return rc;
}

void measure_outcome_release(struct measure_outcome *out)
{
	free(out->readings);
	free(out->read_ok);
	free(out->open_errno);
	free(out->stderr_tail);
	memset(out, 0, sizeof(*out));
}
