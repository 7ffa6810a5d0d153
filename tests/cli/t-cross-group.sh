# A ratio metric whose inputs were counted in different groups (different
# runs) is estimated across runs, STATS.md (f) — checked on a constructed
# result (no PMU here) against the T7 reference values:
# I = [1000,1010,990,1005,995]e6, C = [800,820,790,810,780]e6 ->
# R 1.25, se 0.011899645, df 5.248050, CI [1.219840776, 1.280159224].
. "$TESTLIB"

# The metrics of both constructed results: ipc's inputs in groups 0 and 1.
metrics() {
	printf '{"name":"wall-time","unit":"ns","backend":"clock","available":true,"scale":1},'
	printf '{"name":"instructions","unit":"instructions","backend":"perf","available":true,"scale":1,"group":0},'
	printf '{"name":"cycles","unit":"cycles","backend":"perf","available":true,"scale":1,"group":1},'
	printf '{"name":"ipc","unit":"instructions/cycle","backend":"derived","available":true,"scale":1,"formula":"instructions / cycles"}],'
}

run() { # index group metric value
	other=instructions; [ "$3" = instructions ] && other=cycles
	printf '{"index":%d,"variant":0,"block":%d,"position":0,"group":%d,"warmup":false,"start_time":0,"env_pad":0,"status":"ok","exit_code":0,"values":{"wall-time":{"value":1000000},"%s":{"value":%s,"time_enabled":100,"time_running":100},"%s":null,"ipc":null}}' \
		"$1" "$1" "$2" "$3" "$4" "$other"
}
{
	printf '{"schema":"pmustat.result/1","command":"stat","complete":true,"host":{},"options":{},'
	printf '"variants":[{"name":"A","argv":["prog"]}],"metrics":['
	metrics
	printf '"runs":['
	i=0
	for v in 1000 1010 990 1005 995; do run $i 0 instructions "${v}000000"; printf ','; i=$((i+1)); done
	for v in 800 820 790 810; do run $i 1 cycles "${v}000000"; printf ','; i=$((i+1)); done
	run $i 1 cycles 780000000
	printf '],"notes":[]}\n'
} >r.json

run_pm 0 report r.json -o out.json
expect_in out "ipc"
expect_in out "5/5"
expect_in out "never counted in the same run"
i=$(jv out.json summaries.# ); k=0; found=
while [ $k -lt "$i" ]; do
	[ "$(jv out.json summaries.$k.metric)" = ipc ] && found=$k
	k=$((k+1))
done
[ -n "$found" ] || fail "no ipc summary"
c=out.json; p=summaries.$found.cross_group_ratio
awk -v r="$(jv $c $p.ratio)" -v se="$(jv $c $p.se)" -v df="$(jv $c $p.df)" \
    -v lo="$(jv $c $p.ci_low)" -v hi="$(jv $c $p.ci_high)" 'BEGIN {
	ok = (r - 1.25)^2 < 1e-18 && (se - 0.011899645)^2 < 1e-18 && (df - 5.248050)^2 < 1e-12 &&
	     (lo - 1.219840776)^2 < 1e-16 && (hi - 1.280159224)^2 < 1e-16
	exit !ok }' || fail "cross-group ratio $(jv $c $p)"

# A/B: group = block mod 2, both variants of a block on the same group. B
# retires 10% more instructions in the same cycles: ln(R_B/R_A) =
# mean(dY) - mean(dX) = ln 1.1 exactly.
cmp_run() { # index block variant metric value
	other=instructions; [ "$4" = instructions ] && other=cycles
	printf '{"index":%d,"variant":%d,"block":%d,"position":%d,"group":%d,"warmup":false,"start_time":0,"env_pad":0,"status":"ok","exit_code":0,"values":{"wall-time":{"value":1000000},"%s":{"value":%s,"time_enabled":100,"time_running":100},"%s":null,"ipc":null}}' \
		"$1" "$3" "$2" "$3" $(( $2 % 2 )) "$4" "$5" "$other"
}
{
	printf '{"schema":"pmustat.result/1","command":"compare","complete":true,"host":{},"options":{},'
	printf '"variants":[{"name":"A","argv":["a"]},{"name":"B","argv":["b"]}],"metrics":['
	metrics
	printf '"runs":['
	i=0
	for b in 0 1 2 3 4 5 6 7 8 9; do
		base=$((1000 + b * 7 % 13))
		if [ $((b % 2)) = 0 ]; then
			cmp_run $i $b 0 instructions "${base}0000"; printf ','
			cmp_run $((i+1)) $b 1 instructions "$((base * 11))000"
		else
			cmp_run $i $b 0 cycles "${base}0000"; printf ','
			cmp_run $((i+1)) $b 1 cycles "${base}0000"
		fi
		i=$((i+2)); [ $b = 9 ] || printf ','
	done
	printf '],"notes":[],"comparison":{"baseline":"A","noise_band":0.01,"primary":"wall-time"}}\n'
} >c.json
run_pm 0 report c.json -o cout.json
n=$(jv cout.json comparisons.#); k=0; found=
while [ $k -lt "$n" ]; do
	[ "$(jv cout.json comparisons.$k.metric)" = ipc ] && found=$k
	k=$((k+1))
done
[ -n "$found" ] || fail "no ipc comparison"
expect_eq "$(jv cout.json comparisons.$found.method)" cross-group "method"
awk -v r="$(jv cout.json comparisons.$found.ratio)" 'BEGIN { exit !((r - 1.1)^2 < 1e-18) }' ||
	fail "ipc ratio $(jv cout.json comparisons.$found.ratio)"
expect_eq "$(jv cout.json comparisons.$found.verdict)" higher "verdict"
