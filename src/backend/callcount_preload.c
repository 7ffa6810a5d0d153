/*
 * The LD_PRELOAD mechanism of call counters: when the shim
 * libpmustat-count.so can count a request (a dynamically linked, non-secure,
 * unsanitized program, and only the functions it interposes), where the
 * shim is, the environment and report file of each run, and the sum of the
 * records the shim's processes appended (callcount_abi.h). A process whose
 * START has no END lost its counts: the sum says how many did.
 */
#include "backend/callcount_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/path.h"
#include "core/safeopen.h"
#include "core/selfpath.h"
#include "core/sort.h"
#include "core/strbuf.h"

extern char **environ;

static int setuid_like(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (st.st_mode & (S_ISUID | S_ISGID))
		return 1;
	/* File capabilities put the loader in secure mode too. */
	return getxattr(path, "security.capability", NULL, 0) > 0;
}

/* Does the program load a sanitizer runtime (libasan, libtsan, ...)? */
static int sanitized(const struct cc_objects *o)
{
	static const char *const rt[] = { "libasan.so", "libtsan.so", "libhwasan.so",
					  "liblsan.so", "libmsan.so" };

	for (size_t i = 0; i < o->n; i++) {
		const char *base = strrchr(o->paths[i], '/');

		base = base ? base + 1 : o->paths[i];
		for (size_t k = 0; k < ARRAY_SIZE(rt); k++)
			if (!strncmp(base, rt[k], strlen(rt[k])))
				return 1;
	}
	return 0;
}

/* NULL when the shim can count everything asked, else why not. */
char *cc_preload_unusable(const struct callcount_set *s, const struct cc_objects *o)
{
	struct strbuf why = STRBUF_INIT;

	if (s->is_static)
		return xstrdup("it is statically linked");
	if (setuid_like(s->program))
		return xstrdup("it is setuid, setgid or has file capabilities, and the loader "
			       "then ignores LD_PRELOAD");
	if (sanitized(o))
		return xstrdup("it is built with a sanitizer, whose runtime must be the first "
			       "library loaded and which takes the allocation functions itself");
	for (size_t i = 0; i < s->nprobes; i++) {
		if (s->probes[i].slot >= 0)
			continue;
		strbuf_adds(&why, "the LD_PRELOAD shim interposes only ");
		for (int k = 0; k < CC_NSLOTS; k++)
			strbuf_addf(&why, "%s%s", k ? ", " : "", cc_slot_names[k]);
		strbuf_addf(&why, ", not '%s'", s->probes[i].symbol);
		return strbuf_detach(&why);
	}
	return NULL;
}

int cc_use_preload(struct callcount_set *s, const struct callcount_opts *o,
		       struct error *err)
{
	if (o->shim)
		s->shim = xstrdup(o->shim);
	else if (callcount_shim_path(&s->shim, err))
		return -1;
	if (strpbrk(s->shim, ": ")) {
		error_set(err, ERR_RUNTIME, "cannot preload '%s': LD_PRELOAD cannot hold a path "
			  "with ':' or ' '", s->shim);
		return error_hint(err, "set PMUSTAT_COUNT_LIB to a path without them");
	}
	s->mech = CALLCOUNT_PRELOAD;
	if (o->force == CALLCOUNT_PRELOAD)
		s->mech_reason = xstrdup("the LD_PRELOAD shim was requested");
	return 0;
}

int callcount_shim_path(char **out, struct error *err)
{
	const char *env = secure_getenv("PMUSTAT_COUNT_LIB");	/* as selfpath_find */

	*out = selfpath_find("PMUSTAT_COUNT_LIB", "libpmustat-count.so", R_OK);
	if (*out)
		return 0;
	if (env && *env) {
		error_set(err, ERR_RUNTIME, "cannot read '%s' (PMUSTAT_COUNT_LIB): %s", env,
			  strerror(errno));
		return error_hint(err, "point PMUSTAT_COUNT_LIB at libpmustat-count.so");
	}
	error_set(err, ERR_RUNTIME, "cannot find libpmustat-count.so next to pmustat or in "
		  "../lib/pmustat/");
	return error_hint(err, "build it with 'make', or set PMUSTAT_COUNT_LIB to its path");
}

/* ---- preload runs ------------------------------------------------------ */

static int env_is(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(entry, name, n) && entry[n] == '=';
}

static char **preload_env(const char *shim, const char *path, unsigned sites,
			  char *const *base)
{
	const char *old = NULL;
	size_t n = 0, k = 0;
	struct strbuf sb = STRBUF_INIT;
	char **env;

	if (!base)
		base = environ;
	while (base[n])
		n++;
	env = xcalloc(n + 4, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		if (env_is(base[i], "LD_PRELOAD")) {
			old = base[i] + strlen("LD_PRELOAD=");
			continue;
		}
		if (!env_is(base[i], CALLCOUNT_FILE_ENV) && !env_is(base[i], CALLCOUNT_SITES_ENV))
			env[k++] = xstrdup(base[i]);
	}
	/* First in the list, so the shim sees calls before any other preload. */
	strbuf_addf(&sb, "LD_PRELOAD=%s%s%s", shim, old && *old ? ":" : "", old ? old : "");
	env[k++] = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s=%s", CALLCOUNT_FILE_ENV, path);
	env[k++] = strbuf_detach(&sb);
	if (sites) {
		strbuf_addf(&sb, "%s=%u", CALLCOUNT_SITES_ENV, sites);
		env[k++] = strbuf_detach(&sb);
	}
	return env;
}

int callcount_run_begin(const struct callcount_set *s, char *const *base,
			struct callcount_run *r, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int fd;

	memset(r, 0, sizeof(*r));
	if (s->mech != CALLCOUNT_PRELOAD)
		return 0;
	if (tmpdir_make("pmustat-calls.", &r->dir, err))
		return -1;
	strbuf_addf(&sb, "%s/counts", r->dir);
	r->path = strbuf_detach(&sb);
	fd = open(r->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_set(err, ERR_RUNTIME, "cannot create '%s': %s", r->path, strerror(errno));
		callcount_run_release(r);
		return -1;
	}
	close(fd);
	r->envp = preload_env(s->shim, r->path, s->sites, base);
	return 0;
}

void callcount_run_release(struct callcount_run *r)
{
	if (r->path)
		unlink(r->path);
	if (r->dir)
		rmdir(r->dir);
	free(r->path);
	free(r->dir);
	strv_free(r->envp);
	memset(r, 0, sizeof(*r));
}

struct pid_balance {
	int32_t pid;
	int delta;	/* +1 START, -1 EXIT/EXEC */
};

static int cmp_pid(const void *a, const void *b)
{
	const struct pid_balance *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Images that began but never reported: per pid, STARTs beyond ENDs. */
static unsigned count_lost(struct pid_balance *b, size_t n)
{
	unsigned lost = 0;

	if (!n)
		return 0;	/* b may be NULL: no records at all */
	sort_n(b, n, sizeof(*b), cmp_pid);
	for (size_t i = 0; i < n;) {
		long sum = 0;
		size_t j = i;

		for (; j < n && b[j].pid == b[i].pid; j++)
			sum += b[j].delta;
		if (sum > 0)
			lost += (unsigned)sum;
		i = j;
	}
	return lost;
}

static int count_record_ok(const struct callcount_hdr *h, const void *p)
{
	const struct callcount_record *rec = p;

	if (h->size < sizeof(*h) || h->size % 8)
		return 0;
	if (h->kind == CC_REC_SITE)
		return h->size == sizeof(struct callcount_site_rec);
	if (h->kind == CC_REC_MAP)
		return h->size > sizeof(struct callcount_map_rec) &&
		       memchr((const char *)p + sizeof(struct callcount_map_rec), '\0',
			      h->size - sizeof(struct callcount_map_rec)) != NULL;
	return h->kind >= CC_REC_START && h->kind <= CC_REC_EXEC &&
	       h->size == sizeof(*rec) && rec->nslots == CC_NSLOTS;
}

int cc_walk_records(const void *data, size_t len,
		    void (*fn)(void *ctx, const struct callcount_hdr *h, const void *rec),
		    void *ctx, struct error *err)
{
	size_t i = 0;

	for (size_t off = 0; off < len; i++) {
		const char *p = (const char *)data + off;
		struct callcount_hdr h;

		if (len - off < sizeof(h))
			goto truncated;
		memcpy(&h, p, sizeof(h));
		if (h.magic == CALLCOUNT_MAGIC && h.version == CALLCOUNT_VERSION &&
		    h.size > len - off)
			goto truncated;
		if (h.magic != CALLCOUNT_MAGIC || h.version != CALLCOUNT_VERSION ||
		    !count_record_ok(&h, p)) {
			error_set(err, ERR_RUNTIME, "call-count record %zu is corrupt", i);
			return error_hint(err, "the shim and pmustat must come from one build");
		}
		if (fn)
			fn(ctx, &h, p);
		off += h.size;
	}
	return 0;
truncated:
	return error_set(err, ERR_RUNTIME, "the call-count records are truncated (%zu bytes)", len);
}

struct sum_ctx {
	uint64_t total[CC_NSLOTS];
	struct pid_balance *bal;
	size_t n, alloc;
	unsigned processes;
};

static void sum_one(void *ctx, const struct callcount_hdr *h, const void *p)
{
	struct sum_ctx *c = ctx;
	const struct callcount_record *rec = p;

	if (h->kind == CC_REC_SITE || h->kind == CC_REC_MAP)
		return;
	ALLOC_GROW(c->bal, c->n + 1, c->alloc);
	c->bal[c->n].pid = rec->pid;
	c->bal[c->n++].delta = rec->kind == CC_REC_START ? 1 : -1;
	c->processes += rec->kind == CC_REC_START;
	for (int k = 0; k < CC_NSLOTS; k++)
		c->total[k] += rec->counts[k];
}

int callcount_sum_records(const struct callcount_set *s, const void *data, size_t len,
			  struct callcount_values *v, struct error *err)
{
	struct sum_ctx c;

	memset(v, 0, sizeof(*v));
	memset(&c, 0, sizeof(c));
	if (cc_walk_records(data, len, sum_one, &c, err)) {
		free(c.bal);
		return -1;
	}
	v->processes = c.processes;
	v->lost = count_lost(c.bal, c.n);
	free(c.bal);
	if (!v->processes) {
		error_set(err, ERR_RUNTIME, "no call counts from '%s': the LD_PRELOAD shim was "
			  "not loaded", s->program ? s->program : "the program");
		return error_hint(err, "check that it is dynamically linked and not setuid "
				  "('ldd %s')", s->program ? s->program : "PROG");
	}
	v->value = xcalloc(s->nmetrics ? s->nmetrics : 1, sizeof(double));
	for (size_t m = 0; m < s->nmetrics; m++)
		for (char **sym = s->metrics[m].symbols; *sym; sym++)
			if (cc_slot_of(*sym) >= 0)
				v->value[m] += (double)c.total[cc_slot_of(*sym)];
	return 0;
}

/* The whole report file of a preload run. The program wrote it and can
 * have put anything in its place: a link is not followed, and only a
 * regular file of at most CALLCOUNT_FILE_MAX bytes is read. */
int cc_read_report(const struct callcount_run *r, struct strbuf *sb, struct error *err)
{
	int rc;

	if (!r->path)
		return error_set(err, ERR_RUNTIME, "no call-count file: not a preload run");
	rc = safeopen_slurp(r->path, SAFEOPEN_NOFOLLOW, CALLCOUNT_FILE_MAX, sb);
	if (rc == SAFEOPEN_TOOBIG) {
		error_set(err, ERR_RUNTIME, "the call-count file '%s' is larger than %zu MiB",
			  r->path, CALLCOUNT_FILE_MAX >> 20);
		return error_hint(err, "the program wrote to the file the shim reports into "
				  "(PMUSTAT_COUNT_FILE); leave it alone or count with uprobes "
				  "(--calls uprobe)");
	}
	if (rc) {
		error_set(err, ERR_RUNTIME, "cannot read the call-count file '%s': %s", r->path,
			  safeopen_strerror(rc));
		return error_hint(err, "the program replaced or removed the file the shim "
				  "reports into (PMUSTAT_COUNT_FILE)");
	}
	return 0;
}

int callcount_run_end(const struct callcount_set *s, struct callcount_run *r,
		      struct callcount_values *v, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	memset(v, 0, sizeof(*v));
	rc = cc_read_report(r, &sb, err);
	if (!rc)
		rc = callcount_sum_records(s, sb.buf, sb.len, v, err);
	strbuf_release(&sb);
	return rc;
}
