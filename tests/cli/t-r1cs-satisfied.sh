#!/bin/sh
# Validation 3: every row satisfies a*b = c in Fr (--check), and the check
# really looks: corrupting one row's c value makes it fail on that row.
. "$TESTLIB"
bin="$BUILD/r1cs-synth"

"$bin" --labels 1 --blocks 1 --storage sv2 --style inplace --check >out 2>err ||
	{ cat out err; fail "--check failed on an honest run"; }
expect_in out "check: ok"
rows=$(sed -n 's/^rows: //p' out)
[ "$rows" -gt 20000 ] || fail "only $rows rows"

for row in 12345 $((rows - 1)); do
	"$bin" --labels 1 --blocks 1 --check --tamper-row $row >out 2>err &&
		fail "tampered row $row passed the check"
	[ $? = 1 ] || fail "tampered run should exit 1"
	expect_in err "error: row $row does not satisfy a*b = c"
	expect_not_in out "check: ok"
done
exit 0
