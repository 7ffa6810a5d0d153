# pmustat given capabilities, run by an unprivileged user (nobody):
# - secure mode: PMUSTAT_SPAWNER and PMUSTAT_COUNT_LIB name a program to
#   execute and a library to preload; a pmustat with file capabilities
#   ignores them (secure_getenv), its own files next to it are used;
# - the hint for uprobes is true: CAP_PERFMON does not let a process create
#   uprobes on current kernels (CAP_SYS_ADMIN does), and the error says so;
# - an unprivileged `-e msr/tsc/` says "permission denied" as doctor does,
#   not "EINVAL".
. "$TESTLIB"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to set file capabilities"; exit 77; }
for t in setcap setpriv; do
	command -v $t >/dev/null || { echo "SKIP: no $t (libcap2-bin, util-linux)"; exit 77; }
done
id nobody >/dev/null 2>&1 || { echo "SKIP: no user nobody"; exit 77; }

chmod 755 "$PWD"
mkdir bin work
chmod 777 work
cp "$PMUSTAT" bin/pmustat
cp "$BUILD/pmustat-spawner" "$BUILD/libpmustat-count.so" "$BUILD/allocn" "$BUILD/allocn-static" bin/
cp bin/pmustat bin/pmustat-perfmon
cp bin/pmustat bin/pmustat-admin
printf '#!/bin/sh\ntouch %s/work/evil-ran\nexit 1\n' "$PWD" >bin/evil
chmod 755 bin bin/*
setcap cap_perfmon+ep bin/pmustat-perfmon || { echo "SKIP: setcap refused (no xattrs here?)"; exit 77; }
setcap cap_perfmon,cap_sys_admin+ep bin/pmustat-admin
nb() { (cd work && setpriv --reuid=nobody --regid=nogroup --clear-groups "$@") >out 2>err; }

# Secure mode: the variables are ignored, the files next to pmustat used.
nb env PMUSTAT_SPAWNER="$PWD/bin/evil" "$PWD/bin/pmustat-perfmon" stat -r 1 -q -- true
expect_eq "$?" 0 "exit code with PMUSTAT_SPAWNER set in secure mode"
[ ! -e work/evil-ran ] || fail "PMUSTAT_SPAWNER was executed by a pmustat with capabilities"
nb env PMUSTAT_COUNT_LIB="$PWD/bin/no-such.so" "$PWD/bin/pmustat-perfmon" stat -r 1 \
	-m allocs -o "$PWD/work/a.json" -- "$PWD/bin/allocn" 3
expect_eq "$?" 0 "exit code with PMUSTAT_COUNT_LIB set in secure mode"
expect_not_in err "PMUSTAT_COUNT_LIB"
expect_in out "through the LD_PRELOAD shim (preload)"
# Without capabilities the variables still work (a build tree's habit).
nb env PMUSTAT_SPAWNER="$PWD/bin/evil" "$PWD/bin/pmustat" stat -r 1 -q -- true
[ -e work/evil-ran ] || fail "PMUSTAT_SPAWNER ignored without secure mode"

# Uprobes (a static program's call counters): CAP_PERFMON is not enough.
if nb "$PWD/bin/pmustat-perfmon" stat -r 1 -q -m allocs -- "$PWD/bin/allocn-static" 3; then
	echo "skip: this kernel lets CAP_PERFMON create uprobes (before Linux 6.16)"
else
	expect_in err "uprobes need root or CAP_SYS_ADMIN"
	expect_in err "hint: run pmustat as root, or 'sudo setcap cap_perfmon,cap_sys_admin+ep"
	# ... and what the hint says works.
	nb "$PWD/bin/pmustat-admin" stat -r 1 -m allocs -o "$PWD/work/s.json" -- \
		"$PWD/bin/allocn-static" 3
	expect_eq "$?" 0 "exit code with CAP_SYS_ADMIN"
	expect_in out "(uprobe)"
fi

# msr/tsc/ without privileges, at perf_event_paranoid 2: the msr PMU cannot
# leave the kernel out; the refusal is a permission one, as in doctor.
if [ ! -e /sys/bus/event_source/devices/msr ]; then
	echo "skip: no msr PMU here"
elif [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -lt 2 ]; then
	echo "skip: perf_event_paranoid is below 2"
else
	nb "$PWD/bin/pmustat" stat -r 1 -e msr/tsc/ -- true
	expect_in out "msr/tsc/: not counted — permission denied"
	expect_not_in out "EINVAL"
	nb "$PWD/bin/pmustat" doctor
	expect_in out "Permission denied"
fi
echo ok
