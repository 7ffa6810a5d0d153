/*
 * A region of code whose running out of memory jumps back to its start
 * instead of ending pmustat: the symbolizer's and unwinder's libdw work.
 *
 * libdw (elfutils) does not hand its allocation failures back. Its
 * allocator ends the process with error(EXIT_FAILURE, ENOMEM, "libdw")
 * (libdw/libdw_alloc.c, __libdw_oom), and its concurrent hash tables
 * assert that malloc succeeded (lib/dynamicsizehash_concurrent.c,
 * resize_coordinator): under an address-space limit (ulimit -v) pmustat
 * exited or aborted in the middle of a campaign, without the table of the
 * finished runs (#27 item 13). A child process for the libdw work would
 * need every sample's registers and stack copy shipped to it; instead
 * pmustat catches exactly those two ends, and its own x*alloc failing with
 * the reserve spent, while a thread is inside a guarded region: it defines
 * error() and __assert_fail() (the executable's definitions come before
 * libc's for libdw's calls; every other call behaves as glibc's does) and
 * jumps back with siglongjmp. What the region was doing is then in an
 * unknown state (a libdw lock may be held, a table half grown): its caller
 * abandons those objects, never uses or frees them again, and the campaign
 * stops after the run (the memory reserve is marked spent, core/strbuf.h).
 *
 * Use (the sigsetjmp must be in the guarded function's own frame):
 *
 *	struct oomguard g;
 *	if (sigsetjmp(g.env, 0)) { ...abandon, g.what says why...; }
 *	oomguard_enter(&g);
 *	...libdw work...
 *	oomguard_leave(&g);
 *
 * Guards are per thread (the profiler's reader thread unwinds too) and nest.
 */
#ifndef PMU_CORE_OOMGUARD_H
#define PMU_CORE_OOMGUARD_H

#include <setjmp.h>

struct oomguard {
	sigjmp_buf env;
	const char *what;	/* after the jump: what ran out ("libdw: ...") */
	struct oomguard *outer;
};

void oomguard_enter(struct oomguard *g);
void oomguard_leave(struct oomguard *g);

/* Inside a guard on this thread: record what and jump back (no return);
 * outside one: return. */
void oomguard_fail(const char *what);

/* What the first jump back was for, in any thread ("libdw: Cannot allocate
 * memory"), or NULL: for whoever says so once. */
const char *oomguard_caught(void);

#endif
