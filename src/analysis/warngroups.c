/*
 * Grouping warnings by kind (see warngroups.h). The summary names every
 * metric and variant a group concerns, exactly: metrics warned about in
 * the same variants share one clause, "wall-time, task-clock (vec, csr)",
 * so a reader never has to guess whether a variant applies to a metric.
 */
#include "analysis/warngroups.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Add s to the distinct list v[0..*n) unless it is there (or NULL). */
static void add_distinct(const char ***v, size_t *n, const char *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static struct warn_group *group_of(struct warn_groups *gs, const struct warn_item *it)
{
	struct warn_group *g;

	for (size_t i = 0; it->kind && i < gs->n; i++)
		if (same(gs->g[i].kind, it->kind))
			return &gs->g[i];
	gs->g = xrealloc(gs->g, (gs->n + 1) * sizeof(*gs->g));
	g = &gs->g[gs->n++];
	memset(g, 0, sizeof(*g));
	g->kind = it->kind;
	g->label = it->label ? it->label : it->kind;
	g->hint = it->hint;
	return g;
}

void warn_item_text(const struct warn_item *it, struct strbuf *out)
{
	if (it->metric && !strstr(it->text, it->metric)) {
		strbuf_adds(out, it->metric);
		if (it->variant)
			strbuf_addf(out, " (%s)", it->variant);
		strbuf_adds(out, ": ");
	} else if (it->variant && !it->metric) {
		strbuf_addf(out, "%s: ", it->variant);
	}
	strbuf_adds(out, it->text);
}

/* "vec, csr": the group's variants (in its order) warned about for metric. */
static void variants_of(const struct warn_item *items, const struct warn_group *g,
			const char *metric, struct strbuf *out)
{
	for (size_t k = 0; k < g->nvariants; k++)
		for (size_t i = 0; i < g->nmember; i++) {
			const struct warn_item *it = &items[g->member[i]];

			if (same(it->metric, metric) && same(it->variant, g->variants[k])) {
				strbuf_addf(out, "%s%s", out->len ? ", " : "", g->variants[k]);
				break;
			}
		}
}

static int same_set(const struct strbuf *x, const struct strbuf *y)
{
	return !strcmp(x->buf ? x->buf : "", y->buf ? y->buf : "");
}

/* "label in m1, m2 (v1, v2); m3 (v2)" ("label: m1, ..." for a label
 * ending in ':'). */
static void clauses(const struct warn_item *items, const struct warn_group *g,
		    struct strbuf *out)
{
	size_t n = g->nmetrics, len = strlen(g->label);
	struct strbuf *vs = xcalloc(n + 1, sizeof(*vs));
	char *done = xcalloc(n + 1, 1);

	for (size_t m = 0; m < n; m++)
		variants_of(items, g, g->metrics[m], &vs[m]);
	/* "outliers in wall-time", but "counted 0 in every run: branches" */
	strbuf_addf(out, "%s%s ", g->label, len && g->label[len - 1] == ':' ? "" : " in");
	for (size_t m = 0; m < n; m++) {
		if (done[m])
			continue;
		if (out->buf[out->len - 1] != ' ')
			strbuf_adds(out, "; ");
		for (size_t k = m, first = 1; k < n; k++)
			if (!done[k] && same_set(&vs[k], &vs[m])) {
				strbuf_addf(out, "%s%s", first ? "" : ", ", g->metrics[k]);
				done[k] = 1;
				first = 0;
			}
		if (vs[m].len)
			strbuf_addf(out, " (%s)", vs[m].buf);
	}
	if (!n) {	/* a kind about variants only */
		struct strbuf all = STRBUF_INIT;

		variants_of(items, g, NULL, &all);
		strbuf_adds(out, all.len ? all.buf : "");
		strbuf_release(&all);
	}
	for (size_t m = 0; m < n; m++)
		strbuf_release(&vs[m]);
	free(vs);
	free(done);
}

void warn_groups_build(const struct warn_item *items, size_t n, struct warn_groups *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		struct warn_group *g = group_of(out, &items[i]);

		g->member = xrealloc(g->member, (g->nmember + 1) * sizeof(*g->member));
		g->member[g->nmember++] = i;
		add_distinct(&g->metrics, &g->nmetrics, items[i].metric);
		add_distinct(&g->variants, &g->nvariants, items[i].variant);
	}
	for (size_t k = 0; k < out->n; k++) {
		struct warn_group *g = &out->g[k];
		struct strbuf sb = STRBUF_INIT;

		if (g->nmember == 1)
			warn_item_text(&items[g->member[0]], &sb);
		else
			clauses(items, g, &sb);
		g->summary = strbuf_detach(&sb);
	}
}

void warn_groups_release(struct warn_groups *gs)
{
	for (size_t k = 0; k < gs->n; k++) {
		free(gs->g[k].member);
		free(gs->g[k].summary);
		free(gs->g[k].metrics);
		free(gs->g[k].variants);
	}
	free(gs->g);
	memset(gs, 0, sizeof(*gs));
}
