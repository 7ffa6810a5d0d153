# Simulated counters (cachegrind): labelled, exact, never a time.
. "$TESTLIB"
command -v valgrind >/dev/null || { echo "skip: no valgrind"; exit 77; }
L=$BUILD/loopn

run_pm 0 stat --backend sim -m instructions,branches,branch-misses -o a.json -- "$L" 100000
run_pm 0 stat --backend sim --sim-runs 1 -m instructions,branches -o b.json -- "$L" 200000
expect_in out "(sim)"
expect_in out "simulated by cachegrind"
expect_eq "$(jv a.json metrics.4.backend)" sim "backend"
expect_eq "$(jv b.json runs.#)" 1 "--sim-runs 1"
expect_eq "$(jv a.json runs.0.simulated)" true "runs marked simulated"
# time under valgrind is not the program's: not measured at all
expect_eq "$(jv a.json metrics.0.available)" false "wall-time not measured"
expect_eq "$(jv a.json runs.0.values.wall-time)" null "no wall time in a simulated run"
# loopn: 100,000 more iterations = exactly 100,000 more conditional branches
db=$(( $(jv b.json runs.0.values.branches.value) - $(jv a.json runs.0.values.branches.value) ))
expect_eq "$db" 100000 "branch difference"
# simulated counts do not vary between runs
expect_eq "$(jv a.json runs.0.values.instructions.value)" "$(jv a.json runs.2.values.instructions.value)" "deterministic"

# auto: named hardware metrics without a PMU are simulated, software ones native
if ! ls /sys/bus/event_source/devices | grep -qE '^(cpu|cpu_core|armv8)'; then
	run_pm 0 stat -r 2 -m instructions,task-clock -o auto.json -- "$L" 1000
	expect_eq "$(jv auto.json metrics.4.backend)" sim "instructions simulated"
	expect_eq "$(jv auto.json metrics.5.backend)" perf "task-clock native"
	expect_eq "$(jv auto.json runs.#)" 5 "2 native + 3 simulated runs (-r sets the measured runs only)"
	# the implicit default set is never simulated: say how to get it
	run_pm 0 stat -r 1 -- "$L" 10
	expect_not_in out "simulated by cachegrind"
fi

# compare: simulated counts of twice the loop
run_pm 0 compare --backend sim --sim-runs 3 -m instructions -o c.json -- "$L" 100000 -- "$L" 200000
expect_eq "$(jv c.json comparisons.0.metric)" instructions "compared metric"
expect_eq "$(jv c.json comparisons.0.verdict)" higher "verdict"
awk -v r="$(jv c.json comparisons.0.ratio)" 'BEGIN { exit !(r > 1.5 && r < 2.0) }' ||
	fail "instruction ratio $(jv c.json comparisons.0.ratio)"
# Simulated runs only: no timed block, so no "0 blocks", no stopping rule or
# block limit, and a profile that sampled nothing says so.
run_pm 0 compare --backend sim --sim-runs 2 -m instructions --profile=time -o p.json -- "$L" 100000 -- "$L" 200000
expect_in out "2 variants, 2 simulated blocks (no timed runs)"
expect_not_in out "0 blocks"
expect_not_in out " rule: "
expect_not_in out "block limit"
expect_eq "$(jv p.json stop_reason)" "the simulated runs asked for ran" "stop reason"
expect_in out "profile: no run was sampled"
expect_not_in out "sampled on cpu-clock"

# no valgrind: a clear error with the install command
(PATH=/nonexistent; export PATH; "$PMUSTAT" stat --backend sim -m instructions -- "$L" 10 >out 2>err)
expect_eq "$?" 1 "exit code without valgrind"
expect_in err "cannot simulate: valgrind is not installed"
expect_in err "apt-get install valgrind"

# The time budget covers simulated runs: the first one's cost predicts the
# rest, and those that do not fit are cut with a note (valgrind's start-up
# alone makes 40 simulated runs in one second impossible).
run_pm 0 stat --backend sim --sim-runs 40 --max-time 1 -m instructions -o cut.json -- "$L" 100000
expect_in out "simulated runs cut to"
# The hint: the budget's option, then the sim mechanism's own (its needs).
jv cut.json notes | grep -q "raise --max-time, lower --sim-runs, or make simulated runs smaller with --sim-args" ||
	fail "the cut's hint names --max-time, --sim-runs and --sim-args"
n=$(jv cut.json runs.#)
[ "$n" -ge 1 ] && [ "$n" -lt 40 ] || fail "simulated runs under a 1 s budget: $n"
# -r sets the measured runs only; --sim-runs keeps its default of 3.
run_pm 0 stat -r 4 --backend sim -m instructions,task-clock -o r4.json -- "$L" 1000
expect_eq "$(jv r4.json runs.#)" 7 "4 native + 3 simulated runs"
