/*
 * Unit tests for core/owner: a process is named by its pid and start time,
 * so a pid that runs with another start time (reused) is a gone owner, and
 * so are a pid that no longer runs and a zombie; this process with its own
 * start time, or with none recorded, is alive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/owner.h"

static void test_self(void **state)
{
	long pid = (long)getpid();
	unsigned long long start = owner_start(pid);

	(void)state;
	assert_true(start > 0);
	assert_false(owner_gone(pid, start));
	assert_false(owner_gone(pid, 0));
	assert_true(owner_gone(pid, start + 1));
	assert_true(owner_gone(pid, 1));
}

/* The state letter of pid, '?' when unreadable. */
static char state_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static void test_dead_and_zombie(void **state)
{
	pid_t child = fork();
	unsigned long long start;
	siginfo_t info;
	int st;

	(void)state;
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	start = owner_start(child);
	/* Ended but not reaped (WNOWAIT): a zombie, whose files are no one's
	 * any more. */
	assert_int_equal(waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT), 0);
	assert_int_equal(state_of(child), 'Z');
	assert_true(owner_gone(child, start));
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(owner_gone(child, start));
	assert_true(owner_gone(child, 0));
	assert_int_equal(owner_start(child), 0);
	assert_false(owner_gone(0, 0));
	assert_false(owner_gone(-1, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_dead_and_zombie),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
