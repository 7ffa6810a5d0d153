/*
 * Fuzz harness: the call-count file the LD_PRELOAD shim appends to
 * (backend/callcount_abi.h). The input is the file's bytes, written where a
 * preload run's file is and read back as after a run: summed into the
 * counts of "allocs" and "call:free" (callcount_run_end, with the lost
 * images and whether the counts are complete), and parsed into allocation
 * call sites per process image (callcount_run_sites). The seeds are files
 * the shim's records make (tests/fuzz/corpus/callcount): a process with
 * sites and mappings, an exec'd image, a START with no END.
 */
#include <stdlib.h>

#include "backend/callcount.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct callcount_set s;
	static char *path;
	struct callcount_run r = { 0 };
	struct callcount_values v;
	struct callcount_sites sites;
	struct error err;
	char why[256];

	if (!path) {
		callcount_init(&s);
		if (callcount_add(&s, "allocs", &err) || callcount_add(&s, "call:free", &err))
			fuzz_die("callcount_add", err.msg);
		s.mech = CALLCOUNT_PRELOAD;
		path = fuzz_path("counts");
	}
	fuzz_write(path, data, size);
	r.path = path;
	error_clear(&err);
	if (callcount_run_end(&s, &r, &v, &err) == 0) {
		callcount_values_incomplete(&v, why, sizeof(why));
		callcount_values_release(&v);
	}
	error_clear(&err);
	if (callcount_run_sites(&r, &sites, &err) == 0)
		callcount_sites_release(&sites);
	return 0;
}
