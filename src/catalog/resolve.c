/*
 * Resolution: portable metric names -> native events for one uarch, walking
 * each metric's chain of alternatives and recording why every skipped one
 * was skipped. An alternative is skipped when one of its events lives on a
 * PMU that counts system-wide while we measure a process (amd_l3 counts a
 * whole L3 complex), when the host does not expose the PMU (amd_uncore not
 * loaded, a VM without a PMU), or when system-wide counting needs
 * privileges the user lacks. The first usable alternative is chosen; if it
 * is not the primary one, that becomes a note, never a silent change.
 */
#include "catalog/resolve_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "host/sysfs.h"


char *rx_dupn(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int scope_system(json_t *pmu)
{
	const char *s = jstr(pmu, "scope");

	return s && !strcmp(s, "system");
}

/* "cpu", or a pattern with a trailing '*' ("armv8_pmuv3*"). */
static int pmu_name_match(const char *pat, const char *name)
{
	size_t l = strlen(pat);

	return l && pat[l - 1] == '*' ? !strncmp(pat, name, l - 1) : !strcmp(pat, name);
}

/* The host PMU playing this catalogue PMU's role, or NULL. */
const struct sysfs_pmu *rx_host_pmu(const struct sysfs_model *m, json_t *pmu)
{
	size_t i, k;
	json_t *pat;

	for (i = 0; m && i < m->npmus; i++)
		json_array_foreach(json_object_get(pmu, "sysfs"), k, pat)
			if (pmu_name_match(json_string_value(pat), m->pmus[i].name))
				return &m->pmus[i];
	return NULL;
}

/* First sysfs name of a PMU, for display when the host does not have it. */
static const char *pmu_display_name(json_t *pmu)
{
	const char *n = json_string_value(json_array_get(json_object_get(pmu, "sysfs"), 0));

	return n && !strchr(n, '*') ? n : "cpu";
}

static int json_u64(json_t *v, uint64_t *out)
{
	char *end;

	if (json_is_integer(v)) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	*out = strtoull(json_string_value(v), &end, 0);
	return *end ? -1 : 0;
}

/* "0-3" or "0,1,2,3" -> bit mask; NULL -> 0 (any). */
static uint32_t counter_mask(const char *s)
{
	uint32_t m = 0;

	while (s && *s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (unsigned long i = a; i <= b && i < 32; i++)
			m |= 1u << i;
		s = *end ? end + 1 : end;
	}
	return m;
}

/* ---- events ------------------------------------------------------------ */

/* Is this catalogue PMU a core PMU (the "core" role, or one core type of a
 * hybrid part)? */
static int is_core_pmu(json_t *pmu)
{
	return pmu && (!strcmp(jstr(pmu, "name"), "core") || jstr(pmu, "core_type"));
}

/* The PMU's index among catalog_core_pmus(), 0 when it is not a core PMU. */
static int core_index(const struct catalog *cat, const char *role)
{
	struct catalog_core_pmu pm[CATALOG_MAX_CORE_PMUS];
	size_t n = catalog_core_pmus(cat, pm, CATALOG_MAX_CORE_PMUS);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(pm[i].role, role))
			return (int)i;
	return 0;
}

static int find_event(const struct resolution *r, const char *name)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].name, name))
			return (int)i;
	return -1;
}

/* Encode terms through the host's sysfs formats when it has the PMU (the
 * running kernel is the authority), else through the catalogue's. */
static int encode_fields(struct rx *x, json_t *e, json_t *pmu, const struct sysfs_pmu *sp,
			 uint64_t config[4], struct strbuf *fields)
{
	for (size_t k = 0; k < CAT_NFIELDS; k++) {
		json_t *v = json_object_get(e, cat_fields[k]);
		const struct sysfs_format *hf = sp ? sysfs_format_find(sp, cat_fields[k]) : NULL;
		struct sysfs_format f;
		uint64_t val;

		if (!v)
			continue;
		if (json_u64(v, &val) < 0) {
			error_set(x->err, ERR_RUNTIME, "catalogue '%s': event '%s' has a bad '%s'",
				  x->cat->uarch, jstr(e, "name"), cat_fields[k]);
			return -1;
		}
		if (!hf) {
			memset(&f, 0, sizeof(f));
			if (sysfs_format_parse(jstr(json_object_get(pmu, "format"), cat_fields[k]),
					       &f, x->err) < 0)
				return -1;
			hf = &f;
		}
		if (sysfs_format_encode(hf, val, config, x->err) < 0)
			return error_prefix(x->err, "catalogue '%s', event '%s'", x->cat->uarch,
					    jstr(e, "name"));
		strbuf_addf(fields, "%s%s=0x%02llx", fields->len ? "," : "", cat_fields[k],
			    (unsigned long long)val);
	}
	return 0;
}

static int encode_native(struct rx *x, json_t *e, json_t *pmu, struct resolved_event *re)
{
	const struct sysfs_pmu *sp = rx_host_pmu(x->ctx->model, pmu);
	const char *pname = sp ? sp->name : pmu_display_name(pmu);
	struct strbuf fields = STRBUF_INIT, syn = STRBUF_INIT;
	uint64_t config[4] = { 0 };
	json_t *type = json_object_get(pmu, "type");

	if (encode_fields(x, e, pmu, sp, config, &fields) < 0) {
		strbuf_release(&fields);
		return -1;
	}
	re->spec.attr.size = sizeof(re->spec.attr);
	re->spec.attr.config = config[0];
	re->spec.attr.config1 = config[1];
	re->spec.attr.config2 = config[2];
	re->spec.scale = 1.0;
	re->type_known = 1;
	if (sp)
		re->spec.attr.type = (__u32)sp->type;
	else if (json_is_integer(type))
		re->spec.attr.type = (__u32)json_integer_value(type);
	else if (!strcmp(jstr(e, "pmu"), "core"))
		re->spec.attr.type = PERF_TYPE_RAW;	/* core PMUs accept it */
	else
		re->type_known = 0;
	re->spec.name = xstrdup(re->name);
	re->spec.pmu = xstrdup(pname);
	re->spec.unit = xstrdup("");
	re->spec.origin = EVO_PMU;
	re->spec.uncore = re->system;
	re->spec.core_type = re->hybrid;
	strbuf_addf(&syn, "%s/%s/", pname, fields.buf);
	re->syntax = strbuf_detach(&syn);
	re->fields = strbuf_detach(&fields);
	return 0;
}

static int encode_perf(struct rx *x, json_t *e, struct resolved_event *re)
{
	if (event_parse(x->ctx->model, jstr(e, "perf"), &re->spec, x->err) < 0)
		return error_prefix(x->err, "catalogue '%s', event '%s'", x->cat->uarch,
				    jstr(e, "name"));
	free(re->spec.name);
	re->spec.name = xstrdup(re->name);
	re->type_known = 1;
	re->syntax = xstrdup(jstr(e, "perf"));
	re->fields = xstrdup("");
	return 0;
}

/* Add (once) the catalogue event `name`; returns its index or -1. */
static int add_event(struct rx *x, const char *name)
{
	struct resolution *r = x->r;
	json_t *e = cat_event(x->cat->d, name), *pmu;
	struct resolved_event *re;
	const char *pfm = jstr(e, "libpfm"), *lpmu = jstr(e, "libpfm_pmu");
	int i = find_event(r, name);

	if (i >= 0)
		return i;
	pmu = cat_pmu(x->cat->d, jstr(e, "pmu"));
	if (!lpmu)
		lpmu = catalog_libpfm_pmu(x->cat);
	ALLOC_GROW(r->events, r->nevents + 1, r->events_alloc);
	re = &r->events[r->nevents];
	memset(re, 0, sizeof(*re));
	re->name = xstrdup(name);
	re->pmu_role = xstrdup(jstr(e, "pmu"));
	re->desc = rx_dupn(jstr(e, "desc"));
	re->source = rx_dupn(jstr(e, "source"));
	re->system = scope_system(pmu);
	re->fixed = json_is_true(json_object_get(e, "fixed"));
	re->counters = counter_mask(jstr(e, "counters"));
	re->core_index = core_index(x->cat, re->pmu_role);
	re->hybrid = jstr(pmu, "core_type") != NULL && catalog_is_hybrid(x->cat);
	if (pfm && lpmu) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s::%s", lpmu, pfm);
		re->libpfm = strbuf_detach(&sb);
	}
	if ((jstr(e, "perf") ? encode_perf(x, e, re) : encode_native(x, e, pmu, re)) < 0) {
		free(re->name);
		free(re->pmu_role);
		free(re->desc);
		free(re->source);
		free(re->libpfm);
		free(re->syntax);
		free(re->fields);
		event_spec_release(&re->spec);
		return -1;
	}
	return (int)r->nevents++;
}

/* ---- checking one alternative ------------------------------------------ */

static void set_reason(struct resolve_step *s, char *reason, char *need)
{
	s->reason = reason;
	s->need = need;
}

static char *fmt(const char *f, const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, f, a, b ? b : "");
	return strbuf_detach(&sb);
}

/* The event's numbers (one, or the kernel's choices "0x21,0x0c") on a PMU
 * whose events/ lists every common event the CPU implements (the core
 * PMU's "implemented_events" in the catalogue: armv8_pmuv3 shows what the
 * PMCEID registers report), or NULL when that cannot be judged. */
static const char *judged_numbers(json_t *pmu, const struct sysfs_pmu *sp, json_t *e)
{
	json_t *impl = json_object_get(pmu, "implemented_events"), *pat;
	const char *num = jstr(e, "event") ? jstr(e, "event") : jstr(e, "arm_event");
	size_t k;
	int match = 0;

	if (!impl || !sp || !num)
		return NULL;
	json_array_foreach(json_object_get(impl, "sysfs"), k, pat)
		match |= pmu_name_match(json_string_value(pat), sp->name);
	return match ? num : NULL;
}

/* PMCEID covers the common ranges 0x0-0x3f and 0x4000-0x403f only: an
 * implementation-defined number cannot be judged from events/. */
static int common_number(long v)
{
	return v < 0x40 || (v >= 0x4000 && v < 0x4040);
}

/* Does the PMU's events/ list number v? (terms "event=0x0008") */
static int advertised(const struct sysfs_pmu *sp, long v)
{
	for (size_t i = 0; i < sp->naliases; i++) {
		const char *t = strstr(sp->aliases[i].terms, "event=");

		if (t && strtol(t + 6, NULL, 0) == v)
			return 1;
	}
	return 0;
}

/* A common event this PMU does not implement: it would open (arm64 opens
 * any number) and read 0, or be refused (a generic event the kernel maps
 * to it), so it is not countable. */
static int not_implemented(struct rx *x, json_t *pmu, const struct resolved_event *re,
			   struct resolve_step *s)
{
	const struct sysfs_pmu *sp = rx_host_pmu(x->ctx->model, pmu);
	const char *nums = judged_numbers(pmu, sp, cat_event(x->cat->d, re->name)), *p;
	struct strbuf sb = STRBUF_INIT;
	char *end;

	if (!nums)
		return 0;
	for (p = nums; *p; p = *end ? end + 1 : end) {
		long v = strtol(p, &end, 0);

		if (end == p || !common_number(v) || advertised(sp, v))
			return 0;
	}
	strbuf_addf(&sb, "this PMU does not implement '%s' (event %s): '%s' does not list it in "
		    "its sysfs events/, %s", re->name, nums, sp->name,
		    jstr(json_object_get(pmu, "implemented_events"), "why"));
	set_reason(s, strbuf_detach(&sb),
		   fmt("'ls /sys/bus/event_source/devices/%s/events' shows what it implements",
		       sp->name, NULL));
	return 1;
}

/* Why the PMU of a catalogue event is unusable here, or 0 if it is fine. */
static int pmu_unusable(struct rx *x, const struct resolved_event *re, struct resolve_step *s)
{
	json_t *pmu = cat_pmu(x->cat->d, re->pmu_role);
	const char *name = pmu_display_name(pmu), *mod = jstr(pmu, "module");
	const char *per = jstr(pmu, "per");

	if (re->system && !x->ctx->system_wide) {
		struct strbuf need = STRBUF_INIT;

		if (x->ctx->model && !rx_host_pmu(x->ctx->model, pmu) && mod)
			strbuf_addf(&need, "run 'modprobe %s' (the '%s' PMU is not exposed here), "
				    "then ", mod, name);
		else if (!x->ctx->model && mod)
			strbuf_addf(&need, "the '%s' PMU (module %s), and ", name, mod);
		strbuf_addf(&need, "count all CPUs as root or with kernel.perf_event_paranoid<=0, "
			    "e.g. 'perf stat -a -e %s'", re->syntax);
		set_reason(s, fmt("'%s' counts system-wide, per %s; pmustat measures one "
				  "process tree", name, per ? per : "package"),
			   strbuf_detach(&need));
		return 1;
	}
	if (!x->ctx->model || !strcmp(re->pmu_role, "software"))
		return 0;
	if (!rx_host_pmu(x->ctx->model, pmu)) {
		if (is_core_pmu(pmu))
			set_reason(s, xstrdup("no hardware PMU is exposed here (no core PMU in "
					      "sysfs; typical of virtual machines)"),
				   xstrdup("a host or VM with a virtual PMU; see 'pmustat doctor'"));
		else if (mod)
			set_reason(s, fmt("the '%s' PMU is not exposed", name, NULL),
				   fmt("run 'modprobe %s'", mod, NULL));
		else
			set_reason(s, fmt("the '%s' PMU is not exposed", name, NULL),
				   xstrdup("see 'pmustat doctor'"));
		return 1;
	}
	if (re->system && x->ctx->paranoid > 0 && !x->ctx->privileged) {
		set_reason(s, fmt("counting '%s' system-wide needs root or "
				  "kernel.perf_event_paranoid<=0", name, NULL),
			   xstrdup("run as root, or 'sysctl kernel.perf_event_paranoid=0'"));
		return 1;
	}
	return not_implemented(x, pmu, re, s);
}

static char **str_array(json_t *arr, size_t *n)
{
	size_t i;
	json_t *v;
	char **out = NULL;

	*n = json_array_size(arr);
	if (*n)
		out = xcalloc(*n, sizeof(*out));
	json_array_foreach(arr, i, v)
		out[i] = xstrdup(json_string_value(v));
	return out;
}

/* Is f a plain sum of names ("a + b + c")? Hybrid formulas are: one term
 * per core type, so a part can be taken out or counted apart. */
int rx_plain_sum(const char *f)
{
	if (!f || strpbrk(f, "*/()") || strstr(f, " - "))
		return 0;
	for (const char *p = f; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.:- +", *p))
			return 0;
	return 1;
}

/*
 * A hybrid uarch's other core types ("atom") are optional: with E-cores
 * disabled the kernel registers one core PMU only. Their events are then
 * left out of a plain-sum formula (with a caveat) rather than making the
 * whole metric uncountable.
 */
static int missing_core_type(struct rx *x, const char *f, const struct resolved_event *re)
{
	json_t *pmu = cat_pmu(x->cat->d, re->pmu_role);

	return x->ctx->model && re->hybrid && strcmp(re->pmu_role, "core") &&
	       !rx_host_pmu(x->ctx->model, pmu) && rx_host_pmu(x->ctx->model, cat_pmu(x->cat->d, "core")) &&
	       rx_plain_sum(f);
}

static void drop_core_type(struct resolve_step *s, const struct resolved_event *re)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "'%s' is not counted: this host exposes no '%s' PMU (that core type is "
		    "absent or disabled)", re->name, re->spec.pmu);
	s->caveats = xrealloc(s->caveats, (s->ncaveats + 1) * sizeof(char *));
	s->caveats[s->ncaveats++] = strbuf_detach(&sb);
}

/* The step's formula over the events it kept (a plain sum). */
static void rebuild_sum(const struct resolution *r, struct resolve_step *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < s->nevents; i++)
		strbuf_addf(&sb, "%s%s", i ? " + " : "", r->events[s->events[i]].name);
	free(s->formula);
	s->formula = strbuf_detach(&sb);
}

/* Fill s from the step and decide: 1 usable, 0 skipped, -1 error. */
static int check_step(struct rx *x, json_t *step, struct resolve_step *s)
{
	const char *f = jstr(step, "formula");
	char **names = NULL;
	size_t n = 0;
	int usable = 1;

	s->formula = rx_dupn(f);
	s->proxy = rx_dupn(jstr(step, "proxy"));
	s->source = rx_dupn(jstr(step, "source"));
	s->caveats = str_array(json_object_get(step, "caveats"), &s->ncaveats);
	if (jstr(step, "unavailable")) {
		set_reason(s, xstrdup(jstr(step, "unavailable")), rx_dupn(jstr(step, "hint")));
		return 0;
	}
	if (formula_names(f, &names, &n, x->err) < 0)
		return -1;
	s->events = xcalloc(n ? n : 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		int ev = add_event(x, names[i]);

		if (ev < 0)
			usable = -1;
		else if (usable == 1 && !s->reason && missing_core_type(x, f, &x->r->events[ev]))
			drop_core_type(s, &x->r->events[ev]);
		else {
			s->events[s->nevents++] = (size_t)ev;
			if (usable == 1 && !s->reason && pmu_unusable(x, &x->r->events[ev], s))
				usable = 0;
		}
		free(names[i]);
	}
	free(names);
	if (usable == 1 && s->nevents < n)
		rebuild_sum(x->r, s);
	return usable;
}

/* ---- metrics ----------------------------------------------------------- */

struct resolved_metric *rx_new_metric(struct resolution *r, const char *name,
					  const char *requested, json_t *def)
{
	struct resolved_metric *m;

	ALLOC_GROW(r->metrics, r->nmetrics + 1, r->metrics_alloc);
	m = &r->metrics[r->nmetrics++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->requested = xstrdup(requested);
	m->desc = rx_dupn(jstr(def, "desc"));
	m->unit = rx_dupn(jstr(def, "unit"));
	return m;
}

void rx_add_note(struct resolved_metric *m, char *note)
{
	m->notes = xrealloc(m->notes, (m->nnotes + 1) * sizeof(*m->notes));
	m->notes[m->nnotes++] = note;
}

static void choose(struct rx *x, size_t mi, size_t chosen)
{
	struct resolved_metric *m = &x->r->metrics[mi];
	struct resolve_step *s = &m->steps[chosen];

	m->available = 1;
	m->formula = xstrdup(s->formula);
	m->proxy = rx_dupn(s->proxy);
	m->events = xcalloc(s->nevents ? s->nevents : 1, sizeof(size_t));
	m->nevents = s->nevents;
	memcpy(m->events, s->events, s->nevents * sizeof(size_t));
	m->ncaveats = s->ncaveats;
	m->caveats = xcalloc(s->ncaveats ? s->ncaveats : 1, sizeof(char *));
	for (size_t i = 0; i < s->ncaveats; i++)
		m->caveats[i] = xstrdup(s->caveats[i]);
	for (size_t i = 0; i < s->nevents; i++)
		x->r->events[s->events[i]].chosen = 1;
	if (chosen > 0) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s: counted as %s (%s), because %s", m->name,
			    s->proxy ? s->proxy : "its next alternative", s->formula,
			    m->steps[0].reason);
		rx_add_note(m, strbuf_detach(&sb));
		if (m->steps[0].need) {
			free(m->hint);
			m->hint = xstrdup(m->steps[0].need);
		}
	}
}

static int resolve_base(struct rx *x, size_t mi, json_t *chain)
{
	size_t i, n = json_array_size(chain);
	int chosen = -1;

	x->r->metrics[mi].steps = xcalloc(n ? n : 1, sizeof(struct resolve_step));
	for (i = 0; i < n; i++) {
		struct resolve_step *s = &x->r->metrics[mi].steps[i];
		int r;

		x->r->metrics[mi].nsteps++;
		r = check_step(x, json_array_get(chain, i), s);
		if (r < 0)
			return -1;
		s->status = chosen >= 0 ? STEP_NOT_TRIED : r ? STEP_CHOSEN : STEP_SKIPPED;
		if (r && chosen < 0)
			chosen = (int)i;
		if (s->status == STEP_NOT_TRIED)
			s->status = STEP_NOT_TRIED;
	}
	if (chosen >= 0) {
		choose(x, mi, (size_t)chosen);
		return 0;
	}
	if (n) {
		struct resolved_metric *m = &x->r->metrics[mi];

		m->reason = rx_dupn(m->steps[n - 1].reason);
		m->hint = rx_dupn(m->steps[n - 1].need);
	}
	return 0;
}

static int resolve_one(struct rx *x, const char *req, int implied);

/* Replace each metric name in f by "(its formula)". */
char *rx_expand(struct rx *x, const char *f)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = f;

	while (*p) {
		const char *s = p;
		int idx;

		if (!isalpha((unsigned char)*p)) {
			strbuf_addch(&sb, *p++);
			continue;
		}
		while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
		       (*p == '-' && isalnum((unsigned char)p[1])))
			p++;
		{
			char *name = xstrndup(s, (size_t)(p - s));

			idx = resolution_metric_index(x->r, name);
			free(name);
		}
		if (idx >= 0 && x->r->metrics[idx].formula)
			strbuf_addf(&sb, "(%s)", x->r->metrics[idx].formula);
		else
			strbuf_add(&sb, s, (size_t)(p - s));
	}
	return strbuf_detach(&sb);
}

static int resolve_derived(struct rx *x, size_t mi, const char *formula)
{
	char **names;
	size_t n, *inputs;
	int rc = 0;

	if (formula_names(formula, &names, &n, x->err) < 0)
		return -1;
	inputs = xcalloc(n ? n : 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		int idx = rc ? -1 : resolve_one(x, names[i], 1);

		if (idx < 0)
			rc = -1;
		else
			inputs[i] = (size_t)idx;
		free(names[i]);
	}
	free(names);
	if (rc) {
		free(inputs);
		return -1;
	}
	{
		struct resolved_metric *m = &x->r->metrics[mi];
		size_t ne = 0;

		m->kind = MK_DERIVED;
		m->inputs = inputs;
		m->ninputs = n;
		m->metric_formula = xstrdup(formula);
		m->available = 1;
		for (size_t i = 0; i < n; i++) {
			const struct resolved_metric *in = &x->r->metrics[inputs[i]];

			if (!in->available && m->available) {
				struct strbuf sb = STRBUF_INIT;

				m->available = 0;
				strbuf_addf(&sb, "needs '%s', which is not countable: %s", in->name,
					    in->reason ? in->reason : "unavailable");
				m->reason = strbuf_detach(&sb);
				m->hint = rx_dupn(in->hint);
			}
			ne += in->nevents;
		}
		if (m->available)
			m->formula = rx_expand(x, formula);
		m->events = xcalloc(ne ? ne : 1, sizeof(size_t));
		for (size_t i = 0; i < n; i++) {
			const struct resolved_metric *in = &x->r->metrics[inputs[i]];

			for (size_t k = 0; k < in->nevents; k++) {
				size_t j;

				for (j = 0; j < m->nevents && m->events[j] != in->events[k]; j++)
					;
				if (j == m->nevents)
					m->events[m->nevents++] = in->events[k];
			}
		}
	}
	return 0;
}

static int unknown_metric(struct rx *x, const char *req)
{
	const char **names = catalog_metric_names(x->cat);
	size_t n = 0, picks[3], np;
	const char *shown[3];
	struct strbuf sb = STRBUF_INIT;

	while (names[n])
		n++;
	error_set(x->err, ERR_USAGE, "unknown metric '%s'", req);
	np = suggest_pick(req, names, n, picks, 3);
	for (size_t i = 0; i < np; i++)
		shown[i] = names[picks[i]];
	suggest_format(&sb, shown, np);
	strbuf_adds(&sb, np ? " (pmustat list)" :
		    "see the metrics and presets with 'pmustat list'; native events go to -e");
	error_hint(x->err, "%s", sb.buf);
	strbuf_release(&sb);
	free(names);
	return -1;
}

static void anchor_events(struct rx *x, json_t *chain)
{
	size_t i;
	json_t *s;

	json_array_foreach(chain, i, s)
		if (json_is_true(json_object_get(s, "anchor"))) {
			char **names = NULL;
			size_t n = 0;

			/* one event, or one per core type of a hybrid part */
			if (formula_names(jstr(s, "formula"), &names, &n, x->err) < 0)
				continue;
			for (size_t k = 0; k < n; k++) {
				int e = find_event(x->r, names[k]);

				if (e >= 0)
					x->r->events[e].anchor = 1;
				free(names[k]);
			}
			free(names);
		}
}

/* Resolve one name; returns its metric index or -1. */
static int resolve_one(struct rx *x, const char *req, int implied)
{
	json_t *def = cat_definition(x->cat->d, req);
	const char *name = def ? jstr(def, "name") : req;
	int idx = resolution_metric_index(x->r, name);
	size_t mi;
	const char *kind;

	if (idx >= 0) {
		if (!implied && x->r->metrics[idx].implied) {
			x->r->metrics[idx].implied = 0;
			free(x->r->metrics[idx].requested);
			x->r->metrics[idx].requested = xstrdup(req);
		}
		return idx;
	}
	if (!def && !cat_event(x->cat->d, req))
		return unknown_metric(x, req);
	rx_new_metric(x->r, name, req, def);
	mi = x->r->nmetrics - 1;
	x->r->metrics[mi].implied = implied;
	kind = def ? jstr(def, "kind") : NULL;
	if (!def) {
		json_t *chain = json_pack("[{s:s}]", "formula", req);
		int r;

		x->r->metrics[mi].kind = MK_EVENT;
		x->r->metrics[mi].desc = rx_dupn(jstr(cat_event(x->cat->d, req), "desc"));
		r = resolve_base(x, mi, chain);
		json_decref(chain);
		return r < 0 ? -1 : (int)mi;
	}
	if (kind && !strcmp(kind, "process")) {
		struct resolved_metric *m = &x->r->metrics[mi];

		m->kind = MK_PROCESS;
		m->available = !jstr(def, "unavailable");
		m->reason = rx_dupn(jstr(def, "unavailable"));
		m->hint = rx_dupn(jstr(def, "hint"));
		return (int)mi;
	}
	if (jstr(def, "formula"))
		return resolve_derived(x, mi, jstr(def, "formula")) < 0 ? -1 : (int)mi;
	if (!cat_chain(x->cat->d, name)) {
		struct resolved_metric *m = &x->r->metrics[mi];

		m->reason = fmt("the catalogue has no event for '%s' on %s", name, x->cat->uarch);
		m->hint = fmt("pass a native event with -e instead (pmustat list --events)", NULL,
			      NULL);
		return (int)mi;
	}
	if (resolve_base(x, mi, cat_chain(x->cat->d, name)) < 0)
		return -1;
	anchor_events(x, cat_chain(x->cat->d, name));
	return (int)mi;
}

/* Expand presets ("all" = every definition) into sb. */
static void expand_list(const struct catalog *cat, char **items, int n, struct strbuf *sb)
{
	for (int i = 0; i < n; i++) {
		const char *p = catalog_preset(cat, items[i]);

		if (p && !strcmp(p, "*")) {
			size_t k;
			json_t *v;

			json_array_foreach(json_object_get(cat->d->g, "definitions"), k, v)
				strbuf_addf(sb, "%s%s", sb->len ? "," : "", jstr(v, "name"));
		} else {
			strbuf_addf(sb, "%s%s", sb->len ? "," : "", p ? p : items[i]);
		}
	}
}

int catalog_resolve(const struct catalog *cat, const char *metric_list,
		    const struct resolve_ctx *ctx, struct resolution *out, struct error *err)
{
	static const struct resolve_ctx none = { 0 };
	struct rx x = { cat, ctx ? ctx : &none, out, err };
	struct strbuf list = STRBUF_INIT;
	char **items;
	int n;

	memset(out, 0, sizeof(*out));
	out->uarch = xstrdup(cat->uarch);
	out->host_checked = x.ctx->model != NULL;
	n = event_list_split(metric_list, &items, err);
	if (n < 0) {
		resolution_release(out);
		return error_hint(err, "separate metrics with single commas, as in "
				  "'-m ipc,l2-mpki' (pmustat list)");
	}
	expand_list(cat, items, n, &list);
	event_list_free(items);
	n = event_list_split(list.buf, &items, err);
	strbuf_release(&list);
	for (int i = 0; n > 0 && i < n; i++)
		if (resolve_one(&x, items[i], 0) < 0) {
			n = -1;
			break;
		}
	event_list_free(items);
	if (n < 0) {
		resolution_release(out);
		return -1;
	}
	split_core_types(&x);
	return 0;
}

int resolution_metric_index(const struct resolution *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name) || !strcmp(r->metrics[i].requested, name))
			return (int)i;
	return -1;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void resolution_release(struct resolution *r)
{
	for (size_t i = 0; i < r->nevents; i++) {
		struct resolved_event *e = &r->events[i];

		free(e->name);
		event_spec_release(&e->spec);
		free(e->pmu_role);
		free(e->syntax);
		free(e->fields);
		free(e->libpfm);
		free(e->desc);
		free(e->source);
	}
	for (size_t i = 0; i < r->nmetrics; i++) {
		struct resolved_metric *m = &r->metrics[i];

		free(m->name);
		free(m->requested);
		free(m->desc);
		free(m->unit);
		free(m->reason);
		free(m->hint);
		free(m->formula);
		free(m->metric_formula);
		free(m->inputs);
		free(m->events);
		free(m->proxy);
		free_strv(m->caveats, m->ncaveats);
		free_strv(m->notes, m->nnotes);
		for (size_t k = 0; k < m->nsteps; k++) {
			struct resolve_step *s = &m->steps[k];

			free(s->formula);
			free(s->proxy);
			free(s->reason);
			free(s->need);
			free(s->source);
			free(s->events);
			free_strv(s->caveats, s->ncaveats);
		}
		free(m->steps);
	}
	free(r->events);
	free(r->metrics);
	free(r->uarch);
	memset(r, 0, sizeof(*r));
}
