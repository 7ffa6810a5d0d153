#!/bin/sh
# Benchmark (not a test): what a traced run of --profile=allocs costs. The
# demo workload run plainly, with the call-counting shim alone (what
# `-m allocs` adds to every measured run), with the shim tracing call sites
# (what one traced run is: the same LD_PRELOAD, PMUSTAT_COUNT_SITES set),
# with libunwind (the default when installed) and with glibc's backtrace(),
# and under heaptrack, in alternating rounds (medians); ratios against the
# plain run. Then the whole campaign: `stat --profile=allocs -r N` against
# `stat -r N` (the traced run plus the symbolization of its sites).
set -eu
PMUSTAT=${1:?usage: bench/allocsites.sh PMUSTAT}
BUILD=$(dirname "$PMUSTAT")
ROUNDS=${BENCH_ROUNDS:-5}
RUNS=${BENCH_ALLOCSITES_RUNS:-3}
FRAMES=${BENCH_ALLOCSITES_FRAMES:-4}
CMD="$BUILD/r1cs-synth --labels 2 --blocks 20"
SHIM=$BUILD/libpmustat-count.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
timeit() { t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); echo $(( t1 - t0 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
shim() { # SITES [UNWINDER]: run CMD with the shim, counting (SITES=0) or tracing sites
	: >"$tmp/rec"
	if [ "$1" = 0 ]; then
		timeit env LD_PRELOAD="$SHIM" PMUSTAT_COUNT_FILE="$tmp/rec" $CMD
	else
		timeit env LD_PRELOAD="$SHIM" PMUSTAT_COUNT_FILE="$tmp/rec" PMUSTAT_COUNT_SITES="$1" \
			PMUSTAT_COUNT_UNWINDER="${2:-auto}" $CMD
	fi
}
have_ht=0
command -v heaptrack >/dev/null && have_ht=1

for r in $(seq "$ROUNDS"); do
	timeit $CMD >>"$tmp/plain"
	shim 0 >>"$tmp/count"
	shim "$FRAMES" >>"$tmp/traced"
	shim "$FRAMES" libgcc >>"$tmp/traced-libgcc"
	if [ $have_ht = 1 ]; then
		rm -f "$tmp"/ht.*
		timeit heaptrack -o "$tmp/ht" $CMD >>"$tmp/heaptrack"
	fi
done
allocs=$(env LD_PRELOAD="$SHIM" PMUSTAT_COUNT_FILE=/dev/null $CMD 2>/dev/null | awk '/heap-total/ { split($2, m, "="); split($3, r, "="); print m[2] + r[2] }')
a=$(median <"$tmp/plain")
echo "traced runs: '$CMD' (${allocs:-?} mallocs+reallocs), $ROUNDS rounds (medians):"
show() { awk -v a="$a" -v b="$2" -v what="$1" 'BEGIN {
	printf "  %-40s %8.1f ms   ratio %6.2f\n", what, b / 1e6, b / a }'; }
show "plain" "$a"
show "shim, counting only" "$(median <"$tmp/count")"
show "traced: libunwind, $FRAMES frames" "$(median <"$tmp/traced")"
show "traced: libgcc backtrace(), $FRAMES frames" "$(median <"$tmp/traced-libgcc")"
[ $have_ht = 1 ] && show "heaptrack (records to a file)" "$(median <"$tmp/heaptrack")"

# The campaign: one traced run per variant on top of the measured runs.
for r in $(seq 3); do
	timeit "$PMUSTAT" stat -q -r "$RUNS" -- $CMD >>"$tmp/c-plain"
	timeit "$PMUSTAT" stat -q -r "$RUNS" --profile=allocs -- $CMD >>"$tmp/c-allocs"
done
c=$(median <"$tmp/c-plain"); d=$(median <"$tmp/c-allocs")
awk -v c="$c" -v d="$d" -v n="$RUNS" 'BEGIN {
	printf "campaign stat -r %d: %.0f ms, with --profile=allocs %.0f ms (ratio %.2f; the measured runs are not traced)\n",
		n, c / 1e6, d / 1e6, d / c }'
