# pmustat doctor on recorded and constructed machines (tests/fixtures): the
# verdict, the uarch, and each gap's cause and fix, per machine. In recorded
# mode nothing may be tried: this machine's kernel says nothing about them.
. "$TESTLIB"


# doctor_on NAME [ENV...]: run doctor on fixture NAME, text in NAME.txt,
# JSON in NAME.json; assert the recorded-mode invariants.
doctor_on() {
	name=$1; shift
	env PMUSTAT_SYSFS_ROOT="$FIXTURES/$name/sys" PMUSTAT_PROC_ROOT="$FIXTURES/$name/proc" \
		"$@" "$PMUSTAT" doctor >"$name.txt" 2>err || fail "doctor on $name: $(cat err)"
	env PMUSTAT_SYSFS_ROOT="$FIXTURES/$name/sys" PMUSTAT_PROC_ROOT="$FIXTURES/$name/proc" \
		"$@" "$PMUSTAT" doctor --json >"$name.json" 2>err || fail "doctor --json on $name"
	expect_eq "$(jv $name.json mode)" recorded "$name: mode"
	expect_eq "$(head -1 $name.txt)" "$(jv $name.json verdict.text)" "$name: text = JSON verdict"
	expect_in "$name.txt" "probes   not tried: recorded machine"
	n=$(jv $name.json checks.#)
	i=0
	while [ "$i" -lt "$n" ]; do
		[ "$(jv $name.json checks.$i.tried)" != tried ] || fail "$name: check $i was tried"
		i=$((i + 1))
	done
}

unset PMUSTAT_CPU PMUSTAT_UARCH

# The DESIGN.md host, uncore loaded (the issue's own example command).
doctor_on zen4 PMUSTAT_CPU=AuthenticAMD-25-17-1
expect_eq "$(jv zen4.json uarch.name)" zen4 "zen4 uarch"
expect_eq "$(jv zen4.json uarch.exact)" true "zen4 exact"
expect_eq "$(head -1 zen4.txt)" "hardware counters: limited — core PMU 'cpu', uarch zen4; user space only (perf_event_paranoid=2); available: software events, msr/tsc" "zen4 verdict"
expect_eq "$(doctor_check zen4.json amd_l3 status)" limited "amd_l3 needs paranoid 0"
doctor_check zen4.json amd_l3 summary | grep -q "system-wide only, CPUs 0" || fail "amd_l3 scope"
doctor_check zen4.json amd_l3 remedy | grep -q "perf_event_paranoid=0" || fail "amd_l3 remedy"
expect_eq "$(doctor_check zen4.json amd_umc status)" unavailable "amd_umc absent"
doctor_check zen4.json amd_umc cause | grep -q "'amd_l3' is there.*Linux 6.7" || fail "amd_umc cause"
expect_eq "$(doctor_check zen4.json core_pmu status)" ok "zen4 core PMU"
expect_eq "$(doctor_check zen4.json perf_event_open tried)" recorded "zen4 not tried"
doctor_check zen4.json perf_event_open probe | grep -q "not tried: recorded machine" || fail "not tried text"

# Same host without amd_uncore: the war story's missing L3 counters.
doctor_on zen4-no-uncore
expect_eq "$(doctor_check zen4-no-uncore.json amd_l3 status)" unavailable "amd_l3 missing"
expect_eq "$(doctor_check zen4-no-uncore.json amd_l3 remedy)" "'sudo modprobe amd_uncore' (and list it in /etc/modules-load.d/ to keep it)" "modprobe"
doctor_check zen4-no-uncore.json amd_l3 cause | grep -q "module 'amd_uncore' is not loaded" || fail "cause"
expect_in zen4-no-uncore.txt "fix:   'sudo modprobe amd_uncore'"

# This VM, recorded with record-doctor.sh: the clocksource names KVM.
doctor_on kvm-guest
expect_eq "$(head -1 kvm-guest.txt)" "hardware counters: unavailable — virtual machine without a virtual PMU (KVM); available: software events, msr/tsc" "kvm verdict"
expect_eq "$(jv kvm-guest.json virtualization.hypervisor)" KVM "hypervisor"
case "$(jv kvm-guest.json virtualization.evidence)" in *"clocksource kvm-clock"*) ;; *) fail "evidence";; esac
doctor_check kvm-guest.json core_pmu remedy | grep -q "'-cpu host,pmu=on'" || fail "vPMU remedy"
doctor_check kvm-guest.json amd_l3 cause | grep -q "hypervisors do not pass uncore" || fail "VM uncore cause"
expect_eq "$(doctor_check kvm-guest.json rdpmc status)" unavailable "no rdpmc without PMU"
expect_eq "$(doctor_check kvm-guest.json nmi_watchdog summary)" "off: every hardware counter is free" "nmi"
expect_eq "$(jv kvm-guest.json uarch.name)" zen5 "dev VM uarch"

# The older recording has no clocksource: a VM, hypervisor unknown.
doctor_on vm-nopmu
expect_eq "$(jv vm-nopmu.json virtualization.hypervisor)" "unknown hypervisor" "no clocksource"

# Sapphire Rapids server: uncore present, watchdog and turbo as noise.
doctor_on spr
expect_eq "$(jv spr.json uarch.name)" sapphirerapids "spr uarch"
expect_eq "$(jv spr.json virtualization.virtual_machine)" false "bare metal"
expect_eq "$(doctor_check spr.json uncore_imc status)" limited "imc"
doctor_check spr.json uncore_imc summary | grep -q "'uncore_imc_0' and 1 more" || fail "imc count"
expect_eq "$(doctor_check spr.json nmi_watchdog status)" limited "watchdog holds a counter"
expect_eq "$(doctor_check spr.json nmi_watchdog remedy)" "'sudo sysctl kernel.nmi_watchdog=0' while measuring (=1 restores it)" "watchdog fix"
expect_eq "$(doctor_check spr.json turbo status)" limited "turbo"
expect_eq "$(doctor_check spr.json governor status)" ok "performance governor"
expect_eq "$(doctor_check spr.json rdpmc status)" ok "rdpmc=1"
expect_eq "$(jv spr.json pmus.#)" 11 "spr PMUs"

# Alder Lake: two core PMUs, the alderlake catalogue (both core types).
doctor_on adl-hybrid
expect_eq "$(jv adl-hybrid.json uarch.name)" alderlake "adl uarch"
expect_eq "$(jv adl-hybrid.json uarch.perf)" alderlake "perf name"
doctor_check adl-hybrid.json hybrid cause | grep -q "NAME.cpu_core, NAME.cpu_atom" || fail "hybrid parts named"
expect_eq "$(doctor_check adl-hybrid.json hybrid status)" limited "hybrid"
doctor_check adl-hybrid.json hybrid summary | grep -q "cpu_core (P-cores, CPUs 0-15) and cpu_atom (E-cores, CPUs 16-23)" || fail "hybrid cpus"
doctor_check adl-hybrid.json core_pmu summary | grep -q "core PMU 'cpu_core' (type 4) and 1 more" || fail "core pmu"
expect_eq "$(jv adl-hybrid.json cpu.perfmon.hybrid)" true "hybrid flag"
expect_eq "$(doctor_check adl-hybrid.json governor status)" limited "powersave"

# Arm Neoverse N1: the MIDR from sysfs, perf_user_access for rdpmc.
doctor_on neoverse-n1
expect_eq "$(jv neoverse-n1.json cpu.arch)" arm64 "arch"
expect_eq "$(jv neoverse-n1.json cpu.midr)" 0x413fd0c1 "midr"
expect_eq "$(jv neoverse-n1.json cpu.source)" "sysfs midr_el1" "midr source"
expect_eq "$(jv neoverse-n1.json uarch.name)" neoverse-n1 "n1 uarch"
doctor_check neoverse-n1.json core_pmu summary | grep -q "armv8_pmuv3_0" || fail "arm core PMU"
expect_eq "$(doctor_check neoverse-n1.json rdpmc status)" limited "perf_user_access=0"
expect_eq "$(doctor_check neoverse-n1.json rdpmc remedy)" "'sudo sysctl kernel.perf_user_access=1'" "arm rdpmc fix"
expect_not_in neoverse-n1.txt "msr"

# A guest with a vPMU but paranoid 3: nothing opens for a normal user.
doctor_on vm-paranoid3
expect_eq "$(doctor_check vm-paranoid3.json perf_event_open status)" unavailable "paranoid 3"
doctor_check vm-paranoid3.json perf_event_open remedy | grep -q "perf_event_paranoid=2" || fail "paranoid fix"
expect_eq "$(jv vm-paranoid3.json verdict.reason)" "perf_event_open is forbidden to unprivileged users (perf_event_paranoid=3)" "reason"
expect_eq "$(doctor_check vm-paranoid3.json msr status)" unavailable "msr needs the syscall"
expect_eq "$(doctor_check vm-paranoid3.json nmi_watchdog status)" limited "vPMU watchdog"
expect_eq "$(jv vm-paranoid3.json virtualization.hypervisor)" KVM "DMI/clocksource"

# A pretend CPU on a fixture: an unknown model gets the nearest uarch, warned.
doctor_on zen4 PMUSTAT_CPU=AuthenticAMD-25-200-0
expect_eq "$(jv zen4.json uarch.name)" zen4 "nearest"
expect_eq "$(jv zen4.json uarch.exact)" false "nearest is not exact"
expect_in zen4.txt "warning: unknown model AuthenticAMD family 25 model 200 (0xc8)"
doctor_on neoverse-n1 PMUSTAT_CPU=0x410fd490
expect_eq "$(jv neoverse-n1.json uarch.name)" neoverse-n2 "pretend MIDR"
