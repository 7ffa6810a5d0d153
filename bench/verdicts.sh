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
# against hyperfine under its own defaults (through a shell, its own run
# count: at least 10 runs and 3 s per command, all of A, then all of B) with
# Welch's test, p < 0.05, as its scripts/welch_ttest.py does, when hyperfine
# is installed (Debian: hyperfine). Every repetition runs in each scenario
# of VERDICTS_SCENARIOS (default "plain load"): plain as the host is, load
# under a load that starts VERDICTS_LOAD_DELAY seconds (default 10) into each
# campaign, one busy loop per CPU, stopped when the campaign ends.
#   bench/verdicts.sh PMUSTAT BUILD     (BUILD holds busy and jsonq)
# VERDICTS_N (default 5000000, about 0.45 s of CPU a run here) sets the size;
# the issue's campaigns used 5000000 against 5150000. The kinds and the
# scenarios are interleaved and each campaign's row is written as it ends,
# to VERDICTS_ROWS when set (appended to), so a run cut short still has a
# table: VERDICTS_REPORT=1 VERDICTS_ROWS=FILE bench/verdicts.sh ... prints it.
# The table shows the host's load (1-minute load average) beside the figures.
# VERDICTS_SEED (default 1) is the first campaign's seed, each next one +1:
# a run resumed into the same VERDICTS_ROWS takes fresh seeds with it.
# A smoke run:
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
SCENARIOS=${VERDICTS_SCENARIOS:-plain load}
DELAY=${VERDICTS_LOAD_DELAY:-10}
tmp=$(mktemp -d)
ROWS=${VERDICTS_ROWS:-$tmp/rows}
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
	[ "$SCEN" = load ] || return 0
	for c in $(seq "$(nproc)"); do
		sh -c "sleep $DELAY; exec '$BUSY' 1000000000000" >/dev/null 2>&1 &
		loadpids="$loadpids $!"
	done
}
load_stop() {
	for p in $loadpids; do pkill -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done
	for p in $loadpids; do wait "$p" 2>/dev/null || true; done
	loadpids=
}
loadavg() { cut -d' ' -f1 /proc/loadavg; }

# one_pmustat KIND SEED PRIMARY A B: one campaign; appends "scenario kind
# primary wall-verdict task-verdict runs ratio seconds loadavg" and, for a
# wall-time primary, the host noise figures of its JSON (the sd of the
# wall-time and task-clock log ratios, other tasks' share of the CPUs, the
# noise note given: true/false; "-" otherwise) to $ROWS.
one_pmustat() {
	rm -f "$tmp/c.json"
	t0=$(date +%s)
	load_start
	"$PMUSTAT" compare -q --seed "$2" --primary "$3" -m wall-time,task-clock \
		-o "$tmp/c.json" -- "$BUSY" "$4" -- "$BUSY" "$5" >/dev/null 2>"$tmp/err" || true
	load_stop
	if ! [ -s "$tmp/c.json" ]; then
		echo "verdicts: a campaign left no result: $(head -n 1 "$tmp/err")" >&2
		return 0
	fi
	runs=$("$JSONQ" "$tmp/c.json" runs.#)
	noise=null
	[ "$3" = wall-time ] && noise=$(field "$tmp/c.json" wall-time host_noise)
	if [ "$noise" = null ]; then
		noise="- - - -"
	else
		noise=$(for k in spread task_clock_spread other_load_share dominated; do
			field "$tmp/c.json" wall-time host_noise.$k; done | tr '\n' ' ')
	fi
	echo "$SCEN $1 $3 $(field "$tmp/c.json" wall-time verdict | tr ' ' _)" \
	     "$(field "$tmp/c.json" task-clock verdict | tr ' ' _) $runs" \
	     "$(field "$tmp/c.json" "$3" ratio) $(( $(date +%s) - t0 )) $(loadavg) $noise" >>"$ROWS"
}

# one_hyperfine KIND A B: hyperfine exactly as its defaults run (through a
# shell, at least 10 runs and 3 s per command, no warm-up: its own run
# count), then Welch on its times.
one_hyperfine() {
	rm -f "$tmp/h.json"
	t0=$(date +%s)
	load_start
	hyperfine --style none --export-json "$tmp/h.json" "$BUSY $2" "$BUSY $3" \
		>/dev/null 2>&1 || true
	load_stop
	[ -s "$tmp/h.json" ] || { echo "verdicts: hyperfine left no result" >&2; return 0; }
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
	echo "$SCEN $KIND hyperfine $v $v $3 $2 $(( $(date +%s) - t0 )) $(loadavg)" >>"$ROWS"
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2); else print "-"}'; }

# The table of one scenario from the rows.
table() {
	sc=$1
	grep -q "^$sc " "$ROWS" || return 0
	naa=$(awk -v s=$sc '$1 == s && $2 == "aa"' "$ROWS" | awk '{print $3}' | sort | uniq -c |
		awk '{print $1}' | sort -n | tail -n 1)
	nef=$(awk -v s=$sc '$1 == s && $2 == "effect"' "$ROWS" | awk '{print $3}' | sort | uniq -c |
		awk '{print $1}' | sort -n | tail -n 1)
	echo "bench/verdicts [$sc]: busy $N vs busy $N (${naa:-0} A/A campaigns) and vs busy $N2" \
	     "(+3% work, ${nef:-0} campaigns)$([ $sc = load ] &&
		echo ", one busy loop per CPU from ${DELAY} s into each campaign")"
	printf '  %-18s %-12s %-9s %-17s %-5s %-7s %-11s %-8s %-9s %s\n' rule primary "A/A false" \
		"3% SLOWER(+unsz)" wrong "med.run" "runs/hf" "med.ratio" "med.secs" "med.load"
	hfruns=$(awk -v s=$sc '$1 == s && $2 == "effect" && $3 == "hyperfine" { print $6 }' "$ROWS" |
		median)
	for who in $PRIMARIES hyperfine; do
		rule="pmustat default"; [ $who = hyperfine ] && rule="hyperfine + Welch"
		awk -v s=$sc -v w=$who '$1 == s && $3 == w { f = 1 } END { exit !f }' "$ROWS" || continue
		aa=$(awk -v s=$sc -v w=$who '$1 == s && $2 == "aa" && $3 == w { n++;
			f += ($4 ~ /^(slower|faster)$/ || $5 ~ /^(slower|faster)$/) }
			END { printf "%d/%d", f, n }' "$ROWS")
		col=4; [ $who = task-clock ] && col=5
		ef=$(awk -v s=$sc -v w=$who -v c=$col '$1 == s && $2 == "effect" && $3 == w { n++;
			k += ($c == "slower"); u += ($c == "slower_(size_uncertain)") }
			END { printf "%d/%d (+%d)", k, n, u }' "$ROWS")
		wr=$(awk -v s=$sc -v w=$who -v c=$col '$1 == s && $2 == "effect" && $3 == w {
			x += ($c ~ /^faster/) } END { print x + 0 }' "$ROWS")
		sel() { awk -v s=$sc -v w=$who -v f=$1 '$1 == s && $2 == "effect" && $3 == w { print $f }' \
			"$ROWS" | median; }
		runs=$(sel 6)
		rel=$(awk -v a="$runs" -v b="$hfruns" 'BEGIN { if (a == "-" || b == "-" || b == 0)
			print "-"; else printf "%.2fx", a / b }')
		ratio=$(sel 7 | awk '{ printf ($1 == "-" ? "%s" : "%.4f"), $1 }')
		secs=$(sel 8)
		la=$(awk -v s=$sc -v w=$who '$1 == s && $3 == w { print $9 }' "$ROWS" | median)
		shown=$who; [ $who = hyperfine ] && shown="wall (A, B)"
		printf '  %-18s %-12s %-9s %-17s %-5s %-7s %-11s %-8s %-9s %s\n' "$rule" "$shown" "$aa" \
			"$ef" "$wr" "$runs" "$rel" "$ratio" "$secs" "$la"
	done
	awk -v s=$sc '$1 == s && $3 == "wall-time" && NF >= 13 && $10 != "-" { print }' "$ROWS" \
		>"$tmp/noise"
	[ -s "$tmp/noise" ] || return 0
	echo "  host, wall-time campaigns (median): wall-time log ratio sd" \
	     "$(awk '{ print $10 }' "$tmp/noise" | median | awk '{ printf "%.3f", $1 }')," \
	     "task-clock's $(awk '{ print $11 }' "$tmp/noise" | median | awk '{ printf "%.3f", $1 }')," \
	     "other tasks' CPU share $(awk '{ print 100 * $12 }' "$tmp/noise" | median |
		awk '{ printf "%.0f%%", $1 }'), noise note in" \
	     "$(awk '$13 == "true" { k++ } END { printf "%d/%d", k, NR }' "$tmp/noise")"
}

tables() {
	for sc in $SCENARIOS; do table $sc; done
	echo "  (A/A false: SLOWER/FASTER on wall-time or task-clock; runs include warm-ups; runs/hf: the"
	echo "   median runs of the 3% campaigns over hyperfine's on the same pair; the ratio is the"
	echo "   reported one of the primary metric, hyperfine's the ratio of mean wall times; secs and"
	echo "   load: median campaign seconds and the 1-minute load average at its end, $(nproc) CPUs)"
}

if [ "${VERDICTS_REPORT:-0}" = 1 ]; then
	tables
	exit 0
fi

# Repetitions interleave the kinds and the scenarios, so a run cut short
# still holds some of each; every row is written as it is measured.
[ -n "${VERDICTS_ROWS:-}" ] || : >"$ROWS"
seed=${VERDICTS_SEED:-1}
reps=$(( AA > EFFECT ? AA : EFFECT ))
for r in $(seq "$reps"); do
	for SCEN in $SCENARIOS; do
		for KIND in aa effect; do
			if [ $KIND = aa ]; then [ "$r" -le "$AA" ] || continue; b=$N
			else [ "$r" -le "$EFFECT" ] || continue; b=$N2; fi
			for p in $PRIMARIES; do
				one_pmustat $KIND $seed "$p" "$N" "$b"
			done
			if [ $have_hf = 1 ]; then one_hyperfine $KIND "$N" "$b"; fi
			seed=$((seed + 1))
		done
	done
done
[ $have_hf = 1 ] || echo "  (hyperfine not installed: 'apt-get install hyperfine' adds it)"
tables
