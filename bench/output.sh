#!/bin/sh
# Benchmark (not a test): what `-o FILE` costs per run. `pmustat stat -r N -o
# FILE -- /bin/true` against `pmustat stat -r N -- /bin/true` in the same
# rounds (alternating, medians), for N = 1000 and 10000 by default; the
# ratio is the target (within 1.1x: the journal appends one line per run, so
# the cost per run must not grow with N).
set -eu
PMUSTAT=${1:?usage: bench/output.sh PMUSTAT}
SIZES=${BENCH_OUTPUT_SIZES:-1000 10000}
ROUNDS=${BENCH_ROUNDS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
timeit() { t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); echo $(( t1 - t0 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "cost of -o per run of /bin/true ($ROUNDS rounds, medians):"
for n in $SIZES; do
	: >"$tmp/plain.$n"
	: >"$tmp/out.$n"
	for r in $(seq "$ROUNDS"); do
		timeit "$PMUSTAT" stat -q -r "$n" -- /bin/true >>"$tmp/plain.$n"
		timeit "$PMUSTAT" stat -q -r "$n" -o "$tmp/r.json" -- /bin/true >>"$tmp/out.$n"
	done
	a=$(median <"$tmp/plain.$n")
	b=$(median <"$tmp/out.$n")
	awk -v n="$n" -v a="$a" -v b="$b" 'BEGIN {
		printf "  N=%-6d without -o %8.3f ms/run   with -o %8.3f ms/run   ratio %.3f (target <= 1.1)\n",
			n, a / n / 1e6, b / n / 1e6, b / a }'
done
