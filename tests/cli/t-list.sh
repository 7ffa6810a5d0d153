# pmustat list: metrics with availability and reasons, per uarch and on
# fixtures; --json; --events with a filter.
. "$TESTLIB"

run_pm 0 list --uarch zen4
expect_in out "metrics on zen4: AMD Zen 4"
expect_in out "describing zen4; not checked against this host"
expect_in out "llc-misses"
expect_in out "proxy: demand data-cache fills of this process from DRAM or another CCX"
expect_in out "presets (-m NAME):"

run_pm 0 list --uarch zen3
expect_in out "stalled-cycles-backend   no"

# The VM without a PMU (recorded fixture), as the host: hardware is 'no'.
PMUSTAT_SYSFS_ROOT=$FIXTURES/vm-nopmu/sys PMUSTAT_PROC_ROOT=$FIXTURES/vm-nopmu/proc \
	run_pm 0 list --json
expect_eq "$(jv out host_checked)" "true" "checked"
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
