/*
 * The uprobe mechanism of call counters (kernel perf_uprobe PMU,
 * perf_event_open(2) "kprobe and uprobe"): attr.type is the PMU's dynamic
 * type from sysfs, config1 a pointer to the object's path, config2 the file
 * offset, and config bit 0 ("retprobe" in the format directory) stays 0 for
 * an entry probe. Opening one requires CAP_SYS_ADMIN whatever
 * perf_event_paranoid says, which is why a failed probe with EACCES/EPERM
 * means "use the shim", not "lower paranoid". The perf_event backend reads
 * the events like any counter; the sentinels added here (thread and process
 * creation) tell when the main-thread-only counts are lower bounds.
 */
#include "backend/callcount_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/perf_event.h"
#include "core/strbuf.h"
#include "host/sysfs.h"
#include "host/checks.h"

/*
 * The functions that start another thread or process. uprobes count the
 * main thread only, so a call of one of these there means calls elsewhere
 * went uncounted. glibc's system() and popen() spawn through posix_spawn
 * internally; both are listed in case that changes.
 */
static const char *const spawn_syms[] = {
	"pthread_create", "fork", "_Fork", "vfork", "clone", "posix_spawn", "posix_spawnp",
	"system", "popen", "daemon",
};

static void uprobe_event(struct callcount_probe *p, int type)
{
	struct strbuf name = STRBUF_INIT;

	strbuf_addf(&name, "call:%s", p->symbol);
	event_spec_release(&p->ev);
	p->ev.name = strbuf_detach(&name);
	p->ev.pmu = xstrdup("uprobe");
	p->ev.unit = xstrdup("");
	p->ev.origin = EVO_PMU;
	p->ev.scale = 1.0;
	p->ev.attr.size = sizeof(p->ev.attr);
	p->ev.attr.type = (__u32)type;
	p->ev.attr.config = 0;	/* not a return probe */
	p->ev.attr.config1 = (__u64)(uintptr_t)p->object;
	p->ev.attr.config2 = p->offset;
}

/* errno of opening ev on ourselves, 0 when it opens. */
static int probe_errno(const struct event_spec *ev)
{
	struct perf_set set;
	int e;

	perf_set_open(&set, ev, NULL, 1, 0);
	e = set.c[0].fd >= 0 ? 0 : set.c[0].open_errno;
	perf_set_release(&set);
	return e;
}

/* Build the events; NULL when the first one opens here, else why not. */
char *cc_uprobes_unusable(struct callcount_set *s, const struct sysfs_model *model)
{
	const struct sysfs_pmu *pmu = model ? sysfs_pmu_find(model, "uprobe") : NULL;
	struct strbuf why = STRBUF_INIT;
	int e;

	if (!pmu)
		return xstrdup("the kernel exposes no uprobe PMU (CONFIG_UPROBE_EVENTS)");
	for (size_t i = 0; i < s->nprobes; i++)
		uprobe_event(&s->probes[i], pmu->type);
	e = probe_errno(&s->probes[0].ev);
	if (!e)
		return NULL;
	if (e == EACCES || e == EPERM)
		strbuf_adds(&why, CHECKS_UPROBE_NEEDS);
	else
		strbuf_addf(&why, "a uprobe on '%s' did not open (%s)", s->probes[0].symbol,
			    strerror(e));
	for (size_t i = 0; i < s->nprobes; i++)
		event_spec_release(&s->probes[i].ev);
	return strbuf_detach(&why);
}

/* Probe the spawning functions the program can reach (uprobe mode). */
static int add_sentinels(struct callcount_set *s, struct cc_objects *o, int type, struct error *err)
{
	for (size_t k = 0; k < ARRAY_SIZE(spawn_syms); k++) {
		struct cc_found f;
		struct error ignore;
		size_t before = s->nprobes;

		/* Best effort: a spawn function that cannot be found cannot
		 * be called either. */
		if (cc_search_all(o, spawn_syms[k], &f, &ignore) <= 0 || f.sym.type != STT_FUNC)
			continue;
		if (cc_add_sentinel(s, o, spawn_syms[k], &f, err))
			return -1;
		if (s->nprobes > before)
			uprobe_event(&s->probes[before], type);
	}
	return 0;
}

int cc_use_uprobes(struct callcount_set *s, const struct callcount_opts *o,
		       struct cc_objects *objs, const char *no_preload, struct error *err)
{
	struct strbuf why = STRBUF_INIT;

	if (add_sentinels(s, objs, sysfs_pmu_find(o->model, "uprobe")->type, err))
		return -1;
	strbuf_adds(&why, "uprobes count the main thread only");
	if (no_preload)
		strbuf_addf(&why, " (the LD_PRELOAD shim cannot be used: %s)", no_preload);
	else
		strbuf_adds(&why, " (uprobes were requested)");
	s->mech = CALLCOUNT_UPROBE;
	s->mech_reason = strbuf_detach(&why);
	return 0;
}

/* ---- using the events ------------------------------------------------- */

void callcount_event_copy(const struct callcount_set *s, size_t i, struct event_spec *out)
{
	if (s->mech != CALLCOUNT_UPROBE) {	/* no events: nothing to copy */
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = s->probes[i].ev;
	out->name = xstrdup(s->probes[i].ev.name);
	out->pmu = xstrdup(s->probes[i].ev.pmu);
	out->unit = xstrdup(s->probes[i].ev.unit);
}

int callcount_same_probes(const struct callcount_set *a, const struct callcount_set *b)
{
	if (a->mech != b->mech || a->nprobes != b->nprobes || a->nmetrics != b->nmetrics)
		return 0;
	for (size_t i = 0; i < a->nprobes; i++) {
		const struct callcount_probe *p = &a->probes[i], *q = &b->probes[i];

		if (p->dev != q->dev || p->ino != q->ino || p->offset != q->offset ||
		    p->metric != q->metric)
			return 0;
	}
	return 1;
}

int callcount_uprobe_values(const struct callcount_set *s, const uint64_t *raw, const int *ok,
			    struct callcount_values *v, struct error *err)
{
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < s->nprobes; i++)
		if (!ok[i])
			return error_set(err, ERR_RUNTIME, "the uprobe on '%s' in '%s' was not "
					 "read", s->probes[i].symbol, s->probes[i].object);
	v->value = xcalloc(s->nmetrics ? s->nmetrics : 1, sizeof(double));
	for (size_t i = 0; i < s->nprobes; i++) {
		if (s->probes[i].metric == CALLCOUNT_SENTINEL)
			v->spawns += raw[i];
		else
			v->value[s->probes[i].metric] += (double)raw[i];
	}
	return 0;
}
