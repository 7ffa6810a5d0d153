/*
 * The run journal, written and read back: runs, their values (doubles bit
 * for bit), a metric added after runs (a new region) and a note added
 * between runs come back as they went in. A journal cut inside its last
 * line loses only that line; a bad line before the last, or a line with a
 * hostile value (an index out of range, 1e300 for an int, a string for a
 * number), is an error naming the line and the field, never a crash. The
 * skeleton document a running campaign leaves is read through its journal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "cpubound.h"
#include "result/journal.h"
#include "result/json.h"

struct fixture {
	char dir[64];
	char journal[96];
	char json[96];
	char other[96];
	struct result r;
};

static double value_of(int i, int m)
{
	return m ? 1000.0 + i : 0.1 * i + 1.0 / 3.0;	/* one not an integer */
}

static void add_run(struct result *r, int i)
{
	struct result_run *run = result_add_run(r);

	run->variant = i % 2;
	run->block = i / 2;
	run->position = i % 2;
	run->start_time = 1700000000.25 + i;
	for (size_t m = 0; m < r->nmetrics; m++) {
		run->values[m].valid = 1;
		run->values[m].value = value_of(i, (int)m);
		run->values[m].enabled = 100;
		run->values[m].running = 100;
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *a[] = { "true", NULL }, *b[] = { "sh", "-c", "true", NULL };
	struct result_metric *m;

	strcpy(f->dir, "/tmp/test_journal.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->journal, sizeof(f->journal), "%s/r.journal", f->dir);
	snprintf(f->json, sizeof(f->json), "%s/r.json", f->dir);
	snprintf(f->other, sizeof(f->other), "%s/other", f->dir);
	result_init(&f->r, "compare");
	snprintf(f->r.host.kernel, sizeof(f->r.host.kernel), "6.1.0-test");
	f->r.host.family = 25;
	f->r.repeat = 3;
	result_add_variant(&f->r, "A", a);
	result_add_variant(&f->r, "B", b);
	result_add_metric(&f->r, "wall-time", "ns", MSRC_CLOCK);
	m = result_add_metric(&f->r, "task-clock", "ns", MSRC_PERF);
	m->pmu = strdup("software");
	m->type = 1;
	m->config = 1;
	m->group = 0;
	result_add_note(&f->r, NOTE_NOTE, NULL, NULL, "a note from planning");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->journal);
	unlink(f->json);
	unlink(f->other);
	rmdir(f->dir);
	result_release(&f->r);
	free(f);
	return 0;
}

/* Journal 4 runs, a late metric with a note, then 2 more runs. */
static void write_journal(struct fixture *f)
{
	struct journal j;
	struct error err;
	struct result_metric *m;

	error_clear(&err);
	assert_int_equal(journal_open(&j, f->journal, &f->r, &err), 0);
	for (int i = 0; i < 4; i++) {
		add_run(&f->r, i);
		assert_int_equal(journal_add_run(&j, &f->r, &f->r.runs[i], &err), 0);
	}
	m = result_add_metric_late(&f->r, "region:parse", "", MSRC_REGION);
	m->hidden = 0;
	result_add_note(&f->r, NOTE_WARNING, "region:parse", "a hint", "region seen late");
	for (int i = 4; i < 6; i++) {
		add_run(&f->r, i);
		f->r.runs[i].values[2].value = 7.0 * i;
		assert_int_equal(journal_add_run(&j, &f->r, &f->r.runs[i], &err), 0);
	}
	assert_int_equal(journal_close(&j, 0, &err), 0);
}

static char *slurp(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_read_file(&sb, path), 0);
	*len = sb.len;
	return strbuf_detach(&sb);
}

static void spit(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

static int has_note(const struct result *r, const char *text)
{
	for (size_t i = 0; i < r->nnotes; i++)
		if (strstr(r->notes[i].text, text))
			return 1;
	return 0;
}

/* got holds the first nruns runs of want, value for value. */
static void assert_same_runs(const struct result *want, const struct result *got,
			     size_t nruns)
{
	assert_int_equal(got->nvariants, want->nvariants);
	assert_int_equal(got->nmetrics, want->nmetrics);
	for (size_t m = 0; m < want->nmetrics; m++)
		assert_string_equal(got->metrics[m].name, want->metrics[m].name);
	assert_int_equal(got->nruns, nruns);
	for (size_t i = 0; i < nruns; i++) {
		const struct result_run *a = &want->runs[i], *b = &got->runs[i];

		assert_int_equal(b->variant, a->variant);
		assert_int_equal(b->block, a->block);
		assert_int_equal(b->position, a->position);
		assert_true(b->start_time == a->start_time);
		for (size_t m = 0; m < want->nmetrics; m++) {
			assert_int_equal(b->values[m].valid, a->values[m].valid);
			assert_true(b->values[m].value == a->values[m].value);
		}
	}
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct result got;
	struct error err;
	size_t len;
	char *text;

	error_clear(&err);
	write_journal(f);
	text = slurp(f->journal, &len);
	/* header, 4 runs, metric, note, 2 runs */
	assert_int_equal(count_lines(text, len), 9);
	assert_true(journal_sniff(text, len));
	assert_memory_equal(text, "{\"journal\":\"pmustat.journal/1\",\"result\":{", 41);
	free(text);
	assert_int_equal(journal_read(&got, f->journal, &err), 0);
	assert_same_runs(&f->r, &got, 6);
	assert_false(got.runs[3].values[2].valid);
	assert_true(got.runs[5].values[2].valid);
	assert_true(got.runs[5].values[2].value == 35.0);
	assert_string_equal(got.metrics[1].pmu, "software");
	assert_int_equal(got.metrics[2].source, MSRC_REGION);
	assert_string_equal(got.host.kernel, "6.1.0-test");
	assert_int_equal(got.host.family, 25);
	assert_int_equal(got.repeat, 3);
	assert_string_equal(got.variants[1].argv[1], "-c");
	assert_true(has_note(&got, "a note from planning"));
	assert_true(has_note(&got, "region seen late"));
	assert_true(has_note(&got, "recovered from the journal"));
	assert_false(has_note(&got, "partial line"));
	assert_int_equal(got.complete, 0);
	result_release(&got);
}

static void check_torn(struct fixture *f, size_t cut, size_t runs)
{
	struct result got;
	struct error err;
	size_t len;
	char *text = slurp(f->journal, &len);
	char want[96];

	error_clear(&err);
	spit(f->other, text, len - cut);
	free(text);
	assert_int_equal(journal_read(&got, f->other, &err), 0);
	assert_same_runs(&f->r, &got, runs);
	snprintf(want, sizeof(want), "journal ends in a partial line (the campaign was killed): "
		 "%zu runs recovered", runs);
	assert_true(has_note(&got, want));
	result_release(&got);
}

static void test_torn_last_line(void **state)
{
	struct fixture *f = *state;

	write_journal(f);
	check_torn(f, 40, 5);	/* inside the last run */
	check_torn(f, 1, 5);	/* all but its newline */
}

/* A header, a good run, then `line` followed by another good run (middle)
 * or not (last): both must fail naming line 3 — but a last line that is not
 * JSON is torn, not hostile, so only the middle is tried (last_too = 0). */
static void check_line(struct fixture *f, const char *line, const char *want, int last_too)
{
	static const char run[] = "{\"run\":{\"variant\":0,\"block\":0,\"values\":{}}}\n";
	struct strbuf sb = STRBUF_INIT;
	struct journal j;
	struct result got;
	struct error err;
	size_t len;
	char *head, *nl;

	error_clear(&err);
	assert_int_equal(journal_open(&j, f->journal, &f->r, &err), 0);
	assert_int_equal(journal_close(&j, 0, &err), 0);
	head = slurp(f->journal, &len);
	nl = strchr(head, '\n');
	for (int last = 0; last < 1 + last_too; last++) {
		strbuf_reset(&sb);
		strbuf_add(&sb, head, (size_t)(nl + 1 - head));
		strbuf_adds(&sb, run);
		strbuf_addf(&sb, "%s\n", line);
		if (!last)
			strbuf_adds(&sb, run);
		spit(f->other, sb.buf, sb.len);
		error_clear(&err);
		if (journal_read(&got, f->other, &err) == 0) {
			result_release(&got);
			fail_msg("accepted %s (%s)", line, last ? "last" : "middle");
		}
		assert_non_null(strstr(err.msg, "line 3"));
		if (!strstr(err.msg, want))
			fail_msg("'%s' does not say '%s'", err.msg, want);
	}
	free(head);
	strbuf_release(&sb);
}

static void check_hostile(struct fixture *f, const char *line, const char *want)
{
	check_line(f, line, want, 1);
}

static void test_hostile_lines(void **state)
{
	struct fixture *f = *state;

	check_hostile(f, "{\"run\":{\"variant\":-1}}", "'variant' is -1, not an integer from 0 to 1");
	check_hostile(f, "{\"run\":{\"variant\":2}}", "'variant' is 2");
	check_hostile(f, "{\"run\":{\"block\":1e300}}", "'block' is 1e300, not an integer");
	check_hostile(f, "{\"run\":{\"block\":\"3\"}}", "'block' is \"3\"");
	check_hostile(f, "{\"run\":{\"values\":{\"wall-time\":{\"value\":\"abc\"}}}}",
		      "value of 'wall-time': 'value' is \"abc\", not a number");
	check_hostile(f, "{\"run\":{\"values\":{\"wall-time\":{}}}}", "'value' is missing");
	check_hostile(f, "{\"run\":{\"values\":[1]}}", "'values' is [1], not an object");
	check_hostile(f, "{\"run\":{\"status\":\"bogus\"}}", "'status' is \"bogus\"");
	check_hostile(f, "{\"run\":{\"signal\":2147483648}}", "'signal' is 2147483648");
	check_hostile(f, "{\"run\":7}", "'run' is 7, not an object");
	check_hostile(f, "{\"metric\":{\"name\":\"wall-time\",\"unit\":\"ns\"}}",
		      "metric 'wall-time' is already defined");
	check_hostile(f, "{\"metric\":{\"name\":5}}", "'name' is 5, not a string");
	check_hostile(f, "{\"metric\":[]}", "'metric' is [], not an object");
	check_hostile(f, "{\"note\":{\"level\":\"loud\",\"text\":\"x\"}}", "'level' is 'loud'");
	check_hostile(f, "{\"note\":{}}", "'text' is missing");
	check_hostile(f, "{\"runs\":{}}", "unknown entry 'runs'");
	check_hostile(f, "[1,2]", "not an object with one member");
	check_hostile(f, "{\"run\":{},\"note\":{}}", "not an object with one member");
	check_line(f, "", "not JSON", 0);
	check_line(f, "{\"run\":{", "not JSON", 0);
}

static void check_bad_file(struct fixture *f, const char *text, const char *want)
{
	struct result got;
	struct error err;

	error_clear(&err);
	spit(f->other, text, strlen(text));
	assert_int_equal(journal_read(&got, f->other, &err), -1);
	if (!strstr(err.msg, want))
		fail_msg("'%s' does not say '%s'", err.msg, want);
}

static void test_hostile_headers(void **state)
{
	struct fixture *f = *state;

	check_bad_file(f, "", "ends before its first line is complete");
	check_bad_file(f, "{\"journal\":\"pmustat.journal/1\",\"res", "ends before its first");
	check_bad_file(f, "{\"journal\":\"other/2\"}\n", "is not a pmustat journal");
	check_bad_file(f, "{\"journal\":\"pmustat.journal/1\"}\n", "no 'result' object");
	check_bad_file(f, "{\"journal\":\"pmustat.journal/1\",\"result\":{\"schema\":"
		       "\"pmustat.result/1\",\"variants\":[{\"name\":\"A\"}],\"runs\":"
		       "[{\"variant\":5}]}}\n", "run 0: 'variant' is 5");
	check_bad_file(f, "{\"journal\":\"pmustat.journal/1\",\"result\":{\"schema\":"
		       "\"pmustat.result/1\",\"variants\":[{\"name\":\"A\"}],\"host\":"
		       "{\"cpu\":{\"family\":1e300}}}}\n", "host: 'family' is 1e300");
	check_bad_file(f, "{\"journal\":\"pmustat.journal/1\",\"result\":{\"schema\":"
		       "\"pmustat.result/1\",\"variants\":[]}}\n", "has no variants");
	check_bad_file(f, "{\"journal\":\"pmustat.journal/1\",\"result\":{\"schema\":"
		       "\"pmustat.result/1\",\"variants\":[\"A\"]}}\n",
		       "variant 0: 'variant' is \"A\", not an object");
}

/* What a killed campaign leaves: the skeleton names the journal. */
static void test_skeleton_and_journal(void **state)
{
	struct fixture *f = *state;
	struct result got;
	struct error err;
	json_t *doc;

	error_clear(&err);
	write_journal(f);
	assert_int_equal(journal_write_skeleton(f->json, &f->r, f->journal, &err), 0);
	doc = json_load_file(f->json, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), RESULT_SCHEMA);
	assert_true(json_is_false(json_object_get(doc, "complete")));
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 0);
	assert_null(json_object_get(doc, "summaries"));
	assert_string_equal(json_string_value(json_object_get(doc, "journal")), "r.journal");
	json_decref(doc);
	assert_int_equal(report_json_read(&got, f->json, &err), 0);
	assert_same_runs(&f->r, &got, 6);
	assert_true(has_note(&got, "recovered from the journal"));
	result_release(&got);
	/* The journal given to report directly. */
	assert_int_equal(report_json_read(&got, f->journal, &err), 0);
	assert_same_runs(&f->r, &got, 6);
	result_release(&got);
	/* Journal gone: the skeleton, saying so. */
	assert_int_equal(unlink(f->journal), 0);
	assert_int_equal(report_json_read(&got, f->json, &err), 0);
	assert_int_equal(got.nruns, 0);
	assert_int_equal(got.nvariants, 2);
	assert_true(has_note(&got, "the journal 'r.journal' is missing: runs are absent"));
	assert_int_equal(got.complete, 0);
	result_release(&got);
}

/* The full document reads back to the same runs; complete comes back too. */
static void test_full_document_round_trip(void **state)
{
	struct fixture *f = *state;
	struct result got;
	struct error err;

	error_clear(&err);
	write_journal(f);
	f->r.complete = 1;
	assert_int_equal(report_json_write(&f->r, NULL, f->json, &err), 0);
	assert_int_equal(report_json_read(&got, f->json, &err), 0);
	assert_same_runs(&f->r, &got, 6);
	assert_int_equal(got.complete, 1);
	assert_false(has_note(&got, "recovered"));
	result_release(&got);
}

static int to_strbuf(const char *buf, size_t len, void *data)
{
	strbuf_add(data, buf, len);
	return 0;
}

/* The streamed document is, byte for byte, json_dumps of the tree built
 * with every run (the writer's old way), for no run and for six. */
static void assert_stream_is_tree(const struct result *r, const json_t *sections)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *doc = report_json(r, sections);
	char *want = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17));

	assert_int_equal(report_json_stream(r, sections, to_strbuf, &sb), 0);
	assert_non_null(want);
	assert_int_equal(sb.len, strlen(want) + 1);
	assert_memory_equal(sb.buf, want, strlen(want));
	assert_int_equal(sb.buf[sb.len - 1], '\n');
	free(want);
	json_decref(doc);
	strbuf_release(&sb);
}

static int failing_sink(const char *buf, size_t len, void *data)
{
	(void)buf;
	(void)len;
	return ++*(int *)data > 3;
}

static void test_stream_is_tree(void **state)
{
	struct fixture *f = *state;
	json_t *sections = json_pack("{s:[{s:s, s:f, s:[i, i]}], s:{s:{}, s:[]}, s:[], s:s}",
				     "summaries", "metric", "wall-time", "mean", 1.0 / 3.0, "n", 3,
				     4, "comparisons", "empty", "list", "warning_groups",
				     "text", "line one\nline two \xc3\xa9 \"quoted\"");
	int calls = 0;

	assert_stream_is_tree(&f->r, sections);		/* no run yet: "runs": [] */
	write_journal(f);
	result_add_note(&f->r, NOTE_WARNING, NULL, "a\nhint", "a note\nover two lines");
	assert_stream_is_tree(&f->r, sections);
	assert_stream_is_tree(&f->r, NULL);
	/* a sink that fails stops the stream with an error */
	assert_int_equal(report_json_stream(&f->r, sections, failing_sink, &calls), -1);
	json_decref(sections);
}

/* A run costs one line whatever came before it: the same run after one and
 * after five hundred others adds the same bytes. */
static void test_run_line_independent_of_history(void **state)
{
	struct fixture *f = *state;
	struct journal j;
	struct error err;
	size_t first = 0, later = 0, before;

	error_clear(&err);
	add_run(&f->r, 0);
	assert_int_equal(journal_open(&j, f->journal, &f->r, &err), 0);
	for (int i = 0; i < 500; i++) {
		before = j.size;
		assert_int_equal(journal_add_run(&j, &f->r, &f->r.runs[0], &err), 0);
		if (i == 0)
			first = j.size - before;
		later = j.size - before;
	}
	assert_int_equal(first, later);
	assert_int_equal(journal_close(&j, 1, &err), 0);
	assert_int_equal(access(f->journal, F_OK), -1);
}

/* A write that fails (EFBIG here, ENOSPC in life) is an error, and the
 * journal is cut back to its complete lines. */
static void test_write_failure_keeps_complete_lines(void **state)
{
	struct fixture *f = *state;
	struct journal j;
	struct error err;
	struct rlimit old, lim;
	struct result got;
	int rc = 0, i;

	error_clear(&err);
	assert_int_equal(journal_open(&j, f->journal, &f->r, &err), 0);
	add_run(&f->r, 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = j.size + 1000;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 100 && !rc; i++)
		rc = journal_add_run(&j, &f->r, &f->r.runs[0], &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, strerror(EFBIG)));
	assert_int_equal(journal_close(&j, 0, &err), 0);
	assert_int_equal(journal_read(&got, f->journal, &err), 0);
	assert_int_equal(got.nruns, (size_t)(i - 1));
	assert_false(has_note(&got, "partial line"));
	result_release(&got);
}

/* The JSON writer goes through outfile: a link at the output is refused. */
static void test_json_write_refuses_link(void **state)
{
	struct fixture *f = *state;
	struct error err;
	size_t len;
	char *text;

	error_clear(&err);
	spit(f->other, "precious", 8);
	assert_int_equal(symlink(f->other, f->json), 0);
	assert_int_equal(report_json_write(&f->r, NULL, f->json, &err), -1);
	assert_non_null(strstr(err.msg, "(a symbolic link)"));
	text = slurp(f->other, &len);
	assert_int_equal(len, 8);
	free(text);
}

/* A journal whose runs are followed by 200000 late metric lines (a campaign
 * whose profile found new functions run after run) reads in time linear in
 * its lines: the old check that a late metric is new searched every metric
 * before it (2e10 comparisons here). */
enum { LATE = 200000 };

static int read_late(void *arg)
{
	const struct strbuf *text = arg;
	struct result r;
	struct error err;
	int ok;

	if (journal_read_buffer(&r, "late.journal", text->buf, text->len, &err))
		return 1;
	ok = r.nmetrics == LATE + 1 && r.nruns == 2 && r.runs[1].values[LATE].valid &&
	     r.runs[1].values[LATE].value == 3 && !r.runs[0].values[LATE].valid;
	result_release(&r);
	return ok ? 0 : 1;
}

static void test_late_metrics_linear(void **state)
{
	struct strbuf text = STRBUF_INIT;

	(void)state;
	strbuf_adds(&text, "{\"journal\":\"pmustat.journal/1\",\"result\":{\"schema\":"
		    "\"pmustat.result/1\",\"command\":\"stat\",\"variants\":[{\"name\":\"A\","
		    "\"argv\":[\"a\"]}],\"metrics\":[{\"name\":\"wall-time\",\"unit\":\"ns\","
		    "\"backend\":\"clock\"}]}}\n"
		    "{\"run\":{\"variant\":0,\"block\":0,\"status\":\"ok\",\"values\":{}}}\n");
	for (int i = 0; i < LATE; i++)
		strbuf_addf(&text, "{\"metric\":{\"name\":\"calls:f%d\",\"unit\":\"\","
			    "\"backend\":\"calls\"}}\n", i);
	strbuf_addf(&text, "{\"run\":{\"variant\":0,\"block\":1,\"status\":\"ok\","
		    "\"values\":{\"calls:f%d\":{\"value\":3}}}}\n", LATE - 1);
	/* Resource bound (cpubound.h): about 1 s of CPU here (3 s with ASan),
	 * the quadratic search took over 250 s. */
	assert_true(within_cpu_seconds(read_late, &text, 25));
	strbuf_release(&text);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_round_trip),
		T(test_torn_last_line),
		T(test_hostile_lines),
		T(test_hostile_headers),
		T(test_skeleton_and_journal),
		T(test_full_document_round_trip),
		T(test_stream_is_tree),
		T(test_run_line_independent_of_history),
		T(test_write_failure_keeps_complete_lines),
		T(test_json_write_refuses_link),
		cmocka_unit_test(test_late_metrics_linear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
