/*
 * The host's cache geometry as the kernel describes it:
 * <sysfs>/devices/system/cpu/cpu0/cache/index<N>/ with level, type (Data,
 * Instruction, Unified), size ("32K"), ways_of_associativity and
 * coherency_line_size (Documentation/ABI/testing/sysfs-devices-system-cpu).
 * The simulation backend wants it to model "this machine" when it cannot
 * trust valgrind's own CPUID reading, and it is a fact worth recording.
 *
 * Only cpu0 is read: on a hybrid part other CPUs may differ, which the
 * caller must not hide. Many VMs (the project's development VM among them)
 * expose no cache directory at all; that is an error value, not a guess.
 * The kernel hides an attribute whose value is 0, so a missing ways file
 * means "not given", and number_of_sets is used to derive the ways then.
 */
#ifndef PMU_HOST_CACHES_H
#define PMU_HOST_CACHES_H

#include <stdint.h>

#include "core/error.h"

struct host_cache {
	uint64_t size;		/* bytes; 0 = this level is not described */
	unsigned assoc;		/* ways; 0 = not given (and not derivable) */
	unsigned line;		/* coherency_line_size in bytes; 0 = not given */
	char shared_cpus[64];	/* shared_cpu_list ("0-7,96-103"), "" if absent */
};

struct host_caches {
	/* A unified level-1 cache fills both l1i and l1d. Levels above 3
	 * (an L4 such as eDRAM) are not recorded. */
	struct host_cache l1i, l1d, l2, l3;
};

/*
 * Read cpu0's caches under root (NULL: sysfs_root(), i.e. honouring
 * PMUSTAT_SYSFS_ROOT). Returns 0 when at least one level is described; -1
 * with err when the cache directory is missing or empty ("... describes no
 * caches"), or when a file there is unreadable or malformed (naming it).
 * Entries of the same level and type after the first are ignored.
 */
int host_cache_geometry(const char *root, struct host_caches *out, struct error *err);

#endif
