/*
 * Fuzz harness: CPU identity. The input is read as a recorded machine's
 * /proc/cpuinfo (x86 or arm64 fields, first processor block), as a
 * PMUSTAT_CPU spec, and as the text of midr_el1, and whatever identity
 * comes out is looked up in the embedded data/cpus.json and described,
 * as `pmustat doctor` and every command's uarch choice do.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "host/cpu.h"
#include "host/cpumap.h"

static struct cpu_map *map;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct error err;

	(void)argc;
	(void)argv;
	if (cpu_map_load_default(&map, &err))
		fuzz_die("data/cpus.json", err.msg);
	return 0;
}

static void use_identity(const struct cpu_id *id)
{
	struct cpu_uarch u;
	char buf[256];

	cpu_id_describe(id, buf, sizeof(buf));
	cpu_map_lookup(map, id, &u);
	cpu_map_hv_by_cpuid(map, id->hv_signature);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *end;
	struct cpu_id id;
	struct error err;
	unsigned long long midr;

	cpu_id_init(&id);
	cpu_id_from_cpuinfo(&id, text);
	use_identity(&id);
	cpu_id_init(&id);
	if (cpu_id_parse(text, &id, &err) == 0)
		use_identity(&id);
	midr = strtoull(text, &end, 16);
	if (end != text) {
		cpu_id_init(&id);
		cpu_id_set_midr(&id, midr);
		use_identity(&id);
	}
	free(text);
	return 0;
}
