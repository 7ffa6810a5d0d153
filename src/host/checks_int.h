/*
 * Shared by the check files (checks.c: running and the verdict;
 * checks_pmu.c: everything perf_event_open decides; checks_env.c: tools and
 * noise sources). Not part of the host API: see checks.h.
 */
#ifndef PMU_HOST_CHECKS_INT_H
#define PMU_HOST_CHECKS_INT_H

#include <linux/perf_event.h>

#include "host/checks.h"
#include "host/cpumap.h"

/* Append a check; every text field starts NULL. */
struct check *checks_add(struct checks *c, const char *id, const char *area,
			 enum check_status st);
/* Replace *field with a printf-formatted copy. */
void check_text(char **field, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read an integer from a file; dflt when missing or malformed. */
int checks_read_int(const char *path, int dflt);
/* Read a file's trimmed text into buf ("" when missing); 0 if read. */
int checks_read_str(const char *path, char *buf, size_t len);

/*
 * Open attr (disabled, never enabled) on pid/cpu and close it again.
 * Returns 0 or the errno of the failure.
 */
int checks_probe(struct perf_event_attr *attr, int pid, int cpu);

/* The check with this id, or NULL. */
const struct check *checks_find(const struct checks *c, const char *id);

/* The first core PMU in the sysfs model, or NULL; *n = how many. */
const struct sysfs_pmu *checks_core_pmu(const struct checks *c, const struct cpu_map *m,
					size_t *n);

void checks_pmu_all(struct checks *c, const struct cpu_map *m);
void checks_env_all(struct checks *c);

/* ", 6 event counters + the cycle counter (pmustat's data for neoverse-n1:
 * ...)": the core PMU's counter count where no CPUID gives it (arm64), with
 * the source it came from (checks_counters.c). */
struct strbuf;
void checks_counters_text(const struct checks *c, struct strbuf *out);

/* Words for the hardware-PMU gap, shared by doctor and checks_explain. */
void checks_no_pmu_reason(const struct checks_hv *hv, char *reason, size_t len);

#endif
