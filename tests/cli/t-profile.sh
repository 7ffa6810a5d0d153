# --profile: where the difference is, per function, from the same blocks.
# twofunc A B spends A units in work_a and B units in work_b: tripling B puts
# the difference in work_b — an effect far beyond any load's reach (CPU time
# of a function, not wall time) — and leaves work_a about where it was.
. "$TESTLIB"
T=$BUILD/twofunc

run_pm 0 compare -v --profile --blocks 6 --seed 11 -o p.json -n one -- "$T" 5 5 -n three -- "$T" 5 15
expect_in out "where the difference is"
expect_in out "work_b *"
expect_in out "profile: runs of its own (one per timed block, paired) sampled on"
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
run_pm 0 report -v p.json
expect_in out "where the difference is"
expect_in out "work_b *"
# By default the tables are -v's; the reading names the function first.
run_pm 0 report p.json
expect_not_in out "where the difference is"
expect_in out "    time changed in: work_b +"
expect_in out "(the tables per function and per call site: -v)"
[ "$(jv p.json runs.$(instr_run p.json).values.profile:samples.value)" -ge 1 ] || fail "no samples recorded"
# Clean runs: the timed runs (the verdicts' own) carry no sampling; every
# measured block is followed by a block of sampled runs with no wall time
# of their own, whose cost is measured and stated.
n=$(jv p.json runs.#) timed=0 sampled=0 i=0
while [ "$i" -lt "$n" ]; do
	if [ "$(jv p.json runs.$i.instrumented)" = true ]; then
		[ "$(jv p.json runs.$i.values.wall-time)" = null ] || fail "sampled run $i has a wall time"
		[ "$(jv p.json runs.$i.values.wall-time:with-profile.value)" -gt 0 ] || fail "run $i: no cost"
		sampled=$((sampled + 1))
	elif [ "$(jv p.json runs.$i.traced)" != true ]; then
		case "$(jv p.json runs.$i.values.profile:samples 2>/dev/null)" in
		"" | null) ;;
		*) fail "timed run $i was sampled" ;;
		esac
		[ "$(jv p.json runs.$i.warmup)" = true ] || timed=$((timed + 1))
	fi
	i=$((i + 1))
done
expect_eq "$sampled" "$timed" "one sampled run per timed run"
expect_eq "$timed" 12 "6 blocks of 2 timed runs"
expect_in out "at 999 Hz, stack copies) ran in runs of its own, never in the timed runs"
expect_in out "to one's (6 pairs)"
# --profile-timed: sampled inside the timed runs, half the runs, said so.
run_pm 0 compare --profile=time --profile-timed --blocks 2 --warmup 0 --seed 11 -o pt.json -- "$T" 1 1 -- "$T" 1 2
expect_eq "$(jv pt.json runs.#)" 4 "no runs of its own"
[ "$(jv pt.json runs.0.values.profile:samples.value)" -ge 1 ] || fail "timed run not sampled"
expect_in out "the verdicts carry the sampling's cost"

# stat --profile records the profile too.
run_pm 0 stat --profile=time -r 2 -o s.json -- "$T" 2 4
[ "$(jv s.json runs.$(instr_run s.json).values.self:work_b.value)" -ge 1 ] || fail "work_b's self time not recorded"

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
	run_pm 0 compare -v --profile --backend sim --sim-runs 2 -m instructions -o sf.json -n one -- "$T" 1 1 -n three -- "$T" 1 3
	expect_in out "where the simulated difference is"
	expect_eq "$(jv sf.json sim_attribution.0.functions.0.function)" work_b "largest simulated change"
	a=$(jv sf.json sim_attribution.0.functions.0.instructions.baseline)
	b=$(jv sf.json sim_attribution.0.functions.0.instructions.variant)
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b / a > 2.99 && b / a < 3.01) }' || fail "work_b: $a -> $b"
	expect_eq "$(jv sf.json sim_attribution.0.functions.1.function)" work_a "unchanged function"
	expect_eq "$(jv sf.json sim_attribution.0.functions.1.instructions.delta)" 0.0 "work_a's change"
fi

# Call chains (--call-graph dwarf, the default): callers X Y runs the same
# leaf() under outer_x and under outer_y. Self time can only say leaf grew;
# inclusive time and the stacks say under which caller.
C=$BUILD/callers
run_pm 0 compare -v --profile --blocks 6 --seed 5 -o c.json -n one -- "$C" 5 5 -n three -- "$C" 5 15
expect_in out "inclusive time (the function and all it calls)"
expect_in out "call chains unwound from a copy of the user stack"
expect_eq "$(jv c.json attribution.0.functions.0.function)" leaf "self: the leaf grew"
expect_eq "$(jv c.json attribution.0.inclusive.0.function)" outer_y "inclusive: under outer_y"
expect_eq "$(jv c.json attribution.0.inclusive.0.significant)" true "outer_y's change is significant"
lo=$(jv c.json attribution.0.inclusive.0.ci_ns.0)
awk -v lo="$lo" 'BEGIN { exit !(lo > 0) }' || fail "outer_y's interval reaches 0: $lo"
dx=$(json_find c.json attribution.0.inclusive function outer_x delta_ns)
dy=$(jv c.json attribution.0.inclusive.0.delta_ns)
[ -n "$dx" ] || fail "outer_x not shown"
awk -v a="$dx" -v b="$dy" 'BEGIN { exit !(a < b / 4 && -a < b / 4) }' || fail "outer_x moved: $dx vs $dy"
# The stacks, root first, are in the result: the leaf's time under each caller.
expect_in c.json '"stack:_start;__libc_start_main;__libc_start_call_main;main;outer_y;leaf"'
expect_in c.json '"stack:_start;__libc_start_main;__libc_start_call_main;main;outer_x;leaf"'
# main and the entry hold all the time in both: not listed as inclusive rows.
n=$(jv c.json attribution.0.inclusive.#)
i=0
while [ "$i" -lt "$n" ]; do
	[ "$(jv c.json attribution.0.inclusive.$i.function)" != main ] || fail "main listed"
	i=$((i + 1))
done

# stat: a total (inclusive) column beside self time.
run_pm 0 stat --profile=time -r 2 -o cs.json -- "$C" 2 4
expect_in out "total: with all it calls"
[ "$(jv cs.json runs.$(instr_run cs.json).values.incl:outer_y.value)" -ge 1 ] || fail "outer_y's inclusive time not recorded"

# --call-graph fp takes the kernel's frame-pointer walk: on a program built
# with frame pointers the chain reaches main (GCC sets up no frame in the
# leaf itself, so, as with perf record -g, leaf's caller is skipped).
run_pm 0 stat --profile --call-graph fp -r 2 -o fp.json -- "$BUILD/callers-fp" 2 2
expect_in out "call chains from the frame pointers"
expect_in fp.json ';main;leaf"'
# none: self time only, no inclusive metrics.
run_pm 0 stat --profile --call-graph none -r 2 -o none.json -- "$C" 2 2
expect_not_in none.json '"incl:'
# A mode that does not exist: one line, a hint, exit 2, nothing run.
run_pm 2 stat --profile --call-graph lbr -- touch ran
expect_in err "unknown --call-graph mode 'lbr'"
expect_in err "hint: use dwarf"
[ ! -e ran ] || fail "the command ran although the mode was refused"
# dwarf,BYTES sets the stack copied per sample (perf's spelling); a size
# out of range is refused the same way.
run_pm 0 stat --profile=time --call-graph dwarf,16384 -r 1 -o d16.json -- "$C" 1 1
[ "$(jv d16.json runs.$(instr_run d16.json).values.incl:outer_x.value)" -ge 1 ] || fail "no chains with dwarf,16384"
run_pm 2 stat --profile --call-graph dwarf,99999999 -- touch ran
expect_in err "the stack size is a number of bytes from 8 to 65528"
[ ! -e ran ] || fail "the command ran although the size was refused"
# Long runs: past PMUSTAT_PROFILE_PENDING bytes of stack copies, the reader
# unwinds while the run goes on (here at once): the same stacks come out.
export PMUSTAT_PROFILE_PENDING=1
run_pm 0 stat --profile -r 2 -o pend.json -- "$C" 2 2
unset PMUSTAT_PROFILE_PENDING
expect_in pend.json '"stack:_start;__libc_start_main;__libc_start_call_main;main;outer_y;leaf"'
# A debuginfod server named in the environment is said (here one that
# refuses at once: nothing is fetched, nothing waits).
export DEBUGINFOD_URLS=http://127.0.0.1:1
run_pm 0 stat --profile -r 1 -- "$C" 1 1
expect_in out "profile: DEBUGINFOD_URLS is set"
unset DEBUGINFOD_URLS
