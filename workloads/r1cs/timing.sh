#!/bin/sh
# Time every storage x style of r1cs-synth, interleaved round-robin (never
# all runs of one variant back to back, so drifting machine load spreads
# over all variants), and print per variant the minimum and median of
# wall and CPU nanoseconds per row. This is a measurement helper, not a
# test: speed is not asserted anywhere.
#
#   sh workloads/r1cs/timing.sh [BIN] [LABELS] [RUNS]
set -eu
bin=${1:-build/r1cs-synth}
labels=${2:-4}
runs=${3:-5}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

i=0
while [ $i -lt "$runs" ]; do
	for storage in vec pool sv1 sv2 sv4 csr; do
		for style in upstream inplace; do
			"$bin" --storage $storage --style $style --labels "$labels" |
				awk -v v="$storage/$style" '
					/^ns-per-row:/ { w = $2 } /^cpu-ns-per-row:/ { c = $2 }
					/^heap-per-row:/ { h = $2 } /^rows:/ { r = $2 }
					END { print v, w, c, h, r }' >>"$out"
		done
	done
	i=$((i + 1))
done

printf '%-14s %10s %10s %10s %10s  %-10s %s\n' variant wall-min wall-med cpu-min cpu-med heap rows
for v in $(awk '{ print $1 }' "$out" | awk '!seen[$0]++'); do
	w=$(awk -v v="$v" '$1 == v { print $2 }' "$out" | sort -n)
	c=$(awk -v v="$v" '$1 == v { print $3 }' "$out" | sort -n)
	n=$(echo "$w" | wc -l)
	mid=$(( (n + 1) / 2 ))
	printf '%-14s %10s %10s %10s %10s  %-10s %s\n' "$v" \
		"$(echo "$w" | head -n1)" "$(echo "$w" | sed -n "${mid}p")" \
		"$(echo "$c" | head -n1)" "$(echo "$c" | sed -n "${mid}p")" \
		"$(awk -v v="$v" '$1 == v { print $4; exit }' "$out")" \
		"$(awk -v v="$v" '$1 == v { print $5; exit }' "$out")"
done
