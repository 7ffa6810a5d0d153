/*
 * The host facts every result records, so a measurement can be judged later:
 * which CPU and kernel, whether it is a VM, which perf permissions applied,
 * whether ASLR and frequency scaling could have biased it. Read from procfs
 * and sysfs (honouring PMUSTAT_PROC_ROOT / PMUSTAT_SYSFS_ROOT); reading never
 * fails as a whole — a fact that cannot be read is recorded as unknown.
 * The host name, uarch, SMT state and the Slurm ids are what `pmustat report
 * --by uarch|host` merges results of many machines by (docs/fleet.md).
 */
#ifndef PMU_HOST_HOSTINFO_H
#define PMU_HOST_HOSTINFO_H

struct hostinfo {
	char kernel[128];	/* uname -r */
	char machine[32];	/* uname -m */
	char vendor[32];	/* "AuthenticAMD", "GenuineIntel", "ARM" or "" */
	int family, model, stepping;	/* -1 if unknown */
	char model_name[128];
	int ncpus;		/* online CPUs */
	int hypervisor;		/* 1 = cpuinfo has the hypervisor flag, 0 = no, -1 unknown */
	int paranoid;		/* perf_event_paranoid, or -100 when unreadable */
	int aslr;		/* randomize_va_space, or -1 */
	char governor[32];	/* cpu0 scaling governor, "" if none */
	int hw_pmu;		/* a core PMU (cpu, cpu_core, armv8_*) is exposed in sysfs */
	char hostname[64];	/* gethostname(), "" if unknown */
	char uarch[32];		/* what data/cpus.json says the identity is ("zen4"),
				 * whatever --uarch chose; "" if it could not tell */
	int smt;		/* sysfs cpu/smt/active: 1, 0, or -1 unknown */
	/* Under Slurm (SLURM_JOB_ID set): the job, step and task (SLURM_PROCID)
	 * this run was, and the node Slurm calls it; "" / -1 otherwise. */
	char slurm_job[24], slurm_step[24], slurm_node[64];
	int slurm_task;
};

void hostinfo_read(struct hostinfo *h);

#endif
