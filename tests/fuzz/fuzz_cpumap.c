/*
 * Fuzz harness: data/cpus.json, the CPU id map (PMUSTAT_DATA_DIR or an
 * edited build can hand pmustat any such file). The input is loaded as the
 * map; when it loads, a few identities of each kind (a known AMD and Intel
 * part, an unknown model of a known family, an arm64 MIDR, nothing) are
 * looked up, and the hypervisor, core-PMU and uncore tables are queried.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "host/cpu.h"
#include "host/cpumap.h"

static const char *const specs[] = {
	"AuthenticAMD-25-17-1", "AuthenticAMD-25-255", "GenuineIntel-6-143-8",
	"GenuineIntel-6-0", "HygonGenuine-24-1", "0x413fd0c1", "0x480fd010",
};

static void lookup(const struct cpu_map *m, const struct cpu_id *id)
{
	struct cpu_uarch u;

	cpu_map_lookup(m, id, &u);
	cpu_map_uarch_desc(m, u.name);
}

static void query(const struct cpu_map *m)
{
	const char *const *names;
	const struct cpu_uncore *unc;
	struct cpu_id id;
	size_t n;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		cpu_id_init(&id);
		if (!cpu_id_parse(specs[i], &id, NULL))
			lookup(m, &id);
	}
	cpu_id_init(&id);
	lookup(m, &id);
	names = cpu_map_uarchs(m, &n);
	for (size_t i = 0; i < n; i++)
		cpu_map_uarch_desc(m, names[i]);
	cpu_map_hv_by_cpuid(m, "KVMKVMKVM");
	cpu_map_hv_by_clocksource(m, "kvm-clock");
	cpu_map_hv_by_dmi(m, "QEMU");
	cpu_map_core_pmu_rank(m, "cpu");
	cpu_map_is_core_pmu(m, "armv8_pmuv3_0");
	unc = cpu_map_uncore(m, &n);
	for (size_t i = 0; i < n; i++)
		for (const char *const *u = unc[i].uarchs; u && *u; u++)
			cpu_map_uarch_desc(m, *u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpu_map *m;
	struct error err;

	if (cpu_map_load(&m, (const char *)data, size, "fuzz.json", &err) == 0) {
		query(m);
		cpu_map_free(m);
	}
	return 0;
}
