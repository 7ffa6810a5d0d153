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

# The markers stay in the timed runs, so what an entry costs is timed once
# (pmustat-regioncost: the real library, this campaign's events) and stated:
# entries per run exactly, the figure on every run that entered regions, in
# a note and in mechanism_costs. A time, not a threshold: only its presence
# and the exact counts are asserted.
P=$BUILD/regions-prog
run_pm 0 compare --blocks 2 --seed 3 -e task-clock -o rc.json -n many -- "$P" loop 300 10 \
	-n few -- "$P" loop 30 10
expect_in out "region markers ran inside the timed runs, so the verdicts carry their cost: one entry (an enter/exit pair) took"
expect_in out "300 entries per run added about"
expect_in out "30 entries per run added about"
expect_eq "$(json_find rc.json mechanism_costs variant many mechanism)" regions "regions cost"
expect_eq "$(json_find rc.json mechanism_costs variant many entries | awk '{ print $1 + 0 }')" 300 "entries per run"
expect_eq "$(json_find rc.json mechanism_costs variant few entries | awk '{ print $1 + 0 }')" 30 "entries per run (few)"
expect_eq "$(json_find rc.json mechanism_costs variant few pairs)" 2 "the 2 timed runs of few"
ns=$(json_find rc.json mechanism_costs variant few entry_ns)
awk -v x="$ns" 'BEGIN { exit !(x > 0) }' || fail "no entry cost: '$ns'"
expect_eq "$(jv rc.json runs.1.values.region-entry-cost.value)" "$ns" "the figure on a run"
# without the timing program: a warning that says so, and no figure
PMUSTAT_REGIONCOST=/nonexistent run_pm 0 stat -r 1 -e task-clock -o nc.json -- "$P" loop 3 10
expect_in out "regions: what an entry costs was not measured: pmustat-regioncost was not found"
if jv nc.json mechanism_costs >/dev/null 2>&1; then fail "a regions cost without its figure"; fi
# a program without markers: neither
if jv n.json mechanism_costs >/dev/null 2>&1; then fail "a regions cost without regions"; fi
