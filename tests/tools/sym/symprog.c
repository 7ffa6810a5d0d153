/*
 * symprog: a program whose code the symbolizer's tests (tests/unit/
 * test_symbols.c) can name without trusting the symbolizer. Marks placed
 * inside its functions take the address of their own instruction and the
 * source line they are written on; the program prints one line per mark,
 * "NAME ADDRESS LINE", then "ready", and waits for end of file on stdin, so
 * that the test can read the mappings of a live process from /proc/PID/maps.
 *
 * The shapes a profiler meets are here: a static function of its own
 * (sp_leaf), a function forced inline into another (sp_square into sp_norm,
 * whose call line is printed as "call"), main, and calls into shared
 * libraries (cos in libm, qsort in libc, whose call back into us gives an
 * address inside libc: "qsort-ret").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The address of the instruction the mark is made of: it belongs to the
 * function (or inlined instance) the mark is written in. */
#if defined(__x86_64__)
#define HERE(p) __asm__ volatile("1: lea 1b(%%rip), %0" : "=r"(p))
#elif defined(__aarch64__)
#define HERE(p) __asm__ volatile("1: adr %0, 1b" : "=r"(p))
#else
#error "symprog knows how to take an instruction's address on x86-64 and arm64 only"
#endif

struct mark {
	const char *name;
	void *addr;
	int line;
};

static struct mark marks[16];
static int nmarks;

static __attribute__((noinline)) void mark(const char *name, void *addr, int line)
{
	for (int i = 0; i < nmarks; i++)
		if (marks[i].addr == addr && marks[i].line == line)
			return;	/* a loop passes a mark more than once */
	if (nmarks < (int)(sizeof(marks) / sizeof(marks[0])))
		marks[nmarks++] = (struct mark){ name, addr, line };
}

/* One line, so that __LINE__ is the line of the instruction. */
#define MARK(name) do { void *p_; HERE(p_); mark(name, p_, __LINE__); } while (0)

static inline __attribute__((always_inline)) double sp_square(double x)
{
	MARK("square");
	return x * x;
}

static __attribute__((noinline)) double sp_norm(const double *v, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++) {
		s += sp_square(v[i]); mark("call", NULL, __LINE__);
	}
	return sqrt(s);
}

static __attribute__((noinline)) long sp_leaf(long n)
{
	long acc = 0;

	MARK("leaf");
	for (long i = 0; i < n; i++)
		acc = acc * 31 + i;
	return acc;
}

static void *qsort_ret;

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	if (!qsort_ret)
		qsort_ret = __builtin_return_address(0);
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double (*volatile fcos)(double) = cos;
	double v[3] = { 1, 2, (double)argc };
	int keys[4] = { 3, 1, 2, 0 };
	double r;

	(void)argv;
	MARK("main");
	r = sp_norm(v, 3) + (double)sp_leaf(argc) + fcos(0.5);
	qsort(keys, 4, sizeof(keys[0]), by_value);
	for (int i = 0; i < nmarks; i++)
		printf("%s %p %d\n", marks[i].name, marks[i].addr, marks[i].line);
	printf("cos %p 0\nqsort %p 0\nqsort-ret %p 0\n", (void *)cos, (void *)qsort, qsort_ret);
	printf("ready %d\n", r > 0 && keys[0] == 0);
	fflush(stdout);
	while (getchar() != EOF)
		;
	return 0;
}
