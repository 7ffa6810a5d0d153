/*
 * The --backend policy applied to a planned campaign. The policy itself is
 * backend/sim_select's backend_choose and backend_plan_runs (pure, tested);
 * this file only describes each planned metric to it — its class, whether
 * its counter opened, whether cachegrind simulates it, whether the user
 * named it — and writes the answers back into the result: a metric served
 * by simulation, a metric not measured (with the reason), and whether the
 * campaign needs native runs and simulated ones.
 */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sim.h"
#include "backend/sim_select.h"
#include "campaign/mechanism.h"
#include "campaign/policy.h"
#include "core/strbuf.h"
#include "core/strlist.h"

static enum metric_class class_of(const struct result_metric *m)
{
	switch (m->source) {
	case MSRC_CLOCK:
	case MSRC_RUSAGE:
		return MCLASS_PROCESS;
	case MSRC_CALLS:
		return MCLASS_CALL;
	case MSRC_PERF:
		return m->type == PERF_TYPE_SOFTWARE ? MCLASS_SOFTWARE : MCLASS_HARDWARE;
	default:
		return MCLASS_HARDWARE;
	}
}

/* What the planned mechanisms offer the policy (their needs): whether a
 * simulator is there, and the last level its model has. */
static void sim_offer(const struct campaign *c, int *valgrind, int *ll_level)
{
	*valgrind = *ll_level = 0;
	for (size_t i = 0; i < c->nmech; i++)
		if (c->mech[i].need.sim_valgrind) {
			*valgrind = 1;
			*ll_level = c->mech[i].need.sim_ll_level;
		}
}

static struct backend_caps caps_of(const struct campaign *c, const struct result_metric *m,
				   enum metric_class cls)
{
	struct backend_caps caps = { 0 };
	int valgrind, ll_level;

	sim_offer(c, &valgrind, &ll_level);
	caps.hw_countable = m->available;
	/* A hidden input is not simulated: the simulation yields ratios directly. */
	caps.simulable = !m->hidden && sim_metric_known(m->name, ll_level);
	caps.valgrind = valgrind;
	if (cls == MCLASS_PROCESS)
		caps.requested = strlist_has(c->o->metrics, m->name);
	else
		caps.requested = !m->hidden && c->o->metrics != NULL;
	return caps;
}

static void serve_by_sim(struct campaign *c, struct result_metric *m)
{
	m->source = MSRC_SIM;
	free(m->backend);
	m->backend = xstrdup("sim");
	m->available = 1;
	free(m->reason);
	free(m->hint);
	free(m->formula);
	m->reason = m->hint = m->formula = NULL;
	/* How the hardware would have counted it no longer applies. */
	result_drop_notes(&c->res, m->name);
}

static void apply(struct campaign *c, struct result_metric *m, const struct backend_caps *caps,
		  const struct backend_choice *ch)
{
	if (ch->kind == BK_SIM) {
		serve_by_sim(c, m);
		return;
	}
	if (ch->kind != BK_NONE)
		return;
	/* Not measured. A counter that failed to open already says why in the
	 * host's words; the policy's words replace them when the mode forbade
	 * an available counter, or the user named the metric. */
	if (m->available || caps->requested)
		campaign_mark_unavailable(m, ch->reason, ch->hint);
	if (m->hidden && c->backend == BACKEND_SIM)
		result_drop_notes(&c->res, m->name);
}

int campaign_apply_backend(struct campaign *c, int *sim, struct error *err)
{
	size_t n = c->res.nmetrics;
	enum metric_class *cls = xcalloc(n + 1, sizeof(*cls));
	struct backend_caps *caps = xcalloc(n + 1, sizeof(*caps));
	struct backend_choice *ch = xcalloc(n + 1, sizeof(*ch));
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		cls[i] = class_of(&c->res.metrics[i]);
		caps[i] = caps_of(c, &c->res.metrics[i], cls[i]);
		rc = backend_choose((enum backend_mode)c->backend, cls[i], &caps[i], &ch[i], err);
	}
	if (!rc) {
		backend_plan_runs((enum backend_mode)c->backend, cls, caps, ch, n, &c->native,
				  sim);
		/* A dry run shows the native counters whatever the mode. */
		c->native |= c->o->dry_run;
		for (size_t i = 0; i < n; i++)
			apply(c, &c->res.metrics[i], &caps[i], &ch[i]);
	}
	free(cls);
	free(caps);
	free(ch);
	return rc;
}
