#!/bin/sh
# Run each libFuzzer harness for a while: run.sh BUILD SECONDS NAME...
# Each harness starts from its seed corpus (tests/fuzz/corpus/NAME, plus a
# dictionary tests/fuzz/dict/NAME.dict when there is one) and adds what it
# finds to BUILD/corpus/NAME, outside the tree. Any crash, leak, timeout
# (an input taking over 10 s) or memory blow-up (over 2 GiB) fails the run;
# the input is left in BUILD/artifacts/NAME/ and is to become a regression
# test in tests/fuzz/regress/NAME/ with its fix. Prints the executions per
# harness, from libFuzzer's final statistics.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$1
secs=$2
shift 2
fail=0
total=0
mkdir -p "$build/tmp"
for name in "$@"; do
	corpus="$build/corpus/$name"
	arts="$build/artifacts/$name"
	log="$build/fuzz-$name.log"
	dict=""
	mkdir -p "$corpus" "$arts"
	[ -f "$here/dict/$name.dict" ] && dict="-dict=$here/dict/$name.dict"
	TMPDIR="$build/tmp" "$build/fuzz/fuzz-$name" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$arts/" $dict \
		"$corpus" "$here/corpus/$name" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	total=$((total + ${execs:-0}))
	if [ "$rc" = 0 ]; then
		echo "PASS fuzz/$name: ${execs:-?} executions in ${secs} s"
	else
		echo "FAIL fuzz/$name (exit $rc, log: $log); inputs in $arts:"
		ls "$arts"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5
		fail=1
	fi
done
echo "fuzz: $total executions in all"
exit $fail
