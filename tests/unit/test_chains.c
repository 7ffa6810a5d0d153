/*
 * Unit tests for analysis/chains: what cut call chains leave uncertain, on
 * constructed stacks whose answer is known. A complete chain (from _start)
 * hides nothing; a chain cut below f, holding none of f's callers, could be
 * missing f; a chain holding a caller of f cannot be (f would be between
 * the caller and the leaf, which the chain has whole).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "cpubound.h"
#include "analysis/attribution.h"
#include "analysis/chains.h"
#include "result/result.h"

/* One run; stacks[i] takes t[i] ns. */
static void build(struct result *r, const char *const *stacks, const double *t, size_t n)
{
	char *argv[] = { "prog", NULL };
	struct result_run *run;

	result_init(r, "stat");
	result_add_variant(r, "A", argv);
	for (size_t i = 0; i < n; i++)
		result_add_metric(r, stacks[i], "ns", MSRC_PROFILE)->hidden = 1;
	run = result_add_run(r);
	run->status = RUN_OK;
	for (size_t i = 0; i < n; i++) {
		run->values[i].valid = t[i] > 0;
		run->values[i].value = t[i];
	}
}

static void test_missing(void **state)
{
	const char *const stacks[] = {
		"stack:_start;main;outer;mid;leaf",	/* complete: hides nothing */
		"stack:outer;mid;leaf",			/* cut above outer */
		"stack:mid;other",			/* cut above mid: main, outer unseen */
		"stack:deep;leaf",			/* cut: deep is no known caller of mid */
	};
	const double t[] = { 100, 40, 7, 3 };
	struct result r;
	struct chain_info *ci;
	size_t run = 0;
	double *w;

	(void)state;
	build(&r, stacks, t, 4);
	ci = chains_build(&r);
	assert_non_null(ci);
	w = chains_weights(ci, &r, &run, 1);
	/* main: the three cut chains hold neither main nor a caller of it. */
	assert_true(chains_missing(ci, w, "main") == 40 + 7 + 3);
	/* outer: "outer;mid;leaf" holds it; the other two could be missing it. */
	assert_true(chains_missing(ci, w, "outer") == 7 + 3);
	/* mid: the first three hold it; "deep;leaf" holds no caller of mid. */
	assert_true(chains_missing(ci, w, "mid") == 3);
	/* leaf: "mid;other" holds mid, a caller of leaf: leaf cannot be above
	 * its cut; "deep;leaf" holds leaf itself. */
	assert_true(chains_missing(ci, w, "leaf") == 0);
	/* A function no stack names: nothing known, nothing claimed. */
	assert_true(chains_missing(ci, w, "absent") == 0);
	free(w);
	chains_free(ci);
	result_release(&r);
}

/* A deep stack (the unwinder followed 80000 frames, or a result was made
 * so), and what attribution asks of it: the missing time of every function.
 * The old pairwise comparison of frames did 6e9 steps here and kept a bit
 * per pair of functions (800 MB); now the work is a few steps a frame. */
enum { DEEP = 80000 };

struct deep {
	struct result r;
	struct strbuf stack;
};

static void deep_build(struct deep *d)
{
	const char *stacks[2];
	const double t[] = { 10, 5 };

	strbuf_init(&d->stack);
	strbuf_adds(&d->stack, "stack:");
	for (int i = 0; i < DEEP; i++)
		strbuf_addf(&d->stack, "%sf%d", i ? ";" : "", i);
	stacks[0] = d->stack.buf;
	stacks[1] = "stack:x;f100";	/* cut; holds f100, a caller of f101.. */
	build(&d->r, stacks, t, 2);
}

static int deep_all_missing(void *arg)
{
	struct deep *d = arg;
	struct chain_info *ci = chains_build(&d->r);
	size_t run = 0;
	double *w = chains_weights(ci, &d->r, &run, 1), sum = 0;
	char key[32];

	for (int i = 0; i < DEEP; i++) {
		snprintf(key, sizeof(key), "f%d", i);
		sum += chains_missing(ci, w, key);
	}
	free(w);
	chains_free(ci);
	return sum == 100 * 5 ? 0 : 1;	/* f0..f99 are above f100 */
}

static void test_deep_stack_linear(void **state)
{
	struct deep d;
	struct chain_info *ci;
	size_t run = 0;
	double *w;

	(void)state;
	deep_build(&d);
	/* Resource bound (cpubound.h): this takes well under 0.4 s of CPU,
	 * the quadratic builder took 45 s. */
	assert_true(within_cpu_seconds(deep_all_missing, &d, 4));
	ci = chains_build(&d.r);
	assert_non_null(ci);
	assert_true(chains_work(ci) <= 8 * (size_t)DEEP);
	w = chains_weights(ci, &d.r, &run, 1);
	/* f0..f99: above f100, only the deep chain vouches for them. */
	assert_true(chains_missing(ci, w, "f50") == 5);
	assert_true(chains_missing(ci, w, "f100") == 0);
	assert_true(chains_missing(ci, w, "f79999") == 0);
	/* x: nothing the deep chain holds was ever seen above it. */
	assert_true(chains_missing(ci, w, "x") == 10);
	free(w);
	chains_free(ci);
	result_release(&d.r);
	strbuf_release(&d.stack);
}

/* The definition, pair by pair, on random stacks: chain c could miss f when
 * it is cut and holds neither f nor any function seen above f anywhere. */
static double brute_missing(char names[][8], int nfn, const int chains[][9], const int *len,
			    const double *t, int nchains, int f)
{
	double sum = 0;

	for (int c = 0; c < nchains; c++) {
		int covered = !strcmp(names[chains[c][0]], "_start");

		for (int k = 0; k < len[c] && !covered; k++) {
			int a = chains[c][k];

			covered = a == f;
			for (int d = 0; d < nchains && !covered; d++)
				for (int j = 0; j < len[d] && !covered; j++)
					for (int i = j + 1; i < len[d] && !covered; i++)
						covered = chains[d][j] == a && chains[d][i] == f && a != f;
		}
		if (!covered)
			sum += t[c];
	}
	(void)nfn;
	return sum;
}

static void test_random_against_definition(void **state)
{
	char names[8][8] = { "_start", "a", "b", "c", "d", "e", "f", "g" };
	int chains[24][9], len[24];
	double t[24];
	unsigned seed = 12345;

	(void)state;
	for (int round = 0; round < 200; round++) {
		struct strbuf sb[24];
		const char *stacks[24];
		struct result r;
		struct chain_info *ci;
		size_t run = 0;
		double *w;
		int n = 1 + (int)((seed = seed * 1103515245 + 12345) >> 16) % 24;

		for (int c = 0; c < n; c++) {
			strbuf_init(&sb[c]);
			strbuf_adds(&sb[c], "stack:");
			len[c] = 1 + (int)((seed = seed * 1103515245 + 12345) >> 16) % 9;
			for (int k = 0; k < len[c]; k++) {
				chains[c][k] = (int)((seed = seed * 1103515245 + 12345) >> 16) % 8;
				strbuf_addf(&sb[c], "%s%s", k ? ";" : "", names[chains[c][k]]);
			}
			t[c] = 1 + (seed >> 20) % 100;
			stacks[c] = sb[c].buf;
		}
		build(&r, stacks, t, (size_t)n);
		ci = chains_build(&r);
		w = chains_weights(ci, &r, &run, 1);
		for (int f = 1; f < 8; f++) {
			int seen = 0;

			for (int c = 0; c < n; c++)
				for (int k = 0; k < len[c]; k++)
					seen |= chains[c][k] == f;
			if (seen)
				assert_true(chains_missing(ci, w, names[f]) ==
					    brute_missing(names, 8, chains, len, t, n, f));
		}
		free(w);
		chains_free(ci);
		result_release(&r);
		for (int c = 0; c < n; c++)
			strbuf_release(&sb[c]);
	}
}

static void test_roots(void **state)
{
	(void)state;
	assert_true(profile_is_root("_start"));
	assert_true(profile_is_root("start_thread"));
	assert_false(profile_is_root("main"));
}

static void test_no_stacks(void **state)
{
	const char *const stacks[] = { "self:leaf" };
	const double t[] = { 5 };
	struct result r;

	(void)state;
	build(&r, stacks, t, 1);
	assert_null(chains_build(&r));
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_deep_stack_linear),
		cmocka_unit_test(test_random_against_definition),
		cmocka_unit_test(test_roots),
		cmocka_unit_test(test_no_stacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
