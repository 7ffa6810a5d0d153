/*
 * allocn: a program whose allocation calls are known exactly, for the call
 * counter tests (tests/unit/test_callcount.c).
 *
 *   allocn N [MODES]   MODES: a comma list of
 *     all    also call aligned_alloc, posix_memalign, memalign, valloc
 *     fork   a forked child does the N rounds too (inherited counting)
 *     child=K  first, a forked child makes K temporaries (malloc of 40
 *            bytes, freed at once) from the function child_temps and
 *            ends; the parent waits for it: a site only a child has
 *     thread a second thread does the N rounds too
 *     exec   after the rounds, exec itself for N more (counts across exec)
 *     _exit  end with _exit(0) instead of returning from main
 *     temps=K  also K temporaries (malloc of 24 bytes, freed at once) from
 *            the function extra_temps: the call-site tests' known answer
 *     hop    move to the next CPU it may run on every 10 rounds (the
 *            traced samples then land in several CPUs' buffers)
 *     edges  also, from the function edge_reallocs, realloc(NULL, 32) and
 *            realloc of that to 0 bytes (which frees it), then free(NULL):
 *            inside a static glibc the first calls malloc and the second
 *            free, calls that are realloc's, not the program's
 *     wait   first, read a byte from the file "go" of the working
 *            directory (a FIFO: the test decides when it goes on, and
 *            knows pmustat is in the middle of a run until then)
 *
 * One round is malloc, calloc, realloc, free, free (+ 4 allocations and 4
 * frees with `all`). The functions are called through volatile pointers so
 * that the compiler can neither elide a malloc/free pair nor fold calloc
 * into malloc: every call in the source is a call at run time. The program
 * uses no stdio, whose buffers would add allocations of their own.
 */
#include <pthread.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *(*volatile p_malloc)(size_t) = malloc;
static void *(*volatile p_calloc)(size_t, size_t) = calloc;
static void *(*volatile p_realloc)(void *, size_t) = realloc;
static void (*volatile p_free)(void *) = free;
static void *(*volatile p_aligned_alloc)(size_t, size_t) = aligned_alloc;
static int (*volatile p_posix_memalign)(void **, size_t, size_t) = posix_memalign;
static void *(*volatile p_valloc)(size_t) = valloc;

extern void *memalign(size_t, size_t);
static void *(*volatile p_memalign)(size_t, size_t) = memalign;

static int hop;

/* The next CPU of the ones this process may run on, after cpu. */
static void hop_cpu(long round)
{
	static cpu_set_t allowed;
	static int have;
	cpu_set_t one;
	int n, k;

	if (!have && sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
		have = 1;
	if (!have || (n = CPU_COUNT(&allowed)) < 2)
		return;
	k = (int)(round / 10 % n);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || k--)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		return;
	}
}

static void rounds(long n, int all)
{
	for (long i = 0; i < n; i++) {
		void *a, *b, *c = NULL;

		if (hop && i % 10 == 0)
			hop_cpu(i);
		a = p_malloc(16);
		b = p_calloc(1, 16);

		a = p_realloc(a, 64);
		p_free(a);
		p_free(b);
		if (!all)
			continue;
		p_free(p_aligned_alloc(64, 64));
		if (p_posix_memalign(&c, 64, 64) == 0)
			p_free(c);
		p_free(p_memalign(64, 64));
		p_free(p_valloc(64));
	}
}

/* One named call site of K temporaries (heaptrack's sense: each freed
 * before the next heap call). */
__attribute__((noinline)) static void extra_temps(long k)
{
	for (long i = 0; i < k; i++)
		p_free(p_malloc(24));
}

/* realloc's edges, once per round: 2 allocating calls (32 bytes, then 0),
 * the first a temporary (realloc to 0 bytes frees it at once). */
__attribute__((noinline)) static void edge_reallocs(long n)
{
	for (long i = 0; i < n; i++) {
		void *d = p_realloc(NULL, 32);

		d = p_realloc(d, 0);
		p_free(d);
	}
}

/* The forked child's own call site (child=K). */
__attribute__((noinline)) static void child_temps(long k)
{
	for (long i = 0; i < k; i++)
		p_free(p_malloc(40));
}

static long mode_value(const char *modes, const char *key)
{
	const char *p = strstr(modes, key);

	return p && (p == modes || p[-1] == ',') ? strtol(p + strlen(key), NULL, 10) : 0;
}

struct job {
	long n;
	int all;
};

static void *thread_main(void *arg)
{
	struct job *j = arg;

	rounds(j->n, j->all);
	return NULL;
}

static int has_mode(const char *modes, const char *m)
{
	size_t n = strlen(m);

	for (const char *p = modes; (p = strstr(p, m)); p += n)
		if ((p == modes || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	const char *modes = argc > 2 ? argv[2] : "";
	int all = has_mode(modes, "all");

	hop = has_mode(modes, "hop");
	if (has_mode(modes, "wait")) {
		int fd = open("go", O_RDONLY);
		char c;

		if (fd < 0 || read(fd, &c, 1) < 0)
			return 1;
		close(fd);
	}
	if (mode_value(modes, "child=") > 0) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			child_temps(mode_value(modes, "child="));
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}

	if (has_mode(modes, "fork")) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			rounds(n, all);
			exit(0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}
	if (has_mode(modes, "thread")) {
		struct job j = { n, all };
		pthread_t t;

		if (pthread_create(&t, NULL, thread_main, &j) || pthread_join(t, NULL))
			return 1;
	}
	rounds(n, all);
	extra_temps(mode_value(modes, "temps="));
	if (has_mode(modes, "edges"))
		edge_reallocs(n);
	if (has_mode(modes, "exec")) {
		char *args[] = { argv[0], argv[1], (char *)(all ? "all" : ""), NULL };

		execv("/proc/self/exe", args);
		return 127;
	}
	if (has_mode(modes, "_exit"))
		_exit(0);
	return 0;
}
