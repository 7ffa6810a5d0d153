#!/bin/sh
# Benchmark (not a test): peak memory and time of `pmustat report` on
# comparisons of 2,000, 5,000 and 20,000 blocks (#38). The Hodges-Lehmann
# estimate once sorted all n(n+1)/2 Walsh averages: 3.4 GB and 157 s at
# 20,000 blocks. Now it selects their median in O(n) memory, so the peak is
# that of holding the result itself, linear in the blocks: the figure to
# watch is the peak per 1,000 blocks, which should stay flat. With a second
# pmustat (a build of an older commit) both run side by side on the same
# files, with the ratio old / new.
#   sh bench/hl-memory.sh PMUSTAT [BASELINE_PMUSTAT]
# Results are written by tests/fixtures/results/make-blocks.py (as
# `compare --blocks N -- /bin/true -- /bin/true` would, without its minutes).
set -eu
PMUSTAT=${1:?usage: bench/hl-memory.sh PMUSTAT [BASELINE_PMUSTAT]}
BASE=${2:-}
SIZES=${BENCH_BLOCKS:-2000 5000 20000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# peak RSS (MB) and wall seconds of one command, from the kernel's
# accounting of the child (getrusage), not sampled
measure() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t = time.monotonic() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
print("%.0f %.2f %d" % (rss, t, rc))
PY
}

printf '%8s %10s %9s %12s' blocks "file MB" "peak MB" "MB/1k blk"
printf '%8s' "s"
[ -n "$BASE" ] && printf '%14s %8s %10s' "base peak MB" "base s" "peak ratio"
echo
for n in $SIZES; do
	python3 "$here/../tests/fixtures/results/make-blocks.py" "$n" "$tmp/r.json"
	size=$(($(wc -c <"$tmp/r.json") / 1048576))
	set -- $(measure "$PMUSTAT" report "$tmp/r.json" -o "$tmp/o.json")
	[ "$3" = 0 ] || { echo "pmustat report failed at $n blocks" >&2; exit 1; }
	printf '%8d %10d %9d %12.1f %8.2f' "$n" "$size" "$1" "$(echo "$1 * 1000 / $n" | bc -l)" "$2"
	if [ -n "$BASE" ]; then
		new=$1
		set -- $(measure "$BASE" report "$tmp/r.json" -o "$tmp/b.json")
		printf '%14d %8.2f %10.1f' "$1" "$2" "$(echo "$1 / $new" | bc -l)"
		[ "$3" = 0 ] || printf ' (exit %s)' "$3"
	fi
	echo
done
