/*
 * The process mechanism: what every native run yields for free — the wall
 * clock around it (CLOCK_MONOTONIC, from spawn to reap) and the rusage of
 * the reaped process tree (wait4). Time under valgrind is valgrind's, so
 * this mechanism takes part in native runs only.
 */
#include <stdlib.h>
#include <sys/time.h>

#include "campaign/mechanism.h"
#include "core/strlist.h"

static const struct { const char *name, *unit; enum metric_source src; } process_metrics[] = {
	{ "wall-time", "ns", MSRC_CLOCK },
	{ "user-time", "ns", MSRC_RUSAGE },
	{ "sys-time", "ns", MSRC_RUSAGE },
	{ "max-rss", "KiB", MSRC_RUSAGE },
};
#define NPROCESS (sizeof(process_metrics) / sizeof(process_metrics[0]))

struct process_state {
	size_t metric[NPROCESS];
};

static int process_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct process_state *s = xcalloc(1, sizeof(*s));

	(void)err;
	need->runs = MECH_NATIVE;
	for (size_t k = 0; k < NPROCESS; k++) {
		struct result_metric *m = result_add_metric(&c->res, process_metrics[k].name,
							    process_metrics[k].unit,
							    process_metrics[k].src);

		/* Measured whatever was asked; in the Holm family only when named
		 * (here, or through a preset: mech_perf clears it then). */
		m->implicit = !strlist_has(c->o->metrics, m->name);
		s->metric[k] = c->res.nmetrics - 1;
	}
	*state = s;
	return 0;
}

static double tv_ns(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e9 + (double)tv->tv_usec * 1e3;
}

static void process_end(struct campaign *c, void *state, void *run,
			const struct measure_outcome *out, size_t run_index)
{
	const struct process_state *s = state;
	const struct spawn_result *sp = &out->sp;
	double v[NPROCESS] = { (double)sp->wall_ns, tv_ns(&sp->ru.ru_utime),
			       tv_ns(&sp->ru.ru_stime), (double)sp->ru.ru_maxrss };

	(void)run;
	if (c->res.runs[run_index].status == RUN_EXEC_FAILED)
		return;
	for (size_t k = 0; k < NPROCESS; k++)
		if (c->res.metrics[s->metric[k]].available)	/* attached: no rusage */
			campaign_set_value(c, run_index, s->metric[k], v[k]);
}

const struct mechanism_ops mech_process = {
	.name = "process",
	.plan = process_plan,
	.end = process_end,
	.release = free,
};
