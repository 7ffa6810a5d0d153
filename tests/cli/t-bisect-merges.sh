# pmustat bisect on histories with merges, as git bisect defines the first
# bad commit (a good commit makes its ancestors good, a bad one its
# descendants bad): the culprit on a short branch merged into a longer one
# is found and compared with its real parent; --first-parent names the
# merge that brought it; diverged or reversed endpoints and a moved --bad
# get a hint that names commits; a candidate whose program hangs is stopped
# by --timeout and skipped. Every metric is an exact count (allocations, via
# the preload shim): nothing depends on the host's load.
. "$TESTLIB"
git_sandbox

# A program allocating ALLOCS times a run (cost.h), or hanging (hang.h).
start_repo() {
	mkdir "$1" && cd "$1" || fail "cannot make $1"
	git init -q -b main
	cat >prog.c <<-'EOF'
	#include <stdlib.h>
	#include <unistd.h>
	#include "cost.h"
	#include "hang.h"
	int main(void)
	{
	#ifdef HANG
		for (;;)
			pause();
	#endif
		for (int i = 0; i < ALLOCS; i++)
			free(malloc(16));
		return 0;
	}
	EOF
	echo '#define ALLOCS 100' >cost.h
	: >hang.h
	echo 0 >notes.txt
	git add -A && git commit -qm start && git tag good
}
tidy() { echo "$1" >>notes.txt && git commit -qam "tidy $1"; }
costly() { echo '#define ALLOCS 200' >cost.h && git commit -qam "allocate 200 times"; }

bisect() { (cd "$1" && shift && "$PMUSTAT" bisect --seed 7 "$@" >"$T/out" 2>"$T/err"); echo $? >"$T/rc"; }
expect_rc() { expect_eq "$(cat "$T/rc")" "$1" "$2: exit code" || true; }

# --- the culprit on a two-commit branch merged into a six-commit one ---------
# good; a: A1 (the culprit), A2; b: B1..B6; bad = the merge (b's side first).
start_repo m
git checkout -q -b a && costly && echo a2 >a2.txt && git add a2.txt && git commit -qm A2
git checkout -q main && for i in 1 2 3 4 5 6; do tidy "B$i"; done
git merge -q --no-edit a && git tag bad
a1=$(git rev-parse a~1)
cd "$T"
bisect m --good good --bad bad --build 'cc -o prog prog.c' -m allocs -o "$T/r1" -- ./prog
[ "$(cat rc)" = 0 ] || { cat out err; fail "bisect exited $(cat rc)"; }
expect_eq "$(jv r1/bisect.json culprit.commit)" "$a1" "the culprit is A1, as git bisect names it"
expect_eq "$(jv r1/bisect.json culprit.parent)" "$(cd m && git rev-parse good)" "A1's parent is good, not a commit of b"
expect_eq "$(jv r1/bisect.json confirm.vs_good.verdict)" higher "A1 against its real parent"
expect_eq "$(jv r1/bisect.json candidates)" 9 "B1..B6, A1, A2 and the merge"
expect_in r1/bisect.json "1 merge: as in git bisect"
d=$(jv r1/bisect.json decisions)
[ "$d" -le 4 ] || fail "$d decisions for 9 commits"
expect_eq "$(jv r1/bisect.json max_decisions)" 0 "no binary search's bound across merges"
expect_not_in out "at most"
# Each tested commit is named once, and the merge (known bad) never.
dups=$(grep -o '"kind":"candidate","commit":"[0-9a-f]*"' r1/bisect.journal | sort | uniq -d)
[ -z "$dups" ] || fail "a commit tested twice: $dups"
expect_not_in r1/bisect.journal "\"kind\":\"candidate\",\"commit\":\"$(cd m && git rev-parse bad)\""

# --- --first-parent: the mainline's view, the merge brought it --------------
bisect m --good good --bad bad --first-parent --build 'cc -o prog prog.c' -m allocs -o "$T/r2" -- ./prog
[ "$(cat rc)" = 0 ] || { cat out err; fail "bisect --first-parent exited $(cat rc)"; }
expect_eq "$(jv r2/bisect.json culprit.commit)" "$(cd m && git rev-parse bad)" "the merge, on the first-parent line"
expect_eq "$(jv r2/bisect.json culprit.parent)" "$(cd m && git rev-parse bad^1)" "the merge's first parent"
expect_eq "$(jv r2/bisect.json candidates)" 7 "B1..B6 and the merge"
expect_eq "$(jv r2/bisect.json max_decisions)" 3 "ceil(log2(7)) on a line"
expect_in r2/bisect.json "bisect without --first-parent"

# --- a branch forked before good: its commits are candidates too (reachable
# from bad, not from good), and the culprit's parent, older than good, does
# not build: the culprit is named, its own change said not measured.
start_repo s
echo '#error broken on purpose' >hang.h && git commit -qam "break the build"
git checkout -q -b side && : >hang.h && costly
git checkout -q main && : >hang.h && git commit -qam "fix the build" && git tag -f good >/dev/null
git merge -q --no-edit side
cd "$T"
bisect s --good good --bad main --build 'cc -o prog prog.c' -m allocs -o "$T/r6" -- ./prog
[ "$(cat rc)" = 0 ] || { cat out err; fail "bisect with a side branch exited $(cat rc)"; }
expect_eq "$(jv r6/bisect.json culprit.subject)" "allocate 200 times" "the side branch's commit"
expect_eq "$(jv r6/bisect.json candidates)" 2 "the side commit and the merge"
expect_in r6/bisect.json "the build of the culprit's parent"
expect_in r6/bisect.json "its own change is not measured, the premise's is shown"
expect_eq "$(jv r6/bisect.json confirm)" null "no confirm step"

# --- decided candidates' worktrees go during the search: each build counts
# the worktrees there are; at most good, bad, the newest bad candidate and
# the one being built (16 commits, the culprit the 12th: 4 decisions).
start_repo w
for i in $(seq 1 16); do if [ "$i" = 12 ]; then costly; else tidy "$i"; fi; done
cd "$T"
bisect w --good good --bad main --shell -o "$T/r7" -m allocs \
	--build "find '$T/r7/worktrees' -mindepth 1 -maxdepth 1 -type d | wc -l >>'$T/counts'; cc -o prog prog.c" -- ./prog
[ "$(cat rc)" = 0 ] || { cat out err; fail "bisect of w exited $(cat rc)"; }
expect_eq "$(jv r7/bisect.json culprit.subject)" "allocate 200 times" "w's culprit"
most=$(sort -n counts | tail -1)
[ "$(wc -l <counts)" -ge 5 ] || fail "only $(wc -l <counts) builds counted"
[ "$most" -le 4 ] || fail "$most worktrees at once: decided candidates' worktrees were kept"
[ -z "$(ls r7/worktrees)" ] || fail "worktrees left at the end: $(ls r7/worktrees)"

# --- the user's configuration does not change what is parsed, and the
# user's index is not written (git status would refresh it after a touch).
(cd m && git config core.abbrev 20 && git config color.ui always && touch notes.txt)
idx=$(stat -c %y m/.git/index)
bisect m --good bad~1 --bad bad --build 'cc -o prog prog.c' -m allocs -o "$T/r8" -- ./prog
[ "$(cat rc)" = 0 ] || { cat out err; fail "bisect with core.abbrev 20 exited $(cat rc)"; }
expect_eq "$(jv r8/bisect.json culprit.commit)" "$a1" "A1 again, from bad's first parent"
expect_eq "$(stat -c %y m/.git/index)" "$idx" "the user's index, untouched"
(cd m && git config --unset core.abbrev && git config --unset color.ui)

# --- a failed build's last lines are shown however long its log (5 MB here)
start_repo n
touch noisy && git add noisy && git commit -qm "a noisy failing build"
git rm -q noisy && costly
cd "$T"
bisect n --good good --bad main --shell -m allocs -o "$T/r9" --build \
	'if [ -e noisy ]; then head -c 5000000 /dev/zero | tr "\0" x; echo; echo "the last words"; exit 1; fi; cc -o prog prog.c' -- ./prog
expect_rc 5 "only a skipped commit left"
expect_in err "the last words"

# --- endpoints that are not in order -----------------------------------------
bisect m --good a --bad main~1 -- ./prog
expect_rc 2 "diverged"
expect_in err "is not an ancestor of --bad 'main~1'"
expect_in err "hint: they have diverged since $(cd m && git rev-parse --short=12 good)"
expect_not_in err "swap"
bisect m --good bad --bad good -- ./prog
expect_rc 2 "reversed"
expect_in err "hint: --bad 'good' comes before --good 'bad' in the history: swap them"

# --- a rerun after --bad's branch moved names the journal's commits ---------
(cd m && tidy after)
bisect m --good good --bad main --build 'cc -o prog prog.c' -m allocs -o "$T/r1" -- ./prog
expect_rc 2 "--bad moved"
expect_in err "holds a bisect of good $(cd m && git rev-parse --short=12 good) and bad $(cd m && git rev-parse --short=12 bad)"
expect_in err "hint: resume it with --good $(cd m && git rev-parse --short=12 good) --bad $(cd m && git rev-parse --short=12 bad)"
[ "$(grep -c '^error: ' err)" = 1 ] || fail "more than one error line"
bisect m --good good --bad bad --build 'cc -o prog prog.c' -m allocs,frees -o "$T/r1" -- ./prog
expect_rc 2 "other metrics"
expect_in err "holds a bisect of other arguments (its 'metrics' differs)"

# --- a program in the user's work tree is the same file for every candidate --
(cd m && cc -o prog prog.c) || fail "cannot build prog in m"
bisect m --good bad~1 --bad bad --build 'cc -o prog prog.c' -m allocs -o "$T/r5" -- "$T/m/prog"
expect_rc 4 "the same program for good and bad: no difference"
expect_in err "warning: '$T/m/prog' is in your work tree, not in a candidate's worktree"
expect_in r5/bisect.json "name it relative to the repository (./prog)"

# --- a candidate whose program hangs is stopped and skipped -----------------
# Eight commits: 4 doubles the allocations, 2 hangs. Tested: 4 (bad), 2
# (hangs: skipped after --timeout), 1, 3.
start_repo h
tidy 1
echo '#define HANG 1' >hang.h && git commit -qam "hang"
: >hang.h && git commit -qam "stop hanging"
costly
for i in 5 6 7 8; do tidy "$i"; done
cd "$T"
bisect h --good good --bad main --timeout 5 --build 'cc -o prog prog.c' -m allocs -o "$T/r3" -- ./prog
[ "$(cat rc)" = 0 ] || { cat out err; fail "bisect with a hanging candidate exited $(cat rc)"; }
expect_eq "$(jv r3/bisect.json culprit.subject)" "allocate 200 times" "the culprit past a hanging commit"
expect_eq "$(jv r3/bisect.json skipped)" 1 "the hanging commit is skipped"
expect_eq "$(jv r3/bisect.json steps.1.subject)" "hang" "the step skipped"
expect_in r3/bisect.json "timed out after 5 s"
expect_in err "skip: "
# Without --timeout, the premise sets one, and says so.
bisect h --good main~5 --bad main~4 --build 'cc -o prog prog.c' -m allocs -o "$T/r4" -- ./prog
expect_rc 0 "one candidate"
expect_in r4/bisect.json "a run longer than"
expect_in r4/bisect.json "ten times the premise's slowest run"
exit 0
