# A recorded machine (PMUSTAT_SYSFS_ROOT, PMUSTAT_PROC_ROOT) with a FIFO
# where a file belongs: refused at once, never waited on. A writer offers
# each FIFO plausible content, so a reader that opened it blocking would
# not hang here but take that content, and the checks below would fail.
. "$TESTLIB"

cp -R "$FIXTURES/vm-nopmu" tree
dev=tree/sys/bus/event_source/devices
export PMUSTAT_SYSFS_ROOT="$PWD/tree/sys" PMUSTAT_PROC_ROOT="$PWD/tree/proc"

rm "$dev/msr/type"
mkfifo "$dev/msr/type"
(for i in 1 2 3 4 5 6 7 8; do echo 9 >"$dev/msr/type"; done) &
writer=$!
run_pm 1 stat -e msr/tsc/ -- true
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
expect_in err "error: '$PWD/$dev/msr/type' is not a regular file"
expect_in err "hint: sysfs and procfs hold plain files"
run_pm 1 list
expect_in err "is not a regular file"
rm "$dev/msr/type"
cp "$FIXTURES/vm-nopmu/sys/bus/event_source/devices/msr/type" "$dev/msr/type"

# /proc/cpuinfo is optional: a FIFO there leaves the CPU unknown.
rm tree/proc/cpuinfo
mkfifo tree/proc/cpuinfo
(for i in 1 2 3 4 5 6 7 8; do printf 'vendor_id\t: FifoVendor\n' >tree/proc/cpuinfo; done) &
writer=$!
run_pm 0 stat -q -r 1 -o r.json -- true
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
expect_eq "$(jv r.json host.cpu.vendor)" "" "vendor read from a FIFO"
