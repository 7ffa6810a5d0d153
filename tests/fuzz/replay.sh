#!/bin/sh
# Replay every fuzz harness's seed corpus and past crashes without
# libFuzzer: replay.sh DIR NAME... runs DIR/replay-NAME on
# tests/fuzz/corpus/NAME and tests/fuzz/regress/NAME. A crash is the
# sanitizer's report and a non-zero exit; the log names the input.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
shift
fail=0
for name in "$@"; do
	log="$dir/replay-$name.log"
	if "$dir/replay-$name" "$here/corpus/$name" "$here/regress/$name" >"$log" 2>&1; then
		echo "PASS fuzz/$name ($(tail -n 1 "$log"))"
	else
		echo "FAIL fuzz/$name (log: $log)"
		tail -n 40 "$log"
		fail=1
	fi
done
exit $fail
