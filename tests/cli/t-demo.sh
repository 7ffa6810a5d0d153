# pmustat demo at a tiny size: the reading first, the compare table, the
# saved result; and its bad input.
. "$TESTLIB"

# --max-time far above the campaign's cost: a loaded host (or the ASan build,
# where uprobes count the allocations) must not cut the three blocks short.
run_pm 0 demo --labels 1 --sha-blocks 1 --blocks 3 --seed 5 --no-sim --variants vec,pool-inplace \
	--max-time 3600 -o d.json
expect_in out "pmustat compare: 2 variants, 3 blocks"
# answer first: the reading right under the header, before the table; the
# allocations per constraint (the workload's heap model makes pool-inplace's
# exact count lower, whatever the load)
v=$(grep -nE '^ pool-inplace vs vec: [A-Z]+' out | head -n 1 | cut -d: -f1)
t=$(grep -nE '^  metric +variant' out | head -n 1 | cut -d: -f1)
[ -n "$v" ] && [ -n "$t" ] && [ "$v" -lt "$t" ] || { cat out; fail "the reading (line $v) not before the table (line $t)"; }
expect_in out "allocs -"
expect_in out "allocations per constraint vs"
expect_in out "result written to d.json"
expect_eq "$(jv d.json variants.0.name)" vec "baseline"
expect_eq "$(jv d.json variants.1.name)" pool-inplace "variant"
# the workload's own heap model: pool+inplace allocates far less than vec
jv d.json comparisons | grep -q '"metric":"allocs"' || fail "allocs compared"
# Clean runs: allocations counted and the profile sampled in runs of their
# own, each one's cost stated; the timed runs carry neither.
# (through the LD_PRELOAD shim, or uprobes when the workload is built with a
# sanitizer, whose runtime refuses the shim)
grep -Eq 'counting calls \(allocs\) (through the LD_PRELOAD shim|with uprobes) ran in runs of its own' d.json ||
	fail "the counting runs' note"
expect_in d.json "at 999 Hz, stack copies) ran in runs of its own"
expect_eq "$(jv d.json runs.$(( $(instr_run d.json) - 1 )).values.allocs)" null "no allocs in a timed run"
run_pm 0 report d.json
expect_in out "allocs"

run_pm 2 demo --variants vec,sv3
expect_in err "unknown demo variant 'sv3'"
expect_in err "did you mean"
run_pm 2 demo --variants vec
expect_in err "at least two variants"

# The workload's path is passed to exec as it is: a quote or a $(...) in it
# runs nothing (no shell anywhere between the demo and its workload).
odd="$PWD/r1'cs\$(touch pwned)"
cp "$BUILD/r1cs-synth" "$odd"
export PMUSTAT_R1CS="$odd"
run_pm 0 demo --labels 1 --sha-blocks 1 --blocks 2 --seed 5 --no-sim --variants vec,csr --max-time 3600 -o q.json
unset PMUSTAT_R1CS
[ ! -e pwned ] || fail "a shell ran the workload's path"
expect_in out "allocations per constraint vs"
expect_eq "$(jv q.json variants.0.argv.0)" "$odd" "the workload exec'd by its own path"
