# The container case, for real: tests/tools/noperf installs a seccomp filter
# that makes perf_event_open fail (EPERM as Docker's default profile, or
# ENOSYS), then runs pmustat doctor under it.
. "$TESTLIB"


unset PMUSTAT_SYSFS_ROOT PMUSTAT_PROC_ROOT PMUSTAT_CPU PMUSTAT_UARCH
for e in EPERM ENOSYS; do
	"$BUILD/noperf" -e $e -- "$PMUSTAT" doctor --json >d.json 2>err || fail "doctor under seccomp ($e) failed: $(cat err)"
	expect_eq "$(doctor_check d.json perf_event_open status)" unavailable "$e: perf_event_open"
	expect_eq "$(doctor_check d.json perf_event_open tried)" tried "$e: tried"
	doctor_check d.json perf_event_open summary | grep -q "seccomp filter.*($e)" || fail "$e: summary"
	doctor_check d.json perf_event_open remedy | grep -q "seccomp=unconfined" || fail "$e: remedy"
	doctor_check d.json perf_event_open probe | grep -q "task-clock" || fail "$e: probe"
	expect_eq "$(jv d.json verdict.hardware_counters)" unavailable "$e: verdict"
	expect_eq "$(jv d.json verdict.reason)" "perf_event_open is blocked by a seccomp filter (container)" "$e: reason"
	for id in core_pmu rdpmc uprobes; do
		expect_eq "$(doctor_check d.json $id status)" unavailable "$e: $id"
	done
	case "$(jv d.json verdict.available)" in *software*) fail "$e: software events claimed";; esac
done
# The text report leads with the same verdict.
"$BUILD/noperf" -- "$PMUSTAT" doctor >out 2>err || fail "text doctor under seccomp failed"
expect_eq "$(head -1 out)" "$(jv d.json verdict.text | sed 's/ENOSYS/EPERM/')" "text verdict"
expect_in out "fix:   allow perf_event_open: 'docker run --security-opt seccomp=unconfined"
