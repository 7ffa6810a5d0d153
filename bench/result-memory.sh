#!/bin/sh
# The memory of a long campaign's end (not a test): peak RSS of
# `pmustat stat -r N -o r.json -- /bin/true` (the end writes the full
# document), the same without -o (what the campaign takes without the
# document), the document's size, and whether `pmustat report` reads it
# back; for PMUSTAT and, side by side, a BASELINE binary (an older build)
# when one is given. GNU time's %M is the peak RSS.
#   sh bench/result-memory.sh PMUSTAT [BASELINE]
# BENCH_RUNS (default 30000: about 30 s per line here).
set -eu
PMUSTAT=${1:?usage: bench/result-memory.sh PMUSTAT [BASELINE]}
BASE=${2:-}
N=${BENCH_RUNS:-30000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "SKIP: no GNU time (/usr/bin/time)"; exit 0; }

peak() {	# peak BINARY ARGS...: "seconds KiB"
	/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>&1 || echo "(exit $?)" >&2
	cat "$tmp/t"
}
one() {	# one WHO BINARY
	set -- "$1" "$2" $(peak "$2" stat -q -r "$N" -o "$tmp/r.json" -- /bin/true) \
		$(peak "$2" stat -q -r "$N" -- /bin/true)
	size=$(wc -c <"$tmp/r.json")
	back=no
	"$2" report -q "$tmp/r.json" >/dev/null 2>&1 && back=yes
	printf '  %-8s -o: %7.1f s %8d KiB peak | without -o: %7.1f s %8d KiB peak | %10d bytes, read back: %s\n' \
		"$1" "$3" "$4" "$5" "$6" "$size" "$back"
	rm -f "$tmp/r.json"
}
echo "stat -r $N -- /bin/true:"
one pmustat "$PMUSTAT"
[ -z "$BASE" ] || one baseline "$BASE"
