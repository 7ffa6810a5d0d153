/*
 * The cross-machine merge (analysis/fleet.h) on results the test builds value
 * by value: hosts of one uarch pooled with the host as a blocking factor
 * (two hosts three times apart in speed, one ratio: the pooled ratio is the
 * mean log ratio of all their blocks, which pairing across hosts would
 * ruin), each host's own ratio as the spread, one verdict per uarch, the
 * line where uarchs disagree, the labels of several tasks on one node, and
 * the merges refused (pmustat version, command line, seed) with reasons.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "analysis/fleet.h"
#include "report/fleet_render.h"
#include "result/result.h"

#define NB 12

/* ln(B / A) per block: about +10% and about -10%, with some noise. */
static const double d_up[NB] = { 0.10, 0.08, 0.12, 0.09, 0.11, 0.10,
				 0.07, 0.13, 0.10, 0.09, 0.11, 0.10 };
static const double d_up2[NB] = { 0.09, 0.11, 0.10, 0.12, 0.08, 0.10,
				  0.11, 0.09, 0.10, 0.12, 0.08, 0.10 };
static const double d_down[NB] = { -0.10, -0.12, -0.08, -0.11, -0.09, -0.10,
				   -0.13, -0.07, -0.10, -0.11, -0.09, -0.10 };

struct hspec {
	const char *hostname, *uarch;
	int task;		/* Slurm task, -1: none */
	const double *d;
	double base;		/* A's wall time on this host */
};

static void build(struct result *r, const struct hspec *h)
{
	char *a[] = { "./a", NULL }, *b[] = { "./b", NULL };

	result_init(r, "compare");
	result_add_variant(r, "A", a);
	result_add_variant(r, "sv2", b);
	result_add_metric(r, "wall-time", "ns", MSRC_CLOCK);
	r->primary = xstrdup("wall-time");
	r->seed = 7;
	r->repeat = NB;
	snprintf(r->host.hostname, sizeof(r->host.hostname), "%s", h->hostname);
	snprintf(r->host.uarch, sizeof(r->host.uarch), "%s", h->uarch);
	r->host.slurm_task = h->task;
	if (h->task >= 0)
		snprintf(r->host.slurm_job, sizeof(r->host.slurm_job), "42");
	for (int blk = 0; blk < NB; blk++)
		for (int v = 0; v < 2; v++) {
			struct result_run *run = result_add_run(r);

			run->variant = run->position = v;
			run->block = blk;
			run->status = RUN_OK;
			run->values[0].valid = 1;
			run->values[0].value = h->base * (v ? exp(h->d[blk]) : 1.0);
		}
}

static double mean_exp(const double *x, const double *y)
{
	double s = 0;

	for (int i = 0; i < NB; i++)
		s += x[i] + (y ? y[i] : 0);
	return exp(s / (y ? 2 * NB : NB));
}

static int build_fleet(struct fleet *f, const struct hspec *hs, size_t n, enum fleet_by by,
		       struct error *err)
{
	struct result rs[8];
	const char *files[8] = { "h0.json", "h1.json", "h2.json", "h3.json" };

	for (size_t i = 0; i < n; i++)
		build(&rs[i], &hs[i]);
	return fleet_build(f, rs, files, n, by, err);
}

static void test_pooled_by_host_blocks(void **state)
{
	const struct hspec hs[] = {
		{ "zen-a", "zen4", -1, d_up, 1e8 },
		{ "spr-a", "sapphirerapids", -1, d_down, 2e8 },
		{ "zen-b", "zen4", -1, d_up2, 3e8 },
	};
	struct fleet f;
	struct error err;
	const struct comparison *c;
	double lo, hi;

	(void)state;
	error_clear(&err);
	assert_int_equal(build_fleet(&f, hs, 3, FLEET_BY_UARCH, &err), 0);
	assert_int_equal(f.ngroups, 2);
	assert_string_equal(f.groups[0].name, "zen4");
	assert_int_equal(f.groups[0].nhosts, 2);
	assert_int_equal(f.groups[0].hosts[1], 2);
	c = comparisons_find(&f.groups[0].cs, 0, 1);
	assert_non_null(c);
	/* both hosts' blocks, each paired within its host */
	assert_int_equal(c->n, 2 * NB);
	assert_true(fabs(c->ratio - mean_exp(d_up, d_up2)) < 1e-9);
	assert_int_equal(c->verdict, STATS_SLOWER);
	/* each host's own ratio kept for the spread */
	lo = fmin(f.hosts[0].value[1], f.hosts[2].value[1]);
	hi = fmax(f.hosts[0].value[1], f.hosts[2].value[1]);
	assert_true(fabs(lo - fmin(mean_exp(d_up, NULL), mean_exp(d_up2, NULL))) < 1e-9);
	assert_true(fabs(hi - fmax(mean_exp(d_up, NULL), mean_exp(d_up2, NULL))) < 1e-9);
	c = comparisons_find(&f.groups[1].cs, 0, 1);
	assert_int_equal(c->n, NB);
	assert_int_equal(c->verdict, STATS_FASTER);
	fleet_release(&f);
}

static void test_disagreement_line(void **state)
{
	const struct hspec hs[] = {
		{ "zen-a", "zen4", -1, d_up, 1e8 },
		{ "zen-b", "zen4", -1, d_up2, 3e8 },
		{ "spr-a", "sapphirerapids", -1, d_down, 2e8 },
	};
	struct fleet f;
	struct error err;
	struct strbuf sb = STRBUF_INIT;
	json_t *doc;
	char *text;

	(void)state;
	error_clear(&err);
	assert_int_equal(build_fleet(&f, hs, 3, FLEET_BY_UARCH, &err), 0);
	fleet_table(&f, &sb);
	assert_non_null(strstr(sb.buf, "verdicts differ between uarchs:\n  sv2 wall-time: SLOWER "
				       "on zen4 (2 hosts), FASTER on sapphirerapids (1 host)\n"));
	assert_non_null(strstr(sb.buf, "pmustat compare across 3 hosts, by uarch (2 uarchs), seed 7"));
	doc = fleet_json(&f);
	text = json_dumps(doc, JSON_COMPACT);
	assert_non_null(strstr(text, "\"disagreements\":[{\"metric\":\"wall-time\",\"variant\":"
				     "\"sv2\",\"verdicts\":[{\"group\":\"zen4\",\"verdict\":"
				     "\"SLOWER\",\"hosts\":2}"));
	free(text);
	json_decref(doc);
	strbuf_release(&sb);
	fleet_release(&f);
}

static void test_agreement(void **state)
{
	const struct hspec hs[] = {
		{ "zen-a", "zen4", -1, d_up, 1e8 },
		{ "spr-a", "sapphirerapids", -1, d_up2, 2e8 },
	};
	struct fleet f;
	struct error err;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	error_clear(&err);
	assert_int_equal(build_fleet(&f, hs, 2, FLEET_BY_UARCH, &err), 0);
	fleet_table(&f, &sb);
	assert_non_null(strstr(sb.buf, "verdicts agree across the 2 uarchs\n"));
	assert_null(strstr(sb.buf, "differ"));
	strbuf_release(&sb);
	fleet_release(&f);
}

/* Two Slurm tasks on one node are two hosts, told apart by their task. */
static void test_labels(void **state)
{
	const struct hspec hs[] = {
		{ "vm", "zen4", 0, d_up, 1e8 },
		{ "vm", "sapphirerapids", 1, d_down, 1e8 },
		{ "", "", -1, d_up2, 1e8 },
	};
	struct fleet f;
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(build_fleet(&f, hs, 3, FLEET_BY_HOST, &err), 0);
	assert_int_equal(f.ngroups, 3);
	assert_string_equal(f.hosts[0].label, "vm/task 0");
	assert_string_equal(f.hosts[1].label, "vm/task 1");
	assert_string_equal(f.hosts[2].label, "h2.json");
	assert_string_equal(f.hosts[2].uarch, "unknown");
	assert_string_equal(f.groups[1].name, "vm/task 1");
	fleet_release(&f);
}

static void refused(void (*change)(struct result *), const char *msg)
{
	const struct hspec h = { "a", "zen4", -1, d_up, 1e8 };
	struct result a, b;
	struct error err;

	build(&a, &h);
	build(&b, &h);
	change(&b);
	error_clear(&err);
	assert_int_equal(fleet_check(&a, "a.json", &b, "b.json", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	if (!strstr(err.msg, msg))
		fail_msg("'%s' not in '%s'", msg, err.msg);
	assert_true(err.hint[0] != '\0');
	result_release(&a);
	result_release(&b);
}

static void other_version(struct result *r)
{
	snprintf(r->tool_version, sizeof(r->tool_version), "0.0.9");
}

static void other_seed(struct result *r)
{
	r->seed = 8;
}

static void other_argv(struct result *r)
{
	free(r->variants[1].argv[0]);
	r->variants[1].argv[0] = xstrdup("./c");
}

static void other_metric(struct result *r)
{
	free(r->metrics[0].name);
	r->metrics[0].name = xstrdup("task-clock");
}

static void other_command(struct result *r)
{
	free(r->command);
	r->command = xstrdup("stat");
}

static void other_blocks(struct result *r)
{
	r->repeat = 30;
}

static void test_refused(void **state)
{
	char msg[128];

	(void)state;
	snprintf(msg, sizeof(msg), "cannot merge 'b.json': it was written by pmustat 0.0.9, the "
		 "others by pmustat %s", PMUSTAT_VERSION);
	refused(other_version, msg);
	refused(other_seed, "cannot merge 'b.json': its seed is 8, the others' 7");
	refused(other_argv, "variant 2 ('sv2') ran another command line");
	refused(other_metric, "metric 1 is 'task-clock', not 'wall-time'");
	refused(other_command, "it ran 'stat', not 'compare'");
	refused(other_blocks, "other block limits (-r 30");
}

/* fleet_build refuses as fleet_check does, and takes the results over. */
static void test_build_refuses(void **state)
{
	const struct hspec hs[] = {
		{ "zen-a", "zen4", -1, d_up, 1e8 },
		{ "zen-b", "zen4", -1, d_up2, 1e8 },
	};
	struct result rs[2];
	const char *files[] = { "a.json", "b.json" };
	struct fleet f;
	struct error err;

	(void)state;
	build(&rs[0], &hs[0]);
	build(&rs[1], &hs[1]);
	rs[1].seed = 9;
	error_clear(&err);
	assert_int_equal(fleet_build(&f, rs, files, 2, FLEET_BY_UARCH, &err), -1);
	assert_non_null(strstr(err.msg, "its seed is 9"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pooled_by_host_blocks),
		cmocka_unit_test(test_disagreement_line),
		cmocka_unit_test(test_agreement),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_build_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
