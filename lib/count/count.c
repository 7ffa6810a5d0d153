/*
 * libpmustat-count.so: counts calls of the allocation functions by LD_PRELOAD
 * interposition, for hosts where pmustat may not place uprobes (no
 * CAP_PERFMON, or a kernel without the uprobe PMU). Every interposed
 * function adds one to a per-process atomic counter and forwards to the next
 * definition in the loader's search order (RTLD_NEXT: libc's, or an
 * allocator the program brings), so the program's behaviour is unchanged.
 * Counts go to the parent through the file named by PMUSTAT_COUNT_FILE, in
 * the records of src/backend/callcount_abi.h.
 *
 * What interposition cannot see, by construction: statically linked
 * programs (no dynamic loader), setuid/setgid or file-capability programs
 * (the loader ignores LD_PRELOAD paths in secure mode), calls a library
 * makes to its own functions without going through the symbol, and children
 * whose environment drops LD_PRELOAD. pmustat refuses the first two itself.
 *
 * Built without sanitizers and without pmustat's library: it runs inside
 * other people's programs and must not bring anything into them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "backend/callcount_abi.h"

#define EXPORT __attribute__((visibility("default")))

static _Atomic uint64_t counts[CC_NSLOTS];

/* Copied at load time: the program may change its environment later. */
static char report_path[PATH_MAX];

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static void *(*real_aligned_alloc)(size_t, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_valloc)(size_t);
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execv)(const char *, char *const[]);
static int (*real_execvp)(const char *, char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static int (*real_fexecve)(int, char *const[], char *const[]);
static void (*real_exit_)(int);

/* ---- bootstrap: allocations made while dlsym() looks the real ones up --- */

/*
 * dlsym() may allocate, and the allocator it would call is ours: those few
 * requests are served from a static arena, never freed and never counted
 * (they are the shim's, not the program's). Each block carries its size in
 * a 16-byte header so that realloc can copy it out.
 */
#define ARENA_SIZE (64 * 1024)
static _Alignas(64) unsigned char arena[ARENA_SIZE];
static _Atomic size_t arena_used;

enum { UNRESOLVED, RESOLVING, RESOLVED };
static _Atomic int state;

static int in_arena(const void *p)
{
	return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + ARENA_SIZE;
}

static void *arena_alloc(size_t size, size_t align)
{
	size_t old = atomic_load(&arena_used), start, end;

	if (align < 16)
		align = 16;
	do {
		start = (old + 16 + align - 1) & ~(align - 1);
		end = start + size;
		if (end > ARENA_SIZE || end < start)
			return NULL;
	} while (!atomic_compare_exchange_weak(&arena_used, &old, end));
	memcpy(arena + start - sizeof(size_t), &size, sizeof(size_t));
	return arena + start;
}

static size_t arena_size(const void *p)
{
	size_t n;

	memcpy(&n, (const unsigned char *)p - sizeof(size_t), sizeof(size_t));
	return n;
}

#define LOOKUP(var, name) (*(void **)&(var) = dlsym(RTLD_NEXT, name))

static void resolve_all(void)
{
	LOOKUP(real_malloc, "malloc");
	LOOKUP(real_calloc, "calloc");
	LOOKUP(real_realloc, "realloc");
	LOOKUP(real_free, "free");
	LOOKUP(real_aligned_alloc, "aligned_alloc");
	LOOKUP(real_posix_memalign, "posix_memalign");
	LOOKUP(real_memalign, "memalign");
	LOOKUP(real_valloc, "valloc");
	LOOKUP(real_execve, "execve");
	LOOKUP(real_execv, "execv");
	LOOKUP(real_execvp, "execvp");
	LOOKUP(real_execvpe, "execvpe");
	LOOKUP(real_fexecve, "fexecve");
	LOOKUP(real_exit_, "_exit");
}

/* 1 when the real functions can be called; 0 while they are being looked
 * up (by this or another thread: then the arena serves). */
static int ready(void)
{
	int expect = UNRESOLVED;

	if (atomic_load_explicit(&state, memory_order_acquire) == RESOLVED)
		return 1;
	if (!atomic_compare_exchange_strong(&state, &expect, RESOLVING))
		return atomic_load(&state) == RESOLVED;
	resolve_all();
	atomic_store_explicit(&state, RESOLVED, memory_order_release);
	return 1;
}

static void count(enum callcount_slot s)
{
	atomic_fetch_add_explicit(&counts[s], 1, memory_order_relaxed);
}

/* ---- reporting --------------------------------------------------------- */

static void report(enum callcount_rec_kind kind)
{
	struct callcount_record r;
	const char *p = (const char *)&r;
	size_t left = sizeof(r);
	int saved = errno, fd;

	memset(&r, 0, sizeof(r));
	r.magic = CALLCOUNT_MAGIC;
	r.version = CALLCOUNT_VERSION;
	r.kind = (uint16_t)kind;
	r.pid = (int32_t)getpid();
	r.nslots = CC_NSLOTS;
	/* Exchange, not read: whatever is reported is reported once, even if
	 * a vfork child (sharing our memory) reports before exec. */
	if (kind != CC_REC_START)
		for (int i = 0; i < CC_NSLOTS; i++)
			r.counts[i] = atomic_exchange(&counts[i], 0);
	fd = report_path[0] ? open(report_path, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
	while (fd >= 0 && left) {
		ssize_t w = write(fd, p, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		left -= (size_t)w;
	}
	if (fd >= 0)
		close(fd);
	errno = saved;
}

/* A forked child starts with a copy of the parent's unreported counts:
 * they are the parent's to report. */
static void after_fork_child(void)
{
	for (int i = 0; i < CC_NSLOTS; i++)
		atomic_store(&counts[i], 0);
	report(CC_REC_START);
}

__attribute__((constructor)) static void count_init(void)
{
	const char *v = getenv(CALLCOUNT_FILE_ENV);

	ready();
	if (!v || !*v || strlen(v) >= sizeof(report_path))
		return;
	memcpy(report_path, v, strlen(v) + 1);
	pthread_atfork(NULL, NULL, after_fork_child);
	report(CC_REC_START);
}

__attribute__((destructor)) static void count_fini(void)
{
	report(CC_REC_EXIT);
}

/* ---- the interposed allocation functions ------------------------------- */

EXPORT void *malloc(size_t n)
{
	if (!ready())
		return arena_alloc(n, 16);
	count(CC_MALLOC);
	return real_malloc(n);
}

EXPORT void *calloc(size_t n, size_t size)
{
	if (!ready()) {
		/* The arena is static storage, so it is already zeroed. */
		if (size && n > SIZE_MAX / size)
			return NULL;
		return arena_alloc(n * size, 16);
	}
	count(CC_CALLOC);
	return real_calloc(n, size);
}

EXPORT void *realloc(void *p, size_t n)
{
	void *q;

	if (!ready() || (p && in_arena(p))) {
		q = ready() ? real_malloc(n) : arena_alloc(n, 16);
		if (q && p)
			memcpy(q, p, arena_size(p) < n ? arena_size(p) : n);
		return q;
	}
	count(CC_REALLOC);
	return real_realloc(p, n);
}

EXPORT void free(void *p)
{
	if (p && in_arena(p))
		return;
	if (!ready())
		return;		/* cannot happen: nothing but the arena allocated yet */
	count(CC_FREE);
	real_free(p);
}

EXPORT void *aligned_alloc(size_t align, size_t n)
{
	if (!ready())
		return arena_alloc(n, align);
	count(CC_ALIGNED_ALLOC);
	return real_aligned_alloc(align, n);
}

EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
	if (!ready()) {
		*out = arena_alloc(n, align);
		return *out ? 0 : ENOMEM;
	}
	count(CC_POSIX_MEMALIGN);
	return real_posix_memalign(out, align, n);
}

EXPORT void *memalign(size_t align, size_t n)
{
	if (!ready())
		return arena_alloc(n, align);
	count(CC_MEMALIGN);
	return real_memalign(align, n);
}

EXPORT void *valloc(size_t n)
{
	if (!ready())
		return arena_alloc(n, 4096);
	count(CC_VALLOC);
	return real_valloc(n);
}

/* ---- the ends of a process image --------------------------------------- */

/* exec replaces the image without running destructors: report first. If
 * exec fails, counting simply goes on and the rest is reported at exit. */
EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	ready();
	report(CC_REC_EXEC);
	return real_execve(path, argv, envp);
}

EXPORT int execv(const char *path, char *const argv[])
{
	ready();
	report(CC_REC_EXEC);
	return real_execv(path, argv);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	ready();
	report(CC_REC_EXEC);
	return real_execvp(file, argv);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	ready();
	report(CC_REC_EXEC);
	return real_execvpe(file, argv, envp);
}

EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	ready();
	report(CC_REC_EXEC);
	return real_fexecve(fd, argv, envp);
}

/* execl and friends take their arguments as varargs: gather them into an
 * argv on the stack and go through the execv* versions above. */
#define GATHER_ARGS(first, argv, extra)                                       \
	size_t n_ = 1;                                                        \
	va_list ap_;                                                          \
	va_start(ap_, first);                                                 \
	while (va_arg(ap_, char *))                                           \
		n_++;                                                         \
	va_end(ap_);                                                          \
	char *argv[n_ + 1];                                                   \
	argv[0] = (char *)(first);                                            \
	va_start(ap_, first);                                                 \
	for (size_t i_ = 1; i_ <= n_; i_++)                                   \
		argv[i_] = va_arg(ap_, char *);                               \
	extra;                                                                \
	va_end(ap_)

EXPORT int execl(const char *path, const char *arg, ...)
{
	GATHER_ARGS(arg, argv, (void)0);
	return execv(path, argv);
}

EXPORT int execlp(const char *file, const char *arg, ...)
{
	GATHER_ARGS(arg, argv, (void)0);
	return execvp(file, argv);
}

EXPORT int execle(const char *path, const char *arg, ...)
{
	char *const *envp;

	GATHER_ARGS(arg, argv, envp = va_arg(ap_, char *const *));
	return execve(path, argv, envp);
}

EXPORT void _exit(int status)
{
	ready();
	report(CC_REC_EXIT);
	real_exit_(status);
	__builtin_unreachable();
}

EXPORT void _Exit(int status)
{
	_exit(status);
}
