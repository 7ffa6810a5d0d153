/*
 * The checks that perf_event_open decides: is the syscall usable at all,
 * what perf_event_paranoid and our privileges allow, is there a hardware
 * (core) PMU, a hybrid pair, the msr PMU, the uncore PMUs this part should
 * have, the NMI watchdog's counter, rdpmc for the region API, uprobes for
 * call counters. Live, each is tried with a real test event that is opened
 * disabled and closed at once; recorded, each is deduced from the files.
 */
#include "host/checks_int.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "host/sysctl.h"

#define DEVICES "bus/event_source/devices"
#define SETCAP "'sudo setcap cap_perfmon+ep $(command -v pmustat)'"

static int seccomp_filtered(void)
{
	char *status = NULL, *line;
	int mode = 0;

	if (sysfs_read_text("/proc/self/status", &status, NULL) == 0 &&
	    (line = strstr(status, "\nSeccomp:")))
		mode = atoi(line + 9);
	free(status);
	return mode == 2;
}

static void user_attr(struct perf_event_attr *a, unsigned type, unsigned long long config)
{
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->config = config;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* ---- perf_event_open itself ------------------------------------------- */

static void blocked_by_seccomp(struct checks *c, struct check *k, int e)
{
	snprintf(c->hw_reason, sizeof(c->hw_reason), "perf_event_open is blocked by a seccomp "
		 "filter (container)");
	check_text(&k->summary, "blocked: a seccomp filter makes perf_event_open fail (%s)",
		   e == ENOSYS ? "ENOSYS" : "EPERM");
	check_text(&k->cause, "this process runs under a seccomp filter (a container runtime's "
		   "default profile, or systemd's SystemCallFilter=) that refuses the "
		   "perf_event_open system call: no counter of any kind can be opened");
	check_text(&k->remedy, "allow perf_event_open: 'docker run --security-opt "
		   "seccomp=unconfined --cap-add PERFMON ...' (or a seccomp profile that allows "
		   "it); Kubernetes: securityContext.seccompProfile.type: Unconfined; systemd: "
		   "remove it from SystemCallFilter=");
}

static void paranoid3(struct checks *c, struct check *k)
{
	snprintf(c->hw_reason, sizeof(c->hw_reason), "perf_event_open is forbidden to "
		 "unprivileged users (perf_event_paranoid=%d)", c->paranoid);
	check_text(&k->summary, "forbidden for unprivileged users (perf_event_paranoid=%d)",
		   c->paranoid);
	check_text(&k->cause, "perf_event_paranoid=%d (a Debian/Ubuntu/Android kernel "
		   "setting above the upstream maximum of 2) refuses perf_event_open to every "
		   "process without CAP_PERFMON", c->paranoid);
	check_text(&k->remedy, "'sudo sysctl kernel.perf_event_paranoid=2' (own processes, "
		   "user space), or run as root, or %s", SETCAP);
}

static void check_syscall(struct checks *c)
{
	struct check *k = checks_add(c, "perf_event_open", "kernel", CHECK_OK);
	struct perf_event_attr a;
	int e;

	if (c->recorded) {
		if (c->paranoid >= 3) {
			k->status = CHECK_UNAVAILABLE;
			paranoid3(c, k);
		} else {
			check_text(&k->summary, "usable for software events (deduced from "
				   "perf_event_paranoid=%d)", c->paranoid);
		}
		check_text(&k->probe, "not tried: recorded machine");
		return;
	}
	user_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	e = checks_probe(&a, 0, -1);
	k->tried = CHECK_TRIED;
	check_text(&k->probe, "opened software event 'task-clock' on this process: %s",
		   e ? strerror(e) : "ok");
	if (!e) {
		check_text(&k->summary, "usable: software events (task-clock, page-faults, "
			   "context-switches, ...) open");
		return;
	}
	k->status = CHECK_UNAVAILABLE;
	if ((e == ENOSYS || e == EPERM) && seccomp_filtered()) {
		blocked_by_seccomp(c, k, e);
	} else if (e == ENOSYS) {
		check_text(&k->summary, "missing: this kernel has no perf_event_open (ENOSYS)");
		snprintf(c->hw_reason, sizeof(c->hw_reason), "this kernel has no perf_event_open");
		check_text(&k->cause, "the kernel was built without CONFIG_PERF_EVENTS");
		check_text(&k->remedy, "boot a kernel with CONFIG_PERF_EVENTS=y; until then "
			   "only '--backend sim' works");
	} else if ((e == EACCES || e == EPERM) && c->paranoid >= 3 && !c->privileged) {
		paranoid3(c, k);
	} else {
		check_text(&k->summary, "refused: %s", strerror(e));
		snprintf(c->hw_reason, sizeof(c->hw_reason), "perf_event_open is refused (%s)",
			 strerror(e));
		check_text(&k->cause, "a security module (SELinux, AppArmor) or policy refused "
			   "perf_event_open: %s", strerror(e));
		check_text(&k->remedy, "look for the denial in 'journalctl -k | grep -i denied' "
			   "and allow perf_event_open for this program");
	}
}

static int syscall_ok(const struct checks *c)
{
	const struct check *k = checks_find(c, "perf_event_open");

	return k && k->status == CHECK_OK;
}

/* ---- perf_event_paranoid and privileges --------------------------------- */

static const char *paranoid_allows(int p)
{
	if (p >= 3)
		return "nothing without CAP_PERFMON";
	if (p == 2)
		return "own processes, user space only";
	if (p == 1)
		return "own processes, user and kernel space";
	if (p == 0)
		return "own processes plus system-wide and uncore events";
	if (p == -100)
		return "unknown (perf_event_paranoid unreadable)";
	return "everything, for every user";
}

static void permission_probes(struct checks *c, struct check *k)
{
	struct perf_event_attr a;
	int ek, es;

	if (c->recorded || !syscall_ok(c)) {
		check_text(&k->probe, c->recorded ? "not tried: recorded machine" :
			   "not tried: perf_event_open is unusable");
		return;
	}
	user_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	a.exclude_kernel = 0;
	ek = checks_probe(&a, 0, -1);
	user_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	a.exclude_kernel = 0;
	es = checks_probe(&a, -1, 0);
	k->tried = CHECK_TRIED;
	check_text(&k->probe, "kernel-mode 'task-clock' on this process: %s; system-wide "
		   "'cpu-clock' on CPU 0: %s", ek ? strerror(ek) : "ok", es ? strerror(es) : "ok");
}

static void check_permissions(struct checks *c)
{
	struct check *k = checks_add(c, "permissions", "permissions", CHECK_OK);
	int p = c->paranoid;

	if (c->privileged == 1) {
		check_text(&k->summary, "%s: every event, user and kernel, system-wide and uncore "
			   "(perf_event_paranoid=%d does not apply)", c->privilege, p);
	} else {
		const char *who = c->privileged == 0 ? "unprivileged" :
				  "as an unprivileged user (the recorded user's capabilities are unknown)";

		check_text(&k->summary, "perf_event_paranoid=%d, %s: %s", p, who,
			   paranoid_allows(p));
		if (p >= 3)
			k->status = CHECK_UNAVAILABLE;
		else if (p >= 1 || p == -100)
			k->status = CHECK_LIMITED;
	}
	if (k->status != CHECK_OK) {
		if (p >= 3 || p == -100)
			check_text(&k->cause, "perf_event_paranoid=%d: %s", p, p == -100 ?
				   "the setting is unreadable, so what is allowed is unknown" :
				   "every perf_event_open is refused to users without CAP_PERFMON");
		else
			check_text(&k->cause, "perf_event_paranoid=%d limits users without "
				   "CAP_PERFMON to %s: %s", p, paranoid_allows(p), p == 2 ?
				   "kernel-mode counts are excluded and uncore/system-wide events "
				   "are refused" : "uncore/system-wide events are refused");
		check_text(&k->remedy, "'sudo sysctl kernel.perf_event_paranoid=%d' (%s), or grant "
			   "CAP_PERFMON: %s", p >= 3 ? 2 : 0, p >= 3 ? "own processes, user space; "
			   "0 adds system-wide and uncore" : "system-wide and uncore; 1 = kernel "
			   "too, -1 = no limits", SETCAP);
	}
	permission_probes(c, k);
}

/* ---- the core PMU ------------------------------------------------------- */

static void counters_text(const struct checks *c, const struct sysfs_pmu *p, char *buf,
			  size_t len)
{
	const struct cpu_id *id = &c->cpu;
	char path[4096], v[64];
	size_t off = 0;

	buf[0] = '\0';
	if (id->gp_counters >= 0)
		off += (size_t)snprintf(buf + off, len - off, ", %d general-purpose counters",
					id->gp_counters);
	if (id->fixed_counters >= 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " + %d fixed", id->fixed_counters);
	if (id->arch == CPU_ARCH_ARM64 && off < len) {	/* no CPUID: data or the boot log */
		struct strbuf sb = STRBUF_INIT;

		checks_counters_text(c, &sb);
		off += (size_t)snprintf(buf + off, len - off, "%s", sb.buf);
		strbuf_release(&sb);
	}
	if (id->perfmon_v2 == 1 && off < len)
		off += (size_t)snprintf(buf + off, len - off, ", PerfMonV2");
	else if (id->perfmon_version > 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, ", arch perfmon v%d",
					id->perfmon_version);
	snprintf(path, sizeof(path), "%s/" DEVICES "/%s/perf_event_mux_interval_ms",
		 c->sysfs_root, p->name);
	if (!checks_read_str(path, v, sizeof(v)) && v[0] && off < len)
		snprintf(buf + off, len - off, ", multiplexing every %s ms", v);
}

static void no_core_pmu(struct checks *c, struct check *k)
{
	char reason[160], who[160];

	checks_no_pmu_reason(&c->hv, reason, sizeof(reason));
	cpu_id_describe(&c->cpu, who, sizeof(who));
	k->status = CHECK_UNAVAILABLE;
	check_text(&k->summary, "no hardware PMU: %s", reason);
	if (c->hv.virtual_machine == 1) {
		check_text(&k->cause, "the hypervisor (%s) gives this guest no virtual PMU, so the "
			   "kernel registered no core PMU ('cpu'): cycles, instructions, cache and "
			   "branch events cannot be counted; software events, msr/tsc, call counters "
			   "and simulation ('--backend sim') still work", c->hv.name);
		check_text(&k->remedy, "%s", c->hv.vpmu ? c->hv.vpmu :
			   "enable the virtual PMU in the hypervisor (QEMU/KVM '-cpu host,pmu=on', "
			   "libvirt '<pmu state=\"on\"/>'), or use an instance type with PMU access");
	} else {
		check_text(&k->cause, "no core PMU is registered: kernel %s has no PMU driver for "
			   "%s (%s), or PMU support is disabled", c->kernel[0] ? c->kernel : "(recorded)",
			   who, c->uarch.name);
		check_text(&k->remedy, "boot a newer kernel (CPU support lands in arch/*/events/), "
			   "and look for the reason in 'dmesg | grep -i -e perf -e pmu'");
	}
	snprintf(c->hw_reason, sizeof(c->hw_reason), "%s", reason);
	c->hw_status = CHECK_UNAVAILABLE;
}

/* Live: can 'cycles' really be opened? 0, or the errno. */
static int probe_cycles(struct checks *c, struct check *k)
{
	struct perf_event_attr a;
	int e;

	if (c->recorded || !syscall_ok(c)) {
		check_text(&k->probe, c->recorded ? "not tried: recorded machine" :
			   "not tried: perf_event_open is unusable");
		return 0;
	}
	user_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	e = checks_probe(&a, 0, -1);
	k->tried = CHECK_TRIED;
	check_text(&k->probe, "opened hardware event 'cycles' (user space) on this process: %s",
		   e ? strerror(e) : "ok");
	return e;
}

static void check_core_pmu(struct checks *c, const struct cpu_map *m)
{
	struct check *k = checks_add(c, "core_pmu", "hardware PMU", CHECK_OK);
	size_t ncore;
	const struct sysfs_pmu *p = checks_core_pmu(c, m, &ncore);
	char extra[512];
	int e = probe_cycles(c, k);

	c->ncore_pmus = ncore;

	if (!syscall_ok(c)) {
		k->status = CHECK_UNAVAILABLE;
		if (p)
			check_text(&k->summary, "core PMU '%s' (type %d) is there, but "
				   "perf_event_open is unusable (see 'kernel')", p->name, p->type);
		else
			check_text(&k->summary, "unknown: perf_event_open is unusable (see 'kernel')");
		check_text(&k->cause, "perf_event_open is unusable here (see 'kernel')");
		check_text(&k->remedy, "see 'kernel' above");
		c->hw_status = CHECK_UNAVAILABLE;	/* hw_reason: set by check_syscall */
		return;
	}
	if (!p || e == ENOENT || e == EOPNOTSUPP || e == ENODEV) {
		no_core_pmu(c, k);
		if (p)
			check_text(&k->summary, "core PMU '%s' is registered but refuses 'cycles' "
				   "(%s)", p->name, strerror(e));
		return;
	}
	counters_text(c, p, extra, sizeof(extra));
	if (ncore > 1)
		check_text(&k->summary, "core PMU '%s' (type %d) and %zu more (hybrid)%s", p->name,
			   p->type, ncore - 1, extra);
	else
		check_text(&k->summary, "core PMU '%s' (type %d)%s", p->name, p->type, extra);
	snprintf(c->hw_reason, sizeof(c->hw_reason), "core PMU '%s', uarch %s", p->name,
		 c->uarch.name);
	c->hw_status = CHECK_OK;
	if (e == EACCES || e == EPERM) {
		k->status = c->hw_status = CHECK_UNAVAILABLE;
		check_text(&k->cause, "'cycles' is refused to this process: %s", strerror(e));
		check_text(&k->remedy, "see 'permissions' above");
		snprintf(c->hw_reason, sizeof(c->hw_reason), "permission denied");
	} else if (c->privileged != 1 && c->paranoid >= 2) {
		c->hw_status = CHECK_LIMITED;
		snprintf(c->hw_reason, sizeof(c->hw_reason), "core PMU '%s', uarch %s; user space "
			 "only (perf_event_paranoid=%d)", p->name, c->uarch.name, c->paranoid);
	}
}

/* cpu_core + cpu_atom, or a hybrid part whose kernel does not split it. */
static void check_hybrid(struct checks *c, const struct cpu_map *m)
{
	const struct sysfs_pmu *pc = sysfs_pmu_find(&c->model, "cpu_core"),
			       *pa = sysfs_pmu_find(&c->model, "cpu_atom"),
			       *pl = sysfs_pmu_find(&c->model, "cpu_lowpower");
	char path[4096], cc[64], ca[64], cl[64] = "";
	struct check *k;

	(void)m;
	if (!pc && !pa && c->cpu.hybrid != 1 && !c->uarch.hybrid)
		return;
	k = checks_add(c, "hybrid", "hardware PMU", CHECK_LIMITED);
	if (pc && pa) {
		snprintf(path, sizeof(path), "%s/" DEVICES "/cpu_core/cpus", c->sysfs_root);
		checks_read_str(path, cc, sizeof(cc));
		snprintf(path, sizeof(path), "%s/" DEVICES "/cpu_atom/cpus", c->sysfs_root);
		checks_read_str(path, ca, sizeof(ca));
		if (pl) {	/* Arrow Lake-H: low-power E-cores (hybrid_tiny) */
			snprintf(path, sizeof(path), "%s/" DEVICES "/cpu_lowpower/cpus",
				 c->sysfs_root);
			checks_read_str(path, cl, sizeof(cl));
			check_text(&k->summary, "hybrid CPU: cpu_core (P-cores, CPUs %s), cpu_atom "
				   "(E-cores, CPUs %s) and cpu_lowpower (low-power E-cores, CPUs %s)",
				   cc[0] ? cc : "?", ca[0] ? ca : "?", cl[0] ? cl : "?");
		} else
			check_text(&k->summary, "hybrid CPU: cpu_core (P-cores, CPUs %s) and cpu_atom "
				   "(E-cores, CPUs %s)", cc[0] ? cc : "?", ca[0] ? ca : "?");
		if (strcmp(c->uarch.name, "generic"))
			check_text(&k->cause, "the %s core types have different events and counter "
				   "counts: pmustat (uarch %s) counts a metric on each, sums them and "
				   "reports each type's part (NAME.cpu_core, NAME.cpu_atom%s), and the "
				   "result notes where each run's threads ran; a program that migrates "
				   "between the types still mixes microarchitectures in the sum",
				   pl ? "three" : "two", c->uarch.name, pl ? ", NAME.cpu_lowpower" : "");
		else
			check_text(&k->cause, "the two core types have different events and counter "
				   "counts, and a program that migrates between them is counted by each "
				   "type's PMU in turn: counts mix two microarchitectures");
		check_text(&k->remedy, "pin the command to one core type: '--pin %.*s' runs it on "
			   "the first P-core", (int)strcspn(cc[0] ? cc : "0", ",-"), cc[0] ? cc : "0");
	} else if (c->model.npmus && sysfs_pmu_find(&c->model, "cpu")) {
		check_text(&k->summary, "hybrid CPU, but the kernel registered one 'cpu' PMU");
		check_text(&k->cause, "this kernel predates hybrid PMU support (Linux 5.13): "
			   "only one core type's events are known to it");
		check_text(&k->remedy, "boot Linux 5.13 or newer; meanwhile pin with '--pin CPU'");
	} else {
		k->status = CHECK_OK;
		check_text(&k->summary, "hybrid CPU (no core PMU to split)");
	}
}

/* ---- msr/tsc ------------------------------------------------------------ */

static void check_msr(struct checks *c)
{
	const struct sysfs_pmu *p = sysfs_pmu_find(&c->model, "msr");
	const struct sysfs_alias *tsc = p ? sysfs_alias_find(p, "tsc") : NULL;
	struct perf_event_attr a;
	struct check *k;
	int e;

	if (c->cpu.arch != CPU_ARCH_X86)
		return;
	k = checks_add(c, "msr", "other PMUs", CHECK_OK);
	if (!tsc) {
		k->status = CHECK_LIMITED;
		check_text(&k->summary, "no 'msr/tsc/': the msr PMU is not registered");
		check_text(&k->cause, "the kernel's msr PMU (arch/x86/events/msr.c) is missing: "
			   "the time-stamp counter cannot be read as an event");
		check_text(&k->remedy, "nothing needed for most work: 'task-clock' and wall time "
			   "measure time too");
		return;
	}
	check_text(&k->summary, "msr PMU (type %d): 'msr/tsc/' (time-stamp counter)%s", p->type,
		   sysfs_alias_find(p, "aperf") ? ", aperf, mperf" : "");
	if (c->recorded || !syscall_ok(c)) {
		check_text(&k->probe, c->recorded ? "not tried: recorded machine" :
			   "not tried: perf_event_open is unusable");
		return;
	}
	memset(&a, 0, sizeof(a));
	a.type = (unsigned)p->type;
	a.config = strtoull(strchr(tsc->terms, '=') ? strchr(tsc->terms, '=') + 1 : "0", NULL, 0);
	e = checks_probe(&a, 0, -1);
	k->tried = CHECK_TRIED;
	check_text(&k->probe, "opened 'msr/tsc/' on this process: %s", e ? strerror(e) : "ok");
	if (e) {
		k->status = CHECK_LIMITED;
		check_text(&k->cause, "the msr PMU refused its tsc event: %s", strerror(e));
		check_text(&k->remedy, "use 'task-clock' for time instead");
	}
}

/* ---- uncore ------------------------------------------------------------- */

static int uarch_listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

static const struct sysfs_pmu *find_glob(const struct checks *c, const char *glob)
{
	for (size_t i = 0; i < c->model.npmus; i++)
		if (!fnmatch(glob, c->model.pmus[i].name, 0))
			return &c->model.pmus[i];
	return NULL;
}

/* Encode "event=0x04,umask=0xff" through p's format terms; 0 = ok. */
static int encode_alias(const struct sysfs_pmu *p, const char *terms, uint64_t config[4])
{
	char *copy = xstrdup(terms), *save = NULL;
	int rc = 0;

	memset(config, 0, 4 * sizeof(*config));
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		const struct sysfs_format *f;

		if (eq)
			*eq = '\0';
		f = sysfs_format_find(p, t);
		rc = !f || sysfs_format_encode(f, eq ? strtoull(eq + 1, NULL, 0) : 1, config, NULL);
	}
	free(copy);
	return rc;
}

static void probe_uncore(struct checks *c, const struct sysfs_pmu *p, struct check *k)
{
	struct perf_event_attr a;
	uint64_t config[4] = { 0 };
	const char *ev = p->naliases ? p->aliases[0].name : "config=0";
	int cpu = p->cpumask ? atoi(p->cpumask) : 0, e;

	if (c->recorded || !syscall_ok(c)) {
		check_text(&k->probe, c->recorded ? "not tried: recorded machine" :
			   "not tried: perf_event_open is unusable");
		return;
	}
	if (p->naliases && encode_alias(p, p->aliases[0].terms, config))
		memset(config, 0, sizeof(config));
	memset(&a, 0, sizeof(a));
	a.type = (unsigned)p->type;
	a.config = config[0];
	a.config1 = config[1];
	a.config2 = config[2];
	e = checks_probe(&a, -1, cpu);
	k->tried = CHECK_TRIED;
	check_text(&k->probe, "opened '%s/%s/' system-wide on CPU %d: %s", p->name, ev, cpu,
		   e ? strerror(e) : "ok");
	if (e == EACCES || e == EPERM)
		k->status = CHECK_LIMITED;
}

static void uncore_present(struct checks *c, const struct cpu_uncore *u,
			   const struct sysfs_pmu *p, struct check *k)
{
	int allowed = c->privileged == 1 || (c->paranoid <= 0 && c->paranoid != -100);

	size_t more = 0;

	for (size_t i = 0; i < c->model.npmus; i++)
		more += &c->model.pmus[i] != p && !fnmatch(u->pmu, c->model.pmus[i].name, 0);
	if (more)
		check_text(&k->summary, "'%s' and %zu more: %s; system-wide only, CPUs %s",
			   p->name, more, u->what, p->cpumask ? p->cpumask : "?");
	else
		check_text(&k->summary, "'%s': %s; system-wide only, CPUs %s", p->name, u->what,
			   p->cpumask ? p->cpumask : "?");
	if (!allowed) {
		k->status = CHECK_LIMITED;
		check_text(&k->cause, "uncore PMUs count system-wide (every process on the "
			   "socket, die or L3 complex), which perf_event_paranoid=%d refuses to "
			   "users without CAP_PERFMON", c->paranoid);
		check_text(&k->remedy, "'sudo sysctl kernel.perf_event_paranoid=0', or %s", SETCAP);
	}
	probe_uncore(c, p, k);
}

/* A sibling PMU of the same module that is there: the module is loaded. */
static const char *module_loaded(const struct checks *c, const struct cpu_uncore *u, size_t n,
				 const char *module)
{
	const struct sysfs_pmu *p;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(u[i].module, module) && (p = find_glob(c, u[i].pmu)))
			return p->name;
	return NULL;
}

static void uncore_missing(struct checks *c, const struct cpu_uncore *all, size_t n,
			   const struct cpu_uncore *u, struct check *k)
{
	const char *sibling = module_loaded(c, all, n, u->module);

	if (sibling && u->since) {
		check_text(&k->cause, "module '%s' is loaded ('%s' is there), but this kernel "
			   "does not provide '%s': that needs %s or newer", u->module, sibling,
			   u->pmu, u->since);
		check_text(&k->remedy, "boot %s or newer", u->since);
	} else if (sibling) {
		check_text(&k->cause, "module '%s' is loaded ('%s' is there), but this kernel "
			   "does not provide '%s' for this part", u->module, sibling, u->pmu);
		check_text(&k->remedy, "boot a newer kernel");
	} else {
		check_text(&k->cause, "the kernel has not registered it: module '%s' is not "
			   "loaded%s%s", u->module, u->since ? ", or the kernel predates " : "",
			   u->since ? u->since : "");
		check_text(&k->remedy, "'sudo modprobe %s' (and list it in "
			   "/etc/modules-load.d/ to keep it)", u->module);
	}
}

static void check_uncore(struct checks *c, const struct cpu_map *m)
{
	size_t n;
	const struct cpu_uncore *u = cpu_map_uncore(m, &n);
	char id[64];

	for (size_t i = 0; i < n; i++) {
		const struct sysfs_pmu *p;
		struct check *k;

		if (strcmp(u[i].vendor, c->uarch.vendor) || !uarch_listed(u[i].uarchs, c->uarch.name))
			continue;
		p = find_glob(c, u[i].pmu);
		snprintf(id, sizeof(id), "%.*s", (int)strcspn(u[i].pmu, "*?["), u[i].pmu);
		k = checks_add(c, id, "uncore", CHECK_OK);
		if (p) {
			uncore_present(c, &u[i], p, k);
			continue;
		}
		k->status = CHECK_UNAVAILABLE;
		check_text(&k->summary, "'%s' not exposed: no counters for %s", id, u[i].what);
		if (c->hv.virtual_machine == 1) {
			check_text(&k->cause, "hypervisors do not pass uncore PMUs to guests");
			check_text(&k->remedy, "measure on bare metal, or use a per-process proxy "
				   "(pmustat explain llc-misses)");
		} else {
			uncore_missing(c, u, n, &u[i], k);
		}
	}
}

/* ---- NMI watchdog ------------------------------------------------------- */

static void check_nmi_watchdog(struct checks *c)
{
	int v;
	struct check *k;

	if (host_sysctl_int("kernel/nmi_watchdog", &v) || v < 0)
		return;
	k = checks_add(c, "nmi_watchdog", "hardware PMU", CHECK_OK);
	if (!v)
		check_text(&k->summary, "off: every hardware counter is free");
	else if (!c->ncore_pmus)
		check_text(&k->summary, "on, but it holds no counter: there is no hardware PMU");
	else {
		k->status = CHECK_LIMITED;
		check_text(&k->summary, "on: the NMI watchdog holds one hardware counter");
		check_text(&k->cause, "the hard-lockup detector keeps a cycles counter busy on "
			   "every CPU: one counter fewer, so large event sets multiplex sooner");
		check_text(&k->remedy, "'sudo sysctl kernel.nmi_watchdog=0' while measuring "
			   "(=1 restores it)");
	}
}

/* ---- rdpmc (region API) --------------------------------------------------- */

/* Live: map a cycles counter and ask the kernel whether rdpmc may read it. */
static void probe_rdpmc(struct checks *c, struct check *k)
{
	struct perf_event_attr a;
	struct perf_event_mmap_page *pg;
	long psz = sysconf(_SC_PAGESIZE);
	int fd;

	if (c->recorded || c->hw_status == CHECK_UNAVAILABLE) {
		check_text(&k->probe, c->recorded ? "not tried: recorded machine" :
			   "not tried: no usable hardware PMU");
		return;
	}
	user_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	a.size = sizeof(a);
	/* arm64 grants user-space reads only to events that ask for them:
	 * attr.config1 bit 1 (armv8_pmuv3's format term "rdpmc"), as the
	 * region library's do (lib/pmustat/counters.c). */
	if (c->cpu.arch == CPU_ARCH_ARM64)
		a.config1 |= 1u << 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return;
	k->tried = CHECK_TRIED;
	pg = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		check_text(&k->probe, "mapped a 'cycles' counter: %s", strerror(errno));
	} else {
		/* The event counts from its open, so while this task runs it
		 * holds a counter: index 0 then means no user-space read (arm64
		 * sets cap_user_rdpmc for events that ask even while
		 * perf_user_access=0, and leaves the index at 0). */
		check_text(&k->probe, "mapped a 'cycles' counter: cap_user_rdpmc=%u, index %u",
			   (unsigned)pg->cap_user_rdpmc, (unsigned)pg->index);
		if (!pg->cap_user_rdpmc || !pg->index)
			k->status = CHECK_LIMITED;
		munmap(pg, (size_t)psz);
	}
	close(fd);
}

static void rdpmc_setting(struct checks *c, const struct sysfs_pmu *p, struct check *k)
{
	int arm = c->cpu.arch == CPU_ARCH_ARM64;
	char path[4096];
	int v;

	if (arm)
		snprintf(path, sizeof(path), "%s/sys/kernel/perf_user_access", c->proc_root);
	else
		snprintf(path, sizeof(path), "%s/" DEVICES "/%s/rdpmc", c->sysfs_root, p->name);
	v = checks_read_int(path, -1);
	if (v < 0) {
		check_text(&k->summary, "rdpmc setting %s (%s)",
			   c->recorded ? "not recorded" : "not readable", path);
		return;
	}
	if (v > 0) {
		check_text(&k->summary, "user-space counter reads allowed (%s=%d)",
			   arm ? "perf_user_access" : "rdpmc", v);
		return;
	}
	k->status = CHECK_LIMITED;
	check_text(&k->summary, "user-space counter reads disabled (%s=0)",
		   arm ? "kernel.perf_user_access" : "rdpmc");
	check_text(&k->cause, "region markers then read counters with a read() system call: "
		   "slower, and it perturbs very short regions");
	if (arm)
		check_text(&k->remedy, "'sudo sysctl kernel.perf_user_access=1'");
	else
		check_text(&k->remedy, "'echo 1 | sudo tee /sys/" DEVICES "/%s/rdpmc'", p->name);
}

static void check_rdpmc(struct checks *c, const struct cpu_map *m)
{
	struct check *k = checks_add(c, "rdpmc", "region API", CHECK_OK);
	size_t n;
	const struct sysfs_pmu *p = checks_core_pmu(c, m, &n);

	if (!p || c->hw_status == CHECK_UNAVAILABLE) {
		k->status = CHECK_UNAVAILABLE;
		check_text(&k->summary, "no hardware counters to read: region markers count "
			   "software events only");
		check_text(&k->cause, "%s", c->hw_reason);
		check_text(&k->remedy, "see 'hardware PMU' above");
		return;
	}
	rdpmc_setting(c, p, k);
	probe_rdpmc(c, k);
}

/* ---- uprobes (call counters) ---------------------------------------------- */

/*
 * A uprobe on "/": the kernel checks that we may create uprobes (CAP_SYS_ADMIN,
 * security modules), looks the path up, and only then refuses a directory
 * with EINVAL, before registering anything. A real uprobe would prove a
 * little more (that its breakpoint can be placed) at the cost of a grace
 * period when it is removed: tens of ms, most of doctor's time. EINVAL is
 * the expected answer (0 here); anything else is the refusal.
 */
static int probe_uprobe(const struct sysfs_pmu *p, char *what, size_t len)
{
	struct perf_event_attr a;
	int e;

	user_attr(&a, (unsigned)p->type, 0);
	a.config1 = (uint64_t)(uintptr_t)"/";
	a.config2 = 0;
	snprintf(what, len, "a uprobe on '/' (a directory: refused once allowed, "
		 "nothing registered)");
	e = checks_probe(&a, 0, -1);
	return e == EINVAL ? 0 : e;
}

static void check_uprobes(struct checks *c)
{
	const struct sysfs_pmu *p = sysfs_pmu_find(&c->model, "uprobe");
	struct check *k = checks_add(c, "uprobes", "call counters", CHECK_OK);
	char what[160];
	int e;

	if (!p) {
		k->status = CHECK_UNAVAILABLE;
		check_text(&k->summary, "no uprobe PMU: 'call:SYMBOL' counters cannot use uprobes");
		check_text(&k->cause, "the kernel was built without CONFIG_UPROBE_EVENTS");
		check_text(&k->remedy, "boot a kernel with CONFIG_UPROBE_EVENTS=y");
		return;
	}
	check_text(&k->summary, "uprobe PMU (type %d): 'call:SYMBOL' counters work%s", p->type,
		   c->sys_admin == 1 ? "" : " with root or CAP_SYS_ADMIN");
	if (c->sys_admin != 1) {
		k->status = CHECK_LIMITED;
		check_text(&k->cause, "creating a uprobe needs CAP_SYS_ADMIN, whatever "
			   "perf_event_paranoid says (CAP_PERFMON is not enough since Linux 6.16 "
			   "and the stable kernels of July 2025)");
		check_text(&k->remedy, "run pmustat as root, or %s; the LD_PRELOAD shim "
			   "counts calls of dynamically linked programs without it",
			   CHECKS_UPROBE_SETCAP);
	}
	if (c->recorded || !syscall_ok(c)) {
		check_text(&k->probe, c->recorded ? "not tried: recorded machine" :
			   "not tried: perf_event_open is unusable");
		return;
	}
	e = probe_uprobe(p, what, sizeof(what));
	k->tried = CHECK_TRIED;
	check_text(&k->probe, "asked for %s: %s", what, e < 0 ? "not tried" : e ? strerror(e) : "ok");
	if (e > 0 && k->status == CHECK_OK) {
		k->status = CHECK_LIMITED;
		check_text(&k->cause, "the kernel refused a test uprobe: %s", strerror(e));
		check_text(&k->remedy, "look for the reason in 'dmesg | grep -i uprobe'");
	}
}

/* Everything that needs perf_event_open is out when it is. */
static void demote_if_blocked(struct checks *c)
{
	static const char *const needs[] = { "msr", "rdpmc", "uprobes" };

	if (syscall_ok(c))
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct check *k = &c->v[i];
		int dependent = !strcmp(k->area, "uncore");

		for (size_t j = 0; j < sizeof(needs) / sizeof(needs[0]); j++)
			dependent |= !strcmp(k->id, needs[j]);
		if (!dependent || k->status == CHECK_UNAVAILABLE)
			continue;
		k->status = CHECK_UNAVAILABLE;
		check_text(&k->cause, "perf_event_open is unusable here (see 'kernel')");
		check_text(&k->remedy, "see 'kernel' above");
	}
}

void checks_pmu_all(struct checks *c, const struct cpu_map *m)
{
	check_syscall(c);
	check_permissions(c);
	check_core_pmu(c, m);
	check_hybrid(c, m);
	check_nmi_watchdog(c);
	check_msr(c);
	check_uncore(c, m);
	check_rdpmc(c, m);
	check_uprobes(c);
	demote_if_blocked(c);
}
