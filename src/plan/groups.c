/*
 * Counter grouping (see groups.h). plan_groups() keeps the original
 * order-based grouping. plan_build() packs events into groups sized to the
 * PMU: the anchors (instructions, cycles) go into every group first, then
 * each metric's events as a unit into the first group where the unit fits,
 * a new group when none does. "Fits" is a matching problem because some
 * events may only use some counters (Intel cache events on counters 0-3):
 * the check assigns counters with augmenting paths, which is exact and
 * cheap for the at most 16 counters a core PMU has.
 */
#include "plan/groups.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/event_kind.h"

void plan_groups(const struct event_spec *evs, size_t n, size_t *leader)
{
	size_t cur = 0, members = 0;
	int open = 0;

	for (size_t i = 0; i < n; i++) {
		if (!event_needs_core_pmu(&evs[i])) {
			leader[i] = i;
			continue;
		}
		if (!open || members == PLAN_GROUP_MAX) {
			cur = i;
			members = 0;
			open = 1;
		}
		leader[i] = cur;
		members++;
	}
}

/* ---- fitting ----------------------------------------------------------- */

#define MAXC 32

struct fit {
	uint32_t mask[64];	/* allowed counters of each GP event in the group */
	size_t n;
	unsigned gp;		/* counters available */
	int owner[MAXC];	/* counter -> event, -1 free */
};

static int augment(struct fit *f, size_t e, uint32_t *seen)
{
	for (unsigned c = 0; c < f->gp; c++) {
		if (!(f->mask[e] & (1u << c)) || (*seen & (1u << c)))
			continue;
		*seen |= 1u << c;
		if (f->owner[c] < 0 || augment(f, (size_t)f->owner[c], seen)) {
			f->owner[c] = (int)e;
			return 1;
		}
	}
	return 0;
}

/* Can these GP events all get a counter? */
static int matchable(struct fit *f)
{
	for (unsigned c = 0; c < MAXC; c++)
		f->owner[c] = -1;
	for (size_t e = 0; e < f->n; e++) {
		uint32_t seen = 0;

		if (!augment(f, e, &seen))
			return 0;
	}
	return 1;
}

struct ctx {
	const struct plan_event *ev;
	const struct plan_capacity *cap;
	unsigned gp, fixed;	/* effective capacity */
};

/* Does event i take a fixed counter (when one is free)? */
static int wants_fixed(const struct ctx *c, size_t i)
{
	return c->ev[i].fixed && !(c->ev[i].cycles && c->cap->watchdog == 2);
}

/* Would group g still fit with events add[0..nadd) added? */
static int fits(const struct ctx *c, const struct plan_group *g, const size_t *add, size_t nadd)
{
	struct fit f;
	unsigned fixed = 0;
	uint32_t all = c->gp >= 32 ? 0xffffffffu : (1u << c->gp) - 1;

	memset(&f, 0, sizeof(f));
	f.gp = c->gp;
	for (size_t k = 0; k < g->n + nadd; k++) {
		size_t i = k < g->n ? g->ev[k] : add[k - g->n];

		if (wants_fixed(c, i) && fixed < c->fixed) {
			fixed++;
			continue;
		}
		if (f.n == 64)
			return 0;
		f.mask[f.n++] = (c->ev[i].counters ? c->ev[i].counters : all) & all;
	}
	return f.n <= c->gp && matchable(&f);
}

static void group_add(struct plan_group *g, const size_t *add, size_t nadd)
{
	g->ev = xrealloc(g->ev, (g->n + nadd + 1) * sizeof(size_t));
	g->lead = xrealloc(g->lead, (g->n + nadd + 1) * sizeof(size_t));
	memcpy(g->ev + g->n, add, nadd * sizeof(size_t));
	for (size_t k = 0; k < nadd; k++)
		g->lead[g->n + k] = g->n ? g->ev[0] : add[0];
	g->n += nadd;
}

static struct plan_group *new_group(struct plan *p, const size_t *anchors, size_t na)
{
	struct plan_group *g;

	p->groups = xrealloc(p->groups, (p->ngroups + 1) * sizeof(*p->groups));
	g = &p->groups[p->ngroups++];
	memset(g, 0, sizeof(*g));
	group_add(g, anchors, na);
	return g;
}

static void note(struct plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct plan *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	strbuf_adds(&sb, buf);
	p->notes = xrealloc(p->notes, (p->nnotes + 1) * sizeof(char *));
	p->notes[p->nnotes++] = strbuf_detach(&sb);
}

static void rotation_notes(struct plan *out);

/* Place one unit (or one event) into the first group it fits, or a new one. */
static int place(struct plan *p, const struct ctx *c, const size_t *unit, size_t nu,
		 const size_t *anchors, size_t na)
{
	for (size_t g = 0; g < p->ngroups; g++)
		if (fits(c, &p->groups[g], unit, nu)) {
			group_add(&p->groups[g], unit, nu);
			return 0;
		}
	{
		struct plan_group empty = { .ev = (size_t *)anchors, .n = na };

		if (!fits(c, &empty, unit, nu))
			return -1;
	}
	group_add(new_group(p, anchors, na), unit, nu);
	return 0;
}

static void fill_usage(struct plan *p, const struct ctx *c)
{
	for (size_t g = 0; g < p->ngroups; g++) {
		struct plan_group *gr = &p->groups[g];

		gr->gp_used = gr->fixed_used = 0;
		for (size_t k = 0; k < gr->n; k++)
			if (wants_fixed(c, gr->ev[k]) && gr->fixed_used < c->fixed)
				gr->fixed_used++;
			else
				gr->gp_used++;
		gr->gp_by[0] = gr->gp_used;
		gr->fixed_by[0] = gr->fixed_used;
	}
}

/* Pack the events of one core PMU; top = the plan as a whole (rotation
 * and multiplex notes are its business). */
static int pack(const struct plan_event *ev, size_t n, const struct plan_capacity *cap,
		int multiplex, int top, struct plan *out, struct error *err)
{
	struct ctx c = { ev, cap, cap->gp, cap->fixed };
	size_t *anchors = xcalloc(n + 1, sizeof(size_t)), na = 0;
	size_t *unit = xcalloc(n + 1, sizeof(size_t));
	char *done = xcalloc(n + 1, 1);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->multiplex = multiplex;
	if (cap->watchdog == 1 && c.gp > 0)
		c.gp--;
	out->gp = c.gp;
	out->fixed = c.fixed;
	for (size_t i = 0; i < n; i++) {
		if (!ev[i].core) {
			out->always = xrealloc(out->always, (out->nalways + 1) * sizeof(size_t));
			out->always[out->nalways++] = i;
			done[i] = 1;
		} else if (ev[i].anchor) {
			anchors[na++] = i;
			done[i] = 1;
		}
	}
	for (size_t i = 0; i < n && !rc; i++) {
		size_t nu = 0;

		if (done[i])
			continue;
		for (size_t k = i; k < n; k++)
			if (!done[k] && (k == i || (ev[i].unit >= 0 && ev[k].unit == ev[i].unit))) {
				unit[nu++] = k;
				done[k] = 1;
			}
		if (place(out, &c, unit, nu, anchors, na) == 0)
			continue;
		if (nu > 1)
			note(out, "the %zu events of one metric do not fit one group of %u "
			     "counters: they are counted in different runs, and their ratio "
			     "is estimated across runs", nu, c.gp);
		for (size_t k = 0; k < nu && !rc; k++)
			if (place(out, &c, &unit[k], 1, anchors, na) < 0) {
				error_set(err, ERR_USAGE, "event %zu cannot be scheduled: it needs "
					  "a counter that the anchors (instructions, cycles) and the "
					  "watchdog leave no room for", unit[k]);
				error_hint(err, "free a counter with 'sysctl kernel.nmi_watchdog=0', "
					   "or measure fewer events");
				rc = -1;
			}
	}
	if (!rc && !out->ngroups && na)
		new_group(out, anchors, na);
	fill_usage(out, &c);
	if (!rc && cap->watchdog)
		note(out, "the NMI watchdog holds a %s counter: planned with %u general-purpose "
		     "and %u fixed; 'sysctl kernel.nmi_watchdog=0' frees it",
		     cap->watchdog == 1 ? "general-purpose" : "fixed (cycles)", c.gp, c.fixed);
	if (!rc && top)
		rotation_notes(out);
	free(anchors);
	free(unit);
	free(done);
	if (rc)
		plan_release(out);
	return rc;
}

static void rotation_notes(struct plan *out)
{
	if (out->multiplex && out->ngroups > 1)
		note(out, "--multiplex: all %zu groups are opened on every run; the kernel "
		     "time-shares the counters and counts are scaled by time_enabled/time_running",
		     out->ngroups);
	else if (out->ngroups > 1)
		note(out, "%zu counter groups rotate across blocks (run in block b counts group "
		     "b mod %zu): every count is exact for its run; instructions and cycles are "
		     "in every group", out->ngroups, out->ngroups);
}

int plan_build(const struct plan_event *ev, size_t n, const struct plan_capacity *cap,
	       int multiplex, struct plan *out, struct error *err)
{
	int rc = pack(ev, n, cap, multiplex, 1, out, err);

	if (!rc) {
		out->npmus = 1;
		out->gp_by[0] = out->gp;
		out->fixed_by[0] = out->fixed;
	}
	return rc;
}

/* ---- several core PMUs (hybrid parts) ---------------------------------- */

/* Plan PMU p's events alone: sub's indices are into the full list. */
static int pack_pmu(const struct plan_event *ev, size_t n, const struct plan_pmus *pm, size_t p,
		    int multiplex, struct plan *sub, struct error *err)
{
	struct plan_event *mine = xcalloc(n + 1, sizeof(*mine));
	size_t *map = xcalloc(n + 1, sizeof(size_t)), m = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (ev[i].core && ev[i].pmu == p) {
			mine[m] = ev[i];
			map[m++] = i;
		}
	rc = pack(mine, m, &pm->cap[p], multiplex, 0, sub, err);
	for (size_t g = 0; !rc && g < sub->ngroups; g++)
		for (size_t k = 0; k < sub->groups[g].n; k++) {
			sub->groups[g].ev[k] = map[sub->groups[g].ev[k]];
			sub->groups[g].lead[k] = map[sub->groups[g].lead[k]];
		}
	free(mine);
	free(map);
	return rc;
}

/* Run group g gets group g mod G_p of PMU p. */
static void merge_pmu(struct plan *out, const struct plan *sub, size_t p, const char *name)
{
	for (size_t g = 0; g < out->ngroups && sub->ngroups; g++) {
		const struct plan_group *sg = &sub->groups[g % sub->ngroups];
		struct plan_group *og = &out->groups[g];

		og->ev = xrealloc(og->ev, (og->n + sg->n + 1) * sizeof(size_t));
		og->lead = xrealloc(og->lead, (og->n + sg->n + 1) * sizeof(size_t));
		memcpy(og->ev + og->n, sg->ev, sg->n * sizeof(size_t));
		memcpy(og->lead + og->n, sg->lead, sg->n * sizeof(size_t));
		og->n += sg->n;
		og->gp_by[p] = sg->gp_used;
		og->fixed_by[p] = sg->fixed_used;
		og->gp_used += sg->gp_used;
		og->fixed_used += sg->fixed_used;
	}
	out->gp_by[p] = sub->gp;
	out->fixed_by[p] = sub->fixed;
	for (size_t k = 0; k < sub->nnotes; k++)
		note(out, "%s: %s", name ? name : "core PMU", sub->notes[k]);
}

int plan_build_pmus(const struct plan_event *ev, size_t n, const struct plan_pmus *pm,
		    int multiplex, struct plan *out, struct error *err)
{
	struct plan sub[PLAN_MAX_PMUS];
	size_t np = pm->n < PLAN_MAX_PMUS ? pm->n : PLAN_MAX_PMUS, G = 0;

	if (np <= 1)
		return plan_build(ev, n, &pm->cap[0], multiplex, out, err);
	memset(out, 0, sizeof(*out));
	for (size_t p = 0; p < np; p++) {
		if (pack_pmu(ev, n, pm, p, multiplex, &sub[p], err) < 0) {
			const char *name = pm->name[p] ? pm->name[p] : "core PMU";

			while (p-- > 0)
				plan_release(&sub[p]);
			return error_prefix(err, "on '%s'", name);
		}
		G = sub[p].ngroups > G ? sub[p].ngroups : G;
	}
	out->multiplex = multiplex;
	out->npmus = np;
	out->ngroups = G;
	out->groups = xcalloc(G + 1, sizeof(*out->groups));
	for (size_t i = 0; i < n; i++)
		if (!ev[i].core) {
			out->always = xrealloc(out->always, (out->nalways + 1) * sizeof(size_t));
			out->always[out->nalways++] = i;
		}
	for (size_t p = 0; p < np; p++) {
		out->pmu_name[p] = pm->name[p];
		merge_pmu(out, &sub[p], p, pm->name[p]);
		plan_release(&sub[p]);
	}
	out->gp = out->gp_by[0];
	out->fixed = out->fixed_by[0];
	rotation_notes(out);
	if (multiplex)
		note(out, "--multiplex on a hybrid part: a core type's count that ran part of the "
		     "time may have been time-shared or may be where the threads ran; the two cannot "
		     "be told apart, so those counts are not scaled");
	return 0;
}

void plan_release(struct plan *p)
{
	for (size_t g = 0; g < p->ngroups; g++) {
		free(p->groups[g].ev);
		free(p->groups[g].lead);
	}
	free(p->groups);
	free(p->always);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}

size_t plan_group_of_block(const struct plan *p, unsigned block)
{
	return p->ngroups ? block % p->ngroups : 0;
}

void plan_run_leaders(const struct plan *p, size_t g, size_t n, size_t *leader)
{
	for (size_t i = 0; i < n; i++)
		leader[i] = PLAN_NOT_COUNTED;
	for (size_t i = 0; i < p->nalways; i++)
		leader[p->always[i]] = p->always[i];
	for (size_t k = 0; k < p->ngroups; k++) {
		const struct plan_group *gr = &p->groups[k];

		if (k != g && !p->multiplex)
			continue;
		for (size_t j = 0; j < gr->n; j++)
			/* with multiplex an anchor is in several groups: keep its first */
			if (leader[gr->ev[j]] == PLAN_NOT_COUNTED)
				leader[gr->ev[j]] = gr->lead[j];
	}
}

/* ---- --dry-run --------------------------------------------------------- */

static void attr_line(struct strbuf *out, const struct event_spec *e, const char *label,
		      const char *role)
{
	const struct perf_event_attr *a = &e->attr;

	if (!label)
		label = e->name;
	strbuf_addf(out, "    %-6s %s", role, label);
	if (strcmp(label, e->name))
		strbuf_addf(out, " = %s", e->name);
	strbuf_addf(out, "\n           pmu %s  type %u  config %#llx  config1 %#llx  config2 %#llx"
		    "  exclude_user %u  exclude_kernel %u  exclude_hv %u\n", e->pmu, a->type,
		    (unsigned long long)a->config, (unsigned long long)a->config1,
		    (unsigned long long)a->config2, a->exclude_user, a->exclude_kernel,
		    a->exclude_hv);
}

/* Does any group count on core PMU k? Not when the host lacks that PMU
 * (Arrow Lake-S has no cpu_lowpower) and its events were dropped. */
static int pmu_used(const struct plan *p, size_t k)
{
	for (size_t g = 0; g < p->ngroups; g++)
		if (p->groups[g].gp_by[k] || p->groups[g].fixed_by[k])
			return 1;
	return 0;
}

/* "8 general-purpose + 4 fixed", per core PMU when there are several (the
 * ones that count something). */
static void capacity_text(struct strbuf *out, const struct plan *p, const unsigned *gp,
			  const unsigned *fixed, const char *what)
{
	int said = 0;

	if (p->npmus <= 1) {
		strbuf_addf(out, "%u general-purpose%s, %u fixed", gp[0], what, fixed[0]);
		return;
	}
	for (size_t k = 0; k < p->npmus; k++)
		if (pmu_used(p, k) || (!k && !p->ngroups))
			strbuf_addf(out, "%s%s: %u general-purpose%s + %u fixed", said++ ? "; " : "",
				    p->pmu_name[k] ? p->pmu_name[k] : "core PMU", gp[k], what,
				    fixed[k]);
}

void plan_render_dry_run(const struct plan *p, const struct event_spec *evs,
			 const char *const *labels, size_t n, struct strbuf *out)
{
	strbuf_addf(out, "counter plan: %zu group%s of at most ", p->ngroups,
		    p->ngroups == 1 ? "" : "s");
	if (p->npmus > 1) {
		strbuf_addch(out, '(');
		capacity_text(out, p, p->gp_by, p->fixed_by, "");
		strbuf_adds(out, ") counters, one group per core PMU in each");
	} else {
		strbuf_addf(out, "%u general-purpose + %u fixed counters", p->gp, p->fixed);
	}
	strbuf_addf(out, "%s\n", p->multiplex ? ", all opened at once (multiplexed, scaled)"
			: p->ngroups > 1 ? ", rotated: a run in block b counts group b mod G" : "");
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct plan_group *gr = &p->groups[g];

		strbuf_addf(out, "  group %zu (", g);
		capacity_text(out, p, gr->gp_by, gr->fixed_by, "");
		strbuf_adds(out, "):\n");
		for (size_t k = 0; k < gr->n; k++) {
			size_t i = gr->ev[k];

			if (i < n)
				attr_line(out, &evs[i], labels ? labels[i] : evs[i].name,
					  gr->lead[k] == i ? "leader" : "member");
		}
	}
	if (p->nalways)
		strbuf_adds(out, "  every run (outside the core groups):\n");
	for (size_t k = 0; k < p->nalways; k++) {
		size_t i = p->always[k];

		if (i < n)
			attr_line(out, &evs[i], labels ? labels[i] : evs[i].name, "alone");
	}
	for (size_t k = 0; k < p->nnotes; k++)
		strbuf_addf(out, "  note: %s\n", p->notes[k]);
}
