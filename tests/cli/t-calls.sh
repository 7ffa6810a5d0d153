# Call counters through the CLI: exact counts, both mechanisms, static
# binaries, unknown symbols, and the mechanism always named.
. "$TESTLIB"
A=$BUILD/allocn

# One round of allocn is malloc, calloc, realloc, free, free.
run_pm 0 stat -r 2 -e call:malloc,call:free -m allocs,frees -o p.json -- "$A" 1000
i=$(instr_run p.json)
expect_eq "$(jv p.json runs.$i.values.call:malloc.value)" 1000 "malloc calls (auto)"
expect_eq "$(jv p.json runs.$i.values.allocs.value)" 3000 "allocs (auto)"
expect_eq "$(jv p.json runs.$i.values.frees.value)" 2000 "frees (auto)"
expect_eq "$(jv p.json metrics.4.backend)" preload "auto picks the shim for a dynamic program"
expect_in out "through the LD_PRELOAD shim (preload)"

# Threads and children count too with the shim (creating a thread costs
# libc an allocation of its own, so compare N and 2N rounds).
run_pm 0 stat -r 1 -m allocs -o t1.json -- "$A" 500 thread,fork
run_pm 0 stat -r 1 -m allocs -o t2.json -- "$A" 1000 thread,fork
d=$(( $(jv t2.json runs.$(instr_run t2.json).values.allocs.value) - $(jv t1.json runs.$(instr_run t1.json).values.allocs.value) ))
expect_eq "$d" 4500 "allocs difference over three threads/processes"

if [ -e /sys/bus/event_source/devices/uprobe ] && [ "$(id -u)" = 0 ]; then
	run_pm 0 stat -r 2 --calls uprobe -m allocs -e call:free -o u.json -- "$A" 1000
	i=$(instr_run u.json)
	expect_eq "$(jv u.json runs.$i.values.allocs.value)" 3000 "allocs (uprobe)"
	expect_eq "$(jv u.json runs.$i.values.call:free.value)" 2000 "free (uprobe)"
	expect_eq "$(jv u.json metrics.4.backend)" uprobe "mechanism named"
	expect_in out "uprobes count the main thread only"
	# A static binary can only be counted by uprobes; its startup allocates
	# a few times, so compare N and 2N: the difference is exact.
	run_pm 0 stat -r 1 -m allocs -o s1.json -- "$BUILD/allocn-static" 1000
	run_pm 0 stat -r 1 -m allocs -o s2.json -- "$BUILD/allocn-static" 2000
	expect_eq "$(jv s1.json metrics.4.backend)" uprobe "static program: uprobe"
	d=$(( $(jv s2.json runs.$(instr_run s2.json).values.allocs.value) - $(jv s1.json runs.$(instr_run s1.json).values.allocs.value) ))
	expect_eq "$d" 3000 "static allocs difference"
	# uprobes do not follow threads: the run is marked, not under-counted
	run_pm 0 stat -r 1 --calls uprobe -m allocs -o ut.json -- "$A" 100 thread
	expect_eq "$(jv ut.json runs.$(instr_run ut.json).values.allocs)" null "incomplete count left out"
	expect_in out "call counts of some runs are left out"
fi

run_pm 2 stat -r 1 -e call:mallco -- "$A" 10
expect_in err "mallco"
expect_in err "did you mean 'malloc'?"
run_pm 1 stat -r 1 --calls preload -m allocs -- "$BUILD/allocn-static" 10
expect_in err "statically linked"
run_pm 2 stat -r 1 --calls sometimes -m allocs -- "$A" 10
expect_in err "sometimes"
