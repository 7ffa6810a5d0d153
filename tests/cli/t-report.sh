# pmustat report: saved results re-rendered, merged, exported; bad files refused.
. "$TESTLIB"

run_pm 0 stat -q -r 3 -o s.json -- true
run_pm 0 report s.json
expect_in out "Performance counter stats for 'true' (3 runs)"
run_pm 0 compare -q --blocks 3 --seed 3 -o a1.json -- true -- sh -c true
run_pm 0 compare -q --blocks 4 --seed 4 -o a2.json -- true -- sh -c true
# options and files in any order; the merge keeps every run, blocks renumbered
run_pm 0 report --csv m.csv a1.json -o m.json a2.json --html m.html
expect_in out "pmustat compare: 2 variants, 7 blocks"
expect_eq "$(jv m.json runs.#)" $(( (3 + 1 + 4 + 1) * 2 )) "merged runs"
expect_eq "$(jv m.json runs.8.block)" 4 "first block of the second file"
expect_in out "2 results merged"
rows=$(grep -c ',wall-time,' m.csv)
expect_eq "$rows" 18 "csv rows"
expect_in m.html "<svg"
expect_in m.html "pmustat compare"
# the re-rendered comparison is the one computed from the same runs
run_pm 0 report -q a1.json -o again.json
expect_eq "$(jv again.json comparisons.0.ratio)" "$(jv a1.json comparisons.0.ratio)" "ratio recomputed"

# Any number of files (the argument splitter once kept 64 and passed NULL
# for the rest).
set --
i=0
while [ $i -lt 70 ]; do set -- "$@" s.json; i=$((i + 1)); done
run_pm 0 report -q "$@" -o seventy.json
expect_eq "$(jv seventy.json runs.#)" 210 "runs of 70 merged results"

run_pm 2 report
expect_in err "no result to report"
run_pm 1 report missing.json
expect_in err "cannot read 'missing.json'"
echo '{"schema": "something/2"}' >bad.json
run_pm 2 report bad.json
expect_in err "'bad.json' is not a pmustat result"
run_pm 2 report s.json a1.json
expect_in err "cannot merge 'a1.json'"
head -c 200 s.json >cut.json
run_pm 1 report cut.json
expect_in err "cannot read 'cut.json'"
