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
fail() { echo "@@pmu FAIL $1: $2"; [ -f out ] && sed 's/^/    | /' out | tail -25; }
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

nopmu=0
case "$model" in *pmu=off*) nopmu=1 ;; esac

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

for t in driver stat_exact; do
	if [ $nopmu = 1 ] && [ $t != driver ]; then continue; fi
	rm -f out r.json
	t_$t
done
