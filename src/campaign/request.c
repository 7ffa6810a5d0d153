/*
 * Planning a campaign: the request (-m metrics or the default preset, -e
 * native events, and the items a mechanism claims in either list, e.g. call
 * counters) is split by kind, each mechanism of the table plans its part in
 * order, the --backend policy settles who serves each metric (policy.c),
 * and the mechanisms finish their plans knowing that. Everything that
 * cannot be measured is then one note per distinct reason, never a silent
 * drop. Formula metrics are computed per run from the events of that same
 * run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sim_select.h"
#include "campaign/mechanism.h"
#include "campaign/target.h"
#include "campaign/policy.h"
#include "catalog/catalog.h"
#include "core/strbuf.h"

/* The mechanism table's rows (req_claimed has one slot per row). */
static size_t table_rows(void)
{
	size_t n = 0;

	while (campaign_mechanisms[n])
		n++;
	return n;
}

/* The row of the table that claims item (its claims hook), or -1. */
static int claimer(const char *item)
{
	for (int k = 0; campaign_mechanisms[k]; k++)
		if (campaign_mechanisms[k]->claims && campaign_mechanisms[k]->claims(item))
			return k;
	return -1;
}

/* Move the items of list that a mechanism claims into c->req_claimed, in
 * front of what it claimed before; returns the rest (caller frees; NULL
 * when none). */
static char *take_claimed(struct campaign *c, const char *list)
{
	struct strbuf rest = STRBUF_INIT, *mine;
	size_t nrows = table_rows();
	char **items = NULL;
	int n;

	if (!list)
		return NULL;
	n = event_list_split(list, &items, NULL);
	if (n < 0)
		return xstrdup(list);	/* let the real parser report the error */
	mine = xcalloc(nrows, sizeof(*mine));
	for (int i = 0; i < n; i++) {
		int k = claimer(items[i]);
		struct strbuf *to = k < 0 ? &rest : &mine[k];

		strbuf_addf(to, "%s%s", to->len ? "," : "", items[i]);
	}
	event_list_free(items);
	for (size_t k = 0; k < nrows; k++) {
		if (!mine[k].len)
			continue;
		if (c->req_claimed[k]) {
			strbuf_addf(&mine[k], ",%s", c->req_claimed[k]);
			free(c->req_claimed[k]);
		}
		c->req_claimed[k] = strbuf_detach(&mine[k]);
	}
	free(mine);
	if (!rest.len) {
		strbuf_release(&rest);
		return NULL;
	}
	return strbuf_detach(&rest);
}

const char *campaign_claimed(const struct campaign *c, const struct mechanism_ops *ops)
{
	for (size_t k = 0; c->req_claimed && campaign_mechanisms[k]; k++)
		if (campaign_mechanisms[k] == ops)
			return c->req_claimed[k];
	return NULL;
}

static void split_request(struct campaign *c)
{
	int claimed = 0;
	size_t nrows = table_rows();

	c->req_claimed = xcalloc(nrows + 1, sizeof(char *));
	c->req_metrics = take_claimed(c, c->o->metrics);
	c->req_events = take_claimed(c, c->o->events);
	for (size_t k = 0; k < nrows; k++)
		claimed |= c->req_claimed[k] != NULL;
	if (!c->req_metrics && !c->req_events && !claimed)
		c->req_metrics = xstrdup("default");
}

/* One note per distinct reason, naming every metric it applies to, so four
 * hardware events missing for one cause read as one line, not four. */
static void note_unavailable(struct campaign *c)
{
	size_t n = c->res.nmetrics;
	char *done = xcalloc(n ? n : 1, 1);

	for (size_t i = 0; i < n; i++) {
		const struct result_metric *m = &c->res.metrics[i];
		struct strbuf names = STRBUF_INIT;

		if (m->available || done[i] || m->hidden)
			continue;
		for (size_t j = i; j < n; j++) {
			const struct result_metric *o = &c->res.metrics[j];

			if (o->available || done[j] || o->hidden || strcmp(o->reason, m->reason))
				continue;
			done[j] = 1;
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", o->name);
		}
		result_add_note(&c->res, NOTE_NOTE, m->name, m->hint, "%s: not counted — %s",
				names.buf, m->reason);
		strbuf_release(&names);
	}
	free(done);
}

static void add_mechanism(struct campaign *c, const struct mechanism_ops *ops, void *state,
			  const struct mech_needs *need)
{
	c->mech = xrealloc(c->mech, (c->nmech + 1) * sizeof(*c->mech));
	c->mech[c->nmech] = (struct mech_slot){ ops, state, *need, (size_t)-1, 0 };
	c->nmech++;
}

static int plan_mechanisms(struct campaign *c, struct error *err)
{
	for (const struct mechanism_ops *const *t = campaign_mechanisms; *t; t++) {
		void *state = NULL;
		struct mech_needs need = { 0 };
		int rc = (*t)->plan(c, &state, &need, err);

		if (state)
			add_mechanism(c, *t, state, &need);
		if (rc)
			return -1;
	}
	return 0;
}

/* What the mechanisms' needs settle for the whole campaign: the counter
 * groups a block cycles through. */
static void settle_needs(struct campaign *c)
{
	c->groups = 1;
	for (size_t i = 0; i < c->nmech; i++)
		if (c->mech[i].need.groups > c->groups)
			c->groups = c->mech[i].need.groups;
}

/* Blocks of a kind (simulated, traced) the mechanisms asked for. */
unsigned campaign_blocks_of(const struct campaign *c, unsigned kind)
{
	unsigned n = 0;

	for (size_t i = 0; i < c->nmech; i++)
		if ((c->mech[i].need.runs & kind) && c->mech[i].need.blocks > n)
			n = c->mech[i].need.blocks;
	return n;
}

int campaign_plan(struct campaign *c, struct error *err)
{
	int sim = 0;

	if (backend_mode_parse(c->o->backend ? c->o->backend : "auto",
			       (enum backend_mode *)&c->backend, err))
		return -1;
	split_request(c);
	if (campaign_target_plan(c, err))
		return -1;
	if (plan_mechanisms(c, err) || campaign_apply_backend(c, &sim, err))
		return -1;
	for (size_t i = 0; i < c->nmech; i++)
		if (c->mech[i].ops->plan_done &&
		    c->mech[i].ops->plan_done(c, c->mech[i].state, &c->mech[i].need, err))
			return -1;
	settle_needs(c);
	campaign_cost_plan(c);
	if (c->target && campaign_blocks_of(c, MECH_SIM)) {
		error_set(err, ERR_USAGE, "simulation cannot count tasks that already run");
		return error_hint(err, "count with the hardware: '--backend hw'");
	}
	if (campaign_target_plan_done(c, err))
		return -1;
	note_unavailable(c);
	return 0;
}

void campaign_dry_run(const struct campaign *c, struct strbuf *out)
{
	for (size_t i = 0; i < c->nmech; i++)
		if (c->mech[i].ops->dry_run)
			c->mech[i].ops->dry_run(c, c->mech[i].state, out);
	campaign_target_dry_run(c, out);
}
