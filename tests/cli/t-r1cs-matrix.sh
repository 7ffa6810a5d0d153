#!/bin/sh
# Validation 4: the A/B/C hash, the aux values, the density counts (and the
# row and term counts) are identical across every storage x style: the
# variants change how LCs are stored and built, never what is built. The
# witness-only mode produces the same witness with no rows.
#
# The same twelve runs also hold each variant's heap operations per row to
# WORKLOAD.md's model (exact counts of a deterministic run; the model is an
# estimate, hence +-0.3, or +-0.05 for the near-zero ones).
. "$TESTLIB"
bin="$BUILD/r1cs-synth"
keys='^(rows|aux|inputs|terms-per-row|a-terms-share|b-terms-share|c-terms-share|density|abc-hash|aux-hash|digest):'

# near FILE FIELD WANT TOL: FIELD=value on the heap-per-row line is WANT +- TOL
near() {
	got=$(sed -n 's/^heap-per-row: //p' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p")
	[ -n "$got" ] || { cat "$1"; fail "no heap-per-row $2"; }
	awk -v g="$got" -v w="$3" -v t="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }' ||
		fail "$1: heap-per-row $2 = $got, model $3 +- $4"
}

ref=
for storage in vec pool sv1 sv2 sv4 csr; do
	for style in upstream inplace; do
		run="$storage.$style"
		"$bin" --labels 1 --blocks 1 --storage $storage --style $style >"out.$run" 2>err ||
			{ cat "out.$run" err; fail "$storage/$style failed"; }
		grep -E "$keys" "out.$run" >"sig.$run"
		[ "$(wc -l <"sig.$run")" = 11 ] || { cat "out.$run"; fail "missing keys"; }
		if [ -z "$ref" ]; then
			ref="sig.$run"
		elif ! cmp -s "$ref" "sig.$run"; then
			diff "$ref" "sig.$run"
			fail "$storage/$style differs from $ref"
		fi
	done
done
grep -qE '^rows: [1-9][0-9]{4,}$' "$ref" || { cat "$ref"; fail "too few rows"; }
aux=$(sed -n 's/^aux-hash: //p' "$ref")
echo "$aux" | grep -qE '^[0-9a-f]{16}$' || fail "bad aux-hash '$aux'"

"$bin" --labels 1 --blocks 1 --storage sv1 --style inplace --witness-only >out 2>err ||
	{ cat out err; fail "witness-only failed"; }
expect_in out "rows: 0"
expect_in out "aux-hash: $aux"

# file field model tolerance
near out.vec.upstream mallocs 4.6 0.3
near out.vec.inplace mallocs 3.0 0.3
near out.pool.upstream mallocs 2.3 0.3
near out.pool.inplace mallocs 0.04 0.05
near out.sv1.upstream ops 1.6 0.3
near out.sv2.upstream ops 0.7 0.3
near out.sv4.upstream ops 0.1 0.05
near out.csr.inplace ops 0.0 0.05
exit 0
