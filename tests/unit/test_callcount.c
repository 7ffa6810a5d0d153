/*
 * Unit tests for backend/callcount: call counters counted for real, with
 * both mechanisms. tests/tools/known/allocn makes an exact number of
 * allocation calls (one round = malloc, calloc, realloc, free, free; `all`
 * adds aligned_alloc, posix_memalign, memalign, valloc and their frees), so
 * the difference between N and 2N rounds must be exactly N per round's call,
 * whatever the C library does at startup. The uprobe tests need root and the
 * uprobe PMU and are skipped without them; the preload tests run anywhere,
 * including after really dropping privileges to an unprivileged user, which
 * is the situation the fallback exists for.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/callcount.h"
#include "backend/callcount_abi.h"
#include "core/strbuf.h"
#include "host/sysfs.h"
#include "run/measure.h"

static char build_dir[4096];	/* where allocn and the shim are */
static struct sysfs_model model;

static void find_build_dir(void)
{
	ssize_t n = readlink("/proc/self/exe", build_dir, sizeof(build_dir) - 1);
	char *slash;

	if (n <= 0)
		abort();
	build_dir[n] = '\0';
	for (int i = 0; i < 2; i++) {	/* build/tests/test_callcount -> build */
		slash = strrchr(build_dir, '/');
		if (!slash)
			abort();
		*slash = '\0';
	}
}

static char *tool(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", build_dir, name);
	return strbuf_detach(&sb);
}

static int uprobes_usable(void)
{
	return geteuid() == 0 && sysfs_pmu_find(&model, "uprobe") != NULL;
}

/* Plan `items` for prog with mechanism force; must succeed. */
static void plan(struct callcount_set *s, const char *prog, const char *const *items,
		 enum callcount_mech force)
{
	struct callcount_opts o = { force, &model, NULL, NULL };
	struct error err;
	char *shim = tool("libpmustat-count.so");

	o.shim = shim;
	callcount_init(s);
	error_clear(&err);
	for (; *items; items++)
		if (callcount_add(s, *items, &err))
			fail_msg("add '%s': %s", *items, err.msg);
	if (callcount_resolve(s, &o, prog, &err))
		fail_msg("resolve for %s: %s (hint: %s)", prog, err.msg, err.hint);
	free(shim);
}

/* Run argv once, counting s's metrics; values[m] per metric. Returns 1
 * when the mechanism says the counts are incomplete (lower bounds). */
static int run_counted(const struct callcount_set *s, char *const *argv, double *values)
{
	struct measure_spec spec = { 0 };
	struct measure_outcome out;
	struct callcount_values v;
	struct event_spec *evs = NULL;
	struct callcount_run cr;
	struct spawner srv;
	struct sigwatch sw;
	struct error err;
	char why[256];
	int incomplete;

	error_clear(&err);
	if (spawner_start(&srv, &err) || sigwatch_init(&sw, &err))
		fail_msg("spawner/sigwatch: %s", err.msg);
	if (callcount_run_begin(s, NULL, &cr, &err))
		fail_msg("run_begin: %s", err.msg);
	if (s->mech == CALLCOUNT_UPROBE) {
		evs = calloc(s->nprobes, sizeof(*evs));
		for (size_t i = 0; i < s->nprobes; i++)
			callcount_event_copy(s, i, &evs[i]);
		spec.events = evs;
		spec.nevents = s->nprobes;
	}
	spec.argv = argv;
	spec.envp = cr.envp;
	spec.pin_cpu = -1;
	if (measure_run(&spec, &srv, &sw, &out, &err))
		fail_msg("measure_run: %s", err.msg);
	assert_int_equal(out.sp.outcome, SPAWN_EXITED);
	assert_int_equal(out.sp.status, 0);
	if (s->mech == CALLCOUNT_UPROBE) {
		uint64_t *raw = calloc(s->nprobes, sizeof(*raw));

		for (size_t i = 0; i < s->nprobes; i++)
			raw[i] = out.readings[i].value;
		if (callcount_uprobe_values(s, raw, out.read_ok, &v, &err))
			fail_msg("uprobe values: %s", err.msg);
		free(raw);
		for (size_t i = 0; i < s->nprobes; i++)
			event_spec_release(&evs[i]);
		free(evs);
	} else if (callcount_run_end(s, &cr, &v, &err)) {
		fail_msg("run_end: %s (hint: %s)", err.msg, err.hint);
	}
	memcpy(values, v.value, s->nmetrics * sizeof(double));
	incomplete = callcount_values_incomplete(&v, why, sizeof(why));
	if (incomplete)
		print_message("  incomplete: %s\n", why);
	callcount_values_release(&v);
	measure_outcome_release(&out);
	callcount_run_release(&cr);
	sigwatch_release(&sw);
	spawner_stop(&srv);
	return incomplete;
}

/* Counts of s's metrics for `prog N modes`; 1 if incomplete. */
static int counts_for(const struct callcount_set *s, const char *prog, long n,
		      const char *modes, double *values)
{
	char nbuf[32];
	char *argv[] = { (char *)prog, nbuf, (char *)modes, NULL };

	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	return run_counted(s, argv, values);
}

static const char *const alloc_items[] = { "call:malloc", "allocs", "frees", NULL };

/*
 * The N-versus-2N difference for allocn with mechanism mech: mult x N
 * mallocs, 3N allocation calls and 2N frees (7N and 6N with `all`), where
 * mult is how many times the rounds run where mech can see them; and
 * whether the mechanism flags the runs as incomplete. The absolute counts
 * are printed for the record.
 */
static void check_difference(const char *prog_name, enum callcount_mech mech,
			     const char *modes, long mult, int want_incomplete)
{
	struct callcount_set s;
	char *prog = tool(prog_name);
	double a[3], b[3];
	const long n = 1000;
	int all = strstr(modes, "all") != NULL, inc_a, inc_b;

	plan(&s, prog, alloc_items, mech);
	assert_int_equal(s.mech, mech);
	inc_a = counts_for(&s, prog, n, modes, a);
	inc_b = counts_for(&s, prog, 2 * n, modes, b);
	print_message("%s %s [%s]: N=%ld: malloc %.0f allocs %.0f frees %.0f; 2N: malloc %.0f "
		      "allocs %.0f frees %.0f\n", prog_name, callcount_mech_name(mech), modes, n,
		      a[0], a[1], a[2], b[0], b[1], b[2]);
	assert_int_equal(inc_a, want_incomplete);
	assert_int_equal(inc_b, want_incomplete);
	assert_true(b[0] - a[0] == (double)(mult * n));
	assert_true(b[1] - a[1] == (double)(mult * n * (all ? 7 : 3)));
	assert_true(b[2] - a[2] == (double)(mult * n * (all ? 6 : 2)));
	/* Nothing can be counted that the program did not call at least. */
	assert_true(a[0] >= (double)(mult * n));
	callcount_release(&s);
	free(prog);
}

/* ---- syntax ------------------------------------------------------------ */

static void add_err(const char *item, const char *msg)
{
	struct callcount_set s;
	struct error err;

	callcount_init(&s);
	error_clear(&err);
	assert_int_equal(callcount_add(&s, "call:free", &err), 0);
	assert_int_equal(callcount_add(&s, item, &err), -1);
	assert_string_equal(err.msg, msg);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_true(err.hint[0] != '\0');
	callcount_release(&s);
}

static void test_syntax(void **state)
{
	struct callcount_set s;
	struct error err;
	enum callcount_mech m;

	(void)state;
	assert_true(callcount_is_call("call:malloc"));
	assert_true(callcount_is_call("allocs"));
	assert_true(callcount_is_call("frees"));
	assert_false(callcount_is_call("cycles"));
	assert_false(callcount_is_call("calls"));
	add_err("call:", "no function named in 'call:'");
	add_err("call:@libc", "no function named in 'call:@libc'");
	add_err("call:malloc@", "no object named after '@' in 'call:malloc@'");
	add_err("call:free", "metric 'call:free' is listed twice");

	callcount_init(&s);
	assert_int_equal(callcount_add(&s, "call:free@libc.so.6", &err), 0);
	assert_int_equal(callcount_add(&s, "allocs", &err), 0);
	assert_string_equal(s.metrics[0].symbols[0], "free");
	assert_null(s.metrics[0].symbols[1]);
	assert_string_equal(s.metrics[0].object, "libc.so.6");
	assert_string_equal(s.metrics[1].symbols[0], "malloc");
	assert_string_equal(s.metrics[1].symbols[6], "valloc");
	assert_null(s.metrics[1].symbols[7]);
	callcount_release(&s);

	assert_int_equal(callcount_mech_parse("preload", &m, &err), 0);
	assert_int_equal(m, CALLCOUNT_PRELOAD);
	assert_int_equal(callcount_mech_parse("uprobes", &m, &err), -1);
	assert_string_equal(err.msg, "unknown call-counter mechanism 'uprobes'");
}

/* ---- resolution -------------------------------------------------------- */

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/*
 * call:malloc binds to libc for an ordinary program, and the offset found
 * holds malloc's code: the file's bytes there equal the bytes at the address
 * the loader gave libc's malloc in this process (dlsym in libc's handle),
 * an independent check of the vaddr -> offset mapping.
 */
static void test_resolve_libc(void **state)
{
	static const char *const items[] = { "call:malloc", "call:free@libc", NULL };
	struct callcount_set s;
	char *prog = tool("allocn");
	unsigned char file_bytes[16];
	void *h, *fn;
	FILE *f;

	(void)state;
	plan(&s, prog, items, CALLCOUNT_PRELOAD);
	assert_int_equal(s.nprobes, 2);
	assert_string_equal(base_of(s.probes[0].object), "libc.so.6");
	assert_string_equal(base_of(s.probes[1].object), "libc.so.6");
	assert_false(s.is_static);
	h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(h);
	fn = dlsym(h, "malloc");
	assert_non_null(fn);
	f = fopen(s.probes[0].object, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, (long)s.probes[0].offset, SEEK_SET), 0);
	assert_int_equal(fread(file_bytes, 1, sizeof(file_bytes), f), sizeof(file_bytes));
	fclose(f);
	assert_memory_equal(file_bytes, fn, sizeof(file_bytes));
	dlclose(h);
	callcount_release(&s);
	free(prog);
}

/* Presets: glibc's memalign and aligned_alloc are one function; the preset
 * probes it once (a call is one call) and says so. */
static void test_resolve_preset_aliases(void **state)
{
	static const char *const items[] = { "allocs", NULL };
	struct callcount_set s;
	char *prog = tool("allocn"), *d;

	(void)state;
	plan(&s, prog, items, CALLCOUNT_PRELOAD);
	assert_int_equal(s.nmetrics, 1);
	for (size_t i = 0; i < s.nprobes; i++)
		for (size_t j = i + 1; j < s.nprobes; j++)
			assert_false(s.probes[i].offset == s.probes[j].offset &&
				     s.probes[i].ino == s.probes[j].ino);
	assert_string_equal(s.metrics[0].aliases, "memalign = aligned_alloc");
	d = callcount_describe(&s, 0);
	assert_string_equal(d, "calls of malloc, calloc, realloc, aligned_alloc, posix_memalign, "
			       "memalign, valloc by name, through the LD_PRELOAD shim (preload)");
	free(d);
	s.mech = CALLCOUNT_UPROBE;	/* as it would be described with uprobes */
	d = callcount_describe(&s, 0);
	print_message("allocs: %s\n", d);
	assert_non_null(strstr(d, "calls of malloc, calloc, realloc, aligned_alloc, "
				  "posix_memalign, valloc in /"));
	assert_non_null(strstr(d, "(one function: memalign = aligned_alloc, counted once) "
				  "(uprobe)"));
	free(d);
	callcount_release(&s);
	free(prog);
}

/* argv[0] is found in PATH like execvp does, and a script is followed to
 * its interpreter, whose libc its calls reach. */
static void test_resolve_program(void **state)
{
	static const char *const items[] = { "call:malloc", NULL };
	char path[] = "/tmp/pmustat-script-XXXXXX";
	struct callcount_set s;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh -e\nexit 0\n", 20), 20);
	close(fd);
	assert_int_equal(chmod(path, 0755), 0);
	plan(&s, path, items, CALLCOUNT_PRELOAD);
	assert_string_equal(s.program, "/bin/sh");
	assert_string_equal(base_of(s.probes[0].object), "libc.so.6");
	callcount_release(&s);
	plan(&s, "sh", items, CALLCOUNT_PRELOAD);
	assert_string_equal(base_of(s.program), "sh");
	assert_non_null(strchr(s.program, '/'));
	callcount_release(&s);
	unlink(path);
}

static void resolve_err(const char *prog_name, const char *item, const char *msg,
			const char *hint)
{
	const char *items[] = { item, NULL };
	struct callcount_opts o = { CALLCOUNT_PRELOAD, &model, NULL, "/dev/null" };
	struct callcount_set s;
	struct error err;
	char *prog = tool(prog_name);
	struct strbuf want = STRBUF_INIT;

	callcount_init(&s);
	error_clear(&err);
	assert_int_equal(callcount_add(&s, items[0], &err), 0);
	assert_int_equal(callcount_resolve(&s, &o, prog, &err), -1);
	strbuf_addf(&want, msg, prog);
	assert_string_equal(err.msg, want.buf);
	if (hint && !strstr(err.hint, hint))
		fail_msg("hint '%s' lacks '%s'", err.hint, hint);
	strbuf_release(&want);
	callcount_release(&s);
	free(prog);
}

static void test_unknown_symbol(void **state)
{
	(void)state;
	resolve_err("allocn", "call:mallco", "no function 'mallco' in '%s' or the libraries "
		    "it loads", "did you mean 'malloc'?");
	resolve_err("allocn-static", "call:mallco", "no function 'mallco' in '%s' or the "
		    "libraries it loads", "did you mean 'malloc'?");
	resolve_err("allocn", "call:malloc@libnothing", "'libnothing' is not an object '%s' "
		    "loads", "libc.so.6");
	resolve_err("allocn", "call:environ", "'environ' in '/lib/x86_64-linux-gnu/libc.so.6' "
		    "is not a function", NULL);
}

/* A program the preload fallback cannot cover is refused, never counted as 0. */
static void test_preload_refuses(void **state)
{
	(void)state;
	resolve_err("allocn-static", "call:malloc", "cannot count calls in '%s' with the "
		    "LD_PRELOAD shim: it is statically linked", "cap_sys_admin");
	resolve_err("allocn", "call:main", "cannot count calls in '%s' with the LD_PRELOAD "
		    "shim: the LD_PRELOAD shim interposes only malloc, calloc, realloc, free, "
		    "aligned_alloc, posix_memalign, memalign, valloc, not 'main'", NULL);
}

/* ---- counting ---------------------------------------------------------- */

/* uprobes: exact in the main thread, across exec; a fork or a thread is
 * not counted, and the run says so instead of passing a lower bound off. */
static void test_uprobe_counts(void **state)
{
	(void)state;
	if (!uprobes_usable())
		skip();
	check_difference("allocn", CALLCOUNT_UPROBE, "", 1, 0);
	check_difference("allocn", CALLCOUNT_UPROBE, "all", 1, 0);
	check_difference("allocn", CALLCOUNT_UPROBE, "exec", 2, 0);
	check_difference("allocn", CALLCOUNT_UPROBE, "fork", 1, 1);
	check_difference("allocn", CALLCOUNT_UPROBE, "thread", 1, 1);
}

static void test_uprobe_static(void **state)
{
	(void)state;
	if (!uprobes_usable())
		skip();
	check_difference("allocn-static", CALLCOUNT_UPROBE, "", 1, 0);
	check_difference("allocn-static", CALLCOUNT_UPROBE, "all,exec", 2, 0);
	check_difference("allocn-static", CALLCOUNT_UPROBE, "thread", 1, 1);
}

/* The shim follows threads, forks, execs and _exit. With everything at
 * once: the forked child, the thread, main and the exec'd image run N each. */
static void test_preload_counts(void **state)
{
	(void)state;
	check_difference("allocn", CALLCOUNT_PRELOAD, "", 1, 0);
	check_difference("allocn", CALLCOUNT_PRELOAD, "all", 1, 0);
	check_difference("allocn", CALLCOUNT_PRELOAD, "fork", 2, 0);
	check_difference("allocn", CALLCOUNT_PRELOAD, "exec", 2, 0);
	check_difference("allocn", CALLCOUNT_PRELOAD, "thread", 2, 0);
	check_difference("allocn", CALLCOUNT_PRELOAD, "all,fork,thread,exec", 4, 0);
	check_difference("allocn", CALLCOUNT_PRELOAD, "_exit", 1, 0);
}

/* Any function with a symbol, with uprobes: allocn's own main runs once. */
static void test_uprobe_any_function(void **state)
{
	static const char *const items[] = { "call:main", "call:strtol", NULL };
	struct callcount_set s;
	char *prog = tool("allocn");
	double v[2];

	(void)state;
	if (!uprobes_usable())
		skip();
	plan(&s, prog, items, CALLCOUNT_AUTO);
	assert_int_equal(s.mech, CALLCOUNT_UPROBE);
	assert_string_equal(base_of(s.probes[0].object), "allocn");
	assert_string_equal(base_of(s.probes[1].object), "libc.so.6");
	assert_string_equal(s.mech_reason, "uprobes count the main thread only (the LD_PRELOAD "
			    "shim cannot be used: the LD_PRELOAD shim interposes only malloc, "
			    "calloc, realloc, free, aligned_alloc, posix_memalign, memalign, "
			    "valloc, not 'main')");
	assert_int_equal(counts_for(&s, prog, 3, "", v), 0);
	assert_true(v[0] == 1 && v[1] == 1);
	callcount_release(&s);
	free(prog);
}

/* The preload shim sees exactly the program's calls: no startup noise. */
static void test_preload_exact(void **state)
{
	struct callcount_set s;
	char *prog = tool("allocn");
	double v[3];

	(void)state;
	plan(&s, prog, alloc_items, CALLCOUNT_PRELOAD);
	assert_int_equal(counts_for(&s, prog, 777, "all", v), 0);
	assert_true(v[0] == 777 && v[1] == 7 * 777 && v[2] == 6 * 777);
	callcount_release(&s);
	free(prog);
}

/*
 * Without privileges, for real: a child drops to an unprivileged user
 * (nobody), where opening a uprobe fails with EACCES. auto must use the shim
 * for a dynamic program and count exactly; a static program, which the shim
 * cannot cover, must be refused with both reasons; and uprobes on request
 * must be refused. The child reports by exit status.
 */
static int unprivileged_child(void)
{
	static const char *const items[] = { "call:malloc", NULL };
	struct callcount_opts o = { CALLCOUNT_AUTO, &model, NULL, NULL };
	struct callcount_set s;
	char *prog = tool("allocn"), *stat_prog = tool("allocn-static");
	struct strbuf want = STRBUF_INIT;
	struct error err;
	double a[3], b[3];

	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return 10;
	plan(&s, prog, alloc_items, CALLCOUNT_AUTO);
	if (s.mech != CALLCOUNT_PRELOAD || s.mech_reason)
		return 11;
	counts_for(&s, prog, 500, "thread", a);
	counts_for(&s, prog, 1000, "thread", b);
	if (b[0] - a[0] != 1000 || b[1] - a[1] != 3000 || b[2] - a[2] != 2000)
		return 12;
	callcount_release(&s);

	callcount_init(&s);
	callcount_add(&s, items[0], &err);
	if (!callcount_resolve(&s, &o, stat_prog, &err))
		return 13;
	strbuf_addf(&want, "cannot count calls in '%s': uprobes need root or CAP_SYS_ADMIN "
		    "(CAP_PERFMON is not enough), and it is statically linked", stat_prog);
	if (sysfs_pmu_find(&model, "uprobe") && strcmp(err.msg, want.buf))
		return 14;
	callcount_release(&s);

	callcount_init(&s);
	callcount_add(&s, items[0], &err);
	o.force = CALLCOUNT_UPROBE;
	if (!callcount_resolve(&s, &o, prog, &err) || !strstr(err.msg, "with uprobes: "))
		return 15;
	callcount_release(&s);
	strbuf_release(&want);
	free(prog);
	free(stat_prog);
	return 0;
}

static void test_fallback_unprivileged(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	if (geteuid() != 0)
		skip();		/* cannot drop what we do not have */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(unprivileged_child());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Auto prefers the shim where it covers the request (every thread and
 * process, cheaper per call), and uprobes elsewhere, saying why. */
static void test_auto_choice(void **state)
{
	struct callcount_set s;
	char *prog = tool("allocn"), *stat_prog = tool("allocn-static");
	const struct callcount_probe *p;
	size_t sentinels = 0;

	(void)state;
	plan(&s, prog, alloc_items, CALLCOUNT_AUTO);
	assert_int_equal(s.mech, CALLCOUNT_PRELOAD);
	assert_null(s.mech_reason);
	callcount_release(&s);
	if (!uprobes_usable()) {
		free(prog);
		free(stat_prog);
		skip();
	}
	plan(&s, stat_prog, alloc_items, CALLCOUNT_AUTO);
	assert_int_equal(s.mech, CALLCOUNT_UPROBE);
	assert_string_equal(s.mech_reason, "uprobes count the main thread only (the LD_PRELOAD "
			    "shim cannot be used: it is statically linked)");
	p = &s.probes[0];
	assert_int_equal(p->ev.attr.type, (unsigned)sysfs_pmu_find(&model, "uprobe")->type);
	assert_ptr_equal((const char *)(uintptr_t)p->ev.attr.config1, p->object);
	assert_int_equal(p->ev.attr.config2, p->offset);
	assert_int_equal(p->ev.attr.config, 0);
	for (size_t i = 0; i < s.nprobes; i++)
		sentinels += s.probes[i].metric == CALLCOUNT_SENTINEL;
	print_message("static allocn: %zu probes, %zu of them sentinels\n", s.nprobes, sentinels);
	assert_true(sentinels >= 2);	/* at least fork and pthread_create */
	{
		struct callcount_set t;

		plan(&t, stat_prog, alloc_items, CALLCOUNT_AUTO);
		assert_true(callcount_same_probes(&s, &t));
		callcount_release(&t);
		plan(&t, prog, alloc_items, CALLCOUNT_UPROBE);
		assert_false(callcount_same_probes(&s, &t));
		callcount_release(&t);
	}
	callcount_release(&s);
	free(prog);
	free(stat_prog);
}

/* ---- records ----------------------------------------------------------- */

static struct callcount_record rec(int kind, int pid, uint64_t mallocs, uint64_t frees)
{
	struct callcount_record r;

	memset(&r, 0, sizeof(r));
	r.magic = CALLCOUNT_MAGIC;
	r.version = CALLCOUNT_VERSION;
	r.kind = (uint16_t)kind;
	r.pid = pid;
	r.size = sizeof(r);
	r.nslots = CC_NSLOTS;
	r.counts[CC_MALLOC] = mallocs;
	r.counts[CC_FREE] = frees;
	return r;
}

static void test_sum_records(void **state)
{
	struct callcount_set s;
	struct callcount_values v;
	struct error err;
	struct callcount_record r[6];

	(void)state;
	callcount_init(&s);
	assert_int_equal(callcount_add(&s, "call:malloc", &err), 0);
	assert_int_equal(callcount_add(&s, "frees", &err), 0);
	/* pid 10 execs (two images), pid 11 is killed before reporting. */
	r[0] = rec(CC_REC_START, 10, 0, 0);
	r[1] = rec(CC_REC_EXEC, 10, 5, 2);
	r[2] = rec(CC_REC_START, 10, 0, 0);
	r[3] = rec(CC_REC_START, 11, 0, 0);
	r[4] = rec(CC_REC_EXIT, 10, 7, 1);
	r[5] = rec(CC_REC_EXIT, 12, 100, 0);	/* a vfork child reporting for its parent */
	assert_int_equal(callcount_sum_records(&s, r, sizeof(r), &v, &err), 0);
	assert_true(v.value[0] == 112 && v.value[1] == 3);
	assert_int_equal(v.processes, 3);
	assert_int_equal(v.lost, 1);
	callcount_values_release(&v);

	assert_int_equal(callcount_sum_records(&s, r, sizeof(r) - 1, &v, &err), -1);
	assert_string_equal(err.msg, "the call-count records are truncated (575 bytes)");
	r[2].magic ^= 1;
	assert_int_equal(callcount_sum_records(&s, r, sizeof(r), &v, &err), -1);
	assert_string_equal(err.msg, "call-count record 2 is corrupt");
	assert_int_equal(callcount_sum_records(&s, r, 0, &v, &err), -1);
	assert_string_equal(err.msg, "no call counts from 'the program': the LD_PRELOAD shim "
				     "was not loaded");
	callcount_release(&s);
}

static struct callcount_site_rec site_rec(int pid, uint64_t calls, uint64_t temps,
					 uint64_t frame)
{
	struct callcount_site_rec r;

	memset(&r, 0, sizeof(r));
	r.h = (struct callcount_hdr){ CALLCOUNT_MAGIC, CALLCOUNT_VERSION, CC_REC_SITE, pid,
				      sizeof(r) };
	r.nframes = 1;
	r.calls = calls;
	r.bytes = 16 * calls;
	r.temps = temps;
	r.frames[0] = frame;
	return r;
}

/* A report file as the shim writes it: pid 10 execs (two images with
 * sites and maps of their own), pid 11 writes a map record cut short. */
static void test_parse_sites(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct callcount_sites cs;
	struct callcount_record r;
	struct callcount_site_rec s;
	struct error err;
	union {
		struct callcount_map_rec m;
		char bytes[sizeof(struct callcount_map_rec) + 16];
	} map;

	(void)state;
	memset(&map, 0, sizeof(map));
	map.m.h = (struct callcount_hdr){ CALLCOUNT_MAGIC, CALLCOUNT_VERSION, CC_REC_MAP, 10,
					  sizeof(map) };
	map.m.start = 0x1000;
	map.m.end = 0x2000;
	strcpy(map.m.path, "/bin/prog");
	r = rec(CC_REC_START, 10, 0, 0);
	strbuf_add(&sb, &r, sizeof(r));
	s = site_rec(10, 5, 2, 0x1234);
	strbuf_add(&sb, &s, sizeof(s));
	strbuf_add(&sb, &map, sizeof(map));
	r = rec(CC_REC_EXEC, 10, 5, 2);
	r.unsited = 3;
	strbuf_add(&sb, &r, sizeof(r));
	r = rec(CC_REC_START, 10, 0, 0);
	strbuf_add(&sb, &r, sizeof(r));
	s = site_rec(10, 7, 0, 0x1500);
	strbuf_add(&sb, &s, sizeof(s));
	r = rec(CC_REC_EXIT, 10, 7, 0);
	strbuf_add(&sb, &r, sizeof(r));
	assert_int_equal(callcount_parse_sites(sb.buf, sb.len, &cs, &err), 0);
	assert_int_equal(cs.n, 2);
	assert_int_equal(cs.img[0].nsites, 1);
	assert_true(cs.img[0].sites[0].calls == 5 && cs.img[0].sites[0].temps == 2 &&
		    cs.img[0].sites[0].bytes == 80 && cs.img[0].sites[0].frames[0] == 0x1234);
	assert_int_equal(cs.img[0].nmaps, 1);
	assert_string_equal(cs.img[0].maps[0].path, "/bin/prog");
	assert_true(cs.img[0].unsited == 3 && cs.img[0].ended);
	assert_int_equal(cs.img[1].nsites, 1);
	assert_int_equal(cs.img[1].nmaps, 0);	/* the exec'd image's own maps only */
	assert_true(cs.img[1].sites[0].calls == 7 && cs.img[1].ended);
	callcount_sites_release(&cs);

	/* A map record whose path has no NUL within its size is corrupt. */
	map.m.h.pid = 11;
	memset(map.m.path, 'x', 16);
	strbuf_add(&sb, &map, sizeof(map));
	assert_int_equal(callcount_parse_sites(sb.buf, sb.len, &cs, &err), -1);
	assert_string_equal(err.msg, "call-count record 7 is corrupt");
	strbuf_release(&sb);
}

static void test_preload_env(void **state)
{
	struct callcount_set s;
	struct callcount_run r;
	struct error err;
	char *base[] = { "PATH=/bin", "LD_PRELOAD=/x.so", "PMUSTAT_COUNT_FILE=/old", NULL };
	struct strbuf want = STRBUF_INIT;
	struct stat st;

	(void)state;
	callcount_init(&s);
	s.mech = CALLCOUNT_PRELOAD;
	s.shim = xstrdup("/opt/libpmustat-count.so");
	assert_int_equal(callcount_run_begin(&s, base, &r, &err), 0);
	assert_int_equal(stat(r.path, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_string_equal(r.envp[0], "PATH=/bin");
	assert_string_equal(r.envp[1], "LD_PRELOAD=/opt/libpmustat-count.so:/x.so");
	strbuf_addf(&want, "PMUSTAT_COUNT_FILE=%s", r.path);
	assert_string_equal(r.envp[2], want.buf);
	assert_null(r.envp[3]);
	strbuf_reset(&want);
	strbuf_adds(&want, r.dir);
	callcount_run_release(&r);
	assert_int_equal(stat(want.buf, &st), -1);	/* cleaned up */
	strbuf_release(&want);
	callcount_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_resolve_libc),
		cmocka_unit_test(test_resolve_preset_aliases),
		cmocka_unit_test(test_resolve_program),
		cmocka_unit_test(test_unknown_symbol),
		cmocka_unit_test(test_preload_refuses),
		cmocka_unit_test(test_sum_records),
		cmocka_unit_test(test_parse_sites),
		cmocka_unit_test(test_preload_env),
		cmocka_unit_test(test_auto_choice),
		cmocka_unit_test(test_uprobe_any_function),
		cmocka_unit_test(test_uprobe_counts),
		cmocka_unit_test(test_uprobe_static),
		cmocka_unit_test(test_preload_counts),
		cmocka_unit_test(test_preload_exact),
		cmocka_unit_test(test_fallback_unprivileged),
	};
	struct error err;
	int rc;

	find_build_dir();
	if (sysfs_model_load(&model, NULL, &err))
		fprintf(stderr, "sysfs: %s\n", err.msg);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	sysfs_model_release(&model);
	return rc;
}
