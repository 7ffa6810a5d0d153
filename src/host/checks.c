/*
 * Running the checks (checks.h): gather the facts every check needs once —
 * CPU identity and uarch, the sysfs PMU model, perf_event_paranoid, this
 * process's privileges, whether and under which hypervisor we run — then
 * let checks_pmu.c and checks_env.c add their findings, and sum them up in
 * the one-line verdict on hardware counters.
 */
#include "host/checks_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "host/sysctl.h"

/* ---- helpers shared by the check files ---------------------------------- */

struct check *checks_add(struct checks *c, const char *id, const char *area,
			 enum check_status st)
{
	struct check *k;

	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	k = &c->v[c->n++];
	memset(k, 0, sizeof(*k));
	k->id = xstrdup(id);	/* ids may come from data that is freed first */
	k->area = xstrdup(area);
	k->status = st;
	k->tried = c->recorded ? CHECK_RECORDED : CHECK_NOT_TRIED;
	return k;
}

void check_text(char **field, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	strbuf_grow(&sb, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(sb.buf, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb.len = (size_t)n;
	s = strbuf_detach(&sb);
	free(*field);
	*field = s;
}

int checks_read_str(const char *path, char *buf, size_t len)
{
	char *text = NULL;
	int rc = sysfs_read_text(path, &text, NULL);

	buf[0] = '\0';
	if (rc == 0 && text)
		snprintf(buf, len, "%s", text);
	free(text);
	return rc == 0 ? 0 : -1;
}

int checks_read_int(const char *path, int dflt)
{
	char buf[64], *end;
	long v;

	if (checks_read_str(path, buf, sizeof(buf)) || !buf[0])
		return dflt;
	v = strtol(buf, &end, 10);
	return *end ? dflt : (int)v;
}

int checks_probe(struct perf_event_attr *attr, int pid, int cpu)
{
	int fd;

	attr->size = sizeof(*attr);
	attr->disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int checks_pmu_attr(const struct checks *c, const char *pmu, const char *attr, char *buf,
		    size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/%s", c->sysfs_root, pmu,
		 attr);
	return checks_read_str(path, buf, len);
}

const struct check *checks_find(const struct checks *c, const char *id)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].id, id))
			return &c->v[i];
	return NULL;
}

const struct sysfs_pmu *checks_core_pmu(const struct checks *c, const struct cpu_map *m,
					size_t *n)
{
	const struct sysfs_pmu *first = NULL;
	int best = 0;

	/* The first in data order ("cpu", "cpu_core", "cpu_atom", ...), not
	 * in name order: on a hybrid part cpu_core is the one to name. */
	*n = 0;
	for (size_t i = 0; i < c->model.npmus; i++) {
		int rank = cpu_map_core_pmu_rank(m, c->model.pmus[i].name);

		if (rank < 0)
			continue;
		if (!first || rank < best) {
			first = &c->model.pmus[i];
			best = rank;
		}
		(*n)++;
	}
	return first;
}

const char *check_status_name(enum check_status s)
{
	static const char *const names[] = { "ok", "limited", "unavailable" };

	return names[s];
}

const char *check_tried_name(enum check_tried t)
{
	static const char *const names[] = { "tried", "not tried", "recorded" };

	return names[t];
}

/* ---- facts every check needs ------------------------------------------- */

static int is_recorded(void)
{
	const char *s = getenv("PMUSTAT_SYSFS_ROOT"), *p = getenv("PMUSTAT_PROC_ROOT");

	return (s && *s) || (p && *p);
}

/* CapEff of this process: CAP_SYS_ADMIN is bit 21, CAP_PERFMON bit 38. */
static void read_privileges(struct checks *c)
{
	char *status = NULL, *cap;
	unsigned long long eff = 0;

	if (c->recorded) {
		c->privileged = c->sys_admin = -1;
		snprintf(c->privilege, sizeof(c->privilege), "privileges unknown (recorded machine)");
		return;
	}
	if (sysfs_read_text("/proc/self/status", &status, NULL) == 0 &&
	    (cap = strstr(status, "\nCapEff:")))
		eff = strtoull(cap + 8, NULL, 16);
	free(status);
	c->privileged = (eff >> 38 & 1) || (eff >> 21 & 1);
	c->sys_admin = eff >> 21 & 1;
	snprintf(c->privilege, sizeof(c->privilege), "%s%s", geteuid() == 0 ? "root" : "user",
		 eff >> 38 & 1 ? " with CAP_PERFMON" :
		 eff >> 21 & 1 ? " with CAP_SYS_ADMIN" : ", unprivileged");
}

static void hv_note(struct checks_hv *hv, const char *fmt, const char *what)
{
	size_t off = strlen(hv->evidence);

	snprintf(hv->evidence + off, sizeof(hv->evidence) - off, "%s", off ? "; " : "");
	off = strlen(hv->evidence);
	snprintf(hv->evidence + off, sizeof(hv->evidence) - off, fmt, what);
}

static void hv_take(struct checks_hv *hv, const struct cpu_hv *h)
{
	if (h && !hv->vpmu) {
		snprintf(hv->name, sizeof(hv->name), "%s", h->name);
		hv->vpmu = h->vpmu;
	}
}

/* The kernel's own view (its clocksource) goes first: a nested or
 * paravirtual guest can see another hypervisor's cpuid signature. */
static void detect_hv(struct checks *c, const struct cpu_map *m)
{
	struct checks_hv *hv = &c->hv;
	char path[4096], buf[512], *save = NULL;

	memset(hv, 0, sizeof(*hv));
	if (c->cpu.hypervisor == 1)
		hv_note(hv, "%s", c->recorded ? "cpuinfo flag hypervisor" : "cpuid hypervisor bit");
	snprintf(path, sizeof(path), "%s/devices/system/clocksource/clocksource0/"
		 "available_clocksource", c->sysfs_root);
	checks_read_str(path, buf, sizeof(buf));
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (cpu_map_hv_by_clocksource(m, w)) {
			hv_take(hv, cpu_map_hv_by_clocksource(m, w));
			hv_note(hv, "clocksource %s", w);
		}
	if (c->cpu.hv_signature[0]) {
		hv_take(hv, cpu_map_hv_by_cpuid(m, c->cpu.hv_signature));
		hv_note(hv, "cpuid signature '%s'", c->cpu.hv_signature);
	}
	snprintf(path, sizeof(path), "%s/class/dmi/id/sys_vendor", c->sysfs_root);
	if (!checks_read_str(path, buf, sizeof(buf)) && cpu_map_hv_by_dmi(m, buf)) {
		hv_take(hv, cpu_map_hv_by_dmi(m, buf));
		hv_note(hv, "DMI vendor '%s'", buf);
	}
	/* arm64 guests booted without firmware tables have no DMI; the device
	 * tree names the machine (its first "compatible" string). */
	snprintf(path, sizeof(path), "%s/firmware/devicetree/base/compatible", c->sysfs_root);
	if (!checks_read_str(path, buf, sizeof(buf)) && cpu_map_hv_by_dt(m, buf)) {
		hv_take(hv, cpu_map_hv_by_dt(m, buf));
		hv_note(hv, "device tree machine '%s'", buf);
	}
	hv->virtual_machine = hv->evidence[0] ? 1 : c->cpu.hypervisor == 0 ? 0 : -1;
	if (hv->virtual_machine == 1 && !hv->name[0])
		snprintf(hv->name, sizeof(hv->name), "unknown hypervisor");
}

void checks_no_pmu_reason(const struct checks_hv *hv, char *reason, size_t len)
{
	if (hv->virtual_machine == 1)
		snprintf(reason, len, "virtual machine without a virtual PMU (%s)", hv->name);
	else
		snprintf(reason, len, "the kernel does not support this CPU's PMU");
}

static void verdict_available(struct checks *c)
{
	static const struct { const char *id, *label; } items[] = {
		{ "perf_event_open", "software events" },
		{ "msr", "msr/tsc" },
		{ "uprobes", "call counters" },
		{ "valgrind", "simulation" },
	};

	c->navailable = 0;
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		const struct check *k = checks_find(c, items[i].id);

		/* valgrind is looked up here, not on a recorded machine */
		if (k && k->status == CHECK_OK && !(c->recorded && !strcmp(k->id, "valgrind")))
			c->available[c->navailable++] = items[i].label;
	}
}

void checks_verdict(const struct checks *c, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "hardware counters: %s — %s",
				      check_status_name(c->hw_status), c->hw_reason);

	for (size_t i = 0; i < c->navailable && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "; available: ", c->available[i]);
}

/* ---- running ------------------------------------------------------------ */

static int gather(struct checks *c, const char *uarch_override, const struct cpu_map *m,
		  struct error *err)
{
	struct utsname u;

	c->recorded = is_recorded();
	c->sysfs_root = sysfs_root();
	c->proc_root = procfs_root();
	if (cpu_identify(&c->cpu, err) || cpu_uarch(&c->cpu, uarch_override, &c->uarch, err))
		return -1;
	if (sysfs_model_load(&c->model, NULL, err))
		return -1;
	if (!c->recorded && uname(&u) == 0)
		snprintf(c->kernel, sizeof(c->kernel), "%s", u.release);
	c->paranoid = -100;
	host_sysctl_int("kernel/perf_event_paranoid", &c->paranoid);
	read_privileges(c);
	detect_hv(c, m);
	return 0;
}

int checks_run(struct checks *c, const char *uarch_override, struct error *err)
{
	struct cpu_map *m;
	int rc;

	memset(c, 0, sizeof(*c));
	if (cpu_map_load_default(&m, err))
		return -1;
	rc = gather(c, uarch_override, m, err);
	if (!rc) {
		checks_pmu_all(c, m);
		checks_env_all(c);
		verdict_available(c);
	}
	cpu_map_free(m);
	return rc;
}

void checks_release(struct checks *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free((char *)c->v[i].id);
		free((char *)c->v[i].area);
		free(c->v[i].summary);
		free(c->v[i].cause);
		free(c->v[i].remedy);
		free(c->v[i].probe);
	}
	free(c->v);
	sysfs_model_release(&c->model);
	memset(c, 0, sizeof(*c));
}

/* ---- for `pmustat stat` -------------------------------------------------- */

int checks_explain_hw_event(const char *event, struct error *err)
{
	struct checks c;
	struct cpu_map *m;
	struct error ignore;
	size_t ncore = 0;
	char reason[160];
	int rc = 0;

	memset(&c, 0, sizeof(c));
	error_clear(&ignore);
	if (cpu_map_load_default(&m, &ignore))
		return 0;
	c.recorded = is_recorded();
	c.sysfs_root = sysfs_root();
	c.proc_root = procfs_root();
	cpu_identify(&c.cpu, &ignore);
	if (!sysfs_model_load(&c.model, NULL, &ignore) && !checks_core_pmu(&c, m, &ncore)) {
		detect_hv(&c, m);
		checks_no_pmu_reason(&c.hv, reason, sizeof(reason));
		error_set(err, ERR_RUNTIME, "'%s' not counted: this host has no hardware PMU: %s",
			  event, reason);
		error_hint(err, "%s%ssoftware events, call counters and '--backend sim' still "
			   "work; see 'pmustat doctor'", c.hv.vpmu ? c.hv.vpmu : "",
			   c.hv.vpmu ? "; " : "");
		rc = -1;
	}
	sysfs_model_release(&c.model);
	cpu_map_free(m);
	return rc;
}
