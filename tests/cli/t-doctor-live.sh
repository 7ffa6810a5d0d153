# pmustat doctor on this very machine: every check is tried for real. The
# expectations follow what the host exposes, so the test holds on the
# PMU-less development VMs and on a machine with a hardware PMU alike.
. "$TESTLIB"


unset PMUSTAT_SYSFS_ROOT PMUSTAT_PROC_ROOT PMUSTAT_CPU PMUSTAT_UARCH
run_pm 0 doctor
head -1 out | grep -q '^hardware counters: \(ok\|limited\|unavailable\) — ' || fail "no verdict first"
cp out text
run_pm 0 doctor --json
cp out d.json
expect_eq "$(jv d.json schema)" "pmustat.doctor/1" "schema"
expect_eq "$(jv d.json mode)" live "mode"
expect_eq "$(head -1 text)" "$(jv d.json verdict.text)" "text and JSON verdicts"
expect_eq "$(jv d.json cpu.source)" "$(case $(uname -m) in x86_64) echo cpuid;; *) jv d.json cpu.source;; esac)" "cpu source"

# Software events always work outside a sandbox, and the probe says so.
expect_eq "$(doctor_check d.json perf_event_open status)" ok "perf_event_open"
expect_eq "$(doctor_check d.json perf_event_open tried)" tried "perf_event_open tried"
doctor_check d.json perf_event_open probe | grep -q "task-clock.*: ok" || fail "task-clock probe"
case "$(jv d.json verdict.available)" in *'"software events"'*) ;; *) fail "software events not available";; esac

# The core PMU check agrees with sysfs and was tried with 'cycles'.
expect_eq "$(doctor_check d.json core_pmu tried)" tried "core_pmu tried"
doctor_check d.json core_pmu probe | grep -q "'cycles'" || fail "cycles probe"
if has_pmu cpu || has_pmu cpu_core || ls /sys/bus/event_source/devices | grep -q '^armv[89]_'; then
	[ "$(doctor_check d.json core_pmu status)" != unavailable ] || fail "core PMU present but unavailable"
else
	expect_eq "$(doctor_check d.json core_pmu status)" unavailable "core_pmu without a PMU"
	expect_eq "$(jv d.json verdict.hardware_counters)" unavailable "verdict"
	if grep -qw hypervisor /proc/cpuinfo; then
		doctor_check d.json core_pmu summary | grep -q "virtual machine without a virtual PMU" ||
			fail "VM cause"
		doctor_check d.json core_pmu remedy | grep -q "pmu=on" || fail "vPMU remedy"
		expect_eq "$(jv d.json virtualization.virtual_machine)" true "VM"
		expect_in text "virtual machine without a virtual PMU"
	fi
	expect_eq "$(doctor_check d.json rdpmc status)" unavailable "rdpmc without a PMU"
fi
# msr/tsc/ is really opened where the msr PMU exists.
if [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
	expect_eq "$(doctor_check d.json msr status)" ok "msr/tsc"
	doctor_check d.json msr probe | grep -q "'msr/tsc/' on this process: ok" || fail "msr probe"
fi
# uprobes: tried on '/', which root may ask for and the kernel then refuses as a directory.
if [ "$(id -u)" = 0 ] && has_pmu uprobe; then
	expect_eq "$(doctor_check d.json uprobes status)" ok "uprobes as root"
	doctor_check d.json uprobes probe | grep -q "uprobe on '/'.*: ok" || fail "uprobe probe"
fi
# valgrind is looked up in PATH, for real.
if command -v valgrind >/dev/null; then
	expect_eq "$(doctor_check d.json valgrind status)" ok "valgrind found"
else
	expect_eq "$(doctor_check d.json valgrind status)" unavailable "valgrind missing"
fi
# Paranoid comes from the live /proc.
expect_eq "$(jv d.json paranoid)" "$(cat /proc/sys/kernel/perf_event_paranoid)" "paranoid"

# A pretend CPU changes the identity and the uarch, nothing else.
PMUSTAT_CPU=AuthenticAMD-25-17-1 run_pm 0 doctor --json
expect_eq "$(jv out cpu.source)" PMUSTAT_CPU "pretend source"
expect_eq "$(jv out uarch.name)" zen4 "pretend uarch"
expect_eq "$(jv out mode)" live "still live"
# --uarch wins, and the detected uarch stays visible.
PMUSTAT_CPU=AuthenticAMD-25-17-1 run_pm 0 doctor --json --uarch sapphirerapids
expect_eq "$(jv out uarch.name)" sapphirerapids "--uarch"
expect_eq "$(jv out uarch.detected)" zen4 "detected"
expect_eq "$(jv out uarch.source)" "--uarch" "uarch source"
PMUSTAT_CPU=AuthenticAMD-25-17-1 PMUSTAT_UARCH=neoverse-n1 run_pm 0 doctor --json
expect_eq "$(jv out uarch.source)" PMUSTAT_UARCH "uarch from env"
