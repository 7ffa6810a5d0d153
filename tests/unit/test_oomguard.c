/*
 * core/oomguard: libdw's two ways of ending the process when memory runs
 * out (error(EXIT_FAILURE, ENOMEM, "libdw") and an assertion in its hash
 * tables) jump back to the guarded region instead, and outside a guard
 * behave as glibc's. Then the real thing: the symbolizer looks up this
 * test binary's own code (DWARF of the whole library) in child processes
 * under address-space limits a little above what they use, from tight to
 * roomy; at each, the child must finish (exit 0, or 2 when libdw ran out
 * and the guard caught it), never die. Before the guard, libdw exited 1
 * ("libdw: Cannot allocate memory") or aborted at some of these limits.
 * Not under ASan, which reserves terabytes of address space.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/symbols.h"
#include "campaign/campaign.h"
#include "core/oomguard.h"
#include "core/strbuf.h"

#include "sanitizers.h"

void error(int status, int errnum, const char *fmt, ...);
void __assert_fail(const char *assertion, const char *file, unsigned int line,
		   const char *function) __attribute__((noreturn));

/* Run fn in a child with stderr into a file; its wait status, and what it
 * printed in out. */
static int in_child(void (*fn)(void), char *out, size_t len)
{
	char path[] = "/tmp/pmustat-oomguard-XXXXXX";
	int fd = mkstemp(path), status = -1;
	pid_t pid;
	ssize_t n;

	assert_true(fd >= 0);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 2);
		signal(SIGABRT, SIG_DFL);
		fn();
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	n = pread(fd, out, len - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return status;
}

static void libdw_oom(void)
{
	error(EXIT_FAILURE, ENOMEM, "libdw");
}

static void other_error(void)
{
	error(3, EINVAL, "bad %d", 5);
}

static void other_assert(void)
{
	__assert_fail("x > 0", "src/x.c", 12, "f");
}

static void test_outside_a_guard_as_glibc(void **state)
{
	char out[512];
	int st;

	(void)state;
	st = in_child(libdw_oom, out, sizeof(out));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), EXIT_FAILURE);
	assert_non_null(strstr(out, ": libdw: Cannot allocate memory\n"));
	st = in_child(other_error, out, sizeof(out));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 3);
	assert_non_null(strstr(out, ": bad 5: Invalid argument\n"));
	st = in_child(other_assert, out, sizeof(out));
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGABRT);
	assert_non_null(strstr(out, ": src/x.c:12: f: Assertion `x > 0' failed.\n"));
}

/* In a child: the process-wide marks (caught, reserve spent) stay there. */
static void guarded_ends(void)
{
	struct oomguard g;
	volatile int step = 0;

	if (sigsetjmp(g.env, 0)) {
		if (step == 0 && !strcmp(g.what, "libdw: Cannot allocate memory") &&
		    oomguard_caught() && xalloc_reserve_spent()) {
			step = 1;
			if (sigsetjmp(g.env, 0))
				_exit(step == 1 && strstr(g.what, "hash table") ? 7 : 5);
			oomguard_enter(&g);
			__assert_fail("htab->table", "dynamicsizehash_concurrent.c", 1, "r");
		}
		_exit(4);
	}
	oomguard_enter(&g);
	error(EXIT_FAILURE, ENOMEM, "libdw");
	_exit(6);	/* not reached */
}

static void test_inside_a_guard_jumps_back(void **state)
{
	char out[512];
	int st;

	(void)state;
	st = in_child(guarded_ends, out, sizeof(out));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 7);
	assert_string_equal(out, "");
}

/* The symbolizer over this binary's executable mappings, then lookups of
 * every 256th byte of them under RLIMIT_AS = what is mapped + margin.
 * Referring to campaign_run links the whole library into this binary: its
 * DWARF takes libdw about 7 MB to read. */
static size_t margin;
void *const whole_library = (void *)campaign_run;

/* Grow the stack's mapping by n bytes now: under RLIMIT_AS a stack that
 * must grow past the limit during a lookup ends the process with SIGSEGV,
 * which no allocator can report (seen once in nine runs under load). The
 * kernel does not shrink it again, so the limit set after this leaves room. */
static void __attribute__((noinline)) grow_stack(size_t n)
{
	volatile char page[4096];

	page[0] = 0;
	if (n > sizeof(page))
		grow_stack(n - sizeof(page));
	page[sizeof(page) - 1] = page[0];
}

static void symbolize_self_limited(void)
{
	struct symbolizer *sy = symbolizer_new();
	uint64_t lo[8], hi[8];
	size_t nmaps = 0;
	char line[4096], exe[4096], path[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long size = 0, start, end, off;
	struct rlimit rl;
	struct sym_frame fr[8];
	char perm[8];

	if (n <= 0 || !f)
		_exit(9);
	exe[n] = '\0';
	while (fgets(line, sizeof(line), f) && nmaps < 8)
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start, &end, perm, &off,
			   path) == 5 && perm[2] == 'x' && !strcmp(path, exe)) {
			symbolizer_add_map(sy, start, end - start, off, exe, NULL);
			lo[nmaps] = start;
			hi[nmaps++] = end;
		}
	fclose(f);
	grow_stack(1u << 20);
	f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%llu", &size) != 1)
		_exit(9);
	fclose(f);
	rl.rlim_cur = rl.rlim_max = size * (unsigned long long)sysconf(_SC_PAGESIZE) + margin;
	if (setrlimit(RLIMIT_AS, &rl))
		_exit(9);
	for (size_t m = 0; m < nmaps; m++)
		for (uint64_t a = lo[m]; a < hi[m]; a += 256)
			symbolizer_lookup(sy, a, fr, 8);
	/* 2: libdw's own end caught; 3: ours (x*alloc) inside the lookup */
	_exit(!oomguard_caught() ? 0 : !strncmp(oomguard_caught(), "libdw", 5) ? 2 : 3);
}

static void test_libdw_out_of_memory_caught(void **state)
{
	char out[4096];
	int caught = 0, ours = 0, finished = 0;

	(void)state;
#ifdef UNDER_ASAN
	skip();
#endif
	for (margin = 512u << 10; margin <= 12u << 20; margin += 512u << 10) {
		int st = in_child(symbolize_self_limited, out, sizeof(out));

		if (!WIFEXITED(st) || WEXITSTATUS(st) > 3 || WEXITSTATUS(st) == 1)
			fail_msg("symbolizing under a limit %zu KB above use: died (status %#x): %s",
				 margin >> 10, st, out);
		caught += WEXITSTATUS(st) == 2;
		ours += WEXITSTATUS(st) == 3;
		finished += WEXITSTATUS(st) == 0;
	}
	print_message("of 24 limits: libdw's end caught at %d, pmustat's own allocation at %d, "
		      "finished at %d\n", caught, ours, finished);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outside_a_guard_as_glibc),
		cmocka_unit_test(test_inside_a_guard_jumps_back),
		cmocka_unit_test(test_libdw_out_of_memory_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
