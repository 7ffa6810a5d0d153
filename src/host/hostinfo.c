/*
 * Host facts from /proc/cpuinfo, /proc/sys/kernel and sysfs. Each reader is
 * independent and tolerant: missing files (containers, other architectures,
 * recorded fixtures) leave the field unknown instead of failing the run.
 */
#include "host/hostinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host/cpu.h"
#include "host/sysctl.h"
#include "host/sysfs.h"

/* The first line of a small file (sysfs_read_text: regular files only). */
static void read_str_file(const char *path, char *out, size_t len)
{
	char *text = NULL;

	out[0] = '\0';
	if (sysfs_read_text(path, &text, NULL) == 0)
		snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
}

static void copy_value(const char *line, size_t n, char *out, size_t len)
{
	const char *v = memchr(line, ':', n);

	out[0] = '\0';
	if (!v)
		return;
	v++;
	while (v < line + n && (*v == ' ' || *v == '\t'))
		v++;
	snprintf(out, len, "%.*s", (int)(line + n - v), v);
}

static void cpuinfo_line(struct hostinfo *h, const char *line, size_t n)
{
	char val[128];

	copy_value(line, n, val, sizeof(val));
	if (!strncmp(line, "vendor_id", 9))
		snprintf(h->vendor, sizeof(h->vendor), "%s", val);
	else if (!strncmp(line, "cpu family", 10))
		h->family = atoi(val);
	else if (!strncmp(line, "model name", 10))
		snprintf(h->model_name, sizeof(h->model_name), "%s", val);
	else if (!strncmp(line, "model", 5) && line[5] != ' ')
		h->model = atoi(val);
	else if (!strncmp(line, "stepping", 8))
		h->stepping = atoi(val);
	else if (!strncmp(line, "flags", 5))
		h->hypervisor = memmem(line, n, " hypervisor", 11) != NULL;
}

/* Only the first processor's block matters: all cores of one host are alike
 * for what we record (hybrid parts are the doctor's business). */
static void read_cpuinfo(struct hostinfo *h)
{
	char path[4096], *text = NULL;

	snprintf(path, sizeof(path), "%s/cpuinfo", procfs_root());
	if (sysfs_read_text(path, &text, NULL))
		return;
	h->hypervisor = 0;
	for (const char *p = text; *p && *p != '\n';) {
		size_t n = strcspn(p, "\n");

		cpuinfo_line(h, p, n);
		p += n + (p[n] == '\n');
	}
	free(text);
}

/* PMUSTAT_CPU (host/cpu.h) replaces the identity, so that a result records
 * the CPU its uarch was chosen for. A malformed value is reported by the
 * commands that parse it (cpu_identify); here it leaves the real identity. */
static void apply_cpu_override(struct hostinfo *h)
{
	const char *spec = getenv("PMUSTAT_CPU");
	struct cpu_id id;

	if (!spec || !*spec)
		return;
	cpu_id_init(&id);
	if (cpu_id_parse(spec, &id, NULL))
		return;
	snprintf(h->vendor, sizeof(h->vendor), "%s", id.arch == CPU_ARCH_X86 ? id.vendor : "ARM");
	h->family = id.family;
	h->model = id.arch == CPU_ARCH_X86 ? id.model : (int)id.part;
	h->stepping = id.arch == CPU_ARCH_X86 ? id.stepping : (int)id.revision;
	snprintf(h->model_name, sizeof(h->model_name), "PMUSTAT_CPU=%s", spec);
}

static int has_core_pmu(void)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3",
					     "armv8_pmuv3_0", NULL };
	char path[4096];

	for (int i = 0; names[i]; i++) {
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type",
			 sysfs_root(), names[i]);
		if (access(path, R_OK) == 0)
			return 1;
	}
	return 0;
}

/* The uarch the data names for this identity (PMUSTAT_CPU honoured): what
 * the machine is, for merging results by uarch, not what --uarch chose. */
static void read_uarch(struct hostinfo *h)
{
	struct cpu_id id;
	struct cpu_uarch u;
	struct error err;

	error_clear(&err);
	h->uarch[0] = '\0';
	if (cpu_identify(&id, &err) == 0 && cpu_uarch(&id, NULL, &u, &err) == 0)
		snprintf(h->uarch, sizeof(h->uarch), "%s", u.detected);
}

static void env_copy(const char *name, char *out, size_t len)
{
	const char *v = getenv(name);

	snprintf(out, len, "%s", v ? v : "");
}

/* Slurm's own variables for the task this process is (srun sets them). */
static void read_slurm(struct hostinfo *h)
{
	const char *task = getenv("SLURM_PROCID");

	h->slurm_task = -1;
	if (!getenv("SLURM_JOB_ID"))
		return;
	env_copy("SLURM_JOB_ID", h->slurm_job, sizeof(h->slurm_job));
	env_copy("SLURM_STEP_ID", h->slurm_step, sizeof(h->slurm_step));
	env_copy("SLURMD_NODENAME", h->slurm_node, sizeof(h->slurm_node));
	if (task && *task)
		h->slurm_task = atoi(task);
}

void hostinfo_read(struct hostinfo *h)
{
	struct utsname u;
	char path[4096], val[8];

	memset(h, 0, sizeof(*h));
	h->family = h->model = h->stepping = -1;
	h->hypervisor = -1;
	if (uname(&u) == 0) {
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
		snprintf(h->machine, sizeof(h->machine), "%s", u.machine);
	}
	read_cpuinfo(h);
	apply_cpu_override(h);
	h->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	h->paranoid = -100;
	host_sysctl_int("kernel/perf_event_paranoid", &h->paranoid);
	h->aslr = -1;
	host_sysctl_int("kernel/randomize_va_space", &h->aslr);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		 sysfs_root());
	read_str_file(path, h->governor, sizeof(h->governor));
	h->hw_pmu = has_core_pmu();
	if (gethostname(h->hostname, sizeof(h->hostname)))
		h->hostname[0] = '\0';
	h->hostname[sizeof(h->hostname) - 1] = '\0';
	read_uarch(h);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/smt/active", sysfs_root());
	h->smt = -1;
	read_str_file(path, val, sizeof(val));
	if (val[0] == '0' || val[0] == '1')
		h->smt = val[0] - '0';
	read_slurm(h);
}
