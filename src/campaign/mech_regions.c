/*
 * The regions mechanism: a measured program linked with libpmustat counts
 * its own marked regions (backend/regions.h). Every native run hands the
 * program the events the run counts (those other mechanisms marked shared:
 * the block's counter group) and reads back what each region counted, as
 * metrics named "REGION:EVENT" created the first time a region is seen.
 * A program without markers reports nothing, which is not an error.
 *
 * The markers stay in the timed runs (an entry costs the program a few
 * counter reads, not code per event of its own), so their cost is measured
 * and stated instead: once per campaign, after the first run that entered
 * a region, pmustat-regioncost (lib/pmustat/cost) times enter/exit pairs of
 * the real library with that run's hand-off, the same events by the same
 * read path, and every run that entered regions carries that time per
 * entry (REGION_COST_METRIC) for the cost note and mechanism_costs
 * (analysis/costs.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/regions.h"
#include "campaign/mechanism.h"
#include "core/selfpath.h"
#include "core/strbuf.h"
#include "plan/groups.h"
#include "result/vocab.h"
#include "run/capture.h"

#define REGIONS_MAX_EVENTS 16

/* The cost's timing: pairs per round, rounds (the median is kept). A pair
 * takes 4 ns with the library off and ~10 us with read() on a loaded VM:
 * at most a few tenths of a second, once per campaign. */
#define COST_PAIRS "1000"
#define COST_ROUNDS "5"

struct regions_state {
	unsigned noted, dropped;	/* problems already said once */
	int timed;			/* the entry cost was timed (or could not be) */
	double entry_ns;		/* its figure, or 0 */
};

struct regions_run {
	struct regions_handoff h;
	char **env;
	size_t metric[REGIONS_MAX_EVENTS];	/* result metric of each handed event */
	size_t n;
	int active;
};

static int regions_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	(void)c;
	(void)err;
	need->runs = MECH_NATIVE;
	*state = xcalloc(1, sizeof(struct regions_state));
	return 0;
}

/* The shared events this run counts, compacted, with leaders re-indexed. */
static size_t handed_events(const struct run_setup *rs, struct event_spec *evs, size_t *lead,
			    size_t *metric)
{
	size_t n = 0, *map = xcalloc(rs->nevents + 1, sizeof(size_t));

	for (size_t i = 0; i < rs->nevents && n < REGIONS_MAX_EVENTS; i++) {
		if (!rs->shared[i] || rs->leader[i] == PLAN_NOT_COUNTED)
			continue;
		map[i] = n;
		evs[n] = rs->events[i];
		metric[n] = rs->metric[i];
		lead[n] = rs->leader[i] == i ? n : map[rs->leader[i]];
		n++;
	}
	free(map);
	return n;
}

static int regions_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
			 struct error *err)
{
	struct regions_run *r = run;
	struct event_spec evs[REGIONS_MAX_EVENTS];
	size_t lead[REGIONS_MAX_EVENTS];

	(void)c;
	(void)state;
	r->n = handed_events(rs, evs, lead, r->metric);
	if (regions_prepare(&r->h, evs, lead, r->n, err))
		return -1;
	r->active = 1;
	r->env = regions_env(&r->h, rs->envp);
	rs->envp = r->env;
	return 0;
}

/* The metric region:what, created on first sight with the unit and scale of
 * the whole-run metric like (by index: adding a metric moves the array). */
static size_t region_metric(struct campaign *c, const char *region, const char *what, int like)
{
	char *name = regions_metric_name(region, what);
	int i = result_metric_index(&c->res, name);
	char *unit = xstrdup(like >= 0 ? c->res.metrics[like].unit : "");
	double scale = like >= 0 ? c->res.metrics[like].scale : 1.0;
	struct result_metric *m;

	if (i < 0) {
		m = result_add_metric_late(&c->res, name, unit, MSRC_REGION);
		m->scale = scale;
		i = (int)c->res.nmetrics - 1;
	}
	free(unit);
	free(name);
	return (size_t)i;
}

static void record_row(struct campaign *c, const struct regions_run *r, size_t run_index,
		       const struct region_row *row)
{
	size_t mi = region_metric(c, row->name, "entries", -1);

	campaign_set_value(c, run_index, mi, (double)row->count);
	for (size_t k = 0; k < r->n; k++) {
		const struct region_value *v = &row->values[k];
		struct result_value *rv;
		char *event;

		if (!v->valid)
			continue;
		/* Late metrics move the arrays: look everything up by index. */
		event = xstrdup(c->res.metrics[r->metric[k]].name);
		mi = region_metric(c, row->name, event, (int)r->metric[k]);
		free(event);
		rv = &c->res.runs[run_index].values[mi];
		rv->valid = 1;
		rv->value = (double)v->value;
		rv->enabled = v->enabled;
		rv->running = v->running;
	}
}

/* Time one region entry with the real library and run r's hand-off; 0 and
 * a note when it cannot. */
static double time_entry(struct campaign *c, const struct regions_run *r)
{
	char *prog = selfpath_find("PMUSTAT_REGIONCOST", "pmustat-regioncost", X_OK);
	char *argv[] = { prog, COST_PAIRS, COST_ROUNDS, NULL };
	struct strbuf out = STRBUF_INIT;
	struct error err;
	double ns = 0;
	int status = 0, active = 0;

	error_clear(&err);
	if (!prog)
		error_set(&err, ERR_RUNTIME, "pmustat-regioncost was not found");
	else if (!run_capture_env(argv, r->env, 256, &out, &status, &err) &&
		 (!out.buf || sscanf(out.buf, "%lf %d", &ns, &active) != 2 || !active || ns <= 0))
		error_set(&err, ERR_RUNTIME, "pmustat-regioncost gave no figure (exit status %d)",
			  status);
	if (err.kind != ERR_NONE) {
		result_add_note(&c->res, NOTE_WARNING, NULL, "build it with 'make', or set "
				"PMUSTAT_REGIONCOST to its path", "regions: what an entry costs "
				"was not measured: %s", err.msg);
		ns = 0;
	}
	strbuf_release(&out);
	free(prog);
	return ns;
}

/* Every run that entered regions carries the time of one entry. */
static void record_cost(struct campaign *c, struct regions_state *s,
			const struct regions_run *r, size_t run_index)
{
	int m;

	if (!s->timed) {
		s->timed = 1;
		s->entry_ns = time_entry(c, r);
	}
	if (s->entry_ns <= 0)
		return;
	m = result_metric_index(&c->res, REGION_COST_METRIC);
	if (m < 0) {
		result_add_metric_late(&c->res, REGION_COST_METRIC, "ns", MSRC_REGION)->hidden = 1;
		m = (int)c->res.nmetrics - 1;
	}
	campaign_set_value(c, run_index, (size_t)m, s->entry_ns);
}

static void regions_end(struct campaign *c, void *state, void *run,
			const struct measure_outcome *out, size_t run_index)
{
	struct regions_state *s = state;
	struct regions_run *r = run;
	struct regions_result res;
	struct error err;

	(void)out;
	error_clear(&err);
	memset(&res, 0, sizeof(res));
	if (regions_collect(&r->h, &res, &err) == 0) {
		for (size_t i = 0; i < res.nrows; i++)
			record_row(c, r, run_index, &res.rows[i]);
		if (res.nrows)
			record_cost(c, s, r, run_index);
		if (res.problem && s->noted++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, res.problem_hint,
					"regions: %s", res.problem);
		if (res.dropped && s->dropped++ == 0)
			result_add_note(&c->res, NOTE_WARNING, NULL, NULL, "regions: %llu entries "
					"of regions past the library's limit were not counted",
					(unsigned long long)res.dropped);
	} else if (s->noted++ == 0) {
		result_add_note(&c->res, NOTE_WARNING, NULL, err.hint, "regions: %s", err.msg);
	}
	regions_result_release(&res);
}

static void regions_run_release(void *state, void *run)
{
	struct regions_run *r = run;

	(void)state;
	if (!r->active)
		return;
	regions_env_free(r->env);
	regions_release(&r->h);
}

const struct mechanism_ops mech_regions = {
	.name = "regions",
	.run_size = sizeof(struct regions_run),
	.plan = regions_plan,
	.begin = regions_begin,
	.end = regions_end,
	.run_release = regions_run_release,
	.release = free,
};
