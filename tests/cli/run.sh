#!/bin/sh
# Run every CLI test script (tests/cli/t-*.sh) against the real binary in
# $PMUSTAT. Each script runs in its own scratch directory; a script fails by
# exiting non-zero, and its output is shown. ONLY=PATTERN runs only the
# scripts t-PATTERN.sh (a shell glob: ONLY='stat-*', ONLY=compare).
#
# A script that cannot test anything here exits 77 after one line starting
# "SKIP:" or "skip:" with the reason: it is reported SKIP, never PASS. A script
# that passed but left part untested prints such a line and exits 0: it is
# reported PASS with each part it skipped named under it. Each line ends with
# the script's seconds (wall), so that CI's time can be kept in view.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PMUSTAT:?set PMUSTAT to the pmustat binary}"
export PMUSTAT TESTLIB="$here/lib.sh" FIXTURES="$here/../fixtures" SRCROOT="$here/../.."
fail=0 npass=0 nskip=0 nfail=0
for t in "$here"/t-${ONLY:-*}.sh; do
	[ -f "$t" ] || continue
	name=cli/$(basename "$t")
	dir=$(mktemp -d)
	t0=$(date +%s)
	(cd "$dir" && sh "$t") >"$dir/.log" 2>&1
	rc=$?
	secs="($(($(date +%s) - t0)) s)"
	skips=$(grep -i '^skip:' "$dir/.log" | sed 's/^[Ss][Kk][Ii][Pp]: *//')
	if [ $rc = 0 ]; then
		echo "PASS $name $secs"
		[ -z "$skips" ] || printf '%s\n' "$skips" | sed 's/^/     part skipped: /'
		npass=$((npass + 1))
		rm -rf "$dir"
	elif [ $rc = 77 ]; then
		echo "SKIP $name: ${skips:-no reason given} $secs"
		nskip=$((nskip + 1))
		rm -rf "$dir"
	else
		echo "FAIL $name (exit $rc, scratch: $dir) $secs"
		cat "$dir/.log"
		fail=1 nfail=$((nfail + 1))
	fi
done
echo "cli: $npass passed, $nskip skipped, $nfail failed"
exit $fail
