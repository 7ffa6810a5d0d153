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
 * Call sites (when PMUSTAT_COUNT_SITES names a frame count, in pmustat's
 * untimed "traced" runs): each allocating call also takes its stack with
 * glibc's backtrace() (libgcc's unwinder, which reads .eh_frame, so
 * programs without frame pointers unwind too) and adds its calls, bytes and
 * temporaries to a fixed-size, lock-free table keyed by the stack's hash.
 * A temporary is heaptrack's: an allocation whose free is the very next
 * heap event (no allocation or free in between) — heaptrack's README
 * ("allocations that are directly followed by their deallocation") and its
 * analyser (AccumulatedTraceData: a '-' is temporary when it frees the
 * allocation of the last '+', and any '-' clears that). heaptrack keeps one
 * event stream per process; the shim keeps it per thread, so that another
 * thread's allocation does not hide a temporary (single-threaded programs
 * get the same answer). realloc is a free of its argument followed by an
 * allocation, as heaptrack records it. The unwinder is loaded and primed
 * in the constructor, so that no dlopen() happens inside malloc, and a
 * per-thread flag keeps the shim from tracing its own allocations.
 *
 * Built without sanitizers and without pmustat's library: it runs inside
 * other people's programs and must not bring anything into them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
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

/* ---- call sites ----------------------------------------------------------- */

#define SITE_SLOTS CC_SITE_SLOTS	/* power of two: 16 K distinct stacks */
#define SITE_PROBES 64		/* linear probes before a stack is given up */
#define TLS __attribute__((tls_model("initial-exec"))) static __thread

struct site {
	_Atomic uint64_t key;	/* the stack's hash, never 0; 0 = free slot */
	_Atomic int ready;	/* frames written */
	uint32_t nframes;
	uint64_t frames[CALLCOUNT_MAX_FRAMES];
	_Atomic uint64_t calls, bytes, temps;
};

static struct site sites[SITE_SLOTS];
static int site_depth;			/* frames per site; 0 = no sites */
static _Atomic uint64_t unsited;	/* allocating calls not placed in the table */
static uintptr_t self_lo, self_hi;	/* the shim's own code */
static int (*unwind)(void **, int);	/* unw_backtrace, else glibc's backtrace */

TLS int in_hook;		/* this thread is inside the shim's unwinding */
TLS void *last_ptr;		/* this thread's last allocation, if nothing since */
TLS struct site *last_site;

static int in_self(const void *a)
{
	return (uintptr_t)a >= self_lo && (uintptr_t)a < self_hi;
}

static uint64_t hash_frames(const uint64_t *f, int n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull * (uint64_t)(n + 1);

	for (int i = 0; i < n; i++) {
		h = (h ^ f[i]) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h | 1;
}

/* The slot of this stack, claimed if new; NULL when the table is full. */
static struct site *site_find(const uint64_t *f, int n)
{
	uint64_t h = hash_frames(f, n);

	for (uint64_t p = 0; p < SITE_PROBES; p++) {
		struct site *s = &sites[(h + p) & (SITE_SLOTS - 1)];
		uint64_t k = atomic_load_explicit(&s->key, memory_order_acquire);

		if (k == 0) {
			if (atomic_compare_exchange_strong(&s->key, &k, h)) {
				s->nframes = (uint32_t)n;
				memcpy(s->frames, f, (size_t)n * sizeof(*f));
				atomic_store_explicit(&s->ready, 1, memory_order_release);
				return s;
			}
		}
		if (k != h)
			continue;
		while (!atomic_load_explicit(&s->ready, memory_order_acquire))
			;	/* another thread is writing the frames */
		if (s->nframes == (uint32_t)n && !memcmp(s->frames, f, (size_t)n * sizeof(*f)))
			return s;
	}
	return NULL;
}

/* The call site of the allocation function that called us: its stack
 * without the shim's own frames. */
static struct site *caller_site(void)
{
	void *buf[CALLCOUNT_MAX_FRAMES + 4];
	uint64_t f[CALLCOUNT_MAX_FRAMES];
	int n, i = 0, k = 0;

	in_hook = 1;
	n = unwind(buf, site_depth + 4);
	in_hook = 0;
	while (i < n && in_self(buf[i]))
		i++;
	for (; i < n && k < site_depth; i++)
		f[k++] = (uint64_t)(uintptr_t)buf[i];
	return k ? site_find(f, k) : NULL;
}

/* After an allocating call returned p for n bytes. */
static void note_alloc(void *p, size_t n)
{
	struct site *s;

	if (!site_depth)
		return;
	if (in_hook) {
		atomic_fetch_add_explicit(&unsited, 1, memory_order_relaxed);
		return;
	}
	s = caller_site();
	if (s) {
		atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->bytes, n, memory_order_relaxed);
	} else {
		atomic_fetch_add_explicit(&unsited, 1, memory_order_relaxed);
	}
	last_ptr = p;
	last_site = s;
}

/* Before p is freed (free, or realloc of p). */
static void note_free(void *p)
{
	if (!site_depth || in_hook || !p)
		return;
	if (p == last_ptr && last_site)
		atomic_fetch_add_explicit(&last_site->temps, 1, memory_order_relaxed);
	last_ptr = NULL;
	last_site = NULL;
}

struct self_find {
	uintptr_t addr, lo, hi;
};

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	struct self_find *sf = data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && sf->addr >= lo && sf->addr < hi) {
			sf->lo = lo;
			sf->hi = hi;
			return 1;
		}
	}
	return 0;
}

/*
 * The unwinder: libunwind's unw_backtrace when libunwind.so.8 is installed
 * (Debian libunwind8, which heaptrack uses too), because it caches what it
 * learned of each return address and is several times faster per call than
 * libgcc's, which interprets the .eh_frame rules anew for every frame; else
 * glibc's backtrace() (libgcc). PMUSTAT_COUNT_UNWINDER=libgcc picks the
 * latter (bench/allocsites.sh compares them).
 */
static void choose_unwinder(void)
{
	const char *want = getenv("PMUSTAT_COUNT_UNWINDER");
	void *h = want && !strcmp(want, "libgcc") ? NULL
						  : dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);

	if (h)
		*(void **)&unwind = dlsym(h, "unw_backtrace");
	if (!unwind)
		unwind = backtrace;
}

/* Turn on call sites: find our own code, and load the unwinder now (its
 * first use dlopen()s libgcc_s or fills caches, which must not happen
 * inside the program's malloc). */
static void sites_init(const char *v)
{
	struct self_find sf = { (uintptr_t)&sites_init, 0, 0 };
	void *prime[4];
	long d = v ? strtol(v, NULL, 10) : 0;

	if (d < 1)
		return;
	dl_iterate_phdr(find_self, &sf);
	self_lo = sf.lo;
	self_hi = sf.hi;
	in_hook = 1;
	choose_unwinder();
	unwind(prime, 4);
	in_hook = 0;
	site_depth = d > CALLCOUNT_MAX_FRAMES ? CALLCOUNT_MAX_FRAMES : (int)d;
}

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

/* One record, in one write(): O_APPEND keeps it whole among other
 * processes' records. */
static void put(int fd, const void *rec, size_t len)
{
	const char *p = rec;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		len -= (size_t)w;
	}
}

static void header(struct callcount_hdr *h, enum callcount_rec_kind kind, size_t size)
{
	h->magic = CALLCOUNT_MAGIC;
	h->version = CALLCOUNT_VERSION;
	h->kind = (uint16_t)kind;
	h->pid = (int32_t)getpid();
	h->size = (uint32_t)size;
}

static void put_sites(int fd)
{
	for (size_t i = 0; i < SITE_SLOTS; i++) {
		struct site *s = &sites[i];
		struct callcount_site_rec r;

		if (!atomic_load(&s->key) || !atomic_load(&s->ready))
			continue;
		memset(&r, 0, sizeof(r));
		header(&r.h, CC_REC_SITE, sizeof(r));
		r.calls = atomic_exchange(&s->calls, 0);
		r.bytes = atomic_exchange(&s->bytes, 0);
		r.temps = atomic_exchange(&s->temps, 0);
		r.nframes = s->nframes;
		memcpy(r.frames, s->frames, sizeof(r.frames));
		if (r.calls)
			put(fd, &r, sizeof(r));
	}
}

static int put_object_maps(struct dl_phdr_info *info, size_t size, void *data)
{
	static char buf[sizeof(struct callcount_map_rec) + PATH_MAX + 8];
	struct callcount_map_rec *r = (struct callcount_map_rec *)buf;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int fd = *(int *)data;
	size_t len;

	(void)size;
	memset(buf, 0, sizeof(buf));
	if (info->dlpi_name && info->dlpi_name[0] == '/') {
		len = strlen(info->dlpi_name);
		if (len >= PATH_MAX)
			return 0;
		memcpy(r->path, info->dlpi_name, len);
	} else if (!info->dlpi_name || !info->dlpi_name[0]) {
		/* The program itself (the loader names it ""). */
		ssize_t n = readlink("/proc/self/exe", r->path, PATH_MAX - 1);

		if (n <= 0)
			return 0;
		len = (size_t)n;
	} else {
		return 0;	/* the vDSO: no file to read */
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		r->start = start & ~(page - 1);
		r->end = start + ph->p_memsz;
		r->pgoff = ph->p_offset & ~(uint64_t)(page - 1);
		header(&r->h, CC_REC_MAP, (sizeof(*r) + len + 1 + 7) & ~(size_t)7);
		put(fd, r, r->h.size);
	}
	return 0;
}

static void report(enum callcount_rec_kind kind)
{
	struct callcount_record r;
	int saved = errno, fd;

	memset(&r, 0, sizeof(r));
	header((struct callcount_hdr *)&r, kind, sizeof(r));
	r.nslots = CC_NSLOTS;
	/* Exchange, not read: whatever is reported is reported once, even if
	 * a vfork child (sharing our memory) reports before exec. */
	if (kind != CC_REC_START)
		for (int i = 0; i < CC_NSLOTS; i++)
			r.counts[i] = atomic_exchange(&counts[i], 0);
	/* The program can have put a FIFO or a link in the file's place: the
	 * report is lost (pmustat counts the image as lost), the program is
	 * not held up and writes nowhere else. */
	fd = report_path[0] ? open(report_path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK |
				   O_NOFOLLOW) : -1;
	if (fd >= 0 && kind != CC_REC_START && site_depth) {
		in_hook++;
		r.unsited = atomic_exchange(&unsited, 0);
		r.flags = unwind != backtrace ? CC_FLAG_LIBUNWIND : 0;
		put_sites(fd);
		dl_iterate_phdr(put_object_maps, &fd);
		in_hook--;
	}
	if (fd >= 0) {
		put(fd, &r, sizeof(r));
		close(fd);
	}
	errno = saved;
}

/* A forked child starts with a copy of the parent's unreported counts:
 * they are the parent's to report. */
static void after_fork_child(void)
{
	for (int i = 0; i < CC_NSLOTS; i++)
		atomic_store(&counts[i], 0);
	for (size_t i = 0; site_depth && i < SITE_SLOTS; i++) {
		atomic_store(&sites[i].calls, 0);
		atomic_store(&sites[i].bytes, 0);
		atomic_store(&sites[i].temps, 0);
	}
	atomic_store(&unsited, 0);
	report(CC_REC_START);
}

__attribute__((constructor)) static void count_init(void)
{
	const char *v = getenv(CALLCOUNT_FILE_ENV);

	ready();
	if (!v || !*v || strlen(v) >= sizeof(report_path))
		return;
	memcpy(report_path, v, strlen(v) + 1);
	sites_init(getenv(CALLCOUNT_SITES_ENV));
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
	void *p;

	if (!ready())
		return arena_alloc(n, 16);
	count(CC_MALLOC);
	p = real_malloc(n);
	note_alloc(p, n);
	return p;
}

EXPORT void *calloc(size_t n, size_t size)
{
	void *p;

	if (!ready()) {
		/* The arena is static storage, so it is already zeroed. */
		if (size && n > SIZE_MAX / size)
			return NULL;
		return arena_alloc(n * size, 16);
	}
	count(CC_CALLOC);
	p = real_calloc(n, size);
	note_alloc(p, n * size);
	return p;
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
	note_free(p);
	q = real_realloc(p, n);
	note_alloc(q, n);
	return q;
}

EXPORT void free(void *p)
{
	if (p && in_arena(p))
		return;
	if (!ready())
		return;		/* cannot happen: nothing but the arena allocated yet */
	count(CC_FREE);
	note_free(p);
	real_free(p);
}

EXPORT void *aligned_alloc(size_t align, size_t n)
{
	void *p;

	if (!ready())
		return arena_alloc(n, align);
	count(CC_ALIGNED_ALLOC);
	p = real_aligned_alloc(align, n);
	note_alloc(p, n);
	return p;
}

EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
	int rc;

	if (!ready()) {
		*out = arena_alloc(n, align);
		return *out ? 0 : ENOMEM;
	}
	count(CC_POSIX_MEMALIGN);
	rc = real_posix_memalign(out, align, n);
	note_alloc(rc ? NULL : *out, n);
	return rc;
}

EXPORT void *memalign(size_t align, size_t n)
{
	void *p;

	if (!ready())
		return arena_alloc(n, align);
	count(CC_MEMALIGN);
	p = real_memalign(align, n);
	note_alloc(p, n);
	return p;
}

EXPORT void *valloc(size_t n)
{
	void *p;

	if (!ready())
		return arena_alloc(n, 4096);
	count(CC_VALLOC);
	p = real_valloc(n);
	note_alloc(p, n);
	return p;
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
