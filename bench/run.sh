#!/bin/sh
# Benchmarks (not tests): pmustat's own cost, as ratios against baselines run
# side by side in the same rounds, because these machines are noisy.
#   1. per-run overhead: `pmustat stat -r N -- /bin/true` and `perf stat -r N
#      -- /bin/true`, each minus a bare fork/exec/wait loop of N runs;
#   2. one-shot wall time: `pmustat stat -- /bin/true` vs `perf stat -- /bin/true`.
# Rounds alternate the contenders; medians of the rounds are reported.
set -eu
PMUSTAT=${1:?usage: bench/run.sh PMUSTAT}
N=${BENCH_RUNS:-200}
ROUNDS=${BENCH_ROUNDS:-7}
ONESHOT=${BENCH_ONESHOT:-31}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/forkloop" "$here/forkloop.c"
have_perf=0
perf stat -r 1 -- /bin/true >/dev/null 2>&1 && have_perf=1

now() { date +%s%N; }
timeit() { t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); echo $(( t1 - t0 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "per-run overhead over $N runs of /bin/true, $ROUNDS rounds (ns per run above a bare fork/exec/wait):"
for r in $(seq "$ROUNDS"); do
	b=$(timeit "$tmp/forkloop" "$N" /bin/true)
	p=$(timeit "$PMUSTAT" stat -q -r "$N" -- /bin/true)
	echo "$(( (p - b) / N ))" >>"$tmp/pm"
	if [ $have_perf = 1 ]; then
		q=$(timeit perf stat -r "$N" -- /bin/true)
		echo "$(( (q - b) / N ))" >>"$tmp/perf"
	fi
	echo "$(( b / N ))" >>"$tmp/base"
done
pm=$(median <"$tmp/pm"); base=$(median <"$tmp/base")
printf '  bare fork/exec/wait   %8d ns per run\n' "$base"
printf '  pmustat overhead      %8d ns per run\n' "$pm"
if [ $have_perf = 1 ]; then
	pf=$(median <"$tmp/perf")
	printf '  perf stat overhead    %8d ns per run\n' "$pf"
	awk -v a="$pm" -v b="$pf" 'BEGIN { printf "  ratio pmustat/perf    %8.2f (target <= 1)\n", a / b }'
fi

echo "one-shot wall time of 'stat -- /bin/true' (batches of $ONESHOT, $ROUNDS rounds, median ms per call):"
pm_bin=$PMUSTAT
for r in $(seq "$ROUNDS"); do
	t=$(timeit "$tmp/forkloop" "$ONESHOT" "$pm_bin" stat -q -r 1 -- /bin/true)
	echo "$(( t / ONESHOT ))" >>"$tmp/pm1"
	if [ $have_perf = 1 ]; then
		t=$(timeit "$tmp/forkloop" "$ONESHOT" "$(command -v perf)" stat -o /dev/null -- /bin/true)
		echo "$(( t / ONESHOT ))" >>"$tmp/perf1"
	fi
done
a=$(median <"$tmp/pm1")
printf '  pmustat stat          %8.2f ms\n' "$(echo "$a" | awk '{print $1/1e6}')"
if [ $have_perf = 1 ]; then
	b=$(median <"$tmp/perf1")
	printf '  perf stat             %8.2f ms\n' "$(echo "$b" | awk '{print $1/1e6}')"
	awk -v a="$a" -v b="$b" 'BEGIN { printf "  ratio pmustat/perf    %8.2f (target <= 0.5)\n", a / b }'
fi
