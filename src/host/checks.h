/*
 * What this machine can measure, as a list of checks: each one ok, limited
 * or unavailable, and every gap with its cause and a concrete remedy (a
 * command, a sysctl, a hypervisor setting). `pmustat doctor` renders the list;
 * `pmustat stat` takes its "why not counted" words from the same functions
 * (checks_explain_hw_event), so the two never disagree.
 *
 * Each check is tried for real where the machine allows it: a test event is
 * opened on this process (software, cycles, msr/tsc, a uprobe, an uncore
 * event system-wide) and closed again without ever being enabled. On a
 * recorded machine (PMUSTAT_SYSFS_ROOT / PMUSTAT_PROC_ROOT) nothing is tried
 * — this machine's kernel says nothing about the recorded one — and every
 * check says so: its status is then deduced from the recorded files only.
 */
#ifndef PMU_HOST_CHECKS_H
#define PMU_HOST_CHECKS_H

#include <stddef.h>

#include "core/error.h"
#include "host/cpu.h"
#include "host/sysfs.h"

/*
 * Creating a uprobe (call counters, allocation sites of static programs)
 * needs CAP_SYS_ADMIN. Linux 5.8 let CAP_PERFMON do it too; the kernel went
 * back (commit ba677dbe77af, "perf: Revert to requiring CAP_SYS_ADMIN for
 * uprobes", Linux 6.16, and the stable kernels of July 2025): a uprobe put
 * in the middle of an instruction corrupts the program. Every text that
 * says what uprobes need says this.
 */
#define CHECKS_UPROBE_NEEDS "uprobes need root or CAP_SYS_ADMIN (CAP_PERFMON is not enough)"
#define CHECKS_UPROBE_SETCAP "'sudo setcap cap_perfmon,cap_sys_admin+ep $(command -v pmustat)'"

enum check_status { CHECK_OK = 0, CHECK_LIMITED, CHECK_UNAVAILABLE };

enum check_tried {
	CHECK_TRIED = 0,	/* a probe ran; probe says what happened */
	CHECK_NOT_TRIED,	/* nothing to try, or an earlier gap prevents it */
	CHECK_RECORDED,		/* a recorded machine: deduced from its files only */
};

struct check {
	const char *id;		/* stable key: "perf_event_open", "core_pmu", "amd_l3", ... */
	const char *area;	/* heading: "kernel", "permissions", "hardware PMU", ... */
				/* (both owned by the struct checks) */
	enum check_status status;
	enum check_tried tried;
	char *summary;		/* one line: what was found */
	char *cause;		/* why it is limited/unavailable; NULL when ok */
	char *remedy;		/* what to do about it; NULL when ok or nothing to do */
	char *probe;		/* what was tried and what happened, or why not */
};

/* Where the hypervisor verdict came from. */
struct checks_hv {
	int virtual_machine;	/* 1 yes, 0 no evidence, -1 unknown */
	char name[32];		/* "KVM", "unknown hypervisor", "" on bare metal */
	char evidence[200];	/* "clocksource kvm-clock; cpuid signature 'KVMKVMKVM'" */
	const char *vpmu;	/* how to get a virtual PMU (data), NULL if unknown */
};

struct checks {
	int recorded;		/* PMUSTAT_SYSFS_ROOT / PMUSTAT_PROC_ROOT in effect */
	const char *sysfs_root, *proc_root;
	struct cpu_id cpu;
	struct cpu_uarch uarch;
	struct checks_hv hv;
	struct sysfs_model model;
	char kernel[128];	/* uname -r of this machine ("" when recorded) */
	int paranoid;		/* perf_event_paranoid, -100 when unreadable */
	int privileged;		/* root, CAP_PERFMON or CAP_SYS_ADMIN: 1/0, -1 unknown */
	int sys_admin;		/* CAP_SYS_ADMIN (uprobes): 1/0, -1 unknown */
	char privilege[64];	/* "root", "CAP_PERFMON", "unprivileged", "unknown" */

	struct check *v;
	size_t n, alloc;

	size_t ncore_pmus;	/* core PMUs in the sysfs model (2 on hybrid parts) */

	/* The one-line verdict on hardware counters, and what works anyway. */
	enum check_status hw_status;
	char hw_reason[256];	/* "virtual machine without a virtual PMU (KVM)" */
	const char *available[8];	/* "software events", "msr/tsc", ... */
	size_t navailable;
};

/*
 * Identify the CPU (uarch override as in cpu_uarch()), read the sysfs model
 * and run every check. Fails only on bad input: a malformed PMUSTAT_CPU, an
 * unknown uarch, or an unreadable PMU tree; a missing fact is a check
 * result, not an error. Release with checks_release() in every case.
 */
int checks_run(struct checks *c, const char *uarch_override, struct error *err);
void checks_release(struct checks *c);

const char *check_status_name(enum check_status s);	/* "ok", "limited", "unavailable" */
const char *check_tried_name(enum check_tried t);	/* "tried", "not tried", "recorded" */

/*
 * A PMU's extra sysfs attribute that the sysfs model does not keep ("rdpmc",
 * "perf_event_mux_interval_ms", "cpus" of a hybrid PMU), trimmed, into buf;
 * 0 if present, -1 (buf = "") if not.
 */
int checks_pmu_attr(const struct checks *c, const char *pmu, const char *attr, char *buf,
		    size_t len);

/* "hardware counters: unavailable — ...; available: ..." (no newline). */
void checks_verdict(const struct checks *c, char *buf, size_t len);

/*
 * Explain why hardware event `event` cannot be counted here, the way the
 * core-PMU check does (no probes are run): fills err with "'cycles' not
 * counted: <cause>" and a hint with the remedy, and returns -1; returns 0
 * when a core PMU is present (then the failure has another cause).
 */
int checks_explain_hw_event(const char *event, struct error *err);

#endif
