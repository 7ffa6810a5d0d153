# SIGINT stops cleanly: finished runs kept, outputs written, exit 130.
. "$TESTLIB"

"$PMUSTAT" stat -r 100000 -o r.json --csv r.csv -- true >out 2>err &
pid=$!
# Wait for the first finished run to reach the journal (one line per run),
# bounded so a broken build fails instead of hanging.
i=0
while ! grep -qs '^{"run"' r.json.journal && [ $i -lt 200000 ]; do i=$((i+1)); done
grep -qs '^{"run"' r.json.journal || { kill $pid; fail "no run finished"; }
kill -INT $pid
wait $pid
rc=$?
expect_eq "$rc" 130 "exit code after SIGINT"
expect_eq "$(jv r.json interrupted)" true "interrupted flag"
expect_eq "$(jv r.json complete)" true "document complete"
n=$(jv r.json runs.#)
[ "$n" -ge 1 ] || fail "runs kept: $n"
rows=$(grep -c ',wall-time,' r.csv)
expect_eq "$rows" "$n" "csv rows = runs"
expect_in out "Performance counter stats"
expect_in out "interrupted by SIGINT"
