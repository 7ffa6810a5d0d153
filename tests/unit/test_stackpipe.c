/*
 * Unit tests for backend/stackpipe: the per-process mapping tables the
 * profiler and the allocation probes share, fed with synthetic records in
 * the orders the kernel's per-CPU buffers can hand them out (a child's own
 * mapping before the FORK that made it, a process's sample after its
 * EXIT), no kernel needed. Lookups at every boundary are checked against
 * a brute-force walk of what the records said, latest first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backend/stackpipe.h"
#include "core/strbuf.h"

static struct stackpipe *fresh(const struct stackpipe_user *u)
{
	static struct stackpipe p;
	static const struct stackpipe_user none = { 0 };

	stackpipe_init(&p, u ? u : &none);
	return &p;
}

static void mmap_rec(struct stackpipe *p, uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *path)
{
	struct sample_rec r = { .type = SREC_MMAP, .pid = pid, .tid = pid, .start = start,
				.len = len, .pgoff = pgoff, .path = path };

	stackpipe_feed(p, &r);
}

static void task_rec(struct stackpipe *p, enum sample_rec_type type, uint32_t pid,
		     uint32_t ppid, uint32_t tid)
{
	struct sample_rec r = { .type = type, .pid = pid, .ppid = ppid, .tid = tid };

	stackpipe_feed(p, &r);
}

/* The path of pid's mapping at addr, "-" for none; its pgoff-adjusted file
 * offset in *off. */
static const char *at(struct stackpipe *p, uint32_t pid, uint64_t addr, uint64_t *off)
{
	const struct sym_map *m = stackpipe_map(p, pid, addr);

	if (!m)
		return "-";
	if (off)
		*off = addr - m->start + m->pgoff;
	return m->path;
}

static void test_boundaries(void **state)
{
	struct stackpipe *p = fresh(NULL);
	uint64_t off;

	(void)state;
	mmap_rec(p, 100, 0x3000, 0x2000, 0x10000, "/b");
	mmap_rec(p, 100, 0x1000, 0x1000, 0, "/a");
	assert_string_equal(at(p, 100, 0xfff, NULL), "-");
	assert_string_equal(at(p, 100, 0x1000, &off), "/a");
	assert_int_equal(off, 0);
	assert_string_equal(at(p, 100, 0x1fff, &off), "/a");
	assert_int_equal(off, 0xfff);
	assert_string_equal(at(p, 100, 0x2000, NULL), "-");	/* end is exclusive */
	assert_string_equal(at(p, 100, 0x2fff, NULL), "-");
	assert_string_equal(at(p, 100, 0x3000, &off), "/b");
	assert_int_equal(off, 0x10000);
	assert_string_equal(at(p, 100, 0x4fff, &off), "/b");
	assert_int_equal(off, 0x11fff);
	assert_string_equal(at(p, 100, 0x5000, NULL), "-");
	assert_string_equal(at(p, 100, UINT64_MAX, NULL), "-");
	assert_string_equal(at(p, 101, 0x1000, NULL), "-");	/* an unknown pid */
	stackpipe_release(p);
}

/* A later mapping wins over the part of older ones it overlaps; what is
 * left of them keeps its file offsets. */
static void test_later_wins(void **state)
{
	struct stackpipe *p = fresh(NULL);
	uint64_t off;
	size_t n;

	(void)state;
	mmap_rec(p, 7, 0x1000, 0x1000, 0, "/a");
	mmap_rec(p, 7, 0x3000, 0x2000, 0x10000, "/b");
	mmap_rec(p, 7, 0x1800, 0x2000, 0x500000, "/c");
	assert_string_equal(at(p, 7, 0x17ff, &off), "/a");
	assert_int_equal(off, 0x7ff);
	assert_string_equal(at(p, 7, 0x1800, &off), "/c");
	assert_int_equal(off, 0x500000);
	assert_string_equal(at(p, 7, 0x37ff, &off), "/c");
	assert_string_equal(at(p, 7, 0x3800, &off), "/b");
	assert_int_equal(off, 0x10800);
	stackpipe_maps(p, 7, &n);
	assert_int_equal(n, 3);
	/* inside one mapping: it splits in three */
	mmap_rec(p, 7, 0x4000, 0x100, 0, "/d");
	assert_string_equal(at(p, 7, 0x3fff, NULL), "/b");
	assert_string_equal(at(p, 7, 0x4000, NULL), "/d");
	assert_string_equal(at(p, 7, 0x4100, &off), "/b");
	assert_int_equal(off, 0x11100);
	/* the same mapping again (an exec of itself) is one */
	mmap_rec(p, 7, 0x4000, 0x100, 0, "/d");
	stackpipe_maps(p, 7, &n);
	assert_int_equal(n, 5);
	/* an empty or wrapping range is no mapping */
	mmap_rec(p, 7, 0x9000, 0, 0, "/e");
	mmap_rec(p, 7, UINT64_MAX - 10, 0x100, 0, "/e");
	stackpipe_maps(p, 7, &n);
	assert_int_equal(n, 5);
	stackpipe_release(p);
}

static void test_fork_copies(void **state)
{
	struct stackpipe *p = fresh(NULL);

	(void)state;
	mmap_rec(p, 100, 0x1000, 0x1000, 0, "/prog");
	task_rec(p, SREC_FORK, 200, 100, 200);
	assert_string_equal(at(p, 200, 0x1800, NULL), "/prog");
	/* after the fork each has its own: neither sees the other's */
	mmap_rec(p, 100, 0x8000, 0x1000, 0, "/parent-later");
	mmap_rec(p, 200, 0x9000, 0x1000, 0, "/child-own");
	assert_string_equal(at(p, 200, 0x8000, NULL), "-");
	assert_string_equal(at(p, 100, 0x9000, NULL), "-");
	assert_string_equal(at(p, 200, 0x9000, NULL), "/child-own");
	/* a grandchild gets both generations */
	task_rec(p, SREC_FORK, 300, 200, 300);
	assert_string_equal(at(p, 300, 0x1000, NULL), "/prog");
	assert_string_equal(at(p, 300, 0x9fff, NULL), "/child-own");
	/* a thread (pid == ppid) is the same address space: no table */
	task_rec(p, SREC_FORK, 100, 100, 101);
	assert_string_equal(at(p, 100, 0x1000, NULL), "/prog");
	assert_string_equal(at(p, 101, 0x1000, NULL), "-");
	stackpipe_release(p);
}

/* Records of different CPUs: the child's own mapping read before its
 * FORK; it still wins over the parent's where they overlap. */
static void test_fork_out_of_order(void **state)
{
	struct stackpipe *p = fresh(NULL);
	uint64_t off;

	(void)state;
	mmap_rec(p, 100, 0x1000, 0x4000, 0, "/prog");
	mmap_rec(p, 400, 0x2000, 0x1000, 0x77000, "/dlopened");
	task_rec(p, SREC_FORK, 400, 100, 400);
	assert_string_equal(at(p, 400, 0x1fff, &off), "/prog");
	assert_int_equal(off, 0x1fff - 0x1000);
	assert_string_equal(at(p, 400, 0x2000, &off), "/dlopened");
	assert_int_equal(off, 0x77000);
	assert_string_equal(at(p, 400, 0x3000, &off), "/prog");
	assert_int_equal(off, 0x2000);
	assert_string_equal(at(p, 100, 0x2000, NULL), "/prog");
	/* a FORK read before the parent's MMAPs (another CPU's buffer): the
	 * copy is made when the tables are settled, before any unwinding */
	task_rec(p, SREC_FORK, 600, 300, 600);
	mmap_rec(p, 300, 0x1000, 0x4000, 0, "/later");
	assert_string_equal(at(p, 600, 0x1000, NULL), "-");
	stackpipe_settle(p);
	assert_string_equal(at(p, 600, 0x1000, NULL), "/later");
	/* a fork from an unknown parent: the child's own only */
	mmap_rec(p, 500, 0x6000, 0x1000, 0, "/own");
	task_rec(p, SREC_FORK, 500, 999, 500);
	assert_string_equal(at(p, 500, 0x6000, NULL), "/own");
	assert_string_equal(at(p, 500, 0x1000, NULL), "-");
	stackpipe_release(p);
}

/* An EXIT retires a table: still readable (a sample read after it is the
 * process's), but a FORK of the same pid is a new process. */
static void test_exit_retires(void **state)
{
	struct stackpipe *p = fresh(NULL);

	(void)state;
	mmap_rec(p, 100, 0x1000, 0x1000, 0, "/prog");
	task_rec(p, SREC_FORK, 200, 100, 200);
	mmap_rec(p, 200, 0x9000, 0x1000, 0, "/child-own");
	task_rec(p, SREC_EXIT, 200, 100, 201);	/* a thread of 200 ends: not the process */
	task_rec(p, SREC_FORK, 200, 100, 200);	/* (a duplicate: keeps what it has) */
	assert_string_equal(at(p, 200, 0x9000, NULL), "/child-own");
	task_rec(p, SREC_EXIT, 200, 100, 200);
	assert_string_equal(at(p, 200, 0x9000, NULL), "/child-own");
	assert_string_equal(at(p, 200, 0x1000, NULL), "/prog");
	mmap_rec(p, 300, 0x5000, 0x1000, 0, "/other");
	task_rec(p, SREC_FORK, 200, 300, 200);	/* pid 200 reused, by 300's child */
	assert_string_equal(at(p, 200, 0x9000, NULL), "-");
	assert_string_equal(at(p, 200, 0x1000, NULL), "-");
	assert_string_equal(at(p, 200, 0x5000, NULL), "/other");
	task_rec(p, SREC_EXIT, 12345, 1, 12345);	/* of no known process */
	assert_string_equal(at(p, 12345, 0x5000, NULL), "-");
	stackpipe_release(p);
}

/* Many mappings, in an order that is neither sorted nor reversed, some
 * overlapping: bisection agrees with a walk of the records, latest first. */
static void test_bisection_many(void **state)
{
	struct stackpipe *p = fresh(NULL);
	struct { uint64_t start, len; char path[16]; } rec[600];
	size_t n = sizeof(rec) / sizeof(rec[0]);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		rec[i].start = 0x10000 + ((i * 7919) % n) * 0x1000 + (i % 3) * 0x800;
		rec[i].len = 0x800 + (i % 5) * 0x400;
		snprintf(rec[i].path, sizeof(rec[i].path), "/o%zu", i);
		mmap_rec(p, 42, rec[i].start, rec[i].len, 0, rec[i].path);
	}
	for (uint64_t a = 0xf000; a < 0x10000 + n * 0x1000 + 0x3000; a += 0x100) {
		const char *want = "-";

		for (size_t i = n; i-- > 0;)
			if (a >= rec[i].start && a < rec[i].start + rec[i].len) {
				want = rec[i].path;
				break;
			}
		assert_string_equal(at(p, 42, a, NULL), want);
	}
	stackpipe_release(p);
}

/* Samples: the user sees every one, for any pid; a stack kept for a pid
 * with no mappings comes back as its sampled pc alone. */
struct seen {
	unsigned samples, stacks;
	size_t cookie;
	uint32_t pid;
	uint64_t pc;
	int n;
};

static void on_sample(void *ctx, struct stackpipe *p, const struct sample_rec *r)
{
	struct seen *s = ctx;

	s->samples++;
	if (r->nregs)
		stackpipe_keep(p, r, 77, 8);
}

static void on_stack(void *ctx, size_t cookie, uint32_t pid, const uint64_t *pcs, int n)
{
	struct seen *s = ctx;

	s->stacks++;
	s->cookie = cookie;
	s->pid = pid;
	s->pc = pcs[0];
	s->n = n;
}

static void test_samples_unknown_pid(void **state)
{
	struct seen seen = { 0 };
	struct stackpipe_user u = { on_sample, on_stack, &seen, 1 << 20, 0, 0 };
	struct stackpipe *p = fresh(&u);
	uint64_t regs[SAMPLE_NREGS] = { 0 };
	unsigned char stack[64] = { 0 };
	struct sample_rec r = { .type = SREC_SAMPLE, .pid = 4242, .tid = 4243, .ip = 0x1234,
				.regs = regs, .nregs = SAMPLE_NREGS, .stack = stack,
				.stack_len = sizeof(stack) };
	struct sample_rec lost = { .type = SREC_LOST, .lost = 5 };

	(void)state;
	regs[16] = 0x1234;	/* x86-64's pc; arm64 reads regs[32] */
	regs[32] = 0x1234;
	stackpipe_feed(p, &r);
	stackpipe_feed(p, &lost);
	assert_int_equal(seen.samples, 1);
	assert_int_equal(seen.stacks, 0);	/* unwound at the end, not while read */
	stackpipe_finish(p);
	assert_int_equal(seen.stacks, 1);
	assert_int_equal(seen.cookie, 77);
	assert_int_equal(seen.pid, 4242);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.pc, 0x1234);
	assert_int_equal(p->lost, 5);
	assert_null(stackpipe_symbolizer(p, 4242));
	stackpipe_release(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_later_wins),
		cmocka_unit_test(test_fork_copies),
		cmocka_unit_test(test_fork_out_of_order),
		cmocka_unit_test(test_exit_retires),
		cmocka_unit_test(test_bisection_many),
		cmocka_unit_test(test_samples_unknown_pid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
