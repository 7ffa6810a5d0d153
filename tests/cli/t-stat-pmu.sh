# Dynamic PMUs by sysfs name: msr/tsc/ is a real per-process counter here.
. "$TESTLIB"

has_pmu msr || { echo "skip: no msr PMU on this host"; exit 77; }
run_pm 0 stat -r 2 -e task-clock,msr/tsc/ -o r.json --csv r.csv -- sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done'
expect_in out "msr/tsc/"
expect_eq "$(jv r.json metrics.5.name)" "msr/tsc/" "metric name"
expect_eq "$(jv r.json metrics.5.pmu)" msr "pmu"
expect_eq "$(jv r.json metrics.5.type)" "$(cat /sys/bus/event_source/devices/msr/type)" "type from sysfs"
tsc=$(jv r.json runs.0.values.msr/tsc/.value)
[ "$tsc" -gt 0 ] || fail "tsc count $tsc"
grep -q ',msr/tsc/,' r.csv || fail "csv lacks msr/tsc/"
