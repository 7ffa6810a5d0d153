# pmustat stat on real commands: table, JSON, CSV, defaults, inheritance.
. "$TESTLIB"

run_pm 0 stat -r 3 -o r.json --csv r.csv -- true
expect_in out "Performance counter stats for 'true' (3 runs)"
expect_in out "95% CI of mean"
for m in wall-time user-time sys-time max-rss task-clock page-faults context-switches cpu-migrations; do
	expect_in out "$m"
done
expect_eq "$(jv r.json schema)" "pmustat.result/1" "schema"
expect_eq "$(jv r.json runs.#)" 3 "run count"
expect_eq "$(jv r.json complete)" true "complete"
expect_eq "$(jv r.json runs.2.status)" ok "status"
expect_eq "$(jv r.json runs.2.exit_code)" 0 "exit code"
tc=$(jv r.json runs.0.values.task-clock.value)
[ "$tc" -gt 0 ] || fail "task-clock not positive: $tc"
en=$(jv r.json runs.0.values.task-clock.time_enabled)
ru=$(jv r.json runs.0.values.task-clock.time_running)
[ "$en" -ge "$ru" ] && [ "$ru" -gt 0 ] || fail "time_enabled $en / time_running $ru"
# summaries are computed from the runs
expect_eq "$(jv r.json summaries.0.metric)" wall-time "first summary"
expect_eq "$(jv r.json summaries.0.n)" 3 "summary n"
# CSV: header + one row per run and counted metric
head -1 r.csv | grep -q '^run,variant,block,position,group,warmup,instrumented,status,exit_code,metric,value,unit,time_enabled,time_running$' ||
	fail "csv header: $(head -1 r.csv)"
rows=$(grep -c ',task-clock,' r.csv)
expect_eq "$rows" 3 "task-clock rows in CSV"

# Hardware events: counted where a core PMU exists, else a note saying why.
if has_pmu cpu || has_pmu cpu_core || ls /sys/bus/event_source/devices | grep -q armv8; then
	expect_eq "$(jv r.json metrics.8.available)" true "cycles available"
else
	expect_in out "cycles, instructions, branches, branch-misses: not counted"
	expect_in out "no hardware PMU"
	expect_eq "$(jv r.json metrics.8.name)" cycles "metric 8"
	expect_eq "$(jv r.json metrics.8.available)" false "cycles unavailable"
	jv r.json metrics.8.reason | grep -q "no hardware PMU" || fail "reason in JSON"
	jv r.json notes | grep -q "not counted — " || fail "note in JSON"
fi

# Children are counted too (inherit): twenty child processes fault in far
# more pages than the shell alone.
run_pm 0 stat -r 1 -e page-faults -o one.json -- sh -c ':'
run_pm 0 stat -r 1 -e page-faults -o many.json -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true; done'
one=$(jv one.json runs.0.values.page-faults.value)
many=$(jv many.json runs.0.values.page-faults.value)
[ "$many" -gt $((one * 3)) ] || fail "children not counted: $one vs $many page faults"

# Warm-up runs are recorded but not summarised.
run_pm 0 stat -r 2 --warmup 1 -o w.json -- true
expect_eq "$(jv w.json runs.#)" 3 "runs incl. warm-up"
expect_eq "$(jv w.json runs.0.warmup)" true "first run is warm-up"
expect_eq "$(jv w.json summaries.0.n)" 2 "warm-up left out"
expect_in out "(2 runs + 1 warm-up)"

# -o - puts JSON on stdout and the table on stderr
run_pm 0 stat -r 2 -o - -- true
jv out runs.# >/dev/null || fail "stdout is not JSON"
expect_in err "Performance counter stats"
