# Arrow Lake (data/uarch/arrowlake.json): the CPU map picks it for models
# 0xc5/0xc6, explain and list show the Lion Cove / Skymont / Crestmont
# events, and on the constructed arl-h tree (cpu_core, cpu_atom and
# cpu_lowpower) and arl-s tree (no cpu_lowpower) doctor, explain and
# --dry-run show three or two core types. No Arrow Lake hardware is at
# hand: this checks the data and the plan only.
. "$TESTLIB"
unset PMUSTAT_CPU PMUSTAT_UARCH PMUSTAT_SYSFS_ROOT PMUSTAT_PROC_ROOT

run_pm 0 explain l2-misses --uarch arrowlake
expect_in out "l2-misses on arrowlake"
expect_in out "l2_rqsts.demand_data_rd_miss + l2_rqsts.rfo_miss + l2_rqsts.code_rd_miss + atom.l2_request.miss + lp.l2_request.miss: chosen"
expect_in out "perf     cpu_lowpower/event=0x24,umask=0x01/"
expect_in out "perf     cpu_core/event=0x24,umask=0x21/"
expect_in out "perf     cpu_atom/event=0x24,umask=0x01/"
expect_in out "umask 0x3f"

run_pm 0 explain cycles --uarch arrowlake --json
expect_eq "$(jv out uarch)" arrowlake "uarch"
expect_eq "$(jv out steps.0.formula)" "cpu_clk_unhalted.thread_p + atom.cpu_clk_unhalted.core_p + lp.cpu_clk_unhalted.core_p" "three core types"

run_pm 0 list --uarch arrowlake
expect_in out "metrics on arrowlake"
expect_in out "l1d.l0_replacement"
expect_in out "mem_inst_retired.any + atom.mem_uops_retired.all_loads + atom.mem_uops_retired.all_stores"

# the CPU map: Arrow Lake-H and -S to arrowlake, Arrow Lake-U (Meteor Lake silicon) to meteorlake
PMUSTAT_CPU=GenuineIntel-6-197 run_pm 0 list
expect_in out "metrics on arrowlake"
PMUSTAT_CPU=GenuineIntel-6-198 run_pm 0 list
expect_in out "metrics on arrowlake"
PMUSTAT_CPU=GenuineIntel-6-181 run_pm 0 list
expect_in out "metrics on meteorlake"

export PMUSTAT_SYSFS_ROOT=$FIXTURES/arl-h/sys PMUSTAT_PROC_ROOT=$FIXTURES/arl-h/proc
run_pm 0 doctor
expect_in out "hybrid CPU: cpu_core (P-cores, CPUs 0-5), cpu_atom (E-cores, CPUs 6-13) and cpu_lowpower (low-power E-cores, CPUs 14-15)"
run_pm 0 explain instructions --json
expect_eq "$(jv out uarch)" arrowlake "arl-h uarch from the CPU map"
expect_eq "$(jv out events.2.pmu)" cpu_lowpower "low-power E-core event"
expect_eq "$(jv out events.2.type)" 9 "cpu_lowpower type from sysfs"
run_pm 0 stat --dry-run -m default,l2-misses -- true
expect_in out "dry run on arrowlake"
expect_in out "(cpu_core: 10 general-purpose + 4 fixed; cpu_atom: 8 general-purpose + 3 fixed; cpu_lowpower: 8 general-purpose + 3 fixed) counters, one group per core PMU"
expect_in out "    member l2_rqsts.code_rd_miss
           pmu cpu_core  type 4  config 0x2424"
expect_in out "    leader lp.cpu_clk_unhalted.core_p
           pmu cpu_lowpower  type 9  config 0x3c"
expect_in out "NAME.cpu_core, NAME.cpu_atom and NAME.cpu_lowpower are the parts"

# Arrow Lake-S: no low-power E-cores, no cpu_lowpower; its terms are dropped, said so
export PMUSTAT_SYSFS_ROOT=$FIXTURES/arl-s/sys PMUSTAT_PROC_ROOT=$FIXTURES/arl-s/proc
run_pm 0 explain instructions
expect_in out "1. inst_retired.any_p + atom.inst_retired.any_p: chosen"
expect_in out "'lp.inst_retired.any_p' is not counted: this host exposes no 'cpu_lowpower' PMU"
run_pm 0 stat --dry-run -m default -- true
expect_in out "(cpu_core: 10 general-purpose + 4 fixed; cpu_atom: 8 general-purpose + 3 fixed) counters, one group per core PMU"
expect_not_in out "pmu cpu_lowpower"
expect_in out "NAME.cpu_core and NAME.cpu_atom are the parts"
