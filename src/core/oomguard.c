/*
 * oomguard (see oomguard.h), and the two libc entry points libdw ends the
 * process through. Defining error() and __assert_fail() here makes them the
 * ones every shared library calls (the executable's symbols come first in
 * the dynamic lookup); outside a guard, or for any other failure, they do
 * what glibc's do: error() prints "program: message: strerror" and exits
 * with a non-zero status, __assert_fail() prints glibc's assertion line and
 * aborts.
 */
#include "core/oomguard.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

/* glibc's, as <error.h> declares them (not included: a fortified build
 * declares error() as an inline wrapper) */
extern void (*error_print_progname)(void);
extern unsigned int error_message_count;
void error(int status, int errnum, const char *fmt, ...);
void __assert_fail(const char *assertion, const char *file, unsigned int line,
		   const char *function) __attribute__((noreturn));

static _Thread_local struct oomguard *active;
static const char *caught;

void oomguard_enter(struct oomguard *g)
{
	g->what = NULL;
	g->outer = active;
	active = g;
}

void oomguard_leave(struct oomguard *g)
{
	active = g->outer;
}

void oomguard_fail(const char *what)
{
	struct oomguard *g = active;

	if (!g)
		return;
	active = g->outer;
	g->what = what;
	__atomic_compare_exchange_n(&caught, &(const char *){ NULL }, what, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	/* the campaign stops after this run, as for its own allocations */
	xalloc_exhausted();
	siglongjmp(g->env, 1);
}

const char *oomguard_caught(void)
{
	return __atomic_load_n(&caught, __ATOMIC_SEQ_CST);
}

/* libdw's __libdw_oom: error(EXIT_FAILURE, ENOMEM, "libdw"), in a loop. */
void error(int status, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (status && errnum == ENOMEM)
		oomguard_fail("libdw: Cannot allocate memory");
	fflush(stdout);
	if (error_print_progname)
		error_print_progname();
	else
		fprintf(stderr, "%s: ", program_invocation_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	error_message_count++;
	if (status)
		exit(status);
}

/* elfutils' concurrent hash tables assert their malloc (a table resized). */
void __assert_fail(const char *assertion, const char *file, unsigned int line,
		   const char *function)
{
	if (strstr(file, "dynamicsizehash"))
		oomguard_fail("libdw: a hash table could not grow (out of memory)");
	fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name,
		file, line, function ? function : "", function ? ": " : "", assertion);
	fflush(stderr);
	abort();
}
