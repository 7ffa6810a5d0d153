# Names and commands with control characters (a variant named with an
# escape sequence, a command whose argument clears the screen, a result
# file with them in every string) are shown escaped as \xNN in text
# output; only pmustat's own colours reach the terminal raw. JSON keeps
# the names as they were (jansson escapes them there).
. "$TESTLIB"

esc=$(printf '\033')
no_raw_escape() { ! grep -q "$esc" "$1" || { cat -v "$1"; fail "raw ESC in $1"; }; }

run_pm 0 compare -q --blocks 2 -o c.json -n "A${esc}]0;owned${esc}\\" -- true \
	-n "B${esc}[2J" -- sh -c "true # ${esc}[31mred"
run_pm 0 report c.json
no_raw_escape out
expect_in out 'A\x1b]0;owned\x1b\'
expect_in out 'B\x1b[2J'
expect_in out "'true # \\x1b[31mred'"
expect_eq "$(jv c.json variants.1.name)" "B${esc}[2J" "name kept in JSON"

run_pm 0 stat -q -r 1 -o s.json -- sh -c "exit 0 # $(printf 'bell\007tab\tdel\177')"
run_pm 0 report s.json
no_raw_escape out
expect_in out 'bell\x07tab\x09del\x7f'

# Every string a result carries into the text: notes, hints, metric names
# and units, the stop reason; a C1 control too (U+009B, a one-byte CSI on
# some terminals).
csi=$(printf '\302\233')
e='\u001b'
cat >r.json <<JSON
{"schema":"pmustat.result/1","command":"compare","stop_reason":"stop$e[5m",
 "variants":[{"name":"v\u009b1","argv":["a"]},{"name":"v2","argv":["b$e[3m"]}],
 "metrics":[{"name":"m$e[1m","unit":"u$e[7m","backend":"clock","available":true}],
 "runs":[{"variant":0,"block":0,"values":{"m$e[1m":{"value":1}}},
         {"variant":1,"block":0,"values":{"m$e[1m":{"value":2}}}],
 "notes":[{"level":"warning","metric":"x$e[8m","text":"t$e[9m","hint":"h$e[4m"}]}
JSON
run_pm 0 report r.json
no_raw_escape out
for want in 'stop\x1b[5m' 'v\xc2\x9b1' 'b\x1b[3m' 'm\x1b[1m' 'x\x1b[8m: t\x1b[9m' 'hint: h\x1b[4m'; do
	expect_in out "$want"
done
! grep -q "$csi" out || fail "raw CSI in report output"

# Errors quote what they were given, escaped too.
run_pm 2 stat -e "ev${esc}[2J" -- true
no_raw_escape err
expect_in err "unknown event 'ev\\x1b[2J'"

# Text that is not UTF-8 (a name or an argument in another encoding) cannot
# be a JSON string: it is kept as \xNN text, not dropped (with its variant,
# which once shifted every run onto the wrong variant).
ff=$(printf '\377')
run_pm 0 compare -q --blocks 1 -o u.json -n "A$ff" -- true -n B -- sh -c "true $ff"
expect_eq "$(jv u.json variants.#)" 2 "variants in the document"
expect_eq "$(jv u.json variants.0.name)" 'A\xff' "a name not in UTF-8"
expect_eq "$(jv u.json variants.1.argv.2)" 'true \xff' "an argument not in UTF-8"
expect_eq "$(jv u.json comparisons.0.baseline)" 'A\xff' "baseline of the comparison"
run_pm 0 report u.json
expect_in out 'A\xff'

# A bidirectional override (U+202E) in a name reorders the text shown after
# it ("evil\u202etxt.exe" reads as "evilexe.txt"): escaped in the terminal
# and in the HTML, kept in the JSON.
rlo=$(printf '\342\200\256')
run_pm 0 compare -q --blocks 1 -o b.json -n "A${rlo}gpj" -- true -n B -- true
expect_eq "$(jv b.json variants.0.name)" "A${rlo}gpj" "override kept in JSON"
run_pm 0 report b.json --html b.html
! grep -q "$rlo" out || fail "raw U+202E in report output"
expect_in out 'A\xe2\x80\xaegpj'
! grep -q "$rlo" b.html || fail "raw U+202E in the HTML"
expect_in b.html 'A\xe2\x80\xaegpj'

# A failing run's stderr is replayed as text: its escape sequences and
# overrides escaped, its lines kept.
run_pm 1 stat -r 1 -- sh -c "printf 'one${esc}[2Jtwo\\n${rlo}three\\n' >&2; exit 3"
no_raw_escape err
! grep -q "$rlo" err || fail "raw U+202E in the replayed stderr"
expect_in err 'one\x1b[2Jtwo'
expect_in err '\xe2\x80\xaethree'
expect_in err "stderr of the failing run"
