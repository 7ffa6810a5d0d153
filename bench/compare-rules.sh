#!/bin/sh
# A/B decision rules compared on simulated machines (bench/compare_rules.c):
# pmustat's randomized blocks + paired log-ratio + precision stopping + 1% band
# (and --decide) against poop's and hyperfine's published rules. Prints, per
# machine, the A/A false-positive rate and the runs and seconds each rule
# spends on a true 3% slowdown, then the fewest runs each needs for 90%
# correct verdicts. Not a test: nothing is asserted.
#   bench/compare-rules.sh [path/to/libpmustat-internal.a]
# Environment: BENCH_REPS (campaigns per cell, default 2000), BENCH_SWEEP_REPS
# (default 1000), BENCH_SECONDS (program lengths, default "1 0.1"),
# BENCH_TRACE_RUNS (default 0 = off; e.g. 3000 adds a row, for the first
# length, replaying that many real timed runs of a BENCH_TRACE_MS-millisecond
# CPU loop on this host: its noise now, so a loaded host shows as such).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
lib=${1:-$root/build/libpmustat-internal.a}
[ -f "$lib" ] || { echo "compare-rules: '$lib' not found; run 'make' first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -I"$root/src" -o "$tmp/compare_rules" \
	"$here/compare_rules.c" "$lib" -lm
trace=${BENCH_TRACE_RUNS:-0}
for s in ${BENCH_SECONDS:-1 0.1}; do
	"$tmp/compare_rules" --reps "${BENCH_REPS:-2000}" --sweep-reps "${BENCH_SWEEP_REPS:-1000}" \
		--seconds "$s" --trace-runs "$trace" --trace-ms "${BENCH_TRACE_MS:-10}"
	trace=0		# the host trace is recorded once, with the first length
done
