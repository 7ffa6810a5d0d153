# Clean runs: a mechanism that runs code inside the program per event (the
# LD_PRELOAD shim, uprobes) never takes part in the timed runs the verdicts
# come from. It gets runs of its own, right after a timed block, whose wall
# time is its measured cost. Asserted here through what is exactly known:
# which runs carried the shim (each run writes its LD_PRELOAD to a log),
# how many runs of each kind ran, and the counts. No timing is asserted.
. "$TESTLIB"
A=$BUILD/allocn

# envrun N: allocn N, after logging the run's LD_PRELOAD ("none" without).
cat >envrun <<EOF
#!/bin/sh
echo "\${LD_PRELOAD:-none}" >>"$PWD/envlog"
exec "$A" "\$1"
EOF
chmod +x envrun

# One variant allocating 100 times more than the other.
run_pm 0 compare --blocks 4 --warmup 1 --seed 5 -m wall-time,allocs -o c.json --csv c.csv \
	-n few -- ./envrun 1000 -n many -- ./envrun 100000
# 5 timed blocks (1 warm-up) of 2 runs, without the shim; allocn's counts
# are exact, so the shim ran in 2 blocks of its own only.
expect_eq "$(grep -c '^none$' envlog)" 10 "timed runs without LD_PRELOAD"
expect_eq "$(grep -c 'libpmustat-count' envlog)" 4 "runs with the shim"
expect_eq "$(wc -l <envlog)" 14 "every run logged"
expect_eq "$(jv c.json runs.#)" 14 "runs in the result"
i=$(instr_run c.json) j=$(instr_run c.json 1)
# The instrumented runs: allocs and their own wall time, no wall-time.
expect_eq "$(jv c.json runs.$i.values.wall-time)" null "no verdict wall time in an instrumented run"
[ "$(jv c.json runs.$i.values.wall-time:with-calls.value)" -gt 0 ] || fail "no cost measured"
[ "$(jv c.json runs.$i.block)" = "$(jv c.json runs.$j.block)" ] || fail "one block of instrumented runs"
fa=$(jv c.json runs.$i.values.allocs.value) fb=$(jv c.json runs.$j.values.allocs.value)
if [ "$(jv c.json runs.$i.variant)" = 0 ]; then d=$((fb - fa)); else d=$((fa - fb)); fi
expect_eq "$d" 297000 "allocs difference: 3 x 99,000 rounds"
# The CSV says which runs were instrumented (column 7): their wall-time
# rows are empty, their time is wall-time:with-calls.
expect_eq "$(awk -F, '$7 == 1 && $10 == "wall-time" && $11 == ""' c.csv | wc -l)" 4 "CSV: instrumented runs without wall time"
expect_eq "$(awk -F, '$7 == 1 && $10 == "wall-time:with-calls" && $11 > 0' c.csv | wc -l)" 4 "CSV: their own wall time"
expect_eq "$(awk -F, '$7 == 0 && $10 == "wall-time" && $11 > 0' c.csv | wc -l)" 10 "CSV: timed runs with wall time"
# The timed runs: wall time, never allocs.
expect_eq "$(jv c.json runs.1.values.allocs)" null "no allocs in a timed run"
[ "$(jv c.json runs.1.values.wall-time.value)" -gt 0 ] || fail "a timed run has no wall time"
expect_eq "$(json_find c.json comparisons metric wall-time n)" 4 "wall-time from the 4 timed blocks"
expect_eq "$(json_find c.json comparisons metric allocs method)" exact "allocs exact"
# Its cost, per variant, in the notes (text and JSON).
expect_in out "counting calls (allocs) through the LD_PRELOAD shim ran in runs of its own, never in the timed runs the verdicts come from"
expect_in out "to few's (2 pairs)"
expect_in out "to many's (2 pairs)"
expect_in c.json "through the LD_PRELOAD shim ran in runs of its own"
# ... and as data: per mechanism and variant, recomputed by report.
expect_eq "$(json_find c.json mechanism_costs variant many pairs)" 2 "cost pairs"
expect_eq "$(json_find c.json mechanism_costs variant many mechanism)" calls "cost mechanism"
[ "$(json_find c.json mechanism_costs variant few ratio)" != null ] || fail "no cost ratio"
run_pm 0 report -o r.json c.json
expect_eq "$(json_find r.json mechanism_costs variant few ratio)" "$(json_find c.json mechanism_costs variant few ratio)" "report recomputes the cost"

# Counts that vary between runs get a run of their own after every timed
# block (then the summary has an interval): N grows with the log.
cat >grow <<EOF
#!/bin/sh
echo x >>"$PWD/growlog"
exec "$A" \$((1000 + \$(wc -l <"$PWD/growlog")))
EOF
chmod +x grow
run_pm 0 stat -r 4 -m allocs -o g.json -- ./grow
expect_eq "$(jv g.json runs.#)" 8 "4 timed runs, 4 instrumented ones"
expect_in out "allocs"

# A verdict on the counts themselves (--primary allocs): one instrumented
# block per timed block, paired.
rm -f envlog
run_pm 0 compare --blocks 3 --warmup 0 --seed 5 -m allocs --primary allocs -o p.json \
	-- ./envrun 1000 -- ./envrun 2000
expect_eq "$(grep -c 'libpmustat-count' envlog)" 6 "one shim block per timed block"
expect_eq "$(grep -c '^none$' envlog)" 6 "and the timed runs still clean"

# Static programs are counted by uprobes: also in runs of their own.
if [ -e /sys/bus/event_source/devices/uprobe ] && [ "$(id -u)" = 0 ]; then
	run_pm 0 compare --blocks 2 --warmup 0 --seed 5 -m wall-time,allocs -o u.json \
		-- "$BUILD/allocn-static" 1000 -- "$BUILD/allocn-static" 100000
	expect_eq "$(jv u.json runs.#)" 8 "4 timed, 4 instrumented runs"
	expect_eq "$(jv u.json runs.0.values.allocs)" null "no uprobes in a timed run"
	i=$(instr_run u.json) j=$(instr_run u.json 1)
	fa=$(jv u.json runs.$i.values.allocs.value) fb=$(jv u.json runs.$j.values.allocs.value)
	if [ "$(jv u.json runs.$i.variant)" = 0 ]; then d=$((fb - fa)); else d=$((fa - fb)); fi
	expect_eq "$d" 297000 "uprobe allocs difference"
	expect_in out "counting calls (allocs) with uprobes ran in runs of its own"
else
	echo "skip: uprobes need root and the uprobe PMU"
fi
