#!/bin/sh
# The tests run inside the emulated arm64 guest (tests/pmu/run.sh boots it):
# every answer they assert is exact, because with one vCPU and -icount the
# emulated PMU's INST_RETIRED counts exactly the instructions executed and
# CPU_CYCLES is 2^shift times that. Each test prints one line
#   @@pmu PASS|FAIL|SKIP NAME: detail
# which the host turns into its PASS/FAIL/SKIP lines; the measured counts are
# in the details, so that the CI log shows them.
#
# Usage (by /init): guest.sh CPU-MODEL ICOUNT-SHIFT
set -u
model=$1 shift_=$2
P=/pmu/pmustat
Q=/pmu/jsonq

pass() { echo "@@pmu PASS $1: $2"; }
fail() { n=$1; shift; echo "@@pmu FAIL $n: $*"; [ -f out ] && tail -25 out | sed 's/^/    | /'; }
skip() { echo "@@pmu SKIP $1: $2"; }
# asmloop's user instructions, from its code (asmloop.S): 2N + 5d + 9
asm_count() { echo $((2 * $1 + 5 * ${#1} + 9)); }
# every run's value of METRIC in result FILE, one per line
run_values() {
	i=0
	while v=$($Q "$1" "runs.$i.values.$2.value" 2>/dev/null); do
		echo "$v"; i=$((i + 1))
	done
}
# all_equal FILE METRIC WANT: every run counted exactly WANT (and there were runs)
all_equal() {
	vals=$(run_values "$1" "$2")
	[ -n "$vals" ] && [ -z "$(echo "$vals" | grep -vx "$3")" ]
}

# ---- the kernel's PMU driver -------------------------------------------
t_driver() {
	line=$(dmesg | grep 'hw perfevents' | head -1)
	if [ $nopmu = 1 ]; then
		[ -z "$line" ] && [ ! -d /sys/bus/event_source/devices/armv8_pmuv3 ] &&
			pass driver "no PMU driver bound, as configured (pmu=off)" ||
			fail driver "a PMU with pmu=off: $line"
		return
	fi
	case "$line" in
	*"armv8_pmuv3 PMU driver, "*" counters available"*) pass driver "${line#*] }" ;;
	*) fail driver "no armv8_pmuv3 line in dmesg: '$line'" ;;
	esac
}

# ---- defect 3: no PMU by the VM's configuration, not the kernel's fault ------
t_doctor_nopmu() {
	$P doctor >out 2>&1
	line=$(grep ' core_pmu ' out | sed 's/^ *//')
	case "$line" in
	*"no hardware PMU: virtual machine without a virtual PMU (QEMU virt machine)"*)
		if grep -q "newer kernel" out; then
			fail doctor-nopmu "still advises a newer kernel"
		else
			pass doctor-nopmu "$line; fix: $(grep -A2 ' core_pmu ' out | sed -n 's/.*fix: *//p')"
		fi ;;
	*) fail doctor-nopmu "want the VM's configuration blamed, got: $line" ;;
	esac
}

# ---- exact instruction counts through stat -e ---------------------------
t_stat_exact() {
	n=1000000 want=$(asm_count 1000000)
	$P stat -r 3 -e instructions:u -o r.json -- /pmu/asmloop $n >out 2>&1 ||
		{ fail stat-e-exact "pmustat stat exited $?"; return; }
	if all_equal r.json instructions:u "$want"; then
		pass stat-e-exact "instructions:u of asmloop $n = $want = 2n+5d+9 in each of 3 runs"
	else
		fail stat-e-exact "want $want in every run, got: $(run_values r.json instructions:u | tr '\n' ' ')"
	fi
}

# ---- children: counted exactly, through the counters they inherit ------
# forkrun forks and execs asmloop in the child; its own user instructions are
# 25 by its code (forkrun.S: 17 in the parent, 8 in the child before its
# exec). Every run counts 25 + 2N + 5d + 9: the child's loop is counted, to
# the instruction, through the counters it inherits.
t_children_exact() {
	n1=1000000 n2=3000000
	$P stat -r 2 -e instructions:u -o c1.json -- /pmu/forkrun /pmu/asmloop $n1 >out 2>&1 &&
	$P stat -r 2 -e instructions:u -o c2.json -- /pmu/forkrun /pmu/asmloop $n2 >>out 2>&1 ||
		{ fail children-exact "pmustat stat exited $?"; return; }
	v1=$(run_values c1.json instructions:u | head -1)
	v2=$(run_values c2.json instructions:u | head -1)
	k=$(( ${v1:-0} - $(asm_count $n1) ))
	if all_equal c1.json instructions:u "$v1" && all_equal c2.json instructions:u "$v2" &&
	   [ $((v2 - v1)) = $((2 * (n2 - n1))) ] && [ $k = 25 ]; then
		pass children-exact "forkrun asmloop N: $v1 (N=$n1), $v2 (N=$n2): the child's 2N+5d+9 plus forkrun's own $k, in every run"
	else
		fail children-exact "want 25 + 2N+5d+9 in every run, $((2 * (n2 - n1))) apart; got" \
			"$(run_values c1.json instructions:u | tr '\n' ' ')/ $(run_values c2.json instructions:u | tr '\n' ' ')"
	fi
}

# ---- -m instructions, as a user whose kernel side is excluded ----------
# Root counts the kernel too (exec, faults): not exact. A user without
# CAP_PERFMON under perf_event_paranoid=2 counts its user space only.
t_stat_m_exact() {
	n=1000000 want=$(asm_count 1000000)
	runas $P stat -r 2 -m instructions -o m.json -- /pmu/asmloop $n >out 2>&1 ||
		{ fail stat-m-exact "pmustat stat exited $?"; return; }
	if all_equal m.json instructions "$want"; then
		pass stat-m-exact "-m instructions (user only, as nobody) of asmloop $n = $want in each of 2 runs"
	else
		fail stat-m-exact "want $want in every run, got: $(run_values m.json instructions | tr '\n' ' ')"
	fi
}

# ---- ipc: CPU_CYCLES is 2^shift x INST_RETIRED under -icount shift=N ----
t_ipc() {
	n=1000000 want=$(asm_count 1000000)
	cyc=$((want << shift_))
	runas $P stat -r 2 -m ipc,instructions,cycles -o i.json -- /pmu/asmloop $n >out 2>&1 ||
		{ fail ipc "pmustat stat exited $?"; return; }
	ipc=$($Q i.json runs.0.values.ipc.value)
	if all_equal i.json instructions "$want" && all_equal i.json cycles "$cyc" &&
	   awk -v v="$ipc" -v p=$((1 << shift_)) 'BEGIN { exit !(v * p == 1) }'; then
		pass ipc "-icount shift=$shift_: cycles $cyc = 2^$shift_ x instructions $want, ipc $ipc"
	else
		fail ipc "want cycles $cyc = 2^$shift_ x $want and ipc 1/2^$shift_, got instructions" \
			"$(run_values i.json instructions | tr '\n' ' ')cycles $(run_values i.json cycles | tr '\n' ' ')ipc $ipc"
	fi
}

# ---- a count past 2^32: the 32-bit event counters overflow into the kernel's 64-bit sum
t_past_2_32() {
	n=2147483700 want=$(asm_count 2147483700)
	$P stat -r 1 -e instructions:u -o p.json -- /pmu/asmloop $n >out 2>&1 ||
		{ fail past-2^32 "pmustat stat exited $?"; return; }
	if all_equal p.json instructions:u "$want" && [ "$want" -gt 4294967296 ]; then
		pass past-2^32 "instructions:u of asmloop $n = $want (> 2^32 = 4294967296)"
	else
		fail past-2^32 "want $want, got $(run_values p.json instructions:u)"
	fi
}

# ---- region markers: b - a = 2 (N2 - N1) exactly; the markers' own cost constant
# regions NAME READ-PATH: the markers read counters by READ-PATH (read, mrs)
regions() {
	n1=1000 n2=3000
	$P stat -r 3 -e instructions:u -o g.json -- /pmu/regionloop $n1 $n2 >out 2>&1 ||
		{ fail $1 "pmustat stat exited $?"; return; }
	a=$(run_values g.json a:instructions:u | tr '\n' ' ')
	b=$(run_values g.json b:instructions:u | tr '\n' ' ')
	e=$(run_values g.json empty:instructions:u | sort -u)
	ok=1 i=0
	for x in $a; do
		y=$(echo "$b" | cut -d' ' -f$((i + 1)))
		[ $((y - x)) = $((2 * (n2 - n1))) ] || ok=0
		i=$((i + 1))
	done
	if [ $i = 3 ] && [ $ok = 1 ] && [ "$(echo "$e" | wc -l)" = 1 ] && [ -n "$e" ]; then
		pass $1 "b - a = $((2 * (n2 - n1))) = 2 (N2 - N1) in each of 3 runs (a: $a; b: $b); enter+exit of an empty region = $e instructions in every run, counters read by $2"
	else
		fail $1 "want b - a = $((2 * (n2 - n1))) and one empty-region count; a: $a b: $b empty: $(echo $e)"
	fi
}
# read_path: how the region library read its counter (its own report)
read_path() {
	PMUSTAT_EVENTS=instructions:u PMUSTAT_OUTPUT=/tmp/reg.json /pmu/regionloop 10 20
	grep -o '"read":"[a-z]*"' /tmp/reg.json | head -1 | cut -d'"' -f4
}
t_regions() {
	sysctl -qw kernel.perf_user_access=0
	p=$(read_path)
	[ "$p" = read ] || { fail regions "perf_user_access=0, yet the library read by '$p'"; return; }
	regions regions "read() (perf_user_access=0)"
}

# ---- defect 2: user-space reads on arm64 (config1 bit 1, mrs) -------------
t_user_read() {
	sysctl -qw kernel.perf_user_access=1
	$P doctor >out 2>&1
	line=$(grep -A3 ' rdpmc ' out | tr -s ' ' | tr '\n' ' ')
	p=$(read_path)
	case "$line" in
	*"ok rdpmc user-space counter reads allowed (perf_user_access=1)"*"cap_user_rdpmc=1, index "[1-9]*) ;;
	*) fail user-read "doctor: want rdpmc ok with cap_user_rdpmc=1, got: $line"
	   sysctl -qw kernel.perf_user_access=0; return ;;
	esac
	if [ "$p" != rdpmc ]; then
		fail user-read "perf_user_access=1, yet the region library read by '$p'"
	else
		pass user-read "doctor: $line; the region library reads with mrs (its report: read rdpmc)"
		regions regions-mrs "mrs (perf_user_access=1)"
	fi
	sysctl -qw kernel.perf_user_access=0
}

# ---- compare: an exact HIGHER with the exact ratio ----------------------
# cmp_field FILE METRIC FIELD: FIELD of the comparison of METRIC
cmp_field() {
	i=0
	while m=$($Q "$1" "comparisons.$i.metric" 2>/dev/null); do
		[ "$m" = "$2" ] && { $Q "$1" "comparisons.$i.$3"; return; }
		i=$((i + 1))
	done
	return 1
}
t_compare() {
	wa=$(asm_count 1000000) wb=$(asm_count 2000000)
	$P compare --blocks 3 -e instructions:u -o c.json -- /pmu/asmloop 1000000 -- /pmu/asmloop 2000000 \
		>out 2>&1 || { fail compare "pmustat compare exited $?"; return; }
	v=$(cmp_field c.json instructions:u verdict) r=$(cmp_field c.json instructions:u ratio)
	if [ "$v" = higher ] && awk -v r="$r" -v a="$wa" -v b="$wb" \
		'BEGIN { w = b / a; d = r - w; if (d < 0) d = -d; exit !(d <= 1e-12 * w) }'; then
		pass compare "instructions:u B/A = $r = $wb/$wa (to 1e-12), verdict $v, 3 blocks"
	else
		fail compare "want higher, ratio $wb/$wa; got '$v', ratio $r"
	fi
}

# ---- capacity: 6 event counters + the cycle counter ----------------------
# ev7: cycles (the cycle counter) and 6 events for the 6 event counters; ev9
# two more, so the plan needs a second group, rotated across runs.
EV7=cycles:u,instructions:u,r08:k,r11:k,r23:u,r24:u,r10:u
EV9=$EV7,r12:u,r13:u
# unscaled FILE: every counted value ran its whole run (time_running = time_enabled)
unscaled() {
	tr -d ' \n' <"$1" | grep -o '"time_enabled":[0-9]*,"time_running":[0-9]*' |
		awk -F'[:,]' '$2 != $4 { bad++ } END { exit bad > 0 || NR == 0 }'
}
t_capacity() {
	$P stat -r 2 -e "$EV7" -o k7.json -- /pmu/asmloop 1000 >out 2>&1 ||
		{ fail capacity "7 events: pmustat stat exited $?"; return; }
	g7=$($P stat --dry-run -e "$EV7" -- /pmu/asmloop 1000 2>&1 | grep '^counter plan')
	$P stat -r 4 -e "$EV9" -o k9.json -- /pmu/asmloop 1000 >>out 2>&1 ||
		{ fail capacity "9 events: pmustat stat exited $?"; return; }
	g9=$($P stat --dry-run -e "$EV9" -- /pmu/asmloop 1000 2>&1 | grep '^counter plan')
	groups=$(for i in 0 1 2 3; do $Q k9.json runs.$i.group; done | tr '\n' ' ')
	want=$(asm_count 1000)
	case "$g7" in *"1 group"*) ;; *) $P stat --dry-run -e "$EV7" -- /pmu/asmloop 1000 >out 2>&1
		fail capacity "7 events not one group: $g7"; return ;; esac
	case "$g9" in *"2 groups"*) ;; *) fail capacity "9 events not two groups: $g9"; return ;; esac
	if [ "$groups" = "0 1 0 1 " ] && unscaled k7.json && unscaled k9.json &&
	   all_equal k7.json instructions:u "$want" && all_equal k9.json instructions:u "$want"; then
		pass capacity "7 events: '$g7'; 9 events: '$g9', runs in groups $groups; every count unscaled (time_running = time_enabled), instructions:u = $want in every run"
	else
		fail capacity "groups '$groups' (want 0 1 0 1), unscaled: $(unscaled k7.json && unscaled k9.json && echo yes || echo no)"
	fi
}

# ---- doctor states the counter count and its source (the kernel shows none
# in sysfs on arm64): the uarch's data, and the kernel's boot line, whose
# count it must equal (the boot line says 7 = 6 + the cycle counter)
t_doctor_counters() {
	$P doctor >out 2>&1
	line=$(grep ' core_pmu ' out | sed 's/^ *//')
	n=$(dmesg | sed -n 's/.*PMU driver, \([0-9]*\) counters available.*/\1/p' | head -1)
	case "$model:$line" in
	neoverse-n1:*"6 event counters + the cycle counter (pmustat's data for neoverse-n1: Neoverse N1 TRM; the kernel's boot log agrees: $n counters available)"*)
		pass doctor-counters "$line" ;;
	neoverse-n1:*) fail doctor-counters "want the data's 6 + the cycle counter and the boot log's $n, got: $line" ;;
	*:*", $n counters available, the cycle counter included (the kernel's boot log)"*)
		pass doctor-counters "$line" ;;
	*) fail doctor-counters "want the boot log's $n counters, got: $line" ;;
	esac
}

# ---- doctor's live verdict -----------------------------------------------
t_doctor_live() {
	$P doctor >out 2>&1
	line=$(grep ' core_pmu ' out | sed 's/^ *//')
	case "$line" in
	ok*"core PMU 'armv8_pmuv3' (type "*"multiplexing every "*" ms"*)
		pass doctor-live "$line" ;;
	*) fail doctor-live "want an ok core_pmu line naming armv8_pmuv3 and its multiplexing interval, got: $line" ;;
	esac
}

# ---- defect 6: ten events with nmi_watchdog=0, -e only, counted for real
t_ten_events() {
	ev=r08,r11,r08:u,r11:u,instructions,cycles,instructions:u,cycles:u,r08:k,r11:k
	want=$(asm_count 1000)
	if $P stat -r 2 -e $ev -o t.json -- /pmu/asmloop 1000 >out 2>&1 &&
	   all_equal t.json instructions:u "$want" && unscaled t.json; then
		pass ten-events "$ev: counted in 2 rotated groups, unscaled, instructions:u = $want (nmi_watchdog=$(cat /proc/sys/kernel/nmi_watchdog))"
	else
		fail ten-events "the ten-event list was refused or scaled"
	fi
}

# ---- defect 4: honest about what this PMU implements ---------------------
t_zero_note() {
	$P stat -r 2 -e r10:u -o z.json -- /pmu/asmloop 1000 >out 2>&1 ||
		{ fail zero-note "pmustat stat exited $?"; return; }
	if grep -q "r10:u: counted 0 in every run: this PMU may not implement it" out; then
		pass zero-note "r10:u (BR_MIS_PRED, not in events/) read 0 in every run, noted: $($Q z.json runs.0.values.r10:u)"
	else
		fail zero-note "no 'counted 0 in every run' note for r10:u: $($Q z.json runs.0.values.r10:u)"
	fi
}
# A group member listed before its leader (-e r10:u,instructions:u: the
# anchor instructions:u leads) is opened after it and counts: it was opened
# first, with group_fd 0, and got EBADF: no value, "no usable runs", no
# reason. Now every run has r10:u's count (0: the zero note) and the exact
# instructions. (A counter that still gets no value says why: tested on a
# constructed case, tests/unit/test_missing_values.c.)
t_group_member() {
	want=$(asm_count 1000)
	$P stat -r 2 -e r10:u,instructions:u -o n.json -- /pmu/asmloop 1000 >out 2>&1 ||
		{ fail group-member "pmustat stat exited $?"; return; }
	if all_equal n.json r10:u 0 && all_equal n.json instructions:u "$want" &&
	   grep -q "r10:u: counted 0 in every run" out && ! grep -q "no value from run" out; then
		pass group-member "r10:u listed before its group's leader instructions:u: counted (0) in each of 2 runs, instructions:u = $want"
	else
		fail group-member "want r10:u = 0 and instructions:u = $want in every run, got r10:u $(run_values n.json r10:u | tr '\n' ' ')instructions:u $(run_values n.json instructions:u | tr '\n' ' ')"
	fi
}
t_list_live() {
	$P list >out 2>&1
	yes=$(grep -E '^  [a-z0-9-]+ +yes ' out | awk '{print $1}' | grep -v -e task-clock -e page-faults \
		-e context-switches -e cpu-migrations | tr '\n' ' ')
	$P stat -r 2 -m default -- /pmu/asmloop 1000 >>out 2>&1
	if grep -q "not supported on PMU 'cpu'" out; then
		fail list "a row dropped with only \"not supported on PMU 'cpu'\""
	elif grep -E '^  (branches|branch-misses|l1d-misses) +yes' out >/dev/null; then
		fail list "branch or cache events listed as countable"
	else
		pass list "hardware metrics countable here: $yes; branches and branch-misses: not implemented by this PMU (said so)"
	fi
}

# ---- --profile on the hardware cycles event --------------------------------
# A sample every PERIOD user cycles of asmloop would give floor(cycles /
# PERIOD) samples per run, but QEMU 7.2 (under -icount) delivers the PMU's
# overflow interrupt only at the next timer tick, on cycles as on
# instructions (measured: 6 samples for 20 periods of 1,000,000 cycles): the
# exact count is not asserted, and a skip line says so. What holds: every
# run sampled on the hardware cycles event, at the fixed period, with at
# least one sample, user space only.
t_profile() {
	n=10000000 period=1000000
	cyc=$(($(asm_count $n) << shift_))
	runas $P stat -r 2 --profile=time --profile-timed --profile-period $period --call-graph none -o pr.json \
		-- /pmu/asmloop $n >out 2>&1 || { fail profile "pmustat stat exited $?"; return; }
	got=$(run_values pr.json profile:samples | tr '\n' ' ')
	if grep -q "sampled on cycles every $period cycles" out &&
	   [ -z "$(run_values pr.json profile:samples | grep -vx '[1-9][0-9]*')" ] && [ -n "$got" ]; then
		pass profile "sampled on the hardware cycles event every $period cycles: $got samples per run ($((cyc / period)) periods)"
		skip profile-exact "QEMU 7.2 raises the PMU overflow interrupt only at the next timer tick: $got samples for $((cyc / period)) periods"
	else
		fail profile "want samples on cycles every $period in every run, got: $got"
	fi
}

nopmu=0
case "$model" in *pmu=off*) nopmu=1 ;; esac
shift 2
if [ $# = 0 ]; then
	case "$model" in
	neoverse-n1) set -- driver stat_exact children_exact stat_m_exact ipc past_2_32 regions \
		user_read compare capacity doctor_live doctor_counters ten_events zero_note group_member \
		list_live profile ;;
	*pmu=off*) set -- driver doctor_nopmu ;;
	*) set -- driver stat_exact stat_m_exact ipc list_live doctor_counters ;;
	esac
fi
sysctl -qw kernel.perf_event_paranoid=2
for t; do
	rm -f out ./*.json
	t_$t
done
