#!/bin/sh
# r1cs-synth --self-test: Fr arithmetic (a*a^-1 = 1, (r-1)^2 = 1, Montgomery
# round trip, multiply vs an independent double-and-add reduction), SHA-256
# test vectors, the SHA-256 gadget against them. Plus the CLI error grammar.
. "$TESTLIB"
bin="$BUILD/r1cs-synth"

"$bin" --self-test >out 2>err || { cat out err; fail "self-test failed"; }
expect_in out "self-test: ok"
[ ! -s err ] || { cat err; fail "self-test wrote to stderr"; }

# usage errors: exit 2, one error line and one hint line
check_usage() {
	"$bin" "$@" >out 2>err && fail "r1cs-synth $* succeeded"
	rc=$?
	[ "$rc" = 2 ] || fail "r1cs-synth $* exited $rc, expected 2"
	[ "$(wc -l <err)" = 2 ] || { cat err; fail "expected 2 lines on stderr for $*"; }
	head -n1 err | grep -q '^error: ' || { cat err; fail "no 'error:' line for $*"; }
	tail -n1 err | grep -q '^hint: ' || { cat err; fail "no 'hint:' line for $*"; }
}
check_usage --storage heap
expect_in err "error: unknown storage 'heap'"
check_usage --style fast
check_usage --labels 0
check_usage --blocks -3
check_usage --frobnicate
check_usage --check=yes

"$bin" --help >out || fail "--help failed"
expect_in out "--storage S"
exit 0
