# Helpers for CLI tests. Source with: . "$TESTLIB"
set -u
fail() { echo "not ok: $*" >&2; exit 1; }

# run_pm EXPECTED_EXIT ARGS...: run pmustat, keep stdout in out, stderr in err.
run_pm() {
	want=$1; shift
	"$PMUSTAT" "$@" >out 2>err
	got=$?
	if [ "$got" != "$want" ]; then
		echo "--- stdout"; cat out; echo "--- stderr"; cat err
		fail "pmustat $* exited $got, expected $want"
	fi
}
# expect_in FILE PATTERN (fixed string)
expect_in() { grep -qF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "'$2' not in $1"; }; }
expect_not_in() { ! grep -qF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "'$2' unexpectedly in $1"; }; }
# jq-like checks via python3 would add a dependency; use the binary's own JSON reader
# or grep on canonical one-line fields instead.
# jq PATH FILE-less form: jv FILE PATH prints one JSON value (tests/tools/jsonq.c)
jv() { "$BUILD/jsonq" "$@"; }
# expect_eq GOT WANT WHAT
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }
# expect_stdout_full ARGS...: pmustat ARGS writing stdout to a full disk
# fails with exit code 1 and one line saying so (skipped without /dev/full).
expect_stdout_full() {
	[ -w /dev/full ] || return 0
	"$PMUSTAT" "$@" >/dev/full 2>err
	got=$?
	expect_eq "$got" 1 "pmustat $* >/dev/full: exit code"
	expect_eq "$(cat err)" "error: cannot write to stdout: No space left on device" \
		"pmustat $* >/dev/full: stderr"
}
# has_pmu NAME: does this host expose sysfs PMU NAME?
has_pmu() { [ -e "/sys/bus/event_source/devices/$1" ]; }
# json_find FILE ARRAY KEY VALUE FIELD: FIELD of the first element of ARRAY
# whose KEY is VALUE (fails the test when there is none)
json_find() {
	n=$(jv "$1" "$2.#") || fail "no $2 in $1"
	i=0
	while [ "$i" -lt "$n" ]; do
		if [ "$(jv "$1" "$2.$i.$3")" = "$4" ]; then
			jv "$1" "$2.$i.$5"
			return
		fi
		i=$((i + 1))
	done
	fail "no $2 element with $3 '$4' in $1"
}
# instr_run FILE [N]: the index of the Nth (from 0) instrumented run, the
# runs of their own that a perturbing mechanism (call counters, sampling)
# gets instead of the timed ones (fails the test when there is none)
instr_run() {
	n=$(jv "$1" runs.#) || fail "no runs in $1"
	i=0 k=0
	while [ "$i" -lt "$n" ]; do
		if [ "$(jv "$1" "runs.$i.instrumented")" = true ]; then
			[ "$k" -eq "${2:-0}" ] && { echo "$i"; return; }
			k=$((k + 1))
		fi
		i=$((i + 1))
	done
	fail "no instrumented run ${2:-0} in $1"
}
# doctor_check FILE ID FIELD: a field of the check with this id in doctor's JSON
doctor_check() { json_find "$1" checks id "$2" "$3"; }
# expect_sites_unchanged FILE MIN: an A/A result's first variant has at
# least MIN allocation call sites, and none changed its calls, bytes or
# temporaries.
expect_sites_unchanged() {
	n=$(jv "$1" alloc_sites.0.sites.#)
	[ "$n" -ge "$2" ] || fail "A/A: $n call sites, fewer than $2"
	i=0
	while [ "$i" -lt "$n" ]; do
		for k in calls bytes temporaries; do
			expect_eq "$(jv "$1" alloc_sites.0.sites.$i.$k.delta)" 0.0 "A/A site $i $k"
		done
		i=$((i + 1))
	done
}
# git_sandbox: for a script that builds git repositories in its scratch
# directory: SKIP without git or a C compiler; T is the scratch directory,
# and git reads no configuration of the machine's or the user's.
git_sandbox() {
	command -v git >/dev/null || { echo "SKIP: git is not installed"; exit 77; }
	command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
	T=$(pwd)
	export GIT_CONFIG_NOSYSTEM=1 HOME="$T" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
		GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
}
# poll SECONDS CMD...: run CMD until it succeeds, every 20 ms, for at most
# SECONDS of wall time; 1 when it never did. A bound in time, not in tries:
# on a loaded host a try may take long.
poll() {
	_end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.02
	done
}
