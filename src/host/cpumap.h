/*
 * data/cpus.json, loaded: which uarch a CPU identity is, which hypervisor a
 * cpuid signature or clocksource names, which sysfs PMUs are core PMUs and
 * which uncore PMUs a vendor's parts should expose. All of it is data; this
 * file only knows how to read and match it.
 *
 * Matching is order-independent by construction: of the rules that match,
 * the highest priority wins, and loading fails when two rules could match one
 * CPU at the same priority. A model that no rule names, of a vendor+family
 * (arm64: implementer) that has rules, takes the uarch of the nearest named
 * model (ties: the higher priority, then the higher model) with a warning.
 */
#ifndef PMU_HOST_CPUMAP_H
#define PMU_HOST_CPUMAP_H

#include <stddef.h>

#include "core/error.h"
#include "host/cpu.h"

struct cpu_map;

struct cpu_hv {
	const char *name;		/* "KVM" */
	const char *cpuid;		/* leaf 0x40000000 signature, "" if none */
	const char *vpmu;		/* how to give the guest a virtual PMU */
	const char *const *clocksources;	/* NULL-terminated */
	const char *const *dmi_vendors;		/* NULL-terminated */
	const char *const *dt_compatible;	/* device-tree machine, NULL-terminated */
};

struct cpu_uncore {
	const char *vendor;		/* "AuthenticAMD" */
	const char *pmu;		/* sysfs name or glob: "amd_l3", "uncore_imc*" */
	const char *what;		/* what it counts, for humans */
	const char *module;		/* kernel module that provides it */
	const char *since;		/* first kernel with support ("Linux 6.7"), or NULL */
	const char *const *uarchs;	/* NULL-terminated: parts that have it */
};

/* Parse JSON text (name is used in error messages). Validates every rule. */
int cpu_map_load(struct cpu_map **out, const char *json, size_t len, const char *name,
		 struct error *err);
/* The embedded data/cpus.json. */
int cpu_map_load_default(struct cpu_map **out, struct error *err);
void cpu_map_free(struct cpu_map *m);

/* Decide id's uarch from the rules (no override handling). */
void cpu_map_lookup(const struct cpu_map *m, const struct cpu_id *id, struct cpu_uarch *out);

/* Known uarch names (keys of "uarchs"), in file order; *n set. */
const char *const *cpu_map_uarchs(const struct cpu_map *m, size_t *n);
/* Description of a known uarch, NULL if unknown. */
const char *cpu_map_uarch_desc(const struct cpu_map *m, const char *name);

/* Hypervisor by cpuid signature / clocksource / DMI sys_vendor; NULL if none. */
const struct cpu_hv *cpu_map_hv_by_cpuid(const struct cpu_map *m, const char *sig);
const struct cpu_hv *cpu_map_hv_by_clocksource(const struct cpu_map *m, const char *cs);
const struct cpu_hv *cpu_map_hv_by_dmi(const struct cpu_map *m, const char *vendor);
/* By a string of the device tree root's "compatible" (arm64 machines that
 * have no DMI, e.g. QEMU's "linux,dummy-virt"). */
const struct cpu_hv *cpu_map_hv_by_dt(const struct cpu_map *m, const char *compatible);

/* Is a sysfs PMU of this name a core (per-CPU, per-process) PMU? */
int cpu_map_is_core_pmu(const struct cpu_map *m, const char *pmu);
/* Its position in the data's core_pmus list (lower = preferred), -1 if none. */
int cpu_map_core_pmu_rank(const struct cpu_map *m, const char *pmu);

/* The uncore PMU expectations, *n set. */
const struct cpu_uncore *cpu_map_uncore(const struct cpu_map *m, size_t *n);

#endif
