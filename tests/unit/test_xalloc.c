/*
 * Running out of memory: the first allocation that fails with a reserve
 * set aside gives the reserve back and succeeds, and says so
 * (xalloc_reserve_spent), so that a campaign gets to its next safe point
 * and stops cleanly instead of aborting. In a child process under an
 * address-space limit (RLIMIT_AS); not under ASan, which reserves
 * terabytes of address space.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/strbuf.h"

#include "sanitizers.h"

/* Allocate 64 KB blocks (touched, so they are real) until the limit is
 * reached: with the reserve, an allocation fails once and succeeds again
 * (exit 0); without it, xmalloc aborts. */
static int fill_memory(void)
{
	struct rlimit rl = { 64u << 20, 64u << 20 };

	if (setrlimit(RLIMIT_AS, &rl))
		return 2;
	xalloc_reserve(4u << 20);
	for (int i = 0; i < 100000 && !xalloc_reserve_spent(); i++)
		memset(xmalloc(64u << 10), 1, 64u << 10);
	/* the reserve came back: a few more blocks fit */
	for (int i = 0; i < 8; i++)
		memset(xmalloc(64u << 10), 1, 64u << 10);
	return xalloc_reserve_spent() ? 0 : 3;
}

static void test_reserve_spent_not_abort(void **state)
{
	int status;
	pid_t pid;

	(void)state;
#ifdef UNDER_ASAN
	skip();
#endif
	pid = fork();
	if (pid == 0) {
		/* the child's own abort message would look like a failure */
		if (!freopen("/dev/null", "w", stderr))
			_exit(4);
		_exit(fill_memory());
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_no_reserve_no_change(void **state)
{
	(void)state;
	/* this process never set one aside: nothing spent, allocation works */
	assert_false(xalloc_reserve_spent());
	free(xmalloc(16));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reserve_spent_not_abort),
		cmocka_unit_test(test_no_reserve_no_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
