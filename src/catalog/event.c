/*
 * Native event strings -> perf_event_attr (see event.h). The syntaxes are
 * tried from the most specific to the least: anything with a '/' is PMU
 * syntax; a kernel generic, cache or software name (optionally with :u/:k/:h)
 * comes next; then raw rNNNN; and only then libpfm4, whose tables know
 * thousands of per-CPU names. Whatever fails, the error is ours: one line
 * naming the input, and a hint with the nearest names (builtins, sysfs
 * aliases and libpfm4 names) or the valid terms of the PMU.
 * The generic names and their perf_event_attr encodings are the kernel ABI
 * (include/uapi/linux/perf_event.h); the spellings and aliases follow perf
 * (tools/perf/util/parse-events.c, evsel.c), so command lines carry over.
 */
#include "catalog/libpfm.h"
#include "catalog/event.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "core/suggest.h"
#include "host/sysfs.h"

/* ---- tables (kernel ABI; names and aliases as perf spells them) -------- */

struct builtin {
	const char *name;	/* the display name */
	const char *alias;	/* another accepted spelling, or NULL */
	enum event_origin origin;
	__u32 type;
	__u64 config;
	double scale;		/* 0 means 1.0 */
	const char *unit;
};

static const struct builtin builtins[] = {
	{ "cycles", "cpu-cycles", EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, NULL },
	{ "instructions", NULL, EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, NULL },
	{ "cache-references", NULL, EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 0, NULL },
	{ "cache-misses", NULL, EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 0, NULL },
	{ "branches", "branch-instructions", EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, NULL },
	{ "branch-misses", NULL, EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 0, NULL },
	{ "bus-cycles", NULL, EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, 0, NULL },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0, NULL },
	{ "stalled-cycles-backend", "idle-cycles-backend", EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0, NULL },
	{ "ref-cycles", NULL, EVO_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 0, NULL },
	/* The clocks count nanoseconds; perf shows them in msec, and so do we. */
	{ "task-clock", NULL, EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1e-6, "msec" },
	{ "cpu-clock", NULL, EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 1e-6, "msec" },
	{ "page-faults", "faults", EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, NULL },
	{ "minor-faults", NULL, EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, NULL },
	{ "major-faults", NULL, EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, NULL },
	{ "context-switches", "cs", EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, NULL },
	{ "cpu-migrations", "migrations", EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0, NULL },
	{ "alignment-faults", NULL, EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, 0, NULL },
	{ "emulation-faults", NULL, EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, 0, NULL },
	{ "dummy", NULL, EVO_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, NULL },
};

/* Generic cache events: <cache>-<op>[-<result>], e.g. L1-dcache-load-misses. */
struct cache_word {
	const char *names[5];	/* display name first, then accepted aliases */
	int id;
};

static const struct cache_word cache_types[] = {
	{ { "L1-dcache", "l1-d", "l1d", "L1-data" }, PERF_COUNT_HW_CACHE_L1D },
	{ { "L1-icache", "l1-i", "l1i", "L1-instruction" }, PERF_COUNT_HW_CACHE_L1I },
	{ { "LLC", "L2" }, PERF_COUNT_HW_CACHE_LL },
	{ { "dTLB", "d-tlb", "Data-TLB" }, PERF_COUNT_HW_CACHE_DTLB },
	{ { "iTLB", "i-tlb", "Instruction-TLB" }, PERF_COUNT_HW_CACHE_ITLB },
	{ { "branch", "branches", "bpu", "btb", "bpc" }, PERF_COUNT_HW_CACHE_BPU },
	{ { "node" }, PERF_COUNT_HW_CACHE_NODE },
};

static const struct cache_word cache_ops[] = {
	{ { "load", "loads", "read" }, PERF_COUNT_HW_CACHE_OP_READ },
	{ { "store", "stores", "write" }, PERF_COUNT_HW_CACHE_OP_WRITE },
	{ { "prefetch", "prefetches", "speculative-read", "speculative-load" }, PERF_COUNT_HW_CACHE_OP_PREFETCH },
};

static const struct cache_word cache_results[] = {
	{ { "refs", "Reference", "ops", "access" }, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ { "misses", "miss" }, PERF_COUNT_HW_CACHE_RESULT_MISS },
};

/* Plural op names used in display names when the result is "access". */
static const char *const cache_op_plural[] = { "loads", "stores", "prefetches" };

/*
 * Which ops each cache level defines, as bit (1 << op); perf refuses the
 * rest (tools/perf/util/evsel.c, evsel__hw_cache_stat), and so do we.
 */
static const unsigned cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = 7,
	[PERF_COUNT_HW_CACHE_L1I] = 5,
	[PERF_COUNT_HW_CACHE_LL] = 7,
	[PERF_COUNT_HW_CACHE_DTLB] = 7,
	[PERF_COUNT_HW_CACHE_ITLB] = 1,
	[PERF_COUNT_HW_CACHE_BPU] = 1,
	[PERF_COUNT_HW_CACHE_NODE] = 7,
};

/* Every name the tables above accept, for suggestions and `pmustat list`. */
static const char *const builtin_names[] = {
	"cycles", "cpu-cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-instructions", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	"task-clock", "cpu-clock", "page-faults", "faults", "minor-faults",
	"major-faults", "context-switches", "cs", "cpu-migrations", "migrations",
	"alignment-faults", "emulation-faults", "dummy",
	"L1-dcache-loads", "L1-dcache-load-misses", "L1-dcache-stores",
	"L1-dcache-store-misses", "L1-dcache-prefetches", "L1-dcache-prefetch-misses",
	"L1-icache-loads", "L1-icache-load-misses", "L1-icache-prefetches",
	"L1-icache-prefetch-misses",
	"LLC-loads", "LLC-load-misses", "LLC-stores", "LLC-store-misses",
	"LLC-prefetches", "LLC-prefetch-misses",
	"dTLB-loads", "dTLB-load-misses", "dTLB-stores", "dTLB-store-misses",
	"dTLB-prefetches", "dTLB-prefetch-misses",
	"iTLB-loads", "iTLB-load-misses",
	"branch-loads", "branch-load-misses",
	"node-loads", "node-load-misses", "node-stores", "node-store-misses",
	"node-prefetches", "node-prefetch-misses",
	NULL,
};

/*
 * Why a well-known PMU may be missing, for the "unknown PMU" hint.
 * amd_* come from arch/x86/events/amd/uncore.c (module amd-uncore), uncore_*
 * from arch/x86/events/intel/uncore.c (intel-uncore); the x86 core PMU
 * "cpu" is absent when the hypervisor exposes no PMU to the guest. A
 * trailing '*' matches by prefix.
 */
static const struct {
	const char *pmu;
	const char *why;
} pmu_absent[] = {
	{ "amd_l3", "appears after 'modprobe amd_uncore'" },
	{ "amd_df", "appears after 'modprobe amd_uncore'" },
	{ "amd_l2", "appears after 'modprobe amd_uncore'" },
	{ "amd_nb", "appears after 'modprobe amd_uncore'" },
	{ "amd_umc_*", "appears after 'modprobe amd_uncore'" },
	{ "uncore_*", "appears after 'modprobe intel_uncore'" },
	{ "cpu", "is missing: no hardware PMU is exposed here (typical of VMs); "
		 "software events such as 'task-clock' still work" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *const *event_builtin_names(void)
{
	return builtin_names;
}

/* ---- small helpers ----------------------------------------------------- */

static void spec_init(struct event_spec *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	ev->scale = 1.0;
}

void event_spec_release(struct event_spec *ev)
{
	if (!ev)
		return;
	free(ev->name);
	free(ev->pmu);
	free(ev->unit);
	memset(ev, 0, sizeof(*ev));
}

static void spec_set(struct event_spec *ev, const char *name, const char *pmu,
		     enum event_origin origin, const char *unit)
{
	ev->name = xstrdup(name);
	ev->pmu = xstrdup(pmu);
	ev->origin = origin;
	ev->unit = xstrdup(unit ? unit : "");
}

/* Decimal or 0x-hex, the whole string, no sign: what perf accepts in terms. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
	char buf[32], *end;
	int base = 10;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)buf[base == 16 ? 2 : 0]))
		return -1;
	errno = 0;
	*out = strtoull(buf, &end, base);
	return errno || *end ? -1 : 0;
}

/* ---- modifiers: perf's :u/:k/:h ---------------------------------------- */

/*
 * As perf (tools/perf/util/parse-events.c, evsel modifiers): the first of
 * u/k/h excludes every privilege level, then each letter given re-includes
 * its own; and a u/k/h request also sets exclude_guest, since perf does.
 */
static int apply_modifiers(struct perf_event_attr *a, const char *mods,
			   const char *str, struct error *err)
{
	const char *p;

	for (p = mods; *p; p++)
		if (!strchr("ukh", *p)) {
			error_set(err, ERR_USAGE, "unknown modifier '%c' in '%s'", *p, str);
			return error_hint(err, "modifiers are u (user), k (kernel) and "
					  "h (hypervisor), as in 'cycles:u'");
		}
	if (!*mods)
		return 0;
	a->exclude_user = a->exclude_kernel = a->exclude_hv = 1;
	a->exclude_guest = 1;
	for (p = mods; *p; p++) {
		if (*p == 'u')
			a->exclude_user = 0;
		else if (*p == 'k')
			a->exclude_kernel = 0;
		else
			a->exclude_hv = 0;
	}
	return 0;
}

/* ---- unknown-name errors with suggestions ------------------------------ */

struct cands {
	const char **keys;	/* compared with the user's word */
	char **shown;		/* what the hint prints (malloc'd) */
	size_t n, alloc;
};

static void cands_add(struct cands *c, const char *key, const char *shown)
{
	if (c->n + 1 > c->alloc) {
		size_t na = c->alloc ? c->alloc * 2 : 64;

		c->keys = xrealloc(c->keys, na * sizeof(*c->keys));
		c->shown = xrealloc(c->shown, na * sizeof(*c->shown));
		c->alloc = na;
	}
	c->keys[c->n] = key;
	c->shown[c->n++] = xstrdup(shown);
}

static void cands_free(struct cands *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->shown[i]);
	free(c->keys);
	free(c->shown);
}

static void cands_add_aliases(struct cands *c, const struct sysfs_model *m)
{
	size_t i, j;
	struct strbuf sb = STRBUF_INIT;

	for (i = 0; m && i < m->npmus; i++)
		for (j = 0; j < m->pmus[i].naliases; j++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/%s/", m->pmus[i].name, m->pmus[i].aliases[j].name);
			cands_add(c, m->pmus[i].aliases[j].name, sb.buf);
		}
	strbuf_release(&sb);
}

/*
 * libpfm4 keeps its tables in process-global state set up by
 * lpfm_initialize(), which returns its first result on every later call, so
 * calling it before each use is cheap and needs no state of ours. Note that
 * LIBPFM_FORCE_PMU is read by the first call only, and pfm_terminate() does
 * not deactivate PMUs (observed with libpfm 4.13): a process gets one
 * forced PMU for its lifetime. This is the only place that initialises it.
 */
static int libpfm_ready(void)
{
	return lpfm_initialize() == PFM_SUCCESS;
}

/* Names of the CPU-specific libpfm4 events active here (not perf::). */
static void cands_add_libpfm(struct cands *c)
{
	int pmu, idx;

	if (!libpfm_ready())
		return;
	for (pmu = PFM_PMU_NONE; pmu < PFM_PMU_MAX; pmu++) {
		pfm_pmu_info_t pinfo;

		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (lpfm_get_pmu_info((pfm_pmu_t)pmu, &pinfo) != PFM_SUCCESS ||
		    !pinfo.is_present || pinfo.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		for (idx = pinfo.first_event; idx != -1; idx = lpfm_get_event_next(idx)) {
			pfm_event_info_t info;

			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (lpfm_get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS)
				cands_add(c, info.name, info.name);
		}
	}
}

/* The hint: near names if any, else where to look. */
static void hint_near(struct error *err, const char *word, struct cands *c,
		      const char *fallback)
{
	size_t picks[3], n, i;
	const char *shown[3];
	struct strbuf sb = STRBUF_INIT;

	n = suggest_pick(word, c->keys, c->n, picks, ARRAY_SIZE(picks));
	for (i = 0; i < n; i++)
		shown[i] = c->shown[picks[i]];
	suggest_format(&sb, shown, n);
	if (n)
		strbuf_adds(&sb, " (pmustat list)");
	else
		strbuf_adds(&sb, fallback);
	error_hint(err, "%s", sb.buf);
	strbuf_release(&sb);
}

/* The bare event name inside a libpfm-style string: "pmu::NAME:umask:u". */
static char *event_word(const char *str)
{
	const char *s = strstr(str, "::");
	const char *colon;

	s = s ? s + 2 : str;
	colon = strchr(s, ':');
	return colon ? xstrndup(s, (size_t)(colon - s)) : xstrdup(s);
}

static int unknown_event(const struct sysfs_model *m, const char *str,
			 struct error *err)
{
	struct cands c = { 0 };
	char *word = event_word(str);
	size_t i;

	for (i = 0; builtin_names[i]; i++)
		cands_add(&c, builtin_names[i], builtin_names[i]);
	cands_add_aliases(&c, m);
	cands_add_libpfm(&c);
	error_set(err, ERR_USAGE, "unknown event '%s'", str);
	hint_near(err, word, &c, "see the events available here with 'pmustat list'");
	cands_free(&c);
	free(word);
	return -1;
}

/* ---- generic, cache and software events -------------------------------- */

static const struct builtin *builtin_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(builtins); i++) {
		const struct builtin *b = &builtins[i];

		if ((strlen(b->name) == len && !strncmp(b->name, name, len)) ||
		    (b->alias && strlen(b->alias) == len && !strncmp(b->alias, name, len)))
			return b;
	}
	return NULL;
}

/* Match one word of a cache name at *p (case-insensitive), then '-' or end. */
static const struct cache_word *cache_match(const struct cache_word *tab, size_t n,
					    const char **p, const char *end)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < ARRAY_SIZE(tab[i].names) && tab[i].names[j]; j++) {
			size_t l = strlen(tab[i].names[j]);

			if ((size_t)(end - *p) >= l && !strncasecmp(*p, tab[i].names[j], l) &&
			    (*p + l == end || (*p)[l] == '-')) {
				*p += l + (*p + l < end);
				return &tab[i];
			}
		}
	return NULL;
}

/* Decode <cache>-<op>[-<result>] in name[0..len); returns 0 and fills b. */
static int cache_find(const char *name, size_t len, struct builtin *b, struct strbuf *disp)
{
	const char *p = name, *end = name + len;
	const struct cache_word *t, *o, *r = &cache_results[0];

	t = cache_match(cache_types, ARRAY_SIZE(cache_types), &p, end);
	if (!t || p == end)
		return -1;
	o = cache_match(cache_ops, ARRAY_SIZE(cache_ops), &p, end);
	if (!o)
		return -1;
	if (p < end && !(r = cache_match(cache_results, ARRAY_SIZE(cache_results), &p, end)))
		return -1;
	if (p != end || !(cache_valid_ops[t->id] & (1u << o->id)))
		return -1;
	memset(b, 0, sizeof(*b));
	b->origin = EVO_GENERIC;
	b->type = PERF_TYPE_HW_CACHE;
	b->config = (__u64)t->id | ((__u64)o->id << 8) | ((__u64)r->id << 16);
	if (r->id == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		strbuf_addf(disp, "%s-%s", t->names[0], cache_op_plural[o->id]);
	else
		strbuf_addf(disp, "%s-%s-misses", t->names[0], o->names[0]);
	return 0;
}

/* A builtin name (with optional :mods)? 1 if it is not one, 0 or -1 if it is. */
static int parse_builtin(const char *str, struct event_spec *ev, struct error *err)
{
	const char *colon = strchr(str, ':');
	size_t len = colon ? (size_t)(colon - str) : strlen(str);
	const struct builtin *b = builtin_find(str, len);
	struct builtin cache;
	struct strbuf disp = STRBUF_INIT;

	if (b)
		strbuf_adds(&disp, b->name);
	else if (cache_find(str, len, &cache, &disp) == 0)
		b = &cache;
	if (!b) {
		strbuf_release(&disp);
		return 1;
	}
	if (colon)
		strbuf_adds(&disp, colon);
	ev->attr.type = b->type;
	ev->attr.config = b->config;
	if (b->scale)
		ev->scale = b->scale;
	spec_set(ev, disp.buf, b->origin == EVO_SOFTWARE ? "software" : "cpu",
		 b->origin, b->unit);
	strbuf_release(&disp);
	return apply_modifiers(&ev->attr, colon ? colon + 1 : "", str, err);
}

/* ---- raw rNNNN --------------------------------------------------------- */

static int parse_raw(const char *str, struct event_spec *ev, struct error *err)
{
	const char *colon = strchr(str, ':');
	size_t len = colon ? (size_t)(colon - str) : strlen(str), i;
	char hex[20];

	if (str[0] != 'r' || len < 2 || len > 17)
		return 1;
	for (i = 1; i < len; i++)
		if (!isxdigit((unsigned char)str[i]))
			return 1;
	memcpy(hex, str + 1, len - 1);
	hex[len - 1] = '\0';
	ev->attr.type = PERF_TYPE_RAW;
	ev->attr.config = strtoull(hex, NULL, 16);
	spec_set(ev, str, "cpu", EVO_RAW, NULL);
	return apply_modifiers(&ev->attr, colon ? colon + 1 : "", str, err);
}

/* ---- PMU syntax: pmu/terms/[mods] -------------------------------------- */

struct pmu_ctx {
	const char *str;		/* the whole event, for messages */
	const struct sysfs_pmu *pmu;
	uint64_t config[4];
	const struct sysfs_alias *alias;	/* the last alias used, for scale/unit */
};

static void list_terms(struct strbuf *sb, const struct sysfs_pmu *p)
{
	size_t i;

	strbuf_addf(sb, "terms of '%s': ", p->name);
	for (i = 0; i < p->nformats; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", p->formats[i].name);
	if (!p->nformats)
		strbuf_adds(sb, "(none)");
	if (p->naliases)
		strbuf_adds(sb, "; events: ");
	for (i = 0; i < p->naliases && sb->len < 400; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", p->aliases[i].name);
	if (i < p->naliases)
		strbuf_adds(sb, ", ... (pmustat list)");
}

static int unknown_term(const struct pmu_ctx *c, const char *term, int bare,
			struct error *err)
{
	struct cands cs = { 0 };
	struct strbuf sb = STRBUF_INIT;
	size_t i, pick;

	for (i = 0; i < c->pmu->nformats; i++)
		cands_add(&cs, c->pmu->formats[i].name, c->pmu->formats[i].name);
	for (i = 0; bare && i < c->pmu->naliases; i++)
		cands_add(&cs, c->pmu->aliases[i].name, c->pmu->aliases[i].name);
	if (bare)
		error_set(err, ERR_USAGE, "PMU '%s' has no event or format term '%s'",
			  c->pmu->name, term);
	else
		error_set(err, ERR_USAGE, "PMU '%s' has no format term '%s'",
			  c->pmu->name, term);
	if (suggest_pick(term, cs.keys, cs.n, &pick, 1))
		strbuf_addf(&sb, "did you mean '%s'? ", cs.shown[pick]);
	list_terms(&sb, c->pmu);
	error_hint(err, "%s", sb.buf);
	strbuf_release(&sb);
	cands_free(&cs);
	return -1;
}

/* config=, config1=, ... set a whole word, as in perf. */
static int config_word(const char *name, size_t len)
{
	if (len == 6 && !strncmp(name, "config", 6))
		return 0;
	if (len == 7 && !strncmp(name, "config", 6) && name[6] >= '1' && name[6] <= '3')
		return name[6] - '0';
	return -1;
}

static int parse_terms(struct pmu_ctx *c, const char *body, size_t len, int depth,
		       struct error *err);

static int apply_alias(struct pmu_ctx *c, const struct sysfs_alias *a, int depth,
		       struct error *err)
{
	if (depth > 0) {
		error_set(err, ERR_RUNTIME, "alias '%s' of PMU '%s' refers to another alias",
			  a->name, c->pmu->name);
		return error_hint(err, "check the file with 'cat %s/bus/event_source/"
				  "devices/%s/events/%s'", sysfs_root(), c->pmu->name, a->name);
	}
	c->alias = a;
	if (parse_terms(c, a->terms, strlen(a->terms), depth + 1, err) < 0)
		return error_prefix(err, "in alias '%s/%s/'", c->pmu->name, a->name);
	return 0;
}

static int bad_number(const struct pmu_ctx *c, const char *term, size_t tlen,
		      const char *val, size_t vlen, struct error *err)
{
	error_set(err, ERR_USAGE, "bad number '%.*s' for term '%.*s' in '%s'",
		  (int)vlen, val, (int)tlen, term, c->str);
	return error_hint(err, "write values in decimal or 0x-prefixed hex, "
			  "as in 'cpu/event=0x76,umask=0x1/'");
}

/* One term: name=value, or a bare name (an alias, or a format term = 1). */
static int apply_term(struct pmu_ctx *c, const char *t, size_t len, int depth,
		      struct error *err)
{
	const char *eq = memchr(t, '=', len);
	size_t nlen = eq ? (size_t)(eq - t) : len;
	char *name = xstrndup(t, nlen);
	const struct sysfs_format *f = sysfs_format_find(c->pmu, name);
	const struct sysfs_alias *a = eq ? NULL : sysfs_alias_find(c->pmu, name);
	int word = config_word(t, nlen), r;
	uint64_t v = 1;

	if (eq && parse_u64(eq + 1, len - nlen - 1, &v) < 0)
		r = bad_number(c, t, nlen, eq + 1, len - nlen - 1, err);
	else if (a)
		r = apply_alias(c, a, depth, err);
	else if (f && sysfs_format_encode(f, v, c->config, err) < 0)
		r = error_prefix(err, "in '%s'", c->str);
	else if (f)
		r = 0;
	else if (word >= 0 && eq)
		c->config[word] = v, r = 0;
	else
		r = unknown_term(c, name, !eq, err);
	free(name);
	return r;
}

static int parse_terms(struct pmu_ctx *c, const char *body, size_t len, int depth,
		       struct error *err)
{
	const char *p = body, *end = body + len;

	if (!len)
		goto empty;
	while (p <= end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;

		if (stop == p)
			goto empty;
		if (apply_term(c, p, (size_t)(stop - p), depth, err) < 0)
			return -1;
		p = stop + 1;
	}
	return 0;
empty:
	error_set(err, ERR_USAGE, "empty term in '%s'", c->str);
	return error_hint(err, "terms are name=value or an event name, separated "
			  "by single commas, as in 'cpu/event=0x76,umask=0x1/'");
}

static int absent_hint(const char *name, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pmu_absent); i++) {
		const char *pat = pmu_absent[i].pmu;
		size_t l = strlen(pat);
		int match = pat[l - 1] == '*' ? !strncmp(name, pat, l - 1) : !strcmp(name, pat);

		if (match) {
			strbuf_addf(sb, "the '%s' PMU %s (pmustat doctor); ", name,
				    pmu_absent[i].why);
			return 1;
		}
	}
	return 0;
}

static int unknown_pmu(const struct sysfs_model *m, const char *name, const char *str,
		       struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char **names = xcalloc(m->npmus + 1, sizeof(*names));
	const char *best;
	size_t i;

	for (i = 0; i < m->npmus; i++)
		names[i] = m->pmus[i].name;
	error_set(err, ERR_USAGE, "unknown PMU '%s' in '%s'", name, str);
	if (!absent_hint(name, &sb) && (best = suggest_best(name, names, m->npmus)))
		strbuf_addf(&sb, "did you mean '%s'? ", best);
	strbuf_adds(&sb, "PMUs here: ");
	for (i = 0; i < m->npmus && sb.len < 400; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", m->pmus[i].name);
	if (!m->npmus)
		strbuf_adds(&sb, "none");
	else if (i < m->npmus)
		strbuf_addf(&sb, " and %zu more (pmustat list)", m->npmus - i);
	error_hint(err, "%s", sb.buf);
	strbuf_release(&sb);
	free(names);
	return -1;
}

/* Modifiers after the closing slash: "u", ":u" or nothing. */
static const char *pmu_modifiers(const char *after)
{
	return *after == ':' ? after + 1 : after;
}

static int pmu_syntax_error(const char *str, const char *what, struct error *err)
{
	error_set(err, ERR_USAGE, "%s in '%s'", what, str);
	return error_hint(err, "write PMU events as 'pmu/term=value,.../', "
			  "as in 'cpu/event=0x76,umask=0x1/' or 'msr/tsc/'");
}

static void pmu_fill(struct event_spec *ev, const struct pmu_ctx *c, const char *str)
{
	ev->attr.type = (__u32)c->pmu->type;
	ev->attr.config = c->config[0];
	ev->attr.config1 = c->config[1];
	ev->attr.config2 = c->config[2];
	spec_set(ev, str, c->pmu->name, EVO_PMU, c->alias ? c->alias->unit : NULL);
	if (c->alias)
		ev->scale = c->alias->scale;
	ev->uncore = c->pmu->cpumask != NULL;
	ev->core_type = c->pmu->cpus != NULL;
}

static int parse_pmu_event(const struct sysfs_model *m, const char *str,
			   struct event_spec *ev, struct error *err)
{
	const char *s1 = strchr(str, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	struct pmu_ctx c;
	char *name;
	int r;

	if (!s2) {
		error_set(err, ERR_USAGE, "unterminated PMU event '%s': missing the closing '/'", str);
		return error_hint(err, "write it as '%s/'", str);
	}
	if (s1 == str)
		return pmu_syntax_error(str, "missing PMU name", err);
	if (strchr(s2 + 1, '/'))
		return pmu_syntax_error(str, "unexpected '/' after the term list", err);
	if (!m) {
		error_set(err, ERR_USAGE, "cannot resolve PMU event '%s' without the sysfs PMU model", str);
		return error_hint(err, "use a generic event such as 'cycles', or a raw 'rNNNN'");
	}
	name = xstrndup(str, (size_t)(s1 - str));
	memset(&c, 0, sizeof(c));
	c.str = str;
	c.pmu = sysfs_pmu_find(m, name);
	if (!c.pmu)
		r = unknown_pmu(m, name, str, err);
	else
		r = parse_terms(&c, s1 + 1, (size_t)(s2 - s1 - 1), 0, err);
	free(name);
	if (r < 0)
		return -1;
	if (c.config[3]) {
		error_set(err, ERR_USAGE, "'%s' sets config3, which this build cannot pass to the kernel", str);
		return error_hint(err, "rebuild pmustat against newer kernel headers");
	}
	pmu_fill(ev, &c, str);
	return apply_modifiers(&ev->attr, pmu_modifiers(s2 + 1), str, err);
}

/* ---- libpfm4 ----------------------------------------------------------- */

/* The PMU name for a libpfm encoding: the sysfs PMU with that type, if any. */
static const char *libpfm_pmu_name(const struct sysfs_model *m, __u32 type, int idx,
				   const struct sysfs_pmu **sp)
{
	pfm_event_info_t info;
	pfm_pmu_info_t pinfo;

	*sp = sysfs_pmu_find_type(m, (int)type);
	if (*sp)
		return (*sp)->name;
	if (type == PERF_TYPE_SOFTWARE)
		return "software";
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW)
		return "cpu";
	memset(&info, 0, sizeof(info));
	memset(&pinfo, 0, sizeof(pinfo));
	info.size = sizeof(info);
	pinfo.size = sizeof(pinfo);
	if (lpfm_get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS &&
	    lpfm_get_pmu_info(info.pmu, &pinfo) == PFM_SUCCESS)
		return pinfo.name;
	return "cpu";
}

/* 1 when libpfm does not know the name, 0 on success, -1 on other errors. */
static int parse_libpfm(const struct sysfs_model *m, const char *str,
			struct event_spec *ev, struct error *err)
{
	pfm_perf_encode_arg_t arg;
	const struct sysfs_pmu *sp;
	int r;

	if (!libpfm_ready())
		return 1;
	memset(&arg, 0, sizeof(arg));
	arg.attr = &ev->attr;
	arg.size = sizeof(arg);
	/* Count every privilege level unless the string says otherwise, as
	 * the kernel's generic events do. */
	r = lpfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3 | PFM_PLMH,
				      PFM_OS_PERF_EVENT_EXT, &arg);
	ev->attr.size = sizeof(ev->attr);
	if (r == PFM_ERR_NOTFOUND)
		return 1;
	if (r != PFM_SUCCESS) {
		char *word = event_word(str);

		error_set(err, ERR_USAGE, "cannot encode libpfm4 event '%s': %s", str,
			  lpfm_strerror(r));
		error_hint(err, "check its unit masks and modifiers with 'pmustat explain %s'",
			   word);
		free(word);
		return -1;
	}
	spec_set(ev, str, libpfm_pmu_name(m, ev->attr.type, arg.idx, &sp), EVO_LIBPFM, NULL);
	ev->uncore = sp && sp->cpumask;
	ev->core_type = sp && sp->cpus;
	return 0;
}

/* ---- entry points ------------------------------------------------------ */

static int parse_plain(const struct sysfs_model *m, const char *str,
		       struct event_spec *ev, struct error *err)
{
	int r = parse_builtin(str, ev, err);

	if (r == 1)
		r = parse_raw(str, ev, err);
	if (r == 1)
		r = parse_libpfm(m, str, ev, err);
	if (r == 1) {
		spec_init(ev);
		return unknown_event(m, str, err);
	}
	return r;
}

int event_parse(const struct sysfs_model *model, const char *str,
		struct event_spec *ev, struct error *err)
{
	int r;

	spec_init(ev);
	if (!*str) {
		error_set(err, ERR_USAGE, "empty event name");
		return error_hint(err, "name an event, as in '-e task-clock' (pmustat list)");
	}
	if (strchr(str, '/'))
		r = parse_pmu_event(model, str, ev, err);
	else
		r = parse_plain(model, str, ev, err);
	if (r < 0)
		event_spec_release(ev);
	return r < 0 ? -1 : 0;
}

/* ---- -e lists ---------------------------------------------------------- */

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

static int list_error(const char *list, const char *what, const char *hint,
		      struct error *err)
{
	error_set(err, ERR_USAGE, "%s in event list '%s'", what, list);
	return error_hint(err, "%s", hint);
}

int event_list_split(const char *list, char ***items, struct error *err)
{
	const char *p, *start = list;
	size_t n = 0, alloc = 0;
	int inside = 0;

	*items = NULL;
	for (p = list;; p++) {
		if (*p == '/')
			inside = !inside;
		if (*p && (*p != ',' || inside))
			continue;
		if (inside)
			break;
		ALLOC_GROW(*items, n + 2, alloc);
		(*items)[n] = trimmed(start, (size_t)(p - start));
		(*items)[++n] = NULL;
		if (!*(*items)[n - 1])
			break;
		if (!*p)
			return (int)n;
		start = p + 1;
	}
	event_list_free(*items);
	*items = NULL;
	if (inside)
		return list_error(list, "unterminated '/'",
				  "close the PMU term list with '/', as in 'cpu/event=0x76/'", err);
	return list_error(list, "empty event",
			  "separate events with single commas, as in 'cycles,instructions'", err);
}

void event_list_free(char **items)
{
	strv_free(items);
}
