/*
 * Loading and matching data/cpus.json (see cpumap.h for the rules). The
 * parsed rules point into the jansson tree, which the map keeps alive. Load
 * is strict — an unknown uarch name, a malformed range or two rules that
 * could match one CPU at the same priority all fail with the rule's index —
 * because a bad entry would otherwise show up much later as a silently
 * wrong event list on somebody else's machine.
 */
#include "host/cpumap.h"

#include <fnmatch.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/embed.h"
#include "core/strbuf.h"
#include "core/suggest.h"

struct range {
	unsigned lo, hi;
};

struct rule {
	int arm;		/* 0: x86 rule, 1: arm64 rule */
	const char *vendor;	/* x86 */
	int family;		/* x86 */
	unsigned implementer;	/* arm64 */
	struct range *models;	/* x86 models or arm64 parts */
	size_t nmodels;
	struct range *steppings;	/* x86 only; NULL = any stepping */
	size_t nsteppings;
	const char *uarch, *perf, *note;
	int priority, hybrid;
	size_t index;		/* position in its array, for messages */
};

struct cpu_map {
	json_t *root;
	const char *name;
	struct rule *rules;
	size_t nrules;
	const char **uarchs;	/* NULL-terminated */
	size_t nuarchs;
	struct cpu_hv *hvs;
	size_t nhvs;
	struct cpu_uncore *uncore;
	size_t nuncore;
	const char **core_pmus;	/* NULL-terminated */
	const char ***vecs;	/* every strvec() result, to free */
	size_t nvecs, vecs_alloc;
};

/* ---- loading ----------------------------------------------------------- */

static int parse_range(const char *s, struct range *r)
{
	char *end;

	r->lo = (unsigned)strtoul(s, &end, 0);
	if (end == s)
		return -1;
	if (*end == '-') {
		const char *h = end + 1;

		r->hi = (unsigned)strtoul(h, &end, 0);
		if (end == h)
			return -1;
	} else {
		r->hi = r->lo;
	}
	return *end || r->hi < r->lo ? -1 : 0;
}

static int parse_ranges(const struct cpu_map *m, json_t *arr, const char *what, size_t idx,
			struct range **out, size_t *n, struct error *err)
{
	size_t i;
	json_t *v;

	if (!json_is_array(arr) || !json_array_size(arr))
		return error_set(err, ERR_RUNTIME, "%s: rule %zu: '%s' must be a non-empty "
				 "array of ranges", m->name, idx, what);
	*out = xcalloc(json_array_size(arr), sizeof(**out));
	*n = json_array_size(arr);
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v) || parse_range(json_string_value(v), &(*out)[i]))
			return error_set(err, ERR_RUNTIME, "%s: rule %zu: bad %s range %s",
					 m->name, idx, what,
					 json_is_string(v) ? json_string_value(v) : "(not a string)");
	}
	return 0;
}

static const char **strvec(struct cpu_map *m, json_t *arr)
{
	size_t i, n = json_is_array(arr) ? json_array_size(arr) : 0;
	const char **v = xcalloc(n + 1, sizeof(*v));
	json_t *e;

	json_array_foreach(arr, i, e)
		v[i] = json_is_string(e) ? json_string_value(e) : "";
	ALLOC_GROW(m->vecs, m->nvecs + 1, m->vecs_alloc);
	m->vecs[m->nvecs++] = v;
	return v;
}

static const char *str_field(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int known_uarch(const struct cpu_map *m, const char *name)
{
	for (size_t i = 0; i < m->nuarchs; i++)
		if (!strcmp(m->uarchs[i], name))
			return 1;
	return 0;
}

/* Fields both x86 and arm64 rules have. */
static int parse_rule_common(const struct cpu_map *m, json_t *o, struct rule *r,
			     struct error *err)
{
	json_t *prio = json_object_get(o, "priority");

	r->uarch = str_field(o, "uarch");
	r->perf = str_field(o, "perf");
	r->note = str_field(o, "note");
	r->hybrid = json_is_true(json_object_get(o, "hybrid"));
	if (!json_is_integer(prio))
		return error_set(err, ERR_RUNTIME, "%s: %s rule %zu has no integer 'priority'",
				 m->name, r->arm ? "arm64" : "x86", r->index);
	r->priority = (int)json_integer_value(prio);
	if (!r->uarch || !known_uarch(m, r->uarch))
		return error_set(err, ERR_RUNTIME, "%s: %s rule %zu: unknown uarch '%s'",
				 m->name, r->arm ? "arm64" : "x86", r->index,
				 r->uarch ? r->uarch : "(none)");
	return 0;
}

static int parse_x86_rule(const struct cpu_map *m, json_t *o, struct rule *r, struct error *err)
{
	json_t *fam = json_object_get(o, "family"), *st = json_object_get(o, "steppings");

	r->vendor = str_field(o, "vendor");
	if (!r->vendor || !json_is_integer(fam))
		return error_set(err, ERR_RUNTIME, "%s: x86 rule %zu needs 'vendor' and an "
				 "integer 'family'", m->name, r->index);
	r->family = (int)json_integer_value(fam);
	if (parse_rule_common(m, o, r, err) ||
	    parse_ranges(m, json_object_get(o, "models"), "models", r->index, &r->models,
			 &r->nmodels, err))
		return -1;
	if (st && parse_ranges(m, st, "steppings", r->index, &r->steppings, &r->nsteppings, err))
		return -1;
	return 0;
}

static int parse_arm_rule(const struct cpu_map *m, json_t *o, struct rule *r, struct error *err)
{
	const char *impl = str_field(o, "implementer");
	struct range ir;

	if (!impl || parse_range(impl, &ir) || ir.lo != ir.hi || ir.lo > 0xff)
		return error_set(err, ERR_RUNTIME, "%s: arm64 rule %zu needs an 'implementer' "
				 "like \"0x41\"", m->name, r->index);
	r->implementer = ir.lo;
	if (parse_rule_common(m, o, r, err))
		return -1;
	return parse_ranges(m, json_object_get(o, "parts"), "parts", r->index, &r->models,
			    &r->nmodels, err);
}

static int ranges_meet(const struct range *a, size_t na, const struct range *b, size_t nb)
{
	static const struct range any = { 0, ~0u };

	if (!a) {
		a = &any;
		na = 1;
	}
	if (!b) {
		b = &any;
		nb = 1;
	}
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (a[i].lo <= b[j].hi && b[j].lo <= a[i].hi)
				return 1;
	return 0;
}

static int same_scope(const struct rule *a, const struct rule *b)
{
	if (a->arm != b->arm)
		return 0;
	if (a->arm)
		return a->implementer == b->implementer;
	return a->family == b->family && !strcmp(a->vendor, b->vendor);
}

/* The order-independence guarantee: no CPU is matched by two rules of
 * equal priority. */
static int check_overlaps(const struct cpu_map *m, struct error *err)
{
	for (size_t i = 0; i < m->nrules; i++)
		for (size_t j = i + 1; j < m->nrules; j++) {
			const struct rule *a = &m->rules[i], *b = &m->rules[j];

			if (!same_scope(a, b) || a->priority != b->priority ||
			    !ranges_meet(a->models, a->nmodels, b->models, b->nmodels) ||
			    !ranges_meet(a->steppings, a->nsteppings, b->steppings, b->nsteppings))
				continue;
			return error_set(err, ERR_RUNTIME, "%s: rules %s[%zu] and %s[%zu] can match "
					 "the same CPU at priority %d", m->name,
					 a->arm ? "arm64" : "x86", a->index, a->arm ? "arm64" : "x86",
					 b->index, a->priority);
		}
	return 0;
}

static int load_rules(struct cpu_map *m, struct error *err)
{
	json_t *x86 = json_object_get(m->root, "x86"), *arm = json_object_get(m->root, "arm64");
	size_t n = json_array_size(x86) + json_array_size(arm), i;
	json_t *o;

	m->rules = xcalloc(n ? n : 1, sizeof(*m->rules));
	json_array_foreach(x86, i, o) {
		struct rule *r = &m->rules[m->nrules++];

		r->index = i;
		if (parse_x86_rule(m, o, r, err))
			return -1;
	}
	json_array_foreach(arm, i, o) {
		struct rule *r = &m->rules[m->nrules++];

		r->arm = 1;
		r->index = i;
		if (parse_arm_rule(m, o, r, err))
			return -1;
	}
	return check_overlaps(m, err);
}

static void load_hvs(struct cpu_map *m)
{
	json_t *arr = json_object_get(m->root, "hypervisors"), *o;
	size_t i;

	m->hvs = xcalloc(json_array_size(arr) + 1, sizeof(*m->hvs));
	json_array_foreach(arr, i, o) {
		struct cpu_hv *h = &m->hvs[m->nhvs++];

		h->name = str_field(o, "name") ? str_field(o, "name") : "?";
		h->cpuid = str_field(o, "cpuid") ? str_field(o, "cpuid") : "";
		h->vpmu = str_field(o, "vpmu") ? str_field(o, "vpmu") : "";
		h->clocksources = strvec(m, json_object_get(o, "clocksource"));
		h->dmi_vendors = strvec(m, json_object_get(o, "dmi_sys_vendor"));
		h->dt_compatible = strvec(m, json_object_get(o, "dt_compatible"));
	}
}

static void load_uncore(struct cpu_map *m)
{
	json_t *arr = json_object_get(m->root, "uncore"), *o;
	size_t i;

	m->uncore = xcalloc(json_array_size(arr) + 1, sizeof(*m->uncore));
	json_array_foreach(arr, i, o) {
		struct cpu_uncore *u = &m->uncore[m->nuncore++];

		u->vendor = str_field(o, "vendor") ? str_field(o, "vendor") : "";
		u->pmu = str_field(o, "pmu") ? str_field(o, "pmu") : "";
		u->what = str_field(o, "what") ? str_field(o, "what") : "";
		u->module = str_field(o, "module") ? str_field(o, "module") : "";
		u->since = str_field(o, "since");
		u->uarchs = strvec(m, json_object_get(o, "uarchs"));
	}
}

static int load_uarchs(struct cpu_map *m, struct error *err)
{
	json_t *u = json_object_get(m->root, "uarchs"), *v;
	const char *k;
	size_t i = 0;

	if (!json_is_object(u) || !json_object_get(u, "generic"))
		return error_set(err, ERR_RUNTIME, "%s: 'uarchs' must be an object that "
				 "includes 'generic'", m->name);
	m->uarchs = xcalloc(json_object_size(u) + 1, sizeof(*m->uarchs));
	json_object_foreach(u, k, v)
		m->uarchs[i++] = k;
	m->nuarchs = i;
	return 0;
}

int cpu_map_load(struct cpu_map **out, const char *json, size_t len, const char *name,
		 struct error *err)
{
	struct cpu_map *m = xcalloc(1, sizeof(*m));
	json_error_t je;

	*out = NULL;
	m->name = name;
	/* Key order is preserved so that listings follow the file. */
	m->root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (!m->root) {
		error_set(err, ERR_RUNTIME, "%s:%d: %s", name, je.line, je.text);
		cpu_map_free(m);
		return -1;
	}
	if (load_uarchs(m, err) || load_rules(m, err)) {
		cpu_map_free(m);
		return -1;
	}
	load_hvs(m);
	load_uncore(m);
	m->core_pmus = strvec(m, json_object_get(m->root, "core_pmus"));
	*out = m;
	return 0;
}

int cpu_map_load_default(struct cpu_map **out, struct error *err)
{
	size_t len;
	const char *text = embed_find("data/cpus.json", &len);

	if (!text) {
		*out = NULL;
		error_set(err, ERR_RUNTIME, "data file 'data/cpus.json' is not built in");
		return error_hint(err, "rebuild pmustat with 'make'");
	}
	return cpu_map_load(out, text, len, "data/cpus.json", err);
}

void cpu_map_free(struct cpu_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nrules; i++) {
		free(m->rules[i].models);
		free(m->rules[i].steppings);
	}
	free(m->rules);
	for (size_t i = 0; i < m->nvecs; i++)
		free(m->vecs[i]);
	free(m->vecs);
	free(m->uarchs);
	free(m->hvs);
	free(m->uncore);
	json_decref(m->root);
	free(m);
}

/* ---- matching ------------------------------------------------------------ */

static int in_ranges(const struct range *r, size_t n, unsigned v)
{
	for (size_t i = 0; i < n; i++)
		if (v >= r[i].lo && v <= r[i].hi)
			return 1;
	return 0;
}

static int rule_in_scope(const struct rule *r, const struct cpu_id *id)
{
	if (id->arch == CPU_ARCH_ARM64)
		return r->arm && id->has_midr && r->implementer == id->implementer;
	return !r->arm && id->arch == CPU_ARCH_X86 && r->family == id->family &&
	       !strcmp(r->vendor, id->vendor);
}

static unsigned id_model(const struct cpu_id *id)
{
	return id->arch == CPU_ARCH_ARM64 ? id->part : (unsigned)id->model;
}

static int rule_matches(const struct rule *r, const struct cpu_id *id)
{
	if (!rule_in_scope(r, id) || !in_ranges(r->models, r->nmodels, id_model(id)))
		return 0;
	if (!r->steppings)
		return 1;
	return id->stepping >= 0 && in_ranges(r->steppings, r->nsteppings, (unsigned)id->stepping);
}

/* Distance from v to the closest of r's ranges; *hi = that range's top. */
static unsigned range_distance(const struct rule *r, unsigned v, unsigned *hi)
{
	unsigned best = ~0u;

	for (size_t i = 0; i < r->nmodels; i++) {
		unsigned d = v < r->models[i].lo ? r->models[i].lo - v :
			     v > r->models[i].hi ? v - r->models[i].hi : 0;

		if (d < best || (d == best && r->models[i].hi > *hi)) {
			best = d;
			*hi = r->models[i].hi;
		}
	}
	return best;
}

static const struct rule *nearest_rule(const struct cpu_map *m, const struct cpu_id *id)
{
	const struct rule *best = NULL;
	unsigned best_d = ~0u, best_hi = 0;

	for (size_t i = 0; i < m->nrules; i++) {
		const struct rule *r = &m->rules[i];
		unsigned hi = 0, d;

		if (!rule_in_scope(r, id))
			continue;
		d = range_distance(r, id_model(id), &hi);
		if (!best || d < best_d ||
		    (d == best_d && (r->priority > best->priority ||
				     (r->priority == best->priority && hi > best_hi)))) {
			best = r;
			best_d = d;
			best_hi = hi;
		}
	}
	return best;
}

static const struct rule *best_match(const struct cpu_map *m, const struct cpu_id *id)
{
	const struct rule *best = NULL;

	for (size_t i = 0; i < m->nrules; i++)
		if (rule_matches(&m->rules[i], id) &&
		    (!best || m->rules[i].priority > best->priority))
			best = &m->rules[i];
	return best;
}

static void describe_ranges(char *buf, size_t len, const char *what,
			    const struct range *r, size_t n, int width)
{
	size_t off = (size_t)snprintf(buf, len, "%s ", what);

	for (size_t i = 0; i < n && off < len; i++) {
		if (r[i].lo == r[i].hi)
			off += (size_t)snprintf(buf + off, len - off, "%s0x%0*x", i ? "," : "",
						width, r[i].lo);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s0x%0*x-0x%0*x",
						i ? "," : "", width, r[i].lo, width, r[i].hi);
	}
}

static void describe_rule(const struct cpu_map *m, const struct rule *r, char *buf, size_t len)
{
	char ranges[120];

	describe_ranges(ranges, sizeof(ranges), r->arm ? "parts" : "models", r->models,
			r->nmodels, r->arm ? 3 : 2);
	if (r->arm)
		snprintf(buf, len, "%s arm64[%zu]: implementer 0x%02x %s", m->name, r->index,
			 r->implementer, ranges);
	else if (r->steppings)
		snprintf(buf, len, "%s x86[%zu]: %s family %d %s steppings %u-%u", m->name,
			 r->index, r->vendor, r->family, ranges, r->steppings[0].lo,
			 r->steppings[r->nsteppings - 1].hi);
	else
		snprintf(buf, len, "%s x86[%zu]: %s family %d %s", m->name, r->index,
			 r->vendor, r->family, ranges);
}

static const char *arm_vendor(const struct cpu_map *m, unsigned implementer)
{
	json_t *names = json_object_get(m->root, "arm64_implementers");
	char key[8];

	snprintf(key, sizeof(key), "0x%02x", implementer);
	return str_field(names, key);
}

static void set_from_rule(const struct cpu_map *m, const struct rule *r, struct cpu_uarch *out)
{
	const char *desc = cpu_map_uarch_desc(m, r->uarch);

	snprintf(out->name, sizeof(out->name), "%s", r->uarch);
	snprintf(out->perf, sizeof(out->perf), "%s", r->perf ? r->perf : "");
	snprintf(out->note, sizeof(out->note), "%s", r->note ? r->note : "");
	snprintf(out->description, sizeof(out->description), "%s", desc ? desc : "");
	out->hybrid = r->hybrid;
	describe_rule(m, r, out->rule, sizeof(out->rule));
}

static void set_generic(const struct cpu_map *m, struct cpu_uarch *out)
{
	const char *desc = cpu_map_uarch_desc(m, "generic");

	snprintf(out->name, sizeof(out->name), "generic");
	snprintf(out->description, sizeof(out->description), "%s", desc ? desc : "");
}

void cpu_map_lookup(const struct cpu_map *m, const struct cpu_id *id, struct cpu_uarch *out)
{
	const struct rule *r = best_match(m, id);
	char who[160];

	memset(out, 0, sizeof(*out));
	snprintf(out->source, sizeof(out->source), "%s", m->name);
	if (id->arch == CPU_ARCH_ARM64) {
		const char *v = arm_vendor(m, id->implementer);

		snprintf(out->vendor, sizeof(out->vendor), "%s", v ? v : "");
	} else {
		snprintf(out->vendor, sizeof(out->vendor), "%s", id->vendor);
	}
	cpu_id_describe(id, who, sizeof(who));
	if (r) {
		set_from_rule(m, r, out);
		out->exact = 1;
		if (!strcmp(r->uarch, "generic"))
			snprintf(out->warning, sizeof(out->warning), "pmustat has no uarch data "
				 "for this CPU (perf calls it '%s'): portable metrics use the "
				 "kernel's generic events only", r->perf ? r->perf : "?");
	} else if ((r = nearest_rule(m, id))) {
		set_from_rule(m, r, out);
		snprintf(out->warning, sizeof(out->warning), "unknown %s %s: using '%s', the uarch "
			 "of the nearest known one (%s); pass --uarch to choose",
			 id->arch == CPU_ARCH_ARM64 ? "part" : "model", who, r->uarch,
			 strchr(out->rule, ':') ? strchr(out->rule, ':') + 2 : out->rule);
	} else {
		set_generic(m, out);
		snprintf(out->rule, sizeof(out->rule), "%s: no rule for this vendor and family",
			 m->name);
		snprintf(out->warning, sizeof(out->warning), "no uarch data for %s: using "
			 "'generic'; pass --uarch to choose", who);
	}
	snprintf(out->detected, sizeof(out->detected), "%s", out->name);
}

const char *const *cpu_map_uarchs(const struct cpu_map *m, size_t *n)
{
	*n = m->nuarchs;
	return m->uarchs;
}

const char *cpu_map_uarch_desc(const struct cpu_map *m, const char *name)
{
	return str_field(json_object_get(m->root, "uarchs"), name);
}

const struct cpu_hv *cpu_map_hv_by_cpuid(const struct cpu_map *m, const char *sig)
{
	for (size_t i = 0; sig && *sig && i < m->nhvs; i++)
		if (m->hvs[i].cpuid[0] && !strncmp(m->hvs[i].cpuid, sig, 12))
			return &m->hvs[i];
	return NULL;
}

enum hv_list { HV_CLOCKSOURCE, HV_DMI, HV_DT };

static const struct cpu_hv *hv_by_list(const struct cpu_map *m, const char *word, enum hv_list k)
{
	for (size_t i = 0; word && *word && i < m->nhvs; i++) {
		const char *const *l = k == HV_DMI ? m->hvs[i].dmi_vendors :
				       k == HV_DT ? m->hvs[i].dt_compatible : m->hvs[i].clocksources;

		for (; *l; l++)
			if (!strcmp(*l, word))
				return &m->hvs[i];
	}
	return NULL;
}

const struct cpu_hv *cpu_map_hv_by_clocksource(const struct cpu_map *m, const char *cs)
{
	return hv_by_list(m, cs, HV_CLOCKSOURCE);
}

const struct cpu_hv *cpu_map_hv_by_dmi(const struct cpu_map *m, const char *vendor)
{
	return hv_by_list(m, vendor, HV_DMI);
}

const struct cpu_hv *cpu_map_hv_by_dt(const struct cpu_map *m, const char *compatible)
{
	return hv_by_list(m, compatible, HV_DT);
}

int cpu_map_core_pmu_rank(const struct cpu_map *m, const char *pmu)
{
	for (int i = 0; m->core_pmus[i]; i++)
		if (!fnmatch(m->core_pmus[i], pmu, 0))
			return i;
	return -1;
}

int cpu_map_is_core_pmu(const struct cpu_map *m, const char *pmu)
{
	return cpu_map_core_pmu_rank(m, pmu) >= 0;
}

const struct cpu_uncore *cpu_map_uncore(const struct cpu_map *m, size_t *n)
{
	*n = m->nuncore;
	return m->uncore;
}

/* ---- the one-call API ------------------------------------------------- */

static int bad_override(const struct cpu_map *m, const char *name, const char *src,
			struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t pick[3], n = suggest_pick(name, m->uarchs, m->nuarchs, pick, 3);
	const char *names[3];

	for (size_t i = 0; i < n; i++)
		names[i] = m->uarchs[pick[i]];
	error_set(err, ERR_USAGE, "unknown uarch '%s' (from %s)", name, src);
	if (n) {
		suggest_format(&sb, names, n);
	} else {
		strbuf_adds(&sb, "known:");
		for (size_t i = 0; i < m->nuarchs; i++)
			strbuf_addf(&sb, " %s", m->uarchs[i]);
	}
	error_hint(err, "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

int cpu_uarch(const struct cpu_id *id, const char *override, struct cpu_uarch *out,
	      struct error *err)
{
	struct cpu_map *m;
	const char *src = "--uarch";
	char detected[32], vendor[32];

	if (cpu_map_load_default(&m, err))
		return -1;
	cpu_map_lookup(m, id, out);
	if (!override || !*override) {
		override = getenv("PMUSTAT_UARCH");
		src = "PMUSTAT_UARCH";
	}
	if (override && *override) {
		if (!known_uarch(m, override)) {
			bad_override(m, override, src, err);
			cpu_map_free(m);
			return -1;
		}
		snprintf(detected, sizeof(detected), "%s", out->name);
		snprintf(vendor, sizeof(vendor), "%s", out->vendor);
		memset(out, 0, sizeof(*out));
		snprintf(out->name, sizeof(out->name), "%s", override);
		snprintf(out->detected, sizeof(out->detected), "%s", detected);
		snprintf(out->source, sizeof(out->source), "%s", src);
		snprintf(out->rule, sizeof(out->rule), "chosen with %s", src);
		snprintf(out->description, sizeof(out->description), "%s",
			 cpu_map_uarch_desc(m, override));
		snprintf(out->vendor, sizeof(out->vendor), "%s", vendor);
		out->exact = 1;
	}
	cpu_map_free(m);
	return 0;
}
