/*
 * The doctor's report, rendered twice over the same data (struct checks,
 * from host/checks.c): an aligned text report that opens with a one-line
 * verdict, and a JSON document ("pmustat.doctor/1") with the same content.
 * Pure functions: checks in, text or JSON out.
 */
#include "report/doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "report/texttable.h"

/* ---- shared --------------------------------------------------------------- */

static void format_spec(const struct sysfs_format *f, struct strbuf *sb)
{
	static const char *const field[] = { "config", "config1", "config2", "config3" };

	for (int i = 0; i < f->nbits; i++) {
		const struct sysfs_bits *b = &f->bits[i];

		if (!i)
			strbuf_addf(sb, "%s:", field[b->field & 3]);
		if (b->lo == b->hi)
			strbuf_addf(sb, "%s%d", i ? "," : "", b->lo);
		else
			strbuf_addf(sb, "%s%d-%d", i ? "," : "", b->lo, b->hi);
	}
}

static const char *arch_name(enum cpu_arch a)
{
	return a == CPU_ARCH_X86 ? "x86" : a == CPU_ARCH_ARM64 ? "arm64" : "unknown";
}

/* ---- text ------------------------------------------------------------------ */

static void machine_rows(const struct checks *c, struct texttable *t)
{
	char who[200];
	size_t r;

	cpu_id_describe(&c->cpu, who, sizeof(who));
	r = texttable_row(t);
	texttable_set(t, r, 0, "cpu");
	texttable_set(t, r, 1, "%s%s%s%s (from %s)", who, c->cpu.model_name[0] ? ", \"" : "",
		      c->cpu.model_name, c->cpu.model_name[0] ? "\"" : "", c->cpu.source[0] ?
		      c->cpu.source : "nowhere");
	r = texttable_row(t);
	texttable_set(t, r, 0, "uarch");
	texttable_set(t, r, 1, "%s%s%s (%s)", c->uarch.name, c->uarch.perf[0] ? ", perf: " : "",
		      c->uarch.perf, c->uarch.rule);
	r = texttable_row(t);
	texttable_set(t, r, 0, "virtual");
	if (c->hv.virtual_machine == 1)
		texttable_set(t, r, 1, "yes: %s (%s)", c->hv.name, c->hv.evidence);
	else
		texttable_set(t, r, 1, "%s", c->hv.virtual_machine ? "unknown" :
			      "no (no hypervisor bit)");
	r = texttable_row(t);
	texttable_set(t, r, 0, "kernel");
	texttable_set(t, r, 1, "%s%sperf_event_paranoid=%d, %s",
		      c->kernel[0] ? c->kernel : "", c->kernel[0] ? ", " : "", c->paranoid,
		      c->privilege);
	r = texttable_row(t);
	texttable_set(t, r, 0, "probes");
	if (c->recorded)
		texttable_set(t, r, 1, "not tried: recorded machine (sysfs %s, proc %s)",
			      c->sysfs_root, c->proc_root);
	else
		texttable_set(t, r, 1, "tried on this machine (each test event opened "
			      "disabled, then closed)");
}

/* Length of name without a trailing "_<digits>" (uncore_cha_12 -> 10). */
static size_t family_len(const char *name)
{
	size_t n = strlen(name), d = n;

	while (d && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	return d < n && d && name[d - 1] == '_' ? d : n;
}

/* One line for all PMUs; numbered instances (uncore_cha_0 .. _59 on a big
 * server) collapse into "uncore_cha_*(x60, system-wide)". */
static void pmu_row(const struct checks *c, struct texttable *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t r = texttable_row(t);

	for (size_t i = 0, j; i < c->model.npmus; i = j) {
		const struct sysfs_pmu *p = &c->model.pmus[i];
		size_t fl = family_len(p->name);

		for (j = i + 1; fl < strlen(p->name) && j < c->model.npmus; j++)
			if (family_len(c->model.pmus[j].name) != fl ||
			    strncmp(c->model.pmus[j].name, p->name, fl))
				break;
		if (j - i > 1)
			strbuf_addf(&sb, "%s%.*s*(x%zu%s)", i ? " " : "", (int)fl, p->name, j - i,
				    p->cpumask ? ", system-wide" : "");
		else
			strbuf_addf(&sb, "%s%s(%d%s)", i ? " " : "", p->name, p->type,
				    p->cpumask ? ", system-wide" : "");
	}
	texttable_set(t, r, 0, "PMUs");
	texttable_set(t, r, 1, "%s", sb.len ? sb.buf : "none");
	strbuf_release(&sb);
}

static void sub_row(struct texttable *t, const char *label, const char *text)
{
	size_t r;

	if (!text)
		return;
	r = texttable_row(t);
	texttable_set(t, r, 2, "%s%s", label, text);
}

static void check_rows(const struct check *k, struct texttable *t)
{
	size_t r = texttable_row(t);

	texttable_set(t, r, 0, "%s", check_status_name(k->status));
	texttable_set(t, r, 1, "%s", k->id);
	texttable_set(t, r, 2, "%s", k->summary ? k->summary : "");
	sub_row(t, "cause: ", k->cause);
	sub_row(t, "fix:   ", k->remedy);
	if (k->probe)
		sub_row(t, k->tried == CHECK_TRIED ? "tried: " : "", k->probe);
}

void report_doctor_text(const struct checks *c, struct strbuf *out)
{
	struct texttable t;
	char verdict[1024];
	const char *area = NULL;

	checks_verdict(c, verdict, sizeof(verdict));
	strbuf_addf(out, "%s\n\nmachine\n", verdict);
	texttable_init(&t, 2, "ll");
	machine_rows(c, &t);
	pmu_row(c, &t);
	texttable_render(&t, 2, out);
	texttable_release(&t);
	if (c->uarch.warning[0])
		strbuf_addf(out, "  warning: %s\n", c->uarch.warning);
	if (c->uarch.note[0])
		strbuf_addf(out, "  note: %s\n", c->uarch.note);
	texttable_init(&t, 3, "lll");
	for (size_t i = 0; i < c->n; i++) {
		if (!area || strcmp(area, c->v[i].area)) {
			area = c->v[i].area;
			texttable_render(&t, 2, out);
			texttable_release(&t);
			texttable_init(&t, 3, "lll");
			strbuf_addf(out, "\n%s\n", area);
		}
		check_rows(&c->v[i], &t);
	}
	texttable_render(&t, 2, out);
	texttable_release(&t);
}

/* ---- JSON ------------------------------------------------------------------ */

static json_t *int_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *bool_or_null(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *perfmon_json(const struct cpu_id *id)
{
	return json_pack("{s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o}",
			 "arch_perfmon", bool_or_null(id->arch_perfmon),
			 "version", int_or_null(id->perfmon_version),
			 "gp_counters", int_or_null(id->gp_counters),
			 "fixed_counters", int_or_null(id->fixed_counters),
			 "counter_width", int_or_null(id->counter_width),
			 "perfctr_core", bool_or_null(id->perfctr_core),
			 "perfctr_nb", bool_or_null(id->perfctr_nb),
			 "perfctr_llc", bool_or_null(id->perfctr_llc),
			 "perfmon_v2", bool_or_null(id->perfmon_v2),
			 "df_counters", int_or_null(id->df_counters),
			 "umc_counters", int_or_null(id->umc_counters),
			 "hybrid", bool_or_null(id->hybrid));
}

static json_t *cpu_json(const struct cpu_id *id)
{
	json_t *o = json_pack("{s:s s:s s:o s:o s:o s:o s:o s:o s:o}",
			      "arch", arch_name(id->arch), "source", id->source,
			      "vendor", str_or_null(id->vendor),
			      "family", int_or_null(id->family),
			      "model", int_or_null(id->model),
			      "stepping", int_or_null(id->stepping),
			      "model_name", str_or_null(id->model_name),
			      "hypervisor_bit", bool_or_null(id->hypervisor),
			      "hypervisor_signature", str_or_null(id->hv_signature));
	char midr[24];

	if (id->has_midr) {
		snprintf(midr, sizeof(midr), "0x%08llx", (unsigned long long)id->midr);
		json_object_set_new(o, "midr", json_string(midr));
		json_object_set_new(o, "implementer", json_integer(id->implementer));
		json_object_set_new(o, "variant", json_integer(id->variant));
		json_object_set_new(o, "part", json_integer(id->part));
		json_object_set_new(o, "revision", json_integer(id->revision));
	} else {
		json_object_set_new(o, "midr", json_null());
	}
	json_object_set_new(o, "perfmon", perfmon_json(id));
	return o;
}

static json_t *uarch_json(const struct cpu_uarch *u)
{
	return json_pack("{s:s s:s s:b s:s s:s s:o s:o s:o s:o s:b}",
			 "name", u->name, "detected", u->detected, "exact", u->exact,
			 "source", u->source, "rule", u->rule, "perf", str_or_null(u->perf),
			 "description", str_or_null(u->description), "note", str_or_null(u->note),
			 "warning", str_or_null(u->warning), "hybrid", u->hybrid);
}

static json_t *pmu_json(const struct checks *c, const struct sysfs_pmu *p,
		       const struct cpu_map *m)
{
	static const char *const attrs[] = { "rdpmc", "perf_event_mux_interval_ms", "cpus" };
	json_t *formats = json_object(), *caps = json_object(), *o;
	struct strbuf sb = STRBUF_INIT;
	char v[256];

	for (size_t i = 0; i < p->nformats; i++) {
		strbuf_reset(&sb);
		format_spec(&p->formats[i], &sb);
		json_object_set_new(formats, p->formats[i].name, json_string(sb.buf));
	}
	for (size_t i = 0; i < p->ncaps; i++) {
		const char *eq = strchr(p->caps[i], '=');

		if (eq) {
			strbuf_reset(&sb);
			strbuf_add(&sb, p->caps[i], (size_t)(eq - p->caps[i]));
			json_object_set_new(caps, sb.buf, json_string(eq + 1));
		}
	}
	strbuf_release(&sb);
	o = json_pack("{s:s s:i s:b s:s s:o s:o s:i s:o}", "name", p->name, "type", p->type,
		      "core", m && cpu_map_is_core_pmu(m, p->name),
		      "scope", p->cpumask ? "system-wide" : "per-process",
		      "cpumask", str_or_null(p->cpumask), "formats", formats,
		      "events", (int)p->naliases, "caps", caps);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		json_object_set_new(o, attrs[i], checks_pmu_attr(c, p->name, attrs[i], v,
								 sizeof(v)) ? json_null() :
						 json_string(v));
	return o;
}

static json_t *check_json(const struct check *k)
{
	return json_pack("{s:s s:s s:s s:o s:o s:o s:s s:o}", "id", k->id, "area", k->area,
			 "status", check_status_name(k->status), "summary", str_or_null(k->summary),
			 "cause", str_or_null(k->cause), "remedy", str_or_null(k->remedy),
			 "tried", check_tried_name(k->tried), "probe", str_or_null(k->probe));
}

static json_t *verdict_json(const struct checks *c)
{
	json_t *avail = json_array();
	char text[1024];

	for (size_t i = 0; i < c->navailable; i++)
		json_array_append_new(avail, json_string(c->available[i]));
	checks_verdict(c, text, sizeof(text));
	return json_pack("{s:s s:s s:o s:s}", "hardware_counters", check_status_name(c->hw_status),
			 "reason", c->hw_reason, "available", avail, "text", text);
}

json_t *report_doctor_json(const struct checks *c, const struct cpu_map *m)
{
	json_t *pmus = json_array(), *checks = json_array(), *warnings = json_array();

	for (size_t i = 0; i < c->model.npmus; i++)
		json_array_append_new(pmus, pmu_json(c, &c->model.pmus[i], m));
	for (size_t i = 0; i < c->n; i++)
		json_array_append_new(checks, check_json(&c->v[i]));
	if (c->uarch.warning[0])
		json_array_append_new(warnings, json_string(c->uarch.warning));
	return json_pack("{s:s s:o s:s s:s s:s s:o s:o s:{s:o s:o s:s} s:o s:o s:s s:o s:o s:o s:o}",
			 "schema", "pmustat.doctor/1", "verdict", verdict_json(c),
			 "mode", c->recorded ? "recorded" : "live",
			 "sysfs_root", c->sysfs_root, "proc_root", c->proc_root,
			 "cpu", cpu_json(&c->cpu), "uarch", uarch_json(&c->uarch),
			 "virtualization",
			 "virtual_machine", bool_or_null(c->hv.virtual_machine),
			 "hypervisor", str_or_null(c->hv.name), "evidence", c->hv.evidence,
			 "kernel", str_or_null(c->kernel),
			 "paranoid", c->paranoid == -100 ? json_null() : json_integer(c->paranoid),
			 "privileges", c->privilege, "privileged", bool_or_null(c->privileged),
			 "pmus", pmus, "checks", checks, "warnings", warnings);
}

