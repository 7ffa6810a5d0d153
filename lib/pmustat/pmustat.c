/*
 * libpmustat's markers (include/pmustat.h). The process decides once, at
 * load time, whether it measures: under `pmustat stat/compare` (the tool set
 * PMUSTAT_REGION_FD or _PATH, and PMUSTAT_REGION_ATTRS) or standalone (PMUSTAT_EVENTS),
 * else every marker returns after one load and compare.
 *
 * When measuring, each thread opens its own counters on its first marker
 * and keeps per-region accumulators in chunks that never move, so the
 * owner updates them without locks (relaxed atomic stores, plain moves on
 * x86) while the exit-time merge may read them from another thread. Region
 * names map to small ids through one locked table; a per-thread cache keyed
 * by the name pointer (confirmed with strcmp, since a caller may reuse a
 * buffer) keeps the name form off that lock. Totals are merged when a
 * thread exits and, for threads still alive, when the process exits; then
 * one JSON line is written (lib/pmustat/protocol.h, docs/regions.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmustat.h"
#include "lib.h"

#define CHUNK 32
#define NCHUNK (PMUSTAT_MAX_REGIONS / CHUNK)
#define NCACHE 64
#define NINDEX (2 * PMUSTAT_MAX_REGIONS)

#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

enum { ST_UNINIT, ST_OFF, ST_ON };

/* Words of one region slot (per thread, and for the totals): a header, then
 * the readings at the outermost enter (3 words per event, struct
 * pm_reading), then the accumulated differences (3 words per event). */
enum { S_COUNT, S_DEPTH, S_UNBAL, S_BAD, S_THREADS, S_HDR };

struct pmustat_region_s {
	int id;
};

struct tstate {
	struct tstate *next;
	struct pm_counters cs;
	uint64_t *chunk[NCHUNK];	/* published with release: the merge reads them */
	struct {
		const char *ptr;
		int id;
	} cache[NCACHE];
};

static struct {
	int state;
	pthread_once_t once;
	pthread_mutex_t lock;
	pthread_key_t key;
	int tool;			/* 1: under pmustat, report to out_fd */
	int out_fd;			/* tool mode: our private report descriptor */
	dev_t out_dev;			/* ... and what it must still be at exit */
	ino_t out_ino;
	char *out_path;			/* standalone: PMUSTAT_OUTPUT, or NULL for stderr */
	char config_error[160];		/* tool mode: the hand-off was malformed */
	int forked;			/* this process is a fork of the one that loaded us */
	struct pm_event_list ev;
	size_t slot_words;

	/* under lock (names/handles also readable once their id is known) */
	char *names[PMUSTAT_MAX_REGIONS];
	struct pmustat_region_s handles[PMUSTAT_MAX_REGIONS];
	int nregions;
	short index[NINDEX];		/* open addressing: id + 1, 0 = empty */
	uint64_t dropped;		/* entries of regions past the limit */
	struct tstate *live;
	uint64_t *total[NCHUNK];
	uint64_t threads, read_errors;
	uint64_t opened[PMUSTAT_MAX_EVENTS], failed[PMUSTAT_MAX_EVENTS];
	int first_errno[PMUSTAT_MAX_EVENTS], user_only[PMUSTAT_MAX_EVENTS];
	int rdpmc[PMUSTAT_MAX_EVENTS];
} g = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER, .out_fd = -1 };

static __thread struct tstate *t_self __attribute__((tls_model("initial-exec")));

static void init(void);

static int state(void)
{
	int s = LOAD(&g.state);

	if (UNLIKELY(s == ST_UNINIT)) {
		pthread_once(&g.once, init);
		s = LOAD(&g.state);
	}
	return s;
}

__attribute__((constructor)) static void pmustat_load(void)
{
	pthread_once(&g.once, init);
}

/* ---- region names -> ids ---- */

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The id of region name, created if new; -1 past the limit or out of memory. */
static int region_id(const char *name)
{
	uint32_t h = hash(name) % NINDEX;
	int id = -1;

	pthread_mutex_lock(&g.lock);
	for (; g.index[h]; h = (h + 1) % NINDEX)
		if (!strcmp(g.names[g.index[h] - 1], name)) {
			id = g.index[h] - 1;
			goto out;
		}
	if (g.nregions == PMUSTAT_MAX_REGIONS || !(g.names[g.nregions] = strdup(name))) {
		g.dropped++;
		goto out;
	}
	id = g.nregions++;
	g.handles[id].id = id;
	g.index[h] = (short)(id + 1);
out:
	pthread_mutex_unlock(&g.lock);
	return id;
}

static int cached_id(struct tstate *t, const char *name)
{
	unsigned c = (unsigned)(((uintptr_t)name >> 3) % NCACHE);
	int id;

	if (t->cache[c].ptr == name && !strcmp(g.names[t->cache[c].id], name))
		return t->cache[c].id;
	id = region_id(name);
	if (id >= 0) {
		t->cache[c].ptr = name;
		t->cache[c].id = id;
	}
	return id;
}

/* ---- per-thread state ---- */

static struct tstate *thread_start(void)
{
	struct tstate *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pmustat__counters_open(&t->cs, &g.ev);
	pthread_mutex_lock(&g.lock);
	t->next = g.live;
	g.live = t;
	pthread_mutex_unlock(&g.lock);
	pthread_setspecific(g.key, t);
	t_self = t;
	return t;
}

static uint64_t *slot_in(uint64_t **chunks, int id)
{
	uint64_t *c = chunks[id / CHUNK];

	if (!c) {
		c = calloc(CHUNK * g.slot_words, sizeof(uint64_t));
		if (!c)
			return NULL;
		__atomic_store_n(&chunks[id / CHUNK], c, __ATOMIC_RELEASE);
	}
	return c + (size_t)(id % CHUNK) * g.slot_words;
}

/* This thread's state, created on its first marker; NULL without memory. */
static struct tstate *me(void)
{
	struct tstate *t = t_self;

	return UNLIKELY(!t) ? thread_start() : t;
}

/* This thread's slot for region id, or NULL. */
static uint64_t *my_slot(int id)
{
	struct tstate *t = me();

	return t ? slot_in(t->chunk, id) : NULL;
}

static int read_now(struct pm_reading *r)
{
	return pmustat__counters_read(&t_self->cs, r);
}

static void enter(int id)
{
	uint64_t *s = my_slot(id), d;

	if (!s)
		return;
	d = s[S_DEPTH];
	STORE(&s[S_DEPTH], d + 1);
	if (d == 0)
		STORE(&s[S_BAD], (uint64_t)(read_now((struct pm_reading *)(s + S_HDR)) != 0));
}

static void leave(int id)
{
	struct pm_reading now[PMUSTAT_MAX_EVENTS];
	const struct pm_reading *start;
	uint64_t *s = my_slot(id), *acc, d;
	int n = g.ev.n;

	if (!s)
		return;
	d = s[S_DEPTH];
	if (d == 0) {
		STORE(&s[S_UNBAL], s[S_UNBAL] + 1);
		return;
	}
	if (d == 1 && !read_now(now) && !s[S_BAD]) {
		start = (const struct pm_reading *)(s + S_HDR);
		acc = s + S_HDR + 3 * n;
		for (int k = 0; k < n; k++) {
			if (t_self->cs.fd[k] < 0)
				continue;
			STORE(&acc[3 * k], acc[3 * k] + (now[k].value - start[k].value));
			STORE(&acc[3 * k + 1], acc[3 * k + 1] + (now[k].enabled - start[k].enabled));
			STORE(&acc[3 * k + 2], acc[3 * k + 2] + (now[k].running - start[k].running));
		}
	}
	STORE(&s[S_DEPTH], d - 1);
	STORE(&s[S_COUNT], s[S_COUNT] + 1);
}

/* ---- merging and the report ---- */

/* Add thread t's counts to the totals (lock held). */
static void merge(const struct tstate *t)
{
	int n = g.ev.n;

	g.threads++;
	g.read_errors += t->cs.read_errors;
	for (int k = 0; k < n; k++) {
		if (t->cs.fd[k] >= 0)
			g.opened[k]++;
		else if (!g.failed[k]++)
			g.first_errno[k] = t->cs.err[k];
		g.user_only[k] |= t->cs.user_only[k];
		g.rdpmc[k] |= t->cs.user_read[k];
	}
	for (int id = 0; id < g.nregions; id++) {
		const uint64_t *c = __atomic_load_n(&t->chunk[id / CHUNK], __ATOMIC_ACQUIRE), *s;
		uint64_t *tot;

		if (!c)
			continue;
		s = c + (size_t)(id % CHUNK) * g.slot_words;
		if (!LOAD(&s[S_COUNT]) && !LOAD(&s[S_UNBAL]) && !LOAD(&s[S_DEPTH]))
			continue;
		if (!(tot = slot_in(g.total, id)))
			continue;
		tot[S_COUNT] += LOAD(&s[S_COUNT]);
		tot[S_UNBAL] += LOAD(&s[S_UNBAL]);
		tot[S_DEPTH] += LOAD(&s[S_DEPTH]);
		tot[S_THREADS]++;
		for (size_t w = S_HDR + 3 * (size_t)n; w < g.slot_words; w++)
			if (t->cs.fd[(w - S_HDR - 3 * n) / 3] >= 0)
				tot[w] += LOAD(&s[w]);
	}
}

static void thread_free(struct tstate *t)
{
	pmustat__counters_close(&t->cs);
	for (int c = 0; c < NCHUNK; c++)
		free(t->chunk[c]);
	free(t);
}

/* Key destructor: a thread that used markers is exiting. */
static void thread_exit(void *p)
{
	struct tstate *t = p, **pp;

	pthread_mutex_lock(&g.lock);
	for (pp = &g.live; *pp && *pp != t; pp = &(*pp)->next)
		;
	if (*pp) {
		*pp = t->next;
		if (LOAD(&g.state) == ST_ON)
			merge(t);
	}
	pthread_mutex_unlock(&g.lock);
	t_self = NULL;
	thread_free(t);
}

static void json_key(struct pm_buf *b, const char *key, uint64_t v)
{
	pmustat__buf_adds(b, ",\"");
	pmustat__buf_adds(b, key);
	pmustat__buf_adds(b, "\":");
	pmustat__buf_u64(b, v);
}

static void json_event(struct pm_buf *b, int k)
{
	const struct pm_event *ev = &g.ev.ev[k];
	char cfg[24];

	snprintf(cfg, sizeof(cfg), "0x%llx", (unsigned long long)ev->attr.config);
	pmustat__buf_adds(b, k ? ",{\"name\":" : "{\"name\":");
	pmustat__buf_json_str(b, ev->name);
	json_key(b, "type", ev->attr.type);
	pmustat__buf_adds(b, ",\"config\":\"");
	pmustat__buf_adds(b, cfg);
	pmustat__buf_adds(b, g.rdpmc[k] ? "\",\"read\":\"rdpmc\"" : "\",\"read\":\"read\"");
	pmustat__buf_adds(b, g.user_only[k] ? ",\"user_only\":true" : ",\"user_only\":false");
	json_key(b, "failed_threads", g.failed[k]);
	if (g.failed[k]) {
		pmustat__buf_adds(b, ",\"error\":");
		pmustat__buf_json_str(b, strerror(g.first_errno[k]));
	}
	pmustat__buf_adds(b, "}");
}

static void json_region(struct pm_buf *b, int id, const uint64_t *tot, int first)
{
	static const uint64_t zero[S_HDR];
	const uint64_t *acc;
	int n = g.ev.n;

	if (!tot)
		tot = zero;
	pmustat__buf_adds(b, first ? "{\"name\":" : ",{\"name\":");
	pmustat__buf_json_str(b, g.names[id]);
	json_key(b, "count", tot[S_COUNT]);
	json_key(b, "threads", tot[S_THREADS]);
	json_key(b, "unbalanced", tot[S_UNBAL]);
	json_key(b, "open", tot[S_DEPTH]);
	pmustat__buf_adds(b, ",\"counters\":[");
	for (int k = 0; k < n; k++) {
		acc = tot == zero ? NULL : tot + S_HDR + 3 * n + 3 * k;
		pmustat__buf_adds(b, k ? ",{\"event\":" : "{\"event\":");
		pmustat__buf_json_str(b, g.ev.ev[k].name);
		if (!g.opened[k]) {
			pmustat__buf_adds(b, ",\"value\":null}");
			continue;
		}
		json_key(b, "value", acc ? acc[0] : 0);
		json_key(b, "time_enabled", acc ? acc[1] : 0);
		json_key(b, "time_running", acc ? acc[2] : 0);
		pmustat__buf_adds(b, "}");
	}
	pmustat__buf_adds(b, "]}");
}

static int region_used(const uint64_t *tot)
{
	return tot && (tot[S_COUNT] || tot[S_UNBAL] || tot[S_DEPTH]);
}

/* The report line (lock held). Returns 0 if there is nothing to report. */
static int build_report(struct pm_buf *b)
{
	int any = 0, first = 1;

	for (int id = 0; id < g.nregions; id++)
		any |= region_used(g.total[id / CHUNK] ? slot_in(g.total, id) : NULL);
	if (g.forked && !any)
		return 0;
	pmustat__buf_adds(b, "{\"schema\":\"" PMUSTAT_REGIONS_SCHEMA "\"");
	json_key(b, "pid", (uint64_t)getpid());
	pmustat__buf_adds(b, g.tool ? ",\"mode\":\"pmustat\"" : ",\"mode\":\"standalone\"");
	if (g.config_error[0]) {
		pmustat__buf_adds(b, ",\"error\":");
		pmustat__buf_json_str(b, g.config_error);
		pmustat__buf_adds(b, "}\n");
		return 1;
	}
	json_key(b, "threads", g.threads);
	json_key(b, "dropped_entries", g.dropped);
	json_key(b, "read_errors", g.read_errors);
	pmustat__buf_adds(b, ",\"events\":[");
	for (int k = 0; k < g.ev.n; k++)
		json_event(b, k);
	pmustat__buf_adds(b, "],\"regions\":[");
	for (int id = 0; id < g.nregions; id++) {
		const uint64_t *tot = g.total[id / CHUNK] ? slot_in(g.total, id) : NULL;

		if (g.forked && !region_used(tot))
			continue;
		json_region(b, id, tot, first);
		first = 0;
	}
	pmustat__buf_adds(b, "]}\n");
	return 1;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* PMUSTAT_OUTPUT with every "%p" replaced by the pid. */
static int open_output(char *path, size_t len)
{
	char pid[24];
	size_t o = 0;

	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	for (const char *s = g.out_path; *s && o + sizeof(pid) < len; s++) {
		if (s[0] == '%' && s[1] == 'p') {
			o += (size_t)snprintf(path + o, len - o, "%s", pid);
			s++;
		} else {
			path[o++] = *s;
		}
	}
	path[o] = '\0';
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
}

/* Tool mode: our descriptor, if it is still the report file (a program may
 * close every descriptor and reuse the number), else the path reopened. */
static int tool_fd(void)
{
	const char *path = getenv(PMUSTAT_ENV_PATH);
	struct stat st;
	int fd;

	if (fstat(g.out_fd, &st) == 0 && st.st_dev == g.out_dev && st.st_ino == g.out_ino)
		return g.out_fd;
	fd = path && *path ? open(path, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == g.out_dev && st.st_ino == g.out_ino)
		return fd;
	if (fd >= 0)
		close(fd);
	fprintf(stderr, "libpmustat: the program closed the region report descriptor; the "
		"report is lost\n");
	return -1;
}

static void emit(const struct pm_buf *b)
{
	char path[4096] = "";
	int fd;

	if (g.tool)
		fd = tool_fd();
	else
		fd = g.out_path ? open_output(path, sizeof(path)) : STDERR_FILENO;
	if (fd < 0) {
		if (!g.tool)
			fprintf(stderr, "libpmustat: cannot write '%s': %s; the region report is "
				"lost\n", path, strerror(errno));
		return;
	}
	if (b->oom || write_all(fd, b->p, b->len))
		fprintf(stderr, "libpmustat: cannot write the region report: %s\n",
			b->oom ? "out of memory" : strerror(errno));
	if ((g.tool && fd != g.out_fd) || (!g.tool && g.out_path))
		close(fd);
}

static void report_at_exit(void)
{
	struct pm_buf b = { 0 };
	int saved = errno, have;

	pthread_mutex_lock(&g.lock);
	STORE(&g.state, ST_OFF);	/* markers after this point do nothing */
	for (const struct tstate *t = g.live; t; t = t->next)
		merge(t);
	have = build_report(&b);
	pthread_mutex_unlock(&g.lock);
	if (have)
		emit(&b);
	free(b.p);
	errno = saved;
}

/* ---- fork ---- */

static void fork_prepare(void)
{
	pthread_mutex_lock(&g.lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&g.lock);
}

/* The child has one thread and counters that count its parent's threads:
 * drop them all, and start over with the region names kept (handles stay
 * valid). */
static void fork_child(void)
{
	struct tstate *t = g.live, *next;

	pthread_mutex_unlock(&g.lock);	/* taken by fork_prepare in this thread */
	for (; t; t = next) {
		next = t->next;
		thread_free(t);
	}
	g.live = NULL;
	for (int c = 0; c < NCHUNK; c++) {
		free(g.total[c]);
		g.total[c] = NULL;
	}
	g.threads = g.read_errors = g.dropped = 0;
	memset(g.opened, 0, sizeof(g.opened));
	memset(g.failed, 0, sizeof(g.failed));
	memset(g.rdpmc, 0, sizeof(g.rdpmc));
	memset(g.user_only, 0, sizeof(g.user_only));
	g.forked = 1;
	t_self = NULL;
	pthread_setspecific(g.key, NULL);
}

/* ---- set-up ---- */

/* A private duplicate (close-on-exec, numbered high, out of the way of a
 * program that reuses low numbers) of fd, remembered by inode; -1 if none. */
static int keep_fd(int fd)
{
	struct stat st;
	int dup = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 64) : -1;

	if (dup >= 0 && fstat(dup, &st) == 0) {
		g.out_dev = st.st_dev;
		g.out_ino = st.st_ino;
		return dup;
	}
	if (dup >= 0)
		close(dup);
	return -1;
}

/* PMUSTAT_REGION_FD=N[:INO] if it is inherited (and is that inode), else
 * PMUSTAT_REGION_PATH opened for appending. */
static int open_tool_report(const char *fd_s, const char *path)
{
	struct stat st;
	char *end = NULL;
	long fd = fd_s ? strtol(fd_s, &end, 10) : -1;
	unsigned long long ino = 0;
	int ok = fd_s && end != fd_s && fd >= 0 && fd <= 0x7fffffff;

	if (ok && *end == ':')
		ino = strtoull(end + 1, &end, 10);
	ok = ok && !*end && fstat((int)fd, &st) == 0 && (!ino || st.st_ino == ino);
	if (ok && (g.out_fd = keep_fd((int)fd)) >= 0)
		return 0;
	if (path && *path) {
		int pfd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);

		g.out_fd = keep_fd(pfd);
		if (pfd >= 0)
			close(pfd);
		if (g.out_fd >= 0)
			return 0;
	}
	fprintf(stderr, "libpmustat: cannot open the region report (%s=%s, %s=%s): %s; regions "
		"are not measured\n", PMUSTAT_ENV_FD, fd_s ? fd_s : "", PMUSTAT_ENV_PATH,
		path ? path : "", path && *path ? strerror(errno) : "not inherited");
	return -1;
}

static int init_tool(const char *fd_s, const char *path)
{
	const char *attrs = getenv(PMUSTAT_ENV_ATTRS);

	g.tool = 1;
	if (open_tool_report(fd_s, path))
		return -1;
	if (pmustat__parse_attrs(attrs ? attrs : "", &g.ev, g.config_error,
				 sizeof(g.config_error))) {
		atexit(report_at_exit);	/* tell the tool why */
		return -1;
	}
	return 0;
}

static int init_standalone(const char *events)
{
	const char *out = getenv(PMUSTAT_ENV_OUTPUT);
	char err[160];

	if (pmustat__parse_events(events, &g.ev, err, sizeof(err))) {
		fprintf(stderr, "libpmustat: %s in %s; regions are not measured\n", err,
			PMUSTAT_ENV_EVENTS);
		return -1;
	}
	if (out && *out && !(g.out_path = strdup(out)))
		return -1;
	return 0;
}

static void init(void)
{
	const char *fd_s = getenv(PMUSTAT_ENV_FD), *path = getenv(PMUSTAT_ENV_PATH);
	const char *events = getenv(PMUSTAT_ENV_EVENTS);
	int saved = errno, rc;

	if ((fd_s && *fd_s) || (path && *path))
		rc = init_tool(fd_s && *fd_s ? fd_s : NULL, path);
	else if (events && *events)
		rc = init_standalone(events);
	else
		rc = -1;
	if (rc == 0 && pthread_key_create(&g.key, thread_exit) == 0) {
		g.slot_words = S_HDR + 6 * (size_t)g.ev.n;
		pthread_atfork(fork_prepare, fork_parent, fork_child);
		atexit(report_at_exit);
		STORE(&g.state, ST_ON);
	} else {
		STORE(&g.state, ST_OFF);
	}
	errno = saved;
}

/* ---- the API ---- */

/* On the measuring path errno is saved and restored around everything:
 * the markers promise not to change it. */

void pmustat_region_begin(const char *name)
{
	struct tstate *t;
	int id, saved;

	if (state() != ST_ON || !name)
		return;
	saved = errno;
	if ((t = me()) && (id = cached_id(t, name)) >= 0)
		enter(id);
	errno = saved;
}

void pmustat_region_end(const char *name)
{
	struct tstate *t;
	int id, saved;

	if (state() != ST_ON || !name)
		return;
	saved = errno;
	if ((t = me()) && (id = cached_id(t, name)) >= 0)
		leave(id);
	errno = saved;
}

pmustat_region_t pmustat_region(const char *name)
{
	int id, saved;

	if (state() != ST_ON || !name)
		return NULL;
	saved = errno;
	id = region_id(name);
	errno = saved;
	return id >= 0 ? &g.handles[id] : NULL;
}

void pmustat_region_enter(pmustat_region_t r)
{
	int saved;

	if (!r || LOAD(&g.state) != ST_ON)
		return;
	saved = errno;
	enter(r->id);
	errno = saved;
}

void pmustat_region_exit(pmustat_region_t r)
{
	int saved;

	if (!r || LOAD(&g.state) != ST_ON)
		return;
	saved = errno;
	leave(r->id);
	errno = saved;
}

int pmustat_active(void)
{
	return state() == ST_ON;
}
