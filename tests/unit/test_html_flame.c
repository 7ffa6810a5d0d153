/*
 * Unit tests for the flame graph's tree (report/html_flame.h) on
 * constructed stacks: the tree sums stacks that share a path and keeps
 * apart the same function on different paths, totals include callees,
 * children sort by name, frames below the width limit fold into their
 * caller with their time and change (a frame gone from the variant too),
 * and the colours follow the sign and size of the change.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "report/html_flame.h"

/* The live child of node p named name, or SIZE_MAX. */
static size_t child(const struct flame_tree *t, size_t p, const char *name)
{
	for (size_t i = 0; i < t->node[p].nchild; i++)
		if (!strcmp(t->node[t->node[p].child[i]].name, name))
			return t->node[p].child[i];
	return SIZE_MAX;
}

static void test_build(void **state)
{
	struct flame_tree t;
	size_t main_, a, b, leaf_a, leaf_b;

	(void)state;
	flame_init(&t);
	flame_add(&t, "main;b;leaf", 5, 0);
	flame_add(&t, "main;a;leaf", 3, 1);
	flame_add(&t, "main;a", 2, 2);
	flame_add(&t, "main;b;leaf", 1, 0);	/* the same stack again: summed */
	flame_finish(&t);
	assert_int_equal(t.stacks, 4);
	assert_string_equal(t.node[0].name, "all");
	assert_true(t.node[0].total_v == 11 && t.node[0].total_b == 3);
	main_ = child(&t, 0, "main");
	assert_true(main_ != SIZE_MAX);
	assert_int_equal(t.node[0].nchild, 1);
	assert_true(t.node[main_].total_v == 11 && t.node[main_].self_v == 0);
	/* Children in name order, whatever order the stacks came in. */
	assert_int_equal(t.node[main_].nchild, 2);
	a = t.node[main_].child[0];
	b = t.node[main_].child[1];
	assert_string_equal(t.node[a].name, "a");
	assert_string_equal(t.node[b].name, "b");
	assert_true(t.node[a].self_v == 2 && t.node[a].total_v == 5 && t.node[a].total_b == 3);
	assert_true(flame_total_delta(&t.node[a]) == 2 && flame_self_delta(&t.node[a]) == 0);
	/* leaf under a and leaf under b are two frames. */
	leaf_a = child(&t, a, "leaf");
	leaf_b = child(&t, b, "leaf");
	assert_true(leaf_a != SIZE_MAX && leaf_b != SIZE_MAX && leaf_a != leaf_b);
	assert_true(t.node[leaf_a].self_v == 3 && t.node[leaf_a].self_b == 1);
	assert_true(t.node[leaf_b].self_v == 6 && t.node[leaf_b].total_v == 6);
	assert_true(flame_self_delta(&t.node[leaf_b]) == 6);
	flame_release(&t);
}

static void test_unknown_frame(void **state)
{
	struct flame_tree t;
	size_t m;

	(void)state;
	flame_init(&t);
	flame_add(&t, "main;;f", 1, 0);
	flame_add(&t, "main;[unknown];g", 1, 0);
	flame_finish(&t);
	m = child(&t, 0, "main");
	assert_int_equal(t.node[m].nchild, 1);
	assert_true(child(&t, child(&t, m, "[unknown]"), "f") != SIZE_MAX);
	assert_true(child(&t, child(&t, m, "[unknown]"), "g") != SIZE_MAX);
	flame_release(&t);
}

/* 1000 stacks of 1 ns beside one of 1 ms: each is 0.0001% wide. */
static void test_fold_many(void **state)
{
	struct flame_tree t;
	char name[64];
	size_t m, folded, live = 0;

	(void)state;
	flame_init(&t);
	flame_add(&t, "main;big", 1e6, 1e6);
	for (int k = 0; k < 1000; k++) {
		snprintf(name, sizeof(name), "main;f%d;g", k);
		flame_add(&t, name, 1, 2);
	}
	flame_finish(&t);
	folded = flame_fold_narrow(&t, FLAME_MIN_FRACTION);
	assert_int_equal(folded, 2000);	/* each f and the g it calls */
	assert_int_equal(t.folded, 2000);
	m = child(&t, 0, "main");
	assert_int_equal(t.node[m].nchild, 1);
	assert_int_equal(t.node[m].folded, 2000);
	assert_true(t.node[m].self_v == 1000 && t.node[m].self_b == 2000);
	assert_true(flame_self_delta(&t.node[m]) == -1000);
	/* Totals stay what they were. */
	assert_true(t.node[0].total_v == 1e6 + 1000 && t.node[m].total_b == 1e6 + 2000);
	for (size_t i = 0; i < t.n; i++)
		live += !t.node[i].dead;
	assert_int_equal(live, 3);	/* all, main, big */
	flame_release(&t);
}

/* A frame the variant no longer runs keeps its baseline width (the
 * baseline's graph names it); one narrow on both sides folds, its change
 * landing in its caller's own change. A frame at the limit stays. */
static void test_fold_gone(void **state)
{
	struct flame_tree t;
	size_t m;

	(void)state;
	flame_init(&t);
	flame_add(&t, "main;kept", 998.5, 0);
	flame_add(&t, "main;edge", 1, 1);	/* exactly 0.1% of 1000 */
	flame_add(&t, "main;gone", 0, 500);
	flame_add(&t, "main;tiny", 0.5, 0.25);	/* below 0.1% of 1000 and of 501.25 */
	flame_finish(&t);
	assert_int_equal(flame_fold_narrow(&t, FLAME_MIN_FRACTION), 1);
	m = child(&t, 0, "main");
	assert_true(child(&t, m, "gone") != SIZE_MAX);
	assert_true(child(&t, m, "edge") != SIZE_MAX);
	assert_true(child(&t, m, "tiny") == SIZE_MAX);
	assert_true(flame_self_delta(&t.node[m]) == 0.25);
	assert_true(flame_total_delta(&t.node[child(&t, m, "gone")]) == -500);
	flame_release(&t);
}

static void test_delta_colors(void **state)
{
	struct flame_rgb none = flame_delta_color(0, 10), small = flame_delta_color(1, 10);
	struct flame_rgb big = flame_delta_color(8, 10), full = flame_delta_color(10, 10);
	struct flame_rgb over = flame_delta_color(50, 10), down = flame_delta_color(-10, 10);

	(void)state;
	assert_true(none.r == none.g && none.g == none.b);
	assert_true(small.r == 255 && small.g == small.b && small.g < 255);
	/* More change, more saturation. */
	assert_true(big.g < small.g && full.g < big.g);
	assert_memory_equal(&over, &full, sizeof(full));
	assert_true(down.b == 255 && down.r == down.g && down.r == full.g);
	none = flame_delta_color(5, 0);
	assert_true(none.r == none.g && none.g == none.b);
	none = flame_delta_color(NAN, 1);
	assert_true(none.r == none.g && none.g == none.b);
}

static void test_name_colors(void **state)
{
	struct flame_rgb a = flame_name_color("work_a"), a2 = flame_name_color("work_a");
	struct flame_rgb b = flame_name_color("work_b");

	(void)state;
	assert_memory_equal(&a, &a2, sizeof(a));
	assert_true(a.r >= 205 && a.b <= 55 && b.r >= 205 && b.b <= 55);
	assert_true(memcmp(&a, &b, sizeof(a)) != 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_unknown_frame),
		cmocka_unit_test(test_fold_many),
		cmocka_unit_test(test_fold_gone),
		cmocka_unit_test(test_delta_colors),
		cmocka_unit_test(test_name_colors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
