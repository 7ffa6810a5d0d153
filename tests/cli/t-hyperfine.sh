# hyperfine's habits: hooks around the runs (--setup, --prepare, --conclude,
# --cleanup) in the order they must run and with their failures named,
# parameters into variants (names, baseline, values), --input as every
# run's stdin and the warning when pmustat's own stdin is not given to the
# command, --shell and command strings, the export options. Asserts what
# runs and what is said, never a timing.
. "$TESTLIB"

# Hooks: every hook once where it belongs, the measured run between
# prepare and conclude; warm-up runs get theirs too.
run_pm 0 stat -r 2 --warmup 1 -q -m wall-time -o r.json \
	--setup "sh -c 'echo s >> log'" --prepare "sh -c 'echo p >> log'" \
	--conclude "sh -c 'echo c >> log'" --cleanup "sh -c 'echo x >> log'" -- sh -c 'echo r >> log'
expect_eq "$(tr '\n' ' ' < log)" "s p r c p r c p r c x " "hook order"
expect_eq "$(jv r.json runs.#)" 3 "runs recorded (hooks are not runs)"
jv r.json notes > notes.json
expect_in notes.json "--prepare runs before every run, outside the measurements: sh -c 'echo p >> log'"
# Per variant, in compare: each variant's setup before the first block.
rm -f log
run_pm 0 compare --blocks 2 --warmup 0 -q -m wall-time --setup "sh -c 'echo s{n} >> log'" \
	--cleanup "sh -c 'echo x{n} >> log'" --parameter-list n 1,2 -- sh -c 'echo r{n} >> log'
expect_eq "$(head -2 log | tr '\n' ' ')" "s1 s2 " "setups first"
expect_eq "$(tail -2 log | tr '\n' ' ')" "x1 x2 " "cleanups last"
expect_eq "$(grep -c '^r' log)" 4 "measured runs"

# A failing hook is an error naming the command and its status; its
# stderr is shown; nothing was measured after it.
run_pm 1 stat -r 3 -q --prepare "sh -c 'echo oops >&2; exit 3'" -- true
expect_in err "error: the --prepare command 'sh -c 'echo oops >&2; exit 3'' (before run 1) failed with exit status 3"
expect_in err "oops"
run_pm 1 stat -r 2 -q --setup nosuch-program-xyz -- true
expect_in err "error: --setup command: cannot run 'nosuch-program-xyz'"
run_pm 2 stat -r 2 -q --prepare "echo 'open" -- true
expect_in err "error: unterminated single quote"
run_pm 2 compare --blocks 2 --prepare true --prepare true --prepare true -- true -- true
expect_in err "error: --prepare is given 3 times for 2 commands"

# Parameters: one variant per value, named like hyperfine's, the values
# put into the command; a command before the sweep is the baseline.
run_pm 0 compare --blocks 2 --warmup 0 -q -m wall-time -o c.json --parameter-list cap 1,2,4 \
	-- true -- sh -c 'exit 0 # sv{cap}'
expect_eq "$(jv c.json variants.#)" 4 "variants"
expect_eq "$(jv c.json variants.0.name)" A "baseline: the command before the sweep"
expect_eq "$(jv c.json variants.1.name)" cap=1 "first value"
expect_eq "$(jv c.json variants.3.name)" cap=4 "last value"
expect_eq "$(jv c.json variants.3.argv.2)" "exit 0 # sv4" "value in the command"
run_pm 0 compare --blocks 2 --warmup 0 -q -m wall-time -o s.json --parameter-scan t 0 1 \
	--parameter-step-size 0.25 -n 'sleep-{t}' -- sh -c 'exit 0 # {t}'
expect_eq "$(jv s.json variants.#)" 5 "scan 0..1 by 0.25"
expect_eq "$(jv s.json variants.0.name)" sleep-0.00 "named with -n, baseline the first value"
expect_eq "$(jv s.json variants.4.name)" sleep-1.00 "the end is included"
run_pm 2 stat --parameter-list cap 1,2 -- true
expect_in err "error: no command uses the parameter {cap}"
run_pm 2 stat --parameter-scan n 1 2.5 -- echo {n}
expect_in err "must be integers without --parameter-step-size"
run_pm 2 compare --parameter-list n 1,2 -n same -- echo {n} -- true
expect_in err "error: -n 'same' would name every value of {n} alike"
run_pm 0 stat -r 1 -q -m wall-time -o p.json --parameter-list n 3,5 -- sh -c 'exit 0 # {n}'
expect_eq "$(jv p.json variants.1.name)" n=5 "stat: a variant per value"

# --input: every run reads the file from its start.
printf 'a\nb\nc\n' > data.txt
run_pm 0 stat -r 2 -q --show-output -m wall-time --input data.txt -o i.json -- wc -l
expect_eq "$(tr -d ' ' < out | tr '\n' ' ')" "3 3 " "wc -l of --input in every run"
jv i.json notes > notes.json
expect_in notes.json "every run reads its stdin from 'data.txt'"
run_pm 2 stat -r 1 --input no-such-input -- true
expect_in err "error: cannot read --input 'no-such-input'"
mkfifo fifo
run_pm 2 stat -r 1 --input fifo -- true
expect_in err "is not a file every run can read from its start"
# pmustat's own stdin is a file, not given to the command: said.
"$PMUSTAT" stat -r 1 -m wall-time -o w.json -- true < data.txt > out 2> err || fail "stat < file"
expect_in out "pmustat's stdin is a file, but the measured command reads /dev/null"
expect_in out "hint: give the measured command its input with --input FILE"
echo x | "$PMUSTAT" stat -r 1 -m wall-time -- true > out 2> err || fail "stat from a pipe"
expect_in out "pmustat's stdin is a pipe"
"$PMUSTAT" stat -r 1 -m wall-time -- true < /dev/null > out 2> err || fail "stat < /dev/null"
expect_not_in out "pmustat's stdin"

# --shell and command strings.
run_pm 2 compare 'sleep 0.1' 'sleep 0.2'
expect_in err "error: 'sleep 0.1' is a command line, and pmustat runs commands without a shell"
expect_in err "hint: add --shell sh"
run_pm 1 stat -r 1 -- 'sleep 0.1'
expect_in err "or run it as a command line with --shell sh"
run_pm 0 compare --shell sh --blocks 2 --warmup 0 -q -m wall-time -o sh.json \
	-n one 'exit 0' -n two 'true; true'
expect_eq "$(jv sh.json variants.1.name)" two "named strings"
expect_eq "$(jv sh.json variants.1.argv.0)" sh "through the shell"
expect_eq "$(jv sh.json variants.1.argv.2)" "true; true" "the string as given"
jv sh.json notes > notes.json
expect_in notes.json "the shell's own start-up and exit are inside every measured run (not subtracted)"
# -N (hyperfine's --shell=none): command strings split into words.
run_pm 0 compare -N --blocks 2 --warmup 0 -q -m wall-time -o n.json 'true x' "sh -c 'exit 0'"
expect_eq "$(jv n.json variants.1.argv.#)" 3 "-N: split into words"
expect_eq "$(jv n.json variants.1.argv.2)" "exit 0" "-N: quotes honoured"
run_pm 2 compare -N -S sh 'true' 'true'
expect_in err "error: -N (no shell) and --shell sh exclude each other"
run_pm 0 stat -S sh -r 1 -q -m wall-time -o st.json -- echo a '|' wc -c
expect_eq "$(jv st.json variants.0.argv.2)" "echo a | wc -c" "stat --shell joins the words"

# Exports: markdown table, JSON and CSV aliases.
run_pm 0 stat -r 2 -q -m wall-time --export-markdown t.md --export-json e.json --export-csv e.csv -- true
expect_in t.md "| metric | mean | 95% CI of mean | ± | median | cv | runs |"
expect_in t.md "| :--- | ---: |"
expect_in t.md "| wall-time |"
expect_eq "$(jv e.json complete)" true "--export-json"
expect_in e.csv "wall-time"
run_pm 0 compare --blocks 2 --warmup 0 -q -m wall-time --export-markdown c.md -- true -- true
expect_in c.md "| metric | variant | baseline | variant | ratio |"
expect_in c.md "| A | true | (baseline) |"
mkdir adir
run_pm 2 stat -r 1 --export-markdown adir -- true

# Numbers and names.
run_pm 2 compare --noise-band 200 -- true -- true
expect_in err "error: option '--noise-band': '200' is out of range"
expect_in err "hint: use a value from 0 to 100"
run_pm 2 stat --pik 1 -- true
expect_not_in err "--pin"  # one replaced letter in 3 is another option (perf's --pid)
