# pmustat stat -p / -t: counting processes and threads that already run
# (a `spin` child started here), ended by --duration, by the command after
# `--`, or by the process exiting; and the inputs that must be refused.
. "$TESTLIB"

# A process with two spinning threads (and its idle main thread); spin
# writes its thread ids once both threads run.
"$BUILD/spin" 2 tids &
spid=$!
trap 'kill $spid 2>/dev/null' EXIT
while [ ! -e tids ]; do sleep 0.01; done	# waits for a condition, not a time
main=$(sed -n 1p tids)
t1=$(sed -n 2p tids)
expect_eq "$main" "$spid" "spin's first thread is the process"

# -p: one run from attach to --duration; every thread has its counters.
run_pm 0 stat -p "$spid" --duration 0.3 -e task-clock,context-switches -o p.json
expect_in out "Performance counter stats for process id '$spid' (1 run)"
expect_in out "attached to process $spid: counters opened on its 3 threads"
expect_eq "$(jv p.json options.target.kind)" pids "target kind"
expect_eq "$(jv p.json options.target.ids)" "$spid" "target ids"
# the same threads (spin's threads write their ids in the order they run)
expect_eq "$(jv p.json options.target.threads | tr , '\n' | sort -n | paste -sd, -)" \
	"$(sort -n tids | paste -sd, -)" "threads opened on"
expect_eq "$(jv p.json runs.#)" 1 "one run"
expect_eq "$(jv p.json runs.0.status)" ok "status"
expect_eq "$(jv p.json stop_reason)" "duration of 0.3 s reached" "stop reason"
tc=$(jv p.json runs.0.values.task-clock.value)
en=$(jv p.json runs.0.values.task-clock.time_enabled)
wall=$(jv p.json runs.0.values.wall-time.value)
# Two threads spin: CPU time was counted. No counter was enabled longer
# than the run (the clock starts before the first enable and stops after
# the last read), so the 3 threads' time_enabled is at most 3 x wall-time;
# and 3 threads cannot run longer than that either.
[ "$tc" -gt 0 ] || fail "task-clock not positive: $tc"
[ "$en" -le $((3 * wall)) ] || fail "time_enabled $en > 3 x wall-time $wall"
[ "$tc" -le $((3 * wall)) ] || fail "task-clock $tc > 3 x wall-time $wall"
# No rusage for a process pmustat does not reap: said, not zero.
expect_eq "$(jv p.json metrics.1.name)" user-time "metric 1"
expect_eq "$(jv p.json metrics.1.available)" false "user-time unavailable"
expect_in out "rusage is known only for a child pmustat reaps"

# -t: one thread only, which runs on one CPU at a time: well under two
# threads' worth of the run.
run_pm 0 stat -t "$t1" --duration 0.2 -e task-clock -o t.json
expect_in out "Performance counter stats for thread id '$t1'"
expect_eq "$(jv t.json options.target.threads)" "$t1" "one thread"
tc=$(jv t.json runs.0.values.task-clock.value)
wall=$(jv t.json runs.0.values.wall-time.value)
[ "$tc" -gt 0 ] && [ "$tc" -le $((2 * wall)) ] || fail "thread task-clock $tc vs wall $wall"

# --per-thread: one metric per thread, NAME[TID]; they are the parts of the
# total, which is their exact sum.
run_pm 0 stat -p "$spid" --per-thread --duration 0.2 -e task-clock -o pt.json
sum=0
for tid in $(cat tids); do
	expect_in out "task-clock[$tid]"
	v=$(jv pt.json "runs.0.values.task-clock[$tid].value")
	sum=$((sum + v))
done
expect_eq "$sum" "$(jv pt.json runs.0.values.task-clock.value)" "per-thread values add up"
run_pm 2 stat --per-thread -- true
expect_in err "--per-thread needs -p or -t"

# The command after -- bounds the session (perf stat -p PID -- sleep 1).
run_pm 0 stat -p "$spid" -e task-clock -o c.json -- true
expect_eq "$(jv c.json stop_reason)" "the command exited" "ended by the command"
expect_in out "process id '$spid' while 'true'"
# ... and its failure is an error naming it.
run_pm 1 stat -p "$spid" -e task-clock -- sh -c 'exit 3'
expect_in err "'sh -c exit 3' exited with status 3"

# A process that exits ends the session, and is said. pmustat counts in
# intervals, so its first row says it is counting; only then is the
# process killed.
"$BUILD/spin" 1 tids2 &
spid2=$!
while [ ! -e tids2 ]; do sleep 0.01; done
"$PMUSTAT" stat -p "$spid2" -e task-clock -I 50 -o x.json >rows 2>err &
pm=$!
while [ ! -s rows ]; do sleep 0.01; done
kill "$spid2"
wait "$pm"
expect_eq "$?" 0 "session ended by the process: exit code"
expect_eq "$(jv x.json stop_reason)" "the process attached exited" "stop reason"
jv x.json notes | grep -q "process $spid2 exited" || fail "exit note in JSON"

# Bad inputs: one line, a hint, exit 2 (usage) or 1 (could not count).
run_pm 2 stat -p 999999999 --duration 0.1
expect_in err "invalid pid list '999999999'"
run_pm 2 stat -p 4194000 --duration 0.1
expect_in err "error: no process 4194000: it does not exist"
expect_in err "hint: check it with 'ps -L -p 4194000'"
run_pm 2 stat -p 12x
expect_in err "invalid pid list '12x': bad item '12x'"
run_pm 2 stat -p "$spid" -t "$t1"
expect_in err "give one of them"
run_pm 2 stat -p "$spid" -r 3 -- true
expect_in err "-r and --warmup repeat a command"
run_pm 2 stat -p "$spid" --profile --duration 0.1
expect_in err "--profile cannot be used with -p, -t, -a or -I"
# The mechanisms' own refusals (attach_refusal), and the campaign's.
run_pm 2 stat -p "$spid" -m call:malloc --duration 0.1
expect_in err "call counters cannot be used with -p, -t, -a or -I"
run_pm 2 stat -p "$spid" --backend sim --duration 0.1
expect_in err "--backend sim cannot be used with -p, -t, -a or -I"
run_pm 2 stat -p "$spid" --timeout 5 --duration 0.1
expect_in err "--timeout cannot be used with -p, -t, -a or -I"
run_pm 2 stat --duration 1 -- true
expect_in err "--duration bounds counting with -p, -t or -a"
run_pm 1 stat -p "$spid" -e task-clock -- ./no-such-command
expect_in err "cannot run './no-such-command'"

# Another user's process: EPERM, with the privileges named.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PMUSTAT" stat -p "$spid" \
		-e task-clock --duration 0.1 >out 2>err
	expect_eq "$?" 1 "attach to root's process as nobody: exit code"
	expect_in err "error: cannot count process $spid: permission denied"
	expect_in err "CAP_PERFMON"
	expect_in err "perf_event_paranoid"
fi
