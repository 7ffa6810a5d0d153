# Completion scripts come from the option tables: the bash one, sourced,
# completes command names, option prefixes and the words of options with
# fixed answers; an option added to a table is completed with no other
# change (checked on options of several commands). Also 'pmustat help CMD'
# and -V.
. "$TESTLIB"

command -v bash >/dev/null || { echo "skip: no bash"; exit 77; }
run_pm 0 completion bash
cp out pmustat.bash
bash -n pmustat.bash || fail "the bash completion does not parse"

# complete WORD...: the completions of the last word after 'pmustat WORD...'
complete_words() {
	bash -c '. ./pmustat.bash
		COMP_WORDS=(pmustat "$@"); COMP_CWORD=$#
		_pmustat; printf "%s\n" "${COMPREPLY[@]}"' complete "$@"
}
complete_words st > c; expect_in c stat; expect_not_in c compare
complete_words co > c; expect_in c compare; expect_in c completion
complete_words stat --rep > c; expect_eq "$(cat c)" "--repeat" "stat --rep"
complete_words compare --fail > c; expect_eq "$(cat c)" "--fail-on-regression" "compare --fail"
complete_words report --h > c; expect_in c --html; expect_in c --help
complete_words stat --backend "" > c; expect_eq "$(tr '\n' ' ' < c)" "auto hw sim sw " "--backend values"
complete_words doctor --js > c; expect_eq "$(cat c)" "--json" "doctor --js"
complete_words help ex > c; expect_eq "$(cat c)" "explain" "help ex"
# Every long option of stat's -h is offered for '--'.
run_pm 0 stat -h
grep -o -- ' --[a-z][a-z-]*' out | tr -d ' ' | sort -u > want
complete_words stat - | grep -- '^--' | sort -u > got
missing=$(comm -23 want got)
expect_eq "$missing" "" "options of 'stat -h' not completed"
# After '--' comes the measured command: no pmustat options there.
complete_words stat -- ls --rep > c; expect_not_in c --repeat

run_pm 0 completion zsh
expect_in out "#compdef pmustat"
expect_in out "'--repeat[measured runs (default 10)]:n:'"
if command -v zsh >/dev/null; then
	zsh -n out || fail "the zsh completion does not parse"
fi
run_pm 2 completion fish
expect_in err "error: completion for which shell?"

run_pm 0 help stat
expect_in out "usage: pmustat stat"
expect_in out "--repeat"
run_pm 0 help
expect_in out "completion"
run_pm 2 help stta
expect_in err "did you mean 'pmustat stat'?"
run_pm 0 -V
expect_eq "$(cat out)" "pmustat $(sed -n 's/^VERSION *:= *//p' "$SRCROOT/Makefile")" "-V"
