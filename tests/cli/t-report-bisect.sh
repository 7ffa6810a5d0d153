# pmustat report on a bisect's document (FIXTURE: tests/fixtures/results/
# bisect-found.json and bisect-neither.json, written by hand from the
# schema of docs/bisect.md, not by a live bisect): the terminal's text byte
# for byte against tests/golden/bisect-*.txt (PMUSTAT_GOLDEN_UPDATE=1
# rewrites them; review the diff), the page's parts in its markup (the
# browser's view is t-html-bisect.sh), a document that names a step result
# outside its directory, a broken field, and the options that fit only a
# result of runs, each one line and a hint.
. "$TESTLIB"
F=$FIXTURES/results
G=$SRCROOT/tests/golden

golden() {	# golden NAME ARGS...: report ARGS must print tests/golden/NAME
	name=$1; shift
	run_pm 0 report "$@"
	if [ "${PMUSTAT_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp out "$G/$name"
	fi
	cmp -s out "$G/$name" || { diff -u "$G/$name" out; fail "report $*: differs from golden/$name"; }
}
golden bisect-found.txt "$F/bisect-found.json"
golden bisect-neither-v.txt -v "$F/bisect-neither.json"
# the answer comes first: the culprit's line before the table
expect_eq "$(sed -n 3p out)" "stopped: 6d42aeb (step 2) is neither like good nor like bad" "neither's answer line"

# --- the page: the search path, one row per step, the culprit ---
cp "$F/bisect-found.json" bisect.json
run_pm 0 report -q bisect.json --html b.html
[ ! -s out ] || fail "report -q printed something"
expect_in b.html '<svg class="bisect-path" id="bisect-path"'
for s in outcome path culprit profile notes settings terminal; do
	expect_in b.html "<section id=\"$s\">"
done
expect_eq "$(grep -o '<g class="step" id="path-step-[0-9]*">' b.html | wc -l)" 5 "step rows in the path"
expect_in b.html '<g class="mark o-like-bad" data-step="5">'
expect_in b.html '<g class="mark o-skipped" data-step="2">'
expect_in b.html '<rect class="window"'
expect_in b.html 'first bad: a09b342</text>'
expect_in b.html 'First bad commit: <b class="culprit">a09b342</b> validate every state twice'
# the range's commits are named on hover
expect_in b.html '<title>7: '
expect_in b.html '<tr class="b-skip">'
# no compare result next to it: the document's own top of the difference
expect_in b.html 'is not next to this bisect.json'
expect_in b.html '<td class="fn">chain</td>'

cp "$F/bisect-neither.json" neither.json
run_pm 0 report -q neither.json --html n.html
expect_in n.html '<span class="verdict">neither</span> stopped: 6d42aeb (step 2) is neither like good nor like bad'
expect_in n.html '<g class="mark o-neither" data-step="2">'
expect_not_in n.html '<section id="culprit">'
expect_not_in n.html '<rect class="window"'

# --- a step result named outside the document's directory is not read ---
sed 's#"result": "steps/06-confirm.json"#"result": "../../../etc/passwd"#' "$F/bisect-found.json" >evil.json
run_pm 0 report -q evil.json --html e.html
expect_not_in e.html 'root:'

# --- the page grows linearly with the steps (a long stretch of broken
# builds): twice the steps, about twice the bytes (sizes are exact, not
# timed; a row that redrew every earlier step made it four times) ---
for n in 200 400; do
	sh "$SRCROOT/tests/tools/bisect-steps.sh" "$F/bisect-found.json" $n >long$n.json
	run_pm 0 report -q long$n.json --html long$n.html
	expect_eq "$(grep -o '<g class="step" id="path-step-[0-9]*">' long$n.html | wc -l)" $n \
		"step rows of $n steps"
done
s1=$(wc -c <long200.html) s2=$(wc -c <long400.html)
[ $((s2 * 10)) -lt $((s1 * 22)) ] || fail "400 steps make a page of $s2 bytes, 200 steps $s1: not linear"
# every earlier decision is still drawn on the later rows: once, as a trail
expect_eq "$(grep -c '<line class="trail o-skipped" data-step=' long200.html)" 199 "trails of 200 steps"
expect_in long200.html '<line class="trail o-skipped" data-step="1" '

# --- a FIFO in a step result's place is refused, not waited on: the page
# is written without it, within a bound, and both it and stderr say why in
# the reader's words (not that the file is missing: it is there) ---
mkdir -p fifo/steps
cp "$F/bisect-found.json" fifo/bisect.json
mkfifo fifo/steps/06-confirm.json
timeout 20 "$PMUSTAT" report -q fifo/bisect.json --html f.html >out 2>err
expect_eq "$?" 0 "report --html with a FIFO as the confirm step's result"
why="&#39;fifo/steps/06-confirm.json&#39; is not a regular file (a FIFO)"
expect_in f.html "steps/06-confirm.json could not be read ($why): the functions below"
expect_not_in f.html 'is not next to this bisect.json'
expect_eq "$(cat err)" "warning: the page is drawn without the culprit's compare result: 'fifo/steps/06-confirm.json' is not a regular file (a FIFO)" "stderr with a FIFO as the confirm step's result"
[ -p fifo/steps/06-confirm.json ] || fail "the FIFO was replaced"

# --- bad input: one line and a hint each ---
sed 's/"runs": 54/"runs": "many"/' "$F/bisect-found.json" >broken.json
run_pm 2 report broken.json
expect_eq "$(head -1 err)" "error: 'broken.json': steps[2]: 'step': 'runs' is not an integer >= 0" "broken field"
expect_in err 'hint: '
run_pm 2 report bisect.json --csv runs.csv
expect_eq "$(head -1 err)" "error: --csv: 'bisect.json' is a bisect, not one result of runs" "--csv"
expect_in err 'hint: each step'"'"'s runs are a result of their own'
[ ! -e runs.csv ] || fail "--csv wrote a file"
run_pm 2 report bisect.json -o merged.json
expect_in err "error: -o/--output: 'bisect.json' is a bisect"
exit 0
