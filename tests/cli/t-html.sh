# pmustat report --html, as a browser reads it: real campaigns (compare and
# stat with --profile, an exact-count compare, the demo) rendered to pages
# that headless Chromium parses; the DOM it builds must hold the plots (svg
# elements by class and id), axis titles with their units, tick labels in
# human units, the verdict words with the class of their verdict, the
# profiled functions (work_a, work_b of tests/tools/twofunc.c) in tables
# and flame graphs, the inclusive-time and allocation-site tables, a
# function only the baseline runs named in the baseline's flame graph, a
# bisect's page (the path of the search, the culprit, its profile), the
# inline script's search and zoom changing the page, and no element made
# from a name in a result. A screenshot of the first page is left in
# $BUILD/html/ for a person to look at, of every page with
# PMUSTAT_HTML_SHOTS=1 (each costs a Chromium start: CI takes one).
. "$TESTLIB"
# The sanitizer pass of make check leaves this script to the plain pass
# (headless chromium dominates its time), to keep CI within its budget.
if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
	echo "SKIP: t-html.sh runs in the plain pass only (headless chromium dominates its time)"
	exit 77
fi
T=$BUILD/twofunc
SHOTS=$BUILD/html

if ! command -v chromium >/dev/null 2>&1; then
	sh "$SRCROOT/scripts/install-deps.sh" chromium >&2
fi
if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: t-html.sh needs Debian's chromium, which could not be installed" \
		"(as root: sh scripts/install-deps.sh chromium)"
	exit 77
fi
mkdir -p "$SHOTS"

# chromium ARGS... on a page, with a profile of its own in the scratch
# directory; --no-sandbox because tests may run as root.
browse() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$PWD/chromium-profile" "$@" 2>>chromium.log
}
# render PAGE SHOT: the DOM of PAGE on one line in PAGE.dom, a screenshot
# in $SHOTS/SHOT.png (the first page's, or every page's: see above)
shots=0
render() {
	browse --dump-dom "file://$PWD/$1" >"$1.raw" || { cat chromium.log; fail "chromium could not load $1"; }
	tr '\n' ' ' <"$1.raw" >"$1.dom"
	[ -s "$1.dom" ] || fail "empty DOM for $1"
	[ $shots = 0 ] || [ "${PMUSTAT_HTML_SHOTS:-0}" = 1 ] || return 0
	shots=$((shots + 1))
	browse --screenshot="$SHOTS/$2.png" --window-size=1200,4200 "file://$PWD/$1" >/dev/null ||
		fail "no screenshot of $1"
	[ "$(head -c 4 "$SHOTS/$2.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "$2.png is not a PNG"
}
# dom_has PAGE REGEX (extended)
dom_has() { grep -qE -- "$2" "$1.dom" || fail "$1: no match for '$2' in the DOM"; }
dom_lacks() { ! grep -qE -- "$2" "$1.dom" || fail "$1: '$2' unexpectedly in the DOM"; }
count() { grep -oE -- "$2" "$1" | wc -l; }
# Every element the page writes is one the browser builds: none was lost
# to markup in a name, none made from one.
same_elements() {
	for e in '<svg' '<table' '<section' '<g class="frame"' '<circle'; do
		expect_eq "$(count "$1.dom" "$e")" "$(count "$1" "$e")" "$1: $e elements in the DOM"
	done
}
# Each verdict cell's word belongs with its row's class (which words a
# campaign on a shared machine gets is not asserted; what they look like is).
verdicts_styled() {
	sed 's#</tr>#</tr>\n#g' "$1.dom" | grep -oE '<tr class="v-[a-z-]+">.*<td class="verdict">[^<]*</td>' |
		sed 's#^<tr class="\(v-[a-z-]*\)">.*<td class="verdict">\([^<]*\)</td>$#\1:\2#' >verdicts.txt
	[ -s verdicts.txt ] || fail "$1: no verdict cells"
	while read -r cell; do
		case "$cell" in
		v-up:SLOWER* | v-up:HIGHER* | v-down:FASTER* | v-down:LOWER*) ;;
		v-up-unsized:SLOWER* | v-up-unsized:HIGHER* | v-down-unsized:FASTER*) ;;
		v-down-unsized:LOWER* | v-equivalent:EQUIVALENT* | v-inconclusive:INCONCLUSIVE*) ;;
		v-outside:\[* | v-none:*) ;;
		*) fail "$1: verdict and style disagree: $cell" ;;
		esac
	done <verdicts.txt
}

# --- compare --profile: twofunc's work_b triples (CPU time in one function:
# beyond any load's reach, see t-profile.sh) ---
run_pm 0 compare --profile --blocks 6 --seed 11 -o p.json -n one -- "$T" 5 5 -n three -- "$T" 5 15
run_pm 0 report -q p.json --html p.html
render p.html compare
same_elements p.html
dom_has p.html '<svg class="plot forest" id="forest"'
# answer first, as in the terminal: the reading is the page's first section
dom_has p.html '<nav><a href="#reading">Reading</a>'
[ "$(grep -oE '<section id="[a-z]+">' p.html.dom | head -1)" = '<section id="reading">' ] ||
	fail "p.html: the reading is not the first section"
dom_has p.html '<li class="variant">three vs one: '
dom_has p.html '<svg class="plot dist" id="dist-0"'
dom_has p.html '<svg class="plot runorder" id="runs-0"'
dom_has p.html '<svg class="flame diff" id="flame-1"'
# axis titles name the metric and its unit; ticks are in human units
dom_has p.html 'class="axis-label"[^>]*>wall-time \((ns|us|ms|s)\)</text>'
dom_has p.html 'class="axis-label"[^>]*>task-clock \((ns|us|ms|s)\)</text>'
dom_has p.html 'class="axis-label"[^>]*>max-rss \((KiB|MiB|GiB)\)</text>'
dom_has p.html 'class="axis-label"[^>]*>run, in execution order'
dom_has p.html 'class="axis-label"[^>]*>ratio variant / one \(log scale'
dom_has p.html 'class="tick"[^>]*>[0-9.]+ (us|ms|s)</text>'
dom_lacks p.html 'class="tick"[^>]*>[0-9]{7,}'
# the verdicts, each styled as what it says; the headline names one
dom_has p.html '<td class="verdict">(SLOWER|FASTER|EQUIVALENT|INCONCLUSIVE)'
dom_has p.html '<p class="headline v-[a-z-]+">wall-time: <b>three</b> is <span class="verdict">'
verdicts_styled p.html
# where the difference is: the functions, their times in human units
dom_has p.html '<td class="fn">work_b \*</td>'
dom_has p.html '<td class="fn">work_a( \*)?</td>'
dom_has p.html '<td class="num">\+[0-9.]+</td>'
# the terminal's inclusive-time table and allocation sites are on the page
dom_has p.html '<h4>Inclusive time \(the function and all it calls\)</h4> *<table class="profile diff incl">'
dom_has p.html '<table class="profile diff incl">.*<td class="fn">work_b \*</td>'
dom_has p.html '<h3>Allocations by call site: three vs one</h3>'
# call chains (--call-graph dwarf, the default): the real stacks, main under
# the entry and work_b above it
dom_has p.html '<title>work_b'
dom_has p.html '<text x="[0-9.]+" y="[0-9.]+">work_b</text>'
dom_has p.html '<title>main '
dom_lacks p.html 'flame-flat'
# without call chains: a one-level graph that says so
run_pm 0 compare --profile --call-graph none --blocks 3 --seed 11 -o p0.json -n one -- "$T" 2 2 -n three -- "$T" 2 6
run_pm 0 report -q p0.json --html p0.html
render p0.html compare-flat
dom_has p0.html '<title>work_b'
dom_has p0.html 'class="note flame-flat"'
dom_has p0.html 'Call chains were not recorded'
dom_has p.html '<section id="host">'
dom_has p.html 'profile: runs of its own .one per timed block, paired. sampled on'

# --- a result with made-up call stacks (FIXTURE: the profile records real
# ones, checked above; this one has a known shape): the real self times of
# work_a and work_b of the run without chains laid on made-up call paths
# (work_b called from two places), 0.2 ms of main's own, and 600 stacks of
# 1 ns each. (main's own was its kernel time, which got no sample in some
# runs: 'no run has a value of self:[kernel]'.) ---
"$BUILD/stackfix" p0.json ps.json 'stack:main;run_a;work_a=self:work_a' \
	'stack:main;run_b;work_b=self:work_b*0.75' 'stack:main;work_b=self:work_b*0.25' \
	'stack:main=ns:200000' --tiny 600 || fail "stackfix"
run_pm 0 report -q ps.json --html ps.html
render ps.html flame-stacks
same_elements ps.html
dom_lacks ps.html 'flame-flat'
for f in main run_a run_b work_a work_b; do
	dom_has ps.html "<title>$f "
done
expect_eq "$(count ps.html.dom '<title>work_b ')" 4 "work_b on its two paths, in the graph of each side"
# the largest change of own time (work_b under run_b) is saturated red
dom_has ps.html '<title>work_b [^<]*</title><rect [^>]*fill="#ff2828"'
dom_has ps.html '600 frames narrower than 0.1% of the time are folded'

# --- a function only the baseline calls: two builds of one small program,
# the fixed one without gone_soon(). The baseline's graph names it (the
# variant's has no width for it); the inline script's search and zoom,
# driven by the address (#search=, #zoom=), change what Chromium renders. ---
cat >gone.c <<'C'
static volatile unsigned long sink;
__attribute__((noinline)) static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}
__attribute__((noinline)) void kept(void) { spin(40000000UL); }
__attribute__((noinline)) void gone_soon(void) { spin(40000000UL); }
int main(void)
{
	kept();
#ifndef FIXED
	gone_soon();
#endif
	return 0;
}
C
${CC:-cc} -O1 -g -o gone-base gone.c && ${CC:-cc} -O1 -g -DFIXED -o gone-fixed gone.c ||
	fail "could not build gone.c"
run_pm 0 compare --profile --blocks 3 --seed 7 -o g.json -n before -- ./gone-base -n after -- ./gone-fixed
run_pm 0 report -q g.json --html g.html
render g.html gone
same_elements g.html
# graph ID PAGE.dom: the one flame graph of that id, as Chromium built it
graph() {
	sed -n "s#.*\(<svg class=\"flame diff[a-z ]*\" id=\"$1\"[^>]*>.*\)#\1#p" "$2" | sed 's#</svg>.*#</svg>#'
}
graph flame-1 g.html.dom >after.svg
graph flame-1-base g.html.dom >before.svg
[ -s after.svg ] && [ -s before.svg ] || fail "g.html: no graph per side"
grep -qE '<text x="[0-9.]+" y="[0-9.]+">gone_soon</text>' before.svg ||
	fail "the baseline's graph does not name gone_soon"
! grep -q 'data-name="gone_soon"' after.svg || fail "gone_soon has a width in the variant's graph"
grep -qE '<g class="frame gone" data-name="gone_soon"' before.svg || fail "gone_soon is not marked gone"
grep -qE '<text x="[0-9.]+" y="[0-9.]+">kept</text>' after.svg || fail "the variant's graph lacks kept"
dom_has g.html '<p class="note flame-gone">Gone from after ([^<]|<b[^>]*>|</b>)*<b title="gone_soon">gone_soon</b>'
dom_has g.html '<svg class="flame-scale"'
# the script ran (the controls are shown), nothing is searched or zoomed yet
dom_has g.html '<div class="flame-tools">'
dom_lacks g.html 'class="frame[a-z ]* match"'
dom_lacks g.html 'style="display:none"'
# width NAME GRAPH.svg: the drawn width of NAME's frame
width() {
	grep -oE "data-name=\"$1\"[^<]*<title>[^<]*</title><rect x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"[0-9.]+\"" "$2" |
		sed 's/.*width="//; s/"//'
}
# Before a zoom, in the baseline's graph, kept and gone_soon share main's
# width (which of them got more samples is the sampler's business; that both
# have one is the program's: each is half of it). In the variant's graph
# kept may be all of main, so no width there is asserted before the zoom.
kept_w=$(width kept before.svg) gone_w=$(width gone_soon before.svg) main_w=$(width main before.svg)
awk -v k="$kept_w" -v g="$gone_w" -v m="$main_w" 'BEGIN {
	d = k + g - m; exit !(k > 0 && g > 0 && d < 0.05 && d > -0.05) }' ||
	fail "before a zoom, kept (${kept_w:-?}) and gone_soon (${gone_w:-?}) do not share main's width (${main_w:-?})"
# search: the frames of that name are marked and their share is said
browse --dump-dom "file://$PWD/g.html#search=gone_soon" | tr '\n' ' ' >gs.dom
[ -s gs.dom ] || fail "no DOM for the search"
grep -qE '<g class="frame gone match" data-name="gone_soon"' gs.dom || fail "search did not mark gone_soon"
grep -qE 'id="flame-1-base-status">search “gone_soon”: 1 frame, [1-9][0-9.]*% of this graph’s time' gs.dom ||
	fail "search did not say gone_soon's share"
grep -qE 'id="flame-1-status">search “gone_soon”: 0 frames, 0.0%' gs.dom ||
	fail "search found gone_soon in the variant's graph"
expect_eq "$(count gs.dom 'class="frame[a-z ]* match"')" 1 "frames marked by the search"
# zoom: kept becomes the full width, what is beside it is hidden
browse --dump-dom "file://$PWD/g.html#zoom=kept" | tr '\n' ' ' >gz.dom
[ -s gz.dom ] || fail "no DOM for the zoom"
graph flame-1 gz.dom >after-z.svg
graph flame-1-base gz.dom >before-z.svg
for g in after-z.svg before-z.svg; do
	grep -qE 'data-name="kept"[^<]*<title>[^<]*</title><rect x="0.00" y="[0-9.]+" width="1300.00"' $g ||
		fail "zoom did not widen kept to the full width in $g"
done
grep -qE 'data-name="gone_soon"[^>]*style="display:none"' gz.dom || fail "zoom did not hide gone_soon"
grep -qE 'id="flame-1-status">zoomed to kept' gz.dom || fail "zoom not said"

# --- stat --profile: where the time goes, a plain flame graph ---
run_pm 0 stat --profile -r 3 -o s.json -- "$T" 2 4
run_pm 0 report -q s.json --html s.html
render s.html stat
same_elements s.html
dom_has s.html '<table class="stat">'
dom_has s.html '<h3>Where the time goes</h3>'
dom_has s.html '<td class="fn">work_b</td>'
dom_has s.html '<svg class="flame" id="flame-0"'
dom_has s.html '<svg class="plot dist" id="dist-0"'
dom_lacks s.html 'id="forest"'

# --- exact counts: twice the allocations is HIGHER whatever the load ---
run_pm 0 compare --seed 13 -m allocs --primary allocs -o ex.json -- "$BUILD/allocn" 1000 -- "$BUILD/allocn" 2000
run_pm 0 report -q ex.json --html ex.html
render ex.html exact
dom_has ex.html '<tr class="v-up"><td>allocs</td>'
dom_has ex.html '<td class="verdict">HIGHER</td>'
dom_has ex.html 'class="axis-label"[^>]*>allocs \(calls\)</text>'
dom_has ex.html '<path class="point exact"'
verdicts_styled ex.html

# --- simulated counts per function (cachegrind: exact, a model) ---
if command -v valgrind >/dev/null; then
	run_pm 0 compare --profile --backend sim --sim-runs 2 -m instructions --blocks 3 -o sf.json \
		-n one -- "$T" 1 1 -n three -- "$T" 1 3
	run_pm 0 report -q sf.json --html sf.html
	render sf.html simulated
	dom_has sf.html '<h3>Where the simulated difference is: three vs one</h3>'
	dom_has sf.html '<tr><td class="fn">work_b</td><td class="num">\+[0-9]+ \(\+200\.0%\)</td>'
	# work_a runs the same code in both: no change, so not in the table
	# (the terminal's table, drawn as HTML)
	sed 's#.*<table class="profile sim">##; s#</table>.*##' sf.html.dom >sim-table.txt
	grep -q 'work_b' sim-table.txt || fail "sf.html: no simulated table"
	! grep -q 'work_a' sim-table.txt || fail "sf.html: work_a, unchanged, in the simulated table"
fi

# --- the demo's reading ---
run_pm 0 demo --labels 1 --sha-blocks 1 --blocks 3 --seed 5 --no-sim --variants vec,pool-inplace -o d.json
run_pm 0 report -q d.json --html d.html
render d.html demo
dom_has d.html '<section id="reading">'
dom_has d.html '<li class="variant">pool-inplace vs vec: '
dom_has d.html '<li class="where">also: allocs -'
# the allocations by call site, as the terminal has them, whole on hover
dom_has d.html '<table class="allocsites">'
dom_has d.html '<td class="site"[^>]*>heap_alloc_slow&lt;heap_alloc&lt;'
dom_has d.html '<td class="site" title="[^"]{93,}">[^<]*…'
# the page, its widest tables included, fits 1400 px: what Chromium lays
# out is no wider than its window (a test copy of the page says so)
sed 's#</body>#<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth)</script></body>#' \
	d.html >dw.html
browse --window-size=1400,900 --dump-dom "file://$PWD/dw.html" >dw.dom
width=$(grep -oE 'data-width="[0-9]+"' dw.dom | grep -oE '[0-9]+')
[ -n "$width" ] && [ "$width" -le 1400 ] || fail "d.html is ${width:-?} px wide in a 1400 px window"

# --- a bisect's page (FIXTURE: tests/fixtures/results/bisect-found.json and
# bisect-neither.json, written by hand from docs/bisect.md's schema): the
# path of the search with a row per step marked by its decision, the
# culprit, and from the confirm step's compare result (p0.json above, a
# live compare --profile, in the place of a bisect's steps/06-confirm.json)
# the compare page's own verdict and profile sections ---
mkdir -p bis/steps
cp "$FIXTURES/results/bisect-found.json" bis/bisect.json
cp p0.json bis/steps/06-confirm.json
run_pm 0 report -q bis/bisect.json --html bis.html
render bis.html bisect
same_elements bis.html
dom_has bis.html '<svg class="bisect-path" id="bisect-path"'
expect_eq "$(count bis.html.dom '<g class="step" id="path-step-[0-9]+">')" 5 "bis.html: rows of the search path"
for st in 1:like-good 2:skipped 3:like-bad 4:like-good 5:like-bad; do
	dom_has bis.html "<g class=\"mark o-${st#*:}\" data-step=\"${st%%:*}\">"
done
dom_has bis.html 'first bad: a09b342</text>'
dom_has bis.html '<p class="headline b-found">First bad commit: <b class="culprit">a09b342</b> validate every state twice'
dom_has bis.html '<tr class="b-skip"><td class="num">2</td>'
dom_has bis.html '<h3>Every metric of the culprit against its parent</h3>'
dom_has bis.html '<section id="culprit">.*<table class="verdicts">'
dom_has bis.html '<section id="profile">.*<td class="fn">work_b'
dom_lacks bis.html 'is not next to this bisect.json'
cp "$FIXTURES/results/bisect-neither.json" neither.json
run_pm 0 report -q neither.json --html nei.html
render nei.html bisect-neither
dom_has nei.html '<g class="mark o-neither" data-step="2">'
dom_has nei.html '<p class="headline b-stopped"><span class="verdict">neither</span>'
dom_lacks nei.html '<section id="culprit">'

# --- names, commands and notes with markup and control characters ---
esc='\u001b'
cat >h.json <<JSON
{"schema":"pmustat.result/1","command":"compare","stop_reason":"stop <b>$esc[5m",
 "variants":[{"name":"<img src=x>","argv":["a&b"]},{"name":"v<i>2$esc[2J","argv":["<script>x</script>"]}],
 "metrics":[{"name":"m<u>1","unit":"ns","backend":"clock","available":true}],
 "runs":[{"variant":0,"block":0,"values":{"m<u>1":{"value":1000000}}},
         {"variant":1,"block":0,"values":{"m<u>1":{"value":2000000}}},
         {"variant":0,"block":1,"values":{"m<u>1":{"value":1100000}}},
         {"variant":1,"block":1,"values":{"m<u>1":{"value":2100000}}}],
 "notes":[{"level":"warning","metric":"x","text":"t<em>$esc[9m","hint":"h & <s>"}]}
JSON
run_pm 0 report -q h.json --html h.html
render h.html hostile
same_elements h.html
for tag in '<img' '<i>' '<u>' '<em>' '<s>' '<script'; do
	dom_lacks h.html "$tag"
done
printf '\033' >esc.bin
! grep -qF "$(cat esc.bin)" h.html || fail "raw ESC in the page"
dom_has h.html '&lt;img src=x&gt;'
dom_has h.html 'stop &lt;b&gt;\\x1b\[5m'
dom_has h.html 'v&lt;i&gt;2\\x1b\[2J'
dom_has h.html 't&lt;em&gt;\\x1b\[9m'
dom_has h.html 'hint: h &amp; &lt;s&gt;'
dom_has h.html '&lt;script&gt;x&lt;/script&gt;'
dom_has h.html 'class="axis-label"[^>]*>m&lt;u&gt;1 \(ms\)</text>'
echo "screenshots in $SHOTS"
