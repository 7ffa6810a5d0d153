#!/bin/sh
# The bisect page's cost against the number of steps (not a test): a
# bisect.json with N steps whose builds failed (tests/tools/bisect-steps.sh,
# the document a long stretch of broken builds leaves) rendered with
# `pmustat report --html`: the page's size, the wall time and the peak RSS
# (GNU time), per N, for PMUSTAT and, side by side, for a BASELINE binary
# (an older build) when one is given. The baseline runs only up to
# BENCH_BASELINE_MAX steps (default 3000): a page whose rows redraw every
# earlier step passes 1 GB there.
#   sh bench/bisect-page.sh PMUSTAT [BASELINE]
# BENCH_STEPS (default "300 3000 30000 99999": a document holds step indexes up
# to 100000, the confirm step one after the last).
set -eu
PMUSTAT=${1:?usage: bench/bisect-page.sh PMUSTAT [BASELINE]}
BASE=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "SKIP: no GNU time (/usr/bin/time)"; exit 0; }

measure() {	# measure BINARY DOC: "bytes seconds peak-KiB"
	/usr/bin/time -f '%e %M' -o "$tmp/t" "$1" report -q "$2" --html "$tmp/p.html" >/dev/null
	echo "$(wc -c <"$tmp/p.html") $(cat "$tmp/t")"
	rm -f "$tmp/p.html"
}
row() {	# row WHO N "bytes seconds KiB"
	set -- "$1" "$2" $3
	printf '  %-8s %7d steps  %12d bytes  %7.2f s  %8d KiB peak RSS\n' "$1" "$2" "$3" "$4" "$5"
}

echo "bisect page (report --html) by steps:"
for n in ${BENCH_STEPS:-300 3000 30000 99999}; do
	sh "$here/../tests/tools/bisect-steps.sh" \
		"$here/../tests/fixtures/results/bisect-found.json" "$n" >"$tmp/b.json"
	row pmustat "$n" "$(measure "$PMUSTAT" "$tmp/b.json")"
	if [ -n "$BASE" ] && [ "$n" -le "${BENCH_BASELINE_MAX:-3000}" ]; then
		row baseline "$n" "$(measure "$BASE" "$tmp/b.json")"
	fi
done
