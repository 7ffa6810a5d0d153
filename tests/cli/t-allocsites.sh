# --profile=allocs: allocations by call site, from untimed traced runs.
# allocn N makes N rounds of malloc/calloc/realloc/free/free in rounds(),
# one of them a temporary (the realloc'd block, freed as the next heap
# call); "temps=K" adds K temporaries from extra_temps(). Counts of a
# deterministic program are exact, so every figure here is asserted exactly.
. "$TESTLIB"
A=$BUILD/allocn
R=$BUILD/r1cs-synth

# Variant B makes 500 extra temporaries from one named call site.
run_pm 0 compare -v --profile=allocs --blocks 2 --seed 5 -o t.json -n base -- "$A" 1000 -n more -- "$A" 1000 temps=500
expect_in out "allocations by call site"
expect_in out "allocation call sites: from 1 traced run per variant, not timed"
top=$(jv t.json alloc_sites.0.sites.0.site)
expect_eq "${top%%<*}" extra_temps "the site of the change"
expect_eq "$(jv t.json alloc_sites.0.sites.0.calls.delta)" 500.0 "Δcalls at extra_temps"
expect_eq "$(jv t.json alloc_sites.0.sites.0.temporaries.delta)" 500.0 "Δtemporaries at extra_temps"
expect_eq "$(jv t.json alloc_sites.0.sites.0.bytes.delta)" 12000.0 "Δbytes at extra_temps"
expect_eq "$(jv t.json alloc_sites.0.sites.0.temporaries.baseline)" 0.0 "the baseline has no such site"
# rounds() did the same in both: 3000 allocating calls, 1000 temporaries, no change.
s=$(jv t.json alloc_sites.0.sites.1.site)
expect_eq "${s%%<*}" rounds "the unchanged site"
expect_eq "$(jv t.json alloc_sites.0.sites.1.calls.variant)" 3000.0 "rounds' calls"
expect_eq "$(jv t.json alloc_sites.0.sites.1.temporaries.variant)" 1000.0 "rounds' temporaries"
expect_eq "$(jv t.json alloc_sites.0.sites.1.calls.delta)" 0.0 "rounds' change"
# The traced runs come first, are marked, and carry no time.
expect_eq "$(jv t.json runs.0.traced)" true "first run traced"
expect_eq "$(jv t.json runs.1.traced)" true "second run traced"
jv t.json runs.0.values.wall-time.value >/dev/null 2>&1 && fail "a traced run has a wall time"
expect_eq "$(jv t.json runs.2.traced 2>/dev/null)" "" "measured runs are not traced"
# libgcc's unwinder (glibc's backtrace()) finds the same, where libunwind is used.
PMUSTAT_COUNT_UNWINDER=libgcc run_pm 0 stat --profile=allocs -r 1 -o g.json -- "$A" 1000 temps=500
expect_in out "unwound by glibc's backtrace()"
expect_eq "$(json_find g.json alloc_sites.0.sites site "$top" temporaries)" 500.0 "libgcc: temporaries"
expect_eq "$(json_find g.json alloc_sites.0.sites site "$top" calls)" 500.0 "libgcc: calls"
# The per-run site metrics are in the result: report recomputes the section.
run_pm 0 report -v t.json
expect_in out "allocations by call site"
expect_in out "extra_temps<main"
# By default the reading names the site whose calls changed most.
run_pm 0 report t.json
expect_in out "    allocations per run changed at: extra_temps<main"

# A/A: no site changes, two traced runs per variant agree (no note).
run_pm 0 compare -v --profile=allocs --trace-runs 2 --blocks 2 -o aa.json -n a -- "$A" 300 -n b -- "$A" 300
expect_in out "no call site changed"
expect_not_in out "disagree"
expect_sites_unchanged aa.json 1
expect_eq "$(jv aa.json alloc_sites.0.traced_runs)" 2 "traced runs per variant"

# Two traced runs that disagree are said to (the program counts its runs).
run_pm 0 stat --profile=allocs --trace-runs 2 -r 1 -- sh -c 'n=$(cat c 2>/dev/null || echo 0); echo $((n+1)) >c; exec "$0" 10 temps=$((n * 7))' "$A"
expect_in out "traced runs disagree"

# Threads: each thread's rounds are a site of their own (a stack of its own),
# temporaries are per thread. (pthread_create's TLS calloc is a third site.)
run_pm 0 stat --profile=allocs --profile-frames 2 -r 1 -o th.json -- "$A" 100 thread
for site in "rounds<main" "rounds<thread_main"; do
	expect_eq "$(json_find th.json alloc_sites.0.sites site "$site" calls)" 300.0 "$site calls"
	expect_eq "$(json_find th.json alloc_sites.0.sites site "$site" temporaries)" 100.0 "$site temporaries"
done

# stat: the top sites by calls.
run_pm 0 stat --profile=allocs -r 1 -- "$A" 100 temps=7
expect_in out "allocations by call site (1 traced run, not timed"
expect_in out "allocn: allocn.c:"

# Bad input: an unknown mode is a usage error naming the modes, nothing runs.
run_pm 2 stat --profile=time,heap -- touch ran
expect_in err "error: unknown --profile mode 'heap'"
expect_in err "hint: the modes are time and allocs"
[ ! -e ran ] || fail "the command ran despite a usage error"
run_pm 2 stat --profile=time --trace-runs 2 -- touch ran
expect_in err "error: --trace-runs applies to allocation call sites only"
expect_in err "hint: add --profile=allocs"
[ ! -e ran ] || fail "the command ran despite a usage error"
# A static program: traced with uprobes where they open (root,
# t-allocsites-static.sh), else a note says why and what to do; the
# campaign is kept either way.
run_pm 0 stat --profile=allocs -r 2 -o st.json -- "$BUILD/allocn-static" 10
expect_in out "statically linked"
runs=2
if [ "$(id -u)" = 0 ] && has_pmu uprobe; then
	expect_in st.json "traced with sampling uprobes"
	runs=3	# and the traced run
else
	expect_in out "allocation call sites are not traced"
	expect_in st.json "allocation call sites are not traced"
fi
expect_eq "$(jv st.json runs.#)" $runs "static: the measured runs kept"
# A program that allocates nothing says so.
run_pm 0 stat --profile=allocs -r 1 -- "$BUILD/loopn" 10
expect_in out "allocations by call site: none (no allocating call in 1 traced run)"

# The workload: in-place accumulation removes the temporary LCs that
# Boolean::lc builds; the largest change is the bool_lc path. (The sanitizer
# build's workload cannot take the shim: a warning says so, runs are kept.)
if ldd "$R" 2>/dev/null | grep -q 'libasan'; then
	run_pm 0 stat --profile=allocs -r 1 -o san.json -- "$R" --labels 1 --blocks 1
	expect_in out "it is built with a sanitizer"
	[ "$(jv san.json runs.#)" = 1 ] || fail "sanitized: the measured run was not kept"
	exit 0
fi
run_pm 0 compare --profile=allocs --blocks 1 -o r.json -n upstream -- "$R" --storage vec --style upstream --labels 1 --blocks 2 -n inplace -- "$R" --storage vec --style inplace --labels 1 --blocks 2
top=$(jv r.json alloc_sites.0.sites.0.site)
case "$top" in *"<bool_lc"*) ;; *) fail "top site is not the bool_lc path: $top" ;; esac
d=$(jv r.json alloc_sites.0.sites.0.calls.delta)
awk -v d="$d" 'BEGIN { exit !(d < -1000) }' || fail "bool_lc's calls did not drop: $d"

# Deeper stacks say through what: Boolean::lc's temporaries inside addmany.
run_pm 0 compare --profile=allocs --profile-frames 8 --blocks 1 -o r8.json -n upstream -- "$R" --storage vec --style upstream --labels 1 --blocks 2 -n inplace -- "$R" --storage vec --style inplace --labels 1 --blocks 2
top=$(jv r8.json alloc_sites.0.sites.0.site)
case "$top" in *"<bool_lc<cs_add_bool<u32_addmany<"*) ;; *) fail "top site (8 frames): $top" ;; esac
t=$(jv r8.json alloc_sites.0.sites.0.temporaries.delta)
awk -v t="$t" 'BEGIN { exit !(t < -1000) }' || fail "bool_lc's temporaries did not drop: $t"

# heaptrack, run on the same commands, finds the same calls and temporaries
# on the bool_lc path (stacks deep enough to hold it: 8 frames).
if command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null; then
	# ours: per traced run, the sum over the sites through bool_lc
	ours() { # RUN PREFIX
		jv r8.json "runs.$1.values" | tr ',' '\n' | grep -F "\"$2" | grep -F 'bool_lc' |
			sed 's/.*"value": *//; s/}.*//' | awk '{ s += $1 } END { printf "%d\n", s }'
	}
	theirs() { # STYLE COST
		heaptrack -o "ht-$1" "$R" --storage vec --style "$1" --labels 1 --blocks 2 >/dev/null 2>&1 ||
			fail "heaptrack failed"
		heaptrack_print -f ht-"$1".* -F "ht-$1.$2" --flamegraph-cost-type "$2" >/dev/null 2>&1
		awk '/bool_lc/ { s += $NF } END { printf "%d\n", s }' "ht-$1.$2"
	}
	for run in 0 1; do
		v=$(jv r8.json "runs.$run.variant")
		style=upstream
		[ "$v" = 1 ] && style=inplace
		expect_eq "$(ours $run alloc-calls:)" "$(theirs $style allocations)" "$style: bool_lc calls vs heaptrack"
		rm -f ht-$style.*
		expect_eq "$(ours $run alloc-temp:)" "$(theirs $style temporary)" "$style: bool_lc temporaries vs heaptrack"
		rm -f ht-$style.*
	done
fi
