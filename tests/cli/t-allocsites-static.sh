# --profile=allocs on a statically linked program: the LD_PRELOAD shim
# cannot load, so the traced run samples uprobes on the allocation
# functions of the program's ELF and unwinds each call with libdwfl; return
# probes and a probe on free give the temporaries. The counts are exact, and
# the same as the shim's on the dynamic build of the same program (allocn.c:
# N rounds of malloc 16, calloc 1x16, realloc to 64, free, free from
# rounds(), one temporary each; temps=K adds K malloc(24)+free from
# extra_temps(); all adds aligned_alloc, posix_memalign, memalign and valloc,
# each freed at once; edges adds realloc(NULL, 32) and realloc to 0 bytes,
# which a static glibc turns into calls of malloc and free of its own; hop
# moves the program to another CPU every 10 rounds).
. "$TESTLIB"
S=$BUILD/allocn-static
D=$BUILD/allocn

if [ "$(id -u)" != 0 ] || ! has_pmu uprobe; then
	# Without root or CAP_SYS_ADMIN the uprobes cannot open: the warning says
	# why, and the campaign is measured as asked.
	run_pm 0 stat --profile=allocs -r 2 -o w.json -- "$S" 10
	expect_in out "allocation call sites are not traced"
	expect_in out "uprobes need root or CAP_SYS_ADMIN"
	expect_eq "$(jv w.json runs.#)" 2 "measured runs kept"
	echo "skip: not root or no uprobe PMU: only the refusal was tested"
	exit 0
fi

# Variant B makes 200 more allocations from extra_temps(): exactly that Δ.
run_pm 0 compare -v --profile=allocs --profile-frames 2 --blocks 2 --seed 3 -o t.json -n base -- "$S" 300 -n more -- "$S" 300 temps=200
expect_in out "allocations by call site"
expect_in out "statically linked, so traced with sampling uprobes"
expect_in t.json "return probes for the pointers"
expect_eq "$(jv t.json alloc_sites.0.sites.0.site)" "extra_temps<main" "the site of the change"
expect_eq "$(jv t.json alloc_sites.0.sites.0.calls.delta)" 200.0 "Δcalls at extra_temps"
expect_eq "$(jv t.json alloc_sites.0.sites.0.bytes.delta)" 4800.0 "Δbytes at extra_temps"
expect_eq "$(jv t.json alloc_sites.0.sites.0.temporaries.delta)" 200.0 "Δtemporaries at extra_temps"
expect_eq "$(json_find t.json alloc_sites.0.sites site "rounds<main" calls.variant)" 900.0 "rounds' calls"
expect_eq "$(json_find t.json alloc_sites.0.sites site "rounds<main" bytes.variant)" 28800.0 "rounds' bytes"
expect_eq "$(json_find t.json alloc_sites.0.sites site "rounds<main" temporaries.variant)" 300.0 "rounds' temporaries"
expect_eq "$(json_find t.json alloc_sites.0.sites site "rounds<main" calls.delta)" 0.0 "rounds' change"
expect_eq "$(json_find t.json alloc_sites.0.sites site "rounds<main" temporaries.delta)" 0.0 "rounds' temporaries' change"
expect_eq "$(jv t.json runs.0.traced)" true "the first run is traced"

# A/A: two traced runs per variant agree, and no site changes.
run_pm 0 compare -v --profile=allocs --trace-runs 2 --blocks 2 -o aa.json -n a -- "$S" 300 -n b -- "$S" 300
expect_in out "no call site changed"
expect_not_in out "disagree"
expect_not_in out "left out"
expect_sites_unchanged aa.json 2

# The shim on the dynamic build finds the same calls, bytes and temporaries
# per site, with every allocation function and realloc's edges.
run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o dyn.json -- "$D" 300 temps=200,all,edges
run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o sta.json -- "$S" 300 temps=200,all,edges
for site in "rounds<main" "extra_temps<main" "edge_reallocs<main"; do
	for k in calls bytes temporaries; do
		expect_eq "$(json_find sta.json alloc_sites.0.sites site "$site" $k)" \
			"$(json_find dyn.json alloc_sites.0.sites site "$site" $k)" "$site $k: uprobes vs shim"
	done
done
expect_eq "$(json_find sta.json alloc_sites.0.sites site "extra_temps<main" calls)" 200.0 "extra_temps calls"
# Per round: 7 allocating calls, 5 of them temporaries (the realloc's
# result freed first, then the four aligned ones); realloc's edges: 2 calls
# (32 bytes, then 0), the first a temporary (realloc to 0 frees it).
expect_eq "$(json_find sta.json alloc_sites.0.sites site "rounds<main" calls)" 2100.0 "rounds, all: calls"
expect_eq "$(json_find sta.json alloc_sites.0.sites site "rounds<main" temporaries)" 1500.0 "rounds, all: temporaries"
expect_eq "$(json_find sta.json alloc_sites.0.sites site "edge_reallocs<main" calls)" 600.0 "edges: calls"
expect_eq "$(json_find sta.json alloc_sites.0.sites site "edge_reallocs<main" bytes)" 9600.0 "edges: bytes"
expect_eq "$(json_find sta.json alloc_sites.0.sites site "edge_reallocs<main" temporaries)" 300.0 "edges: temporaries"
# No site is made of realloc's own inner calls.
expect_not_in sta.json "[unknown]"
# The program hops to the next CPU every 10 rounds: its samples land in
# both CPUs' buffers, and only their times put the returns and frees back
# in order (read in buffer order, these calls pair wrongly).
if [ "$(nproc)" -ge 2 ]; then
	run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o hop.json -- "$S" 300 hop,all
	expect_eq "$(json_find hop.json alloc_sites.0.sites site "rounds<main" calls)" 2100.0 "hopping: calls"
	expect_eq "$(json_find hop.json alloc_sites.0.sites site "rounds<main" temporaries)" 1500.0 "hopping: temporaries"
else
	echo "skip: one CPU: the samples of a hopping program were not tested"
fi
# The report recomputes the section from the result alone.
run_pm 0 report sta.json
expect_in out "extra_temps<main"

# The workload, linked statically: 242,431 allocating calls, the same calls,
# bytes and temporaries in all as the shim finds on the dynamic build, and
# the same top site (vec storage: bool_lc's temporary linear combinations).
sums() {	# FILE: "calls bytes temporaries" summed over the sites
	n=$(jv "$1" alloc_sites.0.sites.#)
	i=0
	while [ "$i" -lt "$n" ]; do
		echo "$(jv "$1" alloc_sites.0.sites.$i.calls) $(jv "$1" alloc_sites.0.sites.$i.bytes)" \
			"$(jv "$1" alloc_sites.0.sites.$i.temporaries)"
		i=$((i + 1))
	done | awk '{ c += $1; b += $2; t += $3 } END { printf "%.0f %.0f %.0f\n", c, b, t }'
}
# (A sanitized r1cs-synth, in the sanitizer pass, cannot take the shim.)
if ldd "$BUILD/r1cs-synth" 2>/dev/null | grep -q libasan; then
	echo "skip: r1cs-synth is built with a sanitizer: the workload was not compared"
else
	run_pm 0 stat --profile=allocs -r 1 -o wd.json -- "$BUILD/r1cs-synth" --storage vec --labels 1 --blocks 2
	run_pm 0 stat --profile=allocs -r 1 -o ws.json -- "$BUILD/r1cs-synth-static" --storage vec --labels 1 --blocks 2
	# (hits lost on a host too loaded for the reader: left out, as below)
	if grep -qF "the kernel dropped" out; then
		expect_in out "allocation call sites of some traced runs are left out"
		echo "skip: the host was too loaded for the reader: the workload was not compared"
	else
		expect_eq "$(sums ws.json)" "$(sums wd.json)" "the workload: uprobes vs shim, calls bytes temporaries"
		expect_eq "$(jv ws.json alloc_sites.0.sites.0.site)" "$(jv wd.json alloc_sites.0.sites.0.site)" "the workload's top site"
		expect_in ws.json "<bool_lc"
		expect_eq "$(jv ws.json alloc_sites.0.sites.0.temporaries)" "$(jv wd.json alloc_sites.0.sites.0.temporaries)" "the top site's temporaries"
	fi
fi

# Threads and forked children: the probes are trace events made in tracefs,
# inherited like any sampling event. A child reports no mappings of its own:
# its samples are unwound and symbolized with the mappings its FORK record
# copied from the parent (the one pipeline, backend/stackpipe.c). child=7: a
# forked child makes 7 temporaries of 40 bytes from child_temps(), a site
# only the child has; the parent's own calls are at rounds(). The shim on
# the dynamic build agrees, site by site.
run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o fork.json -- "$S" 10 child=7
if grep -qF "trace events were not made" out; then
	expect_in out "left out: the program started threads or processes"
	echo "skip: no writable tracefs: the sites of a forked child and a thread were not tested"
else
	expect_in out "every thread and process of the run"
	expect_not_in out "left out"
	expect_eq "$(json_find fork.json alloc_sites.0.sites site "child_temps<main" calls)" 7.0 "the child's calls"
	expect_eq "$(json_find fork.json alloc_sites.0.sites site "child_temps<main" bytes)" 280.0 "the child's bytes"
	expect_eq "$(json_find fork.json alloc_sites.0.sites site "child_temps<main" temporaries)" 7.0 "the child's temporaries"
	expect_eq "$(json_find fork.json alloc_sites.0.sites site "rounds<main" calls)" 30.0 "the parent's calls"
	expect_not_in fork.json "[unknown]"
	run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o forkd.json -- "$D" 10 child=7
	for k in calls bytes temporaries; do
		expect_eq "$(json_find fork.json alloc_sites.0.sites site "child_temps<main" $k)" \
			"$(json_find forkd.json alloc_sites.0.sites site "child_temps<main" $k)" "the child's $k: uprobes vs shim"
	done
	# A second thread's calls are its own site, their temporaries its own
	# (the program named by a relative path: the trace events name it whole).
	run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o thr.json -- \
		"$(realpath --relative-to=. "$S")" 10 thread
	expect_in out "every thread and process of the run"
	expect_eq "$(json_find thr.json alloc_sites.0.sites site "rounds<thread_main" calls)" 30.0 "the thread's calls"
	expect_eq "$(json_find thr.json alloc_sites.0.sites site "rounds<thread_main" temporaries)" 10.0 "the thread's temporaries"
	expect_eq "$(json_find thr.json alloc_sites.0.sites site "rounds<main" calls)" 30.0 "the main thread's calls"
fi

# The uprobe PMU (PMUSTAT_UPROBES=pmu, or where no trace event can be made)
# sees the main thread only: a run that starts a thread is left out.
export PMUSTAT_UPROBES=pmu
run_pm 0 stat --profile=allocs -r 1 -- "$S" 10 thread
unset PMUSTAT_UPROBES
expect_in out "main thread only (the probes are the uprobe PMU's"
expect_in out "allocation call sites of some traced runs are left out: the program started threads"

# A program that allocates in a loop: the reader stops it while it unwinds,
# so its buffers do not fill. If hits were lost all the same (a host so
# loaded that the reader is not scheduled), the run is left out with the
# number, never counted low.
run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o many.json -- "$S" 100000
if grep -qF "the kernel dropped" out; then
	expect_in out "allocation call sites of some traced runs are left out"
	jv many.json runs.0.values | grep -q '"alloc-calls:' && fail "a run with lost hits has sites"
else
	expect_eq "$(json_find many.json alloc_sites.0.sites site "rounds<main" calls)" 300000.0 "100000 rounds"
	expect_eq "$(json_find many.json alloc_sites.0.sites site "rounds<main" temporaries)" 100000.0 "100000 rounds' temporaries"
fi

# A user without CAP_SYS_ADMIN: the uprobes do not open, the warning says why.
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	mkdir nb && chmod 777 nb && cd nb || fail "no scratch directory for nobody"
	if setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups test -x "$S"; then
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
			"$PMUSTAT" stat --profile=allocs -r 1 -o nb.json -- "$S" 10 >out 2>err ||
			fail "pmustat as nobody failed: $(cat err)"
		expect_in out "allocation call sites are not traced"
		expect_in out "uprobes need root or CAP_SYS_ADMIN"
		expect_eq "$(jv nb.json runs.#)" 1 "nobody: the measured run kept"
	else
		echo "skip: nobody cannot reach $S"
	fi
	cd ..
else
	echo "skip: no setpriv or no user nobody: the refusal without CAP_PERFMON is not tested"
fi
