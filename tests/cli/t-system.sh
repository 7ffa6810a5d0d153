# pmustat stat -a / -C: system-wide counting, one counter per CPU (pid -1),
# for real with software events and msr/tsc/, and on the constructed Zen 4
# tree (tests/fixtures/zen4, with amd_l3) through --dry-run: l3-misses
# resolves to the L3 PMU's own event with -a, to the per-process proxy
# without it or without the privilege.
. "$TESTLIB"

online=$(cat /sys/devices/system/cpu/online)
ncpu=$(getconf _NPROCESSORS_ONLN)

run_pm 0 stat -a -e task-clock,msr/tsc/ --duration 0.2 -o s.json
expect_in out "Performance counter stats for 'system wide, CPU(s) "
expect_in out "system-wide: counts every task on CPUs"
expect_in out "pin the workload with --pin CPU"
expect_eq "$(jv s.json options.target.kind)" system "target kind"
expect_eq "$(jv s.json runs.#)" 1 "one run"
wall=$(jv s.json runs.0.values.wall-time.value)
tc=$(jv s.json runs.0.values.task-clock.value)
en=$(jv s.json runs.0.values.task-clock.time_enabled)
tsc=$(jv s.json runs.0.values.msr/tsc/.value)
# On a CPU, task-clock is the time the counter was enabled there: one
# counter per CPU, none enabled longer than the run.
[ "$tc" -gt 0 ] || fail "task-clock not positive: $tc"
[ "$en" -le $((ncpu * wall)) ] || fail "time_enabled $en > $ncpu CPUs x wall $wall"
[ "$tsc" -gt 0 ] || fail "msr/tsc/ not counted: $tsc"
cpus=$(jv s.json options.target.cpus)
[ "$cpus" = "$online" ] || [ "$(echo "$online" | tr '-' ',')" = "$cpus" ] ||
	fail "CPUs '$cpus' are not the online ones '$online'"

# -C: one CPU only (and -C alone means -a, as in perf).
run_pm 0 stat -C 0 -e task-clock --duration 0.1 -o c0.json
expect_eq "$(jv c0.json options.target.cpus)" 0 "CPU 0"
en=$(jv c0.json runs.0.values.task-clock.time_enabled)
wall=$(jv c0.json runs.0.values.wall-time.value)
[ "$en" -le "$wall" ] || fail "one CPU: time_enabled $en > wall $wall"

# A command bounds it.
run_pm 0 stat -a -e task-clock -o cmd.json -- true
expect_in out "system wide, CPU(s) $(jv cmd.json options.target.cpus)' while 'true'"
expect_eq "$(jv cmd.json stop_reason)" "the command exited" "ended by the command"

# Zen 4 with amd_l3 (constructed tree): --dry-run shows pid and cpu.
zen4() {
	PMUSTAT_SYSFS_ROOT="$FIXTURES/zen4/sys" PMUSTAT_PROC_ROOT="$FIXTURES/zen4/proc" \
		PMUSTAT_CPU=AuthenticAMD-25-17-1 "$@"
}
zen4 "$PMUSTAT" stat -a -m l3-misses,task-clock --dry-run -- true >out 2>err ||
	fail "zen4 -a dry run failed: $(cat err)"
expect_in out "pmu amd_l3  type 13  config 0x104"
expect_in out "target: system-wide on CPUs"
# amd_l3's cpumask (0) names one CPU per L3 complex: opened there only.
grep -q "l3_lookup_state.l3_miss .*pid -1  cpu 0  (its PMU's cpumask)" out ||
	fail "amd_l3 not opened on its cpumask: $(cat out)"
grep -q "task-clock .*pid -1  cpu $(echo "$cpus")\$" out || fail "task-clock per CPU: $(cat out)"
expect_not_in out "ls_dmnd_fills_from_sys"
# Without -a: the per-process proxy, and the note says why.
zen4 "$PMUSTAT" stat -m l3-misses --dry-run -- true >out 2>err || fail "zen4 dry run"
expect_in out "ls_dmnd_fills_from_sys.beyond_ccx"
expect_in out "'amd_l3' counts system-wide"
expect_not_in out "target:"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	# -a without the privilege (the tree's perf_event_paranoid is 2): the proxy.
	zen4 setpriv --reuid=65534 --regid=65534 --clear-groups "$PMUSTAT" stat -a \
		-m l3-misses --dry-run -- true >out 2>err || fail "zen4 unprivileged dry run"
	expect_in out "ls_dmnd_fills_from_sys.beyond_ccx"
	expect_in out "counting 'amd_l3' system-wide needs root or kernel.perf_event_paranoid<=0"
	# ... and for real: -a as nobody is refused, naming the privileges.
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PMUSTAT" stat -a -e task-clock \
		--duration 0.1 >out 2>err
	expect_eq "$?" 1 "-a as nobody: exit code"
	expect_in err "error: cannot count system-wide: permission denied"
	expect_in err "kernel.perf_event_paranoid=0"
	expect_in err "CAP_PERFMON"
fi

# Bad CPU lists: a usage error naming the item.
run_pm 2 stat -C 0-4096 -e task-clock --duration 0.1
expect_in err "invalid CPU list '0-4096': CPU"
expect_in err "is not online here"
run_pm 2 stat -a -C 3-1 -- true
expect_in err "invalid CPU list '3-1': bad item '3-1'"
run_pm 2 stat -a -C 0,,1 -- true
expect_in err "bad item ''"
run_pm 2 stat -C '' -- true
expect_in err "empty CPU list"
run_pm 2 stat -a -e call:malloc -- true
expect_in err "call counters cannot be used with -p, -t, -a or -I"

# pmustat report reads the target back: the heading says what was counted.
run_pm 0 report cmd.json
expect_in out "Performance counter stats for 'system wide, CPU(s) $(jv cmd.json options.target.cpus)' while 'true'"
