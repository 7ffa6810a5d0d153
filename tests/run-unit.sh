#!/bin/sh
# Run every unit-test binary given; report each, fail if any failed.
fail=0
for t in "$@"; do
	if "$t" >"$t.log" 2>&1; then
		echo "PASS $(basename "$t")"
	else
		echo "FAIL $(basename "$t") (log: $t.log)"
		cat "$t.log"
		fail=1
	fi
done
exit $fail
