/*
 * Reading the CPU's identity: cpuid on x86, the MIDR on arm64, or the text
 * of a recorded machine's /proc/cpuinfo; PMUSTAT_CPU on top. Every reader
 * only fills what its source really says. No model numbers are interpreted
 * here: that is data/cpus.json's job (host/cpumap.c).
 */
#include "host/cpu.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/strlist.h"
#include "host/sysfs.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#else
#define HAVE_CPUID 0
#endif

void cpu_id_init(struct cpu_id *id)
{
	memset(id, 0, sizeof(*id));
	id->family = id->model = id->stepping = -1;
	id->hypervisor = -1;
	id->arch_perfmon = id->perfmon_version = id->gp_counters = -1;
	id->fixed_counters = id->counter_width = -1;
	id->perfctr_core = id->perfctr_nb = id->perfctr_llc = id->perfmon_v2 = -1;
	id->df_counters = id->umc_counters = id->hybrid = -1;
}

void cpu_id_set_midr(struct cpu_id *id, uint64_t midr)
{
	id->arch = CPU_ARCH_ARM64;
	id->has_midr = 1;
	id->midr = midr;
	id->implementer = (unsigned)(midr >> 24) & 0xff;
	id->variant = (unsigned)(midr >> 20) & 0xf;
	id->architecture = (unsigned)(midr >> 16) & 0xf;
	id->part = (unsigned)(midr >> 4) & 0xfff;
	id->revision = (unsigned)midr & 0xf;
}

/* ---- PMUSTAT_CPU ------------------------------------------------------ */

static int parse_dec(const char *s, long max, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

static int bad_spec(const char *spec, struct error *err)
{
	error_set(err, ERR_USAGE, "invalid PMUSTAT_CPU '%s': expected "
		  "vendor-family-model[-stepping] in decimal, or an arm64 MIDR in hex", spec);
	return error_hint(err, "e.g. PMUSTAT_CPU=AuthenticAMD-25-17-1 (AMD EPYC 9654) or "
			       "PMUSTAT_CPU=0x413fd0c1 (Arm Neoverse N1)");
}

static int parse_midr_spec(const char *spec, struct cpu_id *id, struct error *err)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(spec + 2, &end, 16);
	if (errno || *end || end == spec + 2 || v > 0xffffffffULL)
		return bad_spec(spec, err);
	cpu_id_set_midr(id, v);
	id->vendor[0] = '\0';
	id->family = id->model = id->stepping = -1;
	return 0;
}

int cpu_id_parse(const char *spec, struct cpu_id *id, struct error *err)
{
	char buf[64], *field[5];
	int n = 0, family, model, stepping = -1;

	if (!strncmp(spec, "0x", 2) || !strncmp(spec, "0X", 2))
		return parse_midr_spec(spec, id, err);
	if (strlen(spec) >= sizeof(buf))
		return bad_spec(spec, err);
	strcpy(buf, spec);
	for (char *p = buf, *tok; n < 5 && (tok = strsep(&p, "-")); )
		field[n++] = tok;
	if (n < 3 || n > 4 || !*field[0] || strlen(field[0]) >= sizeof(id->vendor))
		return bad_spec(spec, err);
	for (const char *c = field[0]; *c; c++)
		if (!isalpha((unsigned char)*c))
			return bad_spec(spec, err);
	if (parse_dec(field[1], 4095, &family) || parse_dec(field[2], 255, &model) ||
	    (n == 4 && parse_dec(field[3], 15, &stepping)))
		return bad_spec(spec, err);
	id->arch = CPU_ARCH_X86;
	id->has_midr = 0;
	snprintf(id->vendor, sizeof(id->vendor), "%s", field[0]);
	id->family = family;
	id->model = model;
	id->stepping = stepping;
	return 0;
}

/* ---- /proc/cpuinfo ---------------------------------------------------- */

/* The value after "key<tabs>: " if line starts with exactly key, else NULL. */
static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line++ != ':')
		return NULL;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static int has_flag(const char *flags, const char *name)
{
	return strlist_has_sep(flags, name, ' ');
}

static void cpuinfo_flags(struct cpu_id *id, const char *flags)
{
	id->hypervisor = has_flag(flags, "hypervisor");
	id->arch_perfmon = has_flag(flags, "arch_perfmon");
	id->perfctr_core = has_flag(flags, "perfctr_core");
	id->perfctr_nb = has_flag(flags, "perfctr_nb");
	id->perfctr_llc = has_flag(flags, "perfctr_llc");
	id->perfmon_v2 = has_flag(flags, "perfmon_v2");
	id->hybrid = has_flag(flags, "hybrid_cpu");
}

/* One "key : value" line of the first processor block. */
static void cpuinfo_line(struct cpu_id *id, const char *line, unsigned arm[5], int *arm_seen)
{
	static const char *const arm_keys[5] = { "CPU implementer", "CPU variant",
						 "CPU architecture", "CPU part", "CPU revision" };
	const char *v;

	if ((v = cpuinfo_value(line, "vendor_id")))
		snprintf(id->vendor, sizeof(id->vendor), "%s", v);
	else if ((v = cpuinfo_value(line, "cpu family")))
		id->family = atoi(v);
	else if ((v = cpuinfo_value(line, "model")))
		id->model = atoi(v);
	else if ((v = cpuinfo_value(line, "model name")))
		snprintf(id->model_name, sizeof(id->model_name), "%s", v);
	else if ((v = cpuinfo_value(line, "stepping")))
		id->stepping = isdigit((unsigned char)*v) ? atoi(v) : -1;
	else if ((v = cpuinfo_value(line, "flags")))
		cpuinfo_flags(id, v);
	for (int k = 0; k < 5; k++)
		if ((v = cpuinfo_value(line, arm_keys[k]))) {
			arm[k] = (unsigned)strtoul(v, NULL, 0);
			*arm_seen |= 1 << k;
		}
}

void cpu_id_from_cpuinfo(struct cpu_id *id, const char *text)
{
	unsigned arm[5] = { 0 };
	int arm_seen = 0;
	const char *p = text;

	while (p && *p && *p != '\n') {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n);

		cpuinfo_line(id, line, arm, &arm_seen);
		free(line);
		p = nl ? nl + 1 : NULL;
	}
	if (id->vendor[0]) {
		id->arch = CPU_ARCH_X86;
	} else if ((arm_seen & 0x9) == 0x9) {	/* implementer and part */
		cpu_id_set_midr(id, (uint64_t)arm[0] << 24 | (uint64_t)(arm[1] & 0xf) << 20 |
				    (uint64_t)(arm[2] & 0xf) << 16 | (uint64_t)(arm[3] & 0xfff) << 4 |
				    (arm[4] & 0xf));
	}
}

/* ---- sources ---------------------------------------------------------- */

static int is_recorded(void)
{
	const char *s = getenv("PMUSTAT_SYSFS_ROOT"), *p = getenv("PMUSTAT_PROC_ROOT");

	return (s && *s) || (p && *p);
}

static void read_cpuinfo(struct cpu_id *id)
{
	char path[4096], *text = NULL;

	snprintf(path, sizeof(path), "%s/cpuinfo", procfs_root());
	if (sysfs_read_text(path, &text, NULL) == 0 && text) {
		cpu_id_from_cpuinfo(id, text);
		snprintf(id->source, sizeof(id->source), "/proc/cpuinfo");
	}
	free(text);
}

/* arm64: sysfs midr_el1 is exact; cpuinfo's fields are the fallback. */
static void read_midr(struct cpu_id *id)
{
	char path[4096], *text = NULL;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/regs/identification/midr_el1",
		 sysfs_root());
	if (sysfs_read_text(path, &text, NULL) == 0 && text) {
		char *end;
		unsigned long long v = strtoull(text, &end, 16);

		if (end != text) {
			cpu_id_set_midr(id, v);
			snprintf(id->source, sizeof(id->source), "sysfs midr_el1");
		}
	}
	free(text);
}

#if HAVE_CPUID
static void cpuid_str(char *out, unsigned a, unsigned b, unsigned c)
{
	memcpy(out, &a, 4);
	memcpy(out + 4, &b, 4);
	memcpy(out + 8, &c, 4);
	out[12] = '\0';
}

static void cpuid_brand(struct cpu_id *id, unsigned extmax)
{
	unsigned r[12];
	char *s = id->model_name;

	if (extmax < 0x80000004)
		return;
	for (unsigned i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, r[i * 4], r[i * 4 + 1], r[i * 4 + 2], r[i * 4 + 3]);
	memcpy(s, r, 48);
	s[48] = '\0';
	while (*s == ' ')
		memmove(s, s + 1, strlen(s));
	for (size_t n = strlen(s); n && s[n - 1] == ' '; n--)
		s[n - 1] = '\0';
}

/* Intel's architectural performance monitoring leaf. */
static void cpuid_leaf_a(struct cpu_id *id, unsigned max)
{
	unsigned a, b, c, d;

	id->arch_perfmon = 0;
	if (max < 0xa)
		return;
	__cpuid_count(0xa, 0, a, b, c, d);
	id->perfmon_version = (int)(a & 0xff);
	id->arch_perfmon = id->perfmon_version > 0;
	if (!id->arch_perfmon)
		return;
	id->gp_counters = (int)((a >> 8) & 0xff);
	id->counter_width = (int)((a >> 16) & 0xff);
	if (id->perfmon_version > 1)
		id->fixed_counters = (int)(d & 0x1f);
}

/* AMD: extended perfctr flags, then PerfMonV2's counter counts. */
static void cpuid_amd_perfmon(struct cpu_id *id, unsigned extmax)
{
	unsigned a, b, c, d;

	if (extmax < 0x80000001)
		return;
	__cpuid(0x80000001, a, b, c, d);
	id->perfctr_core = (c >> 23) & 1;
	id->perfctr_nb = (c >> 24) & 1;
	id->perfctr_llc = (c >> 28) & 1;
	id->perfmon_v2 = 0;
	if (id->perfctr_core)
		id->gp_counters = 6;
	if (extmax < 0x80000022)
		return;
	__cpuid(0x80000022, a, b, c, d);
	id->perfmon_v2 = a & 1;
	if (id->perfmon_v2) {
		id->perfmon_version = 2;
		id->gp_counters = (int)(b & 0xf);
		id->df_counters = (int)((b >> 10) & 0x3f);
		id->umc_counters = (int)((b >> 16) & 0x3f);
	}
}

static void read_cpuid(struct cpu_id *id)
{
	unsigned a, b, c, d, max, extmax, fam, mod;

	__cpuid(0, max, b, c, d);
	cpuid_str(id->vendor, b, d, c);
	__cpuid(1, a, b, c, d);
	fam = (a >> 8) & 0xf;
	mod = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		mod |= ((a >> 16) & 0xf) << 4;
	id->arch = CPU_ARCH_X86;
	id->family = (int)fam;
	id->model = (int)mod;
	id->stepping = (int)(a & 0xf);
	id->hypervisor = (c >> 31) & 1;
	if (id->hypervisor) {
		__cpuid(0x40000000, a, b, c, d);
		cpuid_str(id->hv_signature, b, c, d);
	}
	id->hybrid = 0;
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		id->hybrid = (d >> 15) & 1;
	}
	__cpuid(0x80000000, extmax, b, c, d);
	cpuid_brand(id, extmax);
	cpuid_leaf_a(id, max);
	cpuid_amd_perfmon(id, extmax);
	snprintf(id->source, sizeof(id->source), "cpuid");
}
#endif

static void read_live(struct cpu_id *id)
{
#if HAVE_CPUID
	read_cpuid(id);
#else
	read_midr(id);
	if (!id->has_midr)
		read_cpuinfo(id);
	else {
		/* model name and flags are still worth having */
		struct cpu_id tmp;

		cpu_id_init(&tmp);
		read_cpuinfo(&tmp);
		snprintf(id->model_name, sizeof(id->model_name), "%s", tmp.model_name);
	}
#endif
}

static void read_recorded(struct cpu_id *id)
{
	id->recorded = 1;
	read_cpuinfo(id);
	if (id->arch != CPU_ARCH_X86) {
		struct cpu_id m;

		cpu_id_init(&m);
		read_midr(&m);
		if (m.has_midr) {
			cpu_id_set_midr(id, m.midr);
			snprintf(id->source, sizeof(id->source), "sysfs midr_el1");
		}
	}
}

int cpu_identify(struct cpu_id *id, struct error *err)
{
	const char *spec = getenv("PMUSTAT_CPU");

	cpu_id_init(id);
	if (is_recorded())
		read_recorded(id);
	else
		read_live(id);
	if (spec && *spec) {
		if (cpu_id_parse(spec, id, err))
			return -1;
		id->model_name[0] = '\0';	/* the brand string was the real CPU's */
		snprintf(id->source, sizeof(id->source), "PMUSTAT_CPU");
	}
	return 0;
}

void cpu_id_describe(const struct cpu_id *id, char *buf, size_t len)
{
	if (id->arch == CPU_ARCH_ARM64 && id->has_midr)
		snprintf(buf, len, "arm64 implementer 0x%02x part 0x%03x r%up%u (MIDR 0x%08llx)",
			 id->implementer, id->part, id->variant, id->revision,
			 (unsigned long long)id->midr);
	else if (id->arch == CPU_ARCH_X86 && id->stepping >= 0)
		snprintf(buf, len, "%s family %d model %d (0x%02x) stepping %d", id->vendor,
			 id->family, id->model, (unsigned)id->model, id->stepping);
	else if (id->arch == CPU_ARCH_X86)
		snprintf(buf, len, "%s family %d model %d (0x%02x)", id->vendor, id->family,
			 id->model, (unsigned)id->model);
	else
		snprintf(buf, len, "unknown CPU");
}
