# Answer first: a comparison's output leads with the reading (the verdict
# per variant, then where the difference is), then the table; a two-variant
# compare fits one screen (50 lines); warnings of one kind are one line
# naming every metric and variant they concern, with one hint, and -v (and
# the JSON's warning_groups) give each warning with its figures. Verdicts
# on live timings are never asserted, only the shape: the warnings come
# from a recorded result (tests/fixtures/results/warnings.json, made by
# make-warnings.py beside it) whose runs raise known ones.
. "$TESTLIB"
: "${SRCROOT:?}"
FIX=$SRCROOT/tests/fixtures/results/warnings.json
VERDICT='(SLOWER|FASTER|HIGHER|LOWER|EQUIVALENT|INCONCLUSIVE)( \(size uncertain\))?[*]?'

# line_of PATTERN FILE: the number of the first line matching (ERE), or 0
line_of() { grep -nE -- "$1" "$2" | head -n 1 | cut -d: -f1 | grep . || echo 0; }

# expect_reading_first FILE NAME BASE METRIC: the first line after the
# header block is NAME's verdict against BASE, before the variants and the table.
expect_reading_first() {
	v=$(line_of "^ $2 vs $3: $VERDICT, $4 [+-][0-9.]+%" "$1")
	t=$(line_of '^  metric +variant +baseline' "$1")
	h=$(line_of '^ pmustat compare: ' "$1")
	[ "$v" -gt 0 ] || { cat "$1"; fail "no verdict line for $2 vs $3 in $1"; }
	[ "$t" -gt "$v" ] || { cat "$1"; fail "the table (line $t) before the reading (line $v)"; }
	[ "$v" -gt "$h" ] && [ "$v" -le $((h + 4)) ] ||
		{ cat "$1"; fail "the reading (line $v) is not right under the header (line $h)"; }
}

expect_screen() {
	n=$(wc -l <"$1")
	[ "$n" -le 50 ] || { cat "$1"; fail "$1: $n lines, more than one screen (50)"; }
}

# --- grouped warnings, from the fixture -------------------------------------
run_pm 0 report "$FIX"
expect_reading_first out csr vec wall-time
expect_in out "warnings (each with its figures: -v):"
expect_in out "  - outliers (kept) in wall-time (vec, csr); task-clock (vec)"
expect_in out "  - drift with run order in user-time (vec, csr)"
expect_eq "$(grep -c 'hint: check for interference' out)" 1 "one hint for the outliers"
expect_eq "$(grep -c 'hint: look for thermal' out)" 1 "one hint for the drift"
expect_not_in out "robust deviations"
expect_screen out
# -v: each warning with its figures, after the same reading
run_pm 0 report -v "$FIX"
expect_reading_first out csr vec wall-time
expect_in out "  - wall-time (vec): a run lies 199.0 robust deviations (MAD) from the median"
expect_in out "  - wall-time (csr): a run lies 239.0 robust deviations (MAD) from the median"
expect_in out "  - task-clock (vec): a run lies 99.0 robust deviations (MAD) from the median"
expect_in out "  - user-time (vec): values drift with run order (Spearman rho 1.00"
expect_in out "  - user-time (csr): values drift with run order (Spearman rho 1.00"
expect_eq "$(grep -c 'hint: check for interference' out)" 3 "a hint per outlier under -v"
expect_in out "Holm-adjusted across"
# the JSON: the groups, with what they concern and each one's details
run_pm 0 report -q "$FIX" -o w.json
expect_eq "$(jv w.json warning_groups.#)" 2 "groups"
expect_eq "$(jv w.json warning_groups.0.kind)" outliers "first group's kind"
expect_eq "$(jv w.json warning_groups.0.count)" 3 "outliers"
expect_eq "$(jv w.json warning_groups.0.metrics)" '["wall-time","task-clock"]' "outliers' metrics"
expect_eq "$(jv w.json warning_groups.0.variants)" '["vec","csr"]' "outliers' variants"
expect_eq "$(jv w.json warning_groups.0.summary)" \
	"outliers (kept) in wall-time (vec, csr); task-clock (vec)" "outliers' summary"
expect_eq "$(jv w.json warning_groups.0.details.2.metric)" wall-time "third outlier's metric"
expect_eq "$(jv w.json warning_groups.0.details.2.variant)" csr "third outlier's variant"
expect_eq "$(jv w.json warning_groups.1.kind)" drift "second group's kind"
expect_eq "$(jv w.json warning_groups.1.variants)" '["vec","csr"]' "drift's variants"
# the per-summary warnings are kept as they were
expect_in w.json "a run lies 239.0 robust deviations"
# the page: the grouped line above the full list
run_pm 0 report -q "$FIX" --html w.html
expect_in w.html '<ul class="notes warn-groups">'
expect_in w.html '<li class="warning">outliers (kept) in wall-time (vec, csr); task-clock (vec)<br>'
expect_in w.html '<b>wall-time (csr)</b>: a run lies 239.0 robust deviations'

# --- a live two-variant compare, default options: one screen, answer first --
run_pm 0 compare -o te.json -- true -- echo
expect_reading_first out B A wall-time
expect_screen out
expect_not_in out " rule: "
run_pm 0 report -v te.json
expect_in out " rule: stop once the wall-time verdict settles"

# --- with a profile: where the difference is, still one screen --------------
T=$BUILD/twofunc
run_pm 0 compare --profile --blocks 4 --seed 3 -o p.json -n one -- "$T" 2 2 -n three -- "$T" 2 6
expect_reading_first out three one wall-time
expect_screen out
expect_in out "(the tables per function and per call site: -v)"
expect_not_in out "where the difference is (self time"
# whatever the profile says of work_b, it is said between the verdict and the table
w=$(line_of '^    (time changed in|time: no function)' out)
v=$(line_of '^ three vs one: ' out)
t=$(line_of '^  metric +variant' out)
[ "$w" -gt "$v" ] && [ "$w" -lt "$t" ] || { cat out; fail "where (line $w) not between the verdict and the table"; }
run_pm 0 report -v p.json
expect_in out "where the difference is (self time"
