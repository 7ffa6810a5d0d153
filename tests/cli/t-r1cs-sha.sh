#!/bin/sh
# Validation 2: the circuit's SHA-256 output bits equal a software SHA-256
# of the same message. --check compares every label's digest with the
# built-in software SHA-256; here coreutils' sha256sum is an independent
# second reference for label 0's message (dumped as raw bytes).
. "$TESTLIB"
bin="$BUILD/r1cs-synth"
command -v sha256sum >/dev/null || fail "sha256sum (coreutils) is needed"

# two labels, two compressions each (chaining past the constant IV)
"$bin" --labels 2 --blocks 2 --check --dump-message msg.bin >out 2>err ||
	{ cat out err; fail "partition failed"; }
expect_in out "check: ok"
expect_in out "digests=2"
# 2B-1 parents of 32 bytes each
size=$(wc -c <msg.bin)
[ "$size" -eq 96 ] || fail "message is $size bytes, expected 96"
want=$(sha256sum msg.bin | cut -d' ' -f1)
got=$(sed -n 's/^digest: //p' out)
[ "$want" = "$got" ] || fail "circuit digest $got != sha256sum $want"
exit 0
