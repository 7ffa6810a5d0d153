# Hybrid Intel parts (Alder Lake: cpu_core + cpu_atom), on the constructed
# adl-hybrid tree: --dry-run plans each core PMU with its own capacity and
# leaders, explain shows one event per core type with its sysfs type, and
# a saved result's core-type counts are used whole although time_running
# is short of time_enabled (the threads ran on the other type meanwhile).
# No hybrid hardware is at hand: all of this is verified against the tree.
. "$TESTLIB"
export PMUSTAT_SYSFS_ROOT=$FIXTURES/adl-hybrid/sys PMUSTAT_PROC_ROOT=$FIXTURES/adl-hybrid/proc
unset PMUSTAT_CPU PMUSTAT_UARCH

run_pm 0 stat --dry-run -m default,l2-misses -- true
expect_in out "dry run on alderlake"
expect_in out "(cpu_core: 8 general-purpose + 4 fixed; cpu_atom: 6 general-purpose + 3 fixed) counters, one group per core PMU"
expect_in out "    leader cpu_clk_unhalted.thread_p
           pmu cpu_core  type 4  config 0x3c"
expect_in out "    leader atom.cpu_clk_unhalted.core_p
           pmu cpu_atom  type 8  config 0x3c"
expect_in out "    member atom.l2_request.miss
           pmu cpu_atom  type 8  config 0x124"
expect_in out "    member l2_rqsts.all_demand_miss
           pmu cpu_core  type 4  config 0x2724"
expect_in out "NAME.cpu_core and NAME.cpu_atom are the parts"

run_pm 0 explain instructions --json
expect_eq "$(jv out uarch)" alderlake "uarch"
expect_eq "$(jv out formula)" "inst_retired.any_p + atom.inst_retired.any_p" "summed"
expect_eq "$(jv out events.1.pmu)" cpu_atom "E-core event"
expect_eq "$(jv out events.1.type)" 8 "cpu_atom type from sysfs"

run_pm 0 explain l1d-misses
expect_in out "P-cores only: the alderlake JSON has no L1D fill"

# A saved result: two core-type counts and one plain count, each with
# time_running at 60% of time_enabled. Only the plain one is multiplexed.
cat >hybrid.json <<'JSON'
{"schema": "pmustat.result/1", "tool": {"name": "pmustat", "version": "0.1.0"}, "command": "stat",
 "created": 1796139202.6, "complete": true, "interrupted": false, "stop_reason": "all runs done",
 "host": {"kernel": "6.8.0", "machine": "x86_64", "cpu": {"vendor": "GenuineIntel", "family": 6,
   "model": 151, "stepping": 2, "model_name": "12th Gen Intel(R) Core(TM) i9-12900K"}, "ncpus": 24,
   "hypervisor": false, "perf_event_paranoid": 2, "aslr": 2, "governor": null, "hw_pmu": true},
 "options": {"seed": 0, "repeat": 2, "warmup": 0, "timeout": 0.0, "keep_children": false,
   "kernel_excluded": false, "pin_cpu": null, "env_pad_max": 0},
 "variants": [{"name": "A", "argv": ["true"], "exec_path": null}],
 "metrics": [
  {"name": "inst_retired.any_p", "unit": "", "backend": "perf", "available": true, "scale": 1.0,
   "hidden": false, "pmu": "cpu_core", "type": 4, "config": 192, "config1": 0, "config2": 0,
   "core_type": true, "group": 0},
  {"name": "atom.inst_retired.any_p", "unit": "", "backend": "perf", "available": true, "scale": 1.0,
   "hidden": false, "pmu": "cpu_atom", "type": 8, "config": 192, "config1": 0, "config2": 0,
   "core_type": true, "group": 0},
  {"name": "plain", "unit": "", "backend": "perf", "available": true, "scale": 1.0,
   "hidden": false, "pmu": "cpu", "type": 4, "config": 196, "config1": 0, "config2": 0, "group": 0}],
 "runs": [
  {"index": 0, "variant": 0, "block": 0, "position": 0, "group": 0, "warmup": false,
   "start_time": 1796139202.7, "env_pad": 0, "status": "ok", "exit_code": 0, "values": {
    "inst_retired.any_p": {"value": 6000, "time_enabled": 1000, "time_running": 600},
    "atom.inst_retired.any_p": {"value": 2000, "time_enabled": 1000, "time_running": 400},
    "plain": {"value": 7000, "time_enabled": 1000, "time_running": 600}}},
  {"index": 1, "variant": 0, "block": 1, "position": 0, "group": 0, "warmup": false,
   "start_time": 1796139202.8, "env_pad": 0, "status": "ok", "exit_code": 0, "values": {
    "inst_retired.any_p": {"value": 6200, "time_enabled": 1000, "time_running": 600},
    "atom.inst_retired.any_p": {"value": 2200, "time_enabled": 1000, "time_running": 400},
    "plain": {"value": 7000, "time_enabled": 1000, "time_running": 600}}}],
 "notes": []}
JSON
run_pm 0 report hybrid.json -o again.json
expect_in out "inst_retired.any_p"
expect_in out "plain: 2 runs left out: the counter was not scheduled for the whole run (multiplexed)"
expect_not_in out "inst_retired.any_p: 2 runs left out"
expect_eq "$(json_find again.json summaries metric inst_retired.any_p n)" 2 "P-core part used"
expect_eq "$(json_find again.json summaries metric atom.inst_retired.any_p mean)" 2100.0 "E-core part used whole"
expect_eq "$(json_find again.json summaries metric plain n)" 0 "plain counter left out"
expect_eq "$(json_find again.json metrics name atom.inst_retired.any_p core_type)" true "core_type kept"
