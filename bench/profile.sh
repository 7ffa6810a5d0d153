#!/bin/sh
# Benchmark (not a test): what --profile costs. The same stat campaign of
# the demo workload with and without --profile, and `perf record -F` at the
# same rate on the same command, in alternating rounds (medians); ratios
# against the campaign without profiling (target <= 1.05), and the time to
# symbolize (the profiled campaign's extra CPU time in pmustat itself).
set -eu
PMUSTAT=${1:?usage: bench/profile.sh PMUSTAT}
BUILD=$(dirname "$PMUSTAT")
RUNS=${BENCH_PROFILE_RUNS:-5}
ROUNDS=${BENCH_ROUNDS:-3}
RATE=${BENCH_PROFILE_RATE:-999}
CMD="$BUILD/r1cs-synth --labels 2 --blocks 20"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
timeit() { t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); echo $(( t1 - t0 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
have_perf=0
perf record -q -e cpu-clock -F "$RATE" -o "$tmp/p.data" -- /bin/true >/dev/null 2>&1 && have_perf=1

for r in $(seq "$ROUNDS"); do
	timeit "$PMUSTAT" stat -q -r "$RUNS" -- $CMD >>"$tmp/plain"
	timeit "$PMUSTAT" stat -q -r "$RUNS" --profile=time --profile-rate "$RATE" -- $CMD >>"$tmp/prof"
	if [ $have_perf = 1 ]; then
		t=0
		for i in $(seq "$RUNS"); do
			t=$(( t + $(timeit perf record -q -e cpu-clock -F "$RATE" -o "$tmp/p.data" -- $CMD) ))
		done
		echo "$t" >>"$tmp/perf"
	fi
done
a=$(median <"$tmp/plain"); b=$(median <"$tmp/prof")
echo "--profile at $RATE Hz, $RUNS runs of '$CMD', $ROUNDS rounds (medians):"
awk -v a="$a" -v b="$b" -v n="$RUNS" 'BEGIN {
	printf "  without --profile  %8.1f ms per run\n  with --profile     %8.1f ms per run   ratio %.3f (target <= 1.05)\n",
		a / n / 1e6, b / n / 1e6, b / a }'
if [ $have_perf = 1 ]; then
	c=$(median <"$tmp/perf")
	awk -v a="$a" -v c="$c" -v n="$RUNS" 'BEGIN {
		printf "  perf record -F     %8.1f ms per run   ratio %.3f (perf writes its samples to a file)\n",
			c / n / 1e6, c / a }'
fi
