/*
 * Hostile catalogue files, loaded through PMUSTAT_DATA_DIR as a user trying
 * an edit would: every field of the wrong type, every unknown key, every
 * missing name or formula, a derived metric that uses itself, a preset or
 * an event that names nothing, and a FIFO where a file belongs, is refused
 * at load with the file, the entry and the field named — never a crash in
 * resolution later (aliases: [1] and a formula-less step once reached
 * strcmp(NULL) and formula_names(NULL)). Each case is one edit of a good
 * pair of files: the embedded generic.json and a small uarch "t".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "catalog/catalog.h"
#include "core/embed.h"
#include "core/strbuf.h"

static const char small_uarch[] =
	"{ \"schema\": \"pmustat.uarch/1\", \"uarch\": \"t\", \"description\": \"test\","
	"  \"libpfm\": null,"
	"  \"pmus\": [ { \"name\": \"core\", \"sysfs\": [\"cpu\"], \"type\": 4,"
	"      \"scope\": \"process\", \"format\": { \"event\": \"config:0-7\","
	"      \"umask\": \"config:8-15\" }, \"counters\": { \"gp\": 6, \"watchdog\": \"gp\" } } ],"
	"  \"events\": [ { \"name\": \"cyc\", \"pmu\": \"core\", \"event\": \"0x76\","
	"      \"counters\": \"0-3\" },"
	"    { \"name\": \"ins\", \"pmu\": \"core\", \"event\": 192, \"umask\": \"0\" } ],"
	"  \"metrics\": { \"cycles\": [ { \"formula\": \"cyc\", \"anchor\": true } ],"
	"    \"instructions\": [ { \"formula\": \"ins\" },"
	"      { \"unavailable\": \"not here\", \"hint\": \"none\" } ] } }";

struct files {
	char dir[64];
	json_t *generic, *uarch;
};

static void spit(const char *dir, const char *name, json_t *doc)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/uarch/%s", dir, name);
	assert_int_equal(json_dump_file(doc, path.buf, JSON_ENCODE_ANY), 0);
	strbuf_release(&path);
}

static int setup(void **state)
{
	struct files *f = calloc(1, sizeof(*f));
	struct strbuf sb = STRBUF_INIT;
	const char *generic = embed_find("data/uarch/generic.json", NULL);

	snprintf(f->dir, sizeof(f->dir), "/tmp/pmustat-catfiles.XXXXXX");
	if (!generic || !mkdtemp(f->dir))
		return -1;
	strbuf_addf(&sb, "%s/uarch", f->dir);
	mkdir(sb.buf, 0700);
	strbuf_release(&sb);
	f->generic = json_loads(generic, 0, NULL);
	f->uarch = json_loads(small_uarch, 0, NULL);
	if (!f->generic || !f->uarch)
		return -1;
	setenv("PMUSTAT_DATA_DIR", f->dir, 1);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct files *f = *state;
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(&cmd, "rm -rf '%s'", f->dir);
	if (system(cmd.buf)) {
		/* a scratch directory left behind */
	}
	strbuf_release(&cmd);
	json_decref(f->generic);
	json_decref(f->uarch);
	unsetenv("PMUSTAT_DATA_DIR");
	free(f);
	return 0;
}

/* The good pair with one member of one file replaced (value NULL: removed),
 * at a path of object keys and array indexes ("events", "0", "umask"). */
static void write_edited(struct files *f, int in_generic, const char *const *path, json_t *value)
{
	json_t *doc = json_deep_copy(in_generic ? f->generic : f->uarch), *at = doc;
	size_t n = 0;

	while (path[n + 1])
		n++;
	for (size_t i = 0; i < n; i++)
		at = json_is_array(at) ? json_array_get(at, (size_t)atoi(path[i]))
				       : json_object_get(at, path[i]);
	assert_non_null(at);
	if (json_is_array(at) && !value)
		json_array_remove(at, (size_t)atoi(path[n]));
	else if (json_is_array(at))
		json_array_set_new(at, (size_t)atoi(path[n]), value);
	else if (!value)
		json_object_del(at, path[n]);
	else
		json_object_set_new(at, path[n], value);
	spit(f->dir, "generic.json", in_generic ? doc : f->generic);
	spit(f->dir, "t.json", in_generic ? f->uarch : doc);
	json_decref(doc);
}

/* Loading must fail, naming file (generic.json or t.json) and saying want. */
static void expect_refused(struct files *f, const char *file, const char *want)
{
	struct strbuf named = STRBUF_INIT;
	struct catalog cat;
	struct error err;

	error_clear(&err);
	if (catalog_load(&cat, "t", &err) == 0) {
		catalog_release(&cat);
		fail_msg("accepted a file that should fail with '%s'", want);
	}
	strbuf_addf(&named, "catalogue '%s/uarch/%s'", f->dir, file);
	if (!strstr(err.msg, named.buf) || !strstr(err.msg, want))
		fail_msg("'%s' does not name '%s' and say '%s'", err.msg, named.buf, want);
	assert_int_equal(err.kind, ERR_RUNTIME);
	assert_true(err.hint[0] != '\0');
	strbuf_release(&named);
}

#define PATH(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The index of generic.json's definition of name, as a path element. */
static const char *def_at(const struct files *f, const char *name, char buf[16])
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(f->generic, "definitions"), i, v)
		if (!strcmp(json_string_value(json_object_get(v, "name")), name)) {
			snprintf(buf, 16, "%zu", i);
			return buf;
		}
	fail_msg("generic.json defines no '%s'", name);
	return NULL;
}

static void refused_uarch(struct files *f, const char *const *path, json_t *value,
			  const char *want)
{
	write_edited(f, 0, path, value);
	expect_refused(f, "t.json", want);
}

static void refused_generic(struct files *f, const char *const *path, json_t *value,
			    const char *want)
{
	write_edited(f, 1, path, value);
	expect_refused(f, "generic.json", want);
}

/* The good pair loads and resolves: the cases below are single edits. */
static void test_good_pair(void **state)
{
	struct files *f = *state;
	struct catalog cat;
	struct resolution r;
	struct error err;

	error_clear(&err);
	write_edited(f, 0, PATH("vendor"), json_string("test"));
	if (catalog_load(&cat, "t", &err))
		fail_msg("%s", err.msg);
	assert_int_equal(catalog_resolve(&cat, "all", NULL, &r, &err), 0);
	resolution_release(&r);
	catalog_release(&cat);
}

static void test_wrong_types(void **state)
{
	struct files *f = *state;
	char at[16], want[128];

	snprintf(want, sizeof(want), "definitions[%s] 'llc-misses': 'aliases' is [1], not an "
		 "array of strings", def_at(f, "llc-misses", at));
	refused_generic(f, PATH("definitions", at, "aliases"), json_pack("[i]", 1), want);
	refused_uarch(f, PATH("pmus", "0", "format", "event"), json_integer(7),
		      "pmus[0] 'core'.format: 'event' is 7, not a string");
	refused_uarch(f, PATH("metrics", "cycles", "0", "formula"), json_null(),
		      "metrics.cycles[0]: 'formula' is null, not a string");
	refused_uarch(f, PATH("events", "1", "umask"), json_real(1.5),
		      "events[1] 'ins': 'umask' is 1.5, not a number");
	refused_uarch(f, PATH("events", "1", "umask"), json_string("-1"),
		      "'umask' is \"-1\", not a number");
	refused_uarch(f, PATH("events", "1", "event"), json_string(""), "'event' is \"\"");
	refused_uarch(f, PATH("events", "0"), json_string("cyc"),
		      "events[0] is \"cyc\", not an object");
	refused_uarch(f, PATH("pmus", "0", "type"), json_integer(-4),
		      "'type' is -4, not an integer from 0 to 4294967295");
	refused_uarch(f, PATH("pmus", "0", "counters", "gp"), json_string("6"),
		      "pmus[0] 'core'.counters: 'gp' is \"6\"");
	refused_uarch(f, PATH("pmus", "0", "scope"), json_string("galaxy"),
		      "'scope' is \"galaxy\", not one of 'process', 'system'");
	refused_uarch(f, PATH("pmus", "0", "counters", "watchdog"), json_true(),
		      "'watchdog' is true");
	refused_uarch(f, PATH("metrics", "cycles"), json_string("cyc"),
		      "metrics: 'cycles' is \"cyc\", not an array of objects");
	refused_uarch(f, PATH("metrics", "cycles", "0", "caveats"), json_pack("[s,n]", "a"),
		      "'caveats' is [\"a\",null], not an array of strings");
	refused_uarch(f, PATH("description"), json_integer(1), "'description' is 1");
	refused_generic(f, PATH("presets", "cache"), json_pack("[s]", "cycles"),
			"presets: 'cache' is [\"cycles\"], not a string");
}

static void test_missing_and_unknown(void **state)
{
	struct files *f = *state;

	refused_uarch(f, PATH("events", "1", "name"), NULL, "events[1]: 'name' is missing");
	refused_uarch(f, PATH("events", "1", "pmu"), NULL, "events[1] 'ins': 'pmu' is missing");
	refused_uarch(f, PATH("description"), NULL, "'description' is missing");
	refused_generic(f, PATH("definitions", "0", "name"), NULL,
			"definitions[0]: 'name' is missing");
	refused_uarch(f, PATH("events", "1", "formual"), json_string("x"),
		      "events[1] 'ins': unknown key 'formual'");
}

static void test_meaning(void **state)
{
	struct files *f = *state;
	char ipc[16], ins[16];

	def_at(f, "ipc", ipc);
	def_at(f, "instructions", ins);
	/* A step that counts nothing and says nothing. */
	refused_uarch(f, PATH("metrics", "cycles", "0", "formula"), NULL,
		      "metrics.cycles[0] has neither 'formula' nor 'unavailable'");
	refused_uarch(f, PATH("metrics", "cycles"), json_array(), "metric 'cycles' has an empty chain");
	refused_uarch(f, PATH("events", "0", "name"), json_string("c y c"),
		      "event 'c y c' has a name a formula cannot use");
	refused_uarch(f, PATH("events", "1", "name"), json_string("cyc"),
		      "event 'cyc' is defined twice");
	refused_uarch(f, PATH("events", "0", "counters"), json_string("0-99"),
		      "event 'cyc': 'counters' is '0-99', not counter numbers");
	refused_uarch(f, PATH("events", "0", "perf"), json_string("cycles"),
		      "event 'cyc' has both 'perf' and encoding fields");
	refused_uarch(f, PATH("events", "0", "cmask"), json_string("1"),
		      "event 'cyc' sets 'cmask', which its PMU has no format for");
	refused_uarch(f, PATH("pmus", "0", "format", "umask"), json_string("config:15-8"),
		      "PMU 'core', format 'umask': malformed format 'config:15-8'");
	refused_uarch(f, PATH("metrics", "cycles", "0", "formula"), json_string("cyc + nope"),
		      "metric 'cycles' uses unknown event 'nope'");
	refused_generic(f, PATH("definitions", ipc, "formula"), json_string("ipc / cycles"),
			"derived metric 'ipc' uses itself");
	refused_generic(f, PATH("definitions", ipc, "kind"), json_string("process"),
			"metric 'ipc' is of kind 'process' and has a formula");
	refused_generic(f, PATH("definitions", ins, "aliases"), json_pack("[s]", "cycles"),
			"metric 'instructions': alias 'cycles' is not a name of its own");
	refused_generic(f, PATH("presets", "cache"), json_string("cycles,nosuch"),
			"preset 'cache' lists unknown metric 'nosuch'");
	refused_uarch(f, PATH("presets"), json_pack("{s:s}", "mine", "cycles"),
		      "'presets' belong in generic.json, which every uarch shares");
}

/* A chain of derived metrics 9 deep: one more than a file may nest. */
static void test_too_deep(void **state)
{
	struct files *f = *state;
	json_t *defs = json_object_get(f->generic, "definitions");
	size_t base = json_array_size(defs);

	for (int i = 0; i < 9; i++) {
		char name[16], formula[32];

		snprintf(name, sizeof(name), "deep-%d", i);
		snprintf(formula, sizeof(formula), i ? "deep-%d * 2" : "cycles * 2", i - 1);
		json_array_append_new(defs, json_pack("{s:s, s:s}", "name", name, "formula",
						      formula));
	}
	write_edited(f, 1, PATH("vendor"), json_string("any"));
	expect_refused(f, "generic.json", "derived metric 'deep-8' uses itself, or nests "
		       "derived metrics more than 8 deep");
	while (json_array_size(defs) > base)
		json_array_remove(defs, base);
}

static void test_not_a_file(void **state)
{
	struct files *f = *state;
	struct strbuf path = STRBUF_INIT;
	json_t *array;

	write_edited(f, 0, PATH("vendor"), json_string("test"));
	strbuf_addf(&path, "%s/uarch/t.json", f->dir);
	unlink(path.buf);
	assert_int_equal(mkfifo(path.buf, 0600), 0);
	expect_refused(f, "t.json", "not a regular file");
	unlink(path.buf);
	assert_int_equal(symlink("/dev/zero", path.buf), 0);
	expect_refused(f, "t.json", "not a regular file");
	unlink(path.buf);
	array = json_pack("[i]", 1);
	spit(f->dir, "t.json", array);
	json_decref(array);
	expect_refused(f, "t.json", "the file is [1], not an object");
	strbuf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_pair),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_missing_and_unknown),
		cmocka_unit_test(test_meaning),
		cmocka_unit_test(test_too_deep),
		cmocka_unit_test(test_not_a_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
