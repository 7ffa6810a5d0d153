#!/bin/sh
# Benchmark (not a test): what --profile costs. The same stat campaign of
# the demo workload without --profile and with each --call-graph mode, and
# `perf record -F` at the same rate on the same command (plain, -g, and
# --call-graph dwarf), in rounds (medians), the order of the modes rotated
# from round to round. Three figures:
# - the measured program's wall time (the result's wall-time mean): what
#   sampling does to the measurement itself (target <= 1.05);
# - the measured program's task-clock (its own CPU time: what the sampling
#   interrupts and stack copies add to it, and much less disturbed by other
#   load on the host than wall time);
# - the whole campaign's time per run: what the user waits, symbolization
#   and unwinding in pmustat included.
# BENCH_CMD replaces the command. With BENCH_PAIRS=N, then N pairs of one-run campaigns per mode, without
# and with profiling back to back (the order alternating), paired run by
# run: adjacent runs share the host's state, so this is the sharper figure.
# Ratios are against the campaign without profiling, run side by side:
# the ratio of the medians, and the paired one (each round's campaign with
# profiling against the same round's without, geometric mean of the rounds'
# ratios with a 95% t interval: how sharp the figure is on this host).
set -eu
PMUSTAT=${1:?usage: bench/profile.sh PMUSTAT}
BUILD=$(dirname "$PMUSTAT")
RUNS=${BENCH_PROFILE_RUNS:-5}
ROUNDS=${BENCH_ROUNDS:-3}
RATE=${BENCH_PROFILE_RATE:-999}
PAIRS=${BENCH_PAIRS:-0}
CMD=${BENCH_CMD:-"$BUILD/r1cs-synth --labels 2 --blocks 20"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# campaign NAME ARGS...: one stat campaign; its total time and wall-time mean
campaign() {
	name=$1
	shift
	t0=$(now)
	"$PMUSTAT" stat -q -r "$RUNS" -o "$tmp/$name.json" "$@" -- $CMD >/dev/null 2>&1 || true
	t1=$(now)
	echo $(( t1 - t0 )) >>"$tmp/$name.total"
	"$BUILD/jsonq" "$tmp/$name.json" summaries.0.mean >>"$tmp/$name.wall"
	i=0
	while [ $i -lt 20 ]; do
		if [ "$("$BUILD/jsonq" "$tmp/$name.json" summaries.$i.metric 2>/dev/null)" = task-clock ]; then
			"$BUILD/jsonq" "$tmp/$name.json" summaries.$i.mean >>"$tmp/$name.cpu"
			break
		fi
		i=$((i + 1))
	done
}
have_perf=0
perf record -q -e cpu-clock -F "$RATE" -o "$tmp/p.data" -- /bin/true >/dev/null 2>&1 && have_perf=1
perf_run() {
	name=$1
	shift
	t=0
	for i in $(seq "$RUNS"); do
		t0=$(now)
		perf record -q -e cpu-clock -F "$RATE" "$@" -o "$tmp/p.data" -- $CMD >/dev/null 2>&1 || true
		t1=$(now)
		t=$(( t + t1 - t0 ))
	done
	echo "$t" >>"$tmp/$name.total"
}

modes="none fp dwarf"
# one_mode NAME: the campaign (or perf run) of one mode
one_mode() {
	case $1 in
	plain) campaign plain ;;
	perf) perf_run perf ;;
	perf-g) perf_run perf-g -g ;;
	perf-dwarf) perf_run perf-dwarf --call-graph dwarf ;;
	*) campaign "$1" --profile=time --profile-rate "$RATE" --call-graph "$1" ;;
	esac
}
all="plain $modes"
[ $have_perf = 1 ] && all="$all perf perf-g perf-dwarf"
nall=$(echo $all | wc -w)
# Each round starts one mode later (a rotation: every mode is first, second,
# ... equally often), so that a drift within a round favours none of them.
for round in $(seq "$ROUNDS"); do
	slot=0	# (campaign and perf_run use i)
	while [ $slot -lt "$nall" ]; do
		one_mode "$(echo $all | cut -d' ' -f$(( (slot + round) % nall + 1 )))"
		slot=$((slot + 1))
	done
done
# paired FILE0 FILE1: geometric mean of the per-round ratios FILE1/FILE0
# (one value per line, round by round) and its 95% t interval
paired() {
	paste "$1" "$2" | awk '
	BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ") }
	$1 > 0 && $2 > 0 { x[++n] = log($2 / $1); s += x[n] }
	END {
		if (n < 2) { print "-"; exit }
		m = s / n
		for (i = 1; i <= n; i++) v += (x[i] - m) ^ 2
		h = (n - 1 <= 30 ? t[n - 1] : 2.02) * sqrt(v / (n - 1) / n)
		printf "%.3f [%.3f, %.3f]", exp(m), exp(m - h), exp(m + h)
	}'
}
if [ "$ROUNDS" -gt 0 ]; then
wall0=$(median <"$tmp/plain.wall")
tot0=$(median <"$tmp/plain.total")
echo "--profile at $RATE Hz, $RUNS runs of '$CMD', $ROUNDS rounds (medians), ratios against no profile:"
cpu0=$(median <"$tmp/plain.cpu")
printf '  %-26s %14s %6s %14s %6s %14s %6s\n' "" "program wall" "ratio" "task-clock" "ratio" \
	"campaign/run" "ratio"
printf '  %-26s %11.1f ms %6s %11.1f ms %6s %11.1f ms %6s\n' "without --profile" \
	"$(awk -v a="$wall0" 'BEGIN { print a / 1e6 }')" "" \
	"$(awk -v a="$cpu0" 'BEGIN { print a / 1e6 }')" "" \
	"$(awk -v a="$tot0" -v n="$RUNS" 'BEGIN { print a / n / 1e6 }')" ""
for m in $modes; do
	w=$(median <"$tmp/$m.wall")
	u=$(median <"$tmp/$m.cpu")
	t=$(median <"$tmp/$m.total")
	awk -v m="--profile --call-graph $m" -v w="$w" -v w0="$wall0" -v u="$u" -v u0="$cpu0" \
		-v t="$t" -v t0="$tot0" -v n="$RUNS" 'BEGIN {
		printf "  %-26s %11.1f ms %6.3f %11.1f ms %6.3f %11.1f ms %6.3f\n", m, w / 1e6, w / w0,
			u / 1e6, u / u0, t / n / 1e6, t / t0 }'
done
echo "paired per round (geometric mean of the rounds' ratios, 95% interval):"
printf '  %-30s %-26s %-26s %-26s\n' "" "program wall" "task-clock" "campaign/run"
for m in $modes; do
	printf '  %-30s %-26s %-26s %-26s\n' "--profile --call-graph $m" \
		"$(paired "$tmp/plain.wall" "$tmp/$m.wall")" "$(paired "$tmp/plain.cpu" "$tmp/$m.cpu")" \
		"$(paired "$tmp/plain.total" "$tmp/$m.total")"
done
if [ $have_perf = 1 ]; then
	for p in perf perf-g perf-dwarf; do
		printf '  %-30s %-26s %-26s %-26s\n' "$p" "-" "-" "$(paired "$tmp/plain.total" "$tmp/$p.total")"
	done
	for p in perf perf-g perf-dwarf; do
		t=$(median <"$tmp/$p.total")
		case $p in
		perf) label="perf record -F" ;;
		perf-g) label="perf record -F -g" ;;
		*) label="perf record --call-graph dwarf" ;;
		esac
		awk -v m="$label" -v t="$t" -v t0="$tot0" -v n="$RUNS" 'BEGIN {
			printf "  %-26s %14s %6s %14s %6s %11.1f ms %6.3f\n", m, "-", "", "-", "", t / n / 1e6, t / t0 }'
	done
	echo "  (perf writes every sample to a file; its dwarf mode copies 8 KiB of stack per sample)"
fi
fi
if [ "$PAIRS" -gt 0 ]; then
	RUNS=1
	for m in $modes; do
		p=1
		while [ $p -le "$PAIRS" ]; do
			if [ $((p % 2)) = 1 ]; then
				campaign "pp-plain-$m"
				campaign "pp-$m" --profile=time --profile-rate "$RATE" --call-graph "$m"
			else
				campaign "pp-$m" --profile=time --profile-rate "$RATE" --call-graph "$m"
				campaign "pp-plain-$m"
			fi
			p=$((p + 1))
		done
	done
	echo "$PAIRS pairs of one-run campaigns per mode, back to back (geometric mean of the pairs' ratios, 95% interval):"
	printf '  %-30s %-26s %-26s\n' "" "program wall" "task-clock"
	for m in $modes; do
		printf '  %-30s %-26s %-26s\n' "--profile --call-graph $m" \
			"$(paired "$tmp/pp-plain-$m.wall" "$tmp/pp-$m.wall")" \
			"$(paired "$tmp/pp-plain-$m.cpu" "$tmp/pp-$m.cpu")"
	done
fi
