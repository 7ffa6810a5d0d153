# libpmustat region markers, run for real with software events through
# build/regions-prog (lib/pmustat/test/regions-prog.c): off by default,
# standalone JSON reports, the handle and name forms, threads, nesting,
# fork, hostile names, and the tool-mode hand-off through an inherited fd.
. "$TESTLIB"
P="$BUILD/regions-prog"
PSO="$BUILD/regions-prog-so"
unset PMUSTAT_EVENTS PMUSTAT_OUTPUT PMUSTAT_REGION_FD PMUSTAT_REGION_ATTRS

# Off: no variables, no report, nothing on stderr.
expect_eq "$("$P" active)" 0 "active without variables"
"$P" loop 3 1000 2>stderr.txt || fail "loop failed"
[ ! -s stderr.txt ] || fail "markers printed while off: $(cat stderr.txt)"
expect_eq "$(PMUSTAT_EVENTS=task-clock "$P" active 2>/dev/null | head -1)" 1 "active with PMUSTAT_EVENTS"

# Standalone, name form, static library.
PMUSTAT_EVENTS=task-clock,page-faults PMUSTAT_OUTPUT=loop.json "$P" loop 5 200000 ||
	fail "standalone loop failed"
expect_eq "$(jv loop.json schema)" "pmustat.regions/1" "schema"
expect_eq "$(jv loop.json mode)" standalone "mode"
expect_eq "$(jv loop.json regions.#)" 1 "one region"
expect_eq "$(jv loop.json regions.0.name)" loop "region name"
expect_eq "$(jv loop.json regions.0.count)" 5 "entries counted"
expect_eq "$(jv loop.json events.0.name)" task-clock "event name"
expect_eq "$(jv loop.json events.0.read)" read "read path"
expect_eq "$(jv loop.json regions.0.counters.1.event)" page-faults "second event"
tc=$(jv loop.json regions.0.counters.0.value)
en=$(jv loop.json regions.0.counters.0.time_enabled)
ru=$(jv loop.json regions.0.counters.0.time_running)
[ "$tc" -gt 0 ] && [ "$ru" -gt 0 ] && [ "$en" -ge "$ru" ] || fail "task-clock $tc enabled $en running $ru"

# More work inside the region, more task-clock (5 x 20M vs 5 x 200k iterations).
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=big.json "$P" loop 5 20000000 || fail "big loop"
big=$(jv big.json regions.0.counters.0.value)
[ "$big" -gt $((tc * 10)) ] || fail "task-clock does not grow with work: $tc vs $big"

# Handle form, shared library; report on stderr when PMUSTAT_OUTPUT is unset.
PMUSTAT_EVENTS=task-clock "$PSO" handle 1000 10 2>hot.json || fail "handle form"
expect_eq "$(jv hot.json regions.0.name)" hot "handle region"
expect_eq "$(jv hot.json regions.0.count)" 1000 "handle entries"

# Threads: per-thread counters, summed; the main thread's region is its own.
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=thr.json "$P" threads 3 4 200000 || fail "threads"
expect_eq "$(jv thr.json regions.0.name)" all "first region"
expect_eq "$(jv thr.json regions.0.count)" 1 "all entered once"
expect_eq "$(jv thr.json regions.1.name)" work "second region"
expect_eq "$(jv thr.json regions.1.count)" 12 "3 threads x 4 entries"
expect_eq "$(jv thr.json regions.1.threads)" 3 "threads in work"
expect_eq "$(jv thr.json threads)" 4 "threads that used markers"
w=$(jv thr.json regions.1.counters.0.value)
[ "$w" -gt 0 ] || fail "work task-clock $w"

# Nesting: inner is inside outer; recursion counts entries, values once.
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=nest.json "$P" nested || fail "nested"
expect_eq "$(jv nest.json regions.0.name)" outer "outer"
expect_eq "$(jv nest.json regions.0.count)" 1 "outer count"
expect_eq "$(jv nest.json regions.1.name)" inner "inner (a reused buffer)"
expect_eq "$(jv nest.json regions.1.count)" 3 "inner count"
expect_eq "$(jv nest.json regions.2.count)" 4 "recursive entries"
expect_eq "$(jv nest.json regions.2.open)" 0 "recursion closed"
o=$(jv nest.json regions.0.counters.0.value)
i=$(jv nest.json regions.1.counters.0.value)
[ "$i" -le "$o" ] && [ "$i" -gt 0 ] || fail "inner $i not within outer $o"

# Misuse is reported, not fatal; hostile names still make valid JSON.
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=odd.json "$P" odd || fail "odd"
expect_eq "$(jv odd.json regions.0.name)" never-begun "unbalanced region"
expect_eq "$(jv odd.json regions.0.unbalanced)" 1 "unbalanced exit"
expect_eq "$(jv odd.json regions.0.count)" 0 "no completed entry"
expect_eq "$(jv odd.json regions.1.name)" registered-only "registered region"
expect_eq "$(jv odd.json regions.1.threads)" 0 "never entered"
expect_eq "$(jv odd.json regions.2.open)" 1 "left open"
jv odd.json regions.2.name | head -1 | grep -qF 'left "open"' || fail "quoted name"

# Past 1024 names, regions are dropped and counted, not measured.
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=many.json "$P" many 1100 || fail "many"
expect_eq "$(jv many.json regions.#)" 1024 "regions kept"
expect_eq "$(jv many.json regions.1023.name)" r1023 "last region kept"
expect_eq "$(jv many.json regions.1023.count)" 1 "its count"
expect_eq "$(jv many.json dropped_entries)" 152 "begin + end of 76 dropped names"

# fork: the child reports its own regions; %p keeps the files apart.
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=fork-%p.json "$P" fork 3 || fail "fork"
n=$(ls fork-*.json | wc -l)
expect_eq "$n" 2 "one report per process"
for f in fork-*.json; do
	case "$(jv "$f" regions.0.name)" in
	parent) expect_eq "$(jv "$f" regions.#)" 1 "parent has only its region" ;;
	child) expect_eq "$(jv "$f" regions.0.count)" 3 "child entries"
	       expect_eq "$(jv "$f" regions.#)" 1 "child has only its region" ;;
	*) fail "unexpected report $f" ;;
	esac
done

# Bad event names: one line on stderr, the program runs unmeasured.
PMUSTAT_EVENTS=tsk-clock PMUSTAT_OUTPUT=bad.json "$P" loop 2 2>bad.err || fail "bad event stops the program"
expect_in bad.err "libpmustat: unknown event 'tsk-clock' in PMUSTAT_EVENTS; regions are not measured"
[ ! -e bad.json ] || fail "report written for a bad event list"

# Tool mode: an inherited fd gets one line per process, and wins over
# PMUSTAT_EVENTS/PMUSTAT_OUTPUT.
PMUSTAT_REGION_FD=3 PMUSTAT_REGION_ATTRS=1:0x1,1:0x2 PMUSTAT_EVENTS=cycles PMUSTAT_OUTPUT=no.json \
	"$P" fork 2 3>tool.txt || fail "tool mode"
[ ! -e no.json ] || fail "standalone output written in tool mode"
expect_eq "$(wc -l <tool.txt | tr -d ' ')" 2 "report lines"
sed -n 1p tool.txt >l1.json
sed -n 2p tool.txt >l2.json
expect_eq "$(jv l1.json mode)" pmustat "tool mode"
expect_eq "$(jv l1.json events.1.name)" 1:0x2 "item as event name"
expect_eq "$(jv l1.json regions.0.name)$(jv l2.json regions.0.name)" childparent "child reports first"
expect_eq "$(jv l1.json regions.0.count)" 2 "child entries via fd"

# Children of pmustat's spawn server inherit nothing: the report file is
# opened by path instead; an fd of the wrong inode is not written to.
: >path.txt
PMUSTAT_REGION_FD=3:1 PMUSTAT_REGION_PATH="$PWD/path.txt" PMUSTAT_REGION_ATTRS=1:0x1 \
	"$P" fork 2 3>wrongfd.txt || fail "path mode"
[ ! -s wrongfd.txt ] || fail "wrote to an fd whose inode did not match"
expect_eq "$(wc -l <path.txt | tr -d ' ')" 2 "report lines by path"
PMUSTAT_REGION_FD=3:1 PMUSTAT_REGION_ATTRS=1:0x1 "$P" loop 1 3>wrongfd.txt 2>nofd.err || fail "no report fd"
[ ! -s wrongfd.txt ] || fail "wrote to a foreign fd"
expect_in nofd.err "libpmustat: cannot open the region report (PMUSTAT_REGION_FD=3:1, PMUSTAT_REGION_PATH=): not inherited; regions are not measured"

# A program that closes every descriptor and reuses the numbers: the library
# notices its descriptor is now something else and reopens the path...
: >daemon.txt
PMUSTAT_REGION_PATH="$PWD/daemon.txt" PMUSTAT_REGION_ATTRS=1:0x1 "$P" closeall || fail "closeall"
expect_eq "$(jv daemon.txt regions.0.name)" after-closeall "report after closeall"
# ...and without a path says the report is lost rather than write elsewhere.
PMUSTAT_REGION_FD=3 PMUSTAT_REGION_ATTRS=1:0x1 "$P" closeall 3>lost.txt 2>lost.err || fail "closeall fd"
[ ! -s lost.txt ] || fail "report after its fd was closed"
expect_in lost.err "libpmustat: the program closed the region report descriptor; the report is lost"

# The program may close its inherited fds: the library kept its own copy.
PMUSTAT_REGION_FD=3 PMUSTAT_REGION_ATTRS=1:0x1 "$P" closefd 3>closed.txt || fail "closefd"
jv closed.txt regions.0.name >/dev/null || fail "no report after close: $(cat closed.txt)"
expect_eq "$(jv closed.txt regions.0.name)" after-close "report after close"

# A malformed hand-off is reported back to the tool, not guessed at.
PMUSTAT_REGION_FD=3 PMUSTAT_REGION_ATTRS=1:0x1:0:0:0:5 "$P" loop 1 3>err.txt || fail "bad attrs"
expect_eq "$(jv err.txt error)" "bad event item '1:0x1:0:0:0:5'" "error report"

# No events from the tool: regions are still counted.
PMUSTAT_REGION_FD=3 PMUSTAT_REGION_ATTRS= "$P" loop 4 3>none.txt || fail "no events"
expect_eq "$(jv none.txt regions.0.count)" 4 "count without events"
expect_eq "$(jv none.txt regions.0.counters.#)" 0 "no counters"

# The shared library exports the API and nothing else.
nm -D --defined-only "$BUILD/lib/libpmustat.so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
	sort >syms.txt
printf '%s\n' pmustat_active pmustat_region pmustat_region_begin pmustat_region_end \
	pmustat_region_enter pmustat_region_exit >want.txt
cmp -s syms.txt want.txt || { cat syms.txt; fail "exported symbols differ"; }
exit 0
