# pmustat explain: the DESIGN.md story (L3 misses on Zen 4) on a described
# uarch, on the constructed zen4 fixtures, JSON fields, native events, errors.
. "$TESTLIB"
# Described uarchs must not be the host: on a Zen 4 host (CI's may be one)
# --uarch zen4 is checked against its PMUs instead. The host is pretended to
# be a CPU no run here describes; the recorded machines set it empty, so
# their own /proc says what they are.
export PMUSTAT_CPU=GenuineIntel-6-60

# Described (not this host): the uncore mapping is skipped for scope, the
# per-process proxy is chosen, and both encodings are shown.
run_pm 0 explain l3-misses --uarch zen4
expect_in out "llc-misses (asked as 'l3-misses') on zen4"
expect_in out "describing zen4; not checked against this host"
expect_in out "1. l3_lookup_state.l3_miss: skipped"
expect_in out "'amd_l3' counts system-wide, per L3 complex (CCX)"
expect_in out "the 'amd_l3' PMU (module amd_uncore)"
expect_in out "2. ls_dmnd_fills_from_sys.beyond_ccx  [proxy]: chosen"
expect_in out "attr     type 4  config 0xdc43  config1 0  config2 0"
expect_in out "perf     amd_l3/event=0x04,umask=0x01/"
expect_in out "on Zen the kernel maps it to L2 misses"

# Zen 5 (the development VM's core): the same story with Zen 5's encodings.
run_pm 0 explain l3-misses --uarch zen5
expect_in out "llc-misses (asked as 'l3-misses') on zen5"
expect_in out "2. ls_dmnd_fills_from_sys.beyond_ccx  [proxy]"
expect_in out "perf     amd_l3/event=0x04,umask=0x01/"
expect_in out "on Zen 5 the kernel maps it to L2 misses"
# On the recorded development VM it is checked, and not countable: no PMU.
PMUSTAT_CPU= PMUSTAT_SYSFS_ROOT=$FIXTURES/vm-nopmu/sys PMUSTAT_PROC_ROOT=$FIXTURES/vm-nopmu/proc \
	run_pm 0 explain l3-misses --json
expect_eq "$(jv out uarch)" "zen5" "dev VM uarch"
expect_eq "$(jv out host_checked)" "true" "dev VM checked"
expect_eq "$(jv out available)" "false" "dev VM l3-misses"
why=$(jv out reason)
case "$why" in *"no hardware PMU is exposed here"*) ;; *) fail "dev VM reason: $why" ;; esac
run_pm 0 explain stalled-cycles-frontend --uarch zen5 --json
expect_eq "$(jv out events.0.config)" "0x1080001a0" "zen5 cmask 8 on PMCx1A0"

# The zen4 host without amd_uncore (constructed fixture): checked, with the fix.
PMUSTAT_CPU= PMUSTAT_SYSFS_ROOT=$FIXTURES/zen4-no-uncore/sys PMUSTAT_PROC_ROOT=$FIXTURES/zen4-no-uncore/proc \
	run_pm 0 explain l3-misses
expect_in out "checked against this host's PMUs and permissions"
expect_in out "run 'modprobe amd_uncore' (the 'amd_l3' PMU is not exposed here)"

# JSON: chosen events carry pmu, name, config and decoded event/umask.
run_pm 0 explain llc-misses --uarch zen4 --json
expect_eq "$(jv out name)" "llc-misses" "name"
expect_eq "$(jv out steps.0.status)" "skipped" "primary"
expect_eq "$(jv out steps.1.status)" "chosen" "proxy"
expect_eq "$(jv out events.1.name)" "ls_dmnd_fills_from_sys.beyond_ccx" "event"
expect_eq "$(jv out events.1.pmu)" "cpu" "pmu"
expect_eq "$(jv out events.1.config)" "0xdc43" "config"
expect_eq "$(jv out events.1.event)" "0x43" "event field"
expect_eq "$(jv out events.1.umask)" "0xdc" "umask field"
expect_eq "$(jv out events.0.type)" "null" "dynamic type unknown off-host"

run_pm 0 explain branch-misses --uarch neoverse-n1 --json
expect_eq "$(jv out formula)" "BR_MIS_PRED_RETIRED" "arm branch-misses"
expect_eq "$(jv out events.0.config)" "0x22" "arm config"

# Derived metrics show their formula over events.
run_pm 0 explain ipc --uarch sapphirerapids
expect_in out "formula: instructions / cycles"
expect_in out "= (inst_retired.any_p) / (cpu_clk_unhalted.thread_p)"

# Native events are explained too.
run_pm 0 explain task-clock:u
expect_in out "a native event"
run_pm 0 explain --json msr/tsc/
expect_eq "$(jv out pmu)" "msr" "native pmu"

# Errors: usage, with near names and a command.
run_pm 2 explain l3-mises --uarch zen4
expect_in err "error: unknown metric or event 'l3-mises'"
expect_in err "hint: did you mean"
run_pm 2 explain l3-misses --uarch zen44
expect_in err "error: unknown"
run_pm 2 explain
expect_in err "error: no metric or event to explain"
expect_in err "hint: name one metric or event, as in 'pmustat explain l3-misses --uarch zen4'"

# A failed write is an error, in one line, whatever the view.
expect_stdout_full explain l3-misses --uarch zen4
expect_stdout_full explain l3-misses --uarch zen4 --json
expect_stdout_full explain cache --json
expect_stdout_full explain msr/tsc/ --json
