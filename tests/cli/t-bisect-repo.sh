# pmustat bisect in the user's repository (campaign/revisions.c): what it
# may touch and what survives kills. A history of 8 commits of a small C
# program whose commit 7 doubles its allocations (an exact count: 2 blocks
# a step, no verdict depends on the host's load). Checked: a user's
# worktree whose directory is away keeps its registration, index and HEAD;
# a kill of the process group inside `git worktree add` (made deterministic
# by a smudge filter that blocks) and an entry of git's left without
# `commondir` are remade; an empty directory in place of a worktree is not
# taken for one; git's fatal line is quoted; a failed build is tried again
# on a rerun; daemons a build starts do not outlive it; kill -9 of pmustat
# and Ctrl-C during a build leave no build process; --build-timeout; the
# lock per commit; the note on submodules.
. "$TESTLIB"
git_sandbox

# The build, driven by files of the test: FAIL_ONCE fails it once; BLOCK_AT=N
# makes the Nth build (counted in $T/count) write its pid to $T/building and
# block; every build with DAEMONS set starts two processes that outlive it
# (one in a session of its own) and writes their pids there.
cat >build.sh <<'EOF'
n=$(($(cat "$T/count" 2>/dev/null || echo 0) + 1)); echo "$n" >"$T/count"
if [ -n "${FAIL_ONCE:-}" ] && [ -e "$FAIL_ONCE" ]; then
	rm -f "$FAIL_ONCE"; echo "a transient failure"; exit 1
fi
if [ -n "${DAEMONS:-}" ]; then
	sleep 1001 & echo $! >>"$DAEMONS"
	if command -v setsid >/dev/null; then setsid sleep 1002 & echo $! >>"$DAEMONS"; fi
fi
if [ "${BLOCK_AT:-0}" = "$n" ]; then echo $$ >"$T/building"; exec sleep 1003; fi
exec cc -o prog prog.c
EOF

make_repo() {
	mkdir "$1" && cd "$1" || fail "cannot make $1"
	git init -q
	printf '#include <stdlib.h>\n#include "cost.h"\nint main(void)\n{\n\tfor (int i = 0; i < ALLOCS; i++)\n\t\tfree(malloc(16));\n\treturn 0;\n}\n' >prog.c
	echo '#define ALLOCS 100' >cost.h
	echo 0 >notes.txt
	git add -A && git commit -qm start
	for i in 1 2 3 4 5 6 7 8; do
		if [ "$i" = 7 ]; then echo '#define ALLOCS 200' >cost.h; else echo "$i" >notes.txt; fi
		git commit -qam "commit $i"
	done
	cd "$T" || exit 1
}

# bisect REPO DIR [OPTS...]: the search from HEAD~8 to HEAD, built by build.sh.
bisect() {
	r=$1 d=$2; shift 2
	(cd "$r" && T="$T" "$PMUSTAT" bisect --seed 7 --good HEAD~8 --bad HEAD \
		--build "sh $T/build.sh" -m allocs -o "$d" "$@" -- ./prog >"$T/out" 2>"$T/err")
	echo $? >"$T/rc"
}
expect_rc() { [ "$(cat "$T/rc")" = "$1" ] || { cat out err; fail "$2: exit $(cat "$T/rc"), expected $1"; }; }
found() {
	expect_rc 0 "$2"
	expect_eq "$(jv "$1/bisect.json" culprit.subject)" "commit 7" "$2: the culprit"
}
# gone PIDS...: every pid ends within a bound (polled; a leftover fails).
gone() {
	for p in "$@"; do
		i=0
		while kill -0 "$p" 2>/dev/null; do
			i=$((i + 1))
			[ "$i" -le 200 ] || fail "process $p ($(cat /proc/"$p"/cmdline | tr '\0' ' ')) is still running"
			sleep 0.05
		done
	done
}
# await FILE: poll until it exists (bounded).
await() {
	i=0
	until [ -s "$1" ]; do
		i=$((i + 1))
		[ "$i" -le 600 ] || { cat err; fail "$1 did not appear"; }
		sleep 0.05
	done
}
ours_left() { ls "$1/worktrees"; grep -l "$1/worktrees" "$2"/.git/worktrees/*/gitdir 2>/dev/null; }

# --- a user's worktree on an unmounted disk keeps its registration ----------------
make_repo one
(cd one && git worktree add -q --detach "$T/userwt" HEAD~3 && mv "$T/userwt" "$T/userwt.away") ||
	fail "cannot make the user's worktree"
# A .gitmodules: the worktrees have no submodules checked out, and a note says so.
(cd one && printf '[submodule "lib"]\n\tpath = lib\n\turl = ./lib\n' >.gitmodules &&
	git add .gitmodules && git commit -qm "add .gitmodules" && git tag -f top) >/dev/null
(cd one && T="$T" "$PMUSTAT" bisect --seed 7 --good HEAD~9 --bad HEAD~1 --build "sh $T/build.sh" \
	-m allocs -o "$T/r1" -- ./prog >"$T/out" 2>"$T/err"); echo $? >rc
found r1 "with a user's worktree away"
[ -f one/.git/worktrees/userwt/HEAD ] || fail "the user's worktree lost its HEAD"
[ -f one/.git/worktrees/userwt/index ] || fail "the user's worktree lost its index"
(cd one && git worktree list --porcelain) | grep -q "^worktree $T/userwt\$" ||
	fail "the user's worktree is no longer registered"
[ -z "$(ours_left "$T/r1" one)" ] || fail "worktrees of ours left: $(ours_left "$T/r1" one)"
expect_not_in r1/bisect.json "no submodules checked out"
(cd one && T="$T" "$PMUSTAT" bisect --seed 7 --good HEAD~9 --bad HEAD --build "sh $T/build.sh" \
	-m allocs -o "$T/r1s" -- ./prog >"$T/out" 2>"$T/err"); echo $? >rc
expect_rc 0 "with a .gitmodules"
expect_in r1s/bisect.json "no submodules checked out"
expect_in r1s/bisect.json "git submodule update --init"

# --- a kill of the group inside `git worktree add`; git's entry without commondir --
# A smudge filter blocks the first checkout (of the good commit): the kill
# lands inside `git worktree add`, with the worktree half made.
make_repo two
cat >smudge.sh <<EOF
if [ -e "$T/block-add" ]; then rm -f "$T/block-add"; echo \$\$ >"$T/adding"; exec sleep 1005; fi
if [ -e "$T/fail-add" ]; then rm -f "$T/fail-add"; echo "the filter refuses" >&2; exit 1; fi
exec cat
EOF
# (info/attributes is the common directory's: it applies to every worktree.)
(cd two && git config filter.slow.smudge "sh $T/smudge.sh" && git config filter.slow.clean cat &&
	git config filter.slow.required true && echo 'notes.txt filter=slow' >.git/info/attributes) ||
	fail "cannot set up the filter"
good=$(cd two && git rev-parse HEAD~8)
touch block-add
# setsid: pmustat leads a process group of its own, killed as a whole.
(cd two && T="$T" exec setsid "$PMUSTAT" bisect --seed 7 --good HEAD~8 --bad HEAD \
	--build "sh $T/build.sh" -m allocs -o "$T/r2" -- ./prog >"$T/out" 2>"$T/err") &
pm=$!
await adding
[ -e "r2/worktrees/$good/.git" ] || fail "the kill did not land inside 'git worktree add'"
[ ! -e "r2/worktrees/$good.done" ] || fail "the half-made worktree is marked complete"
kill -9 "-$pm"
wait "$pm"
gone "$(cat adding)"
# The half-made worktree's entry also loses commondir (a kill a little earlier).
entry=$(grep -l "r2/worktrees/$good" two/.git/worktrees/*/gitdir | head -n 1)
[ -n "$entry" ] || fail "no entry of git's for the half-made worktree"
rm -f "$(dirname "$entry")/commondir"
bisect two "$T/r2"
found r2 "after a kill inside 'git worktree add'"
(cd two && git worktree list >"$T/list" 2>&1) || { cat list; fail "git worktree list fails after the bisect"; }
expect_eq "$(wc -l <list)" 1 "worktrees registered after the bisect"
[ -z "$(ours_left "$T/r2" two)" ] || fail "worktrees of ours left: $(ours_left "$T/r2" two)"
# A failing `git worktree add` is quoted by git's fatal line, not its progress line.
touch fail-add
bisect two "$T/r2f"
expect_rc 1 "a failing 'git worktree add'"
expect_in err "smudge filter slow failed"
expect_not_in err "Preparing worktree"
expect_in err "hint: "

# --- an empty directory in place of a worktree, inside the repository -----------
# (git would find the enclosing repository, at the bad commit: HEAD.)
bad=$(cd one && git rev-parse HEAD)
mkdir -p "one/pmustat-bisect/worktrees/$bad"
(cd one && T="$T" "$PMUSTAT" bisect --seed 7 --good HEAD~9 --bad HEAD --build "sh $T/build.sh" \
	-m allocs -- ./prog >"$T/out" 2>"$T/err"); echo $? >rc
expect_rc 0 "an empty directory in place of the bad commit's worktree"
rm -rf one/pmustat-bisect

# --- a failed build is tried again on a rerun -----------------------------------
touch fail-once
FAIL_ONCE="$T/fail-once" bisect one "$T/r3"
expect_rc 1 "the good commit's build fails once"
expect_in err "the build of the good commit"
FAIL_ONCE="$T/fail-once" bisect one "$T/r3"
found r3 "the failed build tried again"

# --- daemons started by a build do not outlive it -------------------------------
: >daemons
DAEMONS="$T/daemons" bisect one "$T/r4"
found r4 "builds that start daemons"
[ -s daemons ] || fail "no build started a daemon"
gone $(cat daemons)

# --- kill -9 of pmustat during a build: no build process is left -----------------
rm -f count building; : >daemons
(cd one && T="$T" BLOCK_AT=1 DAEMONS="$T/daemons" exec "$PMUSTAT" bisect --seed 7 --good HEAD~8 \
	--bad HEAD --build "sh $T/build.sh" -m allocs -o "$T/r5" -- ./prog >"$T/out" 2>"$T/err") &
pm=$!
await building
kill -9 "$pm"
wait "$pm"
gone "$(cat building)" $(cat daemons)
bisect one "$T/r5"
found r5 "resumed after kill -9 during a build"

# --- Ctrl-C during a build: interrupted, resumable --------------------------------
rm -f count building
(cd one && T="$T" BLOCK_AT=1 exec "$PMUSTAT" bisect --seed 7 --good HEAD~8 --bad HEAD \
	--build "sh $T/build.sh" -m allocs -o "$T/r6" -- ./prog >"$T/out" 2>"$T/err") &
pm=$!
await building
kill -INT "$pm"
wait "$pm"
expect_eq "$?" 130 "Ctrl-C during a build: exit code"
gone "$(cat building)"
expect_eq "$(jv r6/bisect.json outcome)" interrupted "outcome after Ctrl-C during a build"
bisect one "$T/r6"
found r6 "resumed after Ctrl-C during a build"

# --- --build-timeout: the first candidate's build (the third) blocks --------------
rm -f count building
BLOCK_AT=3 bisect one "$T/r7" --build-timeout 8
found r7 "a candidate's build timed out"
gone "$(cat building)"
expect_eq "$(jv r7/bisect.json steps.0.outcome)" skipped "the candidate whose build timed out"
expect_in r7/bisect.json "timed out after 8 s"
expect_in err "timed out after 8 s"
rm -f count building
BLOCK_AT=1 bisect one "$T/r8" --build-timeout 8
expect_rc 1 "the good commit's build timed out"
expect_in err "error: the build of the good commit"
expect_in err "timed out after 8 s"
expect_in err "hint: give it longer (--build-timeout)"
gone "$(cat building)"

# --- one build per commit: a held lock is waited for ---------------------------
if command -v flock >/dev/null; then
	rm -f count release held
	mkdir -p r9/builds
	g=$(cd one && git rev-parse HEAD~8)
	: >"r9/builds/$g.log"
	flock "r9/builds/$g.log" sh -c "echo held >'$T/held'; until [ -e '$T/release' ]; do sleep 0.05; done" &
	holder=$!
	await held
	(cd one && T="$T" exec "$PMUSTAT" bisect --seed 7 --good HEAD~8 --bad HEAD \
		--build "sh $T/build.sh" -m allocs -o "$T/r9" -- ./prog >"$T/out" 2>"$T/err") &
	pm=$!
	i=0
	until grep -q "waiting for a build or checkout of" err 2>/dev/null; do
		i=$((i + 1)); [ "$i" -le 400 ] || { touch release; fail "no wait for the lock"; }
		sleep 0.05
	done
	[ ! -e count ] || { touch release; fail "a build started while the lock was held"; }
	touch release
	wait "$holder"
	wait "$pm"; echo $? >rc
	found r9 "after the lock was released"
fi
exit 0
