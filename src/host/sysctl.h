/*
 * Integer sysctls, read from <procfs root>/sys/ (PMUSTAT_PROC_ROOT or /proc,
 * see sysfs.h), so a recorded machine's perf_event_paranoid, nmi_watchdog
 * or randomize_va_space is read exactly like this host's. A sysctl that is
 * absent (an older kernel, a container, another architecture) or does not
 * hold one integer is "unknown": the caller chooses what that means.
 */
#ifndef PMU_HOST_SYSCTL_H
#define PMU_HOST_SYSCTL_H

/*
 * Read the sysctl name, written as its path under /proc/sys
 * ("kernel/nmi_watchdog", "kernel/perf_event_paranoid"). 0 with *value set;
 * -1 when it cannot be read or is not a single decimal integer (*value is
 * then left alone, so it may hold the caller's default).
 */
int host_sysctl_int(const char *name, int *value);

#endif
