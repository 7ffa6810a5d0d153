#!/bin/sh
# Verdicts on real commands (issue 13), not simulated noise: a benchmark, not
# a test — it takes minutes to hours and asserts nothing; it prints a table.
#   A/A: the same `busy N` twice, VERDICTS_AA campaigns (default 20): how
#        often a SLOWER/FASTER is claimed on wall-time and on task-clock;
#   effect: `busy N` against `busy N*1.03` (3% more work), VERDICTS_EFFECT
#        campaigns (default 15): SLOWER (and size uncertain) counts, the
#        wrong way, the runs spent, the median reported ratio;
# each under pmustat compare's default rule followed on every metric of
# VERDICTS_PRIMARY (default "wall-time task-clock", one campaign each), and
# against hyperfine's defaults (all of A, then all of B) with Welch's test,
# p < 0.05, as its scripts/welch_ttest.py does, when hyperfine is installed
# (Debian: hyperfine). VERDICTS_LOAD=1 repeats everything under a load that
# starts VERDICTS_LOAD_DELAY seconds (default 10) into each campaign: one
# busy loop per CPU, killed when the campaign ends.
#   bench/verdicts.sh PMUSTAT BUILD     (BUILD holds busy and jsonq)
# VERDICTS_N (default 5000000, about 0.4 s a run here) sets the size; the
# issue's campaigns used 5000000 against 5150000. A smoke run:
#   VERDICTS_AA=1 VERDICTS_EFFECT=1 VERDICTS_N=300000 bench/verdicts.sh ...
set -eu
PMUSTAT=${1:?usage: bench/verdicts.sh PMUSTAT BUILD}
BUILD=${2:?usage: bench/verdicts.sh PMUSTAT BUILD}
BUSY=$BUILD/busy
JSONQ=$BUILD/jsonq
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
N=${VERDICTS_N:-5000000}
N2=$(( N + N * 3 / 100 ))
AA=${VERDICTS_AA:-20}
EFFECT=${VERDICTS_EFFECT:-15}
PRIMARIES=${VERDICTS_PRIMARY:-wall-time task-clock}
tmp=$(mktemp -d)
loadpids=
cleanup() { for p in $loadpids; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
[ -x "$BUSY" ] && [ -x "$JSONQ" ] || { echo "verdicts: build first (make)" >&2; exit 1; }
have_hf=0
command -v hyperfine >/dev/null 2>&1 && have_hf=1

# Welch's test on two files of numbers: prints "p ratio" (ratio of means B/A).
cat >"$tmp/welch.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include "stats/tests.h"
static size_t load(const char *path, double *x, size_t max)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	while (f && n < max && fscanf(f, "%lf", &x[n]) == 1)
		n++;
	if (f)
		fclose(f);
	return n;
}
int main(int argc, char **argv)
{
	static double a[100000], b[100000];
	struct stats_welch w;
	size_t na, nb;
	double sa = 0, sb = 0;

	if (argc != 3)
		return 2;
	na = load(argv[1], a, 100000);
	nb = load(argv[2], b, 100000);
	for (size_t i = 0; i < na; i++)
		sa += a[i];
	for (size_t i = 0; i < nb; i++)
		sb += b[i];
	stats_welch(a, na, b, nb, 0.95, &w);
	printf("%.6g %.6f\n", w.p, (sb / nb) / (sa / na));
	return 0;
}
EOF
cc -std=c11 -D_GNU_SOURCE -O2 -I"$root/src" -o "$tmp/welch" "$tmp/welch.c" \
	"$BUILD/libpmustat-internal.a" -lm

# field FILE METRIC KEY: a field of METRIC's comparison
field() {
	n=$("$JSONQ" "$1" comparisons.#)
	k=0
	while [ "$k" -lt "$n" ]; do
		if [ "$("$JSONQ" "$1" comparisons.$k.metric)" = "$2" ]; then
			"$JSONQ" "$1" "comparisons.$k.$3"
			return
		fi
		k=$((k + 1))
	done
	echo null
}

load_start() {
	[ "${VERDICTS_LOAD:-0}" = 1 ] || return 0
	for c in $(seq "$(nproc)"); do
		sh -c "sleep ${VERDICTS_LOAD_DELAY:-10}; exec '$BUSY' 1000000000" >/dev/null 2>&1 &
		loadpids="$loadpids $!"
	done
}
load_stop() {
	for p in $loadpids; do kill "$p" 2>/dev/null || true; done
	for p in $loadpids; do wait "$p" 2>/dev/null || true; done
	loadpids=
}

# one_pmustat KIND SEED PRIMARY A B: one campaign; appends
# "kind primary wall-verdict task-verdict runs ratio" to $tmp/rows.
one_pmustat() {
	load_start
	"$PMUSTAT" compare -q --seed "$2" --primary "$3" -m wall-time,task-clock \
		-o "$tmp/c.json" -- "$BUSY" "$4" -- "$BUSY" "$5" >/dev/null 2>&1 || true
	load_stop
	runs=$("$JSONQ" "$tmp/c.json" runs.#)
	echo "$1 $3 $(field "$tmp/c.json" wall-time verdict | tr ' ' _)" \
	     "$(field "$tmp/c.json" task-clock verdict | tr ' ' _) $runs" \
	     "$(field "$tmp/c.json" "$3" ratio)" >>"$tmp/rows"
}

# one_hyperfine KIND A B: hyperfine's defaults, then Welch on the times.
one_hyperfine() {
	load_start
	hyperfine -N --style none --export-json "$tmp/h.json" "$BUSY $2" "$BUSY $3" \
		>/dev/null 2>&1 || true
	load_stop
	for i in 0 1; do
		nt=$("$JSONQ" "$tmp/h.json" results.$i.times.#)
		: >"$tmp/t$i"
		k=0
		while [ "$k" -lt "$nt" ]; do
			"$JSONQ" "$tmp/h.json" results.$i.times.$k >>"$tmp/t$i"
			k=$((k + 1))
		done
	done
	set -- $("$tmp/welch" "$tmp/t0" "$tmp/t1") "$(( $(wc -l <"$tmp/t0") + $(wc -l <"$tmp/t1") ))"
	v=inconclusive
	awk -v p="$1" -v r="$2" 'BEGIN { exit !(p < 0.05 && r > 1) }' && v=slower
	awk -v p="$1" -v r="$2" 'BEGIN { exit !(p < 0.05 && r < 1) }' && v=faster
	echo "$KIND hyperfine $v $v $3 $2" >>"$tmp/rows"
}

: >"$tmp/rows"
seed=1
for KIND in aa effect; do
	reps=$AA; b=$N
	[ $KIND = effect ] && reps=$EFFECT && b=$N2
	for r in $(seq "$reps"); do
		for p in $PRIMARIES; do
			one_pmustat $KIND $seed "$p" "$N" "$b"
		done
		if [ $have_hf = 1 ]; then one_hyperfine $KIND "$N" "$b"; fi
		seed=$((seed + 1))
	done
done

echo "bench/verdicts: busy $N vs busy $N ($AA A/A campaigns) and vs busy $N2" \
     "(+3% work, $EFFECT campaigns)$([ "${VERDICTS_LOAD:-0}" = 1 ] &&
	echo ", a load from ${VERDICTS_LOAD_DELAY:-10} s into each")"
[ $have_hf = 1 ] || echo "  (hyperfine not installed: 'apt-get install hyperfine' adds it)"
printf '  %-22s %-12s %-16s %-20s %-6s %-12s %s\n' rule primary "A/A false" \
	"effect SLOWER(+unsz)" wrong "median runs" "median ratio"
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2); else print "-"}'; }
for who in $PRIMARIES hyperfine; do
	rule="pmustat default"; [ $who = hyperfine ] && rule="hyperfine + Welch"
	grep -q " $who " "$tmp/rows" || continue
	aa=$(awk -v w=$who '$1 == "aa" && $2 == w { n++; f += ($3 ~ /^(slower|faster)$/ || $4 ~ /^(slower|faster)$/) }
		END { printf "%d/%d", f, n }' "$tmp/rows")
	col=3; [ $who = task-clock ] && col=4
	ef=$(awk -v w=$who -v c=$col '$1 == "effect" && $2 == w { n++; s += ($c == "slower");
		u += ($c == "slower_(size_uncertain)") } END { printf "%d/%d (+%d)", s, n, u }' "$tmp/rows")
	wr=$(awk -v w=$who -v c=$col '$1 == "effect" && $2 == w { x += ($c ~ /^faster/) } END { print x + 0 }' "$tmp/rows")
	runs=$(awk -v w=$who '$1 == "effect" && $2 == w { print $5 }' "$tmp/rows" | median)
	ratio=$(awk -v w=$who '$1 == "effect" && $2 == w { print $6 }' "$tmp/rows" | median |
		awk '{ printf ($1 == "-" ? "%s" : "%.4f"), $1 }')
	shown=$who; [ $who = hyperfine ] && shown="wall (A, B)"
	printf '  %-22s %-12s %-16s %-20s %-6s %-12s %s\n' "$rule" "$shown" "$aa" "$ef" "$wr" "$runs" \
		"$ratio"
done
echo "  (A/A false: SLOWER/FASTER on wall-time or task-clock; runs include warm-ups; the ratio is"
echo "   the reported one of the primary metric, hyperfine's the ratio of mean wall times)"
