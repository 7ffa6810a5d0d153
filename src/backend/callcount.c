/*
 * Call counters (see callcount.h): the request and the set. A request is
 * syntax only until callcount_resolve() (callcount_resolve.c) finds each
 * name's code and picks a mechanism; the mechanisms themselves live in
 * callcount_uprobe.c (perf uprobe events, read by the perf_event backend)
 * and callcount_preload.c (the LD_PRELOAD shim and its records). What stays
 * here is what all of them read: names, presets, the set's lifecycle, and
 * the one-line descriptions and completeness notes of a run's values.
 */
#include "backend/callcount_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

const char *const cc_slot_names[CC_NSLOTS] = CALLCOUNT_SLOT_NAMES;

static const struct preset {
	const char *name;
	const char *const syms[8];
} presets[] = {
	{ "allocs", { "malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign",
		      "memalign", "valloc", NULL } },
	{ "frees", { "free", NULL } },
};

/* ---- names ------------------------------------------------------------- */

const char *callcount_mech_name(enum callcount_mech m)
{
	switch (m) {
	case CALLCOUNT_UPROBE:
		return "uprobe";
	case CALLCOUNT_PRELOAD:
		return "preload";
	default:
		return "auto";
	}
}

int callcount_mech_parse(const char *s, enum callcount_mech *m, struct error *err)
{
	static const enum callcount_mech all[] = { CALLCOUNT_AUTO, CALLCOUNT_UPROBE,
						    CALLCOUNT_PRELOAD };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(s, callcount_mech_name(all[i]))) {
			*m = all[i];
			return 0;
		}
	error_set(err, ERR_USAGE, "unknown call-counter mechanism '%s'", s);
	return error_hint(err, "use 'auto', 'uprobe' or 'preload'");
}

static const struct preset *preset_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

int cc_is_preset(const char *name)
{
	return preset_find(name) != NULL;
}

int callcount_is_call(const char *item)
{
	return !strncmp(item, "call:", 5) || preset_find(item) != NULL;
}

int cc_slot_of(const char *sym)
{
	for (int i = 0; i < CC_NSLOTS; i++)
		if (!strcmp(cc_slot_names[i], sym))
			return i;
	return -1;
}

/* ---- the set ----------------------------------------------------------- */

void callcount_init(struct callcount_set *s)
{
	memset(s, 0, sizeof(*s));
}

void callcount_release(struct callcount_set *s)
{
	for (size_t i = 0; i < s->nmetrics; i++) {
		free(s->metrics[i].name);
		strv_free(s->metrics[i].symbols);
		free(s->metrics[i].object);
		free(s->metrics[i].aliases);
	}
	for (size_t i = 0; i < s->nprobes; i++) {
		free(s->probes[i].symbol);
		event_spec_release(&s->probes[i].ev);
	}
	for (size_t i = 0; i < s->nobjects; i++)
		free(s->objects[i]);
	free(s->objects);
	free(s->metrics);
	free(s->probes);
	free(s->mech_reason);
	free(s->program);
	free(s->shim);
	memset(s, 0, sizeof(*s));
}

static char **strv_one(const char *a, size_t len)
{
	char **v = xcalloc(2, sizeof(char *));

	v[0] = xstrndup(a, len);
	return v;
}

static char **strv_preset(const struct preset *p)
{
	size_t n = 0;
	char **v;

	while (p->syms[n])
		n++;
	v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(p->syms[i]);
	return v;
}

int callcount_add(struct callcount_set *s, const char *item, struct error *err)
{
	const struct preset *p = preset_find(item);
	struct callcount_metric *m;
	const char *sym = item + 5, *at;

	for (size_t i = 0; i < s->nmetrics; i++)
		if (!strcmp(s->metrics[i].name, item)) {
			error_set(err, ERR_USAGE, "metric '%s' is listed twice", item);
			return error_hint(err, "list each metric once in -e/-m");
		}
	at = p ? NULL : strchr(sym, '@');
	if (!p && (at == sym || !*sym)) {
		error_set(err, ERR_USAGE, "no function named in '%s'", item);
		return error_hint(err, "write call:SYMBOL or call:SYMBOL@OBJECT, as in 'call:malloc'");
	}
	if (at && !at[1]) {
		error_set(err, ERR_USAGE, "no object named after '@' in '%s'", item);
		return error_hint(err, "write call:SYMBOL@OBJECT, as in 'call:malloc@libc.so.6', "
				  "or leave '@' out");
	}
	ALLOC_GROW(s->metrics, s->nmetrics + 1, s->metrics_alloc);
	m = &s->metrics[s->nmetrics++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(item);
	m->symbols = p ? strv_preset(p) : strv_one(sym, at ? (size_t)(at - sym) : strlen(sym));
	m->object = at ? xstrdup(at + 1) : NULL;
	return 0;
}

/* ---- describing the set and its values ---------------------------------- */

char *callcount_describe(const struct callcount_set *s, size_t mi)
{
	const struct callcount_metric *m = &s->metrics[mi];
	struct strbuf sb = STRBUF_INIT;
	const char *obj = NULL;

	strbuf_adds(&sb, "calls of ");
	if (s->mech == CALLCOUNT_PRELOAD) {
		for (char **sym = m->symbols; *sym; sym++)
			strbuf_addf(&sb, "%s%s", sym == m->symbols ? "" : ", ", *sym);
		strbuf_adds(&sb, " by name, through the LD_PRELOAD shim (preload)");
		return strbuf_detach(&sb);
	}
	for (size_t i = m->first; i < m->first + m->n; i++) {
		const struct callcount_probe *p = &s->probes[i];

		if (obj && strcmp(obj, p->object))
			strbuf_addf(&sb, " in %s; ", obj);
		else if (obj)
			strbuf_adds(&sb, ", ");
		strbuf_adds(&sb, p->symbol);
		obj = p->object;
	}
	if (obj)
		strbuf_addf(&sb, " in %s", obj);
	if (m->aliases)
		strbuf_addf(&sb, " (one function: %s, counted once)", m->aliases);
	strbuf_adds(&sb, " (uprobe)");
	return strbuf_detach(&sb);
}

int callcount_values_incomplete(const struct callcount_values *v, char *why, size_t len)
{
	if (v->spawns)
		snprintf(why, len, "the program started threads or processes (%lu calls), and "
			 "uprobes count its main thread only", v->spawns);
	else if (v->lost)
		snprintf(why, len, "%u of %u processes ended without reporting their counts "
			 "(killed by a signal, or they closed the descriptor)", v->lost,
			 v->processes);
	else
		return 0;
	return 1;
}

void callcount_values_release(struct callcount_values *v)
{
	free(v->value);
	memset(v, 0, sizeof(*v));
}
