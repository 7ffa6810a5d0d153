/*
 * What the mechanisms and the planner share (mechanism.h): the run's event
 * list, the catalogue opened once, marking a metric unmeasurable, setting a
 * run's value by index (a late metric moves the arrays), and the formula
 * metrics computed from the events of the same run.
 */
#include <stdlib.h>
#include <string.h>

#include "campaign/mechanism.h"
#include "catalog/catalog.h"
#include "core/strbuf.h"

size_t run_setup_add_event(struct run_setup *rs, const struct event_spec *ev, size_t leader,
			   size_t metric, int shared)
{
	if (rs->nevents == rs->alloc) {
		rs->alloc = rs->alloc ? 2 * rs->alloc : 16;
		rs->events = xrealloc(rs->events, rs->alloc * sizeof(*rs->events));
		rs->leader = xrealloc(rs->leader, rs->alloc * sizeof(size_t));
		rs->metric = xrealloc(rs->metric, rs->alloc * sizeof(size_t));
		rs->shared = xrealloc(rs->shared, rs->alloc);
	}
	rs->events[rs->nevents] = *ev;
	rs->leader[rs->nevents] = leader;
	rs->metric[rs->nevents] = metric;
	rs->shared[rs->nevents] = (char)shared;
	return rs->nevents++;
}

void run_setup_attach(struct run_setup *rs, int (*fn)(void *ctx, pid_t pid, struct error *err),
		      void *ctx)
{
	if (rs->nattach < sizeof(rs->attach) / sizeof(rs->attach[0]))
		rs->attach[rs->nattach++] = (struct run_attach){ fn, ctx };
}

int campaign_catalog(struct campaign *c, struct error *err)
{
	if (c->have_cat)
		return 0;
	if (catalog_host_open_lent(&c->cat, c->o->uarch, &c->model, err))
		return -1;
	c->have_cat = 1;
	/* -a: system-wide PMUs (amd_l3) count what is asked for, no proxy. */
	c->cat.ctx.system_wide = c->o->target.kind == TARGET_SYSTEM;
	if (c->cat.note[0])
		result_add_note(&c->res, NOTE_NOTE, NULL, NULL, "%s", c->cat.note);
	return 0;
}

void campaign_mark_unavailable(struct result_metric *m, const char *reason, const char *hint)
{
	char *r = xstrdup(reason), *h = hint && *hint ? xstrdup(hint) : NULL;

	m->available = 0;
	free(m->reason);
	free(m->hint);
	m->reason = r;
	m->hint = h;
}

void campaign_set_value(struct campaign *c, size_t run_index, size_t m, double value)
{
	struct result_value *v = &c->res.runs[run_index].values[m];

	v->valid = 1;
	v->value = value;
}

/* Formula metrics read the same run's values of the events they name. */
struct run_lookup {
	const struct result *r;
	const struct result_run *run;
};

static int lookup_value(void *ctx, const char *name, double *v)
{
	const struct run_lookup *l = ctx;
	int m = result_metric_index(l->r, name);
	const struct result_value *rv;

	if (m < 0)
		return -1;
	rv = &l->run->values[m];
	/* A multiplexed count covers part of the run: not the same run's value. */
	if (!rv->valid || result_value_multiplexed(l->r, (size_t)m, rv))
		return -1;
	*v = l->run->values[m].value * l->r->metrics[m].scale;
	return 0;
}

void campaign_compute_formulas(const struct campaign *c, struct result_run *run)
{
	struct run_lookup l = { &c->res, run };

	for (size_t m = 0; m < c->res.nmetrics; m++) {
		const struct result_metric *met = &c->res.metrics[m];
		double v;

		if (met->source != MSRC_FORMULA || !met->available || !met->formula)
			continue;
		if (formula_eval(met->formula, lookup_value, &l, &v, NULL) == 0 && v == v) {
			run->values[m].valid = 1;
			run->values[m].value = v;
		}
	}
}


size_t mech_option_rows(const struct option *mine, size_t n, struct option *rows, size_t max)
{
	if (n > max)
		n = max;
	memcpy(rows, mine, n * sizeof(*mine));
	return n;
}
