/*
 * Hybrid parts (Alder Lake, Meteor Lake): after a resolution, every metric
 * counted on two or more core types gets one part per type, NAME.cpu_core
 * and NAME.cpu_atom, next to the sum. A base metric's part is the terms of
 * its plain sum on that type's PMU; a derived metric's part is its formula
 * over its inputs' parts. See docs/catalogue.md.
 */
#include "catalog/resolve_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "host/sysfs.h"

/* The sysfs name of core PMU k here ("cpu_core"), or the catalogue's. */
static const char *core_pmu_name(struct rx *x, const struct catalog_core_pmu *pm)
{
	const struct sysfs_pmu *sp = rx_host_pmu(x->ctx->model, cat_pmu(x->cat->d, pm->role));

	return sp ? sp->name : pm->sysfs;
}

static struct resolved_metric *add_part(struct rx *x, size_t parent, const char *pmu_name,
					const char *core_type)
{
	struct strbuf name = STRBUF_INIT, desc = STRBUF_INIT;
	struct resolved_metric *m, *p;

	strbuf_addf(&name, "%s.%s", x->r->metrics[parent].name, pmu_name);
	m = rx_new_metric(x->r, name.buf, name.buf, NULL);
	p = &x->r->metrics[parent];
	strbuf_addf(&desc, "%s: the part counted on %s (%s)", p->desc ? p->desc : p->name,
		    pmu_name, core_type);
	m->desc = strbuf_detach(&desc);
	m->unit = rx_dupn(p->unit);
	m->kind = p->kind;
	m->implied = p->implied;
	m->available = 1;
	m->part = 1;
	m->proxy = rx_dupn(p->proxy);
	strbuf_release(&name);
	return m;
}

/* A base metric's part on core PMU k: the terms of its plain sum there. */
static void split_base(struct rx *x, size_t mi, size_t k, const struct catalog_core_pmu *pm)
{
	const struct resolved_metric *p = &x->r->metrics[mi];
	struct strbuf f = STRBUF_INIT;
	size_t *ev = xcalloc(p->nevents + 1, sizeof(size_t)), n = 0;
	struct resolved_metric *m;

	for (size_t i = 0; i < p->nevents; i++)
		if (x->r->events[p->events[i]].core_index == (int)k) {
			strbuf_addf(&f, "%s%s", n ? " + " : "", x->r->events[p->events[i]].name);
			ev[n++] = p->events[i];
		}
	if (!n) {	/* not counted on this type (its PMU is absent here) */
		strbuf_release(&f);
		free(ev);
		return;
	}
	m = add_part(x, mi, core_pmu_name(x, pm), pm->core_type);
	m->formula = strbuf_detach(&f);
	m->events = ev;
	m->nevents = n;
}

/* Is every event of base metric mi on a core type, with at least two types? */
static int splittable(const struct rx *x, const struct resolved_metric *m)
{
	unsigned types = 0;

	if (m->kind != MK_BASE || !m->available || !rx_plain_sum(m->formula))
		return 0;
	for (size_t i = 0; i < m->nevents; i++) {
		const struct resolved_event *e = &x->r->events[m->events[i]];

		if (!e->hybrid)
			return 0;
		types |= 1u << e->core_index;
	}
	return types & (types - 1) ? 1 : 0;
}

/* f with every metric name N replaced by "N.suffix"; NULL if one has no
 * such part. */
static char *suffixed(struct rx *x, const char *f, const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = f;

	while (*p) {
		const char *st = p;

		if (!isalpha((unsigned char)*p)) {
			strbuf_addch(&sb, *p++);
			continue;
		}
		while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
		       (*p == '-' && isalnum((unsigned char)p[1])))
			p++;
		strbuf_add(&sb, st, (size_t)(p - st));
		strbuf_addf(&sb, ".%s", suffix);
		{
			char *name = xstrndup(sb.buf + sb.len - (size_t)(p - st) - strlen(suffix) - 1,
					      (size_t)(p - st) + strlen(suffix) + 1);
			int ok = resolution_metric_index(x->r, name) >= 0;

			free(name);
			if (!ok) {
				strbuf_release(&sb);
				return NULL;
			}
		}
	}
	return strbuf_detach(&sb);
}

/* A derived metric's part on one core type: its formula over the parts of
 * its inputs (ipc.cpu_core = instructions.cpu_core / cycles.cpu_core). */
static void split_derived(struct rx *x, size_t mi, const struct catalog_core_pmu *pm)
{
	const char *pname = core_pmu_name(x, pm);
	char *mf = suffixed(x, x->r->metrics[mi].metric_formula, pname);
	struct resolved_metric *m;
	struct error ignored;
	char **names;
	size_t n;

	if (!mf)
		return;
	/* mf is a checked formula with suffixed names: it parses */
	if (formula_names(mf, &names, &n, &ignored) < 0) {
		free(mf);
		return;
	}
	m = add_part(x, mi, pname, pm->core_type);
	m->metric_formula = mf;
	m->formula = rx_expand(x, mf);
	m->inputs = xcalloc(n ? n : 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		const struct resolved_metric *in;

		m->inputs[m->ninputs++] = (size_t)resolution_metric_index(x->r, names[i]);
		in = &x->r->metrics[m->inputs[i]];
		m->events = xrealloc(m->events, (m->nevents + in->nevents + 1) * sizeof(size_t));
		for (size_t k = 0; k < in->nevents; k++)
			m->events[m->nevents++] = in->events[k];
		free(names[i]);
	}
	free(names);
}

/* "counted on both core types (cpu_core, cpu_atom) ...; NAME.cpu_core and
 * NAME.cpu_atom are the parts", naming the types metric m is counted on
 * here (two, or three on Arrow Lake-H). */
static char *hybrid_note(struct rx *x, const struct resolved_metric *m,
			 const struct catalog_core_pmu *pm, size_t npm)
{
	struct strbuf names = STRBUF_INIT, parts = STRBUF_INIT, sb = STRBUF_INIT;
	size_t n = 0, used = 0;

	for (size_t k = 0; k < npm; k++)
		for (size_t i = 0; i < m->nevents; i++)
			if (x->r->events[m->events[i]].core_index == (int)k) {
				used |= (size_t)1 << k;
				break;
			}
	for (size_t k = 0; k < npm; k++)
		if (used & ((size_t)1 << k))
			n++;
	for (size_t k = 0, i = 0; k < npm; k++) {
		if (!(used & ((size_t)1 << k)))
			continue;
		strbuf_addf(&names, "%s%s", i ? ", " : "", core_pmu_name(x, &pm[k]));
		strbuf_addf(&parts, "%sNAME.%s", !i ? "" : i + 1 == n ? " and " : ", ",
			    core_pmu_name(x, &pm[k]));
		i++;
	}
	if (n == 2)
		strbuf_adds(&sb, "hybrid CPU: each metric is counted on both core types");
	else
		strbuf_addf(&sb, "hybrid CPU: each metric is counted on all %zu core types", n);
	strbuf_addf(&sb, " (%s) and summed; %s are the parts (a thread counts on the type it "
		    "runs on)", names.buf, parts.buf);
	strbuf_release(&names);
	strbuf_release(&parts);
	return strbuf_detach(&sb);
}

/*
 * On a hybrid part every metric counted on both core types gets one part
 * per type, NAME.cpu_core and NAME.cpu_atom, next to the sum; derived
 * metrics get theirs when all of their inputs have parts. Derived inputs
 * come after the metric that uses them, hence the reverse walk.
 */
void split_core_types(struct rx *x)
{
	struct catalog_core_pmu pm[CATALOG_MAX_CORE_PMUS];
	size_t npm = catalog_core_pmus(x->cat, pm, CATALOG_MAX_CORE_PMUS), n0 = x->r->nmetrics;
	int first = 1;

	if (npm < 2)
		return;
	for (size_t mi = 0; mi < n0; mi++) {
		if (!splittable(x, &x->r->metrics[mi]))
			continue;
		for (size_t k = 0; k < npm; k++)
			split_base(x, mi, k, &pm[k]);
		if (first) {
			rx_add_note(&x->r->metrics[mi], hybrid_note(x, &x->r->metrics[mi], pm, npm));
			first = 0;
		}
	}
	for (size_t mi = n0; mi-- > 0;)
		if (x->r->metrics[mi].kind == MK_DERIVED && x->r->metrics[mi].available)
			for (size_t k = 0; k < npm; k++)
				split_derived(x, mi, &pm[k]);
}

