/*
 * The flame graph's tree (see html_flame.h): stacks summed into frames,
 * totals, the fold of narrow frames, and the colours. The colour is the
 * change of a frame's own time, not of its total: a total grows with
 * everything it calls, so colouring totals would paint every caller of one
 * slower leaf red down to the root, while own time points at the frame
 * where the time changed — the same quantity as "where the difference is".
 * A differential graph is drawn twice, with the variant's widths and with
 * the baseline's (html_flame_svg.c), so a frame is folded only when it is
 * narrow on both sides: a frame the variant no longer runs keeps its
 * baseline width, and is named there.
 */
#include "report/html_flame.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "core/strbuf.h"

/* ---- the tree ------------------------------------------------------------ */

static size_t new_node(struct flame_tree *t, size_t parent, const char *name, size_t len)
{
	struct flame_node *n;

	ALLOC_GROW(t->node, t->n + 1, t->alloc);
	n = &t->node[t->n];
	memset(n, 0, sizeof(*n));
	n->name = len ? xstrndup(name, len) : xstrdup("[unknown]");
	n->parent = parent;
	if (parent != SIZE_MAX) {
		struct flame_node *p = &t->node[parent];

		ALLOC_GROW(p->child, p->nchild + 1, p->child_alloc);
		p->child[p->nchild++] = t->n;
	}
	return t->n++;
}

void flame_init(struct flame_tree *t)
{
	memset(t, 0, sizeof(*t));
	new_node(t, SIZE_MAX, "all", 3);
}

void flame_release(struct flame_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->node[i].name);
		free(t->node[i].child);
	}
	free(t->node);
	memset(t, 0, sizeof(*t));
}

static size_t child_named(struct flame_tree *t, size_t parent, const char *name, size_t len)
{
	const char *want = len ? name : "[unknown]";
	size_t wlen = len ? len : strlen("[unknown]");
	const struct flame_node *p = &t->node[parent];

	for (size_t i = 0; i < p->nchild; i++) {
		const char *have = t->node[p->child[i]].name;

		if (!strncmp(have, want, wlen) && !have[wlen])
			return p->child[i];
	}
	return new_node(t, parent, name, len);
}

void flame_add(struct flame_tree *t, const char *stack, double v, double b)
{
	size_t at = 0;

	for (const char *f = stack;;) {
		const char *end = strchr(f, ';');
		size_t len = end ? (size_t)(end - f) : strlen(f);

		at = child_named(t, at, f, len);
		if (!end)
			break;
		f = end + 1;
	}
	t->node[at].self_v += v;
	t->node[at].self_b += b;
	t->stacks++;
}

struct named {
	const char *name;
	size_t index;
};

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct named *)x)->name, ((const struct named *)y)->name);
}

static void sort_children(struct flame_tree *t, struct flame_node *n)
{
	struct named *s = xmalloc((n->nchild + 1) * sizeof(*s));

	for (size_t i = 0; i < n->nchild; i++)
		s[i] = (struct named){ t->node[n->child[i]].name, n->child[i] };
	sort_n(s, n->nchild, sizeof(*s), by_name);
	for (size_t i = 0; i < n->nchild; i++)
		n->child[i] = s[i].index;
	free(s);
}

void flame_finish(struct flame_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		t->node[i].total_v = t->node[i].self_v;
		t->node[i].total_b = t->node[i].self_b;
	}
	/* A child always comes after its parent: one backward pass sums. */
	for (size_t i = t->n; i-- > 1;) {
		t->node[t->node[i].parent].total_v += t->node[i].total_v;
		t->node[t->node[i].parent].total_b += t->node[i].total_b;
	}
	for (size_t i = 0; i < t->n; i++)
		sort_children(t, &t->node[i]);
}

/* Mark i and everything under it dead; returns how many frames that is. */
static size_t kill_subtree(struct flame_tree *t, size_t i)
{
	size_t *todo = xmalloc((t->n + 1) * sizeof(size_t)), n = 0, count = 0;

	todo[n++] = i;
	while (n) {
		struct flame_node *x = &t->node[todo[--n]];

		x->dead = 1;
		count++;
		for (size_t k = 0; k < x->nchild; k++)
			todo[n++] = x->child[k];
	}
	free(todo);
	return count;
}

static void drop_dead_children(struct flame_node *p, const struct flame_tree *t)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nchild; i++)
		if (!t->node[p->child[i]].dead)
			p->child[k++] = p->child[i];
	p->nchild = k;
}

/* Is a side's total wide enough to draw against that side's root? */
static int wide(double total, double root, double fraction)
{
	return total > 0 && total >= fraction * root;
}

size_t flame_fold_narrow(struct flame_tree *t, double fraction)
{
	double root_v = t->node[0].total_v, root_b = t->node[0].total_b;
	size_t folded = 0;

	/* Parents come first, so a folded frame's subtree is dead before the
	 * loop reaches it. */
	for (size_t i = 1; i < t->n; i++) {
		struct flame_node *n = &t->node[i], *p;
		size_t count;

		if (n->dead || wide(n->total_v, root_v, fraction) ||
		    wide(n->total_b, root_b, fraction))
			continue;
		p = &t->node[n->parent];
		p->self_v += n->total_v;
		p->self_b += n->total_b;
		count = kill_subtree(t, i);
		p->folded += count;
		folded += count;
	}
	for (size_t i = 0; folded && i < t->n; i++)
		if (!t->node[i].dead)
			drop_dead_children(&t->node[i], t);
	t->folded += folded;
	return folded;
}

double flame_self_delta(const struct flame_node *n)
{
	return n->self_v - n->self_b;
}

double flame_total_delta(const struct flame_node *n)
{
	return n->total_v - n->total_b;
}

struct flame_rgb flame_delta_color(double d, double maxabs)
{
	double s = maxabs > 0 && isfinite(d) ? fmin(1, fabs(d) / maxabs) : 0;
	unsigned char fade = (unsigned char)lround(230 - 190 * s);

	if (s == 0)
		return (struct flame_rgb){ 221, 221, 221 };
	if (d > 0)
		return (struct flame_rgb){ 255, fade, fade };
	return (struct flame_rgb){ fade, fade, 255 };
}

struct flame_rgb flame_name_color(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	/* Flame colours: red high, green mid, blue low. */
	return (struct flame_rgb){ (unsigned char)(205 + h % 51), (unsigned char)(90 + (h >> 8) % 131),
				   (unsigned char)((h >> 16) % 56) };
}
