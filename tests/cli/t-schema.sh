# The JSON Schemas in docs/schema/ describe what pmustat really writes:
# results of stat and compare (default metrics with their unavailable
# ones, call counters, regions, simulated runs, parameters, hooks, a
# profile), a journal caught while its campaign ran, doctor's report (live
# and of a recorded Zen 4), and libpmustat's regions report — all produced
# here by running pmustat, then validated with Debian's python3-jsonschema.
# A document broken on purpose must fail, so the check can fail.
. "$TESTLIB"
: "${SRCROOT:?}"
PY=/usr/bin/python3
"$PY" -c 'import jsonschema' 2>/dev/null ||
	fail "python3-jsonschema is missing: run 'sh scripts/install-deps.sh' (apt-get install python3-jsonschema)"
validate() { "$PY" "$SRCROOT/tests/schema/validate.py" "$SRCROOT/docs/schema" "$@"; }
BUSY=$BUILD/busy

run_pm 0 stat -r 2 -q -o stat.json -- true
run_pm 0 stat -r 2 -q -m allocs,wall-time -e task-clock,page-faults -o calls.json -- "$BUSY" 1000
run_pm 0 stat -r 2 -q -o regions.json -- "$BUILD/regions-prog" nested
run_pm 0 stat -r 1 -q --backend sim --sim-runs 1 -m instructions -o sim.json -- "$BUSY" 1000
run_pm 0 compare --blocks 2 -q -m task-clock --parameter-list n 1000,2000 --prepare true \
	--conclude true -o sweep.json -- "$BUSY" 1000 -- "$BUSY" '{n}'
run_pm 0 compare --blocks 2 -q --profile -o profile.json -- "$BUSY" 20000 -- "$BUSY" 40000
validate result stat.json calls.json regions.json sim.json sweep.json profile.json ||
	fail "a result does not match docs/schema/result.schema.json"
grep -q '"name": "outer:' regions.json || fail "the regions result has no region metric to validate"
grep -q '"simulated": true' sim.json || fail "the sim result has no simulated run to validate"

# The journal, as the third run saw it (the run copies it).
run_pm 0 stat -r 3 -q -o j.json -- sh -c 'test -e j.json.journal && cp j.json.journal seen.journal; exit 0'
[ -s seen.journal ] || fail "no journal seen during the campaign"
[ "$(wc -l < seen.journal)" -ge 3 ] || fail "journal: header and two runs expected"
validate journal seen.journal || fail "a journal line does not match docs/schema/journal.schema.json"
# The skeleton written at the start is a valid result too.
run_pm 0 stat -r 1 -q -o k.json -- sh -c 'cp k.json skeleton.json'
expect_eq "$(jv skeleton.json complete)" false "skeleton"
validate result skeleton.json || fail "the skeleton does not match the result schema"

run_pm 0 doctor --json
cp out doctor.json
PMUSTAT_SYSFS_ROOT="$FIXTURES/zen4/sys" PMUSTAT_PROC_ROOT="$FIXTURES/zen4/proc" \
	PMUSTAT_CPU=AuthenticAMD-25-17-1 "$PMUSTAT" doctor --json > doctor-zen4.json ||
	fail "doctor on the zen4 fixture"
validate doctor doctor.json doctor-zen4.json || fail "doctor's JSON does not match its schema"

PMUSTAT_EVENTS=task-clock,page-faults PMUSTAT_OUTPUT=standalone.json "$BUILD/regions-prog" nested \
	>/dev/null || fail "regions-prog standalone"
validate regions standalone.json || fail "the regions report does not match its schema"

# Broken on purpose: each must be rejected.
sed 's/"status": "ok"/"status": "fine"/' stat.json > bad1.json
! validate result bad1.json >bad.out || fail "a bad run status was accepted"
expect_in bad.out "'fine' is not one of"
sed 's/"schema": "pmustat.result\/1"/"schema": "pmustat.result\/2"/' stat.json > bad2.json
! validate result bad2.json >/dev/null || fail "a wrong schema name was accepted"
sed 's/"hardware_counters": "[a-z]*"/"hardware_counters": "maybe"/' doctor.json > bad3.json
! validate doctor bad3.json >/dev/null || fail "a bad doctor status was accepted"
exit 0
