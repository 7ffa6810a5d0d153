/*
 * libpfm4, loaded on first use. Linking libpfm4 costs every pmustat start
 * about 4 ms on our VMs (relocating and faulting in 1 MiB of its event
 * tables), yet only libpfm event names (-e RETIRED_OPS) and `list --events`
 * need it. So pmustat dlopen()s libpfm.so.4 the first time one of these is
 * called. The functions mirror libpfm4's (same arguments, same results);
 * when the library cannot be loaded they return PFM_ERR_NOINIT and
 * libpfm_missing() says why.
 *
 * libpfm4's own state is process-global (pfm_initialize), and so is the
 * handle here: one library per process, by nature.
 */
#ifndef PMU_CATALOG_LIBPFM_H
#define PMU_CATALOG_LIBPFM_H

/* The kernel's header first: pfmlib_perf_event.h only defines its own
 * perf_event_attr when the kernel's is absent. */
#include <linux/perf_event.h>
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

int lpfm_initialize(void);
int lpfm_get_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info);
int lpfm_get_event_info(int idx, pfm_os_t os, pfm_event_info_t *info);
int lpfm_get_event_next(int idx);
int lpfm_get_os_event_encoding(const char *str, int dfl_plm, pfm_os_t os, void *arg);
const char *lpfm_strerror(int code);

/* Why libpfm4 could not be loaded ("libpfm.so.4: cannot open shared object
 * file ..."), or NULL when it is loaded. */
const char *libpfm_missing(void);

#endif
