/*
 * The regions mechanism: a measured program linked with libpmustat counts
 * its own marked regions (backend/regions.h). Every native run hands the
 * program the events the run counts (those other mechanisms marked shared:
 * the block's counter group) and reads back what each region counted, as
 * metrics named "REGION:EVENT" created the first time a region is seen.
 * A program without markers reports nothing, which is not an error.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/regions.h"
#include "campaign/mechanism.h"
#include "core/strbuf.h"
#include "plan/groups.h"

#define REGIONS_MAX_EVENTS 16

struct regions_state {
	unsigned noted, dropped;	/* problems already said once */
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
