# pmustat stat -I MS and -x SEP: perf stat's interval rows and separated
# rows, in text, JSON and CSV. No assertion on how many intervals a run of
# some length gives (that is timing): time stamps increase, the intervals
# cover the run without gaps, and the rows and the JSON runs agree.
. "$TESTLIB"

# A command counted in intervals of 20 ms: rows as text, JSON runs, CSV.
run_pm 0 stat -I 20 -e task-clock,context-switches -o i.json --csv i.csv -- "$BUILD/busy" 2000000
expect_in out "#           time             counts unit events"
expect_in out "Performance counter stats for '$BUILD/busy 2000000' ("
expect_in out "runs are intervals of 20 ms (-I)"
expect_eq "$(jv i.json options.target.kind)" command "target kind"
expect_eq "$(jv i.json options.target.interval_ms)" 20 "interval"
expect_eq "$(jv i.json stop_reason)" "the command exited" "stop reason"
n=$(jv i.json runs.#)
# an interval row: "     0.020309760   20190662 ns   task-clock" (a grouped
# warning line may end in task-clock too: "outliers (kept) in wall-time, task-clock")
rowre='^ +[0-9]+\.[0-9]+ +[0-9]+ .*task-clock$'
rows=$(grep -cE "$rowre" out)
expect_eq "$rows" "$n" "one text row per interval"
expect_eq "$(grep -c ',task-clock,' i.csv)" "$n" "one CSV row per interval"
# The intervals cover the run: their wall times add up to the last stamp.
last=$(grep -E "$rowre" out | tail -1 | awk '{print $1}')
sum=0
i=0
while [ "$i" -lt "$n" ]; do
	expect_eq "$(jv i.json runs.$i.status)" ok "interval $i status"
	w=$(jv i.json runs.$i.values.wall-time.value)
	sum=$((sum + w))
	i=$((i + 1))
done
awk -v s="$sum" -v l="$last" 'BEGIN { d = s / 1e9 - l; exit !(d < 1e-6 && d > -1e-6) }' ||
	fail "wall times add up to $sum ns, last stamp $last s"
# Time stamps strictly increase.
grep -E "$rowre" out | awk '{ if (NR > 1 && $1 <= prev) exit 1; prev = $1 }' ||
	fail "time stamps do not increase: $(cat out)"

# -x: perf's field order with the time stamp first (perf-stat.txt, CSV
# FORMAT): time, value, unit, event, run time, percentage running, metric
# value, metric unit.
run_pm 0 stat -I 20 -x ';' -e task-clock -- "$BUILD/busy" 1000000
awk -F';' '$4 == "task-clock" { n++; if (NF != 8 || $3 != "ns" || $6 > 100) bad = 1 }
	END { exit !(n > 0 && !bad) }' out || fail "-x rows: $(cat out)"
expect_not_in out "Performance counter stats"

# -p with -I and --duration: the session lasts at least the duration (it
# has no other end), so the last stamp is at or after it.
"$BUILD/spin" 1 tids &
spid=$!
trap 'kill $spid 2>/dev/null' EXIT
i=0
while [ ! -e tids ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
[ -e tids ] || fail "spin did not start in 60 s"
run_pm 0 stat -p "$spid" -I 50 -x, --duration 0.3 -e task-clock -o - 
# stdout has the JSON, the rows went to stderr beside it.
expect_eq "$(jv out options.target.interval_ms)" 50 "interval in JSON"
last=$(awk -F, '$4 == "task-clock" { t = $1 } END { print t }' err)
awk -v l="$last" 'BEGIN { exit !(l >= 0.3) }' || fail "last stamp $last < duration 0.3"
expect_eq "$(jv out stop_reason)" "duration of 0.3 s reached" "stop reason"
n=$(jv out runs.#)
expect_eq "$(grep -c ',task-clock,' err)" "$n" "one -x row per JSON run"

# -x without -I: one row per metric (value, unit, event, variance under -r,
# run time, percentage, metric value, metric unit).
run_pm 0 stat -r 3 -x, -e task-clock -- true
awk -F, '$3 == "task-clock" { n++; if (NF != 8 || $4 !~ /%$/) bad = 1 }
	END { exit !(n == 1 && !bad) }' out || fail "-x -r rows: $(cat out)"

# Bad inputs.
run_pm 2 stat -I 5 -- true
expect_in err "print interval must be >= 10 ms (-I)"
run_pm 2 stat -I 9 -p "$spid"
expect_in err "print interval must be >= 10 ms"
run_pm 2 stat -x, -o r.json -- true
expect_in err "-o writes pmustat's JSON result, not perf's -x rows"
expect_in err "pmustat stat -x, ... > FILE"
[ ! -e r.json ] || fail "r.json written despite the usage error"
run_pm 2 stat -I 20 -r 3 -- true
expect_in err "-r and --warmup repeat a command"
run_pm 2 stat -I 20 --backend sim -- true
expect_in err "--backend sim cannot be used with -p, -t, -a or -I"

# SIGINT (Ctrl-C) or SIGTERM ends a session normally, as it ends perf stat
# -p: exit 0, the intervals kept, the document complete. The signal is sent
# once the first interval's row is out.
for sig in INT TERM; do
	# The background job's own redirection creates rows: a file left from
	# the last round must not look like its first row.
	rm -f rows
	"$PMUSTAT" stat -p "$spid" -I 20 -e task-clock -o s$sig.json >rows 2>err &
	pm=$!
	i=0
	while [ ! -s rows ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
	[ -s rows ] || { kill -9 "$pm"; fail "SIG$sig: no interval row in 60 s"; }
	kill -$sig "$pm"
	# pmustat must end by itself; a bounded wait, then it is a failure.
	i=0
	while kill -0 "$pm" 2>/dev/null && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
	kill -0 "$pm" 2>/dev/null && { kill -9 "$pm"; fail "SIG$sig: still running 60 s after the signal"; }
	wait "$pm"
	expect_eq "$?" 0 "ended by SIG$sig: exit code"
	expect_eq "$(jv s$sig.json complete)" true "SIG$sig: complete"
	expect_eq "$(jv s$sig.json interrupted)" false "SIG$sig: a normal end"
	jv s$sig.json stop_reason | grep -q "^stopped by SIG$sig" || fail "SIG$sig: stop reason"
	[ "$(jv s$sig.json runs.#)" -ge 1 ] || fail "SIG$sig: no interval kept"
done
