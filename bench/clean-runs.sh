#!/bin/sh
# Benchmark (not a test): what clean runs cost and what they change. Call
# counters (the LD_PRELOAD shim, uprobes on a static program) and --profile
# sampling now run in runs of their own, never in the timed runs the
# verdicts come from (docs/engine.md, "Clean runs"). Two figures, each side
# by side with BASE, a pmustat built before that change (optional):
#
# 1. cost: the whole campaign's time and its number of runs, for the demo
#    (at BENCH_DEMO_ARGS) and a two-variant compare of vec against csr with
#    -m wall-time,allocs --profile; the ratio NEW / BASE.
# 2. the verdict: the wall-time ratio of csr against vec with its 95%
#    interval, with -m wall-time alone, with allocs (shim; uprobes on the
#    static build) and with --profile, for NEW and for BASE. With clean runs
#    the ratio should not move when allocs or --profile are added; in BASE
#    it did (the mechanism sat in the timed runs).
#
#   bench/clean-runs.sh NEW_PMUSTAT [BASE_PMUSTAT]
#
# BENCH_BLOCKS (default 8) blocks per compare, BENCH_SEED (7), BENCH_WORK
# (default "--labels 1 --blocks 4": the r1cs-synth size). Each campaign is
# run once: the intervals say how sharp each ratio is on this host.
set -eu
NEW=${1:?usage: bench/clean-runs.sh NEW_PMUSTAT [BASE_PMUSTAT]}
BASE=${2:-}
BUILD=$(dirname "$NEW")
BLOCKS=${BENCH_BLOCKS:-8}
SEED=${BENCH_SEED:-7}
WORK=${BENCH_WORK:-"--labels 1 --blocks 4"}
DEMO_ARGS=${BENCH_DEMO_ARGS:-"--labels 1 --sha-blocks 2 --blocks 6 --no-sim --variants vec,csr"}
SYNTH=$BUILD/r1cs-synth
STATIC=$BUILD/r1cs-synth-static
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
jq_() { "$BUILD/jsonq" "$@"; }
# field of the wall-time comparison in a result
wall() {
	i=0
	while [ "$i" -lt 40 ]; do
		m=$(jq_ "$1" "comparisons.$i.metric" 2>/dev/null) || return 0
		if [ "$m" = wall-time ]; then
			jq_ "$1" "comparisons.$i.$2"
			return
		fi
		i=$((i + 1))
	done
}
# timed NAME PMUSTAT COMMAND ARGS...: run, keep the total ns and the run count
timed() {
	name=$1 pm=$2 sub=$3
	shift 3
	t0=$(now)
	"$pm" "$sub" -o "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>&1 ||
		{ echo "  ($name failed:)"; tail -3 "$tmp/$name.out"; }
	t1=$(now)
	echo $((t1 - t0)) >"$tmp/$name.ns"
	jq_ "$tmp/$name.json" runs.# >"$tmp/$name.runs" 2>/dev/null || echo 0 >"$tmp/$name.runs"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
verdict() {
	printf '%-34s %s  %s [%s, %s]  n %s\n' "$1" "$2" \
		"$(printf '%.3f' "$(wall "$3" ratio)")" "$(printf '%.3f' "$(wall "$3" ci_low)")" \
		"$(printf '%.3f' "$(wall "$3" ci_high)")" "$(wall "$3" n)"
}

echo "== 1. cost: campaign time and runs (NEW vs BASE)"
for who in new base; do
	pm=$NEW
	[ "$who" = base ] && { [ -n "$BASE" ] || continue; pm=$BASE; }
	timed "demo-$who" "$pm" demo $DEMO_ARGS --seed "$SEED"
	timed "cmp-$who" "$pm" compare --blocks "$BLOCKS" --seed "$SEED" -m wall-time,allocs --profile=time \
		-- "$SYNTH" --storage vec $WORK -- "$SYNTH" --storage csr $WORK
done
for w in demo cmp; do
	n=$(cat "$tmp/$w-new.ns") r=$(cat "$tmp/$w-new.runs")
	if [ -n "$BASE" ]; then
		b=$(cat "$tmp/$w-base.ns") rb=$(cat "$tmp/$w-base.runs")
		printf '%-5s NEW %6.1f s %4s runs   BASE %6.1f s %4s runs   time ratio %s, runs ratio %s\n' \
			"$w" "$(ratio "$n" 1e9)" "$r" "$(ratio "$b" 1e9)" "$rb" "$(ratio "$n" "$b")" "$(ratio "$r" "$rb")"
	else
		printf '%-5s NEW %6.1f s %4s runs\n' "$w" "$(ratio "$n" 1e9)" "$r"
	fi
done
grep -h "ran in runs of its own" "$tmp/cmp-new.out" | sed 's/^ *- /  NEW: /' || true

echo
echo "== 2. the verdict: csr / vec wall time, 95% interval ($BLOCKS blocks, seed $SEED)"
for who in new base; do
	pm=$NEW
	[ "$who" = base ] && { [ -n "$BASE" ] || continue; pm=$BASE; }
	for cfg in plain allocs static-plain static-allocs profile; do
		prog=$SYNTH m=wall-time extra=
		case $cfg in
		allocs) m=wall-time,allocs ;;
		static-plain) prog=$STATIC ;;
		static-allocs) prog=$STATIC m=wall-time,allocs ;;
		profile) extra=--profile=time ;;
		esac
		[ -x "$prog" ] || continue
		timed "v-$who-$cfg" "$pm" compare --blocks "$BLOCKS" --seed "$SEED" -m "$m" $extra \
			-- "$prog" --storage vec $WORK -- "$prog" --storage csr $WORK
		verdict "$cfg (-m $m $extra)" "$(echo "$who" | tr a-z A-Z)" "$tmp/v-$who-$cfg.json"
	done
done
