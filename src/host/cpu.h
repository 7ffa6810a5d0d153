/*
 * CPU identity and its microarchitecture (uarch). The identity is what the
 * hardware says it is: on x86 the cpuid instruction (vendor, family, model,
 * stepping, the hypervisor bit and signature, Intel's architectural-perfmon
 * leaf 0xA, AMD's PerfMonV2 leaf 0x80000022, the hybrid flag); on arm64 the
 * MIDR register (sysfs regs/identification/midr_el1, else /proc/cpuinfo).
 * Which uarch that is, is not decided here but by data/cpus.json (see
 * host/cpumap.h): this file holds no per-model knowledge.
 *
 * Three sources, in this order of precedence:
 *   PMUSTAT_CPU   a pretend identity ("AuthenticAMD-25-17-1" = vendor-family-
 *                 model[-stepping] in decimal, or an arm64 MIDR "0x410fd490");
 *                 replaces vendor/family/model/stepping (or the MIDR) only;
 *   recorded      PMUSTAT_PROC_ROOT or PMUSTAT_SYSFS_ROOT set: the recorded
 *                 machine's /proc/cpuinfo (and midr_el1) — never this CPU's
 *                 cpuid, which would describe the wrong machine;
 *   live          cpuid (x86) or sysfs/cpuinfo (arm64) of this machine.
 * Facts a source cannot give stay unknown (-1 or ""), never guessed.
 */
#ifndef PMU_HOST_CPU_H
#define PMU_HOST_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

enum cpu_arch { CPU_ARCH_UNKNOWN = 0, CPU_ARCH_X86, CPU_ARCH_ARM64 };

struct cpu_id {
	enum cpu_arch arch;
	char source[48];	/* "cpuid", "/proc/cpuinfo", "sysfs midr_el1", "PMUSTAT_CPU" */
	int recorded;		/* 1: read from a recorded machine (PMUSTAT_*_ROOT) */

	/* x86 (decimal, as /proc/cpuinfo prints them); -1 = unknown */
	char vendor[16];	/* "AuthenticAMD", "GenuineIntel"; arm64: implementer name */
	int family, model, stepping;
	char model_name[128];	/* brand string, "" if unknown */

	/* arm64: the MIDR and its fields (has_midr = 0 elsewhere) */
	int has_midr;
	uint64_t midr;
	unsigned implementer, variant, architecture, part, revision;

	/* virtualisation: 1 yes, 0 no, -1 unknown */
	int hypervisor;
	char hv_signature[13];	/* cpuid 0x40000000 EBX:ECX:EDX, "" if none/unknown */

	/* Performance-monitoring facts; -1 = unknown (not readable from the
	 * source, e.g. counter counts on a recorded machine). */
	int arch_perfmon;	/* Intel: leaf 0xA present (cpuinfo flag arch_perfmon) */
	int perfmon_version;	/* Intel leaf 0xA EAX[7:0]; AMD: 2 with PerfMonV2 */
	int gp_counters;	/* general-purpose counters per logical CPU */
	int fixed_counters;	/* Intel fixed-function counters (leaf 0xA EDX[4:0]) */
	int counter_width;	/* bits */
	int perfctr_core;	/* AMD 0x80000001 ECX[23]: 6 core counters */
	int perfctr_nb;		/* AMD ECX[24]: data-fabric (northbridge) counters */
	int perfctr_llc;	/* AMD ECX[28]: L3 counters */
	int perfmon_v2;		/* AMD 0x80000022 EAX[0] */
	int df_counters;	/* AMD 0x80000022 EBX[15:10] */
	int umc_counters;	/* AMD 0x80000022 EBX[21:16] */
	int hybrid;		/* Intel leaf 7 EDX[15] (cpuinfo flag hybrid_cpu) */
};

/*
 * Identify the CPU from the sources above. Fails only when PMUSTAT_CPU is
 * malformed (a usage error naming the expected syntax); an unreadable
 * cpuinfo leaves fields unknown instead.
 */
int cpu_identify(struct cpu_id *id, struct error *err);

/*
 * Parse a PMUSTAT_CPU spec into the identity fields of id (arch, vendor,
 * family, model, stepping or the MIDR fields; other fields untouched).
 * Returns -1 with a usage error when spec is malformed.
 */
int cpu_id_parse(const char *spec, struct cpu_id *id, struct error *err);

/* Reset id to "nothing known" (all -1 / ""). */
void cpu_id_init(struct cpu_id *id);

/*
 * One line for humans: "AuthenticAMD family 25 model 17 (0x11) stepping 1",
 * "ARM part 0xd0c r3p1 (MIDR 0x413fd0c1)", or "unknown CPU".
 */
void cpu_id_describe(const struct cpu_id *id, char *buf, size_t len);

/*
 * The uarch of a CPU, as decided by data/cpus.json (host/cpumap.h has the
 * map itself). exact = 1 when a rule names this very CPU, or the user chose
 * the uarch; otherwise warning says what was approximated and how to choose.
 */
struct cpu_uarch {
	char name[32];		/* "zen4", ..., or "generic" */
	char detected[32];	/* what the data says for id, even when overridden */
	char perf[48];		/* perf's pmu-events name ("amdzen4"), "" if none */
	char vendor[32];	/* "AuthenticAMD", arm64 implementer name ("ARM") */
	char description[96];	/* "AMD Zen 4 (EPYC 9004 Genoa/Bergamo, Ryzen 7000)" */
	char source[32];	/* "data/cpus.json", "--uarch" or "PMUSTAT_UARCH" */
	char rule[160];		/* the rule that decided, for humans */
	int exact;
	int hybrid;		/* the matching rule marks this part as hybrid */
	char note[200];		/* the rule's note, "" if none (informational) */
	char warning[320];	/* "" or why the answer is approximate */
};

/*
 * The uarch to use for id. override is the --uarch option's value (NULL: use
 * $PMUSTAT_UARCH when set; neither: detect from data/cpus.json). An unknown
 * override name is a usage error with a near-name hint. Other failures
 * (corrupt embedded data) are runtime errors.
 */
int cpu_uarch(const struct cpu_id *id, const char *override, struct cpu_uarch *out,
	      struct error *err);

/* Decode a MIDR value into id's arm64 fields (sets arch and has_midr). */
void cpu_id_set_midr(struct cpu_id *id, uint64_t midr);

/*
 * Fill id's identity and perfmon fields from /proc/cpuinfo text (x86
 * "vendor_id"/"cpu family"/flags, or arm64 "CPU implementer"/"CPU part").
 * Only the first processor block is read. Exposed for tests.
 */
void cpu_id_from_cpuinfo(struct cpu_id *id, const char *text);

#endif
