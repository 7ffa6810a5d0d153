#!/bin/sh
# Run every CLI test script (tests/cli/t-*.sh) against the real binary in
# $PMUSTAT. Each script runs in its own scratch directory; a script fails by
# exiting non-zero, and its output is shown.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PMUSTAT:?set PMUSTAT to the pmustat binary}"
export PMUSTAT TESTLIB="$here/lib.sh" FIXTURES="$here/../fixtures" SRCROOT="$here/../.."
fail=0
for t in "$here"/t-*.sh; do
	[ -f "$t" ] || continue
	dir=$(mktemp -d)
	if (cd "$dir" && sh "$t") >"$dir/.log" 2>&1; then
		echo "PASS cli/$(basename "$t")"
		rm -rf "$dir"
	else
		echo "FAIL cli/$(basename "$t") (scratch: $dir)"
		cat "$dir/.log"
		fail=1
	fi
done
exit $fail
