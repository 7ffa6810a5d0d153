# pmustat compare: interleaved randomized blocks, paired verdicts, bad input.
. "$TESTLIB"
BUSY=$BUILD/busy

# A 10% larger workload is SLOWER, with a CI around 1.10. Asserted on
# task-clock (CPU time), which a busy machine does not inflate the way it
# inflates wall time; wall time must at least not say FASTER.
run_pm 0 compare --blocks 12 --seed 11 -m wall-time,task-clock -o ab.json \
	-n small -- "$BUSY" 1000000 -n big -- "$BUSY" 1100000
expect_in out "pmustat compare: 2 variants, 12 blocks (+1 warm-up), seed 11"
expect_in out "stopped: the 12 blocks asked for ran"
expect_eq "$(jv ab.json comparisons.0.metric)" wall-time "first comparison"
expect_eq "$(jv ab.json comparisons.0.baseline)" small "baseline"
expect_eq "$(jv ab.json comparisons.0.variant)" big "variant"
[ "$(jv ab.json comparisons.0.verdict)" != faster ] || fail "wall-time says faster"
expect_eq "$(jv ab.json comparisons.4.metric)" task-clock "task-clock comparison"
expect_eq "$(jv ab.json comparisons.4.verdict)" slower "verdict"
ratio=$(jv ab.json comparisons.4.ratio)
awk -v r="$ratio" 'BEGIN { exit !(r > 1.05 && r < 1.15) }' || fail "ratio $ratio not around 1.10"
lo=$(jv ab.json comparisons.4.ci_low); hi=$(jv ab.json comparisons.4.ci_high)
awk -v l="$lo" -v h="$hi" -v r="$ratio" 'BEGIN { exit !(l < r && r < h && l > 1.01) }' ||
	fail "CI [$lo, $hi] around $ratio"
expect_eq "$(jv ab.json comparisons.4.n)" 12 "pairs"
# every block ran both variants, in a recorded position, with one padding
blk=$(jv ab.json runs.2.block); pad=$(jv ab.json runs.2.env_pad)
expect_eq "$(jv ab.json runs.3.block)" "$blk" "runs 2 and 3 share a block"
expect_eq "$(jv ab.json runs.3.env_pad)" "$pad" "one padding per block"
p2=$(jv ab.json runs.2.position); p3=$(jv ab.json runs.3.position)
expect_eq "$((p2 + p3))" 1 "positions within the block"
# equal-length exec paths
a=$(jv ab.json variants.0.exec_path); b=$(jv ab.json variants.1.exec_path)
expect_eq "${#a}" "${#b}" "exec path lengths"

# A/A: the same command is never called slower or faster. Asserted on CPU
# time: wall time on a machine shared with other load is not the iid noise a
# 10-block campaign can vouch for (the A/A rate of the method itself is
# tested deterministically in tests/unit/test_calibration.c).
for seed in 1 2 3; do
	run_pm 0 compare --blocks 10 --seed $seed -m wall-time,task-clock -o aa.json \
		-- "$BUSY" 300000 -- "$BUSY" 300000
	for i in 4; do
		v=$(jv aa.json comparisons.$i.verdict)
		case "$v" in slower|faster) fail "A/A verdict '$v' on comparison $i, seed $seed" ;; esac
	done
done

# Same seed, same schedule.
run_pm 0 compare --blocks 4 --seed 7 -o s1.json -- true -- true -- true
run_pm 0 compare --blocks 4 --seed 7 -o s2.json -- true -- true -- true
for i in 0 3 7 11 14; do
	expect_eq "$(jv s1.json runs.$i.variant)" "$(jv s2.json runs.$i.variant)" "variant of run $i"
	expect_eq "$(jv s1.json runs.$i.env_pad)" "$(jv s2.json runs.$i.env_pad)" "padding of run $i"
done

# --fail-on-regression exits 3 on a regression.
run_pm 3 compare --blocks 8 --seed 5 --fail-on-regression wall-time -- "$BUSY" 300000 -- "$BUSY" 600000
expect_in err "regression: wall-time of 'B'"

# Bad input.
run_pm 2 compare -- true
expect_in err "compare needs at least two variants, got 1"
run_pm 2 compare
expect_in err "no variants to compare"
run_pm 2 compare -n x -- true -n x -- true
expect_in err "variant name 'x' is used twice"
run_pm 2 compare --baseline nwe -n old -- true -n new -- true
expect_in err "no variant is named 'nwe'"
expect_in err "did you mean '--baseline new'?"
run_pm 2 compare --fail-on-regression wal-time -- true -- true
expect_in err "--fail-on-regression names 'wal-time'"
run_pm 2 compare -- true -- -- true
expect_in err "variant 2 has no command"

# A variant that fails in some blocks: stop with its stderr, or drop with -i.
cat >flaky.sh <<'SH'
n=$(cat cnt 2>/dev/null || echo 0); echo $((n + 1)) >cnt
[ $((n % 3)) -ne 2 ] || { echo "flaky failure $n" >&2; exit 5; }
SH
run_pm 1 compare --blocks 6 --seed 3 -o f.json -- true -- sh flaky.sh
expect_in err "exited with status 5"
expect_in err "flaky failure"
rm -f cnt
run_pm 0 compare --blocks 9 --seed 3 -i -o fi.json -- true -- sh flaky.sh
expect_in out "blocks dropped: a variant did not finish cleanly in them (-i)"
n=$(jv fi.json comparisons.0.n)
[ "$n" -lt 9 ] && [ "$n" -ge 5 ] || fail "paired n $n after dropping failed blocks"

# Ctrl-C (here SIGTERM): analyse what finished, write everything, exit 130.
"$PMUSTAT" compare --blocks 100000 -o t.json -- true -- true >out 2>err &
pid=$!
i=0
while ! grep -qs '^{"run"' t.json.journal && [ $i -lt 200000 ]; do i=$((i+1)); done
kill -TERM $pid
wait $pid
expect_eq "$?" 130 "exit code after SIGTERM"
expect_eq "$(jv t.json interrupted)" true "interrupted"
expect_in out "interrupted by SIGTERM"

# Layout bias: a non-PIE program is said to be one (STATS.md (e)).
if command -v cc >/dev/null; then
	printf 'int main(void) { return 0; }\n' >np.c
	if cc -no-pie -o np np.c 2>/dev/null; then
		run_pm 0 compare --blocks 2 -q -o np.json -- ./np -- true
		jv np.json notes | grep -q "is not a position-independent executable" ||
			fail "non-PIE warning"
	fi
fi
