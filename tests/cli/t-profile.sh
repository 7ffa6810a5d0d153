# --profile: where the difference is, per function, from the same blocks.
# twofunc A B spends A units in work_a and B units in work_b: tripling B puts
# the difference in work_b — an effect far beyond any load's reach (CPU time
# of a function, not wall time) — and leaves work_a about where it was.
. "$TESTLIB"
T=$BUILD/twofunc

run_pm 0 compare --profile --blocks 6 --seed 11 -o p.json -n one -- "$T" 5 5 -n three -- "$T" 5 15
expect_in out "where the difference is"
expect_in out "work_b *"
expect_in out "profile: every run sampled on"
expect_eq "$(jv p.json attribution.0.variant)" three "attributed variant"
expect_eq "$(jv p.json attribution.0.functions.0.function)" work_b "largest change"
expect_eq "$(jv p.json attribution.0.functions.0.significant)" true "work_b's change is significant"
expect_in p.json '"where": "twofunc: twofunc.c"'
lo=$(jv p.json attribution.0.functions.0.ci_ns.0)
awk -v lo="$lo" 'BEGIN { exit !(lo > 0) }' || fail "work_b's interval reaches 0: $lo"
# work_a did the same work in both: its change is small next to work_b's.
da=$(json_find p.json attribution.0.functions function work_a delta_ns)
[ -n "$da" ] || fail "work_a not shown"
db=$(jv p.json attribution.0.functions.0.delta_ns)
awk -v a="$da" -v b="$db" 'BEGIN { exit !(a < b / 4 && -a < b / 4) }' || fail "work_a moved: $da vs $db"
# The raw per-run profiles are in the result: report recomputes the section.
run_pm 0 report p.json
expect_in out "where the difference is"
expect_in out "work_b *"
[ "$(jv p.json runs.2.values.profile:samples.value)" -ge 1 ] || fail "no samples recorded"

# stat --profile records the profile too.
run_pm 0 stat --profile=time -r 2 -o s.json -- "$T" 2 4
[ "$(jv s.json runs.0.values.self:work_b.value)" -ge 1 ] || fail "work_b's self time not recorded"

# A rate the kernel refuses: one line, a hint, exit 2, nothing run.
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
run_pm 2 stat --profile --profile-rate $((max + 1000)) -- touch ran
expect_in err "cannot sample at"
expect_in err "perf_event_max_sample_rate"
[ ! -e ran ] || fail "the command ran although sampling was refused"

# A stripped program gets what can be had, and a note says what is missing.
cp "$T" ./stripped && strip ./stripped
run_pm 0 stat --profile -r 2 -- ./stripped 2 2
expect_in out "is stripped"

# With simulated runs, cachegrind's counts per function give the exact
# change: work_a runs the same code in both (no change at all), work_b
# three times the loop.
if command -v valgrind >/dev/null; then
	run_pm 0 compare --profile --backend sim --sim-runs 2 -m instructions -o sf.json -n one -- "$T" 1 1 -n three -- "$T" 1 3
	expect_in out "where the simulated difference is"
	expect_eq "$(jv sf.json sim_attribution.0.functions.0.function)" work_b "largest simulated change"
	a=$(jv sf.json sim_attribution.0.functions.0.instructions.baseline)
	b=$(jv sf.json sim_attribution.0.functions.0.instructions.variant)
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b / a > 2.99 && b / a < 3.01) }' || fail "work_b: $a -> $b"
	expect_eq "$(jv sf.json sim_attribution.0.functions.1.function)" work_a "unchanged function"
	expect_eq "$(jv sf.json sim_attribution.0.functions.1.instructions.delta)" 0.0 "work_a's change"
fi
