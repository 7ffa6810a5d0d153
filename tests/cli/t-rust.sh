# The seed's experiment in Rust (workloads/lcbench): a bellman-style
# LinearCombination on Vec (A) against SmallVec<[_; 2]> (B), built offline
# from Debian's cargo and packaged crates, once with Rust's legacy symbol
# mangling and once with v0. For each mangling, `compare --profile` must
#  - pair the two builds: no name left mangled or carrying a build hash
#    (legacy "::h<16 hex>", v0 "[hex]"), and the functions both builds have
#    (lcbench::main, ConstraintSystem::eval) one row with time on both sides;
#  - lead with what really differs: the allocation sites' change of calls is
#    heaptrack's (run here on the same builds: the truth, exact), and where
#    perf is installed, the allocator function perf sees shrink most
#    (perf record -e cpu-clock, self time per symbol) is among the self-time
#    rows with a negative change;
#  - name them in the HTML report (short in the table, whole on hover), and
#    show no codegen-unit names ("-cgu.") as where.
. "$TESTLIB"
# The sanitizer pass of make check leaves this script to the plain pass
# (cargo builds, heaptrack and perf dominate its time), to keep CI within its budget.
if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
	echo "SKIP: t-rust.sh runs in the plain pass only (cargo builds, heaptrack and perf dominate its time)"
	exit 77
fi
REG=/usr/share/cargo/registry
have_rust() { [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ] && ls -d "$REG"/smallvec-1.* >/dev/null 2>&1; }
have_rust || sh "$SRCROOT/scripts/install-deps.sh" rust >&2
if ! have_rust; then
	echo "SKIP: t-rust.sh needs Debian's cargo, rustc and librust-smallvec-dev" \
		"(as root: sh scripts/install-deps.sh rust)"
	exit 77
fi
command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null ||
	{ echo "SKIP: t-rust.sh needs heaptrack (sh scripts/install-deps.sh)"; exit 77; }
LC=$BUILD/lcbench
sh "$SRCROOT/workloads/lcbench/build.sh" "$LC" 2>build.err ||
	{ cat build.err; fail "workloads/lcbench/build.sh failed"; }
cat build.err	# which cargo and rustc built it
N=1000000

# calls to allocation functions in one run, by heaptrack
ht_calls() {
	heaptrack -o "ht-$1" "$LC/lcbench-$1" "$N" >/dev/null 2>&1 || fail "heaptrack $1 failed"
	heaptrack_print "ht-$1.zst" 2>/dev/null | sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p'
}

# perf's self time (per cent) of one symbol in one build, or empty
perf_pct() {
	perf report -i "perf-$1.data" --no-children --sort sym --stdio 2>/dev/null |
		awk -v s="$2" '$2 == "[.]" && $3 == s { sub("%", "", $1); print $1; exit }'
}

for m in legacy v0; do
	run_pm 0 compare --profile --blocks 4 --seed 5 -o "$m.json" \
		-n vec -- "$LC/lcbench-vec-$m" "$N" -n small -- "$LC/lcbench-small-$m" "$N"
	cp out "$m.txt"
	# pairing: nothing mangled, no build hash, common functions on both sides
	python3 - "$m.json" <<'PY' || fail "$m: the builds do not pair"
import json, re, sys
d = json.load(open(sys.argv[1]))
names = [m["name"] for m in d["metrics"] if m.get("source") == "profile" or ":" in m["name"]]
bad = [n for n in names if re.search(r"::h[0-9a-f]{16}\b|\[[0-9a-f]{4,}\]|[:;<]_(R|ZN)[0-9A-Za-z_]", n)]
assert not bad, "names with a hash or mangled: %s" % bad[:5]
idx = {m["name"]: i for i, m in enumerate(d["metrics"])}
for fn in ("lcbench::main", "lcbench::ConstraintSystem::eval", "<lcbench::ConstraintSystem>::eval"):
    k = "incl:" + fn if "incl:" + fn in idx else "self:" + fn
    if k not in idx:
        continue
    sides = {r["variant"] for r in d["runs"] if (r.get("values") or {}).get(k) not in (None, 0)} \
        if isinstance(d["runs"][0].get("values"), dict) else None
    print("paired:", k, sides)
assert "incl:lcbench::main" in idx, "no incl:lcbench::main"
PY
	# the allocation sites' change is heaptrack's, exactly
	a=$(ht_calls "vec-$m") b=$(ht_calls "small-$m")
	[ -n "$a" ] && [ -n "$b" ] || fail "$m: heaptrack counted nothing"
	got=$(python3 - "$m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(int(sum(s["calls"]["delta"] for s in d["alloc_sites"][0]["sites"])))
PY
)
	expect_eq "$got" "$((b - a))" "$m: Δ allocating calls, pmustat's sites against heaptrack"
	# Vec's sites (one, or one per closure where v0 names them apart) lose
	# their 3 calls per constraint and lead the table
	got=$(python3 - "$m.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["alloc_sites"][0]["sites"]
vec = [x["calls"]["delta"] for x in s if "Vec" in x["site"] and "SmallVec" not in x["site"]]
top = max(abs(x["calls"]["delta"]) for x in s)
print(int(sum(vec)), int(abs(s[0]["calls"]["delta"]) == top))
PY
)
	expect_eq "$got" "-$((3 * N)) 1" "$m: Vec's sites' change, and the largest first"
	# the self-time table leads with the allocator and the pushes
	top=$(jv "$m.json" attribution.0.functions.0.function)
	case "$top" in
	*Vec*push*|*RawVec*|*finish_grow*|_int_free|free|malloc|__libc_malloc|*SmallVec*|*Add*add*|*ptr::write*) ;;
	*) fail "$m: the top self-time row is '$top', not the allocation path" ;;
	esac
	expect_not_in out "-cgu."
	if command -v perf >/dev/null && perf record -q -e cpu-clock -o "perf-vec-$m.data" \
		"$LC/lcbench-vec-$m" "$N" >/dev/null 2>&1 &&
		perf record -q -e cpu-clock -o "perf-small-$m.data" "$LC/lcbench-small-$m" "$N" \
		>/dev/null 2>&1; then
		pa=$(perf_pct "vec-$m" _int_free) pb=$(perf_pct "small-$m" _int_free)
		echo "perf ($m): _int_free ${pa:-0}% -> ${pb:-0}% of samples"
		if awk -v a="${pa:-0}" -v b="${pb:-0}" 'BEGIN { exit !(a > b + 3) }'; then
			d=$(json_find "$m.json" attribution.0.functions function _int_free delta_ns)
			awk -v d="$d" 'BEGIN { exit !(d < 0) }' ||
				fail "$m: perf sees _int_free shrink, pmustat's Δ is $d"
		fi
	else
		echo "skip: perf cannot sample here: the allocator check against perf was not made ($m)"
	fi
	run_pm 0 report -q "$m.json" --html "$m.html"
	expect_in "$m.html" "_int_free"
	expect_in "$m.html" "lcbench::main"
	expect_in "$m.html" "alloc::vec::Vec&lt;"
	expect_in "$m.html" "<td class=\"fn\" title=\""
	[ "$m" = legacy ] || expect_in "$m.html" "::&lt;…&gt;"
	width=$(sed -n '/^where the difference/,/^  wall-time/p' "$m.txt" | wc -L)
	[ "$width" -le 160 ] || fail "$m: the tables are $width columns wide"
done
