# pmustat list: metrics with availability and reasons, per uarch and on
# fixtures; --json; --events with a filter.
. "$TESTLIB"
# Described uarchs must not be the host (on a Zen 4 host --uarch zen4 is
# checked, not described): the host is pretended to be a CPU no run here
# describes; the recorded machines set it empty, so their /proc says.
export PMUSTAT_CPU=GenuineIntel-6-60

run_pm 0 list --uarch zen4
expect_in out "metrics on zen4: AMD Zen 4"
expect_in out "describing zen4; not checked against this host"
expect_in out "llc-misses"
expect_in out "proxy: demand data-cache fills of this process from DRAM or another CCX"
expect_in out "presets (-m NAME):"

run_pm 0 list --uarch zen3
expect_in out "stalled-cycles-backend   no"

# The VM without a PMU (recorded fixture: AMD family 26 model 2, a Zen 5), as
# the host: its own catalogue, no generic fallback, and hardware is 'no'.
PMUSTAT_CPU= PMUSTAT_SYSFS_ROOT=$FIXTURES/vm-nopmu/sys PMUSTAT_PROC_ROOT=$FIXTURES/vm-nopmu/proc \
	run_pm 0 list --json
expect_eq "$(jv out host_checked)" "true" "checked"
expect_eq "$(jv out uarch)" "zen5" "dev VM catalogue"
expect_eq "$(jv out note)" "null" "no fallback note"
n=$(jv out 'metrics.#')
i=0; cyc=""; tc=""
while [ $i -lt "$n" ]; do
	case "$(jv out metrics.$i.name)" in
	cycles) cyc=$(jv out metrics.$i.status); why=$(jv out metrics.$i.reason) ;;
	task-clock) tc=$(jv out metrics.$i.status) ;;
	esac
	i=$((i + 1))
done
expect_eq "$cyc" "no" "cycles on a VM"
expect_eq "$tc" "yes" "task-clock on a VM"
case "$why" in *"no hardware PMU is exposed here"*) ;; *) fail "reason: $why" ;; esac

PMUSTAT_CPU= PMUSTAT_SYSFS_ROOT=$FIXTURES/vm-nopmu/sys PMUSTAT_PROC_ROOT=$FIXTURES/vm-nopmu/proc \
	run_pm 0 list
expect_in out "metrics on zen5: AMD Zen 5"
expect_in out "checked against this host's PMUs and permissions"
expect_not_in out "the catalogue has no data for"
expect_in out "no hardware PMU is exposed here"

# The files added for zen2 and graniterapids describe every hardware metric.
run_pm 0 list --uarch graniterapids
expect_in out "metrics on graniterapids: Intel Granite Rapids"
expect_in out "llc-misses               yes     longest_lat_cache.miss"
expect_in out "proxy: L2 code requests (L1I misses plus code prefetches)"
run_pm 0 list --uarch zen2
expect_in out "l1d-misses               yes     l2_cache_accesses_from_dc_misses"
expect_in out "stalled-cycles-backend   no"

run_pm 0 list --uarch icelakex --events l2_rqsts
expect_in out "l2_rqsts.all_demand_miss"
expect_in out "cpu/event=0x24,umask=0x27/"
expect_not_in out "l1d.replacement"

run_pm 0 list --uarch help
expect_in out "emeraldrapids"
expect_in out "neoverse-v2"

run_pm 2 list --uarch zen44
expect_in err "error: unknown"
run_pm 2 list extra
expect_in err "error: unexpected argument 'extra'"

# A failed write is an error, in one line, whatever the view.
expect_stdout_full list --uarch zen4
expect_stdout_full list --uarch zen4 --json
expect_stdout_full list --events --json
expect_stdout_full list --uarch help
