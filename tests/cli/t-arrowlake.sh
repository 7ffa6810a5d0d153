# Arrow Lake (data/uarch/arrowlake.json): the CPU map picks it for models
# 0xc5/0xc6, explain and list show the Lion Cove / Skymont events, and the
# planner sizes each core PMU's groups by that file's capacities (planned
# on the constructed adl-hybrid tree, which has cpu_core and cpu_atom). No
# Arrow Lake hardware is at hand: this checks the data and the plan only.
. "$TESTLIB"
unset PMUSTAT_CPU PMUSTAT_UARCH PMUSTAT_SYSFS_ROOT PMUSTAT_PROC_ROOT

run_pm 0 explain l2-misses --uarch arrowlake
expect_in out "l2-misses on arrowlake"
expect_in out "l2_rqsts.demand_data_rd_miss + l2_rqsts.rfo_miss + l2_rqsts.code_rd_miss + atom.l2_request.miss: chosen"
expect_in out "perf     cpu_core/event=0x24,umask=0x21/"
expect_in out "perf     cpu_atom/event=0x24,umask=0x01/"
expect_in out "umask 0x3f"

run_pm 0 explain cycles --uarch arrowlake --json
expect_eq "$(jv out uarch)" arrowlake "uarch"
expect_in out "cpu_lowpower, which this catalogue does not open"

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

PMUSTAT_SYSFS_ROOT=$FIXTURES/adl-hybrid/sys PMUSTAT_PROC_ROOT=$FIXTURES/adl-hybrid/proc \
	run_pm 0 stat --dry-run --uarch arrowlake -m default,l2-misses -- true
expect_in out "dry run on arrowlake"
expect_in out "(cpu_core: 10 general-purpose + 4 fixed; cpu_atom: 8 general-purpose + 3 fixed) counters, one group per core PMU"
expect_in out "    member l2_rqsts.code_rd_miss
           pmu cpu_core  type 4  config 0x2424"
