/*
 * Unit tests for cache geometry. The catalogue: every uarch file but
 * generic describes its caches, and sanely (power-of-two lines, whole sets
 * of ways x line, L1 < L2 < L3); zen4, zen2, zen5 and graniterapids match
 * the figures their sources give (data/uarch/README.md says which are
 * assumed); the loader refuses broken "caches" objects (files read through
 * PMUSTAT_DATA_DIR). The simulator: each uarch's L1i, L1d and last level,
 * after sim_level_fit(), pass sim_level_check(), and a real cachegrind run
 * simulates exactly that geometry. The host reader (host/caches.c): the
 * constructed zen4 tree read back exactly and equal to the catalogue, the
 * recorded development VM (no cache directory at all), and odd or broken
 * trees written here. Fixtures: $PMUSTAT_TEST_FIXTURES, else tests/fixtures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/sim.h"
#include "catalog/catalog.h"
#include "core/embed.h"
#include "core/strbuf.h"
#include "host/caches.h"
#include "run/measure.h"
#include "run/sigwatch.h"
#include "run/spawn.h"
#include "catalog_check.h"

/* ---- helpers ----------------------------------------------------------- */

static const char *fixtures(void)
{
	const char *d = getenv("PMUSTAT_TEST_FIXTURES");

	return d && *d ? d : "tests/fixtures";
}

static void geometry(const struct catalog *cat, struct catalog_caches *c)
{
	struct error err;

	error_clear(&err);
	if (catalog_cache_geometry(cat, c, &err) < 0)
		fail_msg("%s: %s", cat->uarch, err.msg);
}

static void assert_contains(const char *s, const char *part)
{
	if (!s || !strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s ? s : "(null)", part);
}

/* A scratch directory, removed by rm_tree(). */
static char *scratch(void)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/pmustat-caches.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(sb.buf))
		fail_msg("mkdtemp %s failed", sb.buf);
	return strbuf_detach(&sb);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tree(char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* Write root/rel (creating its directories) with text and a newline, as
 * sysfs shows an attribute. */
static void put(const char *root, const char *rel, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&path, "%s/%s", root, rel);
	for (char *p = path.buf + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path.buf, 0755);
		*p = '/';
	}
	f = fopen(path.buf, "w");
	if (!f)
		fail_msg("cannot write %s", path.buf);
	fprintf(f, "%s\n", text);
	fclose(f);
	strbuf_release(&path);
}

/* ---- the catalogue ----------------------------------------------------- */

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void level_sane(const char *uarch, const char *which, const struct catalog_cache *c)
{
	if (!c->size || !c->assoc || !c->line)
		fail_msg("%s %s: size %llu, %u-way, %u B lines", uarch, which,
			 (unsigned long long)c->size, c->assoc, c->line);
	/* cachegrind needs lines of 16 B or more; real ones are 64 or 128. */
	if (!is_pow2(c->line) || c->line < 16 || c->line > 256)
		fail_msg("%s %s: %u B lines", uarch, which, c->line);
	if (c->size % ((uint64_t)c->assoc * c->line))
		fail_msg("%s %s: %llu B is not whole sets of %u x %u B", uarch, which,
			 (unsigned long long)c->size, c->assoc, c->line);
	if (c->assoc > c->size / c->line)
		fail_msg("%s %s: more ways than lines", uarch, which);
	if (!c->shared || !c->source || !*c->source)
		fail_msg("%s %s: no sharing scope or no source", uarch, which);
}

static void test_every_uarch_has_caches(void **state)
{
	char **names = catalog_uarch_names();
	size_t described = 0;

	(void)state;
	for (size_t i = 0; names[i]; i++) {
		struct catalog cat;
		struct catalog_caches c;
		struct error err;

		load(&cat, names[i]);
		error_clear(&err);
		if (!strcmp(cat.uarch, "generic")) {
			assert_int_equal(catalog_cache_geometry(&cat, &c, &err), -1);
			assert_string_equal(err.msg, "the catalogue of 'generic' describes no caches");
			assert_contains(err.hint, "--uarch");
			assert_int_equal(c.l1d.size, 0);
			catalog_release(&cat);
			continue;
		}
		/* Every real core's file must say what its caches are. */
		geometry(&cat, &c);
		level_sane(names[i], "l1i", &c.l1i);
		level_sane(names[i], "l1d", &c.l1d);
		level_sane(names[i], "l2", &c.l2);
		if (c.l3.size)
			level_sane(names[i], "l3", &c.l3);
		assert_string_equal(c.l1i.shared, "core");
		assert_string_equal(c.l1d.shared, "core");
		if (c.l1i.size >= c.l2.size || c.l1d.size >= c.l2.size ||
		    (c.l3.size && c.l2.size >= c.l3.size))
			fail_msg("%s: sizes do not grow L1 < L2 < L3", names[i]);
		described++;
		catalog_release(&cat);
	}
	/* zen2 zen3 zen4 zen5 skylakex icelakex sapphirerapids (+emeraldrapids)
	 * graniterapids and the four Neoverse cores. */
	assert_true(described >= 13);
	catalog_names_free(names);
}

static void test_zen4_documented(void **state)
{
	struct catalog cat;
	struct catalog_caches c;

	(void)state;
	load(&cat, "zen4");
	geometry(&cat, &c);
	/* AMD: 32 KiB 8-way L1i and L1d, 1 MiB 8-way L2 per core, 32 MiB
	 * 16-way L3 per CCX, 64 B lines throughout. */
	assert_int_equal(c.l1i.size, 32768);
	assert_int_equal(c.l1i.assoc, 8);
	assert_int_equal(c.l1d.size, 32768);
	assert_int_equal(c.l1d.assoc, 8);
	assert_int_equal(c.l2.size, 1048576);
	assert_int_equal(c.l2.assoc, 8);
	assert_int_equal(c.l3.size, 33554432);
	assert_int_equal(c.l3.assoc, 16);
	assert_int_equal(c.l1i.line, 64);
	assert_int_equal(c.l1d.line, 64);
	assert_int_equal(c.l2.line, 64);
	assert_int_equal(c.l3.line, 64);
	assert_string_equal(c.l2.shared, "core");
	assert_string_equal(c.l3.shared, "ccx");
	assert_contains(c.l3.source, "9654");
	assert_contains(c.l3.note, "Bergamo");
	assert_null(c.note);
	catalog_release(&cat);
}

/* The geometry of the files added after zen4, level by level, as their
 * sources state it (CPUID dumps where there are some; see each file). */
static const struct documented {
	const char *uarch;
	uint64_t size[4];	/* l1i l1d l2 l3 */
	unsigned ways[4];
	const char *l3_shared, *l3_source_has;
} documented[] = {
	/* Strix Point CPUID dump (L1, L2, L3 ways); 32 MB per 8-core CCD. */
	{ "zen5", { 32768, 49152, 1048576, 33554432 }, { 8, 12, 16, 16 }, "ccx", "Strix Point" },
	/* AMD 56305 (L1i); Threadripper 3970X lstopo (L1d, L2, L3). */
	{ "zen2", { 32768, 32768, 524288, 16777216 }, { 8, 8, 8, 16 }, "ccx", "3970X" },
	/* Intel: 64 KB L1I, 48 KB L1D, 2 MB L2, 504 MB L3 on a 6980P. */
	{ "graniterapids", { 65536, 49152, 2097152, 528482304 }, { 16, 12, 16, 16 }, "socket",
	  "6980P" },
	/* Intel: Lion Cove 64 KB L1I, 48 KB L0 data, 3 MB L2; 36 MB L3 on a 285K. */
	{ "arrowlake", { 65536, 49152, 3145728, 37748736 }, { 16, 12, 12, 12 }, "socket", "285K" },
};

static void test_documented_geometry(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(documented) / sizeof(documented[0]); i++) {
		const struct documented *d = &documented[i];
		struct catalog cat;
		struct catalog_caches c;
		const struct catalog_cache *lv[4];

		load(&cat, d->uarch);
		geometry(&cat, &c);
		lv[0] = &c.l1i;
		lv[1] = &c.l1d;
		lv[2] = &c.l2;
		lv[3] = &c.l3;
		for (int k = 0; k < 4; k++) {
			if (lv[k]->size != d->size[k] || lv[k]->assoc != d->ways[k] ||
			    lv[k]->line != 64)
				fail_msg("%s level %d: %llu B %u-way %u B lines, documented %llu B "
					 "%u-way 64 B", d->uarch, k, (unsigned long long)lv[k]->size,
					 lv[k]->assoc, lv[k]->line, (unsigned long long)d->size[k],
					 d->ways[k]);
		}
		assert_string_equal(c.l2.shared, "core");
		assert_string_equal(c.l3.shared, d->l3_shared);
		assert_contains(c.l3.source, d->l3_source_has);
		assert_non_null(c.l3.note);	/* every L3 size here depends on the part */
		catalog_release(&cat);
	}
}

static void test_alias_and_no_l3(void **state)
{
	struct catalog spr, emr, n2;
	struct catalog_caches a, b, c;

	(void)state;
	load(&spr, "sapphirerapids");
	load(&emr, "emeraldrapids");
	geometry(&spr, &a);
	geometry(&emr, &b);
	assert_int_equal(a.l3.size, b.l3.size);
	assert_int_equal(a.l1d.size, 49152);
	assert_int_equal(a.l1d.assoc, 12);
	/* The alias shares the file, and the file says what that hides. */
	assert_contains(b.note, "emeraldrapids");
	catalog_release(&spr);
	catalog_release(&emr);

	/* No SLC figure for N2: the last level described is the L2. */
	load(&n2, "neoverse-n2");
	geometry(&n2, &c);
	assert_int_equal(c.l3.size, 0);
	assert_null(c.l3.source);
	assert_int_equal(c.l2.size, 1048576);
	assert_contains(c.note, "no l3");
	catalog_release(&n2);
}

/* A catalogue directory for PMUSTAT_DATA_DIR: the embedded generic.json and
 * one uarch "bad" whose "caches" is the given JSON. */
static void bad_catalogue(const char *dir, const char *caches)
{
	struct strbuf sb = STRBUF_INIT;
	const char *generic = embed_find("data/uarch/generic.json", NULL);

	assert_non_null(generic);
	put(dir, "uarch/generic.json", generic);
	strbuf_addf(&sb, "{ \"schema\": \"pmustat.uarch/1\", \"uarch\": \"bad\", "
		    "\"description\": \"test\", \"caches\": %s }", caches);
	put(dir, "uarch/bad.json", sb.buf);
	strbuf_release(&sb);
}

static void expect_refused(const char *dir, const char *caches, const char *msg)
{
	struct catalog cat;
	struct error err;
	struct strbuf file = STRBUF_INIT;

	bad_catalogue(dir, caches);
	error_clear(&err);
	if (catalog_load(&cat, "bad", &err) == 0)
		fail_msg("accepted caches %s", caches);
	/* The file named is the one read, under PMUSTAT_DATA_DIR. */
	strbuf_addf(&file, "catalogue '%s/uarch/bad.json': ", dir);
	assert_contains(err.msg, file.buf);
	assert_contains(err.msg, msg);
	strbuf_release(&file);
}

#define L(size, ways, line, shared) \
	"{ \"size\": " #size ", \"ways\": " #ways ", \"line\": " #line ", \"shared\": \"" \
	shared "\", \"source\": \"test\" }"

static void test_loader_refuses_bad_caches(void **state)
{
	char *dir = scratch();
	struct catalog cat;
	struct catalog_caches c;

	(void)state;
	setenv("PMUSTAT_DATA_DIR", dir, 1);
	/* Good: 96 sets is not a power of two, and need not be. */
	bad_catalogue(dir, "{ \"l1i\": " L(32768, 8, 64, "core") ", \"l1d\": "
		      L(49152, 8, 64, "core") ", \"l2\": " L(1048576, 16, 64, "core") " }");
	load(&cat, "bad");
	geometry(&cat, &c);
	assert_int_equal(c.l1d.size, 49152);
	assert_int_equal(c.l2.assoc, 16);
	assert_int_equal(c.l3.size, 0);
	catalog_release(&cat);

	expect_refused(dir, "{ \"l1i\": " L(32768, 8, 64, "core") ", \"l1d\": "
		       L(40000, 8, 64, "core") ", \"l2\": " L(1048576, 16, 64, "core") " }",
		       "caches.l1d: 'size' is not a whole number of sets");
	expect_refused(dir, "{ \"l1i\": " L(24576, 8, 48, "core") ", \"l1d\": "
		       L(32768, 8, 64, "core") ", \"l2\": " L(1048576, 16, 64, "core") " }",
		       "caches.l1i: 'size' is not a whole number of sets of 'ways' x 'line' "
		       "bytes, or 'line' is not a power of two");
	expect_refused(dir, "{ \"l1i\": " L(32768, 8, 64, "core") ", \"l1d\": "
		       L(32768, 8, 64, "core") ", \"l2\": " L(1048576, 16, 64, "die") " }",
		       "caches.l2: 'shared' is 'die', not one of core, ccx, cluster, socket");
	expect_refused(dir, "{ \"l1i\": " L(32768, 8, 64, "core") ", \"l1d\": "
		       L(32768, 8, 64, "core") ", \"l2\": " L(1048576, 16, 64, "core")
		       ", \"l4\": " L(134217728, 16, 64, "socket") " }",
		       "caches: unknown key 'l4'");
	expect_refused(dir, "{ \"l1i\": " L(32768, 8, 64, "core") ", \"l1d\": "
		       L(32768, 8, 64, "core") " }", "caches needs at least l1i, l1d and l2");
	expect_refused(dir, "{ \"l1i\": " L(32768, 0, 64, "core") ", \"l1d\": "
		       L(32768, 8, 64, "core") ", \"l2\": " L(1048576, 16, 64, "core") " }",
		       "caches.l1i needs 'size', 'ways' and 'line' as positive integers");
	expect_refused(dir, "{ \"l1i\": { \"size\": 32768, \"ways\": 8, \"line\": 64, "
		       "\"shared\": \"core\" }, \"l1d\": " L(32768, 8, 64, "core") ", \"l2\": "
		       L(1048576, 16, 64, "core") " }", "caches.l1i has no 'source'");
	expect_refused(dir, "[]", "'caches' is [], not an object");
	unsetenv("PMUSTAT_DATA_DIR");
	rm_tree(dir);
}

/* ---- the simulator ----------------------------------------------------- */

/* The simulator's geometry for a uarch: LL is the L3, or the L2 without one. */
static struct cache_geometry sim_geometry(const struct catalog_caches *c)
{
	const struct catalog_cache *ll = c->l3.size ? &c->l3 : &c->l2;
	struct cache_geometry g = {
		{ c->l1i.size, c->l1i.assoc, c->l1i.line },
		{ c->l1d.size, c->l1d.assoc, c->l1d.line },
		{ ll->size, ll->assoc, ll->line },
		c->l3.size ? 3 : 2,
	};

	return g;
}

/* Fit one level; it must come out simulable, with its line kept and its
 * size within 1/8 of the real one. Returns sim_level_fit()'s answer. */
static int fit(const char *uarch, const char *which, struct cache_level *lv)
{
	struct cache_level real = *lv;
	struct error err;
	uint64_t diff;
	int r = sim_level_fit(lv);

	if (r < 0)
		fail_msg("%s %s: sim_level_fit refused it", uarch, which);
	if (r == 0 && (lv->size != real.size || lv->assoc != real.assoc))
		fail_msg("%s %s: changed but said unchanged", uarch, which);
	error_clear(&err);
	if (sim_level_check(lv, which, &err))
		fail_msg("%s %s after fitting: %s", uarch, which, err.msg);
	assert_int_equal(lv->line, real.line);
	diff = lv->size > real.size ? lv->size - real.size : real.size - lv->size;
	if (diff * 8 > real.size)
		fail_msg("%s %s: fitted to %llu B from %llu B", uarch, which,
			 (unsigned long long)lv->size, (unsigned long long)real.size);
	return r;
}

static void test_sim_fits_every_uarch(void **state)
{
	char **names = catalog_uarch_names();

	(void)state;
	for (size_t i = 0; names[i]; i++) {
		struct catalog cat;
		struct catalog_caches c;
		struct cache_geometry g;
		int changed;

		load(&cat, names[i]);
		if (!strcmp(cat.uarch, "generic")) {
			catalog_release(&cat);
			continue;
		}
		geometry(&cat, &c);
		g = sim_geometry(&c);
		changed = fit(names[i], "L1i", &g.l1i) | fit(names[i], "L1d", &g.l1d) << 1 |
			  fit(names[i], "LL", &g.ll) << 2;
		/* Zen's caches are all powers of two; Skylake-SP's 11-way L3 has
		 * 36864 sets and Granite Rapids' 504 MiB L3 516096, so they must
		 * be refitted (the L1s never are). */
		if (!strcmp(names[i], "zen4") || !strcmp(names[i], "zen3") ||
		    !strcmp(names[i], "zen2") || !strcmp(names[i], "zen5"))
			assert_int_equal(changed, 0);
		if (!strcmp(names[i], "skylakex") || !strcmp(names[i], "graniterapids"))
			assert_int_equal(changed, 4);
		catalog_release(&cat);
	}
	catalog_names_free(names);
}

/* cachegrind itself: run `true` under each canonical uarch's fitted
 * geometry; valgrind refuses a geometry it cannot simulate, and the
 * output's desc: lines say what it did simulate. */
static void test_cachegrind_accepts(void **state)
{
	char **names = catalog_uarch_names();
	char *valgrind;
	struct spawner srv;
	struct sigwatch sw;
	struct error err;
	char *argv[] = { "true", NULL };

	(void)state;
	if (sim_find_valgrind(NULL, &valgrind, &err))
		skip();
	if (spawner_start(&srv, &err) || sigwatch_init(&sw, &err))
		fail_msg("spawner/sigwatch: %s", err.msg);
	for (size_t i = 0; names[i]; i++) {
		struct measure_spec spec = { 0 };
		struct measure_outcome out;
		struct catalog cat;
		struct catalog_caches c;
		struct cache_geometry g;
		struct sim_counts counts;
		struct sim_run r;

		load(&cat, names[i]);
		if (!strcmp(cat.uarch, "generic") || cat.requested) {	/* aliases: same file */
			catalog_release(&cat);
			continue;
		}
		geometry(&cat, &c);
		g = sim_geometry(&c);
		sim_level_fit(&g.l1i);
		sim_level_fit(&g.l1d);
		sim_level_fit(&g.ll);
		if (sim_prepare(&r, valgrind, &g, argv, &err))
			fail_msg("%s: prepare: %s", names[i], err.msg);
		spec.argv = r.argv;
		spec.pin_cpu = -1;
		if (measure_run(&spec, &srv, &sw, &out, &err))
			fail_msg("%s: run: %s", names[i], err.msg);
		if (out.sp.outcome != SPAWN_EXITED || out.sp.status != 0)
			fail_msg("%s: valgrind failed: %s", names[i],
				 out.stderr_tail ? out.stderr_tail : "");
		if (sim_collect(&r, &counts, &err))
			fail_msg("%s: collect: %s", names[i], err.msg);
		assert_int_equal(counts.used.l1i.size, g.l1i.size);
		assert_int_equal(counts.used.l1i.assoc, g.l1i.assoc);
		assert_int_equal(counts.used.l1d.size, g.l1d.size);
		assert_int_equal(counts.used.l1d.assoc, g.l1d.assoc);
		assert_int_equal(counts.used.ll.size, g.ll.size);
		assert_int_equal(counts.used.ll.assoc, g.ll.assoc);
		assert_int_equal(counts.used.ll.line, g.ll.line);
		assert_int_equal(counts.used.ll_level, c.l3.size ? 3 : 2);
		measure_outcome_release(&out);
		sim_run_release(&r);
		catalog_release(&cat);
	}
	sigwatch_release(&sw);
	spawner_stop(&srv);
	free(valgrind);
	catalog_names_free(names);
}

/* ---- the host ---------------------------------------------------------- */

static void read_host(const char *machine, struct host_caches *h)
{
	struct strbuf root = STRBUF_INIT;
	struct error err;

	strbuf_addf(&root, "%s/%s/sys", fixtures(), machine);
	error_clear(&err);
	if (host_cache_geometry(root.buf, h, &err))
		fail_msg("%s: %s", machine, err.msg);
	strbuf_release(&root);
}

static void same_level(const char *which, const struct host_cache *h,
		       const struct catalog_cache *c)
{
	if (h->size != c->size || h->assoc != c->assoc || h->line != c->line)
		fail_msg("%s: host %llu B %u-way %u B, catalogue %llu B %u-way %u B", which,
			 (unsigned long long)h->size, h->assoc, h->line,
			 (unsigned long long)c->size, c->assoc, c->line);
}

static void test_host_zen4_fixture(void **state)
{
	const char *machines[] = { "zen4", "zen4-no-uncore" };
	struct catalog cat;
	struct catalog_caches c;

	(void)state;
	load(&cat, "zen4");
	geometry(&cat, &c);
	for (size_t i = 0; i < 2; i++) {
		struct host_caches h;

		read_host(machines[i], &h);
		assert_int_equal(h.l1d.size, 32768);
		assert_int_equal(h.l1d.assoc, 8);
		assert_int_equal(h.l1d.line, 64);
		assert_int_equal(h.l3.size, 33554432);
		assert_int_equal(h.l3.assoc, 16);
		assert_string_equal(h.l3.shared_cpus, "0-1");
		/* The constructed machine is what the catalogue says a Zen 4 is. */
		same_level("l1i", &h.l1i, &c.l1i);
		same_level("l1d", &h.l1d, &c.l1d);
		same_level("l2", &h.l2, &c.l2);
		same_level("l3", &h.l3, &c.l3);
	}
	catalog_release(&cat);
}

static void test_host_root_from_env(void **state)
{
	struct strbuf root = STRBUF_INIT;
	struct host_caches h;
	struct error err;

	(void)state;
	strbuf_addf(&root, "%s/zen4/sys", fixtures());
	setenv("PMUSTAT_SYSFS_ROOT", root.buf, 1);
	error_clear(&err);
	assert_int_equal(host_cache_geometry(NULL, &h, &err), 0);
	assert_int_equal(h.l2.size, 1048576);
	unsetenv("PMUSTAT_SYSFS_ROOT");
	strbuf_release(&root);
}

/* The development VM (recorded twice) exposes no cache directory. */
static void test_host_vm_has_none(void **state)
{
	const char *machines[] = { "kvm-guest", "vm-nopmu" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct strbuf root = STRBUF_INIT;
		struct host_caches h;
		struct error err;

		strbuf_addf(&root, "%s/%s/sys", fixtures(), machines[i]);
		error_clear(&err);
		assert_int_equal(host_cache_geometry(root.buf, &h, &err), -1);
		assert_contains(err.msg, "/devices/system/cpu/cpu0/cache' describes no caches: "
				"it does not exist");
		assert_contains(err.hint, "--uarch");
		assert_int_equal(h.l1d.size, 0);
		strbuf_release(&root);
	}
}

static void index_dir(const char *root, int n, const char *level, const char *type,
		      const char *size)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cache/index%d/level", n);
	put(root, rel, level);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cache/index%d/type", n);
	put(root, rel, type);
	if (size) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cache/index%d/size", n);
		put(root, rel, size);
	}
}

#define IDX(n, file) "devices/system/cpu/cpu0/cache/index" #n "/" file

static void test_host_odd_tree(void **state)
{
	char *root = scratch();
	struct host_caches h;
	struct error err;

	(void)state;
	/* A unified L1 serves both sides. */
	index_dir(root, 0, "1", "Unified", "64K");
	put(root, IDX(0, "ways_of_associativity"), "4");
	put(root, IDX(0, "coherency_line_size"), "64");
	/* No ways file (the kernel hides a 0): derived from the sets. index2
	 * comes before index10, which the order of names would invert. */
	index_dir(root, 2, "2", "Unified", "2048K");
	put(root, IDX(2, "number_of_sets"), "2048");
	put(root, IDX(2, "coherency_line_size"), "64");
	put(root, IDX(2, "physical_line_partition"), "1");
	index_dir(root, 10, "2", "Unified", "4096K");
	put(root, IDX(10, "ways_of_associativity"), "8");
	/* An instruction-only L2, an L4 and a size-less L3 are not recorded. */
	index_dir(root, 4, "2", "Instruction", "512K");
	index_dir(root, 3, "4", "Unified", "131072K");
	index_dir(root, 5, "3", "Unified", NULL);
	error_clear(&err);
	if (host_cache_geometry(root, &h, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(h.l1i.size, 65536);
	assert_int_equal(h.l1d.size, 65536);
	assert_int_equal(h.l1d.assoc, 4);
	assert_int_equal(h.l2.size, 2097152);
	assert_int_equal(h.l2.assoc, 16);
	assert_int_equal(h.l2.line, 64);
	assert_string_equal(h.l2.shared_cpus, "");
	assert_int_equal(h.l3.size, 0);
	rm_tree(root);
}

static void expect_host_error(const char *root, const char *msg)
{
	struct host_caches h;
	struct error err;

	error_clear(&err);
	assert_int_equal(host_cache_geometry(root, &h, &err), -1);
	assert_contains(err.msg, msg);
}

static void test_host_broken_trees(void **state)
{
	char *root = scratch();

	(void)state;
	/* The directory is there but says nothing usable. */
	put(root, "devices/system/cpu/cpu0/cache/uevent", "");
	expect_host_error(root, "cache' describes no caches: no index entry with a level, "
			  "type and size");
	index_dir(root, 0, "1", "Data", "32Q");
	expect_host_error(root, "index0/size': '32Q' is not a size");
	put(root, IDX(0, "size"), "32K");
	put(root, IDX(0, "ways_of_associativity"), "8K");
	expect_host_error(root, "index0/ways_of_associativity': '8K' is not a number");
	put(root, IDX(0, "ways_of_associativity"), "8");
	put(root, IDX(0, "level"), "");
	expect_host_error(root, "index0/level': '' is not a number");
	rm_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_uarch_has_caches),
		cmocka_unit_test(test_zen4_documented),
		cmocka_unit_test(test_documented_geometry),
		cmocka_unit_test(test_alias_and_no_l3),
		cmocka_unit_test(test_loader_refuses_bad_caches),
		cmocka_unit_test(test_sim_fits_every_uarch),
		cmocka_unit_test(test_cachegrind_accepts),
		cmocka_unit_test(test_host_zen4_fixture),
		cmocka_unit_test(test_host_root_from_env),
		cmocka_unit_test(test_host_vm_has_none),
		cmocka_unit_test(test_host_odd_tree),
		cmocka_unit_test(test_host_broken_trees),
	};

	unsetenv("PMUSTAT_SYSFS_ROOT");
	unsetenv("PMUSTAT_DATA_DIR");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
