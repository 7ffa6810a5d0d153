/*
 * Running out of memory while analysing a comparison is said, never a
 * silently different answer (#38: `report` under ulimit -v gave wall
 * time's p 0.038 as "—" and no note). Fault injection in the style of
 * SQLite's malloc tests: the allocators are wrapped by the linker
 * (-Wl,--wrap, tests/unit/build.mk), and for every k the k-th allocation
 * of analysed_build() fails, once, in a child process of its own (so each
 * gets a fresh xalloc reserve, which a failed x*alloc spends). Each
 * comparison must then be bit for bit what it is with memory to spare,
 * or say what it left out: in its JSON, in a warning of kind "memory",
 * and in the table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "analysis/analysed.h"
#include "analysis/comparison.h"
#include "report/compare_table.h"
#include "result/result.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static long calls;	/* allocations since arming; counted only when armed */
static long fail_at;	/* the one to fail (1-based); 0: none */
static int armed;

static int fails_now(void)
{
	return armed && ++calls == fail_at;
}

void *__wrap_malloc(size_t n)
{
	return fails_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fails_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fails_now() ? NULL : __real_realloc(p, n);
}

#define NB 60

/* wall-time and task-clock pair up (signed-rank, Hodges-Lehmann); page
 * faults of 0 in some of A's runs go the unpaired way (Mann-Whitney). */
static void build(struct result *r)
{
	static const char *const names[] = { "wall-time", "task-clock", "page-faults" };
	static const char *const units[] = { "ns", "ns", "" };
	static const enum metric_source src[] = { MSRC_CLOCK, MSRC_PERF, MSRC_RUSAGE };
	char *argv[] = { NULL };

	result_init(r, "compare");
	result_add_variant(r, "A", argv);
	result_add_variant(r, "B", argv);
	for (size_t m = 0; m < 3; m++)
		result_add_metric(r, names[m], units[m], src[m]);
	r->primary = xstrdup("wall-time");
	r->repeat = NB;
	for (int b = 0; b < NB; b++)
		for (int v = 0; v < 2; v++) {
			struct result_run *run = result_add_run(r);
			double wobble = (double)((b * 37 + v * 11) % 17) / 100.0;

			run->variant = run->position = v;
			run->block = b;
			run->status = RUN_OK;
			for (size_t m = 0; m < 3; m++) {
				run->values[m].valid = 1;
				run->values[m].value = 1e6 * (1.0 + wobble + 0.02 * v) * (double)(m + 1);
			}
			if (v == 0 && b % 3 == 0)
				run->values[2].value = 0;
		}
}

static int same(double x, double y)
{
	return !memcmp(&x, &y, sizeof(x));
}

/* Has a comparison of variant v lost its p (to Holm, a p of 1)? */
static int p_lost(const struct comparison_set *s, size_t v)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->c[i].variant == v && s->c[i].lost && isnan(s->c[i].p))
			return 1;
	return 0;
}

/* The same answer; with a p of the family lost, a Holm-adjusted p may only
 * be larger (so a verdict only withheld), never smaller. */
static int same_comparison(const struct comparison *c, const struct comparison *ref,
			   int holm_may_rise)
{
	int holm = same(c->p_holm, ref->p_holm) || (holm_may_rise && c->p_holm > ref->p_holm);
	int verdict = c->verdict == ref->verdict ||
		      (holm_may_rise && c->held_by_holm && c->verdict == STATS_INCONCLUSIVE);

	return c->method == ref->method && verdict && c->n == ref->n &&
	       same(c->ratio, ref->ratio) && same(c->ci_lo, ref->ci_lo) &&
	       same(c->ci_hi, ref->ci_hi) && same(c->p, ref->p) && holm &&
	       same(c->hl_ratio, ref->hl_ratio);
}

/* Every comparison that lost something says so in the table and the JSON. */
static int loss_is_said(const struct analysed *an, const struct comparison *c)
{
	struct table_opts o = { 0 };
	struct strbuf out = STRBUF_INIT;
	json_t *doc = analysed_json(an);
	char *text = json_dumps(doc, JSON_COMPACT);
	int ok;

	report_compare_table(an, &o, &out);
	ok = strstr(out.buf, "left out: out of memory computing it") && strstr(out.buf, c->lost) &&
	     strstr(text, "\"kind\":\"memory\"") && strstr(text, "\"lost_to_memory\":") &&
	     strstr(text, c->lost);
	free(text);
	json_decref(doc);
	strbuf_release(&out);
	return ok;
}

enum outcome { SAME = 0, SILENT = 1, SAID = 2, UNSAID = 3 };

/* In a child: fail allocation k of analysed_build; how did it come out? */
static enum outcome run_failing(const struct result *r, const struct comparison_set *ref, long k)
{
	struct analysed an;
	enum outcome out = SAME;

	xalloc_reserve(1 << 20);
	calls = 0;
	fail_at = k;
	armed = 1;
	analysed_build(r, &an);
	armed = 0;
	for (size_t i = 0; i < an.cmp.n; i++) {
		const struct comparison *c = &an.cmp.c[i], *want = &ref->c[i];

		if (c->lost)
			out = loss_is_said(&an, c) ? (out == SAME ? SAID : out) : UNSAID;
		else if (!same_comparison(c, want, p_lost(&an.cmp, c->variant)))
			return SILENT;
	}
	return out;
}

static void test_every_allocation_failing(void **state)
{
	struct result r;
	struct comparison_set ref;
	struct analysed an;
	long total, said = 0;

	(void)state;
	build(&r);
	comparisons_compute(&r, &ref);
	calls = fail_at = 0;
	armed = 1;
	analysed_build(&r, &an);
	armed = 0;
	total = calls;
	analysed_release(&an);
	assert_true(total > 10);
	for (long k = 1; k <= total; k++) {
		pid_t pid = fork();
		int st;

		assert_true(pid >= 0);
		if (pid == 0)
			_exit((int)run_failing(&r, &ref, k));
		assert_int_equal(waitpid(pid, &st, 0), pid);
		if (!WIFEXITED(st) || WEXITSTATUS(st) == SILENT || WEXITSTATUS(st) == UNSAID)
			fail_msg("allocation %ld of %ld failing: %s", k, total,
				 !WIFEXITED(st) ? "the child died"
				 : WEXITSTATUS(st) == SILENT ? "a different answer, not said"
							      : "a loss not said in the outputs");
		said += WEXITSTATUS(st) == SAID;
	}
	/* each of the three rank statistics' buffers, at least */
	assert_true(said >= 3);
	fprintf(stderr, "%ld allocations failed one at a time, %ld losses said\n", total, said);
	comparisons_release(&ref);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_allocation_failing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
