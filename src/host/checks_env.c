/*
 * The checks that are not about perf_event_open: is valgrind there for the
 * simulation backend, and the sources of run-to-run noise — ASLR, the CPU
 * frequency governor, turbo/boost and SMT siblings. Noise sources never make
 * a measurement impossible, so they are at worst "limited", with the
 * setting that removes them.
 */
#include "host/checks_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/path.h"
#include "host/sysctl.h"

static void check_valgrind(struct checks *c)
{
	struct check *k = checks_add(c, "valgrind", "simulation", CHECK_OK);
	char *path;

	if (c->recorded) {
		check_text(&k->summary, "not known for a recorded machine");
		check_text(&k->probe, "not tried: valgrind is looked up in this machine's PATH");
		return;
	}
	k->tried = CHECK_TRIED;
	path = path_search("valgrind", NULL, X_OK);
	if (path) {
		check_text(&k->summary, "valgrind found: '--backend sim' simulates caches and "
			   "branches (cachegrind)");
		check_text(&k->probe, "found %s", path);
		free(path);
		return;
	}
	k->status = CHECK_UNAVAILABLE;
	check_text(&k->summary, "valgrind not found: no simulation backend");
	check_text(&k->probe, "searched PATH for 'valgrind'");
	check_text(&k->cause, "'--backend sim' runs the command under valgrind's cachegrind");
	check_text(&k->remedy, "'sudo apt-get install valgrind' (or your distribution's "
		   "valgrind package)");
}

static void check_aslr(struct checks *c)
{
	int v;
	struct check *k;

	if (host_sysctl_int("kernel/randomize_va_space", &v) || v < 0)
		return;
	k = checks_add(c, "aslr", "noise", v ? CHECK_LIMITED : CHECK_OK);
	if (!v) {
		check_text(&k->summary, "ASLR off (randomize_va_space=0)");
		return;
	}
	check_text(&k->summary, "ASLR on (randomize_va_space=%d): addresses change per run", v);
	check_text(&k->cause, "stack, heap and library addresses differ from run to run, "
		   "which moves alignment and cache-set conflicts: run-to-run noise");
	check_text(&k->remedy, "repeat runs (-r) to average it out; to remove it, run the "
		   "command under 'setarch -R' or 'sudo sysctl kernel.randomize_va_space=0'");
}

static void check_governor(struct checks *c)
{
	char path[4096], gov[64];
	struct check *k;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		 c->sysfs_root);
	if (checks_read_str(path, gov, sizeof(gov)) || !gov[0]) {
		k = checks_add(c, "governor", "noise", CHECK_OK);
		check_text(&k->summary, "no cpufreq governor exposed (the kernel does not scale "
			   "the clock here; usual in VMs)");
		return;
	}
	k = checks_add(c, "governor", "noise",
		       strcmp(gov, "performance") ? CHECK_LIMITED : CHECK_OK);
	check_text(&k->summary, "CPU frequency governor '%s'", gov);
	if (k->status == CHECK_OK)
		return;
	check_text(&k->cause, "governor '%s' changes the clock with load: time and "
		   "cycles-per-second vary between runs", gov);
	check_text(&k->remedy, "'sudo cpupower frequency-set -g performance' while measuring");
}

static void check_turbo(struct checks *c)
{
	char path[4096], pstate[4096];
	int no_turbo, boost;
	struct check *k;

	snprintf(pstate, sizeof(pstate), "%s/devices/system/cpu/intel_pstate/no_turbo",
		 c->sysfs_root);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpufreq/boost", c->sysfs_root);
	no_turbo = checks_read_int(pstate, -1);
	boost = checks_read_int(path, -1);
	if (no_turbo < 0 && boost < 0)
		return;
	if (no_turbo == 1 || (no_turbo < 0 && boost == 0)) {
		k = checks_add(c, "turbo", "noise", CHECK_OK);
		check_text(&k->summary, "turbo/boost off");
		return;
	}
	k = checks_add(c, "turbo", "noise", CHECK_LIMITED);
	check_text(&k->summary, "turbo/boost on");
	check_text(&k->cause, "boost clocks depend on temperature and on how busy the other "
		   "cores are: time-based metrics vary between runs");
	if (no_turbo >= 0)
		check_text(&k->remedy, "'echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/"
			   "no_turbo' while measuring");
	else
		check_text(&k->remedy, "'echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost' "
			   "while measuring");
}

static void check_smt(struct checks *c)
{
	char path[4096];
	int v;
	struct check *k;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/smt/active", c->sysfs_root);
	v = checks_read_int(path, -1);
	if (v < 0)
		return;
	k = checks_add(c, "smt", "noise", v ? CHECK_LIMITED : CHECK_OK);
	if (!v) {
		check_text(&k->summary, "SMT inactive: no sibling hardware threads");
		return;
	}
	check_text(&k->summary, "SMT active: CPUs share cores with a sibling thread");
	check_text(&k->cause, "whatever runs on the sibling thread shares the core's caches and "
		   "execution units with the measured program");
	check_text(&k->remedy, "pin with '--pin CPU' and keep its sibling idle, or 'echo off | "
		   "sudo tee /sys/devices/system/cpu/smt/control'");
}

void checks_env_all(struct checks *c)
{
	check_valgrind(c);
	check_aslr(c);
	check_governor(c);
	check_turbo(c);
	check_smt(c);
}
