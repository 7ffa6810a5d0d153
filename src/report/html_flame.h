/*
 * Flame graphs for the HTML page: the call tree of one variant's profile,
 * each frame as wide as the variant's time under it, and — against the
 * baseline — coloured by how its own time changed (red = grew, blue =
 * shrank, the more saturated the larger the change: a differential flame
 * graph). The tree is built from the result's `stack:ROOT;...;LEAF`
 * metrics (CPU time per run of the samples whose whole stack is that one),
 * or, when call chains were not recorded, from the `self:FUNCTION` metrics
 * as one level. Building, merging and colouring are pure and tested on
 * constructed inputs (tests/unit/test_html_flame.c); html_flame_svg.c draws.
 */
#ifndef PMU_REPORT_HTML_FLAME_H
#define PMU_REPORT_HTML_FLAME_H

#include <stddef.h>

#include "result/vocab.h"

/* Frames narrower than this share of the variant's time are folded into
 * their caller: a graph of thousands of stacks stays readable. */
#define FLAME_MIN_FRACTION 0.001

struct flame_node {
	char *name;		/* the frame's function ("all" for the root) */
	size_t parent;		/* index; SIZE_MAX for the root */
	size_t *child;		/* indices, in name order once finished */
	size_t nchild, child_alloc;
	double self_v, self_b;	/* own time on this path, per run: variant, baseline */
	double total_v, total_b;	/* with everything it called */
	size_t folded;		/* frames folded into this one's own time */
	int dead;		/* folded into an ancestor */
};

struct flame_tree {
	struct flame_node *node;	/* node[0] is the root */
	size_t n, alloc;
	size_t stacks;		/* stacks added */
	size_t folded;		/* frames folded into callers, all told */
};

void flame_init(struct flame_tree *t);
void flame_release(struct flame_tree *t);

/* Add a stack "ROOT;CALLER;...;LEAF" (an empty frame is "[unknown]") whose
 * leaf spent v ns per run in the variant and b in the baseline. Adding the
 * same stack twice sums. */
void flame_add(struct flame_tree *t, const char *stack, double v, double b);

/* Totals from the own times, children in name order (a stable layout: the
 * same function sits in the same place in every variant's graph). */
void flame_finish(struct flame_tree *t);

/* Fold every frame narrower than fraction of the root on both sides
 * (total_v against the root's total_v, and total_b against its total_b)
 * into its parent's own time (and own change), subtree and all; returns
 * how many frames were folded. Call after flame_finish; totals stay the
 * same. */
size_t flame_fold_narrow(struct flame_tree *t, double fraction);

/* Change of a node's own time and of its total (variant - baseline). */
double flame_self_delta(const struct flame_node *n);
double flame_total_delta(const struct flame_node *n);

/* The colour of a change d against the largest change shown, maxabs:
 * white-ish for none, towards saturated red as d grows positive, blue as it
 * grows negative (the saturation is |d| / maxabs, clamped to 1). */
struct flame_rgb {
	unsigned char r, g, b;
};
struct flame_rgb flame_delta_color(double d, double maxabs);
/* The colour of a frame of a plain (not differential) graph: warm hues that
 * vary with the name only, so a function keeps its colour across graphs. */
struct flame_rgb flame_name_color(const char *name);

/* The page's inline script for the flame graphs: search (matching frames
 * highlighted, their share of each graph's time said) and click-to-zoom,
 * driven by the controls or by the address's #search=NAME&zoom=NAME
 * (html_flame_script.c). */
extern const char html_flame_script[];

#endif
