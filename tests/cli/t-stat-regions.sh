# Regions marked with libpmustat become metrics of stat and compare.
. "$TESTLIB"
R=$BUILD/r1cs-synth

run_pm 0 stat -r 2 -e task-clock,page-faults -o r.json -- "$R" --labels 1 --blocks 1
expect_in out "synth:task-clock"
expect_eq "$(jv r.json runs.1.values.synth:entries.value)" 1 "one entry per run"
whole=$(jv r.json runs.1.values.task-clock.value)
part=$(jv r.json runs.1.values.synth:task-clock.value)
[ "$part" -gt 0 ] && [ "$part" -le "$whole" ] || fail "region task-clock $part vs whole $whole"
pf=$(jv r.json runs.1.values.synth:page-faults.value)
[ "$pf" -gt 0 ] || fail "region page-faults $pf"

# a program without markers has no region metrics, and that is no error
run_pm 0 stat -r 1 -e task-clock -o n.json -- true
jv n.json runs.0.values.synth:entries >/dev/null && fail "regions for a program without markers"

# compared like any metric
run_pm 0 compare --blocks 3 --seed 2 -e task-clock -o c.json \
	-- "$R" --labels 1 --blocks 1 -- "$R" --labels 1 --blocks 2
jv c.json comparisons | grep -q '"metric":"synth:task-clock"' || fail "no comparison of synth:task-clock"
